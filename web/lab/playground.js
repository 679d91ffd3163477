// The plane's panel: the student's points and a rule, run by the lab's Session (mark1lab.session
// and its calls), and everything it reports drawn beside the plane, in step: the boundary and
// w, the weights and criteria, the trace table growing with each step, the criteria per step
// and along a line through weight space, the weight space itself, Novikoff's bound.

import { t, number } from "./i18n.js";
import * as q from "./query.js";
import { Plane, clip, colors, classIndex } from "./plane.js";
import { stack, weightSpace } from "./charts.js";
import { presets } from "./presets.js";
import { table, csv, render as renderReport } from "./report.js";
import { download, throttle, drawn } from "./util.js";

// The settings of a session as the page keeps them (text, as a link writes them).
export const defaults = { classes: "2", method: "fixed", multiclass: "ovr", bias: "last", init: "", eta: "1",
  margin: "0", schedule: "1/k", lambda: "0", atZero: "wrong", epochs: "100" };

// Which settings each rule reads (the others are hidden).
const uses = {
  eta: ["fixed", "batch", "margin", "variable", "pocket", "pocket-ratchet"],
  schedule: ["variable"],
  margin: ["margin", "variable"],
  lambda: ["lsq"],
  init: ["fixed", "batch", "margin", "variable", "pocket", "pocket-ratchet"],
  atZero: ["fixed", "batch", "pocket", "pocket-ratchet"],
  epochs: ["fixed", "batch", "margin", "variable", "pocket", "pocket-ratchet"],
};
const statusKeys = { running: "statusRunning", converged: "statusConverged", cycled: "statusCycled", limit: "statusLimit",
  solved: "statusSolved" };
const traceLimit = 2000; // rows of the trace drawn at once (the CSV has them all)
const pointsShown = 100; // rows of the points' table (hovering, tapping or the cursor tells any point)

export class Playground {
  constructor(api, hooks) {
    this.api = api;
    this.hooks = hooks; // changed(): the link and command changed; error(msg), clearError()
    this.$ = (id) => document.getElementById(id);
    this.cfg = { ...defaults };
    this.points = [];
    this.label = 1;
    this.id = 0;
    this.state = null;
    this.auto = true;
    this.running = false;
    this.traceShown = { n: 0, first: "", last: "" };
    this.plane = new Plane(this.$("plane"), this.$("tooltip"), {
      add: (x1, x2) => this.edit(() => { this.points.push({ x: [x1, x2], label: this.label }); return this.api.add(this.id, x1, x2, this.label); }),
      move: (i, x1, x2, done) => this.moveTo(i, x1, x2, done),
      remove: (i) => this.edit(() => { this.points.splice(i, 1); return this.api.remove(this.id, i); }),
      info: (s) => { this.$("plane-info").textContent = s; },
      tool: () => document.querySelector("input[name=tool]:checked").value,
      snap: () => Number(this.$("snap").value),
      currentClass: () => this.label,
      setClass: (k) => this.setLabel(k),
      classes: () => Number(this.cfg.classes),
    });
    this.wire();
  }

