// The lobby: create a game, list games, rejoin mine.
import { botAbout, botLabel, seatNames } from "./bots.js";
import { $, clear, h } from "./dom.js";
import { lang, languageSelect, loadLanguage, pickLanguage, t, tn, translatePage } from "./i18n.js";
import { renderProfile } from "./profile.js";
import { forget, myGames, profile, rememberTokens } from "./store.js";

let catalog = [];

function currentGame() {
  return catalog.find((g) => g.name === $("#game").value);
}

function renderPlayers() {
  const game = currentGame();
  const sel = clear($("#players"));
  if (!game) return;
  for (let n = game.min_players; n <= game.max_players; n++) sel.add(new Option(String(n), String(n)));
  renderSeats();
  renderOptions();
}

function renderSeats() {
  const game = currentGame();
  const box = $("#seats");
  const old = [...box.querySelectorAll(".seat")].map((row) => ({
    kind: row.querySelector(".kind").value,
    bot: row.querySelector(".bot").value,
    name: row.querySelector(".name").value,
  }));
  for (const row of box.querySelectorAll(".seat")) row.remove();
  const n = Number($("#players").value || 0);
  for (let i = 0; i < n; i++) {
    const prev = old[i] || { kind: i === 0 ? "human" : "bot", bot: "", name: "" };
    const kind = h("select", { class: "kind", "aria-label": t("Seat {n}", { n: i + 1 }) },
      new Option(t("Human"), "human", false, prev.kind === "human"),
      new Option(t("Bot"), "bot", false, prev.kind === "bot"));
    const bot = h("select", { class: "bot", "aria-label": t("Bot") },
      ...(game.bots || []).map((b) => {
        const keep = (game.bots || []).includes(prev.bot) ? prev.bot : game.default_bot;
        const o = new Option(botLabel(b), b, false, b === keep);
        o.title = botAbout(b);
        return o;
      }));
    const name = h("input", { class: "name", value: prev.name, maxlength: 40,
      placeholder: t("Player {n}", { n: i + 1 }), "aria-label": t("Name") });
    const about = h("small", { class: "bot-about muted" });
    const sync = () => {
      bot.hidden = kind.value !== "bot";
      about.hidden = bot.hidden;
      about.textContent = botAbout(bot.value);
    };
    kind.addEventListener("change", sync);
    bot.addEventListener("change", sync);
    sync();
    box.append(h("div", { class: "seat" }, h("span", { class: "seat-no" }, `${i + 1}.`), kind, bot, name, about));
  }
}

function renderOptions() {
  // Options a game describes for the lobby: {key: {label, choices: [[value, label]...]}};
  // "type": "flags" — several may be ticked (a list); "type": "text" — typed in, and
  // "into" names the option it fills (e.g. Dominion cards into "kingdom").
  const box = clear($("#game-options"));
  const opts = (currentGame() || {}).options || {};
  for (const [key, spec] of Object.entries(opts)) {
    const label = h("span", {}, t(spec.label || key));
    if (spec.type === "flags") {
      box.append(h("fieldset", { class: "flags", dataset: { flags: key } }, h("legend", {}, label),
        ...(spec.choices || []).map(([v, text]) => h("label", { class: "flag" },
          h("input", { type: "checkbox", value: JSON.stringify(v) }), " ", t(text)))));
    } else if (spec.type === "text") {
      const input = h("input", { type: "text", class: "option-text", dataset: { text: spec.into || key } });
      // the menu it fills says so while something is typed ("The cards typed below")
      input.addEventListener("input", () => typedInto(spec.into || key, input.value.trim() !== ""));
      box.append(h("label", {}, label, " ", input));
    } else {
      const sel = h("select", { dataset: { option: key } },
        ...(spec.choices || []).map(([v, text]) => new Option(t(text), JSON.stringify(v))));
      box.append(h("label", {}, label, " ", sel));
    }
  }
}

const TYPED = JSON.stringify("typed");

/** Show in the menu of option `key` that typed text decides it (`typed`), or not. */
function typedInto(key, typed) {
  const sel = document.querySelector(`#game-options [data-option='${key}']`);
  if (!sel) return;
  let mark = [...sel.options].find((o) => o.value === TYPED);
  if (typed && !mark) {
    sel.dataset.before = sel.value;
    mark = new Option(t("The cards typed below"), TYPED);
    sel.add(mark, 0);
    sel.value = TYPED;
  } else if (!typed && mark) {
    mark.remove();
    sel.value = sel.dataset.before || sel.options[0].value;
  }
}

