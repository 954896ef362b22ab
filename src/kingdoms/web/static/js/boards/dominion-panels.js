// Dominion panels around the supply: the other players' public areas, the end of
// the game (points per player, their Victory cards and decks), and the bar that
// confirms a card chosen by a first tap on touch screens.
import { h } from "../dom.js";
import { cardFace, clearSelection, hideZoom } from "./dominion-cards.js";

function counter(label, value, id) {
  return h("span", { class: "counter", dataset: id ? { count: id } : undefined },
    h("span", { class: "counter-value" }, String(value)), h("span", { class: "counter-label" }, label));
}

function miniCards(ids, cards, t) {
  const counts = new Map();
  for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
  return h("div", { class: "dcards mini" }, [...counts].map(([id, n]) =>
    cardFace(id, cards, { t, compact: true, count: n > 1 ? n : undefined })));
}

/** One opponent's public area: hand, deck and discard counts, top of the discard,
 *  cards in play and set aside (everything else about them is hidden). */
export function opponentPanel(p, q, turn, cards, ctx) {
  const t = ctx.t;
  return h("section", { class: `opponent seat-bg-${q}${q === turn ? " active" : ""}`, dataset: { seat: String(q) } },
    h("h3", {}, h("span", { class: `king-dot seat-${q}`, "aria-hidden": "true" }), ctx.name(q),
      q === turn ? h("span", { class: "turn-tag" }, t("their turn")) : null),
    h("div", { class: "counters" },
      counter(t("Hand"), p.hand_size, "hand"), counter(t("Deck"), p.deck_size, "deck"),
      counter(t("Discard pile"), p.discard_size, "discard")),
    p.discard_top ? h("div", { class: "opp-row" }, h("span", { class: "muted" }, t("Top of the discard pile")),
      miniCards([p.discard_top], cards, t)) : null,
    p.in_play.length && q !== turn ? h("div", { class: "opp-row" }, h("span", { class: "muted" }, t("In play")),
      miniCards(p.in_play, cards, t)) : null,
    p.set_aside.length ? h("div", { class: "opp-row" }, h("span", { class: "muted" }, t("Set aside")),
      miniCards(p.set_aside, cards, t)) : null);
}

/** Each card that gave points: "Province × 4 — 24 VP" (the game says what each is worth). */
function vpList(points, owned, worth, cards, t) {
  const ids = worth ? Object.keys(worth) : points;
  if (!ids.length) return h("p", { class: "muted" }, "–");
  return h("ul", { class: "vp-list" }, ids.map((id) => h("li", { dataset: { card: id } },
    `${cards[id] ? cards[id].name : id} × ${owned[id] || 0}`,
    worth ? h("span", { class: "vp-worth" }, ` — ${t("{n} VP", { n: worth[id] })}`) : null)));
}

/** The end: each player's points, the Victory and Curse cards that gave them, and deck. */
export function endScreen(v, cards, ctx) {
  const t = ctx.t;
  const out = v.outcome;
  const order = out.scores.map((s, i) => i).sort((a, b) =>
    (out.winners.includes(b) - out.winners.includes(a)) || out.scores[b] - out.scores[a] || a - b);
  const isVp = (id) => cards[id] && (cards[id].types.includes("Victory") || cards[id].types.includes("Curse"));
  return h("div", { class: "panel end-screen", id: "d-outcome" },
    h("h2", {}, t("Final score")),
    h("div", { class: "end-players" }, order.map((q) => {
      const owned = (v.players[q] || {}).owned || {};
      const ids = Object.keys(owned);
      const points = ids.filter(isVp);
      const deckSize = ids.reduce((n, id) => n + owned[id], 0);
      return h("section", { class: `end-player${out.winners.includes(q) ? " winner" : ""}`, dataset: { seat: String(q) } },
        h("h3", {}, h("span", { class: `king-dot seat-${q}`, "aria-hidden": "true" }), ctx.name(q), " ",
          h("strong", { class: "end-score" }, t("{n} VP", { n: out.scores[q] })),
          out.winners.includes(q) ? h("span", { class: "winner-tag" }, t("winner")) : null),
        h("p", { class: "muted" }, t("Turns: {n}", { n: (v.players[q] || {}).turns ?? "–" }), " · ",
          t("Cards in deck: {n}", { n: deckSize })),
        h("h4", {}, t("Victory points from")),
        vpList(points, owned, ((out.details || {}).vp_by_card || [])[q], cards, t),
        h("details", {}, h("summary", {}, t("Deck list")), miniCards(ids.flatMap((id) => Array(owned[id]).fill(id)), cards, t)));
    })));
}

let active = null; // {bar, legal, cards, ctx} of the board on screen

document.addEventListener("dcard-selected", (ev) => {
  if (!active || !active.bar.isConnected) return;
  const { bar, legal, cards, ctx } = active;
  const choice = legal.find((l) => l.action === ev.detail.action);
  bar.textContent = "";
  bar.append(
    h("div", { class: "confirm-card" }, cardFace(ev.detail.id, cards, { t: ctx.t, big: true })),
    h("div", { class: "confirm-buttons" },
      h("button", { class: "primary", id: "d-confirm-do", onclick: () => { bar.hidden = true; hideZoom(); ctx.act(ev.detail.action); } },
        choice ? choice.text.charAt(0).toLocaleUpperCase(ctx.lang) + choice.text.slice(1) : ctx.t("Confirm")),
      h("button", { id: "d-confirm-cancel", onclick: () => { bar.hidden = true; clearSelection(); } }, ctx.t("Cancel"))));
  bar.hidden = false;
});

/** On touch screens: the card chosen by a first tap, large, with a button that does it. */
export function confirmBar(legal, cards, ctx) {
  const bar = h("div", { class: "confirm-bar", id: "d-confirm", hidden: true });
  active = { bar, legal, cards, ctx };
  return bar;
}
