package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/experiment"
)

// The figures the "*Observe:*" paragraphs of worksheets 1 to 8 quote, each tied to the words
// that quote it and to where its command's report (or the files it wrote) holds it. The
// worksheet test (TestLabWorksheets) runs each worksheet's commands and then checkFigures: every
// figure must be within its rounding of what the command measured, the words must be in the
// worksheet, and every number of those Observe paragraphs must be among the words of some
// figure. A figure that changes, in the program or in the worksheet, fails the test.

// labReport is the part of a report's JSON the figures read.
type labReport struct {
	Conditions []struct{ Label, Value string } `json:"conditions"`
	Findings   []struct {
		What, Measured, Gap string
		Value               float64
	} `json:"findings"`
	Tables []struct {
		Name    string
		Columns []string
		Rows    [][]string
	} `json:"tables"`
	Notes []string        `json:"notes"`
	Data  json.RawMessage `json:"data"`
}

// observed is what one worksheet command left: its report and the folder it ran in.
type observed struct {
	dir string
	r   labReport
}

// figure is one number an Observe paragraph quotes. got reads what the command measured in the
// unit the worksheet writes (a percentage as 13.9, not 0.139); the worksheet's figure is want,
// and the two may differ by at most tol (0 for a count, 0.5 for "about 14%" written from 13.9).
// A claim without a number ("both reach zero training error") is a figure too, got returning 1
// when it holds.
type figure struct {
	file string // the worksheet, "01-perceptron.md"
	cmd  string // the command that measured it, as the worksheet writes it without "mark1 "
	says string // the words of the Observe paragraph that quote it (lines and spaces joined)
	got  func(o *observed) (float64, error)
	want float64
	tol  float64
}

// cell reads a number from a table: the row whose first cells are key (several joined by "|"),
// the column named col.
func (o *observed) cell(table, key, col string) (float64, error) {
	s, err := o.text(table, key, col)
	if err != nil {
		return 0, err
	}
	return number(s)
}

// text returns a table's cell as written.
func (o *observed) text(table, key, col string) (string, error) {
	keys := strings.Split(key, "|")
	for _, t := range o.r.Tables {
		if t.Name != table {
			continue
		}
		c := slices.Index(t.Columns, col)
		if c < 0 {
			return "", fmt.Errorf("table %s has no column %q (%q)", table, col, t.Columns)
		}
		for _, row := range t.Rows {
			if len(row) > c && len(row) >= len(keys) && slices.Equal(row[:len(keys)], keys) {
				return row[c], nil
			}
		}
		return "", fmt.Errorf("table %s has no row %q", table, key)
	}
	return "", fmt.Errorf("no table %s", table)
}

var leadingNumber = regexp.MustCompile(`^-?\+?[\d,]*\.?\d+(e[-+]?\d+)?`)

// number reads the number a cell starts with: "61", "13.9%", "+5.5", "9 of 50", "1,000".
func number(s string) (float64, error) {
	m := leadingNumber.FindString(strings.TrimSpace(s))
	if m == "" {
		return 0, fmt.Errorf("no number in %q", s)
	}
	return strconv.ParseFloat(strings.NewReplacer(",", "", "+", "").Replace(m), 64)
}

// measured reads a number out of a finding's measured text (or its gap) with a pattern whose
// first group is the number.
func (o *observed) measured(pattern string) (float64, error) {
	re := regexp.MustCompile(pattern)
	for _, f := range o.r.Findings {
		for _, s := range []string{f.Measured, f.Gap} {
			if m := re.FindStringSubmatch(strings.Join(strings.Fields(s), " ")); m != nil {
				return number(m[1])
			}
		}
	}
	return 0, fmt.Errorf("no finding matches %s", pattern)
}

// condition reports 1 when a condition of the run says what.
func (o *observed) condition(label, what string) (float64, error) {
	for _, c := range o.r.Conditions {
		if c.Label == label {
			if strings.Contains(c.Value, what) {
				return 1, nil
			}
			return 0, fmt.Errorf("condition %s is %q", label, c.Value)
		}
	}
	return 0, fmt.Errorf("no condition %s", label)
}

// dataMedian is the median of a field of the report's data rows (mark1 lab novikoff's).
func (o *observed) dataMedian(field string) (float64, error) {
	var rows []map[string]any
	if err := json.Unmarshal(o.r.Data, &rows); err != nil {
		return 0, err
	}
	var v []float64
	for _, r := range rows {
		x, ok := r[field].(float64)
		if !ok {
			return 0, fmt.Errorf("data row without %s", field)
		}
		v = append(v, x)
	}
	slices.Sort(v)
	n := len(v)
	if n == 0 {
		return 0, fmt.Errorf("no data")
	}
	return (v[(n-1)/2] + v[n/2]) / 2, nil
}

// grid reads a heat map's CSV (grid,row,col,value) from the command's --out folder: the values
// of the first grid, or of the grid named.
func (o *observed) grid(path, name string) ([20][20]float64, error) {
	var g [20][20]float64
	f, err := os.Open(filepath.Join(o.dir, path))
	if err != nil {
		return g, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) < 2 {
		return g, fmt.Errorf("%s: %v", path, err)
	}
	if name == "" {
		name = rows[1][0]
	}
	n := 0
	for _, r := range rows[1:] {
		if r[0] != name {
			continue
		}
		i, ei := strconv.Atoi(r[1])
		j, ej := strconv.Atoi(r[2])
		v, err := strconv.ParseFloat(r[3], 64)
		if err != nil || ei != nil || ej != nil || i < 0 || i >= 20 || j < 0 || j >= 20 {
			return g, fmt.Errorf("%s: %q", path, r)
		}
		g[i][j] = v
		n++
	}
	if n != 400 {
		return g, fmt.Errorf("%s: %d cells of %q", path, n, name)
	}
	return g, nil
}

