// Game review: a "Review" button on a finished game's page and in its replay, the
// chart of each seat's winning chance over the game and the biggest mistakes, each a
// link to the replay at that position with the preferred move shown.  The server
// computes the review (in the background) and decides which seats this browser may see.
import { $, clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { profile, secretHeaders } from "./store.js";

const SVG = "http://www.w3.org/2000/svg";
if (!document.querySelector('link[href="/static/css/review.css"]')) {
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/review.css" }));
}
const COLORS = ["#4a7fb5", "#d9763d", "#5aa55a", "#b5475a", "#8a6bb8", "#8c6d4f"];

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

function headers(gameId) {
  return secretHeaders(gameId);
}

function pct(x) {
  return `${Math.round(x * 100)}%`;
}

/** The hash of a replay link: the step, the seat seen by and the preferred move. */
export function replayLink(gameId, seat, step, best) {
  return `/game/${encodeURIComponent(gameId)}#replay&step=${step}&seat=${seat}&best=${encodeURIComponent(best)}`;
}

/** {step, seat, best} asked for by the address (a mistake's link), or nulls. */
export function replayTarget() {
  const get = (k) => {
    const m = location.hash.match(new RegExp(`[#&]${k}=([^&]*)`));
    return m ? decodeURIComponent(m[1]) : null;
  };
  const step = get("step");
  const seat = get("seat");
  return {
    step: step !== null && /^\d+$/.test(step) ? Number(step) : null,
    seat: seat !== null && /^\d+$/.test(seat) ? Number(seat) : null,
    best: get("best"),
  };
}

/** In the replay: the move the review preferred, shown at the step it was for. */
export function replayHint(box, step) {
  const target = replayTarget();
  if (target.best === null || target.step !== step) return;
  box.append(h("p", { class: "review-hint", id: "review-hint" },
    h("strong", {}, t("Preferred move:")), " ", target.best));
}

/** The "Review" button (opens the review panel in the side column). */
export function reviewButton(gameId) {
  // data-i18n: the page's language switch retranslates it like the static texts
  return h("button", { id: "review-button", "data-i18n": "Review", onclick: () => openReview(gameId) }, t("Review"));
}

function panel() {
  let el = $("#review-panel");
  if (!el) {
    el = h("section", { id: "review-panel", class: "panel", "aria-live": "polite" });
    const log = $(".log-panel");
    if (log) log.before(el);
    else ($("#side") || document.body).append(el);
  }
  return el;
}

let polling = null;
let pace = null; // {gameId, since, done}: when this page first saw the review progress

/** The time the review still needs ("3 min", "40 s"), from its pace seen here so far. */
function estimate(gameId, data) {
  const now = performance.now();
  const done = data.done || 0;
  if (!pace || pace.gameId !== gameId || done < pace.done) pace = { gameId, since: now, done };
  if (!data.total || done <= pace.done || now <= pace.since) return null;
  const seconds = ((data.total - done) * (now - pace.since)) / (done - pace.done) / 1000;
  return seconds >= 90 ? `${Math.round(seconds / 60)} min` : `${Math.max(1, Math.round(seconds))} s`;
}

export async function openReview(gameId) {
  const el = panel();
  if (polling) clearTimeout(polling);
  el.dataset.status = "asking"; // not the status of a review shown before this request
  clear(el).append(h("h2", { "data-i18n": "Review" }, t("Review")), h("p", { class: "muted" }, t("Asking for the review…")));
  let res, body;
  const ask = (me) => fetch(`/api/games/${encodeURIComponent(gameId)}/review?lang=${lang()}`, {
    method: "POST",
    headers: me ? { ...headers(gameId), "Content-Type": "application/json" } : headers(gameId),
    // signed in: the request counts in the profile's own quota, not the address's
    body: me ? JSON.stringify({ profile: { name: me.name, secret: me.secret } }) : undefined,
  });
  try {
    const me = profile();
    res = await ask(me);
    body = await res.json();
    if (me && res.status === 400 && body.error === "bad_profile") {
      res = await ask(null); // a profile this server does not know: ask as anyone
      body = await res.json();
    }
  } catch {
    el.dataset.status = "failed";
    clear(el).append(h("h2", { "data-i18n": "Review" }, t("Review")), h("p", { class: "error" }, t("The review failed.")));
    return;
  }
  if (!res.ok) {
    el.dataset.status = "refused";
    clear(el).append(h("h2", { "data-i18n": "Review" }, t("Review")), h("p", { class: "error" },
      res.status === 429 ? t("Too many reviews are waiting; try again later.") : body.message));
    return;
  }
  show(gameId, body);
  follow(gameId, body);
}

/** On a finished game's page: a review already asked for (by any seat) shows itself,
 *  growing as it is computed, to everyone who may see its seats. */
let watching = null;

export async function watchReview(gameId) {
  clearTimeout(watching);
  if ($("#review-panel")) return;
  let body;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/review?lang=${lang()}`, { headers: headers(gameId) });
    if (!r.ok) return;
    body = await r.json();
  } catch {
    return;
  }
  if ($("#review-panel")) return;
  if (!body || !["queued", "running", "done"].includes(body.status)) {
    // not asked for yet: look again now and then while the page is open
    watching = setTimeout(() => watchReview(gameId), 4000);
    return;
  }
  show(gameId, body);
  follow(gameId, body);
}

function follow(gameId, body) {
  if (polling) clearTimeout(polling);
  const poll = async () => {
    let data;
    try {
      const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/review?lang=${lang()}`, { headers: headers(gameId) });
      data = await r.json();
    } catch {
      polling = setTimeout(poll, 3000); // the server restarting: the review resumes there
      return;
    }
    show(gameId, data);
    if (data.status === "queued" || data.status === "running") polling = setTimeout(poll, 1000);
  };
  if (body.status !== "done" && body.status !== "failed") polling = setTimeout(poll, 500);
}

