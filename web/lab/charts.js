// Small charts on canvas: line charts with axes, a stack of them sharing an x axis (the four
// criteria), and the figures of the lab's reports (lines and points, boundaries, regions, heat
// maps, bars) drawn from their data. Drawing only: every number comes from the lab's code.

import { number } from "./i18n.js";
import { niceStep, marker, regionImage, tint } from "./plane.js";

export const palette = ["#1d5fbf", "#c62f2a", "#23843a", "#8a3fb0", "#d17a00", "#00838f", "#6d4c41", "#555555"];

let textScale = 1;

// setScale makes text and lines larger (a projector) or as usual (1).
export function setScale(k) {
  textScale = k;
}

const redraws = new Map();
const widths = new Map(); // each canvas's CSS width, as the observer last saw it (no layout to ask it)
const observer = new ResizeObserver((entries) => {
  for (const e of entries) {
    const was = widths.get(e.target);
    widths.set(e.target, e.contentRect.width);
    const f = redraws.get(e.target);
    if (f && was !== e.contentRect.width) f();
  }
});

// prepare sizes a canvas to its box (height = width x aspect, CSS pixels), remembers how to
// draw it again when the box changes, and returns its context and size.
function prepare(canvas, aspect, redraw) {
  if (!redraws.has(canvas)) observer.observe(canvas);
  redraws.set(canvas, redraw);
  const w = widths.get(canvas) || canvas.clientWidth || 400, h = Math.round(w * aspect), dpr = window.devicePixelRatio || 1;
  canvas.style.height = `${h}px`;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, w, h);
  return { ctx, w, h };
}

function font(px, style = "") {
  return `${style} ${Math.round(px * textScale)}px system-ui, sans-serif`;
}

function finite(v) {
  return typeof v === "number" && Number.isFinite(v);
}

// range is [lo, hi] over the finite values of arrays, widened when flat.
function range(arrays, log) {
  let lo = Infinity, hi = -Infinity;
  for (const a of arrays) for (const v of a || []) if (finite(v) && (!log || v > 0)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (lo === Infinity) return [0, 1];
  if (lo === hi) return log ? [lo / 2, hi * 2] : [lo - (Math.abs(lo) || 1) * 0.5, hi + (Math.abs(hi) || 1) * 0.5];
  return [lo, hi];
}

// axes draws a frame with ticks in box {x, y, w, h} over xr, yr and returns the mapping.
function axes(ctx, box, xr, yr, opt = {}) {
  const lx = (v) => (opt.logx ? Math.log10(v) : v), ly = (v) => (opt.logy ? Math.log10(v) : v);
  const [ax, bx] = [lx(xr[0]), lx(xr[1])], [ay, by] = [ly(yr[0]), ly(yr[1])];
  const X = (v) => box.x + ((lx(v) - ax) / (bx - ax || 1)) * box.w;
  const Y = (v) => box.y + box.h - ((ly(v) - ay) / (by - ay || 1)) * box.h;
  ctx.strokeStyle = "#888";
  ctx.lineWidth = 1;
  ctx.strokeRect(box.x, box.y, box.w, box.h);
  ctx.font = font(11);
  ctx.fillStyle = "#444";
  const ticks = (a, b, log, n) => {
    if (log) {
      const out = [];
      for (let e = Math.floor(a); e <= Math.ceil(b); e++) out.push(Math.pow(10, e));
      return out.filter((v) => Math.log10(v) >= a - 1e-9 && Math.log10(v) <= b + 1e-9);
    }
    const s = niceStep(b - a || 1, n), out = [];
    for (let v = Math.ceil(a / s) * s; v <= b + s * 1e-9; v += s) out.push(Math.abs(v) < s * 1e-9 ? 0 : v);
    return out;
  };
  ctx.textAlign = "center";
  for (const v of ticks(ax, bx, opt.logx, Math.max(2, box.w / 70))) {
    const x = X(v);
    ctx.strokeStyle = "#eee";
    ctx.beginPath(); ctx.moveTo(x, box.y); ctx.lineTo(x, box.y + box.h); ctx.stroke();
    if (!opt.noXLabels) ctx.fillText(number(v, 3), x, box.y + box.h + 13 * textScale);
  }
  ctx.textAlign = "right";
  for (const v of ticks(ay, by, opt.logy, Math.max(2, box.h / 45))) {
    const y = Y(v);
    ctx.strokeStyle = "#eee";
    ctx.beginPath(); ctx.moveTo(box.x, y); ctx.lineTo(box.x + box.w, y); ctx.stroke();
    ctx.fillText(number(v, 3), box.x - 4, y + 4);
  }
  ctx.textAlign = "left";
  ctx.strokeStyle = "#888";
  ctx.strokeRect(box.x, box.y, box.w, box.h);
  return { X, Y };
}

function polyline(ctx, X, Y, xs, ys, color, width, dash) {
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash || []);
  ctx.beginPath();
  let pen = false;
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    if (!finite(xs[i]) || !finite(ys[i])) { pen = false; continue; }
    if (pen) ctx.lineTo(X(xs[i]), Y(ys[i])); else ctx.moveTo(X(xs[i]), Y(ys[i]));
    pen = true;
  }
  ctx.stroke();
  ctx.setLineDash([]);
}

