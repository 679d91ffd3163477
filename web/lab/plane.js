// The plane: the samples as points of their classes, the boundary a x1 + b x2 + c = 0 with w
// drawn normal to it at -w0/|w| from the origin, the half-planes (two classes) or the regions
// each class is answered in (K classes: ambiguous and no-decision cells in greys). It draws
// what the lab's code computed (the state); it computes nothing but where things go on the
// screen.
//
// Pointer: a click adds a point of the chosen class, a drag moves one, a right-click (or the
// delete tool) removes one; a tap on a point shows its distance. Keys, when the canvas has the
// focus: the arrows move a cursor on the grid, Enter adds a point there, Delete removes the
// point under it, Space picks a point up and puts it down (the arrows carry it), [ and ] go to
// the previous or next point, + and - or 1 to 4 choose the class.

import { t, number } from "./i18n.js";
import { numberText, toNumber, labelText } from "./query.js";

export const colors = ["#1d5fbf", "#c62f2a", "#23843a", "#8a3fb0"];
const light = colors.map((c) => tint(c, 0.16));

// tint mixes a colour ("#rrggbb") with white: f of the colour, the rest white.
export function tint(hex, f) {
  const v = [1, 3, 5].map((i) => Math.round(255 - f * (255 - parseInt(hex.slice(i, i + 2), 16))));
  return `rgb(${v.join(",")})`;
}

// regionImage paints a grid of classes (cells[r * cols + c], row 0 at the bottom) one pixel
// a cell, to be drawn scaled: no seams between cells.
export function regionImage(cols, rows, cells, fill) {
  const img = document.createElement("canvas");
  img.width = cols;
  img.height = rows;
  const ctx = img.getContext("2d");
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      ctx.fillStyle = fill(cells[r * cols + c]);
      ctx.fillRect(c, rows - 1 - r, 1, 1);
    }
  }
  return img;
}
const shapes = ["circle", "square", "triangle", "diamond"];

// classIndex is a label's place in colors: +1 first, -1 second; for K classes the class itself.
export function classIndex(label, classes) {
  return classes <= 2 ? (label > 0 ? 0 : 1) : label;
}

// marker draws a class's glyph of radius r at (x, y).
export function marker(ctx, k, x, y, r) {
  ctx.beginPath();
  switch (shapes[k % shapes.length]) {
  case "circle": ctx.arc(x, y, r, 0, 2 * Math.PI); break;
  case "square": ctx.rect(x - r * 0.88, y - r * 0.88, r * 1.76, r * 1.76); break;
  case "triangle": ctx.moveTo(x, y - r * 1.15); ctx.lineTo(x + r * 1.05, y + r * 0.75); ctx.lineTo(x - r * 1.05, y + r * 0.75); ctx.closePath(); break;
  default: ctx.moveTo(x, y - r * 1.2); ctx.lineTo(x + r * 1.2, y); ctx.lineTo(x, y + r * 1.2); ctx.lineTo(x - r * 1.2, y); ctx.closePath();
  }
}

// niceStep is a round grid step (1, 2 or 5 times a power of ten) giving about n lines over span.
export function niceStep(span, n) {
  const raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

// clip cuts a convex polygon (a list of [x, y]) to the half-plane a x + b y + c >= 0.
export function clip(poly, a, b, c) {
  const out = [];
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i], q = poly[(i + 1) % poly.length];
    const fp = a * p[0] + b * p[1] + c, fq = a * q[0] + b * q[1] + c;
    if (fp >= 0) out.push(p);
    if ((fp >= 0) !== (fq >= 0)) {
      const s = fp / (fp - fq);
      out.push([p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])]);
    }
  }
  return out;
}

