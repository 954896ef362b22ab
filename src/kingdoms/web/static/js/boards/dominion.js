// The Dominion board: supply, hand, play area, opponents, trash, the pending decision.
// It draws the view and makes cards clickable only where a legal action names them
// (legal[i].info = {kind, card}); every legal action is also a button in the panel.
import { h } from "../dom.js";
import { tn } from "../i18n.js";
import { gameCatalog } from "./catalog.js";
import { byCostThenName, cardFace, clearSelection, fitNames, hideTip, showTip, showZoom } from "./dominion-cards.js";
import { confirmBar, endScreen, opponentPanel } from "./dominion-panels.js";

const catalog = gameCatalog("dominion"); // lang -> {cards: {id: {name, cost, potions, types, text, set}}}

// A pending decision renders by its kind and zone (view.decision: kind, purpose,
// prompt, zone, whose, choices): its prompt is an English msgid of the catalogs, and
// the cards it offers become clickable where its zone is drawn. No per-card code.

function groupOf(id, c) {
  if (!c) return "Kingdom";
  if (c.set === "basic" || c.set === "alchemy-basic") {
    if (c.types.includes("Curse")) return "Curse";
    if (c.types.includes("Victory")) return "Victory";
    return "Treasure";
  }
  return "Kingdom";
}

// Card faces, piles, panels and the end screen live in dominion-cards.js / dominion-panels.js.
let currentT = (x) => x;
let actionText = new Map(); // legal action -> its text (in the page's language)
function cardEl(id, cards, opts = {}) {
  return cardFace(id, cards, { ...opts, label: actionText.get(opts.action), t: currentT });
}

// legal actions naming a card, by kind group
function actionsFor(legal, kinds) {
  const out = {};
  for (const l of legal) {
    const info = l.info || {};
    if (info.card && kinds.includes(info.kind) && !(info.card in out)) out[info.card] = l.action;
  }
  return out;
}

function cardRow(ids, cards, clickable, act, counted = false, oneTap = {}) {
  if (!ids.length) return h("span", { class: "muted" }, "–");
  if (counted) {
    const counts = {};
    for (const id of ids) counts[id] = (counts[id] || 0) + 1;
    return h("div", { class: "dcards" }, Object.entries(counts).map(([id, n]) =>
      cardEl(id, cards, { count: n > 1 ? n : undefined, action: clickable[id], act, oneTap: !!oneTap[id] })));
  }
  return h("div", { class: "dcards" }, ids.map((id) => cardEl(id, cards, { action: clickable[id], act, oneTap: !!oneTap[id] })));
}

/** The hand's moves a single tap makes on a touch screen: a Treasure played (nothing
 *  is drawn or revealed) and a card picked in a question (picked again to undo); an
 *  Action played or a card bought asks for a second tap. */
function oneTapMoves(acts, cards, legal) {
  const kind = new Map(legal.map((l) => [l.action, (l.info || {}).kind]));
  const out = {};
  for (const [id, action] of Object.entries(acts)) {
    const types = (cards[id] || {}).types || [];
    const k = kind.get(action);
    if (k === "choose" || (k === "play" && types.includes("Treasure") && !types.includes("Action"))) out[id] = true;
  }
  return out;
}

let playOpen = false; // on a phone: the cards in play shown (the reader opened them)
const phoneScreen = () => window.matchMedia && window.matchMedia("(max-width: 720px)").matches;

let last = null; // the latest render call: redrawn once its language's cards arrive
let played = { key: null, count: 0 }; // cards in play at the last render (to animate new ones)

/** Cards put into play since the last render of the same turn slide in. */
function markFresh(row, key, count) {
  const before = played.key === key ? played.count : count;
  if (count > before) [...row.querySelectorAll(".dcard")].slice(before).forEach((el) => el.classList.add("fresh"));
  played = { key, count };
}