// stack draws panels [{name, y: [...], value}] one above another over the same x, each with
// its own y scale, and a mark at x = mark when given (the current w on a line).
export function stack(canvas, x, panels, opt = {}) {
  const redraw = () => stack(canvas, x, panels, opt);
  const { ctx, w, h } = prepare(canvas, opt.aspect || 0.62, redraw);
  const left = 54 * textScale, right = 8, top = 6, bottom = 26 * textScale;
  const ph = (h - top - bottom) / panels.length;
  const xr = x.length ? range([x]) : [0, 1];
  panels.forEach((p, i) => {
    const box = { x: left, y: top + i * ph + 2, w: w - left - right, h: ph - 6 };
    const yr = range([p.y]);
    yr[0] = Math.min(yr[0], 0);
    const { X, Y } = axes(ctx, box, xr, yr, { noXLabels: i < panels.length - 1 });
    if (opt.mark !== undefined) {
      ctx.strokeStyle = "#999";
      ctx.setLineDash([3, 3]);
      ctx.beginPath(); ctx.moveTo(X(opt.mark), box.y); ctx.lineTo(X(opt.mark), box.y + box.h); ctx.stroke();
      ctx.setLineDash([]);
    }
    polyline(ctx, X, Y, x, p.y, palette[i % palette.length], 2 * textScale);
    if (opt.dots && x.length < 80) {
      ctx.fillStyle = palette[i % palette.length];
      x.forEach((xv, j) => { if (finite(p.y[j])) { ctx.beginPath(); ctx.arc(X(xv), Y(p.y[j]), 2.5 * textScale, 0, 7); ctx.fill(); } });
    }
    ctx.font = font(12, "bold");
    const label = p.value !== undefined ? `${p.name} = ${p.value}` : p.name;
    ctx.fillStyle = "rgba(255,255,255,0.85)";
    ctx.fillRect(box.x + 3, box.y + 2, ctx.measureText(label).width + 6, 16 * textScale);
    ctx.fillStyle = palette[i % palette.length];
    ctx.fillText(label, box.x + 6, box.y + 14 * textScale);
  });
  ctx.font = font(11);
  ctx.fillStyle = "#333";
  ctx.textAlign = "center";
  ctx.fillText(opt.xlabel || "", left + (w - left - right) / 2, h - 3);
  ctx.textAlign = "left";
}

