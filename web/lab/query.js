// The page's address: what a link holds, read and written. A link's parameters are the
// command's flags (point, bias, init, rule, eta, margin, at-zero, epochs, and each demo's own),
// plus the page's own (demo, lang, view, and the playground's method, classes, ...).
//
// A "+" in a query is a space to URLSearchParams, but `point=5,7,+1` means the label +1: this
// file reads a "+" as itself, so that `+1`, `%2B1` and `1` come out alike (and a space, from a
// link some other program decoded, is trimmed away).

// parse reads a query string ("?a=1&b=2", with or without the "?") into a list of [name,
// value] pairs, in order (a name may repeat: point).
export function parse(search) {
  const out = [];
  for (const part of search.replace(/^\?/, "").split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? "" : part.slice(eq + 1);
    out.push([decode(name), decode(value)]);
  }
  return out;
}

// decode undoes percent-encoding, keeping "+" as "+"; a broken escape is kept as written.
function decode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// encode percent-encodes a value but keeps what reads well and means the same in a link:
// , / + : ( ) and letters, digits.
export function encode(s) {
  return encodeURIComponent(String(s)).replace(/%2C/g, ",").replace(/%2F/g, "/").replace(/%2B/g, "+")
    .replace(/%3A/g, ":").replace(/%28/g, "(").replace(/%29/g, ")");
}

// format writes pairs as a query string, "?"-prefixed ("" when empty).
export function format(pairs) {
  const s = pairs.map(([k, v]) => encode(k) + "=" + encode(v)).join("&");
  return s ? "?" + s : "";
}

// get returns the last value of name, or def.
export function get(pairs, name, def = "") {
  let v = def;
  for (const [k, x] of pairs) if (k === name) v = x;
  return v;
}

// all returns every value of name, in order.
export function all(pairs, name) {
  return pairs.filter(([k]) => k === name).map(([, v]) => v);
}

// without returns the pairs whose names are not in names.
export function without(pairs, names) {
  return pairs.filter(([k]) => !names.includes(k));
}

// has says whether name is given.
export function has(pairs, name) {
  return pairs.some(([k]) => k === name);
}

// The page's own parameters: never sent to a demo.
export const pageParams = ["demo", "lang", "view", "auto", "steps", "snap", "speed", "tab"];

// label reads a point's label: "+1", " 1" (a "+" a program decoded as a space) and "1" are +1
// for two classes; "-1" is -1; for K classes a class number 0..K-1. It returns NaN when the
// text is not a label.
export function label(text, classes) {
  const t = text.trim();
  if (!/^[+-]?\d+$/.test(t)) return NaN;
  const n = Number(t);
  if (classes <= 2) return n === 1 || n === -1 ? n : NaN;
  return t.startsWith("+") || t.startsWith("-") || n >= classes ? NaN : n;
}

// point reads "X1,X2,LABEL" into {x: [x1, x2] (strings, exact as written), label}, or throws
// an Error in mark1's words.
export function point(text, classes) {
  const parts = text.split(",").map((s) => s.trim());
  const want = classes <= 2 ? "X1,X2,LABEL (label +1 or -1)" : `X1,X2,CLASS (class 0 to ${classes - 1})`;
  if (parts.length !== 3) throw new Error(`--point ${text.trim()}: want ${want}`);
  for (const x of parts.slice(0, 2)) {
    if (!isNumber(x)) throw new Error(`--point ${text.trim()}: ${JSON.stringify(x)} is not a number`);
  }
  const y = label(parts[2], classes);
  if (Number.isNaN(y)) throw new Error(`--point ${text.trim()}: want ${want}`);
  return { x: [parts[0], parts[1]], label: y };
}

// isNumber says whether s is a number as the lab reads them: an integer, a decimal or a
// fraction such as 1/3 (a sign allowed).
export function isNumber(s) {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)(\/\d+)?$/.test(s.trim()) && !/\/0+$/.test(s.trim());
}

// labelText writes a label for a link and the table: +1 and -1 with their signs.
export function labelText(y, classes) {
  if (classes <= 2) return y > 0 ? "+1" : "-1";
  return String(y);
}

// pointText writes a point for a link: "X1,X2,LABEL".
export function pointText(p, classes) {
  return `${p.x[0]},${p.x[1]},${labelText(p.label, classes)}`;
}

// numberText writes a coordinate snapped to step: an integer, or a decimal with as many
// places as the step has, trailing zeros dropped ("2.5", "-1", "0.3").
export function numberText(v, step) {
  const places = step > 0 ? Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)) : 4;
  let s = (step > 0 ? Math.round(v / step) * step : v).toFixed(places);
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s === "-0" ? "0" : s;
}

// toNumber reads a number as the lab writes them ("1/3", "2.5", "-4") into a float.
export function toNumber(s) {
  if (typeof s === "number") return s;
  const t = String(s).trim();
  const slash = t.indexOf("/");
  if (slash >= 0) return Number(t.slice(0, slash)) / Number(t.slice(slash + 1));
  return Number(t);
}
