// A board for any game: the view JSON as readable tables.  Game-specific boards
// (dominion.js, kingdomino.js) replace it; it stays the fallback.
//  * lists of objects with the same keys become tables (one row each);
//  * lists as long as the seat table are labelled with the seats' names;
//  * objects that look like cards ({name, cost, types}) are drawn as cards.
import { h } from "../dom.js";

function scalar(v) {
  if (v === null || v === undefined) return "–";
  if (typeof v === "boolean") return v ? "✓" : "✗";
  return String(v);
}

const isObj = (x) => x && typeof x === "object" && !Array.isArray(x);

function looksLikeCard(x) {
  return isObj(x) && typeof x.name === "string" && "cost" in x;
}

export function card(x) {
  const types = Array.isArray(x.types) ? x.types : [];
  return h("span", {
    class: ["card", ...types.map((t) => `type-${String(t).toLowerCase()}`)].join(" "),
    title: x.text || undefined,
  },
  h("span", { class: "card-name" }, x.name),
  h("span", { class: "card-cost" }, scalar(typeof x.cost === "object" ? x.cost.coins ?? JSON.stringify(x.cost) : x.cost)),
  types.length ? h("span", { class: "card-types" }, types.join(" – ")) : null,
  "count" in x ? h("span", { class: "card-count" }, `×${x.count}`) : null);
}

function table(rows, ctx) {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return h("table", { class: "grid-table" },
    h("thead", {}, h("tr", {}, keys.map((k) => h("th", {}, k)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, keys.map((k) => h("td", {}, value(r[k], ctx)))))));
}

function value(v, ctx, key = "") {
  if (Array.isArray(v)) {
    if (v.length && v.every(looksLikeCard)) return h("span", { class: "cards" }, v.map(card));
    if (v.length === ctx.seats && v.length > 1 && /s$/.test(key)) {
      return h("dl", { class: "kv per-seat" }, v.map((x, i) => [h("dt", {}, ctx.name(i)), h("dd", {}, value(x, ctx))]));
    }
    if (v.every((x) => x === null || typeof x !== "object")) {
      return h("span", { class: "chips" }, v.length ? v.map((x) => h("span", { class: "chip" }, scalar(x))) : "–");
    }
    if (v.every(isObj)) return table(v, ctx);
    return h("ol", { class: "nested" }, v.map((x) => h("li", {}, value(x, ctx))));
  }
  if (looksLikeCard(v)) return card(v);
  if (isObj(v)) {
    return h("dl", { class: "kv" }, Object.entries(v).map(([k, x]) => [h("dt", {}, k), h("dd", {}, value(x, ctx, k))]));
  }
  return scalar(v);
}

export function render(el, msg, ctx) {
  const seats = (msg.seats || []).length;
  el.append(h("div", { class: "panel generic-view" },
    h("h2", {}, ctx.t("Your view")),
    value(msg.view, { ...ctx, seats })));
}
