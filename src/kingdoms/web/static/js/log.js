// The game's log: every line of the whole game, new lines appended without drawing
// the rest again, and the names a board recognises (Dominion's cards) shown on hover,
// focus or tap.
import { clear, h } from "./dom.js";

let drawn = { ol: null, decorate: null, texts: [] };

/** Draw `entries` ([{type, text}]) into `ol`; `decorate(text)` may return nodes. */
export function renderLog(ol, entries, decorate) {
  const same = drawn.ol === ol && drawn.decorate === decorate && drawn.texts.length <= entries.length
    && drawn.texts.every((text, i) => entries[i].text === text);
  const atEnd = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40;
  if (!same) {
    clear(ol);
    drawn = { ol, decorate, texts: [] };
  }
  const frag = document.createDocumentFragment();
  for (const e of entries.slice(drawn.texts.length)) {
    frag.append(h("li", { class: `ev-${e.type}` }, decorate ? decorate(e.text) : e.text));
    drawn.texts.push(e.text);
  }
  ol.append(frag);
  if (atEnd || !same) ol.scrollTop = ol.scrollHeight; // follow the game unless reading back
}

/** Forget what was drawn (the log was emptied elsewhere). */
export function resetLog() {
  drawn = { ol: null, decorate: null, texts: [] };
}