func holds(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// cellOf and the others make figures' got functions of one line.
func cellOf(table, key, col string) func(*observed) (float64, error) {
	return func(o *observed) (float64, error) { return o.cell(table, key, col) }
}

func measuredOf(pattern string) func(*observed) (float64, error) {
	return func(o *observed) (float64, error) { return o.measured(pattern) }
}

func conditionOf(label, what string) func(*observed) (float64, error) {
	return func(o *observed) (float64, error) { return o.condition(label, what) }
}

// percentOf reads a fraction cell as a percentage.
func percentOf(table, key, col string) func(*observed) (float64, error) {
	return func(o *observed) (float64, error) {
		v, err := o.cell(table, key, col)
		return 100 * v, err
	}
}

var cellRange = regexp.MustCompile(`^(-?[\d.]+)%? \((-?[\d.]+)%?-(-?[\d.]+)%?\)$`)

// rangeOf reads a cell written as a median and its range, "12.0% (9.0-17.0%)": part 0 the
// median, 1 the lowest, 2 the highest.
func rangeOf(table, key, col string, part int) func(*observed) (float64, error) {
	return func(o *observed) (float64, error) {
		s, err := o.text(table, key, col)
		if err != nil {
			return 0, err
		}
		m := cellRange.FindStringSubmatch(s)
		if m == nil {
			return 0, fmt.Errorf("%s %s %s is %q, not a median and its range", table, key, col, s)
		}
		return strconv.ParseFloat(m[1+part], 64)
	}
}

// noteHas reports 1 when a note of the report says what (lines and spaces joined).
func noteHas(what string) func(*observed) (float64, error) {
	return func(o *observed) (float64, error) {
		for _, n := range o.r.Notes {
			if strings.Contains(flat(n), what) {
				return 1, nil
			}
		}
		return 0, fmt.Errorf("no note says %q", what)
	}
}

// textIs reports 1 when a cell reads exactly so.
func textIs(table, key, col, want string) func(*observed) (float64, error) {
	return func(o *observed) (float64, error) {
		s, err := o.text(table, key, col)
		if err != nil {
			return 0, err
		}
		if s != want {
			return 0, fmt.Errorf("%s %s %s is %q, not %q", table, key, col, s, want)
		}
		return 1, nil
	}
}

const (
	w1 = "01-perceptron.md"
	w2 = "02-convergence.md"
	w3 = "03-nonseparable.md"
	w4 = "04-least-squares.md"
	w5 = "05-multiclass.md"
	w6 = "06-analog.md"
	w7 = "07-features.md"
	w8 = "08-history.md"

	efInOrder   = "lab compare --data builtin:ef --methods mark1,perceptron --in-order"
	efAll       = "lab compare --data builtin:ef --test gen:ef,n=200,seed=2,shift=5"
	efConst     = "lab compare --data builtin:ef --test gen:ef,n=200,seed=2,shift=5 --methods perceptron,variable --margin 5 --schedule const"
	efFolder    = "lab compare --data ef-cards --methods mark1,perceptron --in-order"
	novRandom   = "lab novikoff --problems 50 --points 50 --no-cards"
	novNarrow   = "lab novikoff --problems 50 --points 50 --no-cards --margin 0.02 --json > narrow.json"
	novWide     = "lab novikoff --problems 50 --points 50 --no-cards --margin 0.2 --json > wide.json"
	novCards    = "lab novikoff --problems 20 --out novikoff"
	nonsep      = "lab nonseparable --epochs 50 --cards 200 --out nonseparable"
	xorPocket   = "lab compare --data problem:xor --methods perceptron,pocket,lsq --epochs 30 --out xor"
	outliers    = "lab outliers --draws 5 --out outliers"
	blobs       = "lab compare --data problem:blobs,k=4 --methods perceptron/ovr,perceptron/ovo,perceptron/kdisc,lsq/ovr,lsq/ovo --out blobs"
	typefaces   = "lab compare --data builtin:letters --test builtin:letters2 --methods perceptron/ovr,perceptron/kdisc,lsq,mark1 --epochs 20"
	flaws       = "lab flaws --data builtin:ef --test gen:ef,n=200,seed=2,shift=5 --epochs 10 --seeds 5 --out flaws"
	forget      = "lab forget --data builtin:ef --hours 100,10000 --out forget"
	aunits      = "lab aunits --data gen:squares-circles,n=300 --test gen:squares-circles,n=300,seed=2 --epochs 10 --seeds 5 --out aunits"
	circle      = "lab circle --out circle"
	notesLSQ    = "lab lsq --point 1,5,+1 --point 2,4,+1 --point 6,5,-1 --point 7,4,-1"
	notesRidge  = notesLSQ + " --lambda 1"
	fieldsLR    = "lab fields --data builtin:leftright --out fields-leftright"
	fieldsEF    = "lab fields --data builtin:ef --wiring identity --out fields-ef"
	leftright   = "experiment leftright --quick --seeds 1 --out leftright"
	figure4     = "experiment figure4 --quick --out figure4"
	efHistory   = "experiment ef --quick --seeds 1"
	lettersHist = "experiment letters --quick --seeds 1"
)

// The letters' test errors, lowest and highest over the methods.
func typefaceErrors(lowest bool) func(*observed) (float64, error) {
	return func(o *observed) (float64, error) {
		var v []float64
		for _, m := range []string{"perceptron/ovr", "perceptron/kdisc", "lsq", "mark1"} {
			x, err := o.cell("runs", m, "test error")
			if err != nil {
				return 0, err
			}
			v = append(v, x)
		}
		if lowest {
			return slices.Min(v), nil
		}
		return slices.Max(v), nil
	}
}

var worksheetFigures = []figure{
	// Worksheet 1.
	{w1, efInOrder, "the same number of corrections (61)", cellOf("runs", "mark1", "corrections"), 61, 0},
	{w1, efInOrder, "the same number of corrections (61)", cellOf("runs", "perceptron", "corrections"), 61, 0},
	{w1, efInOrder, "the same epochs (5)", cellOf("runs", "mark1", "epochs"), 5, 0},
	{w1, efInOrder, "the same epochs (5)", cellOf("runs", "perceptron", "epochs"), 5, 0},
	{w1, efAll, "the online and batch perceptrons both reach zero training error", func(o *observed) (float64, error) {
		a, err := o.cell("runs", "perceptron", "training error")
		b, err2 := o.cell("runs", "batch", "training error")
		return holds(a == 0 && b == 0), errorsJoin(err, err2)
	}, 1, 0},
	{w1, efAll, "the batch rule makes many more corrections", func(o *observed) (float64, error) {
		a, err := o.cell("runs", "perceptron", "corrections")
		b, err2 := o.cell("runs", "batch", "corrections")
		return holds(b > 2*a), errorsJoin(err, err2)
	}, 1, 0},
	{w1, efAll, "(margin b = 1, eta(k) = 1/k)", conditionOf("variable increment", "margin b = 1, eta(k) = 1/k"), 1, 0},
	{w1, efAll, "has not converged after 50 epochs", cellOf("runs", "variable", "epochs"), 50, 0},
	{w1, efAll, "has not converged after 50 epochs", textIs("runs", "variable", "converged", "false"), 1, 0},
	{w1, efAll, "its steps shrink as 1/k", conditionOf("variable increment", "eta(k) = 1/k"), 1, 0},
	{w1, efConst, "with a constant increment and margin 5", conditionOf("variable increment", "margin b = 5, eta(k) = 1 (constant)"), 1, 0},
	{w1, efConst, "the rule converges after 5 epochs (64 corrections, 0.0% training error)", cellOf("runs", "variable", "epochs"), 5, 0},
	{w1, efConst, "the rule converges after 5 epochs (64 corrections, 0.0% training error)", cellOf("runs", "variable", "corrections"), 64, 0},
	{w1, efConst, "the rule converges after 5 epochs (64 corrections, 0.0% training error)", cellOf("runs", "variable", "training error"), 0, 0},
	{w1, efConst, "on the new cards it errs on 8.5%", cellOf("runs", "variable", "test error"), 8.5, 0},
	{w1, efConst, "the plain perceptron on 6.5%", cellOf("runs", "perceptron", "test error"), 6.5, 0},
	{w1, efFolder, "the same table as in part 1, 61 corrections in 5 epochs", cellOf("runs", "mark1", "corrections"), 61, 0},
	{w1, efFolder, "the same table as in part 1, 61 corrections in 5 epochs", cellOf("runs", "perceptron", "epochs"), 5, 0},

	// Worksheet 2.
	{w2, novRandom, "every one of the 50 problems stays within its bound", cellOf("summary", "50", "corrections within the bound"), 50, 0},
	{w2, novRandom, "a median of about 14% of the corrections", percentOf("summary", "50", "corrections / bound: median"), 14, 0.5},
	{w2, novRandom, "(between 6% and 21%)", percentOf("summary", "50", "smallest"), 6, 0.5},
	{w2, novRandom, "(between 6% and 21%)", percentOf("summary", "50", "largest"), 21, 0.5},
	{w2, novNarrow, "at least 0.02 from the plane", conditionOf("random problems", "nearer it than 0.02 dropped"), 1, 0},
	{w2, novNarrow, "the median problem takes about 33 corrections", func(o *observed) (float64, error) { return o.dataMedian("corrections") }, 33, 0.5},
	{w2, novNarrow, "under a median bound of about 264", func(o *observed) (float64, error) { return o.dataMedian("bound") }, 264, 0.5},
	{w2, novWide, "at 0.2, about 13 under about 71", conditionOf("random problems", "nearer it than 0.2 dropped"), 1, 0},
	{w2, novWide, "at 0.2, about 13 under about 71", func(o *observed) (float64, error) { return o.dataMedian("corrections") }, 13, 0.5},
	{w2, novWide, "at 0.2, about 13 under about 71", func(o *observed) (float64, error) { return o.dataMedian("bound") }, 71, 0.5},
	{w2, novCards, "E against F takes 61 corrections", cellOf("mark1", "builtin:ef", "corrections"), 61, 0},
	{w2, novCards, "against a bound of about 299", cellOf("mark1", "builtin:ef", "bound R^2/gamma^2"), 299, 0.5},
	{w2, novCards, "left against right only 4 against about 51", cellOf("mark1", "builtin:leftright", "corrections"), 4, 0},
	{w2, novCards, "left against right only 4 against about 51", cellOf("mark1", "builtin:leftright", "bound R^2/gamma^2"), 51, 0.5},

	// Worksheet 3.
	{w3, nonsep, "corrects in every one of the 50 epochs", textIs("nonseparable", "xor", "epochs with corrections", "50 of 50"), 1, 0},
	{w3, nonsep, "corrects in every one of the 50 epochs", textIs("nonseparable", "parity", "epochs with corrections", "50 of 50"), 1, 0},
	{w3, nonsep, "(on XOR between 36% and 63% over the last 25 epochs)", textIs("nonseparable", "xor", "perceptron: range over the last half", "36.0% to 63.0%"), 1, 0},
	{w3, nonsep, "(27% on XOR, 42% on parity)", cellOf("nonseparable", "xor", "pocket: final"), 27, 0.5},
	{w3, nonsep, "(27% on XOR, 42% on parity)", cellOf("nonseparable", "parity", "pocket: final"), 42, 0.5},
	{w3, nonsep, "the perceptron has not converged either after 50 epochs", textIs("nonseparable", "connected-pixels", "epochs with corrections", "50 of 50"), 1, 0},
	{w3, nonsep, "with a margin too narrow for 50 epochs", textIs("nonseparable", "connected-pixels", "epochs with corrections", "50 of 50"), 1, 0},
	{w3, nonsep, "(0.0% training error)", cellOf("nonseparable", "connected-pixels", "least squares"), 0, 0},
	{w3, nonsep, "these 200 cards are separable", cellOf("nonseparable", "connected-pixels", "samples"), 200, 0},
	{w3, nonsep, "the perceptron 49.5% wrong", cellOf("nonseparable", "connected-pixels", "test: perceptron"), 49.5, 0},
	{w3, nonsep, "the pocket 49.0%", cellOf("nonseparable", "connected-pixels", "test: pocket"), 49, 0},
	{w3, nonsep, "least squares 45.0%", cellOf("nonseparable", "connected-pixels", "test: least squares"), 45, 0},
	{w3, nonsep, "through 512 random A-units the 200 training cards", cellOf("nonseparable", "connected-aunits", "features"), 512, 0},
	{w3, nonsep, "through 512 random A-units the 200 training cards", cellOf("nonseparable", "connected-aunits", "samples"), 200, 0},
	{w3, nonsep, "(the perceptron converges after 9 epochs)", textIs("nonseparable", "connected-aunits", "epochs with corrections", "9 of 50"), 1, 0},
	{w3, nonsep, "about 38% of new cards are still answered wrong", cellOf("nonseparable", "connected-aunits", "test: perceptron"), 38, 0.5},
	{w3, xorPocket, "after 30 epochs the perceptron's last weights misclassify 50%", cellOf("runs", "perceptron", "training error"), 50, 0},
	{w3, xorPocket, "after 30 epochs the perceptron's last weights misclassify 50%", cellOf("runs", "perceptron", "epochs"), 30, 0},
	{w3, xorPocket, "the pocket 27%", cellOf("runs", "pocket", "training error"), 27, 0},
	{w3, xorPocket, "least squares 50%", cellOf("runs", "lsq", "training error"), 50, 0},

	// Worksheet 4.
	{w4, notesLSQ, "the normal equations' first row is `1 (90, 71, 16) -10`", textIs("normal-equations", "1", "A^T A + lambda D, times (w1, w2, w0)", "(90, 71, 16)"), 1, 0},
	{w4, notesLSQ, "sum x1^2 = 90, sum x1 x2 = 71, sum x1 = 16 and sum x1 t = -10", func(o *observed) (float64, error) {
		a, err := o.text("normal-equations", "1", "A^T A + lambda D, times (w1, w2, w0)")
		b, err2 := o.cell("normal-equations", "1", "= A^T t")
		return holds(a == "(90, 71, 16)" && b == -10), errorsJoin(err, err2)
	}, 1, 0},
	{w4, notesLSQ, "The solution is w = (-0.4, -0.4), w0 = 3.4, as in the notes", textIs("solution", "0", "(w1, w2, w0)", "(-0.4, -0.4, 3.4)"), 1, 0},
	{w4, notesLSQ, "it fits every target exactly: E = 0", cellOf("solution", "0", "E"), 0, 0},
	{w4, notesRidge, "With the ridge term lambda = 1 the weights shrink to `(-20/53, -10/53, 125/53)`", textIs("solution", "1", "(w1, w2, w0)", "(-20/53, -10/53, 125/53)"), 1, 0},
	{w4, notesRidge, "|w|^2 falls from 0.32 to 500/2809", func(o *observed) (float64, error) {
		a, err := o.text("solution", "0", "|w|^2")
		b, err2 := o.text("solution", "1", "|w|^2")
		return holds(a == "0.32" && b == "500/2809"), errorsJoin(err, err2)
	}, 1, 0},
	{w4, notesRidge, "E rises from 0 to 136/2809", func(o *observed) (float64, error) {
		a, err := o.text("solution", "0", "E")
		b, err2 := o.text("solution", "1", "E")
		return holds(a == "0" && b == "136/2809"), errorsJoin(err, err2)
	}, 1, 0},
	{w4, notesRidge, "while every sample keeps its sign", cellOf("solution", "1", "training errors"), 0, 0},
	{w4, outliers, "least squares misclassifies about 3% of the ordinary samples", cellOf("outliers", "least squares", "with outliers"), 3, 0.5},
	{w4, outliers, "(worse in all 5 draws)", textIs("outliers", "least squares", "draws made worse by the outliers", "5 of 5"), 1, 0},
	{w4, outliers, "midway between the projected means about 10%", cellOf("outliers", "Fisher (midpoint threshold)", "with outliers"), 10, 0.5},
	{w4, outliers, "stay at 0%", cellOf("outliers", "perceptron", "with outliers"), 0, 0},
	{w4, outliers, "stay at 0%", cellOf("outliers", "pocket", "with outliers"), 0, 0},
	{w4, outliers, "stay at 0%", cellOf("outliers", "Fisher (best threshold)", "with outliers"), 0, 0},
	{w4, outliers, "(with a small penalty, 0.01/2 |w|^2", conditionOf("methods", "logistic regression (Newton's method, the penalty 0.01/2 |w|^2 on the weights)"), 1, 0},
	{w4, outliers, "stays at 0% too", cellOf("outliers", "logistic regression", "with outliers"), 0, 0},
	{w4, outliers, "least squares scores class +1's centre only `0.4443`", cellOf("probabilities", "class +1's centre", "least squares g(x)"), 0.4443, 0},
	{w4, outliers, "the outliers' centre `-1.657`", cellOf("probabilities", "the outliers' centre", "least squares g(x)"), -1.657, 0},
	{w4, outliers, "centre `0.9999`", cellOf("probabilities", "class +1's centre", "logistic P(+1 | x)"), 0.9999, 0},
	{w4, outliers, "the outliers' centre `1.83e-26`", cellOf("probabilities", "the outliers' centre", "logistic P(+1 | x)"), 1.83e-26, 0},

	// Worksheet 5.
	{w5, blobs, "(204, over 37 epochs)", cellOf("runs", "perceptron/ovr", "corrections"), 204, 0},
	{w5, blobs, "(204, over 37 epochs)", cellOf("runs", "perceptron/ovr", "epochs"), 37, 0},
	{w5, blobs, "one-vs-one (13)", cellOf("runs", "perceptron/ovo", "corrections"), 13, 0},
	{w5, blobs, "trained together (7)", cellOf("runs", "perceptron/kdisc", "corrections"), 7, 0},
	{w5, typefaces, "(0% training error)", cellOf("runs", "mark1", "training error"), 0, 0},
	{w5, typefaces, "(0% training error)", cellOf("runs", "perceptron/ovr", "training error"), 0, 0},
	{w5, typefaces, "recognises only 37% to 41% of the other typeface", func(o *observed) (float64, error) {
		e, err := typefaceErrors(false)(o)
		return 100 - e, err
	}, 37, 0.5},
	{w5, typefaces, "recognises only 37% to 41% of the other typeface", func(o *observed) (float64, error) {
		e, err := typefaceErrors(true)(o)
		return 100 - e, err
	}, 41, 0.5},
	{w5, typefaces, "(test errors from 59.1% to 63.0%)", typefaceErrors(true), 59.1, 0},
	{w5, typefaces, "(test errors from 59.1% to 63.0%)", typefaceErrors(false), 63, 0},

	// Worksheet 6.
	{w6, flaws, `(gamma, end stops, resolution, track drift, ratchet slip: "no effect here")`, func(o *observed) (float64, error) {
		n := 0
		for _, f := range []string{"gamma", "end_stops", "resolution", "track_drift", "ratchet_slip"} {
			if s, err := o.text("flaws", f, "note"); err != nil || s != "no effect here" {
				return 0, fmt.Errorf("%s: %q, %v", f, s, err)
			}
			n++
		}
		return float64(n), nil
	}, 5, 0},
	{w6, flaws, "over the 5 machines", conditionOf("machines per condition", "5 (seeds 1-5"), 1, 0},
	{w6, flaws, "the ideal machine errs on 12.0% (9.0-17.0%)", rangeOf("flaws", "ideal", "test error", 0), 12, 0},
	{w6, flaws, "the ideal machine errs on 12.0% (9.0-17.0%)", rangeOf("flaws", "ideal", "test error", 1), 9, 0},
	{w6, flaws, "the ideal machine errs on 12.0% (9.0-17.0%)", rangeOf("flaws", "ideal", "test error", 2), 17, 0},
	{w6, flaws, "with dark noise on 12.5% (11.5-14.5%)", rangeOf("flaws", "dark_noise", "test error", 0), 12.5, 0},
	{w6, flaws, "with dark noise on 12.5% (11.5-14.5%)", rangeOf("flaws", "dark_noise", "test error", 1), 11.5, 0},
	{w6, flaws, "with dark noise on 12.5% (11.5-14.5%)", rangeOf("flaws", "dark_noise", "test error", 2), 14.5, 0},
	{w6, flaws, "with wiper drift on 12.0% (11.0-14.0%)", rangeOf("flaws", "wiper_drift", "test error", 0), 12, 0},
	{w6, flaws, "with wiper drift on 12.0% (11.0-14.0%)", rangeOf("flaws", "wiper_drift", "test error", 1), 11, 0},
	{w6, flaws, "with wiper drift on 12.0% (11.0-14.0%)", rangeOf("flaws", "wiper_drift", "test error", 2), 14, 0},
	{w6, flaws, "with backlash on 9.0% (6.0-11.0%)", rangeOf("flaws", "backlash", "test error", 0), 9, 0},
	{w6, flaws, "with backlash on 9.0% (6.0-11.0%)", rangeOf("flaws", "backlash", "test error", 1), 6, 0},
	{w6, flaws, "with backlash on 9.0% (6.0-11.0%)", rangeOf("flaws", "backlash", "test error", 2), 11, 0},
	{w6, forget, "after 100 hours the pots have moved about half an increment (RMS)", cellOf("forget", "every flaw|100", "pot drift (RMS, increments)"), 0.5, 0.05},
	{w6, forget, "still knows its cards", cellOf("forget", "every flaw|100", "training error"), 0, 0},
	{w6, forget, "after 10,000 hours about 5 increments", cellOf("forget", "every flaw|10000", "pot drift (RMS, increments)"), 5, 0.5},
	{w6, forget, "it has forgotten about 18% of them", cellOf("forget", "every flaw|10000", "training error"), 18, 0.5},
	{w6, forget, "The ideal machine does not drift", cellOf("forget", "ideal|10000", "pot drift (RMS, increments)"), 0, 0},
	{w6, forget, "the track's drift alone changes nothing with a single R-unit", cellOf("forget", "track drift alone|10000", "training error"), 0, 0},

	// Worksheet 7.
	{w7, aunits, "separates the 300 training cards in none of the 5 runs", textIs("aunits", "pixels (identity wiring, 400)", "converged", "0 of 5"), 1, 0},
	{w7, aunits, "separates the 300 training cards in none of the 5 runs", conditionOf("training cards", "300 cards"), 1, 0},
	{w7, aunits, "(4.3% training error after 10 epochs, median; 2.0-7.3%)", rangeOf("aunits", "pixels (identity wiring, 400)", "training error", 0), 4.3, 0},
	{w7, aunits, "(4.3% training error after 10 epochs, median; 2.0-7.3%)", rangeOf("aunits", "pixels (identity wiring, 400)", "training error", 1), 2, 0},
	{w7, aunits, "(4.3% training error after 10 epochs, median; 2.0-7.3%)", rangeOf("aunits", "pixels (identity wiring, 400)", "training error", 2), 7.3, 0},
	{w7, aunits, "(4.3% training error after 10 epochs, median; 2.0-7.3%)", conditionOf("training", "10 epochs"), 1, 0},
	{w7, aunits, "errs on 16.7% (13.7-18.3%) of new cards", rangeOf("aunits", "pixels (identity wiring, 400)", "test error", 0), 16.7, 0},
	{w7, aunits, "errs on 16.7% (13.7-18.3%) of new cards", rangeOf("aunits", "pixels (identity wiring, 400)", "test error", 1), 13.7, 0},
	{w7, aunits, "errs on 16.7% (13.7-18.3%) of new cards", rangeOf("aunits", "pixels (identity wiring, 400)", "test error", 2), 18.3, 0},
	{w7, aunits, "with 512 A-units every wiring separates the training cards (0 of them wrong)", textIs("aunits", "512 random A-units", "converged", "5 of 5"), 1, 0},
	{w7, aunits, "with 512 A-units every wiring separates the training cards (0 of them wrong)", cellOf("aunits", "512 random A-units", "training error"), 0, 0},
	{w7, aunits, "the test error falls to 9.7% (8.3-14.7%)", rangeOf("aunits", "512 random A-units", "test error", 0), 9.7, 0},
	{w7, aunits, "the test error falls to 9.7% (8.3-14.7%)", rangeOf("aunits", "512 random A-units", "test error", 1), 8.3, 0},
	{w7, aunits, "the test error falls to 9.7% (8.3-14.7%)", rangeOf("aunits", "512 random A-units", "test error", 2), 14.7, 0},
	{w7, aunits, "with 4,096, to 7.3% (6.7-11.7%)", rangeOf("aunits", "4096 random A-units", "test error", 0), 7.3, 0},
	{w7, aunits, "with 4,096, to 7.3% (6.7-11.7%)", rangeOf("aunits", "4096 random A-units", "test error", 1), 6.7, 0},
	{w7, aunits, "with 4,096, to 7.3% (6.7-11.7%)", rangeOf("aunits", "4096 random A-units", "test error", 2), 11.7, 0},
	{w7, fieldsLR, "shows a blue patch left of the centre line and a red one right of it", func(o *observed) (float64, error) {
		g, err := o.grid("fields-leftright/receptive-fields.csv", "")
		left, right := 0.0, 0.0
		for i := range 20 {
			for j := range 20 {
				if j < 10 {
					left += g[i][j]
				} else {
					right += g[i][j]
				}
			}
		}
		return holds(left < 0 && right > 0), err
	}, 1, 0},
	{w7, fieldsEF, "the bottom bar, which only E has, is blue", func(o *observed) (float64, error) {
		f, err := o.grid("fields-ef/receptive-fields.csv", "")
		e, err2 := o.grid("fields-ef/class-means.csv", "E")
		fm, err3 := o.grid("fields-ef/class-means.csv", "F")
		if err := errorsJoin(err, err2, err3); err != nil {
			return 0, err
		}
		sum, n := 0.0, 0
		for i := 10; i < 20; i++ { // the lower half, where E's bottom bar lies
			for j := range 20 {
				if e[i][j]-fm[i][j] > 0.1 { // lit on E's cards more often than on F's
					sum += f[i][j]
					n++
				}
			}
		}
		return holds(n > 0 && sum < 0), nil
	}, 1, 0},

	{w7, aunits, "Every run on the pixels errs more than the median of 512 A-units", func(o *observed) (float64, error) {
		lo, err := rangeOf("aunits", "pixels (identity wiring, 400)", "test error", 1)(o)
		med, err2 := rangeOf("aunits", "512 random A-units", "test error", 0)(o)
		return holds(lo > med), errorsJoin(err, err2)
	}, 1, 0},
	{w7, aunits, "the ranges of 512 and 4,096 A-units overlap, so five wirings do not show that 4,096 are better", func(o *observed) (float64, error) {
		lo512, err := rangeOf("aunits", "512 random A-units", "test error", 1)(o)
		hi512, err2 := rangeOf("aunits", "512 random A-units", "test error", 2)(o)
		lo4096, err3 := rangeOf("aunits", "4096 random A-units", "test error", 1)(o)
		hi4096, err4 := rangeOf("aunits", "4096 random A-units", "test error", 2)(o)
		return holds(lo512 <= hi4096 && lo4096 <= hi512), errorsJoin(err, err2, err3, err4)
	}, 1, 0},
	{w7, circle, "on (x1, x2) the rule cycles (`the weights repeat epoch 7's`, after 255 updates in 12 epochs)", textIs("runs", "(x1, x2)", "end", "cycles: the weights repeat epoch 7's"), 1, 0},
	{w7, circle, "on (x1, x2) the rule cycles (`the weights repeat epoch 7's`, after 255 updates in 12 epochs)", cellOf("runs", "(x1, x2)", "updates"), 255, 0},
	{w7, circle, "on (x1, x2) the rule cycles (`the weights repeat epoch 7's`, after 255 updates in 12 epochs)", cellOf("runs", "(x1, x2)", "epochs"), 12, 0},
	{w7, circle, "On phi(x) it meets every point after 332 updates in 25 epochs", cellOf("runs", "(x1^2, x1 x2, x2^2)", "updates"), 332, 0},
	{w7, circle, "On phi(x) it meets every point after 332 updates in 25 epochs", cellOf("runs", "(x1^2, x1 x2, x2^2)", "epochs"), 25, 0},
	{w7, circle, "On phi(x) it meets every point after 332 updates in 25 epochs", textIs("runs", "(x1^2, x1 x2, x2^2)", "end", "every point met"), 1, 0},
	{w7, circle, "`w = (-13, 5, -10, 214)`", noteHas("the rule ends at w = (-13, 5, -10, 214)"), 1, 0},
	{w7, circle, "`-13 x1^2 + 5 x1 x2 - 10 x2^2 + 214 > 0`, an ellipse", noteHas("-13 x1^2 + 5 x1 x2 - 10 x2^2 + 214 > 0, the inside of an ellipse"), 1, 0},
	{w7, circle, "The 100 random units separate the points too, in 34 updates over 4 epochs", cellOf("runs", "100 random units", "updates"), 34, 0},
	{w7, circle, "The 100 random units separate the points too, in 34 updates over 4 epochs", cellOf("runs", "100 random units", "epochs"), 4, 0},
	{w7, circle, "The 100 random units separate the points too, in 34 updates over 4 epochs", textIs("runs", "100 random units", "end", "every point met"), 1, 0},

	// Worksheet 8.
	{w8, leftright, "the ideal machine's last training mistake comes at trial 10", cellOf("leftright", "ideal", "last training mistake at trial"), 10, 0},
	{w8, leftright, "the analog machine's at 13", cellOf("leftright", "analog", "last training mistake at trial"), 13, 0},
	{w8, leftright, "both have 100 of 100 test cards right after 40 trials", cellOf("leftright", "ideal", "after 40"), 100, 0},
	{w8, leftright, "both have 100 of 100 test cards right after 40 trials", cellOf("leftright", "analog", "after 40"), 100, 0},
	{w8, leftright, "climbs past 97 well within 40 trials", func(o *observed) (float64, error) {
		v, err := o.cell("leftright", "ideal", "first trial with >= 97 right")
		return holds(v < 40), err
	}, 1, 0},
	{w8, figure4, "within 2.8 standard errors", measuredOf(`within ([\d.]+) standard errors`), 2.8, 0},
	{w8, figure4, "two kinds of unit that fire equally often at R = 0.5", measuredOf(`fire as often at R = ([\d.]+)`), 0.5, 0},
	{w8, figure4, "by Rosenblatt's binomial formula P_a grows 2566 times from R = 0.1 to 0.5 for (x, y, theta) = (10, 0, 6)", measuredOf(`\(theory (\d+) and [\d.]+\)`), 2566, 0},
	{w8, figure4, "by Rosenblatt's binomial formula P_a grows 2566 times from R = 0.1 to 0.5 for (x, y, theta) = (10, 0, 6)", measuredOf(`from R = ([\d.]+) to 0.5 P_a grows`), 0.1, 0},
	{w8, figure4, "(3470 times by the exact count on 400 cells)", func(*observed) (float64, error) {
		return experiment.ActivityExact(10, 0, 6, 400, 200) / experiment.ActivityExact(10, 0, 6, 400, 40), nil
	}, 3470, 0.5},
	{w8, figure4, "and only 1.40 times for (5, 5, 1)", measuredOf(`\(theory \d+ and ([\d.]+)\)`), 1.40, 0},
	{w8, figure4, "The quick run measures 1.42 for the second and 5492 for the first, a noisy figure", measuredOf(`and ([\d.]+) times for \(5, 5, 1\)`), 1.42, 0},
	{w8, figure4, "The quick run measures 1.42 for the second and 5492 for the first, a noisy figure", measuredOf(`P_a grows (\d+) times for \(x, y, theta\) = \(10, 0, 6\)`), 5492, 0},
	{w8, figure4, "at R = 0.1 a (10, 0, 6) unit fires so rarely", func(*observed) (float64, error) {
		return holds(experiment.ActivityBinomial(10, 0, 6, 0.1) < 0.001), nil
	}, 1, 0},
	{w8, figure4, "the Mark I's own (7, 4, 2) units on real cards: 17.7% of them fire on average", measuredOf(`([\d.]+)% of the Mark I's own \(7, 4, 2\) units fire`), 17.7, 0},
	{w8, figure4, "close to the theory's 17.9%", measuredOf(`against ([\d.]+)% that the theory gives`), 17.9, 0},
	{w8, efHistory, "recognised perfectly when centred (100.0%)", cellOf("ef", "1,000|gen, figures centred", "accuracy on new cards"), 100, 0},
	{w8, efHistory, "above 80% within 5 pixels (88.5%)", cellOf("ef", "1,000|gen, figures within 5 px of the centre", "accuracy on new cards"), 88.5, 0},
	{w8, efHistory, "and 73.0% anywhere", cellOf("ef", "1,000|gen, figures anywhere", "accuracy on new cards"), 73, 0},
	{w8, efHistory, "the Mark I's 512 do a little worse (96.0%, 81.0%, 71.5%)", cellOf("ef", "512|gen, figures centred", "accuracy on new cards"), 96, 0},
	{w8, efHistory, "the Mark I's 512 do a little worse (96.0%, 81.0%, 71.5%)", cellOf("ef", "512|gen, figures within 5 px of the centre", "accuracy on new cards"), 81, 0},
	{w8, efHistory, "the Mark I's 512 do a little worse (96.0%, 81.0%, 71.5%)", cellOf("ef", "512|gen, figures anywhere", "accuracy on new cards"), 71.5, 0},
	{w8, efHistory, "every machine learns its 60 images without error", func(o *observed) (float64, error) {
		for _, u := range []string{"1,000", "512"} {
			for _, c := range []string{"gen, figures centred", "gen, figures within 5 px of the centre", "gen, figures anywhere", "builtin:ef (new cards: gen, within 5 px)"} {
				if v, err := o.cell("ef", u+"|"+c, "accuracy on the 60"); err != nil || v != 100 {
					return 0, fmt.Errorf("%s, %s: %v %v", u, c, v, err)
				}
			}
		}
		return o.condition("cards", "gen:ef,n=60,")
	}, 1, 0},
	{w8, efHistory, "With 1,000 A-units new images", func(o *observed) (float64, error) { return o.condition("machine", "1,000 A-units") }, 1, 0},
	{w8, lettersHist, "after 20 epochs, trained on one typeface the machine recognises only 14.4% (binary)", cellOf("letters", "one typeface, tested on the other (binary)", "test accuracy after 20 epochs"), 14.4, 0},
	{w8, lettersHist, "or 18.8% (all 8) of the other typeface's letters", cellOf("letters", "one typeface, tested on the other (all 8)", "test accuracy after 20 epochs"), 18.8, 0},
	{w8, lettersHist, "trained on both it scores 82.9% (binary) or 92.5% (all 8) on the cards it was trained on", cellOf("letters", "both typefaces (binary)", "accuracy after 20 epochs"), 82.9, 0},
	{w8, lettersHist, "trained on both it scores 82.9% (binary) or 92.5% (all 8) on the cards it was trained on", cellOf("letters", "both typefaces (all 8)", "accuracy after 20 epochs"), 92.5, 0},
	{w8, lettersHist, "but only 15.6% and 19.8% on new cards of both typefaces", cellOf("letters", "both typefaces (binary)", "test accuracy after 20 epochs"), 15.6, 0},
	{w8, lettersHist, "but only 15.6% and 19.8% on new cards of both typefaces", cellOf("letters", "both typefaces (all 8)", "test accuracy after 20 epochs"), 19.8, 0},
	{w8, lettersHist, "The report names the second reading as nearest the caption", func(o *observed) (float64, error) {
		for _, f := range o.r.Findings {
			if strings.Contains(f.Gap, "The reading nearest it is the second: trained on both typefaces and tested on the cards it was trained on") {
				return 1, nil
			}
		}
		return 0, fmt.Errorf("no finding names the second reading")
	}, 1, 0},
}

func errorsJoin(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// checkFigures holds the figures of worksheet file (1 to 8) to what its commands measured: cmds
// ran in the current folder and printed outs. A command's report is its --json output, its
// --out folder's report.json, or the command run again with --json.
func checkFigures(t *testing.T, file string, cmds []shCommand, outs []string) {
	t.Helper()
	base := filepath.Base(file)
	var figs []figure
	for _, f := range worksheetFigures {
		if f.file == base {
			figs = append(figs, f)
		}
	}
	paras := observeParagraphs(t, file)
	if len(paras) > 0 && len(figs) == 0 && !checked(file) {
		t.Errorf("%s: Observe paragraphs without a figure in worksheetFigures", file)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	reports := map[string]*observed{}
	report := func(text string) (*observed, error) {
		if o, ok := reports[text]; ok {
			return o, nil
		}
		for i, c := range cmds {
			if strings.TrimPrefix(c.text, "mark1 ") != text {
				continue
			}
			o := &observed{dir: wd}
			var data []byte
			switch {
			case slices.Contains(c.args, "--json"):
				data = []byte(outs[i])
			case slices.Contains(c.args, "--out"):
				dir := c.args[slices.Index(c.args, "--out")+1]
				var err error
				if data, err = os.ReadFile(filepath.Join(dir, "report.json")); err != nil {
					return nil, err
				}
			default:
				code, stdout, stderr := mark1(t, append(slices.Clone(c.args), "--json")...)
				if code != 0 {
					return nil, fmt.Errorf("%s --json: exit %d: %s", text, code, stderr)
				}
				data = []byte(stdout)
			}
			if err := json.Unmarshal(data, &o.r); err != nil {
				return nil, fmt.Errorf("%s: %v", text, err)
			}
			reports[text] = o
			return o, nil
		}
		return nil, fmt.Errorf("the worksheet has no command %q", text)
	}
	for _, f := range figs {
		if !slices.ContainsFunc(paras, func(p string) bool { return strings.Contains(p, flat(f.says)) }) {
			t.Errorf("%s: no Observe paragraph says %q", file, f.says)
			continue
		}
		o, err := report(f.cmd)
		if err != nil {
			t.Errorf("%s: %q: %v", file, f.says, err)
			continue
		}
		got, err := f.got(o)
		if err != nil || math.Abs(got-f.want) > f.tol+1e-9 {
			t.Errorf("%s: %q: the worksheet says %g (within %g), %s measures %g (%v)", file, f.says, f.want, f.tol, f.cmd, got, err)
		}
	}
	// Every number of the Observe paragraphs is quoted by some figure.
	for _, p := range paras {
		rest := p
		for _, f := range figs {
			rest = strings.ReplaceAll(rest, flat(f.says), " ")
		}
		for _, m := range proseNumber.FindAllStringSubmatch(codeSpan.ReplaceAllString(rest, " "), -1) {
			t.Errorf("%s: the number %s of an Observe paragraph is in no figure of worksheetFigures: %q", file, m[1], p)
		}
	}
}

// observeParagraphs returns a worksheet's "*Observe" paragraphs, each flattened (lines and
// spaces joined, 1,000 written 1000).
func observeParagraphs(t *testing.T, file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out, para []string
	inCode := false
	flush := func() {
		if text := strings.Join(para, " "); strings.HasPrefix(text, "*Observe") {
			out = append(out, flat(text))
		}
		para = nil
	}
	for _, l := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flush()
			inCode = !inCode
		case inCode:
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			flush()
		default:
			para = append(para, trimmed)
		}
	}
	flush()
	return out
}
