// A stand-in for the lab's WebAssembly (cmd/mark1-lab): the contract's globalThis.mark1lab
// computed roughly in JavaScript, in floats, so that the page can be worked on and its tests
// run before the real one is built. Not shipped; its numbers are NOT the lab's. A test loads it
// before the page's own scripts (the page then leaves the wasm alone).
"use strict";
(() => {
  const fmt = (v) => {
    if (Number.isInteger(v)) return String(v);
    return String(Math.round(v * 10000) / 10000);
  };
  const vec = (w) => "(" + w.map(fmt).join(", ") + ")";
  const num = (s) => {
    if (typeof s === "number") return s;
    const t = String(s).trim();
    const i = t.indexOf("/");
    const v = i >= 0 ? Number(t.slice(0, i)) / Number(t.slice(i + 1)) : Number(t);
    if (!Number.isFinite(v)) throw new Error(`${JSON.stringify(s)}: not a number`);
    return v;
  };
  const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);

  const sessions = new Map();
  let nextID = 1;

  function defaults(c) {
    return Object.assign({ points: [], classes: 2, method: "fixed", multiclass: "ovr", bias: "last", init: "",
      eta: "1", margin: "0", schedule: "1/k", lambda: "0", atZero: "wrong", epochs: 100 }, c);
  }

  function augment(s, x) {
    return s.cfg.bias === "first" ? [1, x[0], x[1]] : [x[0], x[1], 1];
  }

  function initial(s) {
    if (s.cfg.init) {
      const w = s.cfg.init.split(",").map(num);
      if (w.length !== 3) throw new Error(`--init ${s.cfg.init}: want 3 numbers (an augmented sample's length)`);
      return w;
    }
    return [0, 0, 0];
  }

  function resetSession(s) {
    s.w = initial(s);
    s.wInit = s.w.slice();
    s.rows = [];
    s.epochs = [];
    s.step = 0;
    s.updates = 0;
    s.status = "running";
    s.history = [];
    s.path = [s.w.slice()];
    s.mistakesThisEpoch = 0;
    s.W = null; // K discriminants
    record(s);
  }

  function parts(s) {
    // [w for x1, w for x2, bias weight]
    return s.cfg.bias === "first" ? [s.w[1], s.w[2], s.w[0]] : [s.w[0], s.w[1], s.w[2]];
  }

  function criteria(s, w) {
    const b = num(s.cfg.margin);
    let zeroOne = 0, EP = 0, EQ = 0, ER = 0;
    for (const p of s.points) {
      const x = augment(s, p.x);
      const g = dot(w, x), yg = p.label * g;
      if (yg <= 0) { zeroOne++; EP -= yg; EQ += g * g; }
      if (yg <= b) ER += 0.5 * (yg - b) * (yg - b) / dot(x, x);
    }
    return { zeroOne, EP, EQ, ER };
  }

  function record(s) {
    const c = criteria(s, s.w);
    s.history.push({ step: s.step, zeroOne: c.zeroOne, EP: c.EP, EQ: c.EQ, ER: c.ER });
  }

  function presentOne(s) {
    const n = s.points.length;
    if (n === 0) { s.status = "converged"; return; }
    const i = s.step % n, epoch = Math.floor(s.step / n) + 1;
    const p = s.points[i], x = augment(s, p.x);
    const g = dot(s.w, x), yg = p.label * g;
    const b = s.cfg.method === "margin" ? num(s.cfg.margin) : 0;
    let met = yg > b;
    if (!met && b === 0 && g === 0 && s.cfg.atZero !== "wrong") met = (s.cfg.atZero === "+1" ? 1 : -1) === p.label;
    let eta = num(s.cfg.eta);
    if (s.cfg.method === "variable") {
      const k = s.updates + 1;
      eta *= s.cfg.schedule === "1/k" ? 1 / k : s.cfg.schedule === "1/sqrt(k)" ? 1 / Math.sqrt(k) : 1;
    }
    if (!met) {
      s.w = s.w.map((v, j) => v + eta * p.label * x[j]);
      s.updates++;
      s.mistakesThisEpoch++;
    }
    s.step++;
    s.rows.push([String(s.step), String(epoch), `--point ${i + 1}`, vec(x), p.label > 0 ? "+1" : "-1", fmt(g), fmt(yg),
      met ? "yes" : "no", vec(s.w)]);
    s.path.push(s.w.slice());
    record(s);
    if (s.step % n === 0) {
      s.epochs.push([String(epoch), String(s.mistakesThisEpoch), vec(s.w)]);
      if (s.mistakesThisEpoch === 0) s.status = "converged";
      else if (epoch >= s.cfg.epochs) s.status = "limit";
      s.mistakesThisEpoch = 0;
    }
  }

  function solve3(A, y) {
    // Gaussian elimination with partial pivoting on a 3x3 system.
    const M = A.map((r, i) => [...r, y[i]]);
    for (let c = 0; c < 3; c++) {
      let p = c;
      for (let r = c + 1; r < 3; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
      if (Math.abs(M[p][c]) < 1e-12) throw new Error("X'X is singular: least squares has no single solution");
      [M[c], M[p]] = [M[p], M[c]];
      for (let r = 0; r < 3; r++) {
        if (r === c) continue;
        const f = M[r][c] / M[c][c];
        for (let k = c; k < 4; k++) M[r][k] -= f * M[c][k];
      }
    }
    return M.map((r, i) => r[3] / r[i]);
  }

  function closedForm(s) {
    const X = s.points.map((p) => augment(s, p.x)), y = s.points.map((p) => p.label);
    const A = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], v = [0, 0, 0];
    X.forEach((x, n) => { for (let i = 0; i < 3; i++) { v[i] += x[i] * y[n]; for (let j = 0; j < 3; j++) A[i][j] += x[i] * x[j]; } });
    const lambda = num(s.cfg.lambda), bi = s.cfg.bias === "first" ? 0 : 2;
    for (let i = 0; i < 3; i++) if (i !== bi) A[i][i] += lambda;
    s.w = solve3(A, v);
    s.step++;
    s.updates = 1;
    s.status = "solved";
    s.rows.push([String(s.step), "1", "all", "-", "-", "-", "-", "-", vec(s.w)]);
    s.path.push(s.w.slice());
    record(s);
  }

  function state(s) {
    const [a, b, c] = parts(s);
    const norm = Math.hypot(a, b);
    const pts = s.points.map((p) => {
      const g = dot(s.w, augment(s, p.x));
      return { x: p.x.slice(), exact: p.x.map(fmt), label: p.label, g, dist: norm > 0 ? g / norm : 0, met: p.label * g > 0 };
    });
    const cur = criteria(s, s.w);
    const ts = [], line = { ts, zeroOne: [], EP: [], EQ: [], ER: [] };
    for (let i = 0; i <= 30; i++) {
      const t = i / 20;
      const w = s.wInit.map((v, j) => v + t * (s.w[j] - v));
      const cr = criteria(s, w);
      ts.push(t);
      for (const k of ["zeroOne", "EP", "EQ", "ER"]) line[k].push(cr[k]);
    }
    const bi = s.cfg.bias === "first" ? 0 : 2, i1 = s.cfg.bias === "first" ? 1 : 0, i2 = i1 + 1;
    const w0 = s.w[bi];
    let R2 = 0, gamma2 = null;
    for (const p of s.points) R2 = Math.max(R2, dot(augment(s, p.x), augment(s, p.x)));
    const separable = s.status === "converged" || (s.status === "running" && cur.zeroOne === 0);
    if (separable && s.points.length) {
      const wn = dot(s.w, s.w);
      gamma2 = Math.min(...s.points.map((p) => (dot(s.w, augment(s, p.x)) ** 2) / wn));
    }
    let regions = null;
    if (s.cfg.classes > 2) {
      const cols = 40, rows = 40, cells = [];
      for (let r = 0; r < rows; r++) for (let cc = 0; cc < cols; cc++) cells.push((r + cc) % (s.cfg.classes + 2));
      regions = { xmin: -4, xmax: 4, ymin: -4, ymax: 4, cols, rows, class: cells, grey: s.cfg.classes };
    }
    return {
      points: pts,
      w: { exact: s.w.map(fmt), float: s.w.slice() },
      bias: s.cfg.bias,
      boundary: { ok: norm > 0, a, b, c, normal: [a, b], offset: norm > 0 ? -c / norm : null, norm },
      trace: { columns: ["step", "epoch", "sample", "x", "y", "w.x", "y(w.x)", "met", "new w"], rows: s.rows.slice(-200),
        first: Math.max(0, s.rows.length - 200), total: s.rows.length, epochColumns: ["epoch", "samples not met", "w at its end"],
        epochRows: s.epochs.slice() },
      epochs: s.epochs.slice(),
      updates: s.updates,
      step: s.step,
      status: s.status,
      criteria: { zeroOne: cur.zeroOne, EP: { exact: fmt(cur.EP), float: cur.EP }, EQ: { exact: fmt(cur.EQ), float: cur.EQ },
        ER: { exact: fmt(cur.ER), float: cur.ER }, b: { exact: String(s.cfg.margin), float: num(s.cfg.margin) } },
      history: s.history.slice(),
      line,
      weightSpace: { w0, halfPlanes: s.points.map((p) => { const x = augment(s, p.x); return { a: p.label * x[i1], b: p.label * x[i2], c: p.label * x[bi] * w0 }; }),
        path: s.path.map((w) => [w[i1], w[i2]]) },
      novikoff: { separable, R2, gamma2, bound: gamma2 ? R2 / gamma2 : null, updates: s.updates, from: separable ? "weights" : "" },
      regions,
      command: "mark1 lab trace " + (s.cfg.bias !== "last" ? `--bias ${s.cfg.bias} ` : "") + (s.cfg.init ? `--init=${s.cfg.init} ` : "") +
        s.points.map((p) => `--point ${p.x.join(",")},${p.label > 0 ? "+1" : p.label}`).join(" "),
    };
  }

  function get(id) {
    const s = sessions.get(id);
    if (!s) throw new Error(`session ${id}: no such session`);
    return s;
  }
  const PT = (x1, x2, label) => ({ x: [num(x1), num(x2)], label: Number(label) });

  const api = {
    demos() {
      const p = (name, kind, def, help, extra) => Object.assign({ name, kind, default: def, help }, extra || {});
      return [
        { name: "trace", help: "a rule worked by hand: every presentation in exact numbers", quick: false, uses: [],
          params: [p("point", "points", "", "a sample"), p("bias", "string", "last", "where the constant 1 goes", { choices: ["last", "first", "none"] })] },
        { name: "geometry", help: "w normal to the boundary, distances g(x)/|w|, projections", quick: false, uses: [], params: [p("point", "points", "", "a sample"), p("w", "string", "", "the weights to draw")] },
        { name: "loss", help: "mistakes and the perceptron criterion E_P; the rule as SGD on E_P", quick: true, uses: [],
          params: [p("points", "int", "40", "integer samples of each problem", { min: 2, max: 1000 }), p("epochs", "int", "20", "most epochs", { min: 1, max: 1000 }), p("seed", "uint", "1", "the problems' seed")] },
        { name: "regions", help: "one-vs-rest, one-vs-one, K discriminants: who answers where", quick: true, uses: [],
          params: [p("method", "string", "lsq", "how the discriminants are fitted", { choices: ["lsq", "perceptron"] }), p("classes", "int", "3", "classes", { min: 3, max: 8 }), p("seed", "uint", "1", "the blobs' seed")] },
        { name: "masking", help: "least squares never answers the middle of three classes", quick: true, uses: [],
          params: [p("n", "int", "30", "samples of the low and high class", { min: 2, max: 1000 }), p("middle", "int", "20", "samples of the middle class"), p("noise", "float", "0.7", "the classes' standard deviation"), p("seed", "uint", "1", "seed")] },
        { name: "boolean", help: "AND, OR, NOT, m-of-n learned by one threshold unit; XOR and parity not", quick: true, uses: [], params: [p("epochs", "int", "1000", "most epochs")] },
        { name: "fisher-lsq", help: "least squares with targets N/N1, -N/N2 is Fisher's discriminant, exactly", quick: true, uses: [], params: [p("point", "points", "", "a sample"), p("seed", "uint", "1", "seed")] },
        { name: "flaws", help: "the Mark I ideal, with each analog flaw alone, with all", quick: false, uses: ["machine", "cards"], params: [] },
      ];
    },
    run(name, query) {
      const q = new URLSearchParams(query);
      const known = api.demos().find((d) => d.name === name);
      if (!known) throw new Error(`mark1 lab ${name}: no such demo`);
      if (known.uses.includes("cards")) throw new Error(`${name} runs long on cards: run it with mark1 lab ${name}`);
      for (const k of q.keys()) if (!known.params.some((p) => p.name === k)) throw new Error(`--${k}: mark1 lab ${name} has no such flag`);
      const seed = Number(q.get("seed") || 1);
      const xs = [], ys = [], ys2 = [];
      for (let i = 0; i < 20; i++) { xs.push(i); ys.push(Math.max(0, 20 - i * seed) + (i % 3)); ys2.push(10 + Math.sin(i + seed) * 5); }
      const figures = [{ name: name + "-1", title: name + ": a figure", xlabel: "epoch", ylabel: "value",
        series: [{ name: "mistakes", x: xs, y: ys }, { name: "E_P", x: xs, y: ys2, dashed: true }], caption: "stub data" }];
      if (name === "regions" || name === "masking") {
        const cols = 30, rows = 30, cls = [];
        for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) cls.push(Math.floor((c + seed) / 10) % 3);
        figures.push({ name: name + "-2", title: "regions", xlabel: "x1", ylabel: "x2", equal: true,
          regions: { cols, rows, xmin: -3, xmax: 3, ymin: -3, ymax: 3, class: cls, grey: 3, names: ["A", "B", "C"] },
          series: [{ name: "class A", x: [-2, -1.5], y: [0, 1], points: true, style: 1 }, { name: "class B", x: [0, 0.5], y: [0, -1], points: true, style: 2 }],
          boundaries: [{ name: "b1", w: [1, -1, 0.5], style: 1 }] });
      }
      const rows = [];
      for (let i = 0; i < 3; i++) rows.push([`row ${i + 1}`, String(seed * (i + 1)), String(q.get("method") || "-")]);
      return {
        report: { name, title: `${name} (stub)`, summary: "A stand-in report: its numbers are not the lab's.",
          conditions: [{ label: "seed", value: String(seed) }],
          tables: [{ name, title: "Table", columns: ["what", "value", "method"], rows, note: "stub" }],
          notes: ["a note"], checks: [], figures },
        command: `mark1 lab ${name}` + [...q.entries()].map(([k, v]) => ` --${k} ${v}`).join(""),
      };
    },
    session(config) {
      const cfg = defaults(config);
      const s = { cfg, points: cfg.points.map(([a, b, y]) => PT(a, b, y)) };
      resetSession(s);
      const id = nextID++;
      sessions.set(id, s);
      return id;
    },
    state: (id) => state(get(id)),
    add(id, x1, x2, label) { const s = get(id); s.points.push(PT(x1, x2, label)); resetSession(s); return state(s); },
    move(id, i, x1, x2) { const s = get(id); s.points[i].x = [num(x1), num(x2)]; resetSession(s); return state(s); },
    remove(id, i) { const s = get(id); s.points.splice(i, 1); resetSession(s); return state(s); },
    set(id, config) { const s = get(id); s.cfg = defaults(Object.assign({}, s.cfg, config, { points: undefined })); if (config.points) s.points = config.points.map(([a, b, y]) => PT(a, b, y)); resetSession(s); return state(s); },
    step(id) {
      const s = get(id);
      if (s.status !== "running") return state(s);
      if (s.cfg.method === "lsq" || s.cfg.method === "fisher") closedForm(s); else presentOne(s);
      return state(s);
    },
    epoch(id) {
      const s = get(id);
      if (s.status !== "running") return state(s);
      if (s.cfg.method === "lsq" || s.cfg.method === "fisher") { closedForm(s); return state(s); }
      do presentOne(s); while (s.status === "running" && s.step % s.points.length !== 0);
      return state(s);
    },
    runToEnd(id) {
      const s = get(id);
      if (s.cfg.method === "lsq" || s.cfg.method === "fisher") { if (s.status === "running") closedForm(s); return state(s); }
      while (s.status === "running") presentOne(s);
      return state(s);
    },
    reset(id) { const s = get(id); resetSession(s); return state(s); },
    traceCSV(id) { const s = get(id); return ["step,epoch,sample,x,y,w.x,y(w.x),met,new w", ...s.rows.map((r) => r.map((c) => (c.includes(",") ? `"${c}"` : c)).join(","))].join("\n") + "\n"; },
    csv(id) { return get(id).points.map((p) => `${p.x[0]},${p.x[1]},${p.label > 0 ? "+1" : p.label}`).join("\n") + "\n"; },
    loadCSV(id, text) {
      const s = get(id), pts = [];
      text.split("\n").forEach((line, i) => {
        const t = line.replace(/#.*/, "").trim();
        if (!t) return;
        const f = t.split(",");
        if (f.length !== 3) throw new Error(`line ${i + 1}: want X1,X2,LABEL`);
        pts.push(PT(f[0], f[1], f[2]));
      });
      s.points = pts;
      resetSession(s);
      return state(s);
    },
    close(id) { sessions.delete(id); return null; },

    retinaSet(id, config) { const s = get(id); s.analog = !!config.analog; s.set = config.set || s.set; s.trained = 0; s.epochs = []; return api.retinaState(id); },
    show(id, card) { const s = get(id); s.cells = new Array(400).fill(0).map((_, i) => ((i * 7 + card.length) % 5 === 0 ? 1 : 0)); s.shown = card; return api.retinaState(id); },
    closeRetina(id) { sessions.delete(id); return null; },
    retina(config) {
      const seed = config.seed || 1;
      const wiring = [];
      let r = seed * 2654435761 % 4294967296;
      const rnd = () => (r = (r * 1664525 + 1013904223) % 4294967296) / 4294967296;
      for (let a = 0; a < 512; a++) wiring.push([0, 1, 2, 3, 4].map(() => Math.floor(rnd() * 400)));
      const s = { wiring, cells: new Array(400).fill(0), weights: [new Array(512).fill(0), new Array(512).fill(0)], trained: 0, analog: !!config.analog,
        set: config.set || "ef", shown: config.card || "", drawing: new Array(400).fill(0), epochs: [] };
      if (config.card) for (let i = 0; i < 400; i++) s.cells[i] = (i % 20 > 5 && i % 20 < 9) || (Math.floor(i / 20) === 4 && i % 20 < 15) ? 1 : 0;
      const id = nextID++;
      sessions.set(id, s);
      return id;
    },
    draw(id, cells) { const s = get(id); if (cells.length !== 400) throw new Error("draw: want 400 cells"); s.cells = cells.map((c) => (c ? 1 : 0)); s.drawing = s.cells.slice(); s.shown = "drawing"; return api.retinaState(id); },
    retinaState(id) {
      const s = get(id);
      const aunits = s.wiring.map((w) => (w.filter((c) => s.cells[c]).length >= 2 ? 1 : 0));
      const sums = s.weights.map((ws) => ws.reduce((t, v, a) => t + (aunits[a] ? v : 0), 0));
      const answer = sums[0] > 0 ? 0 : 1;
      return { shown: s.shown, drawing: s.drawing.slice(), cells: s.cells.slice(), aunits, active: aunits.filter((a) => a).length, sums, answer,
        answerName: ["E", "F"][answer], classes: ["E", "F"], set: s.set, trained: s.trained, epochs: s.epochs.slice(),
        accuracy: s.epochs.length ? { cards: 60, correct: 50 } : null, command: `mark1 train --data builtin:${s.set} --ideal` };
    },
    teach(id, k) {
      const s = get(id), st = api.retinaState(id);
      if (st.answer !== k) st.aunits.forEach((f, a) => { if (f) s.weights[0][a] += k === 0 ? 1 : -1; });
      s.trained++;
      return api.retinaState(id);
    },
    train(id, set, epochs) {
      const s = get(id);
      for (let e = 0; e < Number(epochs || 1); e++) s.epochs.push({ epoch: s.epochs.length + 1, cards: 60, mistakes: 9 - e, corrections: 9 - e });
      s.trained += 60 * Number(epochs || 1);
      return api.retinaState(id);
    },
  };
  globalThis.mark1lab = api;
  if (typeof globalThis.mark1labResolve === "function") globalThis.mark1labResolve();
})();
