// Bots as people read them: a name and a one-line description per server name, in
// the interface language (msgids of the catalogs), and the name every seat goes by.
// The same tables as kingdoms/server/botnames.py (a test keeps them equal), so the
// players panel, the log, the end screen and the review call a seat the same.
import { t } from "./i18n.js";

const LABELS = {
  "big-money": () => t("Big Money"),
  "big-money-ultimate": () => t("Big Money, best version"),
  "smithy": () => t("Smithy Big Money"),
  "witch": () => t("Witch Big Money"),
  "militia": () => t("Militia Big Money"),
  "moat": () => t("Moat Big Money"),
  "adventurer": () => t("Adventurer Big Money"),
  "bureaucrat": () => t("Bureaucrat Big Money"),
  "chancellor": () => t("Chancellor Big Money"),
  "council-room": () => t("Council Room Big Money"),
  "festival": () => t("Festival Big Money"),
  "laboratory": () => t("Laboratory Big Money"),
  "familiar": () => t("Familiar Big Money"),
  "herbalist": () => t("Herbalist Big Money"),
  "chapel-lab": () => t("Chapel and Laboratory engine"),
  "chapel-lab-militia": () => t("Chapel and Laboratory engine with Militia"),
  "village-smithy": () => t("Village and Smithy engine"),
  "throne-room-smithy": () => t("Throne Room and Smithy"),
  "witch-lab": () => t("Witch and Laboratories"),
  "familiar-lab": () => t("Familiar and Laboratories"),
  "workshop-gardens": () => t("Workshop and Gardens rush"),
  "bureaucrat-gardens": () => t("Bureaucrat and Gardens"),
  "default": () => t("Basic policy"),
  "random": () => t("Random moves"),
  "greedy": () => t("Greedy"),
  "full-greedy": () => t("Greedy, looking ahead"),
  "planning-greedy": () => t("Greedy, planning its placements"),
  "mcts": () => t("Tree search (MCTS)"),
  "best": () => t("Strongest: searching every move"),
  "best:strong": () => t("Strongest, thinking longer"),
  "learned": () => t("Learned network"),
};

const ABOUT = {
  "big-money": () => t("Buys only Gold, Silver and Provinces: simple and steady."),
  "big-money-ultimate": () => t("Big Money with the best-known refinements (Duchies late, Smithy)."),
  "smithy": () => t("Big Money with about one Smithy per 11 Treasures."),
  "witch": () => t("Big Money with two Witches."),
  "militia": () => t("Big Money with up to three Militias."),
  "moat": () => t("Big Money with up to two Moats."),
  "adventurer": () => t("Big Money with one Adventurer once it has Gold."),
  "bureaucrat": () => t("Big Money with about one Bureaucrat per 20 Treasures."),
  "chancellor": () => t("Big Money with about one Chancellor per 19 Treasures."),
  "council-room": () => t("Big Money with about one Council Room per 13 coins of money."),
  "festival": () => t("Big Money with Festivals."),
  "laboratory": () => t("Big Money with Laboratories."),
  "familiar": () => t("Big Money with Familiars and one Potion."),
  "herbalist": () => t("Big Money with a Herbalist per Silver beyond eight."),
  "chapel-lab": () => t("Trashes its Estates and Coppers with a Chapel, then buys Laboratories and Gold."),
  "chapel-lab-militia": () => t("Trashes with a Chapel, buys Laboratories and Gold, and attacks with one Militia."),
  "village-smithy": () => t("Two Smithies early, then a Village for each further Smithy, Gold and Provinces."),
  "throne-room-smithy": () => t("Smithies, and a Throne Room only when it has an Action to double."),
  "witch-lab": () => t("Two Witches to hand out Curses, Laboratories to find them, then Big Money."),
  "familiar-lab": () => t("Familiars on one Potion with Laboratories and Gold: Curses out fast, then Provinces."),
  "workshop-gardens": () => t("Workshops, then Gardens and Estates, to end the game on three empty piles."),
  "bureaucrat-gardens": () => t("Bureaucrats gain Silvers and slow the others; Gardens, Duchies and Estates to finish."),
  "default": () => t("The policy every strategy falls back to: buys like Big Money."),
  "random": () => t("Chooses among the legal moves at random."),
  "greedy": () => t("Takes the move that scores most now."),
  "full-greedy": () => t("Takes the move that scores most, looking one step further."),
  "planning-greedy": () => t("Picks and places to keep its best future placements open."),
  "mcts": () => t("Plays many games ahead in its head and picks what wins most often (slow, strong)."),
  "best": () => t("The strongest level: plays each move ahead many times from what it can see, guided by the best plan for the kingdom."),
  "best:strong": () => t("The strongest level with ten times the thinking per move, for analysis."),
  "learned": () => t("A neural network trained across random kingdoms decides every move (quick)."),
};

const key = (spec) => String(spec).split(":")[0].trim();

/** The key of a spec's name and description: its name, with its level where that level
 *  has its own ("best:strong,many=on" and "best:level=strong" → "best:strong"). */
export function labelKey(spec) {
  const name = key(spec);
  const rest = String(spec).split(":").slice(1).join(":");
  let level = "";
  rest.split(",").forEach((part, i) => {
    const [k, ...v] = part.split("=");
    if ((i === 0 && !v.length) || k.trim() === "level") level = (v.length ? v.join("=") : k).trim();
  });
  return LABELS[`${name}:${level}`] ? `${name}:${level}` : name;
}

/** A bot's name ("big-money" → "Big Money"), translated. */
export function botLabel(name) {
  const k = labelKey(name);
  if (LABELS[k]) return LABELS[k]();
  if (k.startsWith("bmu+")) return `${t("Big Money Ultimate")} + ${k.slice(4)}`;
  return k.replace(/_/g, "-").split("-").filter(Boolean).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

/** What a bot does, in one line, translated ("" when not described). */
export function botAbout(name) {
  const k = labelKey(name);
  return ABOUT[k] ? ABOUT[k]() : "";
}

/** The name each seat goes by: the one chosen, else its bot's, else "Player n";
 *  repeated names numbered ("Greedy 1", "Greedy 2"). */
export function seatNames(seats) {
  const base = (seats || []).map((s, i) => {
    if (s && s.name && s.name !== `Player ${i + 1}`) return s.name;
    if (s && s.kind === "bot" && s.bot) return botLabel(s.bot);
    return t("Player {n}", { n: i + 1 });
  });
  const counts = new Map();
  for (const n of base) counts.set(n, (counts.get(n) || 0) + 1);
  const seen = new Map();
  return base.map((n) => {
    if (counts.get(n) < 2) return n;
    seen.set(n, (seen.get(n) || 0) + 1);
    return `${n} ${seen.get(n)}`;
  });
}
