// The game page: one WebSocket for this browser's seats (several: hot-seat),
// renders whatever the server sends.  No game rules here: the legal actions,
// their texts and every view come from the server.
import { $, clear, h } from "./dom.js";
import { lang, languageSelect, loadLanguage, pickLanguage, t, tn, translatePage } from "./i18n.js";
import { profile, rememberTokens, tokensFor } from "./store.js";
import { replayHint, replayTarget, reviewButton } from "./review.js";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const states = {}; // seat -> latest state message
const logs = {}; // seat -> full log (texts) as this seat sees it
let shown = null; // the seat on screen
let hidden = false; // pass-the-device screen up
let socket = null;
let pending = false;
let retry = 500;
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
  const s = (msg.seats || [])[seat];
  // a seat nobody named is "Player n" in the reader's language
  return s && s.name !== `Player ${seat + 1}` ? s.name : t("Player {n}", { n: seat + 1 });
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

let renderQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  queueMicrotask(() => { renderQueued = false; render(); });
}

let renderGen = 0;

async function render() {
  const gen = ++renderGen;
  $("#pass-screen").hidden = !hidden;
  if (shown === null) return;
  const msg = states[shown];
  const ctx = {
    t, lang: lang(), seat: msg.spectator ? null : shown, legal: msg.legal,
    act: (action) => act(shown, action),
    name: (seat) => seatName(msg, seat),
  };
  document.title = `${gameTitle(msg.game)} · Kingdoms`;
  $("#title").textContent = msg.spectator ? `${gameTitle(msg.game)} · ${t("Watching")}` : `${gameTitle(msg.game)} · ${seatName(msg, shown)}`;
  $("#status").textContent = msg.finished ? t("Game over") : "";
  const mod = hidden ? null : await board(msg.game);
  if (gen !== renderGen) return; // a newer render (e.g. the pass screen) took over
  const boardEl = clear($("#board"));
  if (hidden || !mod) {
    boardEl.append(h("p", { class: "muted" }, t("Hidden until the next player is ready.")));
  } else {
    mod.render(boardEl, msg, ctx);
  }
  renderPrompt(msg, ctx);
  renderLog(logs[shown] || []);
  $("#record-link").hidden = !msg.finished;
  $("#record-link").href = `/api/games/${gameId}/record`;
  document.body.dataset.ready = "1";
  document.body.dataset.step = String(msg.state_id);
}

function renderPrompt(msg, ctx) {
  const title = $("#prompt-title");
  const box = clear($("#choices"));
  if (msg.finished) {
    const out = msg.outcome || { scores: [], winners: [] };
    title.textContent = t("Game over");
    const ended = (out.details || {}).ended;
    if (ended === "resigned") box.append(h("p", { class: "ended-note", id: "ended-note" }, t("{name} resigned.", { name: seatName(msg, out.details.resigned) })));
    if (ended === "abandoned") box.append(h("p", { class: "ended-note", id: "ended-note" }, t("Abandoned: nobody moved for too long.")));
    box.append(h("ol", { class: "scores" }, out.scores.map((s, i) =>
      h("li", { class: out.winners.includes(i) ? "winner" : "" },
        `${seatName(msg, i)}: ${s}`, out.winners.includes(i) ? ` — ${t("winner")}` : ""))));
    box.append(endButtons(!!msg.spectator));
  } else if (msg.spectator) {
    title.textContent = t("Waiting for {name}…", { name: seatName(msg, msg.current_player) });
    if (msg.scores) box.append(scoreLine(msg.scores, msg));
  } else if (hidden) {
    title.textContent = "";
  } else if (msg.legal.length) {
    title.textContent = t("Your decision");
    // on a phone a long list of card choices folds away: the cards on the board
    // are the way to choose them (tap, then confirm); the rest stays in the bar
    const fold = msg.legal.length > 6 && window.matchMedia("(max-width: 720px)").matches;
    const more = fold ? h("details", { class: "more-choices", id: "more-choices" }) : null;
    if (more) {
      more.append(h("summary", {}, tn("{n} more choice", "{n} more choices", msg.legal.filter((c) => c.info && c.info.card).length)));
      box.append(more);
    }
    msg.legal.forEach((choice, i) => {
      const into = more && choice.info && choice.info.card ? more : box;
      into.append(h("button", {
        class: "choice", dataset: { action: choice.action },
        onclick: () => ctx.act(choice.action),
      }, i < 9 ? h("kbd", {}, String(i + 1)) : null, label(choice.text)));
    });
  } else {
    title.textContent = t("Waiting for {name}…", { name: seatName(msg, msg.current_player) });
  }
  $("#undo").hidden = !(msg.can_undo && !hidden);
  const resign = $("#resign");
  resign.hidden = !!(msg.finished || msg.spectator || hidden);
  if (resign.hidden) { resign.dataset.armed = ""; resign.textContent = t("Resign"); }
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
  const info = await (await fetch(`/api/games/${gameId}`)).json();
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
  return h("div", { class: "row end-buttons" },
    spectator ? null : h("button", { class: "primary", id: "rematch", onclick: rematch }, t("Rematch")),
    h("a", { class: "button", id: "replay-link", href: `/game/${gameId}#replay`, onclick: (ev) => {
      ev.preventDefault();
      location.hash = "replay";
      location.reload();
    } }, t("Replay")),
    reviewButton(gameId));
}

