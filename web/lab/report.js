// A report of the lab (report.Report's JSON, with its figures' data) as HTML: its title,
// summary and conditions, its tables as HTML tables (the strings as the lab wrote them), its
// figures drawn on canvas, its findings, notes and checks.

import { t, number } from "./i18n.js";
import { figure } from "./charts.js";
import { download } from "./util.js";

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k) e.append(k);
  return e;
}

// table makes an HTML table of columns and rows (strings), with a caption.
export function table(columns, rows, caption) {
  const tab = el("table", { class: "data" });
  if (caption) tab.append(el("caption", { text: caption }));
  const head = el("tr");
  for (const c of columns) head.append(el("th", { scope: "col", text: c }));
  tab.append(el("thead", {}, head));
  const body = el("tbody");
  for (const r of rows) {
    const tr = el("tr");
    for (const c of r) tr.append(el("td", { text: String(c) }));
    body.append(tr);
  }
  tab.append(body);
  return tab;
}

// csv writes columns and rows as CSV text (quoted where a cell needs it).
export function csv(columns, rows) {
  const cell = (s) => (/[",\n]/.test(String(s)) ? `"${String(s).replace(/"/g, '""')}"` : String(s));
  return [columns, ...rows].map((r) => r.map(cell).join(",")).join("\n") + "\n";
}

// render replaces root's contents with the report.
export function render(root, report) {
  root.replaceChildren();
  root.append(el("h2", { text: report.title || report.name }));
  if (report.summary) root.append(el("p", { class: "summary", text: report.summary }));
  if (report.conditions && report.conditions.length) {
    const dl = el("dl", { class: "conditions" });
    for (const c of report.conditions) dl.append(el("dt", { text: c.label }), el("dd", { text: c.value }));
    root.append(dl);
  }
  if (report.findings && report.findings.length) {
    root.append(table([t("fWhat"), t("fRecord"), t("fSource"), t("fKind"), t("fMeasured"), t("fGap")],
      report.findings.map((f) => [f.what, f.record, f.source, f.kind, f.measured, f.gap]), t("findings")));
  }
  for (const tb of report.tables || []) {
    const sec = el("section", { class: "report-table" });
    const tab = table(tb.columns, tb.rows, tb.title);
    tab.dataset.table = tb.name || "";
    const wrap = el("div", { class: "table-scroll", tabindex: "0" }, tab);
    const save = el("button", { class: "small", text: t("tableCsv") });
    save.addEventListener("click", () => download(`${tb.name || "table"}.csv`, csv(tb.columns, tb.rows), "text/csv"));
    sec.append(wrap);
    if (tb.note) sec.append(el("p", { class: "help", text: tb.note }));
    sec.append(save);
    root.append(sec);
  }
  const figs = el("div", { class: "figures" });
  if ((report.figures || []).length) root.append(figs);
  for (const f of report.figures || []) {
    const canvas = el("canvas", { role: "img", "aria-label": f.title || f.name || "" });
    const fig = el("figure", { class: "report-figure" }, canvas);
    if (f.caption) fig.append(el("figcaption", { text: f.caption }));
    const save = el("button", { class: "small", text: t("png") });
    save.addEventListener("click", () => canvas.toBlob((b) => download(`${f.name || "figure"}.png`, b, "image/png")));
    fig.append(save);
    figs.append(fig);
    requestAnimationFrame(() => figure(canvas, f));
  }
  if (report.notes && report.notes.length) {
    const ul = el("ul", { class: "notes" });
    for (const n of report.notes) ul.append(el("li", { text: n }));
    root.append(ul);
  }
  if (report.checks && report.checks.length) {
    root.append(table([t("cWhat"), t("cValue"), t("cBand")],
      report.checks.map((c) => [c.what, number(c.value), `${number(c.min)} … ${number(c.max)}`]), t("checks")));
  }
}