// weightSpace draws the plane (w1, w2) at the fixed w0: each sample's half-plane of the
// weights that meet it, their intersection (the solution region, shaded) and the path of w.
// halfPlanes are {a, b, c}: the weights with a w1 + b w2 + c > 0.
export function weightSpace(canvas, ws, clipFn, labels) {
  const redraw = () => weightSpace(canvas, ws, clipFn, labels);
  const { ctx, w, h } = prepare(canvas, 0.8, redraw);
  const path = ws.path || [], hp = ws.halfPlanes || [];
  const xs = [0, ...path.map((p) => p[0])], ys = [0, ...path.map((p) => p[1])];
  let [x0, x1] = range([xs]), [y0, y1] = range([ys]);
  const pad = Math.max(x1 - x0, y1 - y0, 2) * 0.35;
  x0 -= pad; x1 += pad; y0 -= pad; y1 += pad;
  // Equal scales: widen the narrower span.
  const box = { x: 44 * textScale, y: 8, w: w - 52 * textScale, h: h - 36 * textScale };
  const sx = (x1 - x0) / box.w, sy = (y1 - y0) / box.h;
  if (sx > sy) { const m = (y0 + y1) / 2, half = (sx * box.h) / 2; y0 = m - half; y1 = m + half; } else { const m = (x0 + x1) / 2, half = (sy * box.w) / 2; x0 = m - half; x1 = m + half; }
  const { X, Y } = axes(ctx, box, [x0, x1], [y0, y1]);
  ctx.save();
  ctx.beginPath(); ctx.rect(box.x, box.y, box.w, box.h); ctx.clip();
  let region = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  for (const p of hp) region = clipFn(region, p.a, p.b, p.c);
  if (region.length >= 3 && hp.length) {
    ctx.fillStyle = "rgba(35,132,58,0.25)";
    ctx.beginPath();
    region.forEach((p, i) => (i ? ctx.lineTo(X(p[0]), Y(p[1])) : ctx.moveTo(X(p[0]), Y(p[1]))));
    ctx.fill();
  }
  ctx.strokeStyle = "#aaa";
  ctx.lineWidth = 1;
  for (const p of hp) {
    // a w1 + b w2 + c = 0 across the box.
    const seg = [];
    if (Math.abs(p.b) > 1e-12) for (const x of [x0, x1]) seg.push([x, -(p.a * x + p.c) / p.b]);
    else if (Math.abs(p.a) > 1e-12) for (const y of [y0, y1]) seg.push([-(p.b * y + p.c) / p.a, y]);
    if (seg.length === 2) { ctx.beginPath(); ctx.moveTo(X(seg[0][0]), Y(seg[0][1])); ctx.lineTo(X(seg[1][0]), Y(seg[1][1])); ctx.stroke(); }
  }
  polyline(ctx, X, Y, path.map((p) => p[0]), path.map((p) => p[1]), "#1d5fbf", 2 * textScale);
  ctx.fillStyle = "#1d5fbf";
  path.forEach((p, i) => {
    ctx.beginPath();
    ctx.arc(X(p[0]), Y(p[1]), (i === path.length - 1 ? 5 : 2.5) * textScale, 0, 7);
    ctx.fill();
  });
  ctx.restore();
  ctx.font = font(11, "italic");
  ctx.fillStyle = "#333";
  ctx.fillText(labels.x, box.x + box.w - 20 * textScale, box.y + box.h + 24 * textScale);
  ctx.fillText(labels.y, 4, box.y + 12);
}

// lower gives an object's keys in lower case, all the way down (the report's JSON may name a
// figure's fields XLabel or xlabel).
export function lower(v) {
  if (Array.isArray(v)) return v.map(lower);
  if (v && typeof v === "object") {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k.toLowerCase()] = lower(x);
    return out;
  }
  return v;
}

