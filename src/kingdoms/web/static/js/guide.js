// The guided first game: a hint for what to do now, by the kind of choice the server
// offers (the legal actions' info), for players who do not know the rules yet.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const HINTS = {
  dominion: {
    action: () => t("Action phase: click an Action card in your hand to play it (its text says what it does), or end the phase."),
    buy: () => t("Buy phase: play your Treasures (the button, or A), then click a card in the Supply you can pay for. Gold and Silver buy more later; Provinces are worth 6 points."),
    decision: () => t("A card asks you something: the prompt says what; click the cards it offers (they are outlined) or a button."),
    wait: () => t("The other player is taking a turn; their cards in play show in the Players panel."),
  },
  kingdomino: {
    pick: () => t("Pick a domino for your king from the line with free places: the lower its number, the earlier you choose next round."),
    place: () => t("Place your domino: click a highlighted square next to your castle or to a matching terrain, Rotate to turn it, then Place."),
    discard: () => t("This domino fits nowhere in your kingdom, so it is discarded."),
    wait: () => t("The other player is choosing; their king shows on the domino they took."),
  },
};

/** What the seat is asked now: decision, pick, place, discard, buy, action or wait. */
function stage(msg) {
  const kinds = new Set((msg.legal || []).map((l) => (l.info || {}).kind));
  if ((msg.legal || []).some((l) => l.info && l.info.decision)) return "decision";
  for (const k of ["pick", "place", "discard"]) if (kinds.has(k)) return k;
  if (kinds.has("buy") || kinds.has("play_all_treasures")) return "buy";
  if (kinds.has("play")) return "action";
  return msg.legal && msg.legal.length ? null : "wait";
}

/** The guide's box for this state (null: no hint). */
export function guideBox(msg) {
  const hints = HINTS[msg.game];
  const key = hints && !msg.finished ? stage(msg) : null;
  if (!key || !hints[key]) return null;
  return h("aside", { class: "guide", id: "guide", dataset: { stage: key } },
    h("strong", {}, t("Guide")), " ", hints[key](), " ",
    h("a", { href: `/rules/${msg.game}`, target: "_blank" }, t("Rules")));
}
