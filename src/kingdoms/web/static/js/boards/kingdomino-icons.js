// Kingdomino pieces drawn in SVG (font glyphs such as ♛ can render as empty boxes):
// crowns, the castle and the kings, in the players' colours.
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}

/** `n` crowns in a row, large enough to count at a glance. */
export function crowns(n) {
  const box = document.createElement("span");
  box.className = `crowns n${n}`;
  box.setAttribute("role", "img"); // (an aria-label needs a role)
  box.setAttribute("aria-label", String(n));
  for (let i = 0; i < n; i++) {
    box.append(svg("svg", { class: "crown", viewBox: "0 0 24 18", "aria-hidden": "true" },
      svg("path", { d: "M2 16 L1 4 L7 9 L12 1 L17 9 L23 4 L22 16 Z", fill: "#f6c818", stroke: "#5a4300", "stroke-width": "1.6", "stroke-linejoin": "round" })));
  }
  return box;
}

/** The starting castle. */
export function castle() {
  return svg("svg", { class: "castle", viewBox: "0 0 32 32", "aria-hidden": "true" },
    svg("path", { d: "M4 30 V12 h4 v4 h3 v-4 h4 v4 h2 v-4 h4 v4 h3 v-4 h4 v18 Z", fill: "#ece6d6", stroke: "#3b3428", "stroke-width": "1.8", "stroke-linejoin": "round" }),
    svg("path", { d: "M13 30 v-7 a3 3 0 0 1 6 0 v7", fill: "#3b3428" }),
    svg("path", { d: "M16 2 v8 M16 2 l6 2.5 l-6 2.5", fill: "#c0392b", stroke: "#3b3428", "stroke-width": "1.4" }));
}

/** A king (a pawn with a crown) in seat `q`'s colour. */
export function king(q) {
  return svg("svg", { class: `king-icon seat-fill-${q}`, viewBox: "0 0 20 26", "aria-hidden": "true" },
    svg("path", { d: "M5 6 L4 1 L7.5 3.5 L10 0.5 L12.5 3.5 L16 1 L15 6 Z", stroke: "#222", "stroke-width": "1", "stroke-linejoin": "round" }),
    svg("circle", { cx: "10", cy: "10", r: "4", stroke: "#222", "stroke-width": "1" }),
    svg("path", { d: "M3 25 Q4 15 10 14 Q16 15 17 25 Z", stroke: "#222", "stroke-width": "1" }));
}
