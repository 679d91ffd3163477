// The lab in the browser: the page's start (the lab's WebAssembly loaded with a word on what
// and how much), its three panels (the plane, the Mark I, the demonstrations), the language,
// projector mode, and the link that holds the whole state, kept in the address as the student
// works (history.replaceState).
//
// Every number the page shows is computed by the lab's Go code compiled to WebAssembly
// (cmd/mark1-lab, the global mark1lab); the page draws. A page that sets globalThis.mark1lab
// before this module runs (a test's stand-in) is used as it is.

import * as i18n from "./i18n.js";
import * as q from "./query.js";
import { Playground } from "./playground.js";
import { Retina } from "./retina.js";
import { Demos, planeDemos } from "./demos.js";
import { setScale } from "./charts.js";
import { copy } from "./util.js";
import { wrapLab } from "./api.js";

const $ = (id) => document.getElementById(id);
const t = i18n.t;

// loadLab starts the lab's WebAssembly and resolves to the mark1lab object, saying on the
// loading screen what it loads and how much has come.
async function loadLab(say) {
  if (globalThis.mark1lab) return globalThis.mark1lab;
  const ready = new Promise((resolve) => { globalThis.mark1labResolve = resolve; });
  globalThis.mark1labReady = ready;
  await new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = "wasm_exec.js";
    s.onload = resolve;
    s.onerror = () => reject(new Error(t("loadNoScript")));
    document.head.append(s);
  });
  const resp = await fetch("mark1-lab.wasm");
  if (!resp.ok) throw new Error(`mark1-lab.wasm: ${resp.status} ${resp.statusText}`);
  // The size as it travels: Content-Length is what comes over the wire (compressed when the
  // server sends it so), the body is the program itself.
  const wire = Number(resp.headers.get("Content-Length")) || 0;
  const packed = !!resp.headers.get("Content-Encoding");
  const mb = (n) => (n / 1e6).toFixed(1);
  const chunks = [];
  let got = 0;
  const bar = $("loading-bar");
  if (wire && !packed) bar.max = wire;
  say(t(packed ? "loadingPacked" : wire ? "loadingSized" : "loadingUnsized", { got: mb(0), all: mb(wire) }));
  const reader = resp.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    got += value.length;
    if (wire && !packed) bar.value = got;
    say(t(packed ? "loadingPacked" : wire ? "loadingSized" : "loadingUnsized", { got: mb(got), all: mb(wire) }));
  }
  const bytes = new Uint8Array(got);
  let at = 0;
  for (const c of chunks) { bytes.set(c, at); at += c.length; }
  say(t("loadingStarting", { size: mb(got) }));
  // What came, for whoever measures the page: the bytes on the wire (when the server says)
  // and the program's own.
  document.body.dataset.wasm = JSON.stringify({ wire, packed, bytes: got });
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
  const ended = go.run(instance).then(() => { throw new Error(t("loadEnded")); });
  await Promise.race([ready, ended]);
  if (!globalThis.mark1labRaw) throw new Error(t("loadNoAPI"));
  globalThis.mark1lab = wrapLab(globalThis.mark1labRaw);
  return globalThis.mark1lab;
}

let panel = "plane";
let playground, retina, demos;

function showError(msg) {
  const e = $("error");
  e.textContent = msg.split("\n")[0];
  e.hidden = false;
}

function clearError() {
  $("error").hidden = true;
}

// current is the active panel's controller.
function current() {
  return panel === "retina" ? retina : panel === "demos" ? demos : playground;
}

// link is the page's whole state as a query: the active panel's, then the page's own.
function link() {
  const pairs = current().query();
  if (i18n.current() !== "en") pairs.push(["lang", i18n.current()]);
  if (document.body.classList.contains("projector")) pairs.push(["view", "projector"]);
  return q.format(pairs);
}

// changed writes the link into the address and the footer, and the command beside it.
function changed() {
  if (!playground || !retina || !demos) return;
  const s = link();
  if (s !== location.search) history.replaceState(null, "", location.pathname + s);
  $("link").textContent = location.href;
  $("command").textContent = current().command();
}