  wire() {
    const $ = this.$;
    for (const k of Object.keys(defaults)) {
      const input = $(k);
      input.addEventListener("change", () => this.setting(k, input.value.trim()));
    }
    $("preset").addEventListener("change", () => { if ($("preset").value) this.usePreset($("preset").value); });
    $("fit").addEventListener("click", () => this.plane.fit());
    $("step").addEventListener("click", () => this.act((id) => this.api.step(id)));
    $("epoch").addEventListener("click", () => this.act((id) => this.api.epoch(id)));
    $("to-end").addEventListener("click", () => this.act((id) => this.api.runToEnd(id)));
    $("reset").addEventListener("click", () => { this.stop(); this.act((id) => this.api.reset(id)); });
    $("run").addEventListener("click", () => (this.running ? this.stop() : this.start()));
    $("speed").addEventListener("input", () => { $("speed-out").textContent = $("speed").value; this.hooks.changed(); });
    $("auto").addEventListener("change", () => { this.auto = $("auto").checked; if (this.auto) this.act((id) => this.api.runToEnd(id)); else this.hooks.changed(); });
    $("png").addEventListener("click", () => $("plane").toBlob((b) => download("lab-plane.png", b, "image/png")));
    $("data-csv").addEventListener("click", () => { const s = this.call(() => this.api.csv(this.id)); if (s !== null) download("points.csv", s, "text/csv"); });
    $("trace-csv").addEventListener("click", () => {
      const tr = this.state && this.state.trace;
      if (!tr) return;
      // Every row: the lab's own CSV when it offers one (the state holds the last rows only).
      const text = typeof this.api.traceCSV === "function" ? this.call(() => this.api.traceCSV(this.id)) : csv(tr.columns, tr.rows);
      if (text !== null) download("trace.csv", text, "text/csv");
    });
    $("csv-file").addEventListener("change", async () => { const f = $("csv-file").files[0]; if (f) this.loadCSV(await f.text()); $("csv-file").value = ""; });
    $("csv-box").addEventListener("toggle", () => { if ($("csv-box").open) $("csv-text").value = this.call(() => this.api.csv(this.id)) || ""; });
    $("csv-load").addEventListener("click", () => this.loadCSV($("csv-text").value));
    $("geometry-box").addEventListener("toggle", () => { this.renderGeometry(); this.hooks.changed(); });
  }

  // fillPresets writes the presets' names (again, in the language in use).
  fillPresets() {
    const sel = this.$("preset"), was = sel.value;
    sel.replaceChildren(new Option(t("presetChoose"), ""));
    for (const p of presets) sel.append(new Option(t(p.name), p.id));
    sel.value = was;
  }

  // fillClasses writes the class buttons: +1 and -1, or the K classes.
  fillClasses() {
    const box = this.$("class-choice"), K = Number(this.cfg.classes);
    box.querySelectorAll("label").forEach((l) => l.remove());
    const labels = K <= 2 ? [1, -1] : [...Array(K).keys()];
    if (!labels.includes(this.label)) this.label = labels[0];
    labels.forEach((y, i) => {
      const input = Object.assign(document.createElement("input"), { type: "radio", name: "cls", value: String(y), checked: y === this.label });
      input.addEventListener("change", () => this.setLabel(y));
      const span = document.createElement("span");
      span.textContent = q.labelText(y, K);
      span.style.color = colors[classIndex(y, K) % colors.length];
      const lab = document.createElement("label");
      lab.title = t("classKey", { key: K <= 2 ? (y > 0 ? "+ / 1" : "− / 2") : String(i + 1) });
      lab.append(input, span);
      box.append(lab);
    });
  }

  setLabel(y) {
    this.label = y;
    const input = this.$("class-choice").querySelector(`input[value="${y}"]`);
    if (input) input.checked = true;
    this.plane.draw();
  }

  // showSettings puts cfg into the inputs and hides those the rule does not read.
  showSettings() {
    for (const k of Object.keys(defaults)) this.$(k).value = this.cfg[k];
    for (const [k, methods] of Object.entries(uses)) {
      this.$(k).closest("label").hidden = !methods.includes(this.cfg.method);
    }
    this.$("multiclass").closest("label").hidden = this.cfg.classes === "2";
    this.$("auto").checked = this.auto;
  }

