// Interface messages: English msgids, translations from the server's catalogs.
const KEY = "kingdoms:lang";
const SUPPORTED = ["en", "pl", "cs"];
let table = {};
let pluralTable = {};
let current = "en";

export function pickLanguage() {
  const saved = localStorage.getItem(KEY);
  if (SUPPORTED.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (SUPPORTED.includes(base)) return base;
  }
  return "en";
}

export async function loadLanguage(lang) {
  if (!SUPPORTED.includes(lang)) lang = "en";
  const res = await fetch(`/api/i18n/${lang}`);
  const data = res.ok ? await res.json() : {};
  table = data.messages || {};
  pluralTable = data.plurals || {};
  current = lang;
  localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
  return lang;
}

export const lang = () => current;

/** Translate a msgid; `{name}` placeholders are filled from `args`. */
export function t(msgid, args = {}) {
  const text = table[msgid] || msgid;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
}

// CLDR plural categories → the index of the catalog's form (1 / 2–4 / 5+ in pl and cs)
const FORM = { one: 0, few: 1, many: 2 };

/** A message with a number: `tn("{n} card", "{n} cards", n)` picks the language's form. */
export function tn(singular, plural, n, args = {}) {
  const forms = pluralTable[singular] || [singular, plural];
  const cat = new Intl.PluralRules(current).select(n);
  const text = forms[cat in FORM ? Math.min(FORM[cat], forms.length - 1) : forms.length - 1];
  return text.replace(/\{(\w+)\}/g, (m, k) => (k === "n" ? String(n) : k in args ? String(args[k]) : m));
}

/** Translate every element carrying data-i18n (text) in `root`. */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}

/** A <select> that switches the language; `onChange(lang)` re-renders. */
export function languageSelect(onChange) {
  const sel = document.createElement("select");
  sel.id = "lang";
  sel.setAttribute("aria-label", "Language");
  for (const [code, name] of [["en", "English"], ["pl", "Polski"], ["cs", "Čeština"]]) {
    const o = new Option(name, code, false, code === current);
    o.lang = code; // each language's name is in that language
    sel.add(o);
  }
  sel.addEventListener("change", async () => onChange(await loadLanguage(sel.value)));
  return sel;
}
