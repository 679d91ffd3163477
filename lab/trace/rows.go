package trace

import (
	"fmt"
	"strconv"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

// The trace as a table, as mark1 lab trace prints it and the browser lab shows it: one row per
// presentation (Row) and, for the batch rule, one at each epoch's end (BatchRow); and the
// epochs (EpochRow). Both hosts write their rows with these, so that they are the same text.

// Columns are the headings of the presentations' table.
var Columns = []string{"step", "epoch", "sample", "x", "y", "w.x", "y(w.x)", "met", "new w"}

// EpochColumns are the headings of the epochs' table.
var EpochColumns = []string{"epoch", "samples not met", "w at its end"}

// Row returns the presentation st of a trace of d as a row of Columns.
func Row(d *Data, st Step) []string { return NewRows(d).Row(st) }

// Rows writes the rows of a trace of d, one presentation after another, keeping the text of
// each sample and of the last weights: a long trace writes its samples once, and its weights
// only when they change.
type Rows struct {
	d     *Data
	xs    []string
	w     exact.Vec
	wText string
}

// NewRows returns a writer of the rows of a trace of d.
func NewRows(d *Data) *Rows { return &Rows{d: d, xs: make([]string, len(d.Points))} }

// Row returns the presentation st as a row of Columns.
func (r *Rows) Row(st Step) []string {
	met := "no"
	if st.Met {
		met = "yes"
	}
	x := r.xs[st.Sample]
	if x == "" {
		x = st.X.String()
		r.xs[st.Sample] = x
	}
	if r.w == nil || !r.w.Equal(st.W) {
		r.w, r.wText = st.W, st.W.String()
	}
	return []string{strconv.Itoa(st.N), strconv.Itoa(st.Epoch), r.d.Points[st.Sample].Where, x, fmt.Sprintf("%+d", st.Y),
		exact.Format(st.Score), exact.Format(st.Signed), met, r.wText}
}

// BatchRow returns the end of epoch e of the batch rule as a row of Columns: the sum it adds
// and the weights after it.
func BatchRow(e EpochEnd) []string {
	return []string{"", strconv.Itoa(e.Epoch), "epoch's end", "adds " + e.Sum.String(), "", "", "", "", e.W.String()}
}

// EpochRow returns epoch e as a row of EpochColumns.
func EpochRow(e EpochEnd) []string {
	return []string{strconv.Itoa(e.Epoch), strconv.Itoa(e.Mistakes), e.W.String()}
}
