// wrapLab makes the lab's API, the object mark1lab the page calls, from the functions the
// lab's WebAssembly sets (globalThis.mark1labRaw: each returns [an error's text or null, the
// JSON of its result or undefined]): object arguments go to Go as JSON text, an error is
// thrown as an Error, the JSON is parsed. It is written here, not made by the WebAssembly,
// because making a function from text (Function, eval) is what a Content-Security-Policy
// without 'unsafe-eval' forbids, as mark1 web's does.
export function wrapLab(raw) {
  const lab = {};
  for (const [name, f] of Object.entries(raw)) {
    lab[name] = (...args) => {
      const r = f(...args.map((a) => (a !== null && typeof a === "object") ? JSON.stringify(a) : a));
      if (r[0] !== null) throw new Error(r[0]);
      return r[1] === undefined ? undefined : JSON.parse(r[1]);
    };
  }
  return lab;
}
