// The game's log: the whole game, drawn lazily — the latest lines first, earlier ones
// as the reader scrolls up to them (so a long game costs no more than what is read);
// new lines are appended without drawing the rest again, numbered from the game's
// first line.  Names a board recognises (Dominion's cards) show on hover, focus or tap.
import { clear, h } from "./dom.js";

const WINDOW = 150; // lines drawn at first
const CHUNK = 150; // lines drawn each time the reader reaches the top

let drawn = { ol: null, decorate: null, texts: [], entries: [], first: 0 };

function line(e, decorate) {
  return h("li", { class: `ev-${e.type}` }, decorate ? decorate(e.text) : e.text);
}

/** Draw earlier lines above the ones shown, keeping the reader's place. */
function drawEarlier() {
  const { ol, entries, decorate, first } = drawn;
  if (!ol || first === 0) return;
  const from = Math.max(0, first - CHUNK);
  const before = ol.scrollHeight;
  const frag = document.createDocumentFragment();
  for (const e of entries.slice(from, first)) frag.append(line(e, decorate));
  ol.prepend(frag);
  drawn.first = from;
  ol.start = from + 1;
  ol.scrollTop += ol.scrollHeight - before;
}

/** Draw `entries` ([{type, text}]) into `ol`; `decorate(text)` may return nodes. */
export function renderLog(ol, entries, decorate) {
  const same = drawn.ol === ol && drawn.decorate === decorate && drawn.texts.length <= entries.length
    && drawn.texts.every((text, i) => entries[i].text === text);
  const atEnd = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40;
  if (!same) {
    clear(ol);
    const first = Math.max(0, entries.length - WINDOW);
    drawn = { ol, decorate, texts: entries.slice(0, first).map((e) => e.text), entries, first };
    ol.start = first + 1;
    if (!ol.dataset.lazy) {
      ol.dataset.lazy = "1";
      ol.addEventListener("scroll", () => { if (ol.scrollTop < 60) drawEarlier(); }, { passive: true });
    }
  }
  drawn.entries = entries;
  const frag = document.createDocumentFragment();
  for (const e of entries.slice(drawn.texts.length)) {
    frag.append(line(e, decorate));
    drawn.texts.push(e.text);
  }
  ol.append(frag);
  if (atEnd || !same) ol.scrollTop = ol.scrollHeight; // follow the game unless reading back
}

/** Forget what was drawn (the log was emptied elsewhere). */
export function resetLog() {
  drawn = { ol: null, decorate: null, texts: [], entries: [], first: 0 };
}
