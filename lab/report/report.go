// Package report gathers what one lab run or experiment measured: its conditions, the
// historical figures beside the measured ones, tables and figures, and writes them as text for a
// terminal, as JSON, and each table as CSV. Package lab/report/folder writes a report as a
// folder a student can put in a report: an HTML page (index.html) that shows everything, each
// table as CSV, each figure as a PNG with its data as CSV, and the whole report as report.json.
// This package draws nothing and writes no files, so that the browser's build of the lab
// carries neither gonum/plot nor fonts.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mark1-perceptron/mark1/lab/plot"
)

// Item is a labelled value: a condition of a run.
type Item struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// How near a historical figure's source stands to the event (Finding.Kind).
const (
	// Primary: written at the time by those who did the work or saw it (a laboratory report, a
	// paper, a manual, a photograph's caption, a newspaper of the day).
	Primary = "primary"
	// Secondary: written later from primary sources (a history, a textbook, a recollection).
	Secondary = "secondary"
	// Tertiary: an encyclopedia article or a summary whose own source is not known.
	Tertiary = "tertiary"
	// Unverified: a figure that has been repeated without a source anyone here could find.
	Unverified = "unverified"
	// Assumed: no source; the emulator's assumption.
	Assumed = "assumed"
)

// SourceKinds are the kinds a Finding may give, nearest the event first.
var SourceKinds = []string{Primary, Secondary, Tertiary, Unverified, Assumed}

// Finding sets a figure history reports beside the one the emulator measured.
type Finding struct {
	What     string  `json:"what"`
	Record   string  `json:"record"`   // the figure as reported, in the record's words
	Source   string  `json:"source"`   // where it is reported
	Kind     string  `json:"kind"`     // how near the source stands: one of SourceKinds
	Measured string  `json:"measured"` // the emulator's figure, with its conditions
	Value    float64 `json:"value"`    // the measured number (an accuracy, a count)
	Gap      string  `json:"gap"`      // why the two differ, or that they agree
}

// Table is a table of text cells.
type Table struct {
	Name    string     `json:"name"` // file stem: NAME.csv
	Title   string     `json:"title"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	Note    string     `json:"note,omitempty"`
}

// AddRow appends a row, formatting each cell with fmt's %v (floats as %.4g).
func (t *Table) AddRow(cells ...any) {
	row := make([]string, len(cells))
	for i, c := range cells {
		switch v := c.(type) {
		case float64:
			row[i] = fmt.Sprintf("%.4g", v)
		default:
			row[i] = fmt.Sprint(v)
		}
	}
	t.Rows = append(t.Rows, row)
}

// Check holds a figure of a quick run (mark1 experiment NAME --quick, mark1 lab DEMO --quick)
// within a band: what a working machine gives under the quick run's fixed conditions, and what
// a broken one (a machine that never learns, a measurement that counts the wrong thing) falls
// outside. The tests hold every check of every quick run in its band.
type Check struct {
	What   string  `json:"what"`
	Value  float64 `json:"value"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Broken string  `json:"broken,omitempty"` // what a broken machine gives instead
}

// Within reports whether the value lies in the band, ends included.
func (c Check) Within() bool { return c.Value >= c.Min && c.Value <= c.Max }

// Report is everything one run measured.
type Report struct {
	Name       string         `json:"name"`
	Title      string         `json:"title"`
	Command    string         `json:"command,omitempty"`
	Summary    string         `json:"summary,omitempty"`
	Conditions []Item         `json:"conditions,omitempty"`
	Findings   []Finding      `json:"findings,omitempty"`
	Tables     []*Table       `json:"tables,omitempty"`
	Figures    []*plot.Figure `json:"-"`
	Notes      []string       `json:"notes,omitempty"`
	// Checks are the quick run's figures and their bands (empty for other runs).
	Checks []Check `json:"checks,omitempty"`
	// Seconds is the run's wall-clock time: the one number that differs from run to run.
	Seconds float64 `json:"seconds"`
	// Data holds the run's results for programs (the JSON output), as the run defines them.
	Data any `json:"data,omitempty"`
}

// Condition appends a condition.
func (r *Report) Condition(label string, value any) {
	r.Conditions = append(r.Conditions, Item{label, fmt.Sprint(value)})
}

// figureJSON is what the JSON report says of a figure: where its picture and data are.
type figureJSON struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Caption string `json:"caption,omitempty"`
	PNG     string `json:"png"`
	CSV     string `json:"csv"`
}

