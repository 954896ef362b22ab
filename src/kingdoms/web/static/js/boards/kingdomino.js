// The Kingdomino board: the current and next lines with kings, every kingdom as a grid.
// Placing: click a highlighted square (a legal spot), rotate through the placements
// that cover it (button or "r"), click again (or Enter, or "Place") to place.  Only the
// server's legal actions are offered (legal[i].info = {kind: "place", cells: ...}).
import { h } from "../dom.js";
import { tn } from "../i18n.js";
import { gameCatalog } from "./catalog.js";
import { castle, crowns, king } from "./kingdomino-icons.js";

const catalog = gameCatalog("kingdomino"); // lang -> {terrains, dominoes}
let sel = null; // {step, key: "x,y", i}
const seen = {}; // seat -> squares of its kingdom at the last render (to animate new ones)
let current = null; // {el, msg, ctx} of the last render (for the keyboard)

// Variant bonuses by their keys in the view, as translatable titles.
const BONUS = { middle_kingdom: "Middle Kingdom", harmony: "Harmony" };
const bonusName = (t, key) => t(BONUS[key] || key);

function square(terrain, n, terrains, extra = "", inDomino = false) {
  return h("span", { class: `sq terrain-${terrain} ${extra}`, "aria-hidden": inDomino ? "true" : undefined,
    "aria-label": inDomino ? undefined : terrains[terrain] || terrain }, n ? crowns(n) : "");
}

/** A domino in words: "Domino 13: wheat, forest with 1 crown". */
function dominoName(n, d, t) {
  const half = ([terrain, c]) => (d.terrains[terrain] || terrain) + (c ? ` (${tn("{n} crown", "{n} crowns", c)})` : "");
  const [a, b] = d.dominoes[String(n)];
  return t("Domino {n}: {a}, {b}", { n, a: half(a), b: half(b) });
}

function dominoEl(n, d, opts = {}) {
  const [a, b] = d.dominoes[String(n)];
  const clickable = opts.action !== undefined;
  const t = opts.t || ((x, args) => x.replace(/\{(\w+)\}/g, (m, k) => (k in (args || {}) ? String(args[k]) : m)));
  return h("span", {
    class: ["domino", clickable ? "clickable" : "", opts.acting ? "acting" : ""].join(" "),
    dataset: { domino: String(n), ...(clickable ? { action: String(opts.action) } : {}) },
    role: clickable ? "button" : "img",
    tabindex: clickable ? "0" : undefined,
    "aria-label": clickable ? `${t("Pick")}: ${dominoName(n, d, t)}` : dominoName(n, d, t),
    onclick: clickable ? () => opts.act(opts.action) : undefined,
    onkeydown: clickable ? (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); opts.act(opts.action); } } : undefined,
  }, square(a[0], a[1], d.terrains, "", true), square(b[0], b[1], d.terrains, "", true));
}

function lineEl(title, line, d, ctx, picks, acting, id) {
  return h("div", { class: "kd-line panel", id },
    h("h2", {}, title),
    line.length ? h("ol", {}, line.map((e) => h("li", { class: "kd-slot" },
      h("span", { class: "muted" }, String(e.domino).padStart(2, " ")),
      dominoEl(e.domino, d, { action: picks[e.domino], act: ctx.act, acting: e.domino === acting, t: ctx.t }),
      e.king !== null ? h("span", { class: `king seat-${e.king}` }, king(e.king), h("span", { class: "king-name" }, ctx.name(e.king))) : h("span", { class: "muted" }, "—"))))
      : h("p", { class: "muted" }, ctx.t("None")));
}

function placements(legal) {
  return legal.filter((l) => l.info && l.info.kind === "place");
}

function rerender() {
  if (!current) return;
  const { el, msg, ctx } = current;
  if (!el.querySelector(".kingdomino") && !el.querySelector(".muted")) return; // not ours now
  if (el.textContent.includes(ctx.t("Hidden until the next player is ready."))) return;
  el.textContent = "";
  render(el, msg, ctx);
}