export class Plane {
  constructor(canvas, tooltip, hooks) {
    this.canvas = canvas;
    this.tooltip = tooltip;
    this.hooks = hooks;
    this.points = [];
    this.state = null;
    this.classes = 2;
    this.view = { cx: 0, cy: 0, s: 40 };
    this.cursor = [0, 0];
    this.focused = false;
    this.carry = -1;
    this.drag = null;
    this.hover = -1;
    this.scale = 1; // text and lines, larger on a projector
    new ResizeObserver((e) => this.resize(e[0].contentRect)).observe(canvas);
    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.moveEvent(e));
    canvas.addEventListener("pointerup", (e) => this.up(e));
    canvas.addEventListener("pointercancel", () => { this.drag = null; });
    canvas.addEventListener("pointerleave", () => { if (!this.drag) this.setHover(-1); });
    canvas.addEventListener("contextmenu", (e) => this.context(e));
    canvas.addEventListener("keydown", (e) => this.key(e));
    canvas.addEventListener("focus", () => { this.focused = true; this.announce(); this.draw(); });
    canvas.addEventListener("blur", () => { this.focused = false; this.carry = -1; this.draw(); });
  }

  resize(rect) {
    const r = rect || this.canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    if (r.width < 1) return;
    const first = !this.w;
    this.w = r.width;
    this.h = r.height;
    this.canvas.width = Math.round(r.width * dpr);
    this.canvas.height = Math.round(r.height * dpr);
    if (first) this.fit(); else this.draw();
  }

  // update takes the page's points ({x: [text, text], label}) and the lab's state.
  update(points, state, classes) {
    this.points = points;
    this.state = state;
    this.classes = classes;
    if (this.hover >= points.length) this.hover = -1;
    this.draw();
    if (this.hover >= 0) this.showTip(this.hover);
  }

  // fit frames the points and the origin, a grid step of room around them.
  fit() {
    let x0 = -1, x1 = 1, y0 = -1, y1 = 1;
    for (const p of this.points) {
      const x = toNumber(p.x[0]), y = toNumber(p.x[1]);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    const pad = Math.max(1, 0.15 * Math.max(x1 - x0, y1 - y0));
    x0 -= pad; x1 += pad; y0 -= pad; y1 += pad;
    const w = this.w || 400, h = this.h || 400;
    this.view = { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, s: Math.min(w / (x1 - x0), h / (y1 - y0)) };
    this.draw();
  }

  // inView says whether every point is inside the frame.
  inView() {
    const w = this.w || 400, h = this.h || 400;
    return this.points.every((p) => {
      const [x, y] = this.toScreen([toNumber(p.x[0]), toNumber(p.x[1])]);
      return x > 8 && x < w - 8 && y > 8 && y < h - 8;
    });
  }

  toScreen([x, y]) {
    const w = this.w || 400, h = this.h || 400;
    return [w / 2 + (x - this.view.cx) * this.view.s, h / 2 - (y - this.view.cy) * this.view.s];
  }

  toWorld([px, py]) {
    const w = this.w || 400, h = this.h || 400;
    return [this.view.cx + (px - w / 2) / this.view.s, this.view.cy - (py - h / 2) / this.view.s];
  }

  // world is the view's rectangle in the plane's coordinates, as a polygon.
  world() {
    const [x0, y1] = this.toWorld([0, 0]), [x1, y0] = this.toWorld([this.w, this.h]);
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  }

  pos(i) {
    const p = this.points[i];
    return this.toScreen([toNumber(p.x[0]), toNumber(p.x[1])]);
  }

  // hit is the point nearest to (px, py) within reach, or -1.
  hit(px, py) {
    let best = -1, bd = (14 * this.scale) ** 2;
    for (let i = 0; i < this.points.length; i++) {
      const [x, y] = this.pos(i), d = (x - px) ** 2 + (y - py) ** 2;
      if (d <= bd) { best = i; bd = d; }
    }
    return best;
  }

  snapped(px, py) {
    const step = this.hooks.snap();
    return this.toWorld([px, py]).map((v) => numberText(v, step));
  }

  local(e) {
    const r = this.canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  down(e) {
    if (e.button !== 0) return;
    this.canvas.focus({ preventScroll: true });
    const [px, py] = this.local(e), i = this.hit(px, py), tool = this.hooks.tool();
    if (i >= 0 && tool === "delete") {
      this.hooks.remove(i);
      return;
    }
    if (i >= 0) {
      this.drag = { i, moved: false, x0: px, y0: py, id: e.pointerId };
      this.canvas.setPointerCapture(e.pointerId);
      this.setHover(i);
      return;
    }
    if (tool === "add") {
      const [x1, x2] = this.snapped(px, py);
      this.cursor = [toNumber(x1), toNumber(x2)];
      this.hooks.add(x1, x2);
    }
  }

  moveEvent(e) {
    const [px, py] = this.local(e);
    if (this.drag) {
      if (!this.drag.moved && Math.hypot(px - this.drag.x0, py - this.drag.y0) < 4) return;
      this.drag.moved = true;
      const [x1, x2] = this.snapped(px, py), p = this.points[this.drag.i];
      if (p.x[0] === x1 && p.x[1] === x2) return;
      this.hooks.move(this.drag.i, x1, x2, false);
      return;
    }
    if (e.pointerType === "mouse") this.setHover(this.hit(px, py));
  }

  up(e) {
    if (!this.drag) return;
    const d = this.drag;
    this.drag = null;
    if (this.canvas.hasPointerCapture(e.pointerId)) this.canvas.releasePointerCapture(e.pointerId);
    if (d.moved) {
      const p = this.points[d.i];
      this.hooks.move(d.i, p.x[0], p.x[1], true);
    }
    // A tap on a point (no drag) shows what a hover shows: a tablet has no hover.
    this.setHover(d.i);
    this.cursor = [toNumber(this.points[d.i].x[0]), toNumber(this.points[d.i].x[1])];
    this.announce();
  }

  context(e) {
    e.preventDefault();
    const [px, py] = this.local(e), i = this.hit(px, py);
    if (i >= 0) this.hooks.remove(i);
  }

  // at is the point under the keyboard's cursor, or -1.
  at() {
    const [px, py] = this.toScreen(this.cursor);
    return this.hit(px, py);
  }

  key(e) {
    const step = this.hooks.snap() * (e.shiftKey ? 5 : 1);
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    let handled = true;
    if (moves[e.key]) {
      const [dx, dy] = moves[e.key];
      this.cursor = [this.cursor[0] + dx, this.cursor[1] + dy].map((v) => toNumber(numberText(v, this.hooks.snap())));
      if (this.carry >= 0) this.hooks.move(this.carry, ...this.cursor.map((v) => numberText(v, this.hooks.snap())), true);
      if (!this.inCursorView()) { this.view.cx = this.cursor[0]; this.view.cy = this.cursor[1]; }
    } else if (e.key === "Enter") {
      if (this.carry >= 0) this.carry = -1;
      else this.hooks.add(...this.cursor.map((v) => numberText(v, this.hooks.snap())));
    } else if (e.key === " ") {
      this.carry = this.carry >= 0 ? -1 : this.at();
    } else if (e.key === "Delete" || e.key === "Backspace") {
      const i = this.at();
      if (i >= 0) { this.carry = -1; this.hooks.remove(i); }
    } else if (e.key === "]" || e.key === "[") {
      const n = this.points.length;
      if (n) {
        const cur = this.at();
        const i = cur < 0 ? (e.key === "]" ? 0 : n - 1) : (cur + (e.key === "]" ? 1 : n - 1)) % n;
        this.cursor = [toNumber(this.points[i].x[0]), toNumber(this.points[i].x[1])];
      }
    } else if (e.key === "+" || e.key === "-" || /^[1-4]$/.test(e.key)) {
      const K = this.classes;
      if (K <= 2) {
        if (e.key === "+" || e.key === "1") this.hooks.setClass(1);
        else if (e.key === "-" || e.key === "2") this.hooks.setClass(-1);
        else handled = false;
      } else if (/^[1-4]$/.test(e.key) && Number(e.key) <= K) this.hooks.setClass(Number(e.key) - 1);
      else handled = false;
    } else handled = false;
    if (handled) {
      e.preventDefault();
      this.hover = this.at();
      this.announce();
      this.draw();
    }
  }

  inCursorView() {
    const [x, y] = this.toScreen(this.cursor);
    return x > 0 && y > 0 && x < this.w && y < this.h;
  }

  setHover(i) {
    if (i === this.hover && (i < 0 || !this.tooltip.hidden)) return;
    this.hover = i;
    if (i >= 0) this.showTip(i); else this.tooltip.hidden = true;
    this.draw();
  }

  // describe says what a point is and where it stands: its coordinates, class, g(x)/|w|.
  describe(i) {
    const p = this.points[i], sp = this.state && this.state.points && this.state.points[i];
    const vars = { n: i + 1, x1: p.x[0], x2: p.x[1], y: labelText(p.label, this.classes) };
    if (!sp || sp.dist === null || sp.dist === undefined) return t("pointNoDist", vars);
    return t(sp.met ? "pointDistMet" : "pointDistNotMet", Object.assign(vars, { g: number(sp.g), d: number(sp.dist) }));
  }

  showTip(i) {
    const [x, y] = this.pos(i);
    this.tooltip.textContent = this.describe(i);
    this.tooltip.hidden = false;
    this.tooltip.style.left = `${Math.min(x + 14, (this.w || 0) - 40)}px`;
    this.tooltip.style.top = `${y + 14}px`;
    this.hooks.info(this.describe(i));
  }

  // announce tells a screen reader (and shows under the canvas) where the cursor is and what
  // is under it.
  announce() {
    const i = this.at();
    const where = t("cursorAt", { x1: numberText(this.cursor[0], this.hooks.snap()), x2: numberText(this.cursor[1], this.hooks.snap()) });
    const carry = this.carry >= 0 ? " " + t("carrying", { n: this.carry + 1 }) : "";
    this.hooks.info(i >= 0 ? `${where}: ${this.describe(i)}${carry}` : where + carry);
  }

  draw() {
    const ctx = this.canvas.getContext("2d");
    if (!ctx || !this.w) return;
    const dpr = this.canvas.width / this.w, k = this.scale;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, this.w, this.h);
    const st = this.state;
    if (st && st.regions) this.drawRegions(ctx, st.regions);
    else if (st && st.boundary && st.boundary.ok) this.drawSides(ctx, st.boundary);
    this.drawGrid(ctx, k);
    // K classes: each discriminant's line, in its class's colour where it has one.
    for (const [i, u] of ((st && st.units) || []).entries()) {
      if (u.boundary && u.boundary.ok) this.line(ctx, u.boundary, colors[i % colors.length], 1.5 * k, [6 * k, 4 * k]);
    }
    // The pocket's weights, beside the rule's own.
    if (st && st.pocket && st.pocket.boundary && st.pocket.boundary.ok) this.line(ctx, st.pocket.boundary, "#d17a00", 2.5 * k, [9 * k, 5 * k]);
    if (st && st.boundary && st.boundary.ok && !st.regions) this.drawBoundary(ctx, st.boundary, k);
    this.drawPoints(ctx, k);
    if (this.focused) this.drawCursor(ctx, k);
    this.drawLegend(ctx, k);
  }

  // drawLegend names the lines drawn, bottom left.
  drawLegend(ctx, k) {
    const st = this.state, items = [];
    if (st && st.boundary && st.boundary.ok && !st.regions) items.push(["#111", [], t("legendBoundary")]);
    if (st && st.pocket && st.pocket.boundary && st.pocket.boundary.ok) items.push(["#d17a00", [9, 5], t("legendPocket")]);
    for (const [i, u] of ((st && st.units) || []).entries()) items.push([colors[i % colors.length], [6, 4], u.name]);
    if (st && st.regions) items.push(["#dcdcdc", null, t("legendAmbiguous")], ["#9a9a9a", null, t("legendNoClass")]);
    if (!items.length) return;
    ctx.font = `${12 * k}px system-ui, sans-serif`;
    const lh = 17 * k, w = Math.max(...items.map((it) => ctx.measureText(it[2]).width)) + 44 * k;
    const x = 8, y = this.h - 8 - items.length * lh - 6;
    ctx.fillStyle = "rgba(255,255,255,0.88)";
    ctx.fillRect(x, y, w, items.length * lh + 6);
    items.forEach(([color, dash, name], i) => {
      const yy = y + 3 + i * lh + lh / 2;
      if (dash === null) {
        ctx.fillStyle = color;
        ctx.fillRect(x + 6, yy - 5 * k, 24 * k, 10 * k);
      } else {
        ctx.strokeStyle = color;
        ctx.lineWidth = 2.5 * k;
        ctx.setLineDash(dash.map((d) => d * k));
        ctx.beginPath(); ctx.moveTo(x + 6, yy); ctx.lineTo(x + 30 * k, yy); ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.fillStyle = "#222";
      ctx.fillText(name, x + 36 * k, yy + 4 * k);
    });
  }

  drawRegions(ctx, g) {
    const K = this.classes;
    const img = regionImage(g.cols, g.rows, g.class || g.cells || [], (v) => (v < K ? light[v % light.length] : v === K ? "#dcdcdc" : "#9a9a9a"));
    const [x0, y0] = this.toScreen([g.xmin, g.ymax]), [x1, y1] = this.toScreen([g.xmax, g.ymin]);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(img, x0, y0, x1 - x0, y1 - y0);
  }

  // drawSides shades the side where g(x) > 0 (the class +1) and the side where g(x) < 0.
  drawSides(ctx, b) {
    const rect = this.world();
    for (const [sign, k] of [[1, 0], [-1, 1]]) {
      const poly = clip(rect, sign * b.a, sign * b.b, sign * b.c);
      if (poly.length < 3) continue;
      ctx.fillStyle = light[k];
      ctx.beginPath();
      poly.forEach((p, i) => { const [x, y] = this.toScreen(p); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
      ctx.fill();
    }
  }

  drawGrid(ctx, k) {
    const [[x0, y0], , [x1, y1]] = this.world();
    const step = niceStep(Math.max(x1 - x0, y1 - y0), 10);
    ctx.lineWidth = 1;
    ctx.font = `${12 * k}px system-ui, sans-serif`;
    ctx.fillStyle = "#555";
    for (let x = Math.ceil(x0 / step) * step; x <= x1; x += step) {
      const [px] = this.toScreen([x, 0]);
      ctx.strokeStyle = Math.abs(x) < step / 2 ? "#444" : "#e3e3e3";
      ctx.beginPath(); ctx.moveTo(px, 0); ctx.lineTo(px, this.h); ctx.stroke();
      if (Math.abs(x) > step / 2) ctx.fillText(number(x, 3), px + 2, this.toScreen([0, 0])[1] + 13 * k);
    }
    for (let y = Math.ceil(y0 / step) * step; y <= y1; y += step) {
      const [, py] = this.toScreen([0, y]);
      ctx.strokeStyle = Math.abs(y) < step / 2 ? "#444" : "#e3e3e3";
      ctx.beginPath(); ctx.moveTo(0, py); ctx.lineTo(this.w, py); ctx.stroke();
      if (Math.abs(y) > step / 2) ctx.fillText(number(y, 3), this.toScreen([0, 0])[0] + 3, py - 3);
    }
    ctx.fillStyle = "#222";
    ctx.font = `italic ${14 * k}px system-ui, sans-serif`;
    ctx.fillText("x1", this.w - 22 * k, this.toScreen([0, 0])[1] - 6);
    ctx.fillText("x2", this.toScreen([0, 0])[0] + 30 * k, 16 * k);
  }

  // line draws a x1 + b x2 + c = 0 where it crosses the frame.
  line(ctx, b, color, width, dash) {
    const rect = this.world(), pts = [];
    for (let i = 0; i < 4; i++) {
      const p = rect[i], q = rect[(i + 1) % 4];
      const fp = b.a * p[0] + b.b * p[1] + b.c, fq = b.a * q[0] + b.b * q[1] + b.c;
      if (fp === 0) pts.push(p);
      else if ((fp > 0) !== (fq > 0) && fq !== 0) {
        const s = fp / (fp - fq);
        pts.push([p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])]);
      }
    }
    if (pts.length < 2) return;
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.setLineDash(dash || []);
    ctx.beginPath();
    ctx.moveTo(...this.toScreen(pts[0]));
    ctx.lineTo(...this.toScreen(pts[1]));
    ctx.stroke();
    ctx.setLineDash([]);
  }

  drawBoundary(ctx, b, k) {
    const n = Math.hypot(b.a, b.b);
    this.line(ctx, b, "#111", 2.5 * k);
    // w, normal to the line, from the foot of the perpendicular from the origin, which is
    // -w0/|w| along w's direction.
    const u = [b.a / n, b.b / n], off = b.offset;
    const foot = [u[0] * off, u[1] * off];
    const [ox, oy] = this.toScreen([0, 0]), [fx, fy] = this.toScreen(foot);
    ctx.setLineDash([5 * k, 4 * k]);
    ctx.strokeStyle = "#666";
    ctx.lineWidth = 1.5 * k;
    ctx.beginPath(); ctx.moveTo(ox, oy); ctx.lineTo(fx, fy); ctx.stroke();
    ctx.setLineDash([]);
    const len = 70 * k, tx = fx + u[0] * len, ty = fy - u[1] * len;
    ctx.strokeStyle = "#0b6e4f";
    ctx.fillStyle = "#0b6e4f";
    ctx.lineWidth = 3 * k;
    ctx.beginPath(); ctx.moveTo(fx, fy); ctx.lineTo(tx, ty); ctx.stroke();
    const ang = Math.atan2(ty - fy, tx - fx), hl = 12 * k;
    ctx.beginPath();
    ctx.moveTo(tx, ty);
    ctx.lineTo(tx - hl * Math.cos(ang - 0.4), ty - hl * Math.sin(ang - 0.4));
    ctx.lineTo(tx - hl * Math.cos(ang + 0.4), ty - hl * Math.sin(ang + 0.4));
    ctx.fill();
    ctx.font = `bold italic ${16 * k}px system-ui, sans-serif`;
    ctx.fillText("w", tx + 6 * k, ty - 4 * k);
    // -w0/|w| beside the foot, on the far side from w's arrow.
    ctx.font = `${13 * k}px system-ui, sans-serif`;
    const label = `−w0/|w| = ${number(off)}`, tw = ctx.measureText(label).width;
    const lx = fx - u[0] * 18 * k - (u[0] > 0 ? tw : 0), ly = fy + u[1] * 18 * k + (u[1] < 0 ? 12 * k : 0);
    ctx.fillStyle = "rgba(255,255,255,0.85)";
    ctx.fillRect(lx - 2, ly - 12 * k, tw + 4, 16 * k);
    ctx.fillStyle = "#222";
    ctx.fillText(label, lx, ly);
  }

  drawPoints(ctx, k) {
    const sp = (this.state && this.state.points) || [];
    const many = this.points.length > 150; // a cloud: smaller marks, no numbers
    const r = (many ? 4 : 7) * k;
    ctx.font = `${11 * k}px system-ui, sans-serif`;
    this.points.forEach((p, i) => {
      const [x, y] = this.pos(i), c = classIndex(p.label, this.classes);
      const s = sp[i];
      if (s && s.met === false) {
        ctx.strokeStyle = "#e08a00";
        ctx.lineWidth = (many ? 1.5 : 3) * k;
        ctx.beginPath(); ctx.arc(x, y, r + (many ? 2 : 5) * k, 0, 2 * Math.PI); ctx.stroke();
      }
      marker(ctx, c, x, y, r);
      ctx.fillStyle = colors[c % colors.length];
      ctx.fill();
      ctx.strokeStyle = "#fff";
      ctx.lineWidth = 1.5 * k;
      ctx.stroke();
      if (i === this.hover || i === this.carry) {
        ctx.strokeStyle = "#000";
        ctx.lineWidth = 2 * k;
        ctx.beginPath(); ctx.arc(x, y, r + 9 * k, 0, 2 * Math.PI); ctx.stroke();
      }
      if (many) return;
      ctx.fillStyle = "#222";
      ctx.fillText(String(i + 1), x + r + 2, y - r - 1);
    });
  }

  drawCursor(ctx, k) {
    const [x, y] = this.toScreen(this.cursor), r = 12 * k;
    ctx.strokeStyle = "#000";
    ctx.lineWidth = 2 * k;
    ctx.beginPath();
    ctx.moveTo(x - r, y); ctx.lineTo(x - 4, y); ctx.moveTo(x + 4, y); ctx.lineTo(x + r, y);
    ctx.moveTo(x, y - r); ctx.lineTo(x, y - 4); ctx.moveTo(x, y + 4); ctx.lineTo(x, y + r);
    ctx.stroke();
    const c = this.hooks.currentClass();
    marker(ctx, classIndex(c, this.classes), x + r + 6 * k, y - r - 2 * k, 4 * k);
    ctx.fillStyle = colors[classIndex(c, this.classes) % colors.length];
    ctx.fill();
  }
}