export function render(el, msg, ctx) {
  const cards = (catalog.get(ctx.lang) || {}).cards;
  last = { el, msg, ctx };
  if (!cards) {
    // draw once the cards arrive, unless something else was drawn here meanwhile
    catalog.whenLoaded(el, ctx.lang, () => {
      if (last && last.msg === msg) {
        el.textContent = "";
        render(el, msg, ctx);
      }
    });
    return;
  }
  const t = ctx.t;
  currentT = t;
  clearSelection();
  const v = msg.view;
  const me = ctx.seat;
  const legal = ctx.legal || [];
  actionText = new Map(legal.map((l) => [l.action, l.text ? l.text.charAt(0).toLocaleUpperCase(ctx.lang) + l.text.slice(1) : l.text]));
  const turn = v.turn;
  const root = h("div", { class: "dominion" });
  // the turn's status and the decision's prompt go where the answers are (the page's
  // decision panel or phone bar) when the page offers that; else they head the board
  const promptBox = [];
  const toPrompt = (node) => (ctx.prompt ? promptBox.push(node) : root.append(node));

  // status
  // a game ended early (a resignation) is over whatever phase it stopped in
  const phase = msg.finished ? t("Game over")
    : { action: t("Action phase"), buy: t("Buy phase"), cleanup: t("Clean-up"), over: t("Game over") }[v.phase] || v.phase;
  // (a finished game shows its end, not the last turn's leftover counters)
  if (!msg.finished && !v.outcome) {
    toPrompt(h("div", { class: "status panel", id: "d-status", dataset: { phase: v.phase } },
      h("strong", {}, t("Turn of {name}", { name: ctx.name(turn) })), " · ", phase, " · ",
      h("span", { id: "d-actions" }, `${t("Actions")}: ${v.actions}`), " · ",
      h("span", { id: "d-buys" }, `${t("Buys")}: ${v.buys}`), " · ",
      h("span", { id: "d-coins" }, `${t("Coins")}: ${v.coins}`),
      v.potions ? [" · ", h("span", { id: "d-potions" }, `${t("Potions")}: ${v.potions}`)] : null));
  }
  if (v.possession) {
    root.append(h("div", { class: "panel possession" },
      t("{name} is possessed by {by}: {by} makes every decision of this turn.",
        { name: ctx.name(v.possession.player), by: ctx.name(v.possession.by) })));
  }

  // decision prompt
  const d = v.decision;
  if (d) {
    const about = d.about;
    const lines = [h("strong", {}, t(d.prompt || "Decide."))];
    const total = d.total;
    if (total && total.max !== 1) {
      // the whole decision's bounds: Chapel "up to 4", Cellar "any number", Militia "2 of 2"
      const msg = total.max === null ? "chosen {picked}, any number"
        : total.min === total.max ? "chosen {picked} of {max}" : "chosen {picked}, up to {max}";
      lines.push(" ", h("span", { class: "muted", id: "d-bounds" }, t(msg, { picked: total.picked, max: total.max })));
    }
    if (about && about.card) {
      lines.push(" ", t("{name}: {card}", { name: ctx.name(about.player), card: cards[about.card] ? cards[about.card].name : about.card }));
    } else if (about) {
      lines.push(" ", t("Cards of {name}", { name: ctx.name(about.player) }));
    }
    if (d.who !== me && d.who !== undefined) lines.push(" ", h("span", { class: "muted" }, t("Waiting for {name}…", { name: ctx.name(d.who) })));
    toPrompt(h("div", { class: "panel decision", id: "d-decision", dataset: { kind: d.kind, zone: d.zone, whose: d.whose === me ? "self" : "other" } }, lines));
  }

  // supply
  const buyable = actionsFor(legal, ["buy", "gain"]);
  const groups = { Treasure: [], Victory: [], Curse: [], Kingdom: [] };
  for (const pile of v.supply) groups[groupOf(pile.card, cards[pile.card])].push(pile);
  const rules = v.rules || {};
  const rulesText = `${t("base cards: {edition}", { edition: t(rules.base_edition === 2 ? "2nd edition" : "1st edition") })}; ${
    t("Alchemy errata: {state}", { state: t(rules.alchemy_errata ? "on" : "off") })}`;
  // on a phone, while this seat buys or gains from the supply, every pile shows its
  // name band only, four a row, so the whole supply (every affordable pile) is on the
  // screen above the hand at once; holding a pile shows its text
  const buying = phoneScreen() && Object.keys(buyable).length > 0;
  const supply = h("div", { class: buying ? "panel supply buying" : "panel supply", id: "d-supply" },
    h("h2", {}, t("Supply"), " ", h("span", { class: "muted small", id: "d-rules" }, rulesText)));
  for (const [group, piles] of Object.entries(groups)) {
    if (!piles.length) continue;
    supply.append(h("div", { class: "pile-group" }, h("h3", {}, t(group)),
      h("div", { class: `dcards pile-${group.toLowerCase()}` }, (group === "Kingdom" ? byCostThenName(piles, cards, ctx.lang) : piles).map((p) => {
        const el2 = cardEl(p.card, cards, { count: p.count, action: buyable[p.card], act: ctx.act, compact: buying || group !== "Kingdom" });
        if (!p.count) el2.classList.add("empty");
        return el2;
      }))));
  }
  root.append(supply);

  // play area and own cards: the cards of the decision's zone are its choices.  They
  // sit in a dock kept at the bottom of the screen, with every zone a decision may
  // offer cards from (looking at, set aside, a possessed hand).
  // (a spectator's or a finished game's dock holds nothing to act on: it stays in place)
  const docked = me !== null && me !== undefined && !msg.finished;
  const dock = h("div", { class: docked ? "d-dock" : "d-dock static", id: "d-dock", dataset: docked ? { dock: "" } : {} });
  const pick = (zone) => (d && d.zone === zone ? actionsFor(legal, ["choose"]) : {});
  const inPlay = (v.players[turn] || {}).in_play || [];
  const playRow = cardRow(inPlay, cards, pick("play"), ctx.act);
  markFresh(playRow, `${turn}:${v.players[turn] ? v.players[turn].turns : 0}`, inPlay.length);
  // whose cards these are: your own, or (in another's turn) theirs, by name
  const playTitle = turn === me ? t("Your cards in play") : t("In play: {name}", { name: ctx.name(turn) });
  // on a phone the cards in play fold into one line (the hand gets the room), unless
  // the reader opened them or a question picks from them
  const pickingPlay = d && d.zone === "play" && d.who === me;
  dock.append(h("details", {
    class: "panel", id: "d-play", dataset: { owner: String(turn) },
    open: !phoneScreen() || playOpen || pickingPlay,
    ontoggle: (ev) => { if (phoneScreen() && !pickingPlay) playOpen = ev.target.open; },
  }, h("summary", {}, h("h2", {}, playTitle, " ", h("span", { class: "muted play-count" }, `(${inPlay.length})`))), playRow));
  const chooser = d ? d.who : turn; // whose cards the legal actions concern
  const handActs = { ...actionsFor(legal, ["play"]), ...pick("hand") };
  const possessedView = v.possession && v.possession.hand;
  const ownActs = possessedView && chooser !== me ? {} : handActs;
  const mine = v.players[me] || {};
  if (me !== null && me !== undefined) dock.append(h("div", { class: "panel hand", id: "d-hand" },
    h("h2", {}, t("Your hand"), " ", h("span", { class: "muted" },
      `${t("Deck")}: ${mine.deck_size} · ${t("Discard pile")}: ${mine.discard_size}`)),
    cardRow(v.hand, cards, ownActs, ctx.act, true, oneTapMoves(ownActs, cards, legal))));
  const looking = v.looking || [];
  if (looking.length) dock.append(h("div", { class: "panel", id: "d-looking" }, h("h2", {}, t("You look at")), cardRow(looking, cards, pick("looking"), ctx.act)));
  const aside = mine.set_aside || [];
  if (aside.length) dock.append(h("div", { class: "panel", id: "d-aside" }, h("h2", {}, t("Set aside")), cardRow(aside, cards, d && d.whose === me ? pick("set_aside") : {}, ctx.act)));
  if (possessedView) {
    const theirs = chooser === me ? {} : handActs;
    dock.append(h("div", { class: "panel", id: "d-possessed" },
      h("h2", {}, t("Hand of {name}", { name: ctx.name(v.possession.player) })),
      cardRow(v.possession.hand, cards, theirs, ctx.act, true),
      v.possession.looking && v.possession.looking.length ? cardRow(v.possession.looking, cards, pick("looking"), ctx.act) : null));
  }
  // the panel whose cards this seat picks from now gets the room (and a frame)
  const zonePanel = { hand: "d-hand", play: "d-play", looking: "d-looking", set_aside: "d-aside" };
  const picking = d && d.who === me && dock.querySelector(`#${zonePanel[d.zone] || "none"} .dcard.clickable`);
  if (picking) picking.closest(".panel").classList.add("picking");
  // the hands seen drawn at the end of a turn this seat possessed (until their next Clean-up)
  for (const seen of v.seen_hands || []) {
    root.append(h("div", { class: "panel seen-hand", id: `d-seen-${seen.player}` },
      h("h2", {}, t("Hand of {name}, seen at the end of the possessed turn", { name: ctx.name(seen.player) })),
      cardRow(seen.hand, cards, {}, ctx.act, true)));
  }

  // opponents and trash
  const others = h("div", { class: "panel", id: "d-players" }, h("h2", {}, t("Players")),
    h("div", { class: "opponents" }, v.players.map((p, q) => (q === me ? null : opponentPanel(p, q, turn, cards, ctx)))));
  root.append(others);
  root.append(h("div", { class: "panel", id: "d-trash" }, h("h2", {}, t("Trash")),
    v.trash.length ? cardRow(v.trash, cards, {}, ctx.act, true) : h("span", { class: "muted" }, "–")));

  // the end: points per player, where they come from, and each deck
  // the final panel: the game's own outcome, or the server's after a resignation
  const outcome = v.outcome || (msg.finished ? msg.outcome : null);
  if (outcome) root.prepend(endScreen({ ...v, outcome }, cards, ctx));
  root.append(dock);
  root.append(confirmBar(legal, cards, ctx));
  if (ctx.prompt) ctx.prompt(...promptBox);
  requestAnimationFrame(() => fitNames(root));
  el.append(root);
  if (buying) requestAnimationFrame(() => supplyInView(supply, `${turn}:${(v.players[turn] || {}).turns}`));
}