function collectOptions() {
  let options = {};
  const raw = $("#options-json").value.trim();
  if (raw) options = JSON.parse(raw);
  for (const sel of document.querySelectorAll("#game-options [data-option]")) {
    if (sel.value === TYPED) continue; // the typed text below gives it
    if (!(sel.dataset.option in options)) options[sel.dataset.option] = JSON.parse(sel.value);
  }
  for (const set of document.querySelectorAll("#game-options [data-flags]")) {
    options[set.dataset.flags] = [...set.querySelectorAll("input:checked")].map((i) => JSON.parse(i.value));
  }
  for (const input of document.querySelectorAll("#game-options [data-text]")) {
    if (input.value.trim()) options[input.dataset.text] = input.value.trim();
  }
  return options;
}

/** Create a game; signed in, with the profile, so that the creation counts in the
 * profile's own quotas and rate, not the address's (shared by everyone behind it).
 * A profile this server does not know (400 bad_profile) creates as anyone. */
async function postGame(spec) {
  const send = async (me) => {
    const body = me ? { ...spec, profile: { name: me.name, secret: me.secret } } : spec;
    const res = await fetch("/api/games", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    return [res, await res.json()];
  };
  const me = profile();
  let [res, data] = await send(me);
  if (me && res.status === 400 && data.error === "bad_profile") [res, data] = await send(null);
  return [res, data];
}

async function create(ev) {
  ev.preventDefault();
  $("#create-error").textContent = "";
  let options;
  try {
    options = collectOptions();
  } catch (err) {
    $("#create-error").textContent = t("Options are not valid JSON");
    return;
  }
  const seats = [...document.querySelectorAll("#seats .seat")].map((row) => ({
    kind: row.querySelector(".kind").value,
    bot: row.querySelector(".kind").value === "bot" ? row.querySelector(".bot").value : undefined,
    name: row.querySelector(".name").value.trim() || undefined,
  }));
  const [res, data] = await postGame({ game: $("#game").value, seats, options, rated: $("#rated").checked });
  if (!res.ok) {
    $("#create-error").textContent = errorText(data);
    return;
  }
  showCreated(data);
  refresh();
}

// The server's errors that come as interface messages, in the reader's language.
const ERROR_TEXTS = {
  "{name} is not a known kingdom card.": (a) => t("{name} is not a known kingdom card.", a),
  "{name} is a basic card, not a kingdom card.": (a) => t("{name} is a basic card, not a kingdom card.", a),
};

/** An error of the server as the reader should see it: translated, with "did you mean". */
function errorText(data) {
  const d = data.detail;
  if (!d || !ERROR_TEXTS[d.msgid]) return data.message || t("Could not create the game");
  const text = ERROR_TEXTS[d.msgid](d.args || {});
  const near = (d.suggest || []).map((names) => names[lang()] || names.en);
  return near.length ? `${text} ${t("Did you mean {names}?", { names: near.join(t(" or ")) })}` : text;
}

// A guided first game: against a gentle bot, the first recommended kingdom, with hints.
const FIRST_GAME = {
  dominion: { bot: "big-money", options: { kingdom: "First Game" } },
  kingdomino: { bot: "greedy", options: {} },
};

async function firstGame(game) {
  const spec = FIRST_GAME[game];
  const me = profile();
  const seats = [{ kind: "human", name: me ? me.name : t("You") }, { kind: "bot", bot: spec.bot }];
  const [res, data] = await postGame({ game, seats, options: spec.options });
  if (!res.ok) { $("#create-error").textContent = errorText(data); return; }
  const token = data.seats[0].token;
  rememberTokens(data.id, [token], { game });
  location.href = `/game/${data.id}#t=${encodeURIComponent(token)}&guide=1`;
}

let created = null; // the game just created (its box is redrawn on a language switch)

/** Where a game is watched: its page, or for a private game its share link. */
function watchUrl(game) {
  return game.share_link || `${location.origin}/game/${game.id}`;
}

function showCreated(game) {
  created = game;
  const box = $("#created");
  clear(box).hidden = false;
  const humans = game.seats.filter((s) => s.token);
  box.append(h("h3", {}, t("Game created")));
  if (humans.length) {
    box.append(h("p", {}, t("Send each player their own link (it is their key to the seat):")));
    box.append(h("ul", { class: "links" }, humans.map((s) =>
      h("li", {}, h("strong", {}, s.name), " ",
        h("input", { readonly: true, value: s.link, class: "invite", onfocus: (e) => e.target.select() }),
        " ", h("a", { href: s.link, class: "seat-link", target: "_blank",
          onclick: () => rememberTokens(game.id, [s.token], { game: game.game }) }, t("Open"))))));
    box.append(h("p", {}, h("a", { href: game.hotseat_link, class: "button primary", id: "play-here",
      onclick: () => rememberTokens(game.id, humans.map((s) => s.token), { game: game.game }) },
    humans.length > 1 ? t("Play all human seats here (hot-seat)") : t("Play here"))));
  } else {
    box.append(h("p", {}, h("a", { href: watchUrl(game), class: "button primary", id: "watch-created" }, t("Watch"))));
  }
  // the next step in view (and under the keyboard), on a laptop and on a phone
  const next = box.querySelector("#play-here, #watch-created");
  next.scrollIntoView({ block: "center" });
  next.focus({ preventScroll: true });
  // anyone with this address may watch (the public view only); a private game's
  // address carries its share key
  box.append(h("p", { class: "watch-link" }, h("span", {}, t("Link for spectators:")), " ",
    h("input", { readonly: true, value: watchUrl(game), class: "invite-watch", id: "watch-link", onfocus: (e) => e.target.select() })));
}

function gameTitle(name) {
  const game = catalog.find((g) => g.name === name);
  return game ? game.title : name;
}

function when(seconds) {
  if (!seconds) return "";
  const d = new Date(seconds * 1000);
  return d.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

function gameLine(g, extra) {
  const scores = g.outcome && g.outcome.scores;
  const winners = (g.outcome && g.outcome.winners) || [];
  const shown = seatNames(g.seats);
  const players = g.seats.map((s, i) => h("span", { class: `player${winners.includes(i) ? " winner" : ""}` },
    shown[i], s.kind === "bot" && s.name && s.name !== `Player ${i + 1}` ? h("span", { class: "muted" }, ` (${botLabel(s.bot)})`) : null,
    scores ? h("strong", { class: "score" }, ` ${scores[i]}`) : null));
  const names = [];
  players.forEach((p, i) => { if (i) names.push(", "); names.push(p); });
  return h("li", { class: "game-line", dataset: { id: g.id } },
    h("span", { class: "tag" }, gameTitle(g.game)), " ",
    h("span", { class: "players" }, names), " ",
    g.status === "finished" ? h("time", { class: "muted when", datetime: new Date(g.updated * 1000).toISOString() }, when(g.updated)) : null,
    " ", h("span", { class: "line-actions" }, extra));
}

async function refresh() {
  const [running, done, abandoned] = await Promise.all(
    ["running", "finished", "abandoned"].map(async (st) => (await (await fetch(`/api/games?status=${st}`)).json()).games));
  const finished = done.concat(abandoned).sort((a, b) => b.updated - a.updated);
  const mine = myGames();
  const ul = clear($("#my-games"));
  for (const g of running.filter((g) => mine[g.id])) {
    ul.append(gameLine(g, h("a", { href: `/game/${g.id}`, class: "rejoin" }, t("Rejoin"))));
  }
  for (const id of Object.keys(mine)) {
    if (!running.some((g) => g.id === id) && !finished.some((g) => g.id === id)) forget(id);
  }
  if (!ul.children.length) ul.append(h("li", { class: "muted" }, t("None yet")));
  const run = clear($("#running-games"));
  for (const g of running) {
    const open = g.open_seats.length ? tn("{n} open seat", "{n} open seats", g.open_seats.length) : t("in play");
    run.append(gameLine(g, [h("span", { class: "muted" }, open), " ",
      h("a", { href: `/game/${g.id}`, class: "button watch" }, t("Watch"))]));
  }
  if (!running.length) run.append(h("li", { class: "muted" }, t("None")));
  const fin = clear($("#finished-games"));
  for (const g of finished) {
    const ended = ((g.outcome || {}).details || {}).ended;
    fin.append(gameLine(g, [
      ended ? h("span", { class: "tag ended" }, ended === "resigned" ? t("resigned") : t("abandoned")) : null, " ",
      h("a", { href: `/game/${g.id}#replay` }, t("Replay")), " ",
      h("a", { href: `/api/games/${g.id}/record`, download: `kingdoms-${g.id}.json` }, t("Download record")),
    ]));
  }
  if (!finished.length) fin.append(h("li", { class: "muted" }, t("None")));
}

async function main() {
  await loadLanguage(pickLanguage());
  $("#lang-slot").append(languageSelect(() => {
    translatePage(); renderPlayers(); renderProfile(() => {}); refresh();
    if (created) showCreated(created);
  }));
  translatePage();
  catalog = (await (await fetch("/api/catalog")).json()).games;
  const gameSel = $("#game");
  for (const g of catalog) gameSel.add(new Option(g.title, g.name));
  if (!catalog.length) {
    $("#create").disabled = true;
    $("#create-error").textContent = t("No games are installed on this server.");
  }
  gameSel.addEventListener("change", renderPlayers);
  $("#players").addEventListener("change", renderSeats);
  $("#create-form").addEventListener("submit", create);
  for (const btn of document.querySelectorAll("#first-game button[data-game]")) btn.addEventListener("click", () => firstGame(btn.dataset.game));
  renderPlayers();
  const profileChanged = () => {
    const me = profile();
    $("#rated").disabled = !me;
    if (!me) $("#rated").checked = false;
    // my own seat carries my profile's name
    const first = document.querySelector("#seats .seat .name");
    if (me && first && !first.value) first.value = me.name;
  };
  renderProfile(profileChanged);
  profileChanged();
  await refresh();
  document.body.dataset.ready = "1";
}

main();