// figure draws one figure of a report (its data: series, boundaries, regions, heat maps or
// bars) into canvas.
export function figure(canvas, fig) {
  const f = lower(fig);
  if (f.grids && f.grids.length) return heatMaps(canvas, f);
  if (f.bars && f.bars.length) return bars(canvas, f);
  const redraw = () => figure(canvas, fig);
  const plane = f.regions || (f.boundaries && f.boundaries.length) || f.equal;
  const { ctx, w, h } = prepare(canvas, plane ? 0.8 : 0.6, redraw);
  const series = f.series || [];
  const legendW = series.length || (f.boundaries || []).length ? Math.min(200 * textScale, w * 0.3) : 0;
  const box = { x: 56 * textScale, y: 28 * textScale, w: w - 56 * textScale - 12 - legendW, h: h - 64 * textScale };
  let xr = range(series.map((s) => s.x), f.logx), yr = range(series.map((s) => s.y), f.logy);
  if (f.regions) { xr = [f.regions.xmin, f.regions.xmax]; yr = [f.regions.ymin, f.regions.ymax]; }
  if (f.ymax > f.ymin) yr = [f.ymin, f.ymax];
  if (plane) {
    const sx = (xr[1] - xr[0]) / box.w, sy = (yr[1] - yr[0]) / box.h;
    if (sx > sy) { const m = (yr[0] + yr[1]) / 2, half = (sx * box.h) / 2; yr = [m - half, m + half]; } else { const m = (xr[0] + xr[1]) / 2, half = (sy * box.w) / 2; xr = [m - half, m + half]; }
  }
  const { X, Y } = axes(ctx, box, xr, yr, { logx: f.logx, logy: f.logy });
  ctx.save();
  ctx.beginPath(); ctx.rect(box.x, box.y, box.w, box.h); ctx.clip();
  if (f.regions) drawRegions(ctx, f.regions, X, Y);
  for (const [i, b] of (f.boundaries || []).entries()) {
    const [a, bb, c] = b.w;
    const seg = [];
    if (Math.abs(bb) > 1e-12) for (const x of xr) seg.push([x, -(a * x + c) / bb]);
    else if (Math.abs(a) > 1e-12) for (const y of yr) seg.push([-c / a, y]);
    const k = (b.style || i + 1) - 1;
    if (seg.length === 2) polyline(ctx, X, Y, seg.map((p) => p[0]), seg.map((p) => p[1]), palette[k % palette.length], 2 * textScale, b.solid || k === 0 ? [] : [6, 4]);
  }
  series.forEach((s, i) => {
    const k = (s.style || i + 1) - 1, color = s.reference ? "#999" : palette[k % palette.length];
    if (s.points) {
      ctx.fillStyle = color;
      for (let j = 0; j < Math.min(s.x.length, s.y.length); j++) {
        if (!finite(s.x[j]) || !finite(s.y[j])) continue;
        marker(ctx, k, X(s.x[j]), Y(s.y[j]), 4 * textScale);
        ctx.fill();
      }
    } else {
      polyline(ctx, X, Y, s.x, s.y, color, (s.reference ? 1 : 2) * textScale, s.dashed || s.reference ? [6, 4] : []);
      const n = Math.min(s.x.length, s.y.length);
      if (s.arrow && n >= 2) arrowHead(ctx, X(s.x[n - 2]), Y(s.y[n - 2]), X(s.x[n - 1]), Y(s.y[n - 1]), color);
    }
  });
  ctx.restore();
  title(ctx, f, w, h, box);
  legend(ctx, [...series.map((s, i) => ({ name: s.name, k: (s.style || i + 1) - 1, points: s.points, ref: s.reference, dashed: s.dashed })),
    ...(f.boundaries || []).map((b, i) => ({ name: b.name, k: (b.style || i + 1) - 1, dashed: !(b.solid || (b.style || i + 1) === 1) }))],
  box.x + box.w + 10, box.y);
}

function arrowHead(ctx, x0, y0, x1, y1, color) {
  const a = Math.atan2(y1 - y0, x1 - x0), l = 11 * textScale;
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - l * Math.cos(a - 0.4), y1 - l * Math.sin(a - 0.4));
  ctx.lineTo(x1 - l * Math.cos(a + 0.4), y1 - l * Math.sin(a + 0.4));
  ctx.fill();
}

function drawRegions(ctx, g, X, Y) {
  const img = regionImage(g.cols, g.rows, g.class || g.cells || [], (v) => {
    if (g.grey > 0 && v >= g.grey) {
      const shade = Math.max(120, 215 - 45 * (v - g.grey));
      return `rgb(${shade},${shade},${shade})`;
    }
    return tint(palette[v % palette.length], 0.2);
  });
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(img, X(g.xmin), Y(g.ymax), X(g.xmax) - X(g.xmin), Y(g.ymin) - Y(g.ymax));
}