function show(gameId, data) {
  const el = clear(panel());
  el.dataset.status = data.status;
  el.append(h("h2", {}, t("Review")));
  if (data.status === "failed") {
    el.append(h("p", { class: "error" }, t("The review failed.")));
    return;
  }
  if (data.status !== "done") {
    const eta = estimate(gameId, data);
    el.append(h("p", { class: "muted", id: "review-progress" },
      t("Analysing the game: {done} of {total} decisions…", { done: data.done || 0, total: data.total || "?" }),
      eta ? [" ", h("span", { id: "review-eta" }, t("about {time} left", { time: eta }))] : null));
  } else {
    pace = null;
  }
  const seats = data.seats || [];
  const visible = seats.filter((s) => s.visible);
  if (visible.some((s) => s.curve && s.curve.length)) el.append(chart(visible));
  const mine = seats.filter((s) => s.mine);
  const listed = mine.length ? mine : visible;
  for (const s of listed) {
    el.append(h("h3", {}, t("Biggest mistakes of {name}", { name: s.name })));
    const list = h("ol", { class: "review-mistakes" });
    for (const m of s.mistakes || []) {
      list.append(h("li", {},
        h("a", { href: replayLink(gameId, s.seat, m.step, m.best), class: "review-link", onclick: (ev) => {
          ev.preventDefault();
          location.href = ev.currentTarget.href;
          location.reload();
        } },
        m.turn !== null ? `${t("Turn {n}", { n: m.turn })}: ` : "", m.move),
        " — ", t("better: {move}", { move: m.best }),
        " ", h("span", { class: "review-loss" }, t("lost {loss} winning chance", { loss: pct(m.loss) }))));
    }
    if (data.status === "done" && !(s.mistakes || []).length) list.append(h("li", { class: "muted" }, t("No clear mistake found.")));
    el.append(list);
  }
  const hiddenSeats = seats.filter((s) => !s.visible).map((s) => s.name);
  if (hiddenSeats.length) el.append(h("p", { class: "muted" }, t("Not shared: {names}", { names: hiddenSeats.join(", ") })));
  for (const s of mine) {
    el.append(h("label", { class: "review-share" },
      h("input", { type: "checkbox", id: `review-share-${s.seat}`, checked: s.shared, onchange: async (ev) => {
        await fetch(`/api/games/${encodeURIComponent(gameId)}/review/share`, {
          method: "POST",
          headers: { ...headers(gameId), "Content-Type": "application/json" },
          body: JSON.stringify({ shared: ev.target.checked }),
        });
      } }), " ", t("Share my review with everyone")));
  }
}

function chart(seats) {
  const W = 320, H = 160, L = 30, B = 18, T = 6, R = 6;
  const steps = Math.max(1, ...seats.flatMap((s) => (s.curve || []).map((p) => p.step)));
  const x = (step) => L + (W - L - R) * (step / steps);
  const y = (win) => T + (H - T - B) * (1 - win);
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-chart", id: "review-chart", role: "img", "aria-label": t("Winning chance") });
  for (const v of [0, 0.5, 1]) {
    box.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "review-grid" }));
    const label = svg("text", { x: L - 3, y: y(v) + 3, "text-anchor": "end", class: "review-axis" });
    label.textContent = pct(v);
    box.append(label);
  }
  const tip = h("div", { class: "review-tip", id: "review-tip", hidden: true });
  seats.forEach((s, i) => {
    const color = COLORS[s.seat % COLORS.length];
    const pts = s.curve || [];
    box.append(svg("polyline", { points: pts.map((p) => `${x(p.step)},${y(p.win)}`).join(" "), fill: "none", stroke: color, "stroke-width": 1.5 }));
    for (const p of pts) {
      const dot = svg("circle", { cx: x(p.step), cy: y(p.win), r: 3, fill: color, class: "review-point", "data-seat": s.seat, "data-step": p.step });
      const text = `${s.name} · ${p.turn !== null ? t("Turn {n}", { n: p.turn }) + " · " : ""}${p.move} · ${pct(p.win)}`;
      const title = svg("title");
      title.textContent = text;
      dot.append(title);
      dot.addEventListener("mouseenter", () => { tip.textContent = text; tip.hidden = false; });
      dot.addEventListener("mouseleave", () => { tip.hidden = true; });
      box.append(dot);
    }
  });
  const legend = h("div", { class: "review-legend" }, seats.map((s) =>
    h("span", { style: { color: COLORS[s.seat % COLORS.length] } }, `● ${s.name} `)));
  return h("figure", { class: "review-figure" },
    h("figcaption", {}, t("Winning chance before each decision")), box, tip, legend);
}
