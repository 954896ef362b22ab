// The game page: one WebSocket for this browser's seats (several: hot-seat),
// renders whatever the server sends.  No game rules here: the legal actions,
// their texts and every view come from the server.
import { seatNames } from "./bots.js";
import { $, clear, h } from "./dom.js";
import { lang, languageSelect, loadLanguage, pickLanguage, t, tn, translatePage } from "./i18n.js";
import { guideBox } from "./guide.js";
import { renderLog as drawLog, resetLog } from "./log.js";
import { profile, rememberShareKey, rememberTokens, secretHeaders, shareKeyFor, tokensFor, withKey } from "./store.js";
import { replayHint, replayTarget, reviewButton, watchReview } from "./review.js";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const states = {}; // seat -> latest state message
const logs = {}; // seat -> full log (texts) as this seat sees it
let shown = null; // the seat on screen
let hidden = false; // pass-the-device screen up
let socket = null;
let pending = false;
let retry = 500; // ms before the next connection attempt (doubles up to RETRY_MAX)
const RETRY_MAX = 4000;
let greeted = false; // this connection's hello was answered with the game
let watchAsMe = true; // a signed-in watcher proves its profile (its own places) until refused
const boards = {};

/** A game's name as a title ("dominion" → "Dominion"). */
function gameTitle(game) {
  return String(game || "").split(/[-_ ]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

// Each game's board module and style sheets, as its registration declares them
// (the server's /api/catalog); a game without its own board shows the generic one.
let catalog = null;

async function gameAssets(game) {
  if (catalog === null) {
    catalog = fetch("/api/catalog").then((r) => r.json()).then((d) => d.games).catch(() => []);
  }
  return (await catalog).find((g) => g.name === game) || { board: "generic", css: [] };
}

async function board(game) {
  if (!(game in boards)) {
    boards[game] = gameAssets(game).then((assets) => {
      for (const href of assets.css || []) {
        if (!document.querySelector(`link[href="/static/${href}"]`)) {
          document.head.append(h("link", { rel: "stylesheet", href: `/static/${href}` }));
        }
      }
      return import(`./boards/${assets.board || "generic"}.js`);
    });
  }
  return boards[game];
}

// Server errors by code, in the interface language (the server's text is the fallback).
const ERRORS = {
  stale: () => t("The game moved on before your choice arrived; look again."),
  not_your_turn: () => t("It is not your turn."),
  illegal: () => t("That is not possible now."),
  bad_token: () => t("This link is not valid for this game."),
  no_game: () => t("There is no such game."),
  cannot_undo: () => t("That cannot be undone any more."),
  storage: () => t("The server could not save that; please try again."),
};

function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

function tokensFromHash() {
  const m = location.hash.match(/[#&]t=([^&]+)/);
  return m ? decodeURIComponent(m[1]).split(",").filter(Boolean) : [];
}

function shareKeyFromHash() {
  const m = location.hash.match(/[#&]k=([^&]+)/);
  return m ? decodeURIComponent(m[1]) : null;
}

function send(msg) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast(t("Not connected; reconnecting…"));
    return false;
  }
  socket.send(JSON.stringify(msg));
  return true;
}

export function act(seat, action) {
  const st = states[seat];
  if (pending || !st) return;
  if (send({ type: "action", action, state_id: st.state_id, seat })) {
    pending = true;
    document.body.classList.add("pending");
  }
}

function seatName(msg, seat) {
  // one name per seat everywhere (the server's log and review use the same rule)
  return seatNames(msg.seats || [])[seat] ?? t("Player {n}", { n: seat + 1 });
}

/** An action's text as a button label: sentence case ("Buy Curse"). */
function label(text) {
  return text ? text.charAt(0).toLocaleUpperCase(lang()) + text.slice(1) : text;
}

function chooseSeat() {
  const mine = Object.keys(states).map(Number).sort((a, b) => a - b);
  if (!mine.length) return null;
  const cur = states[mine[0]].current_player;
  if (mine.includes(cur)) return cur;
  return shown !== null && mine.includes(shown) ? shown : mine[0];
}

function onState(msg) {
  greeted = true;
  retry = 500;
  const seat = msg.spectator ? -1 : msg.seat;
  const log = msg.log_start === 0 ? [] : (logs[seat] || []).slice(0, msg.log_start);
  logs[seat] = log.concat(msg.log);
  states[seat] = msg;
  pending = false;
  document.body.classList.remove("pending");
  const next = chooseSeat();
  const mySeats = Object.keys(states).length;
  if (mySeats > 1 && shown !== null && next !== shown && !msg.finished) {
    hidden = true;
    $("#pass-text").textContent = t("Pass the device to {name}.", { name: seatName(msg, next) });
  }
  shown = next;
  scheduleRender();
}

let replayRedraw = null; // a replay on screen: draws its step again (a language switch)

let renderQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  queueMicrotask(() => { renderQueued = false; render(); });
}

let renderGen = 0;

// The keyboard's place survives a redraw: a card or answer chosen with Enter is
// redrawn, and the focus goes back to the same panel's first card to choose (or the
// first answer) instead of the page's start.
function focusPlace() {
  const el = document.activeElement;
  if (!el || !el.matches(".dcard.clickable, .choice") || !el.closest("#board, #prompt")) return null;
  const panel = el.parentElement.closest("[id]");
  return { panel: panel ? panel.id : null, sel: el.matches(".dcard") ? ".dcard.clickable" : ".choice" };
}

function refocus(place) {
  if (!place || (document.activeElement && document.activeElement !== document.body)) return;
  const panel = place.panel && document.getElementById(place.panel);
  const el = (panel && panel.querySelector(place.sel)) || document.querySelector("#choices .choice");
  if (el) el.focus({ preventScroll: true });
}

async function render() {
  const gen = ++renderGen;
  $("#pass-screen").hidden = !hidden;
  if (shown === null) return;
  const msg = states[shown];
  const ctx = {
    t, lang: lang(), seat: msg.spectator ? null : shown, legal: msg.legal,
    act: (action) => act(shown, action),
    name: (seat) => seatName(msg, seat),
    prompt: hidden ? undefined : promptSlot(),
  };
  document.title = `${gameTitle(msg.game)} · Kingdoms`;
  $("#title").textContent = msg.spectator ? `${gameTitle(msg.game)} · ${t("Watching")}` : `${gameTitle(msg.game)} · ${seatName(msg, shown)}`;
  $("#status").textContent = msg.finished ? t("Game over") : "";
  const mod = hidden ? null : await board(msg.game);
  if (mod && mod.ready) await mod.ready(ctx.lang);
  if (gen !== renderGen) return; // a newer render (e.g. the pass screen) took over
  if (mod && mod.tieBreak) ctx.tieBreak = (out) => mod.tieBreak(out, ctx);
  if (mod && mod.choicesHint) ctx.choicesHint = () => mod.choicesHint(msg, ctx);
  if (mod && mod.choiceName) ctx.choiceName = (choice) => mod.choiceName(choice, ctx);
  if (mod) useLogNames(mod, ctx.lang);
  const place = focusPlace();
  const boardEl = clear($("#board"));
  if (hidden || !mod) {
    boardEl.append(h("p", { class: "muted" }, t("Hidden until the next player is ready.")));
  } else {
    mod.render(boardEl, msg, ctx);
  }
  renderPrompt(msg, ctx);
  if (!hidden) refocus(place);
  renderGuide(msg);
  trackBar();
  // the pass screen: nothing of any seat's private view stays in the page
  if (hidden) hideSeatViews();
  else renderLog(logs[shown] || []);
  $("#record-link").hidden = !msg.finished;
  $("#record-link").href = withKey(`/api/games/${gameId}/record`, gameId);
  document.body.dataset.ready = "1";
  document.body.dataset.step = String(msg.state_id);
}

/** Where a board puts the turn's status and the decision's prompt: the decision panel
 *  (the phone's bar), next to the answers.  Emptied for each render. */
function promptSlot() {
  const slot = clear($("#prompt-text"));
  return (...nodes) => slot.replaceChildren(...nodes);
}

// On a phone the decision bar is fixed at the bottom; what a board docks (its
// [data-dock] element: the hand) stays just above it.  Their heights as --bar-h and
// --dock-h, so the page leaves room for them.
let barWatch = null;
function trackBar() {
  if (!window.ResizeObserver) return;
  const root = document.documentElement.style;
  const measure = () => {
    const bar = $("#prompt");
    const dock = $("#board [data-dock]");
    const fixed = (el) => el && getComputedStyle(el).position === "fixed";
    root.setProperty("--bar-h", fixed(bar) ? `${bar.offsetHeight}px` : "0px");
    root.setProperty("--dock-h", fixed(dock) ? `${dock.offsetHeight}px` : "0px");
  };
  if (!barWatch) {
    barWatch = new ResizeObserver(measure);
    window.addEventListener("resize", measure);
  }
  barWatch.disconnect();
  barWatch.observe($("#prompt"));
  const dock = $("#board [data-dock]");
  if (dock) barWatch.observe(dock);
  measure();
}

// A guided first game (the lobby's "First game (guided)"): a hint for each phase.
const guideKey = `kingdoms:guide:${gameId}`;

function renderGuide(msg) {
  const old = $("#guide");
  if (old) old.remove();
  if (hidden || msg.spectator || !sessionStorage.getItem(guideKey)) return;
  const box = guideBox(msg);
  if (box) $("#prompt-text").after(box);
}

/** Hot-seat: while the device is passed on, the page holds nothing a seat saw alone
 *  (hand, own log lines, decision, a zoomed card); the names and the game stay. */
function hideSeatViews() {
  clear($("#log"));
  resetLog();
  clear($("#prompt-text"));
  clear($("#choices"));
  for (const el of document.querySelectorAll("body > .dzoom, body > .card-tip")) el.remove();
  document.body.classList.add("passing");
}

function renderPrompt(msg, ctx) {
  document.body.classList.remove("passing");
  const title = $("#prompt-title");
  const box = clear($("#choices"));
  if (msg.finished) {
    const out = msg.outcome || { scores: [], winners: [] };
    title.textContent = t("Game over");
    const ended = (out.details || {}).ended;
    if (ended === "resigned") box.append(h("p", { class: "ended-note", id: "ended-note" }, t("{name} resigned.", { name: seatName(msg, out.details.resigned) })));
    if (ended === "abandoned") box.append(h("p", { class: "ended-note", id: "ended-note" }, t("Abandoned: nobody moved for too long.")));
    box.append(ranking(out, (i) => seatName(msg, i)));
    const why = ctx.tieBreak ? ctx.tieBreak(out) : null;
    if (why) box.append(h("p", { class: "tie-break", id: "tie-break" }, why));
    box.append(endButtons(!!msg.spectator));
  } else if (msg.spectator) {
    title.textContent = t("Waiting for {name}…", { name: seatName(msg, msg.current_player) });
    if (msg.scores) box.append(scoreLine(msg.scores, msg));
  } else if (hidden) {
    title.textContent = "";
  } else if (msg.legal.length) {
    title.textContent = t("Your decision");
    // on a phone a long list of card choices leaves the bar: the cards on the board
    // are the way to choose them (tap, then confirm), each a button of its own.  A
    // board that draws every one of them says where they are (the bar's hint: nothing
    // folded away); else they fold into "n more choices".  The rest stays in the bar
    // (a card's own question keeps its answers in the bar: they are the decision)
    const isCard = (c) => !!(c.info && c.info.card);
    const cardChoices = msg.legal.filter(isCard).length;
    const onlyBoard = cardChoices > 6 && window.matchMedia("(max-width: 720px)").matches
      && !msg.legal.some((c) => c.info && c.info.decision);
    const hint = onlyBoard && ctx.choicesHint ? ctx.choicesHint() : null;
    if (hint) box.append(hint);
    const more = onlyBoard && !hint ? h("details", { class: "more-choices", id: "more-choices" }) : null;
    if (more) {
      more.append(h("summary", {}, tn("{n} more choice", "{n} more choices", cardChoices)));
      box.append(more);
    }
    const listed = foldPlacements(msg.legal, box);
    // many buys listed: one group headed "Buy", each button named by its card alone
    // (its accessible name stays the whole action), so the list takes a few lines
    const isBuy = (c) => isCard(c) && c.info.kind === "buy";
    const grouped = !hint && !more && ctx.choiceName && msg.legal.filter(isBuy).length > 6;
    let buys = null;
    msg.legal.forEach((choice, i) => {
      if (hint && isCard(choice)) return; // a card on the board, named there
      let into = listed && onBoard(choice) ? listed : more && isCard(choice) ? more : box;
      const name = grouped && isBuy(choice) ? ctx.choiceName(choice) : null;
      if (name) {
        if (!buys) {
          buys = h("div", { class: "choice-group", id: "buy-choices", role: "group", "aria-labelledby": "buy-choices-title" },
            h("span", { class: "choice-group-title", id: "buy-choices-title" }, t("Buy")));
          box.append(buys);
        }
        into = buys;
      }
      into.append(h("button", {
        class: "choice", dataset: { action: choice.action },
        "aria-label": name ? label(choice.text) : undefined,
        onclick: () => ctx.act(choice.action),
      }, i < 9 ? h("kbd", {}, String(i + 1)) : null, name || label(choice.text)));
    });
  } else {
    title.textContent = t("Waiting for {name}…", { name: seatName(msg, msg.current_player) });
  }
  $("#undo").hidden = !(msg.can_undo && !hidden);
  const resign = $("#resign");
  resign.hidden = !!(msg.finished || msg.spectator || hidden);
  if (resign.hidden) { resign.dataset.armed = ""; resign.textContent = t("Resign"); }
}

// Actions a board draws as targets of its own (a square where a domino goes) are
// made on the board; their list as buttons folds away, still there for the keyboard
// and screen readers.
const onBoard = (choice) => !!(choice.info && choice.info.kind === "place" && choice.info.cells);

function foldPlacements(legal, box) {
  const n = legal.filter(onBoard).length;
  if (!n) return null;
  const list = h("details", { class: "more-choices placements", id: "placement-list" },
    h("summary", {}, tn("{n} placement as a list", "{n} placements as a list", n)));
  box.append(list);
  return list;
}

/** The final ranking: winners first, then by score; equal places shared ("1.", "2."). */
function ranking(out, name) {
  const order = out.scores.map((_, i) => i).sort((a, b) =>
    (out.winners.includes(b) - out.winners.includes(a)) || out.scores[b] - out.scores[a] || a - b);
  let place = 0;
  return h("ol", { class: "scores ranking" }, order.map((i, k) => {
    const prev = order[k - 1];
    const same = k > 0 && out.scores[prev] === out.scores[i] && out.winners.includes(prev) === out.winners.includes(i);
    if (!same) place = k + 1;
    const won = out.winners.includes(i);
    return h("li", { class: won ? "winner" : "", dataset: { seat: String(i), place: String(place) } },
      h("span", { class: "place" }, t("{n}.", { n: place })), " ",
      h("span", { class: `king-dot seat-${i}`, "aria-hidden": "true" }), " ",
      `${name(i)}: ${out.scores[i]}`, won ? ` — ${t("winner")}` : "");
  }));
}

function onResign() {
  // two steps: a click arms the button, a second click resigns
  const btn = $("#resign");
  if (!btn.dataset.armed) {
    btn.dataset.armed = "1";
    btn.textContent = t("Really resign? Click again");
    btn.classList.add("danger");
    clearTimeout(onResign.timer);
    onResign.timer = setTimeout(() => { btn.dataset.armed = ""; btn.textContent = t("Resign"); btn.classList.remove("danger"); }, 4000);
    return;
  }
  btn.dataset.armed = "";
  btn.classList.remove("danger");
  send({ type: "resign", seat: shown });
}

function scoreLine(scores, msg) {
  return h("ul", { class: "score-line", id: "score-line" }, scores.map((sc, i) =>
    h("li", { class: `seat-${i}` }, h("span", { class: "king-dot", "aria-hidden": "true" }), `${seatName(msg, i)}: ${sc}`)));
}

async function rematch() {
  // the same game, seats and options again; this browser gets the new seats it held
  const info = await (await fetch(`/api/games/${gameId}`, { headers: secretHeaders(gameId) })).json();
  const mine = new Set(Object.keys(states).map(Number));
  const seats = info.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot, name: s.name } : { kind: "human", name: s.name }));
  const res = await fetch("/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: info.game, seats, options: info.options, rated: !!info.rated }),
  });
  const game = await res.json();
  if (!res.ok) { toast(game.message || t("Could not create the game")); return; }
  const humans = game.seats.filter((s) => s.token);
  const here = humans.filter((s) => mine.size === 0 || mine.has(s.seat) || humans.length === 1);
  rememberTokens(game.id, here.map((s) => s.token), { game: game.game });
  const others = humans.filter((s) => !here.includes(s));
  if (!others.length) {
    location.href = `/game/${game.id}#t=${here.map((s) => s.token).join(",")}`;
    return;
  }
  const box = $("#choices");
  box.append(h("div", { class: "rematch-links", id: "rematch-links" },
    h("p", {}, t("Send each player their own link (it is their key to the seat):")),
    h("ul", { class: "links" }, others.map((s) => h("li", {}, h("strong", {}, s.name), " ",
      h("input", { readonly: true, value: s.link, class: "invite", onfocus: (e) => e.target.select() })))),
    h("a", { class: "button primary", href: `/game/${game.id}#t=${here.map((s) => s.token).join(",")}` }, t("Play here"))));
}

