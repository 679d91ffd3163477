// Package trace runs the perceptron's rules by hand, as a student works them on paper: a small
// data set typed in (a CSV file, or points on the command line), an initial weight vector, the
// bias first or last as the textbook writes it, the samples in the order given, and every
// presentation recorded in exact numbers (package lab/exact): the sample, w.x, y(w.x), whether
// the sample was met, and the new weights. A worked example from a book can be checked against
// it line by line.
//
// The rules are the fixed-increment rule (a mistake moves w by eta y x), the same with a margin
// b (a sample is met only when y w.x > b) and the batch rule (the mistakes of an epoch are
// summed and added at its end), each with a variable increment eta(k) if asked (Schedule:
// eta/k, eta/sqrt(k)), and the online ones with Gallant's pocket (Pocket). A Stepper runs a
// rule one presentation at a time; Row, BatchRow and EpochRow write the trace as a table. Textbooks differ on a score of exactly 0: the perceptron
// criterion counts y w.x <= 0 as a mistake whatever the label (Duda, Hart and Stork; Bishop;
// the Mark I), while a threshold unit that fires at w.x >= 0 answers +1 there (and one that
// fires at w.x > 0 answers -1); Config.Zero says which.
package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

// Limits on what a trace reads.
const (
	MaxPoints   = 10000
	MaxFeatures = 1000
	maxLine     = 1 << 16
)

// Point is one sample: its features, its label (+1 or -1), and where it was written ("FILE:LINE"
// or "--point N"), for messages and for the trace.
type Point struct {
	X     exact.Vec
	Y     int
	Where string
}

// Data is the samples of a trace, in the order given.
type Data struct {
	Name   string
	Points []Point
}

// Dim returns the number of features (0 for no points).
func (d *Data) Dim() int {
	if len(d.Points) == 0 {
		return 0
	}
	return len(d.Points[0].X)
}

// parseFields reads the numbers of one line: features, then a label of +1 or -1.
func parseFields(fields []string) (exact.Vec, int, error) {
	if len(fields) < 2 {
		return nil, 0, fmt.Errorf("%d number%s: want features, then a label of +1 or -1", len(fields), plural(len(fields)))
	}
	if len(fields)-1 > MaxFeatures {
		return nil, 0, fmt.Errorf("%d features: at most %d", len(fields)-1, MaxFeatures)
	}
	x := make(exact.Vec, len(fields)-1)
	for i, f := range fields[:len(fields)-1] {
		r, err := exact.Parse(f)
		if err != nil {
			return nil, 0, fmt.Errorf("feature %d: %w", i+1, err)
		}
		x[i] = r
	}
	y, err := ParseLabel(fields[len(fields)-1])
	if err != nil {
		return nil, 0, err
	}
	return x, y, nil
}

// ParseLabel reads a label: +1, 1 or -1.
func ParseLabel(s string) (int, error) {
	switch strings.TrimSpace(s) {
	case "+1", "1":
		return 1, nil
	case "-1":
		return -1, nil
	}
	hint := ""
	if strings.TrimSpace(s) == "0" {
		hint = " (a 0/1 label: write 0 as -1)"
	}
	return 0, fmt.Errorf("label %q: want +1 or -1, the last number of the line%s", strings.TrimSpace(s), hint)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// splitLine splits a line at commas, or, when it has none, at spaces and tabs (a table typed
// from a book).
func splitLine(line string) []string {
	if strings.Contains(line, ",") {
		fields := strings.Split(line, ",")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		return fields
	}
	return strings.Fields(line)
}

// ParsePoint reads one point as --point takes it: "x1,x2,...,label".
func ParsePoint(s string) (exact.Vec, int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, 0, errors.New("empty: want x1,x2,...,label")
	}
	return parseFields(splitLine(s))
}

// Points makes Data of points given as --point takes them (numbered from 1 in messages).
func Points(specs []string) (*Data, error) {
	d := &Data{Name: "--point"}
	for i, s := range specs {
		x, y, err := ParsePoint(s)
		if err != nil {
			return nil, fmt.Errorf("--point %s (point %d): %w", s, i+1, err)
		}
		if err := d.add(Point{X: x, Y: y, Where: fmt.Sprintf("--point %d", i+1)}); err != nil {
			return nil, fmt.Errorf("--point %s (point %d): %w", s, i+1, err)
		}
	}
	if len(d.Points) == 0 {
		return nil, errors.New("no points")
	}
	return d, nil
}

func (d *Data) add(p Point) error {
	if len(d.Points) >= MaxPoints {
		return fmt.Errorf("more than %d points", MaxPoints)
	}
	if n := d.Dim(); len(d.Points) > 0 && len(p.X) != n {
		return fmt.Errorf("%d feature%s, but %s has %d", len(p.X), plural(len(p.X)), d.Points[0].Where, n)
	}
	d.Points = append(d.Points, p)
	return nil
}

// ReadCSV reads samples, one a line: the features, then a label of +1 or -1, separated by
// commas (or, on a line without a comma, by spaces). Numbers may be integers, decimals or
// fractions (1/3). A # starts a comment; blank lines are skipped; a first line of names
// only (x1,x2,y) is a heading. Errors name the file and line: "NAME:LINE: ...".
func ReadCSV(name string, r io.Reader) (*Data, error) {
	d := &Data{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLine)
	line, headed := 0, false
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		text = strings.TrimSpace(strings.TrimPrefix(text, "\ufeff"))
		if text == "" {
			continue
		}
		fields := splitLine(text)
		if len(d.Points) == 0 && !headed && names(fields) {
			headed = true
			continue
		}
		x, y, err := parseFields(fields)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if err := d.add(Point{X: x, Y: y, Where: fmt.Sprintf("%s:%d", name, line)}); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: a line longer than %d bytes", name, line+1, maxLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(d.Points) == 0 {
		return nil, fmt.Errorf("%s: no points (want lines of features, then a label of +1 or -1)", name)
	}
	return d, nil
}

// names reports whether every field is a name, not a number (a heading line).
func names(fields []string) bool {
	for _, f := range fields {
		if f == "" {
			return false
		}
		if _, err := exact.Parse(f); err == nil {
			return false
		}
		if _, err := ParseLabel(f); err == nil {
			return false
		}
		c := f[0]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}
