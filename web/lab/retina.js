// The Mark I as the feature map: a 20x20 retina to draw on (or a built-in card), the 512
// A-units its plug-board fires, the R-units' sums and the answer; taught one correction at a
// time or trained on a built-in set, with the machine's analog flaws on or off. The machine is
// the lab's (mark1lab.retina and its calls); this draws it.

import { t } from "./i18n.js";
import * as q from "./query.js";
import { table } from "./report.js";
import { drawn } from "./util.js";

const N = 20;
export const cardSets = ["ef", "leftright", "squares-circles", "shapes", "letters"];

// cellsText writes 400 cells as 100 hex digits (a link's cells=), cellsFrom reads them back.
export function cellsText(cells) {
  let s = "";
  for (let i = 0; i < cells.length; i += 4) s += ((cells[i] << 3) | (cells[i + 1] << 2) | (cells[i + 2] << 1) | cells[i + 3]).toString(16);
  return s;
}

export function cellsFrom(hex) {
  if (!/^[0-9a-f]{100}$/i.test(hex)) return null;
  const out = [];
  for (const d of hex) { const v = parseInt(d, 16); out.push((v >> 3) & 1, (v >> 2) & 1, (v >> 1) & 1, v & 1); }
  return out;
}

export class Retina {
  constructor(api, hooks) {
    this.api = api;
    this.hooks = hooks; // changed(), error(msg), clearError()
    this.$ = (id) => document.getElementById(id);
    this.id = 0;
    this.state = null;
    this.cells = new Array(N * N).fill(0);
    this.card = "";
    this.drawn = false;
    this.trainedOn = null; // [set, epochs] of the last Train, replayed from a link
    this.cursor = [10, 10];
    this.canvas = this.$("retina");
    this.paint = null;
    this.wire();
  }

  wire() {
    const $ = this.$, c = this.canvas;
    for (const s of cardSets) { $("card-set").append(new Option(s, s)); $("train-set").append(new Option(s, s)); }
    c.addEventListener("pointerdown", (e) => {
      c.focus({ preventScroll: true });
      c.setPointerCapture(e.pointerId);
      const i = this.cellAt(e);
      if (i < 0) return;
      this.startDrawing();
      this.paint = this.cells[i] ? 0 : 1;
      this.setCell(i);
    });
    c.addEventListener("pointermove", (e) => { if (this.paint !== null) { const i = this.cellAt(e); if (i >= 0) this.setCell(i); } });
    const end = () => { if (this.paint !== null) { this.paint = null; this.send(); } };
    c.addEventListener("pointerup", end);
    c.addEventListener("pointercancel", end);
    c.addEventListener("keydown", (e) => this.key(e));
    c.addEventListener("focus", () => this.draw());
    c.addEventListener("blur", () => this.draw());
    new ResizeObserver(() => this.draw()).observe(c);
    new ResizeObserver(() => this.drawAUnits()).observe($("aunits"));
    $("retina-clear").addEventListener("click", () => { this.cells.fill(0); this.card = ""; this.drawn = true; this.send(); });
    $("card-show").addEventListener("click", () => this.showCard(`builtin:${$("card-set").value}/${Number($("card-index").value) || 0}`));
    $("analog").addEventListener("change", () => this.restart());
    $("retina-seed").addEventListener("change", () => this.restart());
    $("card-set").addEventListener("change", () => this.showCard(`builtin:${$("card-set").value}/${Number($("card-index").value) || 0}`));
    $("train").addEventListener("click", () => {
      this.trainedOn = [$("train-set").value, Number($("train-epochs").value) || 1];
      this.apply(() => this.api.train(this.id, ...this.trainedOn));
    });
  }