function endButtons(spectator = false) {
  watchReview(gameId); // a review another seat asked for shows itself here too
  return h("div", { class: "row end-buttons" },
    spectator ? null : h("button", { class: "primary", id: "rematch", onclick: rematch }, t("Rematch")),
    h("a", { class: "button", id: "replay-link", href: `/game/${gameId}#replay`, onclick: (ev) => {
      ev.preventDefault();
      location.hash = "replay";
      location.reload();
    } }, t("Replay")),
    reviewButton(gameId));
}

let logDecorate = null; // the board's way to mark names in log lines (card previews)
let logShown = []; // the entries on screen

function renderLog(entries) {
  logShown = entries;
  drawLog($("#log"), entries, logDecorate);
}

/** The board's name marker for the log in `language` (once its data are loaded). */
function useLogNames(mod, language) {
  logDecorate = mod && mod.logNames ? mod.logNames(language, () => {
    logDecorate = mod.logNames(language);
    if (!hidden) renderLog(logShown);
  }) : null;
}

function connect(tokens) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(gameId)}`);
  socket.addEventListener("open", () => {
    greeted = false;
    for (const k of Object.keys(logs)) delete logs[k];
    const me = profile();
    const key = shareKeyFor(gameId); // a watcher of a private game shows its share key
    const hello = tokens.length ? { type: "hello", tokens, lang: lang() }
      : key ? { type: "hello", watch: true, tokens: [key], lang: lang() } : { type: "hello", watch: true, lang: lang() };
    // one seat played here: prove the profile so a rated game counts for it; a
    // signed-in watcher: so it watches within its profile's places, not its address's
    if (me && (tokens.length === 1 || (!tokens.length && watchAsMe))) {
      hello.profile = { name: me.name, secret: me.secret };
    }
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") onState(msg);
    else if (msg.type === "error") {
      pending = false;
      document.body.classList.remove("pending");
      const text = ERRORS[msg.code] ? ERRORS[msg.code]() : msg.message;
      if (msg.code === "bad_profile" && !greeted && !tokens.length) {
        watchAsMe = false; // a profile this server does not know: watch as anyone
        socket.close(4001);
      } else if (msg.code === "bad_token" || msg.code === "no_game") {
        toast(text);
        $("#prompt-title").textContent = text;
        socket.close(4000);
      } else if (!greeted) {
        // the hello itself failed (the database is down or restarting): say hello
        // again on a new connection, with a growing pause, until the game comes
        toast(t("The server cannot load the game now; trying again…"));
        socket.close(4001);
      } else {
        toast(text);
      }
    }
  });
  socket.addEventListener("close", (ev) => {
    if (ev.code === 4000) return;
    setTimeout(() => connect(tokens), retry);
    retry = Math.min(retry * 2, RETRY_MAX);
  });
}

async function watchOrReplay() {
  // no seat here: a running game is watched live (public view), a finished one replayed
  const res = await fetch(`/api/games/${gameId}`, { headers: secretHeaders(gameId) });
  const info = await res.json();
  if (!res.ok) {
    $("#prompt-title").textContent = ERRORS[info.error] ? ERRORS[info.error]() : info.message;
    document.body.dataset.ready = "1";
    return;
  }
  if (info.status === "finished") replay();
  else {
    document.body.classList.add("watching");
    connect([]);
  }
}

async function replay() {
  // A finished game: step through it (it opens at the end); everything is open now.
  const res = await fetch(`/api/games/${gameId}`, { headers: secretHeaders(gameId) });
  const info = await res.json();
  if (!res.ok) { // a private game without its secrets: no such game
    $("#prompt-title").textContent = ERRORS[info.error] ? ERRORS[info.error]() : info.message;
    $("#replay-controls").hidden = true;
    document.body.dataset.ready = "1";
    return;
  }
  if (info.status !== "finished") {
    $("#prompt-title").textContent = info.message || t("This game is still being played; you have no seat in it.");
    if (info.status === "running") setTimeout(replay, 2000); // show the replay once it ends
    return;
  }
  $("#prompt-title").textContent = t("Game over");
  $("#replay-controls").hidden = false;
  document.body.classList.add("replaying");
  const slider = $("#r-step");
  const seatSel = $("#r-seat");
  clear(seatSel);
  const names = { seats: info.seats };
  info.seats.forEach((s, i) => seatSel.add(new Option(seatName(names, i), String(i))));
  const renameSeats = () => info.seats.forEach((s, i) => { seatSel.options[i].text = seatName(names, i); });
  const target = replayTarget(); // a review's link: this step, seen by this seat
  if (target.seat !== null && target.seat < info.seats.length) seatSel.value = String(target.seat);
  if (target.step !== null) { slider.max = String(target.step); slider.value = String(target.step); slider.dataset.ready = "1"; }
  if (!$("#review-button")) $("#replay-controls").append(reviewButton(gameId));
  watchReview(gameId);
  let showing = null;
  const show = async () => {
    replayRedraw = () => { showing = null; renameSeats(); show(); };
    const step = slider.dataset.ready ? `step=${slider.value}&` : "";
    const res = await fetch(`/api/games/${gameId}/replay?${step}seat=${seatSel.value}&lang=${lang()}`, { headers: secretHeaders(gameId) });
    const data = await res.json();
    if (!res.ok) { // a private game without its secrets: no such game
      $("#prompt-title").textContent = ERRORS[data.error] ? ERRORS[data.error]() : data.message;
      $("#replay-controls").hidden = true;
      document.body.dataset.ready = "1";
      return;
    }
    slider.max = String(data.steps);
    slider.value = String(data.step);
    slider.dataset.ready = "1";
    showing = data.step;
    $("#r-label").textContent = t("Move {n} of {m}", { n: data.step, m: data.steps });
    // the status of the step shown: the end only at the last step
    $("#prompt-title").textContent = data.step === data.steps ? t("Game over") : t("Move {n} of {m}", { n: data.step, m: data.steps });
    const msg = { ...data, legal: [], state_id: data.step, finished: data.step === data.steps };
    const mod = await board(data.game); // loaded first: the old picture stays until the new one is drawn
    const boardEl = clear($("#board"));
    mod.render(boardEl, msg, { t, lang: lang(), seat: data.seat, legal: [], act: () => {}, name: (i) => seatName(names, i) });
    useLogNames(mod, lang());
    $("#title").textContent = `${gameTitle(data.game)} · ${t("Replay")}`;
    const box = clear($("#choices"));
    if (data.scores) box.append(scoreLine(data.scores, names));
    replayHint(box, data.step);
    renderLog(data.log);
    $("#record-link").hidden = false;
    $("#record-link").href = withKey(`/api/games/${gameId}/record`, gameId);
    document.body.dataset.ready = "1";
    document.body.dataset.step = String(data.step);
  };
  const go = (n) => {
    const next = Math.max(0, Math.min(Number(slider.max), n));
    if (next === showing) return;
    slider.value = String(next);
    slider.dataset.ready = "1"; // a step asked for before the first picture arrived counts
    show();
  };
  slider.addEventListener("input", show);
  seatSel.addEventListener("change", show);
  $("#r-first").onclick = () => go(0);
  $("#r-prev").onclick = () => go(Number(slider.value) - 1);
  $("#r-next").onclick = () => go(Number(slider.value) + 1);
  $("#r-last").onclick = () => go(Number(slider.max));
  document.addEventListener("keydown", (ev) => {
    if (ev.target === slider || ev.target.matches("input[type=text], textarea, select")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (ev.key in moves) { ev.preventDefault(); go(Number(slider.value) + moves[ev.key]); }
    if (ev.key === "Home") { ev.preventDefault(); go(0); }
    if (ev.key === "End") { ev.preventDefault(); go(Number(slider.max)); }
  });
  await show();
}

function keys(ev) {
  if (ev.target.matches("input, textarea, select")) return;
  if (hidden && (ev.key === "Enter" || ev.key === " ")) {
    ev.preventDefault();
    $("#pass-ready").click();
    return;
  }
  const msg = states[shown];
  if (!msg || hidden) return;
  if (/^[1-9]$/.test(ev.key) && msg.legal[Number(ev.key) - 1]) act(shown, msg.legal[Number(ev.key) - 1].action);
  // common actions by letter: a = play all treasures, e = end the phase (games that
  // describe their actions with these kinds)
  const byKind = (kind) => msg.legal.find((l) => l.info && l.info.kind === kind);
  const shortcut = { a: "play_all_treasures", e: "end_phase" }[ev.key];
  if (shortcut && byKind(shortcut)) act(shown, byKind(shortcut).action);
  if ((ev.key === "u" || ev.key === "z") && msg.can_undo) $("#undo").click();
}

async function main() {
  await loadLanguage(pickLanguage());
  $("#lang-slot").append(languageSelect((l) => {
    translatePage();
    if (replayRedraw) replayRedraw();
    else if (socket && socket.readyState === WebSocket.OPEN) {
      for (const k of Object.keys(logs)) delete logs[k];
      send({ type: "lang", lang: l });
    } else render();
  }));
  translatePage();
  $("#pass-ready").addEventListener("click", () => { hidden = false; render(); });
  $("#resign").addEventListener("click", onResign);
  $("#undo").addEventListener("click", () => {
    const st = states[shown];
    if (st) send({ type: "undo", state_id: st.state_id, seat: shown });
  });
  document.addEventListener("keydown", keys);
  trackBar();
  const fromHash = tokensFromHash();
  const shareKey = shareKeyFromHash();
  if (shareKey) {
    rememberShareKey(gameId, shareKey);
    history.replaceState(null, "", location.pathname + location.hash.replace(/[#&]k=[^&]+/, "").replace(/^&/, "#"));
  }
  if (/[#&]guide=1/.test(location.hash)) sessionStorage.setItem(guideKey, "1");
  const tabKey = `kingdoms:tab:${gameId}`;
  if (fromHash.length) {
    rememberTokens(gameId, fromHash);
    sessionStorage.setItem(tabKey, JSON.stringify(fromHash)); // this tab plays these seats
    history.replaceState(null, "", location.pathname); // keep the secret out of the address bar
  }
  let tokens = tokensFor(gameId);
  try {
    tokens = JSON.parse(sessionStorage.getItem(tabKey)) || tokens;
  } catch {}
  if (tokens.length && !location.hash.includes("replay")) connect(tokens);
  else if (location.hash.includes("replay")) replay();
  else watchOrReplay();
}

main();