  // open starts from a link's parameters (pairs): its points and settings, or the notes'
  // three points when it gives none.
  open(pairs) {
    const cfg = { ...defaults };
    const set = (k, name) => { if (q.has(pairs, name)) cfg[k] = q.get(pairs, name).trim(); };
    // The trace's flags name the rule: --rule, and --schedule (the variable increment: the
    // margin rule with eta(k)) and --pocket (Gallant's, on the fixed rule).
    set("method", "rule");
    const sched = q.get(pairs, "schedule", "const").trim(), pocket = q.get(pairs, "pocket", "none").trim();
    if (sched !== "const" && cfg.method === "margin") cfg.method = "variable";
    if (pocket === "run" || pocket === "ratchet") cfg.method = pocket === "run" ? "pocket" : "pocket-ratchet";
    set("method", "method");
    set("classes", "classes");
    set("multiclass", "multiclass");
    set("bias", "bias");
    set("init", "init");
    set("eta", "eta");
    set("margin", "margin");
    set("schedule", "schedule");
    set("lambda", "lambda");
    set("atZero", "at-zero");
    set("epochs", "epochs");
    this.auto = q.get(pairs, "auto", "1") !== "0";
    const speed = Number(q.get(pairs, "speed", "4"));
    if (speed >= 1 && speed <= 60) { this.$("speed").value = String(speed); this.$("speed-out").textContent = String(speed); }
    let steps = Number(q.get(pairs, "steps", "0")) || 0;
    this.$("geometry-box").open = q.get(pairs, "demo") === "geometry";
    if (q.get(pairs, "demo") === "geometry" && q.has(pairs, "w")) {
      // geometry --w W draws those weights: start from them and take no step.
      cfg.init = q.get(pairs, "w");
      this.auto = false;
      steps = 0;
    }
    const K = Number(cfg.classes) || 2;
    const points = [], bad = [];
    for (const s of q.all(pairs, "point")) {
      try { points.push(q.point(s, K)); } catch (e) { bad.push(e.message); }
    }
    if (!q.has(pairs, "point") && !q.has(pairs, "demo")) {
      this.usePreset("three");
      return;
    }
    this.cfg = cfg;
    this.points = points;
    this.restart(steps);
    if (bad.length) this.hooks.error(bad[0]);
  }

  usePreset(id) {
    const p = presets.find((x) => x.id === id);
    if (!p) return;
    const keep = p.settings && p.settings.method ? {} : { method: this.cfg.method };
    if (!p.settings || !p.settings.method) {
      if (["lsq", "fisher", "pocket"].includes(keep.method)) keep.method = "fixed";
    }
    this.cfg = { ...defaults, ...keep, ...(p.settings || {}) };
    const K = Number(this.cfg.classes);
    this.points = p.points.map((s) => q.point(s, K));
    this.stop();
    this.restart(0);
    this.$("preset").value = id;
    this.plane.fit();
  }

  // config is the session's config as the contract reads it.
  config() {
    const c = this.cfg;
    const reads = (k) => uses[k].includes(c.method);
    return { points: this.points.map((p) => [p.x[0], p.x[1], p.label]), classes: Number(c.classes) || 2, method: c.method,
      multiclass: c.multiclass, bias: c.bias, init: reads("init") ? c.init : "", eta: reads("eta") ? c.eta : "1",
      margin: reads("margin") ? c.margin : "0", schedule: reads("schedule") ? c.schedule : "",
      lambda: reads("lambda") ? c.lambda : "0", atZero: reads("atZero") ? c.atZero : "wrong", epochs: Number(c.epochs) || 100 };
  }

  // restart makes a new session of the points and settings, and runs it to the end (auto) or
  // steps steps.
  restart(steps) {
    this.fillClasses();
    this.showSettings();
    if (this.id) this.call(() => this.api.close(this.id));
    this.id = 0;
    this.state = null;
    const id = this.call(() => this.api.session(this.config()));
    if (id === null) { this.render(null); return; }
    this.id = id;
    let st = this.call(() => this.api.state(id));
    if (st && this.auto && this.points.length) st = this.call(() => this.api.runToEnd(id)) || st;
    else for (let i = 0; st && i < steps && st.status === "running"; i++) st = this.call(() => this.api.step(id)) || st;
    this.render(st);
    if (!this.plane.inView()) this.plane.fit();
  }

  setting(k, v) {
    const was = this.cfg[k];
    this.cfg[k] = v;
    if (k === "classes" && v !== was) {
      // Labels change meaning: +1 is the first class, -1 the second; back to two classes, the
      // first class is +1 and every other -1.
      const K = Number(v);
      this.points = this.points.map((p) => ({ x: p.x, label: Number(was) <= 2 ? (p.label > 0 ? 0 : 1) % K : K <= 2 ? (p.label === 0 ? 1 : -1) : Math.min(p.label, K - 1) }));
      this.stop();
      this.restart(0);
      return;
    }
    this.showSettings();
    this.stop();
    this.edit(() => this.api.set(this.id, this.config()));
  }