function renderLog(entries) {
  const ol = clear($("#log"));
  const start = Math.max(0, entries.length - 200);
  for (const e of entries.slice(start)) ol.append(h("li", { class: `ev-${e.type}` }, e.text));
  ol.scrollTop = ol.scrollHeight;
}

function connect(tokens) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(gameId)}`);
  socket.addEventListener("open", () => {
    retry = 500;
    for (const k of Object.keys(logs)) delete logs[k];
    const me = profile();
    const hello = tokens.length ? { type: "hello", tokens, lang: lang() } : { type: "hello", watch: true, lang: lang() };
    // one seat played here: prove the profile so a rated game counts for it
    if (tokens.length === 1 && me) hello.profile = { name: me.name, secret: me.secret };
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") onState(msg);
    else if (msg.type === "error") {
      pending = false;
      document.body.classList.remove("pending");
      const text = ERRORS[msg.code] ? ERRORS[msg.code]() : msg.message;
      toast(text);
      if (msg.code === "bad_token" || msg.code === "no_game") {
        $("#prompt-title").textContent = text;
        socket.close(4000);
      }
    }
  });
  socket.addEventListener("close", (ev) => {
    if (ev.code === 4000) return;
    setTimeout(() => connect(tokens), retry);
    retry = Math.min(retry * 2, 8000);
  });
}

async function watchOrReplay() {
  // no seat here: a running game is watched live (public view), a finished one replayed
  const res = await fetch(`/api/games/${gameId}`);
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
  const info = await (await fetch(`/api/games/${gameId}`)).json();
  if (info.status !== "finished") {
    $("#prompt-title").textContent = info.message || t("This game is still being played; you have no seat in it.");
    if (info.status === "running") setTimeout(replay, 2000); // show the replay once it ends
    return;
  }
  $("#prompt-title").textContent = t("Game over");
  $("#replay-controls").hidden = false;
  const slider = $("#r-step");
  const seatSel = $("#r-seat");
  clear(seatSel);
  const names = { seats: info.seats };
  info.seats.forEach((s, i) => seatSel.add(new Option(seatName(names, i), String(i))));
  const target = replayTarget(); // a review's link: this step, seen by this seat
  if (target.seat !== null && target.seat < info.seats.length) seatSel.value = String(target.seat);
  if (target.step !== null) { slider.max = String(target.step); slider.value = String(target.step); slider.dataset.ready = "1"; }
  if (!$("#review-button")) $("#replay-controls").append(reviewButton(gameId));
  let showing = null;
  const show = async () => {
    const step = slider.dataset.ready ? `step=${slider.value}&` : "";
    const res = await fetch(`/api/games/${gameId}/replay?${step}seat=${seatSel.value}&lang=${lang()}`);
    const data = await res.json();
    slider.max = String(data.steps);
    slider.value = String(data.step);
    slider.dataset.ready = "1";
    showing = data.step;
    $("#r-label").textContent = t("Move {n} of {m}", { n: data.step, m: data.steps });
    const msg = { ...data, legal: [], state_id: data.step, finished: data.step === data.steps };
    const boardEl = clear($("#board"));
    (await board(data.game)).render(boardEl, msg, { t, lang: lang(), seat: data.seat, legal: [], act: () => {}, name: (i) => seatName(names, i) });
    $("#title").textContent = `${gameTitle(data.game)} · ${t("Replay")}`;
    const box = clear($("#choices"));
    if (data.scores) box.append(scoreLine(data.scores, names));
    replayHint(box, data.step);
    renderLog(data.log);
    $("#record-link").hidden = false;
    $("#record-link").href = `/api/games/${gameId}/record`;
    document.body.dataset.ready = "1";
    document.body.dataset.step = String(data.step);
  };
  const go = (n) => {
    const next = Math.max(0, Math.min(Number(slider.max), n));
    if (next === showing) return;
    slider.value = String(next);
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
    if (socket && socket.readyState === WebSocket.OPEN) {
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
  const fromHash = tokensFromHash();
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