function title(ctx, f, w, h, box) {
  ctx.fillStyle = "#111";
  ctx.font = font(14, "bold");
  ctx.fillText(f.title || "", box.x, 18 * textScale);
  ctx.font = font(12);
  ctx.textAlign = "center";
  ctx.fillText(f.xlabel || "", box.x + box.w / 2, h - 8);
  ctx.save();
  ctx.translate(14 * textScale, box.y + box.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(f.ylabel || "", 0, 0);
  ctx.restore();
  ctx.textAlign = "left";
}

function legend(ctx, entries, x, y) {
  ctx.font = font(12);
  entries.forEach((e, i) => {
    const yy = y + 8 + i * 18 * textScale, color = e.ref ? "#999" : palette[e.k % palette.length];
    if (e.points) { marker(ctx, e.k, x + 10, yy, 4 * textScale); ctx.fillStyle = color; ctx.fill(); } else {
      ctx.strokeStyle = color;
      ctx.lineWidth = 2 * textScale;
      ctx.setLineDash(e.dashed || e.ref ? [6, 4] : []);
      ctx.beginPath(); ctx.moveTo(x, yy); ctx.lineTo(x + 20, yy); ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.fillStyle = "#222";
    ctx.fillText(e.name || "", x + 26, yy + 4);
  });
}

function heatMaps(canvas, f) {
  const redraw = () => heatMaps(canvas, f);
  const n = f.grids.length, per = Math.min(n, 4), rows = Math.ceil(n / per);
  const { ctx, w } = prepare(canvas, (rows * 1.15) / per + 0.08, redraw);
  const cell = (w - 16) / per;
  ctx.fillStyle = "#111";
  ctx.font = font(14, "bold");
  ctx.fillText(f.title || "", 8, 16 * textScale);
  f.grids.forEach((g, i) => {
    const gx = 8 + (i % per) * cell, gy = 26 * textScale + Math.floor(i / per) * cell * 1.15;
    const side = cell - 12, m = Math.max(1e-12, ...g.values.filter(finite).map((v) => Math.abs(v)));
    const cw = side / g.cols, chh = side / g.rows;
    for (let r = 0; r < g.rows; r++) {
      for (let c = 0; c < g.cols; c++) {
        const raw = g.values[r * g.cols + c], v = raw / m;
        const s = Math.round(255 * (1 - Math.abs(v)));
        ctx.fillStyle = !finite(raw) ? "#bbb" : v >= 0 ? `rgb(255,${s},${s})` : `rgb(${s},${s},255)`;
        ctx.fillRect(gx + c * cw, gy + 16 * textScale + r * chh, cw + 0.5, chh + 0.5);
      }
    }
    ctx.fillStyle = "#222";
    ctx.font = font(12);
    ctx.fillText(g.title || "", gx, gy + 12 * textScale);
  });
}

function bars(canvas, f) {
  const redraw = () => bars(canvas, f);
  const { ctx, w, h } = prepare(canvas, 0.6, redraw);
  const box = { x: 56 * textScale, y: 28 * textScale, w: w - 70 * textScale, h: h - 90 * textScale };
  const vals = f.bars.map((b) => b.value), yr = range([vals]);
  yr[0] = Math.min(0, yr[0]);
  const { Y } = axes(ctx, box, [0, 1], yr, { noXLabels: true });
  const bw = box.w / f.bars.length;
  f.bars.forEach((b, i) => {
    ctx.fillStyle = palette[i % palette.length];
    const y0 = Y(0), y1 = Y(b.value);
    ctx.fillRect(box.x + i * bw + bw * 0.15, Math.min(y0, y1), bw * 0.7, Math.abs(y1 - y0));
    ctx.save();
    ctx.translate(box.x + i * bw + bw / 2, box.y + box.h + 8);
    ctx.rotate(Math.PI / 6);
    ctx.fillStyle = "#222";
    ctx.font = font(11);
    ctx.fillText(b.label, 0, 0);
    ctx.restore();
  });
  title(ctx, f, w, h, box);
}
