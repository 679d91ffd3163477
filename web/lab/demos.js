// The registry's demonstrations (mark1lab.demos), each run by the lab's own code in the
// browser (mark1lab.run): a form of its flags, built from its parameters, and its report. A
// link holds the demonstration and the flags that differ from their defaults, so that it reads
// as the command does: /lab/?demo=regions&method=perceptron is mark1 lab regions --method
// perceptron.

import { t } from "./i18n.js";
import * as q from "./query.js";
import { render } from "./report.js";
import { debounce, drawn } from "./util.js";

// In the plane's panel instead (they take the student's points); the retina has its own panel.
export const planeDemos = ["trace", "geometry", "playground"];

// Flags a page cannot give: files on the student's disk, and the report writers.
const skipped = ["data", "test", "out", "json", "config", "workers"];

export class Demos {
  constructor(api, hooks) {
    this.api = api;
    this.hooks = hooks; // changed(), error(msg), clearError()
    this.$ = (id) => document.getElementById(id);
    this.list = [];
    this.current = null;
    this.result = null;
    this.values = {};
    this.rerun = debounce(() => this.run(), 250);
    this.$("demo-select").addEventListener("change", () => this.choose(this.$("demo-select").value, []));
    this.$("demo-run").addEventListener("click", () => this.run());
    this.$("demo-params").addEventListener("submit", (e) => { e.preventDefault(); this.run(); });
  }

  // load asks the lab for its registry once.
  load() {
    try {
      this.list = this.api.demos() || [];
    } catch (e) {
      this.hooks.error(e.message);
      this.list = [];
    }
    this.fill();
  }

  // fill writes the list, the demonstrations that run here first (the others need the cards
  // and run on the command line).
  fill() {
    const sel = this.$("demo-select"), was = sel.value;
    sel.replaceChildren();
    const here = document.createElement("optgroup"), long = document.createElement("optgroup");
    here.label = t("demosHere");
    long.label = t("demosLong");
    for (const d of this.list) {
      if (planeDemos.includes(d.name)) continue;
      const o = new Option(`${d.kind === "experiment" ? "experiment " : ""}${d.name}: ${d.help || ""}`, d.name);
      o.disabled = !this.runsHere(d);
      (this.runsHere(d) ? here : long).append(o);
    }
    sel.append(here, long);
    if (was) sel.value = was;
  }

  // runsHere says whether the browser runs d: as asked ("run"), only its quick run ("quick"),
  // or not at all ("no": too long for a page; mark1 runs it).
  runsHere(d) {
    if (d.browser) return d.browser !== "no";
    return d.quick || !(d.uses || []).includes("cards");
  }

  // quickOnly says that the browser runs only d's quick run: the form leaves out what the
  // quick run sets itself, and the link says quick.
  quickOnly(d) {
    return d.browser === "quick";
  }

  // open starts from a link: demo=NAME and its flags.
  open(name, pairs) {
    if (!this.list.length) this.load();
    this.choose(name, q.without(pairs, q.pageParams));
  }

  choose(name, pairs) {
    const d = this.list.find((x) => x.name === name) || this.list.find((x) => !planeDemos.includes(x.name) && this.runsHere(x));
    if (!d) return;
    this.current = d;
    this.$("demo-select").value = d.name;
    this.$("demo-help").textContent = d.help || "";
    this.values = {};
    for (const [k, v] of pairs) {
      const p = (d.params || []).find((x) => x.name === k);
      if (p && p.kind === "points") (this.values[k] = this.values[k] || []).push(v);
      else this.values[k] = v;
    }
    this.form();
    this.run();
  }

