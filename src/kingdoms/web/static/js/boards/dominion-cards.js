// Dominion card faces (our own design): a frame coloured by type, the cost as a coin
// with a Potion flask beside it, the name fitted to the width, the card's picture (an
// SVG drawn for this project), the type line and the full text.  Pressing and holding
// (or a long tap) shows a large copy; on touch screens a first tap selects a card and
// a second tap (or the decision bar's button) confirms, so reading a card never buys
// it by accident.
import { h } from "../dom.js";

const SVG = "http://www.w3.org/2000/svg";
const HOLD_MS = 450;

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}

/** A small flask drawn in SVG (no font glyph that could render as an empty box). */
export function potionIcon() {
  return svg("svg", { class: "potion-icon", viewBox: "0 0 16 20", "aria-hidden": "true" },
    svg("path", { d: "M6 1h4v5l5 9a3 3 0 0 1-3 4H4a3 3 0 0 1-3-4l5-9z", fill: "#6d3fa6", stroke: "#3c1f63", "stroke-width": "1.2" }),
    svg("path", { d: "M3 13h10l1.5 2.8A2 2 0 0 1 12.8 18H3.2a2 2 0 0 1-1.7-2.2z", fill: "#c9a7f0" }));
}

/** The cost: a coin with the number, and a flask beside it when Potions are needed. */
export function costBadge(c) {
  if (!c) return h("span", { class: "dcost" });
  return h("span", { class: "dcost", "aria-label": `${c.cost}${c.potions ? " + P" : ""}` },
    h("span", { class: "coin" }, String(c.cost)),
    c.potions ? h("span", { class: "potion", title: "P" }, potionIcon()) : null);
}

/** A card's type on its type line: one card's ("Skarb"), where the supply's group
 *  headings name many ("Skarby"); msgid "type:<Type>", else the type's own. */
export function typeName(type, t) {
  const key = `type:${type}`;
  const own = t(key);
  return own === key ? t(type) : own;
}

/** CSS classes for a card's frame: each type, and "mixed" for two or more. */
export function frameClasses(types) {
  const out = types.map((t) => `type-${t.toLowerCase()}`);
  if (types.length > 1) out.push("mixed");
  return out;
}

function nameClass(name) {
  const n = [...name].length;
  if (n > 18) return "dname xlong";
  if (n > 12) return "dname long";
  return "dname";
}

let zoomEl = null;
let selected = null; // the card element selected by a first tap (touch screens)

function zoomLayer() {
  if (!zoomEl || !zoomEl.isConnected) {
    zoomEl = h("div", { class: "dzoom", id: "d-zoom", hidden: true, onclick: () => hideZoom() });
    document.body.append(zoomEl);
  }
  return zoomEl;
}

export function hideZoom() {
  if (zoomEl) zoomEl.hidden = true;
}

export function showZoom(id, cards, t) {
  const layer = zoomLayer();
  layer.textContent = "";
  layer.append(cardFace(id, cards, { t, big: true }));
  layer.hidden = false;
}

const touchScreen = () => window.matchMedia && window.matchMedia("(hover: none)").matches;

/**
 * One card face.  opts: {t, count, action, label, act, compact, big}.
 * `action` (a legal action) makes the card clickable (`label`: the action's text,
 * which heads its accessible name); `count` shows a pile's size.
 */
