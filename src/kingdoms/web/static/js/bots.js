// Bots as people read them: a name and a one-line description per server name, in
// the interface language (msgids of the catalogs).  Used by the lobby, the game lists
// and the leaderboard.
import { t } from "./i18n.js";

const LABELS = {
  "big-money": () => t("Big Money"),
  "big-money-ultimate": () => t("Big Money, best version"),
  smithy: () => t("Smithy Big Money"),
  witch: () => t("Witch Big Money"),
  militia: () => t("Militia Big Money"),
  moat: () => t("Moat Big Money"),
  adventurer: () => t("Adventurer Big Money"),
  bureaucrat: () => t("Bureaucrat Big Money"),
  chancellor: () => t("Chancellor Big Money"),
  "council-room": () => t("Council Room Big Money"),
  festival: () => t("Festival Big Money"),
  laboratory: () => t("Laboratory Big Money"),
  familiar: () => t("Familiar Big Money"),
  herbalist: () => t("Herbalist Big Money"),
  random: () => t("Random moves"),
  greedy: () => t("Greedy"),
  "full-greedy": () => t("Greedy, looking ahead"),
  "planning-greedy": () => t("Greedy, planning its placements"),
  mcts: () => t("Tree search (MCTS)"),
  best: () => t("Strongest: searching every move"),
  "best:strong": () => t("Strongest, thinking longer"),
};

const ABOUT = {
  "big-money": () => t("Buys only Gold, Silver and Provinces: simple and steady."),
  "big-money-ultimate": () => t("Big Money with the best-known refinements (Duchies late, Smithy)."),
  random: () => t("Chooses among the legal moves at random."),
  greedy: () => t("Takes the move that scores most now."),
  "full-greedy": () => t("Takes the move that scores most, looking one step further."),
  "planning-greedy": () => t("Picks and places to keep its best future placements open."),
  mcts: () => t("Plays many games ahead in its head and picks what wins most often (slow, strong)."),
  best: () => t("The strongest level: plays each move ahead many times from what it can see, guided by the best plan for the kingdom."),
  "best:strong": () => t("The strongest level with ten times the thinking per move, for analysis."),
};

/** A bot's name ("big-money" → "Big Money"), translated. */
export function botLabel(name) {
  if (LABELS[name]) return LABELS[name]();
  return String(name).split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

/** What a bot does, in one line, translated ("" when not described). */
export function botAbout(name) {
  if (ABOUT[name]) return ABOUT[name]();
  if (LABELS[name]) return t("Big Money, buying one Kingdom card it plays whenever it can.");
  return "";
}