  // edit makes a change (f changes this.points and returns the lab's new state) and, with
  // auto, runs the session to its end. A change the lab refuses is undone.
  edit(f) {
    const before = this.points.map((p) => ({ x: p.x.slice(), label: p.label }));
    const started = performance.now();
    let st = this.call(f);
    if (st === null) { this.points = before; this.plane.update(this.points, this.state, Number(this.cfg.classes)); return; }
    if (this.auto && this.points.length) st = this.call(() => this.api.runToEnd(this.id)) || st;
    this.editTook = performance.now() - started;
    this.render(st);
  }

  moveTo(i, x1, x2, done) {
    this.points[i] = { x: [x1, x2], label: this.points[i].label };
    this.pendingMove = { i, x1, x2 };
    if (done) { this.flushMove(); return; }
    this.plane.update(this.points, this.state, Number(this.cfg.classes));
    // The lab runs again with each place the point passes through, unless that takes longer
    // than a frame or two (many points, a long run): then only where it is put down.
    if (this.editTook > 40) return;
    if (!this.moveFrame) this.moveFrame = requestAnimationFrame(() => this.flushMove());
  }

  flushMove() {
    cancelAnimationFrame(this.moveFrame);
    this.moveFrame = 0;
    const m = this.pendingMove;
    this.pendingMove = null;
    if (m) this.edit(() => this.api.move(this.id, m.i, m.x1, m.x2));
  }

  loadCSV(text) {
    const st = this.call(() => this.api.loadCSV(this.id, text));
    if (st === null) return;
    this.points = (st.points || []).map((p) => ({ x: p.exact ? p.exact.slice() : p.x.map((v) => String(v)), label: p.label }));
    let s = st;
    if (this.auto && this.points.length) s = this.call(() => this.api.runToEnd(this.id)) || st;
    this.fillClasses();
    this.render(s);
    this.plane.fit();
  }

  act(f) {
    if (!this.id) return;
    const st = this.call(() => f(this.id));
    if (st) this.render(st);
  }

