// Runs the lab's wasm (argv[2]) in node as the page does and prints, one JSON line per check,
// what each call returned or threw. Used by TestWasmCalls.
require(process.env.WASM_EXEC);
const fs = require("fs");
globalThis.mark1labReady = new Promise(r => { globalThis.mark1labResolve = r; });
const go = new Go();
const out = (what, v) => console.log(JSON.stringify({ what, v }));
const attempt = (what, f) => {
  try { out(what, { ok: f() }); } catch (e) { out(what, { threw: String(e && e.message), isError: e instanceof Error }); }
};
let wrapLab;
import(require("url").pathToFileURL(process.env.LAB_API).href).then(m => {
  wrapLab = m.wrapLab; // the page's own web/lab/api.js
  return WebAssembly.instantiate(fs.readFileSync(process.argv[2]), go.importObject);
}).then(r => {
  go.run(r.instance);
  return globalThis.mark1labReady;
}).then(() => {
  const L = wrapLab(globalThis.mark1labRaw);
  attempt("demos", () => L.demos().map(d => d.name));
  attempt("run", () => L.run("trace", "bias=first&init=-5,0,1&point=5,7,+1&point=2,6,-1"));
  attempt("refused", () => L.run("trace", "colour=red"));
  attempt("missing", () => L.run());
  attempt("panic", () => L.panicForTest());
  attempt("after", () => L.demos().length);
  let id = 0;
  attempt("session", () => (id = L.session({ points: [[5, 7, "+1"], [2, 6, -1]], bias: "first", init: "-5,0,1" })));
  attempt("runToEnd", () => { const s = L.runToEnd(id); return { rows: s.trace.rows, command: s.command, status: s.status, w: s.w.exact }; });
  attempt("add", () => L.add(id, "1/2", 3, "-1").points.length);
  attempt("badAdd", () => L.add(id, "x", 3, "-1"));
  attempt("csv", () => L.csv(id));
  attempt("set", () => L.set(id, { method: "lsq" }).status);
  attempt("solve", () => L.step(id).status);
  attempt("close", () => { L.close(id); return L.state(id); });
  let rid = 0;
  attempt("retina", () => (rid = L.retina({ card: "builtin:ef/0", seed: 2 })));
  attempt("retinaState", () => { const s = L.retinaState(rid); return [s.shown, s.classes, s.cells.length, s.aunits.length, s.answer >= 0]; });
  attempt("retinaTrain", () => { const s = L.train(rid, "ef", 3); return [s.epochs.length > 0, s.command]; });
  attempt("retinaDraw", () => L.draw(rid, new Array(400).fill(0).map((_, i) => (i % 20 === 5 ? 1 : 0))).cells.filter(c => c).length);
  attempt("retinaTeach", () => L.teach(rid, 7));
  process.exit(0);
}).catch(e => { console.error(e); process.exit(1); });