function showPanel(name) {
  panel = name;
  for (const b of document.querySelectorAll("[role=tab]")) {
    const on = b.dataset.tab === name;
    b.setAttribute("aria-selected", String(on));
    b.tabIndex = on ? 0 : -1;
    $("panel-" + b.dataset.tab).hidden = !on;
  }
  if (name === "demos" && !demos.current) demos.open("", []);
  if (name === "plane") playground.plane.resize();
  if (name === "retina") { retina.draw(); retina.drawAUnits(); }
  changed();
}

function setLanguage(l) {
  i18n.use(l);
  $("lang").value = i18n.current();
  i18n.apply(document);
  if (playground) {
    playground.fillPresets();
    playground.fillClasses();
    playground.stop();
    playground.render(null);
  }
  if (demos && demos.list.length) demos.fill();
  if (retina && retina.state) retina.render(retina.state);
  changed();
}

function setProjector(on) {
  document.body.classList.toggle("projector", on);
  $("projector").setAttribute("aria-pressed", String(on));
  const k = on ? 1.6 : 1;
  setScale(k);
  if (playground) { playground.plane.scale = k; playground.render(null); }
  if (demos && demos.result) demos.run();
  changed();
}

function wire() {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  for (const b of tabs) {
    b.addEventListener("click", () => showPanel(b.dataset.tab));
    b.addEventListener("keydown", (e) => {
      const i = tabs.indexOf(b), d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!d) return;
      const next = tabs[(i + d + tabs.length) % tabs.length];
      next.focus();
      showPanel(next.dataset.tab);
    });
  }
  $("lang").addEventListener("change", () => setLanguage($("lang").value));
  $("projector").addEventListener("click", () => setProjector(!document.body.classList.contains("projector")));
  $("copy-command").addEventListener("click", async () => flash($("copy-command"), await copy($("command").textContent, $("command"))));
  $("copy-link").addEventListener("click", async () => flash($("copy-link"), await copy(location.href, $("link"))));
}

function flash(button, ok) {
  button.textContent = t(ok ? "copied" : "selected");
  setTimeout(() => { button.textContent = t("copy"); }, 1500);
}

async function main() {
  const pairs = q.parse(location.search);
  const say = (s) => { $("loading-what").textContent = s; };
  try {
    await i18n.load();
  } catch (e) {
    fail(e);
    return;
  }
  setLanguage(q.get(pairs, "lang", (navigator.language || "en").slice(0, 2)));
  say(t("loadingStart"));
  let api;
  try {
    api = await loadLab(say);
  } catch (e) {
    fail(e);
    return;
  }
  $("loading").hidden = true;
  $("app").hidden = false;
  const hooks = { changed, error: showError, clearError };
  playground = new Playground(api, hooks);
  retina = new Retina(api, hooks);
  demos = new Demos(api, hooks);
  wire();
  playground.fillPresets();
  setProjector(q.get(pairs, "view") === "projector");
  const demo = q.get(pairs, "demo");
  if (demo === "retina") {
    showPanel("retina");
    retina.open(pairs);
    playground.open([]);
  } else if (demo && !planeDemos.includes(demo)) {
    demos.load();
    showPanel("demos");
    demos.open(demo, pairs);
    playground.open([]);
  } else {
    showPanel("plane");
    playground.open(pairs);
  }
  if (demo !== "retina") retina.open([]);
  changed();
  // For tests and for anyone curious at the console: the page's parts.
  globalThis.mark1labPage = { playground, retina, demos, showPanel, link };
}

// fail says in one line why the lab could not start.
function fail(e) {
  const msg = (e && e.message ? e.message : String(e)).split("\n")[0];
  $("loading-bar").hidden = true;
  const p = $("loading-error");
  p.textContent = t("loadFailed", { why: msg });
  p.hidden = false;
  document.body.dataset.failed = msg;
}

main();