  // form builds the flags' inputs from the parameters: numbers with their ranges, choices as a
  // list, true/false as a box, points one a line.
  form() {
    const f = this.$("demo-params"), d = this.current;
    f.replaceChildren();
    for (const p of d.params || []) {
      if (skipped.includes(p.name) || (this.quickOnly(d) && (p.quickSets || p.name === "quick"))) continue;
      const lab = document.createElement("label");
      const name = document.createElement("span");
      name.textContent = "--" + p.name;
      name.className = "mono";
      lab.append(name);
      let input;
      const v = this.values[p.name];
      if (p.choices && p.choices.length) {
        input = document.createElement("select");
        for (const c of p.choices) input.append(new Option(c, c));
        input.value = v !== undefined ? v : p.default || p.choices[0];
      } else if (p.kind === "bool") {
        input = Object.assign(document.createElement("input"), { type: "checkbox" });
        input.checked = v !== undefined ? ["1", "true", ""].includes(v) : p.default === "true";
      } else if (p.kind === "points") {
        input = document.createElement("textarea");
        input.rows = 4;
        input.placeholder = "X1,X2,LABEL";
        input.value = (v || []).join("\n");
      } else {
        input = document.createElement("input");
        if (["int", "uint", "float"].includes(p.kind)) {
          input.type = "number";
          input.step = p.kind === "float" ? "any" : "1";
          if (p.min !== undefined && p.min !== null && !(p.min === 0 && p.max === 0)) input.min = String(p.min);
          if (p.max && p.max > (p.min || 0)) input.max = String(p.max);
        }
        input.value = v !== undefined ? v : p.default || "";
        if (p.default === undefined || p.default === "") input.placeholder = t("default");
      }
      input.name = p.name;
      input.title = p.help || "";
      input.addEventListener("change", () => { this.read(); this.rerun(); });
      lab.append(input);
      const help = document.createElement("small");
      help.textContent = p.help || "";
      lab.append(help);
      f.append(lab);
    }
  }

  // read takes the form's values: those that differ from the defaults are the flags given.
  read() {
    this.values = {};
    for (const p of this.current.params || []) {
      const input = this.$("demo-params").elements.namedItem(p.name);
      if (!input) continue;
      if (p.kind === "bool") {
        if (input.checked !== (p.default === "true")) this.values[p.name] = String(input.checked);
      } else if (p.kind === "points") {
        const pts = input.value.split("\n").map((s) => s.trim()).filter(Boolean);
        if (pts.length) this.values[p.name] = pts;
      } else if (input.value.trim() !== "" && input.value.trim() !== (p.default || "")) this.values[p.name] = input.value.trim();
    }
  }

  // query is the demonstration's flags as pairs (points repeated).
  flags() {
    const out = this.quickOnly(this.current) ? [["quick", "true"]] : [];
    for (const p of this.current.params || []) {
      const v = this.values[p.name];
      if (p.name === "quick" && this.quickOnly(this.current)) continue;
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const x of v) out.push([p.name, x]);
      else out.push([p.name, v]);
    }
    return out;
  }

  run() {
    if (!this.current) return;
    const root = this.$("demo-report");
    root.setAttribute("aria-busy", "true");
    const started = performance.now();
    try {
      this.result = this.api.run(this.current.name, q.format(this.flags()).slice(1));
      this.hooks.clearError();
    } catch (e) {
      this.result = null;
      root.replaceChildren();
      const p = document.createElement("p");
      p.className = "error";
      p.textContent = e && e.message ? e.message : String(e);
      root.append(p);
      this.hooks.error(p.textContent);
    }
    if (this.result) {
      render(root, this.result.report || {});
      const took = document.createElement("p");
      took.className = "help";
      took.textContent = t("ranIn", { ms: Math.round(performance.now() - started) });
      root.append(took);
    }
    root.removeAttribute("aria-busy");
    drawn();
    this.hooks.changed();
  }

  query() {
    if (!this.current) return [["demo", "demos"]];
    return [["demo", this.current.name], ...this.flags()];
  }

  command() {
    if (this.result && this.result.command) return this.result.command;
    return this.current ? `mark1 lab ${this.current.name}` + this.flags().map(([k, v]) => ` --${k} ${v}`).join("") : "";
  }
}