let buyShown = null; // the turn whose supply was last brought into view for a buy

/** On a phone, when a buy (or gain) begins, the supply is scrolled into view if any
 *  pile offered is off the screen or under the dock; once a turn, so a reader who
 *  scrolls away between two buys is left where they are. */
function supplyInView(supply, key) {
  if (buyShown === key || !supply.isConnected) return;
  buyShown = key;
  const dock = document.getElementById("d-dock");
  const bottom = dock ? dock.getBoundingClientRect().top : window.innerHeight;
  const out = [...supply.querySelectorAll(".dcard.clickable")].some((c) => {
    const r = c.getBoundingClientRect();
    return r.top < 0 || r.bottom > bottom;
  });
  if (out) supply.scrollIntoView({ block: "start" });
}

/** On a phone, when the decision bar leaves the many cards to choose to the board:
 *  where they are (nothing folded away).  The cards to buy are every framed pile of
 *  the supply (a button brings it into view); the cards to play are the hand's, docked
 *  above the bar.  Null when some choice is neither (the bar then lists them). */
export function choicesHint(msg, ctx) {
  const kinds = (msg.legal || []).filter((l) => l.info && l.info.card).map((l) => l.info.kind);
  const buys = kinds.filter((k) => k === "buy").length;
  const plays = kinds.filter((k) => k === "play").length;
  if (!kinds.length || buys + plays !== kinds.length) return null;
  const t = ctx.t;
  const toSupply = () => {
    const supply = document.getElementById("d-supply");
    if (!supply) return;
    supply.scrollIntoView({ block: "start" });
    const first = supply.querySelector(".dcard.clickable");
    if (first) first.focus({ preventScroll: true });
  };
  return h("div", { class: "board-hint", id: "board-hint" },
    buys ? h("button", { type: "button", class: "to-supply", id: "to-supply", onclick: toSupply },
      h("span", { "aria-hidden": "true" }, "↑ "),
      tn("{n} card you can buy: tap it in the Supply", "{n} cards you can buy: tap one in the Supply", buys)) : null,
    plays ? h("p", { class: "muted", id: "play-hint" },
      tn("{n} card you can play: tap it in your hand", "{n} cards you can play: tap one in your hand", plays)) : null);
}

