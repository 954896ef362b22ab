// The game's log: the whole game, virtualised.  Only the lines in and near the
// visible part of the list exist in the page; the list's padding (inside the box
// that scrolls, the list's parent) stands for the others (their heights measured once drawn, estimated before), so the scroll bar
// spans the whole game and the first line (the kingdom) is a scroll to the top away.
// Lines keep their numbers in the game; the list follows the newest line unless the
// reader scrolled back.  New lines are also said in a live region (screen readers),
// as the list itself changes while scrolling.  Names a board recognises (Dominion's
// cards) show on hover, focus or tap.
import { clear, h } from "./dom.js";

const OVERSCAN = 400; // px drawn above and below the visible part
const MOST = 160; // lines drawn at most, however tall the list
const FOLLOW = 40; // px from the bottom within which the list follows new lines
const SAID = 6; // newest lines said at once by the live region

let log = null; // {ol, decorate, entries, texts, heights, tops, nodes, guess, width, following}

function blank(ol, decorate) {
  return {
    ol, decorate, entries: [], texts: [], heights: [], tops: null, nodes: new Map(), guess: 0, width: 0,
    following: true,
  };
}

// (its number in the game, also for screen readers: line i of n)
function line(e, i, decorate) {
  return h("li", { class: `ev-${e.type}`, value: String(i + 1), "aria-posinset": String(i + 1) },
    decorate ? decorate(e.text) : e.text);
}

/** The top of each line (and the end), from the heights measured or estimated. */
function tops(s) {
  if (s.tops) return s.tops;
  const out = new Float64Array(s.entries.length + 1);
  for (let i = 0; i < s.entries.length; i++) out[i + 1] = out[i] + (s.heights[i] || s.guess);
  s.tops = out;
  return out;
}

/** The first line whose bottom is below `y`. */
function lineAt(t, y) {
  let lo = 0;
  let hi = t.length - 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid + 1] <= y) lo = mid + 1;
    else hi = mid;
  }
  return Math.max(0, lo);
}

/** Draw the lines around the visible part; `follow`: end at the newest line. */
function draw(s, follow) {
  const { ol, entries } = s;
  const box = ol.parentElement;
  const n = entries.length;
  // room for the longest line number ("1141."), however long the game
  const digits = String(Math.max(n, 100)).length;
  if (ol.style.getPropertyValue("--digits") !== String(digits)) ol.style.setProperty("--digits", String(digits));
  if (!n) {
    clear(ol);
    s.nodes.clear();
    ol.style.paddingTop = ol.style.paddingBottom = "";
    return;
  }
  if (!s.guess) {
    // one line's height, measured on a line drawn alone
    const probe = line(entries[n - 1], n - 1, null);
    ol.append(probe);
    s.guess = probe.getBoundingClientRect().height || 18;
    probe.remove();
  }
  // the line at the top of the view and how far into it the view starts: kept in
  // place while the heights above it become known
  let t = tops(s);
  const view = box.clientHeight || 300;
  const anchor = follow ? n - 1 : lineAt(t, box.scrollTop);
  const into = follow ? 0 : box.scrollTop - t[anchor];
  for (let pass = 0; pass < 2; pass++) {
    t = tops(s);
    const y = follow ? t[n] - view : t[anchor] + into;
    let first = lineAt(t, Math.max(0, y - OVERSCAN));
    let last = lineAt(t, y + view + OVERSCAN);
    if (follow) last = n - 1;
    if (last - first + 1 > MOST) {
      if (follow) first = last - MOST + 1;
      else last = first + MOST - 1;
    }
    // keep the nodes still in range (a focused card name stays), draw the rest
    for (const [i, node] of s.nodes) {
      if (i < first || i > last) { node.remove(); s.nodes.delete(i); }
    }
    let before = null;
    for (let i = last; i >= first; i--) {
      let node = s.nodes.get(i);
      if (!node) {
        node = line(entries[i], i, s.decorate);
        s.nodes.set(i, node);
        ol.insertBefore(node, before);
      }
      before = node;
    }
    let changed = false;
    for (let i = first; i <= last; i++) {
      const node = s.nodes.get(i);
      if (node.getAttribute("aria-setsize") !== String(n)) node.setAttribute("aria-setsize", String(n));
      const height = node.getBoundingClientRect().height;
      if (height && Math.abs(height - (s.heights[i] || 0)) > 0.5) {
        if (Math.abs(height - (s.heights[i] || s.guess)) > 0.5) changed = true;
        s.heights[i] = height;
      }
    }
    if (changed) s.tops = null;
    t = tops(s);
    ol.style.paddingTop = `${t[first]}px`;
    ol.style.paddingBottom = `${t[n] - t[last + 1]}px`;
    box.scrollTop = follow ? box.scrollHeight : t[anchor] + into;
    if (!changed) break;
  }
  s.following = follow || atEnd(ol);
}

function atEnd(ol) {
  const box = ol.parentElement;
  return box.scrollHeight - box.scrollTop - box.clientHeight < FOLLOW;
}

function liveRegion(ol) {
  let live = document.getElementById("log-live");
  if (!live) {
    live = h("div", { id: "log-live", class: "sr-only", "aria-live": "polite" });
    ol.parentElement.after(live);
  }
  return live;
}

/** Say the newest lines to screen readers (those added since the last render). */
function say(ol, added) {
  const live = liveRegion(ol);
  clear(live);
  for (const e of added.slice(-SAID)) live.append(h("p", {}, e.text));
}

let frame = 0;
function onScroll() {
  // (whether the reader is at the newest line: kept while the box changes size)
  if (log) log.following = atEnd(log.ol);
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    if (log) draw(log, false);
  });
}

function watch(ol) {
  if (ol.dataset.virtual) return;
  ol.dataset.virtual = "1";
  const box = ol.parentElement;
  box.addEventListener("scroll", onScroll, { passive: true });
  // a taller box shows more lines; a new width wraps them anew (their heights are
  // measured again)
  new ResizeObserver(() => {
    if (!log || log.ol !== ol) return;
    const follow = log.following;
    if (box.clientWidth !== log.width) {
      log.width = box.clientWidth;
      log.heights = [];
      log.tops = null;
      log.guess = 0;
    }
    draw(log, follow);
  }).observe(box);
}

/** Draw `entries` ([{type, text}]) into `ol`; `decorate(text)` may return nodes. */
export function renderLog(ol, entries, decorate) {
  const s = log;
  const same = s && s.ol === ol && s.decorate === decorate && s.texts.length <= entries.length
    && s.texts.every((text, i) => entries[i].text === text);
  watch(ol);
  if (!same) {
    clear(ol);
    log = blank(ol, decorate);
    log.width = ol.parentElement.clientWidth;
  }
  const follow = !same || log.following;
  const added = entries.slice(log.texts.length);
  log.entries = entries;
  log.texts = entries.map((e) => e.text);
  if (added.length || !same) log.tops = null;
  draw(log, follow);
  if (same && added.length) say(ol, added);
  else if (!same) clear(liveRegion(ol));
}

/** Forget what was drawn (the log was emptied elsewhere), and what was said. */
export function resetLog() {
  if (log) {
    log.ol.style.paddingTop = log.ol.style.paddingBottom = "";
    const live = document.getElementById("log-live");
    if (live) clear(live);
  }
  log = null;
}