// MarshalJSON writes the report with its figures named (their data are in their CSV files).
func (r *Report) MarshalJSON() ([]byte, error) {
	type plain Report
	var figs []figureJSON
	for _, f := range r.Figures {
		figs = append(figs, figureJSON{f.Name, f.Title, f.Caption, f.Name + ".png", f.Name + ".csv"})
	}
	return json.Marshal(struct {
		*plain
		Figures []figureJSON `json:"figures,omitempty"`
	}{(*plain)(r), figs})
}

// LineWidth is the most columns a line of WriteText takes: every paragraph, condition and
// table is wrapped or split to fit a terminal (the CSV files and the HTML page hold every table
// whole).
const LineWidth = 80

// WriteText writes the report for a terminal: conditions, findings, tables and notes (figures
// are named; --out writes them). No line is wider than LineWidth.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	title := wrap(r.Title, LineWidth, "")
	underline := 0
	for _, l := range strings.Split(title, "\n") {
		underline = max(underline, utf8.RuneCountInString(l))
	}
	fmt.Fprintf(&b, "%s\n%s\n", title, strings.Repeat("=", underline))
	if r.Summary != "" {
		b.WriteString(wrap(r.Summary, LineWidth, "") + "\n")
	}
	if len(r.Conditions) > 0 {
		b.WriteString("\nconditions:\n")
		width := 0
		for _, c := range r.Conditions {
			width = max(width, utf8.RuneCountInString(c.Label))
		}
		// A value wraps under itself; labels too long to leave it 40 columns put it below.
		indent := 2 + width + 2
		for _, c := range r.Conditions {
			if LineWidth-indent < 40 {
				fmt.Fprintf(&b, "  %s\n      %s\n", c.Label, wrap(c.Value, LineWidth-6, "      "))
				continue
			}
			fmt.Fprintf(&b, "  %-*s  %s\n", width, c.Label, wrap(c.Value, LineWidth-indent, strings.Repeat(" ", indent)))
		}
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "\n%s\n", wrap(f.What, LineWidth, ""))
		fmt.Fprintf(&b, "  record:   %s\n", wrap(f.Record+" ("+f.cited()+")", LineWidth-12, "            "))
		fmt.Fprintf(&b, "  measured: %s\n", wrap(f.Measured, LineWidth-12, "            "))
		fmt.Fprintf(&b, "  gap:      %s\n", wrap(f.Gap, LineWidth-12, "            "))
	}
	for _, t := range r.Tables {
		fmt.Fprintf(&b, "\n%s\n", wrap(t.Title, LineWidth, ""))
		writeTable(&b, t)
		if t.Note != "" {
			fmt.Fprintf(&b, "  %s\n", wrap(t.Note, LineWidth-2, "  "))
		}
	}
	if len(r.Figures) > 0 {
		var names []string
		for _, f := range r.Figures {
			names = append(names, f.Name+".png")
		}
		fmt.Fprintf(&b, "\n%s\n", wrap("figures (written with --out): "+strings.Join(names, ", "), LineWidth-2, "  "))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\nnote: %s\n", wrap(n, LineWidth-6, "      "))
	}
	if t := r.ChecksTable(); t != nil {
		fmt.Fprintf(&b, "\n%s\n", wrap(t.Title, LineWidth, ""))
		writeTable(&b, t)
		fmt.Fprintf(&b, "  %s\n", wrap(t.Note, LineWidth-2, "  "))
	}
	if r.Seconds > 0 {
		fmt.Fprintf(&b, "\nrun time: %.1f s\n", r.Seconds)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cited names the source and its kind: "Rosenblatt 1958; primary".
func (f Finding) cited() string {
	if f.Kind == "" {
		return f.Source
	}
	return f.Source + "; " + f.Kind
}

// ChecksTable returns the checks as a table (nil when there are none).
func (r *Report) ChecksTable() *Table {
	if len(r.Checks) == 0 {
		return nil
	}
	t := &Table{Name: "checks", Title: "Quick-run checks: each figure and the band a working machine keeps it in",
		Columns: []string{"within", "measured", "band", "figure (and what a broken machine gives)"},
		Note:    "The tests run the quick run and hold every figure in its band; a machine that never learns, or a measurement of the wrong thing, falls outside it."}
	for _, c := range r.Checks {
		within := "yes"
		if !c.Within() {
			within = "NO"
		}
		what := c.What
		if c.Broken != "" {
			what += " (broken: " + c.Broken + ")"
		}
		t.AddRow(within, strconv.FormatFloat(c.Value, 'g', 4, 64), strconv.FormatFloat(c.Min, 'g', 4, 64)+" to "+strconv.FormatFloat(c.Max, 'g', 4, 64), what)
	}
	return t
}

// NumericColumns reports, for each column, whether every cell in it that is not empty looks
// like a number (such columns are aligned to the right).
func (t *Table) NumericColumns() []bool {
	num := make([]bool, len(t.Columns))
	for i := range num {
		num[i] = i > 0 // the first column names the row
	}
	for _, row := range t.Rows {
		for i, c := range row {
			if i < len(num) && c != "" && c != "-" && !numeric(c) {
				num[i] = false
			}
		}
	}
	return num
}

// Headings are wrapped only in tables wider than tableWidth, and never below headerWidth; text
// cells are wrapped only in tables still too wide, and never below cellWidth.
const (
	tableWidth  = LineWidth
	headerWidth = 12
	cellWidth   = 24
)

// writeTable writes t with its columns aligned, numbers to the right, in lines of at most
// tableWidth columns where it can. A table too wide is first made narrower by wrapping its
// headings over several lines (a heading longer than its column's cells and than headerWidth),
// then by wrapping its text cells (the widest first, to no narrower than cellWidth), and a table
// still too wide is split into blocks of columns, one below the other, each starting with the
// first column (the rows' names).
func writeTable(b *strings.Builder, t *Table) {
	num := t.NumericColumns()
	n := len(t.Columns)
	cellW := make([]int, n) // the widest cell of each column
	minW := make([]int, n)  // the longest word of each column, headings included
	for i, c := range t.Columns {
		minW[i] = longestWord(c)
	}
	for _, row := range t.Rows {
		for i, c := range row {
			if i < n {
				cellW[i] = max(cellW[i], utf8.RuneCountInString(c))
				minW[i] = max(minW[i], longestWord(c))
			}
		}
	}
	total := func(w []int) int {
		sum := 1
		for _, x := range w {
			sum += 1 + x
		}
		return sum
	}
	// 1. The headings on one line.
	width := make([]int, n)
	for i, c := range t.Columns {
		width[i] = max(cellW[i], utf8.RuneCountInString(c))
	}
	// 2. Long headings wrapped.
	if total(width) > tableWidth {
		for i, c := range t.Columns {
			width[i] = max(cellW[i], min(utf8.RuneCountInString(c), headerWidth), minW[i])
		}
	}
	// 3. Text cells wrapped, the widest column first.
	for total(width) > tableWidth {
		widest := -1
		for i := 1; i < n; i++ {
			if !num[i] && width[i] > max(cellWidth, minW[i]) && (widest < 0 || width[i] > width[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		width[widest] = max(width[widest]-(total(width)-tableWidth), cellWidth, minW[widest])
	}
	// 4. Blocks of columns.
	blocks := [][]int{{}}
	for i := range n {
		cur := blocks[len(blocks)-1]
		if i > 0 && len(cur) > 1 {
			w := []int{}
			for _, j := range append(cur, i) {
				w = append(w, width[j])
			}
			if total(w) > tableWidth {
				blocks = append(blocks, []int{0})
				cur = blocks[len(blocks)-1]
			}
		}
		blocks[len(blocks)-1] = append(cur, i)
	}
	for k, cols := range blocks {
		if k > 0 {
			b.WriteString("\n  (continued: more columns of the same rows)\n")
		}
		writeBlock(b, t, cols, width, num)
	}
}

// writeBlock writes the columns cols of t at the widths given, wrapping each heading and cell
// to its column's width: headings sit on their last lines, next to the cells, and the lines of
// a cell go down from its row's first.
func writeBlock(b *strings.Builder, t *Table, cols []int, width []int, num []bool) {
	line := func(cells []string) {
		var l strings.Builder
		l.WriteString(" ")
		for k, i := range cols {
			c := cells[k]
			pad := strings.Repeat(" ", max(width[i]-utf8.RuneCountInString(c), 0))
			if num[i] {
				l.WriteString(" " + pad + c)
			} else {
				l.WriteString(" " + c + pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	// lines writes a row of wrapped cells, bottom-aligned (headings) or top-aligned (cells).
	lines := func(texts []string, bottom bool) {
		parts := make([][]string, len(cols))
		rows := 1
		for k, i := range cols {
			parts[k] = []string{""}
			if k < len(texts) && texts[k] != "" {
				parts[k] = strings.Split(wrap(texts[k], width[i], ""), "\n")
			}
			rows = max(rows, len(parts[k]))
		}
		for r := range rows {
			cells := make([]string, len(cols))
			for k, p := range parts {
				j := r
				if bottom {
					j = r - (rows - len(p))
				}
				if j >= 0 && j < len(p) {
					cells[k] = p[j]
				}
			}
			line(cells)
		}
	}
	pick := func(row []string) []string {
		out := make([]string, len(cols))
		for k, i := range cols {
			if i < len(row) {
				out[k] = row[i]
			}
		}
		return out
	}
	lines(pick(t.Columns), true)
	for _, row := range t.Rows {
		lines(pick(row), false)
	}
}

// longestWord returns the length of the longest word of s, in runes.
func longestWord(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		n = max(n, utf8.RuneCountInString(w))
	}
	return n
}

// numeric reports whether a cell looks like a number (to be aligned right).
func numeric(s string) bool {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "-"), "%")
	if s == "" {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && c != '.' && c != 'e' && c != '+' && c != '-' {
			return false
		}
	}
	return true
}

// wrap breaks s into lines of at most width runes, every line after the first starting with
// indent.
func wrap(s string, width int, indent string) string {
	var out, line strings.Builder
	for _, word := range strings.Fields(s) {
		if line.Len() > 0 && utf8.RuneCountInString(line.String())+1+utf8.RuneCountInString(word) > width {
			out.WriteString(line.String() + "\n" + indent)
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteString(" ")
		}
		line.WriteString(word)
	}
	out.WriteString(line.String())
	return out.String()
}

// csvCell reads a cell that is a number, a percentage, or either with a range in brackets
// ("97.5% (95.0-99.0%)", "7 (3-9)"); "-" stands for none.
var csvCell = regexp.MustCompile(`^([-+]?[0-9.]+(?:e[-+]?[0-9]+)?)(%?)(?: \((-?[0-9.]+)%?-(-?[0-9.]+)(%?)\))?$`)

// CSV returns the table as a spreadsheet wants it: numbers as numbers. A column of percentages
// ("12.5%") holds the numbers, its heading ending in "(%)"; a column whose cells carry a range
// in brackets (a median and its range over machines: "97.5% (95.0-99.0%)") becomes three, the
// value, its lowest and its highest; "-" becomes an empty cell. Other columns are as they are.
func (t *Table) CSV() (columns []string, rows [][]string) {
	n := len(t.Columns)
	pct, ranged, num := make([]bool, n), make([]bool, n), make([]bool, n)
	for i := 1; i < n; i++ {
		num[i], pct[i] = true, true
		seen := false
		for _, row := range t.Rows {
			if i >= len(row) || row[i] == "-" || row[i] == "" {
				continue
			}
			m := csvCell.FindStringSubmatch(row[i])
			if m == nil {
				num[i] = false
				break
			}
			seen = true
			pct[i] = pct[i] && m[2] == "%"
			ranged[i] = ranged[i] || m[3] != ""
		}
		num[i] = num[i] && seen
	}
	for i, c := range t.Columns {
		switch {
		case !num[i]:
			columns = append(columns, c)
		case ranged[i] && pct[i]:
			columns = append(columns, c+" (%)", c+": lowest (%)", c+": highest (%)")
		case ranged[i]:
			columns = append(columns, c, c+": lowest", c+": highest")
		case pct[i]:
			columns = append(columns, c+" (%)")
		default:
			columns = append(columns, c)
		}
	}
	for _, row := range t.Rows {
		var out []string
		for i, c := range row {
			if i >= n || !num[i] {
				out = append(out, c)
				continue
			}
			m := csvCell.FindStringSubmatch(c)
			v, lo, hi := "", "", ""
			if m != nil {
				v, lo, hi = m[1], m[3], m[4]
				if lo == "" {
					lo, hi = v, v
				}
			}
			out = append(out, v)
			if ranged[i] {
				out = append(out, lo, hi)
			}
		}
		rows = append(rows, out)
	}
	return columns, rows
}

// WriteCSV writes the table as CSV (see CSV), its columns as the header.
func (t *Table) WriteCSV(w io.Writer) error {
	var b bytes.Buffer
	columns, body := t.CSV()
	rows := append([][]string{columns}, body...)
	for _, row := range rows {
		for i, c := range row {
			if i > 0 {
				b.WriteByte(',')
			}
			if strings.ContainsAny(c, ",\"\n\r") || strings.TrimSpace(c) != c {
				c = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
			}
			b.WriteString(c)
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}