/** The page's cards in `lang` loaded (the page waits for them before drawing, so the
 *  board and the decision panel's card names come together). */
export function ready(lang) {
  return catalog.loaded(lang).catch(() => {});
}

/** A card's name for a choice naming it (the decision panel's grouped buys), or null
 *  while the language's cards are not loaded. */
export function choiceName(choice, ctx) {
  const cards = (catalog.get(ctx.lang) || {}).cards;
  const c = cards && choice.info && choice.info.card ? cards[choice.info.card] : null;
  return c ? c.name : null;
}

/** When the best score is shared but not the win: the tie-break that decided it. */
export function tieBreak(out, ctx) {
  const best = Math.max(...out.scores);
  const tied = out.scores.map((x, i) => i).filter((i) => out.scores[i] === best);
  const turns = (out.details || {}).turns;
  if (tied.length < 2 || out.winners.length === tied.length || !turns) return null;
  return ctx.t("Tied on {n} VP: {names} won by taking fewer turns ({turns}).", {
    n: best, names: out.winners.map((i) => ctx.name(i)).join(", "),
    turns: tied.map((i) => `${ctx.name(i)} ${turns[i]}`).join(", "),
  });
}

const logMarkers = {}; // lang -> the function marking card names in log lines

/** Log lines with each card's name as a button: hover or focus shows the card beside
 *  it, a click or tap shows it large.  Null until the language's cards are loaded
 *  (then `onReady()` is called). */