export function cardFace(id, cards, opts = {}) {
  const c = cards[id];
  const t = opts.t || ((s) => s);
  const types = c ? c.types : [];
  const clickable = opts.action !== undefined;
  const name = c ? c.name : id;
  const cls = ["dcard", ...frameClasses(types)];
  if (clickable) cls.push("clickable");
  if (opts.compact) cls.push("compact");
  if (opts.big) cls.push("big");
  if (c && (c.set === "basic" || c.set === "alchemy-basic")) cls.push("basic");
  let held = false;
  let timer = null;
  const el = h("div", {
    class: cls.join(" "),
    dataset: { card: id, ...(clickable ? { action: String(opts.action) } : {}) },
    tabindex: clickable ? "0" : undefined,
    role: clickable ? "button" : undefined,
    // a card to click is named by what the click does first ("Put Copper on top")
    "aria-label": [clickable ? opts.label : null, c ? `${name}, ${c.text}` : name].filter(Boolean).join(": "),
  },
  // the name with soft hyphens (from the server's dictionaries), in the page's language,
  // so a long name breaks between syllables with a hyphen
  // the card's picture (decorative: the name and text say what it is): drawn behind the
  // text on a full card; on a card showing its name band only (a compact pile, the
  // dock) it takes its own place in the band, so a long name wraps before it
  h("div", { class: "dhead" }, costBadge(c), h("span", { class: nameClass(name), lang: document.documentElement.lang || undefined }, (c && c.name_hy) || name),
    c ? h("img", { class: "dart", src: `/static/img/cards/${id}.svg`, alt: "", "aria-hidden": "true", draggable: "false", decoding: "async" }) : null),
  opts.compact ? null : h("div", { class: "dtext" }, c ? c.text : ""),
  h("div", { class: "dtypes" }, types.map((x) => typeName(x, t)).join(" – ")),
  opts.count !== undefined ? h("span", { class: "dcount", title: t("Cards left") }, String(opts.count)) : null);
  if (opts.big) return el;
  // press and hold: the large copy (released: gone, and the press is not a click).
  // The card captures the pointer it was pressed with, so the zoom layer drawn over it
  // (or its picture loading, or a hand shaking by a pixel) is no "leave": the hold ends
  // where it is released.  Moving off the card before the copy shows cancels it.
  el.addEventListener("pointerdown", (ev) => {
    held = false;
    clearTimeout(timer);
    if (ev.button !== undefined && ev.button > 0) return; // the main button (or a touch) only
    try { el.setPointerCapture(ev.pointerId); } catch { /* a pointer already gone */ }
    timer = setTimeout(() => {
      timer = null;
      if (!el.isConnected) return; // the board was redrawn under the finger
      held = true;
      showZoom(id, cards, t);
    }, HOLD_MS);
  });
  el.addEventListener("pointermove", (ev) => {
    if (held || !timer) return;
    const r = el.getBoundingClientRect();
    if (ev.clientX < r.left || ev.clientX > r.right || ev.clientY < r.top || ev.clientY > r.bottom) {
      clearTimeout(timer);
      timer = null;
    }
  });
  const stop = () => { clearTimeout(timer); timer = null; if (held) setTimeout(hideZoom, 0); };
  el.addEventListener("pointerup", stop);
  el.addEventListener("pointercancel", stop);
  el.addEventListener("lostpointercapture", stop);
  el.addEventListener("pointerleave", () => { clearTimeout(timer); timer = null; });
  el.addEventListener("contextmenu", (ev) => ev.preventDefault());
  if (clickable) {
    el.addEventListener("click", (ev) => {
      if (held) { held = false; ev.preventDefault(); return; }
      if (touchScreen() && selected !== el && !opts.oneTap) {
        // first tap: select (and show what the card does); the second tap confirms
        // (a move that needs no confirming — a Treasure played, a card picked in a
        // question — is made by the first tap: opts.oneTap)
        if (selected) selected.classList.remove("selected");
        selected = el;
        el.classList.add("selected");
        document.dispatchEvent(new CustomEvent("dcard-selected", { detail: { id, action: opts.action, el } }));
        return;
      }
      selected = null;
      el.blur();
      opts.act(opts.action);
    });
    el.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault(); // (a space does not scroll the page)
      opts.act(opts.action);
    });
  }
  return el;
}

/** Shrink every card name in `root` that does not fit its line (long single words). */
export function fitNames(root) {
  for (const el of root.querySelectorAll(".dname")) {
    let size = 1;
    el.style.fontSize = "";
    // never below 12 px: a name that still does not fit breaks (hyphenated) instead
    const least = Math.min(1, 12 / (parseFloat(getComputedStyle(el).fontSize) || 12));
    el.classList.remove("wrap", "tall");
    el.parentElement.classList.remove("stack");
    while (size - 0.06 >= least && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight * 1.02 + 1)) {
      size -= 0.06;
      el.style.fontSize = `${size}em`;
    }
    // a syllable wider than the room beside the cost: the name goes under the cost
    if (el.scrollWidth > el.clientWidth + 1) el.parentElement.classList.add("stack");
    // a word longer than the card even at its syllables breaks anywhere (a last resort)
    if (el.scrollWidth > el.clientWidth + 1) el.classList.add("wrap");
    // a name that needs a third line at the smallest size gets it (never cut off)
    if (el.scrollHeight > el.clientHeight * 1.02 + 1) el.classList.add("tall");
  }
}

/** The card selected by a first tap, when it is still on screen. */
export function selectedCard() {
  return selected && selected.isConnected ? selected : null;
}

export function clearSelection() {
  if (selected) selected.classList.remove("selected");
  selected = null;
}

/** Kingdom piles in the usual order: by cost (coins, then Potions), then by name. */
export function byCostThenName(piles, cards, lang) {
  const key = (p) => cards[p.card] || { cost: 99, potions: 0, name: p.card };
  return [...piles].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x.cost - y.cost || (x.potions || 0) - (y.potions || 0) || x.name.localeCompare(y.name, lang);
  });
}

let tipEl = null;

/** A card shown beside `anchor` while the pointer rests on it (a log line's name). */
export function showTip(anchor, id, cards, t) {
  hideTip();
  const r = anchor.getBoundingClientRect();
  tipEl = h("div", { class: "card-tip", role: "tooltip" }, cardFace(id, cards, { t, big: true }));
  document.body.append(tipEl);
  const w = tipEl.offsetWidth;
  const top = Math.max(4, Math.min(window.innerHeight - tipEl.offsetHeight - 4, r.top - 40));
  const left = r.left - w - 12 > 4 ? r.left - w - 12 : Math.min(window.innerWidth - w - 4, r.right + 12);
  Object.assign(tipEl.style, { top: `${top}px`, left: `${Math.max(4, left)}px` });
}

export function hideTip() {
  if (tipEl) tipEl.remove();
  tipEl = null;
}
