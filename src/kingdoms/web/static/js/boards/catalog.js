// What the boards share: their game's static data and texts (/api/catalog/<game>/<lang>,
// the game's client_data), fetched once per language.
import { h } from "../dom.js";

/** The catalog of `game`: `get(lang)` once loaded (else undefined), and
 * `whenLoaded(el, lang, redraw)`, which shows a placeholder in `el` until the data
 * arrive and then calls `redraw()` if the placeholder is still on screen. */
export function gameCatalog(game) {
  const data = {};
  const loading = {};
  const load = (lang) => {
    if (!loading[lang]) {
      loading[lang] = fetch(`/api/catalog/${game}/${lang}`).then((r) => r.json()).then((d) => { data[lang] = d; });
    }
    return loading[lang];
  };
  return {
    get: (lang) => data[lang],
    /** A promise of the language's data. */
    loaded: (lang) => load(lang),
    whenLoaded(el, lang, redraw) {
      const placeholder = h("p", { class: "muted" }, "…");
      el.append(placeholder);
      load(lang).then(() => { if (placeholder.isConnected) redraw(); });
    },
  };
}