  // open starts from a link: demo=retina&set=ef&card=builtin:ef/0 (or cells=HEX, a drawing)
  // &analog=1&seed=N&train=SET&epochs=N (trained so, as mark1 train does, then shown the card).
  open(pairs) {
    this.$("analog").checked = ["1", "true", "on"].includes(q.get(pairs, "analog"));
    this.$("retina-seed").value = q.get(pairs, "seed", "1");
    this.card = q.get(pairs, "card");
    const cells = cellsFrom(q.get(pairs, "cells"));
    this.drawn = !!cells;
    if (q.has(pairs, "train")) {
      this.trainedOn = [q.get(pairs, "train"), Number(q.get(pairs, "epochs", "1")) || 1];
      this.$("train-set").value = this.trainedOn[0];
      this.$("train-epochs").value = String(this.trainedOn[1]);
    }
    const set = q.get(pairs, "set") || (this.card.match(/^builtin:([^/]+)\//) || [])[1] || (this.trainedOn && this.trainedOn[0]) || "ef";
    this.$("card-set").value = set;
    const m = this.card.match(/\/(\d+)$/);
    if (m) this.$("card-index").value = m[1];
    if (this.id) this.call(() => this.close(this.id));
    const id = this.call(() => this.api.retina({ card: this.card, set, analog: this.$("analog").checked, seed: this.seed() }));
    if (id === null) return;
    this.id = id;
    let st = this.call(() => this.api.retinaState(id));
    if (this.trainedOn) st = this.call(() => this.api.train(id, ...this.trainedOn)) || st;
    if (cells) st = this.call(() => this.api.draw(id, cells)) || st;
    this.render(st);
  }

  seed() {
    return Math.max(1, Math.floor(Number(this.$("retina-seed").value) || 1));
  }

  close(id) {
    return typeof this.api.closeRetina === "function" ? this.api.closeRetina(id) : this.api.close(id);
  }

  // restart makes a fresh machine (the flaws, the seed or the set changed) shown what it was
  // shown (mark1lab.retinaSet).
  restart() {
    const set = this.$("card-set").value;
    this.trainedOn = null;
    this.apply(() => this.api.retinaSet(this.id, { analog: this.$("analog").checked, seed: this.seed(), set }));
  }

  // showCard shows a built-in card of the machine's set (a card of another set makes a fresh
  // machine for that set's classes first).
  showCard(card) {
    this.card = card;
    this.drawn = false;
    const set = (card.match(/^builtin:([^/]+)\//) || [])[1];
    if (this.state && set && set !== this.state.set) {
      this.trainedOn = null;
      if (this.call(() => this.api.retinaSet(this.id, { analog: this.$("analog").checked, seed: this.seed(), set })) === null) return;
    }
    this.apply(() => this.api.show(this.id, card));
  }

  cellAt(e) {
    const r = this.canvas.getBoundingClientRect();
    const c = Math.floor(((e.clientX - r.left) / r.width) * N), row = Math.floor(((e.clientY - r.top) / r.height) * N);
    return c >= 0 && c < N && row >= 0 && row < N ? row * N + c : -1;
  }

  // startDrawing makes the drawing the student changes: what the retina sees of the card
  // shown, or the drawing so far.
  startDrawing() {
    if (!this.drawn && this.state && this.state.shown && this.state.shown !== "drawing") {
      this.cells = (this.state.cells || []).map((v) => (v ? 1 : 0));
    }
  }

  setCell(i) {
    if (this.cells[i] === this.paint) return;
    this.cells[i] = this.paint;
    this.drawn = true;
    this.draw();
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.send(); });
  }

  key(e) {
    const [c, r] = this.cursor;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[e.key]) {
      this.cursor = [Math.max(0, Math.min(N - 1, c + moves[e.key][0])), Math.max(0, Math.min(N - 1, r + moves[e.key][1]))];
      if (e.shiftKey) { this.startDrawing(); this.paint = 1; this.setCell(this.cursor[1] * N + this.cursor[0]); this.paint = null; }
    } else if (e.key === " " || e.key === "Enter") {
      const i = r * N + c;
      this.startDrawing();
      this.paint = this.cells[i] ? 0 : 1;
      this.setCell(i);
      this.paint = null;
    } else return;
    e.preventDefault();
    this.draw();
    this.$("retina-help").dataset.cursor = `${this.cursor[1]},${this.cursor[0]}`;
  }

  send() {
    this.apply(() => this.api.draw(this.id, this.cells.slice()));
  }

  apply(f) {
    const st = this.call(f);
    if (st) this.render(st);
  }

  call(f) {
    try {
      const v = f();
      this.hooks.clearError();
      return v === undefined ? null : v;
    } catch (e) {
      this.hooks.error(e && e.message ? e.message : String(e));
      return null;
    }
  }

  render(st) {
    if (!st) return;
    this.state = st;
    // The drawing the student changes is the lab's (a card shown leaves it as it was).
    if (st.drawing && st.drawing.length === N * N) this.cells = st.drawing.map((v) => (v ? 1 : 0));
    else if (!st.drawing && st.cells && st.cells.length === N * N) this.cells = st.cells.map((v) => (v ? 1 : 0));
    if (st.set) this.$("card-set").value = st.set;
    this.draw();
    this.drawAUnits();
    const fired = (st.aunits || []).filter((v) => v).length;
    const lit = (st.cells || this.cells).filter((v) => v).length;
    this.$("aunits-count").textContent = t("aunitsFire", { cells: lit, n: fired, all: (st.aunits || []).length || 512 });
    const names = this.classNames(st);
    const ru = this.$("runits");
    ru.replaceChildren();
    const sums = st.sums || [], m = Math.max(1, ...sums.map((v) => Math.abs(v)));
    sums.forEach((s, r) => {
      const row = document.createElement("div");
      row.className = "runit" + (s > 0 ? " on" : "");
      const lamp = document.createElement("span");
      lamp.className = "lamp";
      const name = document.createElement("span");
      name.textContent = `R${r + 1}`;
      const bar = document.createElement("span");
      bar.className = "bar";
      const fill = document.createElement("span");
      fill.className = s >= 0 ? "pos" : "neg";
      fill.style.width = `${(50 * Math.abs(s)) / m}%`;
      bar.append(fill);
      const val = document.createElement("span");
      val.className = "mono";
      val.textContent = (Math.round(s * 100) / 100).toString();
      row.append(lamp, name, bar, val);
      row.setAttribute("aria-label", t(s > 0 ? "runitOn" : "runitOff", { r: r + 1, sum: val.textContent }));
      ru.append(row);
    });
    const answer = st.answer === undefined || st.answer === null || st.answer < 0 ? t("noAnswer") : st.answerName || names[st.answer] || String(st.answer);
    this.$("answer").textContent = t("answerIs", { answer });
    const teach = this.$("teach");
    teach.replaceChildren();
    names.forEach((n, k) => {
      const b = document.createElement("button");
      b.textContent = n;
      b.setAttribute("aria-label", t("teachAs", { cls: n }));
      b.addEventListener("click", () => this.apply(() => this.api.teach(this.id, k)));
      teach.append(b);
    });
    this.$("trained").textContent = t("trainedCount", { n: st.trained || 0 }) +
      (st.accuracy ? " · " + t("trainedAccuracy", { correct: st.accuracy.correct, cards: st.accuracy.cards }) : "");
    const ep = this.$("retina-epochs");
    ep.replaceChildren();
    if (st.epochs && st.epochs.length) {
      ep.append(table([t("epoch"), t("cardsShown"), t("mistakes"), t("corrections")],
        st.epochs.map((e) => [String(e.epoch), String(e.cards), String(e.mistakes), String(e.corrections)]), t("trainEpochs")));
    }
    drawn();
    this.hooks.changed();
  }

  classNames(st) {
    if (Array.isArray(st.classes)) return st.classes.map(String);
    const k = Number(st.classes) || 2;
    return [...Array(k).keys()].map((i) => String(i));
  }

  draw() {
    const c = this.canvas, r = c.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    if (r.width < 1) return;
    c.width = Math.round(r.width * dpr);
    c.height = Math.round(r.width * dpr);
    const ctx = c.getContext("2d"), s = r.width / N;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#15171c";
    ctx.fillRect(0, 0, r.width, r.width);
    // Each cell lit (amber) when its S-unit fired at the last presentation; while the student
    // draws, the drawing itself.
    const fired = this.paint === null && this.state && this.state.cells && this.state.cells.length === N * N ? this.state.cells : this.cells;
    for (let i = 0; i < N * N; i++) {
      ctx.fillStyle = fired[i] ? "#ffb43c" : "#2b2f38";
      ctx.fillRect((i % N) * s + 1, Math.floor(i / N) * s + 1, s - 2, s - 2);
      if (this.drawn && this.cells[i] && !fired[i]) {
        ctx.strokeStyle = "#ffb43c";
        ctx.lineWidth = 1.5;
        ctx.strokeRect((i % N) * s + 3, Math.floor(i / N) * s + 3, s - 6, s - 6);
      }
    }
    if (document.activeElement === c) {
      ctx.strokeStyle = "#4fc3f7";
      ctx.lineWidth = 3;
      ctx.strokeRect(this.cursor[0] * s + 1.5, this.cursor[1] * s + 1.5, s - 3, s - 3);
    }
  }

  drawAUnits() {
    const c = this.$("aunits"), r = c.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    if (r.width < 1) return;
    const a = (this.state && this.state.aunits) || [];
    const cols = 32, rows = Math.max(1, Math.ceil((a.length || 512) / cols)), s = r.width / cols;
    c.style.height = `${rows * s}px`;
    c.width = Math.round(r.width * dpr);
    c.height = Math.round(rows * s * dpr);
    const ctx = c.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#15171c";
    ctx.fillRect(0, 0, r.width, rows * s);
    for (let i = 0; i < (a.length || 512); i++) {
      ctx.fillStyle = a[i] ? "#ffb43c" : "#3a3f4a";
      ctx.beginPath();
      ctx.arc((i % cols) * s + s / 2, Math.floor(i / cols) * s + s / 2, s * 0.36, 0, 7);
      ctx.fill();
    }
  }

  // query is the panel's link.
  query() {
    const out = [["demo", "retina"]];
    if (this.state && this.state.set && !(this.card && !this.drawn)) out.push(["set", this.state.set]);
    if (this.card && !this.drawn) out.push(["card", this.card]);
    if (this.drawn) out.push(["cells", cellsText(this.cells)]);
    if (this.$("analog").checked) out.push(["analog", "1"]);
    if (this.$("retina-seed").value !== "1") out.push(["seed", this.$("retina-seed").value]);
    if (this.trainedOn) out.push(["train", this.trainedOn[0]], ["epochs", String(this.trainedOn[1])]);
    return out;
  }

  command() {
    if (this.state && this.state.command) return this.state.command;
    const parts = ["mark1 train"];
    if (this.trainedOn) parts.push(`--data builtin:${this.trainedOn[0]}`, `--epochs ${this.trainedOn[1]}`);
    else parts.push("--data builtin:ef");
    if (!this.$("analog").checked) parts.push("--ideal");
    if (this.$("retina-seed").value !== "1") parts.push(`--seed ${this.$("retina-seed").value}`);
    return parts.join(" ");
  }
}
