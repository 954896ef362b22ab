// A game's rules page (/rules/<game>): how a turn goes, in short, and every card
// (Dominion) or domino (Kingdomino) with its text, in the interface language.
import { $, clear, h } from "./dom.js";
import { languageSelect, loadLanguage, pickLanguage, t, tn, translatePage } from "./i18n.js";
import { byCostThenName, cardFace, fitNames } from "./boards/dominion-cards.js";

const game = decodeURIComponent(location.pathname.split("/").pop());

// The rules in short, paragraph by paragraph (msgids of the catalogs).
const SUMMARY = {
  dominion: () => [
    t("Each player starts with 7 Coppers and 3 Estates, shuffled; draw 5 cards."),
    t("Your turn: play one Action card (more if cards give you +Actions), then play Treasures and buy one card (more with +Buys) whose cost you can pay; then discard everything and draw 5 new cards."),
    t("Bought cards go to your discard pile; when your deck runs out, shuffle the discard pile into a new deck."),
    t("The game ends when the Provinces are gone or any three Supply piles are empty. Most victory points wins; on a tie, the player who took fewer turns."),
  ],
  kingdomino: () => [
    t("Each player has a castle on a 5×5 kingdom (7×7 in Mighty Duel)."),
    t("Each round, in the order of the kings on the current line, place the domino your king is on and pick a domino of the next line for the next round: the lower its number, the earlier you play next."),
    t("A domino touches a matching terrain or the castle and stays inside the kingdom's size; a domino that fits nowhere is discarded."),
    t("At the end each property (connected squares of one terrain) scores its squares times its crowns. Most points wins; on a tie, the largest property, then the most crowns."),
  ],
};

const SETS = {
  basic: () => t("Basic cards"), "alchemy-basic": () => t("Basic cards"), base: () => t("Dominion"),
  "base-1e": () => t("Dominion (1st edition only)"), "base-2e": () => t("Dominion (2nd edition only)"),
  alchemy: () => t("Alchemy"),
};

async function draw() {
  const summary = clear($("#rules-summary"));
  const cardsBox = clear($("#rules-cards"));
  const title = { dominion: "Dominion", kingdomino: "Kingdomino" }[game] || game;
  $("#rules-title").textContent = `${t("Rules")}: ${title}`;
  document.title = `${t("Rules")}: ${title} · Kingdoms`;
  summary.append(h("h2", {}, t("How to play")), ...(SUMMARY[game] ? SUMMARY[game]() : []).map((p) => h("p", {}, p)),
    h("p", {}, h("a", { href: "/", class: "button" }, t("First game (guided)"))));
  const res = await fetch(`/api/catalog/${encodeURIComponent(game)}/${document.documentElement.lang}`);
  if (!res.ok) { cardsBox.append(h("p", {}, t("There is no such game."))); return; }
  const data = await res.json();
  if (game === "dominion") {
    cardsBox.append(h("h2", {}, t("Every card")));
    const bySet = {};
    for (const [id, c] of Object.entries(data.cards)) (bySet[SETS[c.set] ? SETS[c.set]() : c.set] ||= []).push({ card: id });
    for (const [set, piles] of Object.entries(bySet)) {
      cardsBox.append(h("h3", {}, set), h("div", { class: "dcards rules-cards" },
        byCostThenName(piles, data.cards, document.documentElement.lang).map((p) => cardFace(p.card, data.cards, { t }))));
    }
    requestAnimationFrame(() => fitNames(cardsBox));
  } else if (game === "kingdomino") {
    cardsBox.append(h("h2", {}, t("Every domino")));
    cardsBox.append(h("table", { class: "grid-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Left half")), h("th", {}, t("Right half")))),
      h("tbody", {}, Object.entries(data.dominoes).map(([n, halves]) => h("tr", {}, h("td", {}, n),
        halves.map(([terrain, crowns]) => h("td", { class: `terrain-cell` },
          h("span", { class: `sq-mini terrain-${terrain}`, "aria-hidden": "true" }), " ",
          data.terrains[terrain] || terrain, crowns ? ` · ${tn("{n} crown", "{n} crowns", crowns)}` : "")))))));
  }
  document.body.dataset.ready = "1";
}

async function main() {
  await loadLanguage(pickLanguage());
  $("#lang-slot").append(languageSelect(() => { translatePage(); draw(); }));
  translatePage();
  if (game === "kingdomino") document.head.append(h("link", { rel: "stylesheet", href: "/static/css/kingdomino.css" }));
  await draw();
}

main();