function candidatesAt(places, key) {
  return places.filter((p) => p.info.cells.some(([x, y]) => `${x},${y}` === key));
}

function chosen(places) {
  if (!sel) return null;
  const c = candidatesAt(places, sel.key);
  return c.length ? c[sel.i % c.length] : null;
}

function kingdomEl(v, q, d, ctx, places) {
  const k = v.kingdoms[q];
  const size = v.size;
  const cells = {};
  for (const [x, y, terrain, crowns] of k.cells) cells[`${x},${y}`] = [terrain, crowns];
  const xs = k.cells.map((c) => c[0]);
  const ys = k.cells.map((c) => c[1]);
  // the squares the kingdom may still grow into ...
  const [wx0, wx1] = [Math.max(...xs) - (size - 1), Math.min(...xs) + (size - 1)];
  const [wy0, wy1] = [Math.max(...ys) - (size - 1), Math.min(...ys) + (size - 1)];
  const mine = places.length && q === ctx.seat;
  const targets = new Set();
  if (mine) for (const p of places) for (const [x, y] of p.info.cells) { targets.add(`${x},${y}`); xs.push(x); ys.push(y); }
  const pick = mine ? chosen(places) : null;
  const preview = {};
  if (pick) for (const [x, y, terrain, crowns] of pick.info.cells) preview[`${x},${y}`] = [terrain, crowns];
  // ... drawn only around what is there and where a domino may go now (one square of
  // margin where this seat places; at least 3×3): squares stay large on a phone
  // (Mighty Duel early, four kingdoms)
  const pad = targets.size ? 1 : 0;
  const span = (lo, hi, w0, w1) => {
    let [a, b] = [Math.max(w0, lo - pad), Math.min(w1, hi + pad)];
    while (b - a < 2 && (a > w0 || b < w1)) { if (a > w0) a--; if (b - a < 2 && b < w1) b++; }
    return [a, b];
  };
  const [x0, x1] = span(Math.min(...xs), Math.max(...xs), wx0, wx1);
  const [y0, y1] = span(Math.min(...ys), Math.max(...ys), wy0, wy1);
  // the grid scales to the width it gets (a phone fits Mighty Duel's 7×7 too)
  const cols = x1 - x0 + 1;
  const grid = h("div", { class: "kd-grid", role: "group", "aria-label": ctx.t("Kingdom of {name}", { name: ctx.name(q) }),
    style: { gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))` } });
  grid.style.setProperty("--cols", String(cols));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const key = `${x},${y}`;
      const have = cells[key] || preview[key];
      const cls = ["kd-cell"];
      if (have) cls.push(`terrain-${have[0]}`);
      // squares placed since the last picture of this kingdom arrive gently
      if (cells[key] && seen[q] && !seen[q].has(key)) cls.push("fresh");
      if (targets.has(key)) cls.push("target");
      if (preview[key]) cls.push("preview");
      const isTarget = targets.has(key);
      const choose = () => {
        if (sel && sel.key === key && pick) { ctx.act(pick.action); return; }
        sel = { step: current.msg.state_id, key, i: 0 };
        rerender();
        const again = document.querySelector(`.kd-kingdom[data-seat="${q}"] .kd-cell[data-x="${x}"][data-y="${y}"]`);
        if (again) again.focus();
      };
      const what = have ? (have[0] === "castle" ? ctx.t("castle") : d.terrains[have[0]] || have[0]) : ctx.t("empty");
      const crownText = have && have[1] ? `, ${tn("{n} crown", "{n} crowns", have[1])}` : "";
      grid.append(h("div", {
        class: cls.join(" "),
        dataset: { x: String(x), y: String(y) },
        role: isTarget ? "button" : "img",
        tabindex: isTarget ? "0" : undefined,
        "aria-label": `${x},${y}: ${what}${crownText}${isTarget ? ` — ${ctx.t("place here")}` : ""}`,
        onclick: isTarget ? choose : undefined,
        onkeydown: isTarget ? (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); choose(); } } : undefined,
      }, have ? (have[0] === "castle" ? castle() : (have[1] ? crowns(have[1]) : "")) : ""));
    }
  }
  seen[q] = new Set(Object.keys(cells));
  const bonuses = Object.entries(k.bonuses || {}).filter(([, b]) => b).map(([name, b]) => `${bonusName(ctx.t, name)} +${b}`);
  return h("div", { class: `panel kd-kingdom seat-border-${q}`, dataset: { seat: String(q) } },
    h("h2", { class: "kd-head" }, h("span", { class: `king seat-${q}` }, king(q), ctx.name(q)),
      h("span", { class: "kd-score", title: ctx.t("points") }, String(k.score), h("small", {}, ` ${ctx.t("points")}`))),
    h("p", { class: "kd-facts muted" }, `${ctx.t("Crowns")}: ${k.crowns}`,
      bonuses.length ? ` · ${bonuses.join(", ")}` : "",
      k.discarded.length ? ` · ${ctx.t("discarded")}: ${k.discarded.length}` : ""),
    grid);
}

export function render(el, msg, ctx) {
  const d = catalog.get(ctx.lang);
  current = { el, msg, ctx };
  if (!d) {
    catalog.whenLoaded(el, ctx.lang, () => { if (current && current.msg === msg) rerender(); });
    return;
  }
  if (sel && sel.step !== msg.state_id) sel = null;
  const t = ctx.t;
  const v = msg.view;
  const legal = ctx.legal || [];
  const picks = {};
  for (const l of legal) if (l.info && l.info.kind === "pick") picks[l.info.domino] = l.action;
  const places = placements(legal);
  const root = h("div", { class: "kingdomino" });
  const head = [t("Round {n}", { n: v.round })];
  if (v.games > 1) head.push(t("Game {n} of {m}", { n: v.game_no, m: v.games }));
  head.push(t("Dominoes left to draw") + `: ${v.undrawn}`);
  root.append(h("div", { class: "panel status", id: "k-status" }, head.join(" · ")));
  const firstPicks = v.phase === "first-picks";
  const lines = (h("div", { class: "kd-lines" },
    lineEl(t("Current line"), v.current_line, d, ctx, firstPicks ? picks : {}, v.acting, "k-current"),
    lineEl(t("Next line"), v.next_line, d, ctx, firstPicks ? {} : picks, null, "k-next")));
  root.append(lines);
  // what to do now, with the placing tools, where the answers are (the decision
  // panel, the phone's bar)
  const prompt = [];
  if (places.length) {
    const pick = chosen(places);
    prompt.push(h("div", { class: "panel kd-tools", id: "k-tools" },
      h("span", {}, t("Your domino")), dominoEl(v.acting, d, { t }),
      h("span", { class: "muted", id: "k-hint" }, pick ? t("Rotate with R; click the square again or press Enter to place.")
        : t("Click a highlighted square.")),
      h("span", { class: "kd-buttons" },
        h("button", { id: "k-rotate", disabled: !pick, onclick: () => { if (sel) { sel.i += 1; rerender(); } } }, t("Rotate")),
        h("button", { id: "k-place", class: "primary", disabled: !pick, onclick: () => { if (pick) ctx.act(pick.action); } }, t("Place")))));
  } else if (Object.keys(picks).length) {
    prompt.push(h("p", { class: "kd-hint", id: "k-hint" }, t("Pick a domino: your king takes it, and the lower its number, the earlier you choose next.")));
  } else if (legal.some((l) => l.info && l.info.kind === "discard")) {
    prompt.push(h("p", { class: "kd-hint", id: "k-hint" }, t("Your domino fits nowhere in your kingdom: it is discarded.")));
  }
  if (ctx.prompt) ctx.prompt(...prompt);
  else root.append(...prompt);
  const seats = v.kingdoms.map((_, q) => q);
  const order = ctx.seat === null || ctx.seat === undefined ? seats : [ctx.seat, ...seats.filter((q) => q !== ctx.seat)];
  const kingdoms = h("div", { class: "kd-kingdoms", id: "k-kingdoms" }, order.map((q) => kingdomEl(v, q, d, ctx, places)));
  // placing: your kingdom comes first, so its squares are on screen with the bar
  if (places.length) lines.before(kingdoms);
  else root.append(kingdoms);
  const games = msg.outcome && msg.outcome.details && msg.outcome.details.games;
  if (msg.finished && games && games.length > 1) {
    // Dynasty: each game's score and the total that decides
    root.append(h("div", { class: "panel kd-dynasty", id: "k-dynasty" }, h("h2", {}, t("Dynasty")),
      h("table", { class: "grid-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("Player")), games.map((_, g) => h("th", {}, t("Game {n}", { n: g + 1 }))), h("th", {}, t("Total")))),
        h("tbody", {}, msg.outcome.scores.map((total, q) => h("tr", { class: msg.outcome.winners.includes(q) ? "winner" : "" },
          h("td", {}, ctx.name(q)), games.map((g) => h("td", { class: "num" }, String(g[q]))), h("td", { class: "num" }, h("strong", {}, String(total)))))))));
  }
  if (msg.finished && msg.outcome && msg.outcome.details && msg.outcome.details.breakdown) {
    const bd = msg.outcome.details.breakdown;
    root.append(h("div", { class: "panel kd-breakdown", id: "k-breakdown" }, h("h2", {}, t("Final scoring")),
      h("table", { class: "grid-table" },
        h("thead", {}, h("tr", {}, [t("Player"), t("Properties"), t("Bonuses"), t("Score")].map((x) => h("th", {}, x)))),
        h("tbody", {}, bd.map((b, q) => h("tr", {},
          h("td", {}, ctx.name(q)),
          h("td", {}, b.properties.filter((p) => p.points).map((p) => `${d.terrains[p.terrain] || p.terrain} ${p.squares}×${p.crowns}=${p.points}`).join(", ") || "–"),
          h("td", {}, Object.entries(b.bonuses).map(([name, x]) => `${bonusName(t, name)} ${x}`).join(", ") || "–"),
          h("td", {}, String(b.score))))))));
  }
  el.append(root);
}

document.addEventListener("keydown", (ev) => {
  if (!current || ev.target.matches("input, textarea, select")) return;
  const places = placements(current.ctx.legal || []);
  if (!places.length || !sel) return;
  if (ev.key === "r" || ev.key === "R") { sel.i += 1; rerender(); }
  if (ev.key === "Enter") {
    const pick = chosen(places);
    if (pick) { ev.preventDefault(); current.ctx.act(pick.action); }
  }
});

/** When the best score is shared but not the win: the tie-break that decided it
 *  (the largest property, then the most crowns). */
export function tieBreak(out, ctx) {
  const det = out.details || {};
  const best = Math.max(...out.scores);
  const tied = out.scores.map((x, i) => i).filter((i) => out.scores[i] === best);
  if (tied.length < 2 || out.winners.length === tied.length || !det.largest_property) return null;
  const names = out.winners.map((i) => ctx.name(i)).join(", ");
  const lp = det.largest_property;
  if (new Set(tied.map((i) => lp[i])).size > 1) {
    return ctx.t("Tied on {n} points: {names} won with the largest property ({sizes}).", {
      n: best, names, sizes: tied.map((i) => `${ctx.name(i)} ${lp[i]}`).join(", ") });
  }
  return ctx.t("Tied on {n} points and largest property: {names} won with more crowns ({crowns}).", {
    n: best, names, crowns: tied.map((i) => `${ctx.name(i)} ${det.crowns[i]}`).join(", ") });
}
