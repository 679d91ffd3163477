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
func Row(d *Data, st Step) []string {
	met := "no"
	if st.Met {
		met = "yes"
	}
	return []string{strconv.Itoa(st.N), strconv.Itoa(st.Epoch), d.Points[st.Sample].Where, st.X.String(), fmt.Sprintf("%+d", st.Y),
		exact.Format(st.Score), exact.Format(st.Signed), met, st.W.String()}
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
