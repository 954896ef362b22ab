// A board for any game: the view JSON as readable tables.  Game-specific boards
// (dominion.js, kingdomino.js) replace it; it stays the fallback.
import { h } from "../dom.js";

function scalar(v) {
  if (v === null || v === undefined) return "–";
  if (typeof v === "boolean") return v ? "✓" : "✗";
  return String(v);
}

function value(v, depth) {
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object")) {
      return h("span", { class: "chips" }, v.length ? v.map((x) => h("span", { class: "chip" }, scalar(x))) : "–");
    }
    return h("ol", { class: "nested" }, v.map((x) => h("li", {}, value(x, depth + 1))));
  }
  if (v && typeof v === "object") {
    return h("dl", { class: "kv" }, Object.entries(v).map(([k, x]) => [h("dt", {}, k), h("dd", {}, value(x, depth + 1))]));
  }
  return scalar(v);
}

export function render(el, msg, ctx) {
  el.append(h("div", { class: "panel generic-view" },
    h("h2", {}, ctx.t("Your view")),
    value(msg.view, 0)));
}