  start() {
    if (!this.id || (this.state && this.state.status !== "running")) return;
    this.running = true;
    this.$("run").setAttribute("aria-pressed", "true");
    this.$("run").textContent = t("pause");
    let last = performance.now(), owed = 1; // the first step at once
    const tick = (now) => {
      if (!this.running) return;
      // (A frame's time may come before the moment Run was pressed: no negative time.)
      owed += (Math.max(0, now - last) / 1000) * Number(this.$("speed").value);
      last = Math.max(last, now);
      let st = null;
      const until = performance.now() + 12;
      while (owed >= 1 && performance.now() < until) {
        owed -= 1;
        st = this.call(() => this.api.step(this.id));
        if (!st || st.status !== "running") break;
      }
      owed = Math.min(owed, 2);
      if (st) this.render(st);
      // A frame may owe no step yet (a slow speed): the run goes on until the lab says it ended.
      if (st === null && this.state && this.state.status === "running" && this.running) { requestAnimationFrame(tick); return; }
      if (!st || st.status !== "running") { this.stop(); return; }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  stop() {
    this.running = false;
    this.$("run").setAttribute("aria-pressed", "false");
    this.$("run").textContent = t("run");
  }

  call(f) {
    try {
      const v = f();
      this.hooks.clearError();
      return v === undefined ? null : v;
    } catch (e) {
      this.stop();
      this.hooks.error(e && e.message ? e.message : String(e));
      return null;
    }
  }

  // render shows a state of the lab's session everywhere on the panel.
  render(st) {
    if (st) this.state = st;
    st = this.state;
    const K = Number(this.cfg.classes);
    this.plane.update(this.points, st, K);
    this.renderWeights(st);
    this.renderTrace(st && st.trace);
    this.renderCharts(st);
    this.renderNovikoff(st && st.novikoff);
    this.throttledGeometry();
    const running = st && st.status === "running";
    for (const b of ["step", "epoch", "to-end", "run"]) this.$(b).disabled = !running && !(b === "run" && this.running);
    this.throttledChanged();
    drawn();
  }

  throttledChanged = throttle(() => this.hooks.changed(), 400);
  throttledGeometry = throttle(() => this.renderGeometry(), 300);

  // traceable says whether mark1 lab trace (and geometry) run these settings: two classes,
  // one of the trace's rules.
  traceable() {
    return this.cfg.classes === "2" && !["lsq", "fisher"].includes(this.cfg.method);
  }

  // renderGeometry shows, when its box is open, mark1 lab geometry's report of the points and
  // the current w: each sample's projection onto w and its distance from the boundary,
  // exactly, run by the lab's code.
  renderGeometry() {
    const box = this.$("geometry-report");
    if (!this.$("geometry-box").open) return;
    const st = this.state;
    if (this.cfg.classes !== "2" || !st || !st.w || !st.w.exact || Array.isArray(st.w.exact[0])) {
      box.textContent = t("geometryTwo");
      return;
    }
    const pairs = this.points.map((p) => ["point", q.pointText(p, 2)]);
    if (this.cfg.bias !== defaults.bias) pairs.push(["bias", this.cfg.bias]);
    pairs.push(["w", st.w.exact.join(",")]);
    try {
      const r = this.api.run("geometry", q.format(pairs).slice(1));
      renderReport(box, Object.assign({}, r.report, { figures: [] }));
    } catch (e) {
      box.textContent = e && e.message ? e.message : String(e);
    }
  }

  renderWeights(st) {
    const box = this.$("weights"), K = Number(this.cfg.classes);
    box.replaceChildren();
    if (!st) return;
    const dl = document.createElement("dl");
    const add = (k, v, cls) => {
      const dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = k;
      dd.textContent = v;
      if (cls) dd.className = cls;
      dl.append(dt, dd);
    };
    const closed = this.cfg.method === "lsq" || this.cfg.method === "fisher";
    const steps = st.step === undefined ? "" : " · " + (closed || K > 2 ? t("stepsOnly", { step: st.step }) : t("stepsUpdates", { step: st.step, updates: st.updates }));
    add(t("status"), (statusKeys[st.status] ? t(statusKeys[st.status]) : st.status) + steps, "status-" + st.status);
    if (st.w && st.w.exact) add("w", Array.isArray(st.w.exact[0]) ? st.w.exact.map((v) => `(${v.join(", ")})`).join(" ") : `(${st.w.exact.join(", ")})`, "mono");
    const b = st.boundary;
    if (b && b.ok) {
      add("|w|", number(b.norm !== undefined ? b.norm : Math.hypot(b.a, b.b)));
      add("−w0/|w|", number(b.offset));
      add(t("boundary"), `${number(b.a)} x1 ${b.b < 0 ? "−" : "+"} ${number(Math.abs(b.b))} x2 ${b.c < 0 ? "−" : "+"} ${number(Math.abs(b.c))} = 0`, "mono");
    } else if (b) add(t("boundary"), t("noBoundary"));
    if (st.pocket && st.pocket.w) add(t("pocket"), `(${st.pocket.w.exact.join(", ")}), ${t("pocketMisses", { n: st.pocket.misses })}`, "mono");
    for (const u of st.units || []) add(u.name, `(${u.w.map((v) => number(v)).join(", ")})`, "mono");
    const c = st.criteria;
    if (c) {
      add(t("zeroOne"), String(c.zeroOne));
      add("E_P", val(c.EP));
      add("E_Q", val(c.EQ));
      add(`E_R (b = ${c.b !== undefined ? val(c.b) : this.cfg.margin})`, val(c.ER));
    }
    box.append(dl);
    // Every point's score and signed distance, as text: a tablet has no hover, a screen reader
    // no picture.
    const pts = (st.points || []).slice(0, pointsShown);
    if (pts.length) {
      const rows = pts.map((p, i) => [String(i + 1), `(${this.points[i] ? this.points[i].x.join(", ") : p.x.join(", ")})`,
        q.labelText(p.label, K), number(p.g), p.dist === null || p.dist === undefined ? "–" : number(p.dist), p.met ? t("yes") : t("no")]);
      const wrap = document.createElement("div");
      wrap.className = "table-scroll points";
      wrap.append(table(["#", "x", "y", "g(x)", "g(x)/|w|", t("met")], rows, t("pointsCaption")));
      box.append(wrap);
      if (st.points.length > pointsShown) {
        const more = document.createElement("p");
        more.className = "help";
        more.textContent = t("pointsMore", { shown: pointsShown, all: st.points.length });
        box.append(more);
      }
    }
  }

  // renderTrace shows the trace as mark1 lab trace prints it, growing: the state holds its
  // last rows (first: the place of the first of them, total: how many there are), and only the
  // rows not yet shown are added. The table keeps at most traceLimit rows; the CSV has all.
  renderTrace(tr) {
    const tab = this.$("trace"), note = this.$("trace-note"), sh = this.traceShown;
    const epochs = this.$("trace-epochs");
    if (!tr || !tr.columns) {
      tab.replaceChildren();
      epochs.replaceChildren();
      note.textContent = "";
      this.traceShown = { n: 0, last: "", cols: "" };
      return;
    }
    const rows = tr.rows || [], first = tr.first || 0, total = tr.total !== undefined ? tr.total : first + rows.length;
    const cols = tr.columns.join("\u0000");
    // What is shown still stands when the columns are the same and the last row shown is the
    // same row of this state (or the new rows start right after it).
    const at = sh.n - 1 - first;
    const same = sh.cols === cols && sh.n > 0 && total >= sh.n && sh.n >= first &&
      (at < 0 ? sh.n === first : JSON.stringify(rows[at]) === sh.last);
    let body = tab.tBodies[0];
    let from = Math.max(sh.n, first);
    if (!same || !body) {
      tab.replaceChildren(table(tr.columns, []).tHead);
      body = tab.createTBody();
      from = first;
      sh.cols = cols;
    }
    const prev = body.querySelector("tr.current");
    if (prev) prev.classList.remove("current");
    const met = tr.columns.indexOf("met");
    const frag = document.createDocumentFragment();
    for (let i = from; i < total; i++) {
      const row = rows[i - first];
      const r = document.createElement("tr");
      for (const c of row) { const td = document.createElement("td"); td.textContent = c; r.append(td); }
      if (met >= 0 && row[met] === "no") r.classList.add("unmet");
      frag.append(r);
    }
    body.append(frag);
    while (body.rows.length > traceLimit) body.deleteRow(0);
    if (body.lastElementChild) body.lastElementChild.classList.add("current");
    sh.n = total;
    sh.last = JSON.stringify(rows[rows.length - 1]);
    const shown = body.rows.length;
    note.textContent = total > shown ? t("traceLimit", { shown, all: total }) : total ? "" : t("traceEmpty");
    // The newest row in view, after the frame's layout (not forced now).
    const sc = this.$("trace-scroll");
    requestAnimationFrame(() => { sc.scrollTop = sc.scrollHeight; });
    epochs.replaceChildren();
    if (tr.epochRows && tr.epochRows.length) {
      const wrap = document.createElement("div");
      wrap.className = "table-scroll epochs";
      wrap.tabIndex = 0;
      wrap.append(table(tr.epochColumns || [], tr.epochRows, t("traceEpochs")));
      epochs.append(wrap);
      requestAnimationFrame(() => { wrap.scrollTop = wrap.scrollHeight; });
    }
  }

  renderCharts(st) {
    // K classes and the closed forms have no run to chart: the criteria are two classes'.
    const charted = !!(st && st.criteria);
    for (const id of ["chart-history", "chart-line"]) this.$(id).closest("figure").hidden = !charted;
    if (!charted) { this.$("chart-weights").closest("figure").hidden = !(st && st.weightSpace); }
    if (!charted) return;
    const hist = (st && st.history) || [];
    const crit = (st && st.criteria) || {};
    const names = [["zeroOne", t("zeroOne")], ["EP", "E_P"], ["EQ", "E_Q"], ["ER", "E_R"]];
    stack(this.$("chart-history"), hist.map((h) => h.step), names.map(([k, n]) => ({ name: n, y: hist.map((h) => num(h[k])), value: crit[k] === undefined ? undefined : val(crit[k]) })),
      { xlabel: t("steps"), dots: true });
    const line = (st && st.line) || { ts: [] };
    stack(this.$("chart-line"), line.ts || [], names.map(([k, n]) => ({ name: n, y: (line[k] || []).map(num) })), { xlabel: "t", mark: 1 });
    const ws = st && st.weightSpace;
    const fig = this.$("chart-weights").closest("figure");
    fig.hidden = !ws;
    if (ws) {
      weightSpace(this.$("chart-weights"), ws, clip, { x: "w1", y: "w2" });
      this.$("ws-caption").textContent = t("chartWeights", { w0: number(num(ws.w0)) });
    }
  }

  renderNovikoff(nv) {
    const box = this.$("novikoff");
    box.replaceChildren();
    box.hidden = !nv;
    if (!nv) return;
    const h = document.createElement("h3");
    h.textContent = t("novikoffTitle");
    const p = document.createElement("p");
    box.append(h, p);
    if (!nv.separable) { p.textContent = t("novikoffNo"); return; }
    if (nv.bound === null || nv.bound === undefined) { p.textContent = t("novikoffNoMargin", { updates: nv.updates }); return; }
    const bound = num(nv.bound);
    p.textContent = t("novikoffYes", { updates: nv.updates, bound: number(bound), R2: number(num(nv.R2)), gamma2: number(num(nv.gamma2)) });
    const bar = document.createElement("meter");
    bar.min = 0;
    bar.max = Math.max(bound, nv.updates, 1);
    bar.value = nv.updates;
    bar.setAttribute("aria-label", t("novikoffTitle"));
    box.append(bar);
  }

  // query is the panel's link: the command's flags (the trace's when the rule is one of the
  // trace's), the points, and the page's own (auto=0&steps=N when not run to the end).
  query() {
    const c = this.cfg, out = [];
    const traceable = this.traceable();
    const geometry = traceable && this.auto && this.$("geometry-box").open;
    out.push(["demo", geometry ? "geometry" : traceable ? "trace" : "playground"]);
    // As mark1 lab trace's flags: the variable increment is the margin rule with a schedule,
    // the pockets are --pocket on the fixed rule.
    const rule = { batch: "batch", margin: "margin", variable: "margin" }[c.method];
    if (!traceable) out.push(["method", c.method]);
    else if (rule) out.push(["rule", rule]);
    if (c.classes !== "2") out.push(["classes", c.classes], ["multiclass", c.multiclass]);
    if (c.bias !== defaults.bias) out.push(["bias", c.bias]);
    const reads = (k) => uses[k].includes(c.method);
    if (c.init && reads("init")) out.push(["init", c.init]);
    if (c.eta !== defaults.eta && reads("eta")) out.push(["eta", c.eta]);
    if (c.margin !== defaults.margin && reads("margin")) out.push(["margin", c.margin]);
    if (reads("schedule")) out.push(["schedule", c.schedule]);
    if (c.method === "pocket" || c.method === "pocket-ratchet") out.push(["pocket", c.method === "pocket" ? "run" : "ratchet"]);
    if (c.lambda !== defaults.lambda && reads("lambda")) out.push(["lambda", c.lambda]);
    if (c.atZero !== defaults.atZero && reads("atZero")) out.push(["at-zero", c.atZero]);
    if (c.epochs !== defaults.epochs && reads("epochs")) out.push(["epochs", c.epochs]);
    const K = Number(c.classes);
    for (const p of this.points) out.push(["point", q.pointText(p, K)]);
    if (!this.auto) out.push(["auto", "0"], ["steps", String((this.state && this.state.step) || 0)]);
    if (this.$("speed").value !== "4") out.push(["speed", this.$("speed").value]);
    return out;
  }

  // command is the equivalent mark1 command, or (when there is none: K classes, a ridge) the
  // lab's word on why, as a shell comment.
  command() {
    const st = this.state;
    if (!st) return "";
    return st.command || (st.commandNote ? "# " + st.commandNote : "");
  }
}

// val is a value the lab gives exactly ({exact, float}) as its exact text.
function val(v) {
  if (v === null || v === undefined) return "–";
  return typeof v === "object" ? (v.exact !== undefined && v.exact !== "" ? v.exact : number(v.float)) : String(v);
}

function num(v) {
  if (v !== null && typeof v === "object") return v.float;
  return v === null || v === undefined ? NaN : q.toNumber(v);
}
