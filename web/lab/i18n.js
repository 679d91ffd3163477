// The page's words in the museum's four languages (English, German, French, Spanish). The
// table is i18n.json: each key with its text in every language (a test holds every key to all
// four, with the same {placeholders}). Where the museum (view/i18n) already names a thing, the
// table uses its words: the retina, the A-units and R-units, TRAIN, CLEAR, RIGHT and WRONG.
// What the lab computes (the trace's columns, the reports of the demonstrations) comes from the
// lab's code in English, as mark1 prints it.

export const languages = ["en", "de", "fr", "es"];

let table = {};
let lang = "en";

// load fetches the table once.
export async function load() {
  const r = await fetch("i18n.json");
  if (!r.ok) throw new Error(`i18n.json: ${r.status} ${r.statusText}`);
  table = await r.json();
}

// use sets the language (one of languages; anything else is English) and returns it.
export function use(l) {
  lang = languages.includes(l) ? l : "en";
  document.documentElement.lang = lang;
  return lang;
}

// current is the language in use.
export function current() {
  return lang;
}

// t is the text of key in the language in use, its {name}s filled from vars. A key missing
// from the table shows as itself (a test keeps that from happening).
export function t(key, vars) {
  const m = table[key];
  let s = m ? m[lang] || m.en : key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (all, k) => (k in vars ? String(vars[k]) : all));
  return s;
}

// apply writes the texts into root: an element's text (data-i18n), its aria-label
// (data-i18n-label) and its title (data-i18n-title).
export function apply(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}

// number writes a float for people: at most digits significant figures, with a decimal point
// in every language, as the lab's tables and commands write numbers (a student copies them).
export function number(v, digits = 4) {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : "−∞";
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e9 || a < 1e-4) return v.toExponential(digits - 1).replace(/\.?0+e/, "e");
  if (a >= Math.pow(10, digits)) return String(Math.round(v));
  const s = v.toPrecision(digits);
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
}