export function logNames(lang, onReady) {
  const cards = (catalog.get(lang) || {}).cards;
  if (!cards) {
    if (onReady) catalog.loaded(lang).then(onReady);
    return null;
  }
  if (logMarkers[lang]) return logMarkers[lang];
  const byName = new Map(Object.entries(cards).map(([id, c]) => [c.name, id]));
  const names = [...byName.keys()].sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const re = new RegExp(`(?<![\\p{L}])(${names.join("|")})(?![\\p{L}])`, "gu");
  logMarkers[lang] = (text) => {
    const out = [];
    let at = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > at) out.push(text.slice(at, m.index));
      const id = byName.get(m[1]);
      // a span (flows with the line's text) acting as a button
      out.push(h("span", {
        role: "button", tabindex: "0", class: "log-card", dataset: { card: id },
        onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); hideTip(); showZoom(id, cards, currentT); } },
        onmouseenter: (ev) => showTip(ev.currentTarget, id, cards, currentT),
        onmouseleave: hideTip,
        onfocus: (ev) => showTip(ev.currentTarget, id, cards, currentT),
        onblur: hideTip,
        onclick: () => { hideTip(); showZoom(id, cards, currentT); },
      }, m[1]));
      at = m.index + m[1].length;
    }
    if (at < text.length) out.push(text.slice(at));
    return out;
  };
  return logMarkers[lang];
}
