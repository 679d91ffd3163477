package trace

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

func mustRat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, err := exact.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustVec(t *testing.T, s string) exact.Vec {
	t.Helper()
	v, err := exact.ParseVec(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// cornell is the worked example of Cornell's CS 472 (Foundations of Artificial Intelligence,
// fall 2004; the same text in fall 2000), "perceptron-example.txt",
// http://www.cs.cornell.edu/courses/cs472/2004fa/Materials/perceptron-example.txt: the logical
// OR learned by a threshold unit with inputs x1, x2 and a bias input x3 fixed at -1, learning
// rate 0.5, weights from 0, output 1 when w.x >= 0. Typed from the source as far as it is
// quoted here (epoch one whole, epoch two to the third example's dot product; the source goes
// on), only the update lines' long sums left out.
const cornell = `
example x_1 x_2 x_3 l
====================================
1 0 0 -1 0
2 0 1 -1 1
3 1 0 -1 1
4 1 1 -1 1
We'll set the learning rate to 0.5 and initialize the weights to 0's:
=<0,0,0>
Epoch One
=========
Example 1 <0,0,-1>:
dot product of example and weights is <0,0,-1> x <0,0,0> = 0
since 0 >= threshold of 0, output = 1
desired output = 0
error = -1
=<0,0,.5>
Example 2 <0,1,-1>:
dot product of example and weights is <0,1,-1> x <0,0,.5> = -.5
since -.5 < threshold of 0, output = 0
desired output = 1
error = 1
=<0,.5,0>
Example 3 <1,0,-1>:
dot product of example and weights is <1,0,-1> x <0,.5,0> = 0
since 0 >= threshold of 0, output = 1
desired output = 1
error = 0
example is correct, so no weight updates.
=<0,.5,0>
Example 4 <1,1,-1>:
dot product of example and weights is <1,1,-1> x <0,.5,0> = .5
since .5 >= threshold of 0, output = 1
desired output = 1
error = 0
example is correct, so no weight updates.
=<0,.5,0>
Epoch Two
=========
Example 1 <0,0,-1>:
dot product of example and weights is <0,0,-1> x <0,.5,0> = 0
since 0 >= threshold of 0, output = 1
desired output = 0
error = -1
=<0,.5,.5>
Example 2 <0,1,-1>:
dot product of example and weights is <0,1,-1> x <0,.5,.5> = 0
since 0 >= threshold of 0, output = 1
desired output = 1
error = 0
example is correct, so no weight updates.
=<0,.5,.5>
Example 3 <1,0,-1>:
dot product of example and weights is <1,0,-1> x <0,.5,.5> = -.5
`

// TestCornellWorkedExample reproduces the published worked example: its four examples, each
// line's sample, weights, dot product, output and new weights, read from the source's text.
func TestCornellWorkedExample(t *testing.T) {
	// The examples table: x_1 x_2 x_3, then l (0 or 1; -1 and +1 here).
	var csv strings.Builder
	row := regexp.MustCompile(`^\d (\d) (\d) (-1) ([01])$`)
	for _, l := range strings.Split(cornell, "\n") {
		if m := row.FindStringSubmatch(l); m != nil {
			y := map[string]string{"0": "-1", "1": "+1"}[m[4]]
			fmt.Fprintf(&csv, "%s,%s,%s,%s\n", m[1], m[2], m[3], y)
		}
	}
	d, err := ReadCSV("or.csv", strings.NewReader(csv.String()))
	if err != nil || len(d.Points) != 4 {
		t.Fatalf("the examples: %v, %v", d, err)
	}
	// The bias input is among the examples' inputs (x_3 = -1): nothing added.
	tr, err := Run(context.Background(), d, Config{Rule: Fixed, Eta: mustRat(t, "0.5"), Bias: None, Zero: Plus})
	if err != nil {
		t.Fatal(err)
	}
	angle := func(s string) string { return strings.Trim(s, "<>") }
	dot := regexp.MustCompile(`^dot product of example and weights is (<[^>]*>) x (<[^>]*>) = (\S+)$`)
	out := regexp.MustCompile(`output = ([01])$`)
	desired := regexp.MustCompile(`^desired output = ([01])$`)
	neww := regexp.MustCompile(`^=(<[^>]*>)$`)
	step := -1 // the presentation being read; the first "=<...>" is the initial weights
	checked := 0
	for _, l := range strings.Split(cornell, "\n") {
		switch {
		case neww.MatchString(l):
			w := mustVec(t, angle(neww.FindStringSubmatch(l)[1]))
			if step < 0 {
				if !w.Equal(tr.Start) {
					t.Errorf("start %s, source %s", tr.Start, w)
				}
				continue
			}
			if !tr.Steps[step].W.Equal(w) {
				t.Errorf("presentation %d: new w %s, source %s", step+1, tr.Steps[step].W, w)
			}
			checked++
		case dot.MatchString(l):
			step++
			m := dot.FindStringSubmatch(l)
			s := tr.Steps[step]
			if x := mustVec(t, angle(m[1])); !s.X.Equal(x) {
				t.Errorf("presentation %d: x %s, source %s", step+1, s.X, x)
			}
			if w := mustVec(t, angle(m[2])); !s.Before.Equal(w) {
				t.Errorf("presentation %d: w %s, source %s", step+1, s.Before, w)
			}
			if v := mustRat(t, m[3]); s.Score.Cmp(v) != 0 {
				t.Errorf("presentation %d: w.x %s, source %s", step+1, exact.Format(s.Score), m[3])
			}
			checked++
		case strings.HasPrefix(l, "since") && out.MatchString(l):
			// The unit's output: 1 when it answers +1. Met means output = desired.
			o := out.FindStringSubmatch(l)[1]
			s := tr.Steps[step]
			answersPlus := s.Met == (s.Y == 1)
			if (o == "1") != answersPlus {
				t.Errorf("presentation %d: the unit answers %v, source output %s", step+1, answersPlus, o)
			}
			checked++
		case desired.MatchString(l):
			o := desired.FindStringSubmatch(l)[1]
			if y := tr.Steps[step].Y; (o == "1") != (y == 1) {
				t.Errorf("presentation %d: y %d, source desired output %s", step+1, y, o)
			}
			checked++
		}
	}
	if step != 6 || checked != 25 { // 7 dot products; 6 outputs, desired outputs and new weights
		t.Fatalf("read %d presentations and %d lines of the source", step+1, checked)
	}
	// The source's remaining lines say no more than this: the run goes on and learns OR.
	if !tr.Converged {
		t.Errorf("OR not learned: %s", tr.Final())
	}
}

// row writes a step as the text table's cells.
func row(s Step, where string) string {
	met := "no"
	if s.Met {
		met = "yes"
	}
	return fmt.Sprintf("%d %d %s %s %+d %s %s %s %s", s.N, s.Epoch, where, s.X, s.Y, exact.Format(s.Score), exact.Format(s.Signed), met, s.W)
}

// TestHandWorked: three points worked by hand (in the test's comments' arithmetic) with each
// rule; every presentation's numbers as a student writes them.
func TestHandWorked(t *testing.T) {
	d, err := Points([]string{"1,2,+1", "2,0,-1", "-1,1,1"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		c    Config
		want []string
		w    string
	}{
		{"fixed, bias last, from 0", Config{}, []string{
			"1 1 p1 (1, 2, 1) +1 0 0 no (1, 2, 1)",    // 0 is a mistake: w = 0 + x
			"2 1 p2 (2, 0, 1) -1 3 -3 no (-1, 2, 0)",  // 2+0+1 = 3; w = (1,2,1) - (2,0,1)
			"3 1 p3 (-1, 1, 1) +1 3 3 yes (-1, 2, 0)", // 1+2+0
			"4 2 p1 (1, 2, 1) +1 3 3 yes (-1, 2, 0)",  // -1+4+0
			"5 2 p2 (2, 0, 1) -1 -2 2 yes (-1, 2, 0)", // -2+0+0
			"6 2 p3 (-1, 1, 1) +1 3 3 yes (-1, 2, 0)",
		}, "(-1, 2, 0)"},
		{"margin b = 3", Config{Rule: Margin, B: exact.Int(3)}, []string{
			"1 1 p1 (1, 2, 1) +1 0 0 no (1, 2, 1)",
			"2 1 p2 (2, 0, 1) -1 3 -3 no (-1, 2, 0)",
			"3 1 p3 (-1, 1, 1) +1 3 3 no (-2, 3, 1)",   // 3 <= b
			"4 2 p1 (1, 2, 1) +1 5 5 yes (-2, 3, 1)",   // -2+6+1
			"5 2 p2 (2, 0, 1) -1 -3 3 no (-4, 3, 0)",   // -4+0+1; 3 <= b
			"6 2 p3 (-1, 1, 1) +1 7 7 yes (-4, 3, 0)",  // 4+3+0
			"7 3 p1 (1, 2, 1) +1 2 2 no (-3, 5, 1)",    // -4+6+0
			"8 3 p2 (2, 0, 1) -1 -5 5 yes (-3, 5, 1)",  // -6+0+1
			"9 3 p3 (-1, 1, 1) +1 9 9 yes (-3, 5, 1)",  // 3+5+1
			"10 4 p1 (1, 2, 1) +1 8 8 yes (-3, 5, 1)",  // -3+10+1
			"11 4 p2 (2, 0, 1) -1 -5 5 yes (-3, 5, 1)", //
			"12 4 p3 (-1, 1, 1) +1 9 9 yes (-3, 5, 1)",
		}, "(-3, 5, 1)"},
		{"batch", Config{Rule: Batch}, []string{
			"1 1 p1 (1, 2, 1) +1 0 0 no (0, 0, 0)", // summed: (1,2,1)
			"2 1 p2 (2, 0, 1) -1 0 0 no (0, 0, 0)", // summed: -(2,0,1)
			"3 1 p3 (-1, 1, 1) +1 0 0 no (0, 0, 0)",
			"4 2 p1 (1, 2, 1) +1 5 5 yes (-2, 3, 1)", // w = (1,2,1)-(2,0,1)+(-1,1,1); -2+6+1
			"5 2 p2 (2, 0, 1) -1 -3 3 yes (-2, 3, 1)",
			"6 2 p3 (-1, 1, 1) +1 6 6 yes (-2, 3, 1)",
		}, "(-2, 3, 1)"},
		{"bias first, eta 1/2, from (1/3, 0, 0)", Config{Bias: First, Eta: mustRat(t, "1/2"), Init: mustVec(t, "1/3,0,0")}, []string{
			"1 1 p1 (1, 1, 2) +1 1/3 1/3 yes (1/3, 0, 0)",
			"2 1 p2 (1, 2, 0) -1 1/3 -1/3 no (-1/6, -1, 0)",   // w - (1,2,0)/2
			"3 1 p3 (1, -1, 1) +1 5/6 5/6 yes (-1/6, -1, 0)",  // -1/6+1
			"4 2 p1 (1, 1, 2) +1 -7/6 -7/6 no (1/3, -0.5, 1)", // -1/6-1; w + (1,1,2)/2
			"5 2 p2 (1, 2, 0) -1 -2/3 2/3 yes (1/3, -0.5, 1)", // 1/3-1
			"6 2 p3 (1, -1, 1) +1 11/6 11/6 yes (1/3, -0.5, 1)",
			"7 3 p1 (1, 1, 2) +1 11/6 11/6 yes (1/3, -0.5, 1)", // 1/3-1/2+2
			"8 3 p2 (1, 2, 0) -1 -2/3 2/3 yes (1/3, -0.5, 1)",
			"9 3 p3 (1, -1, 1) +1 11/6 11/6 yes (1/3, -0.5, 1)",
		}, "(1/3, -0.5, 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Run(context.Background(), d, tt.c)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			var got []string
			for _, s := range tr.Steps {
				got = append(got, row(s, fmt.Sprintf("p%d", s.Sample+1)))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("%s:\ngot\n%s\nwant\n%s", tt.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if !tr.Converged || tr.Final().String() != tt.w {
				t.Errorf("%s: converged %v at %s, want %s", tt.name, tr.Converged, tr.Final(), tt.w)
			}
		})
	}
}

// TestCycle: on XOR the fixed-increment rule's weights at the end of an epoch come back to an
// earlier epoch's, which proves that it never converges (the same weights, the same order).
func TestCycle(t *testing.T) {
	d, err := Points([]string{"0,0,-1", "0,1,1", "1,0,1", "1,1,-1"})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Run(context.Background(), d, Config{Epochs: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Converged || tr.Repeats < 0 || len(tr.Epochs) >= 1000 {
		t.Fatalf("converged %v, repeats %d after %d epochs", tr.Converged, tr.Repeats, len(tr.Epochs))
	}
	last := tr.Final()
	var earlier exact.Vec = tr.Start
	if tr.Repeats > 0 {
		earlier = tr.Epochs[tr.Repeats-1].W
	}
	if !earlier.Equal(last) {
		t.Errorf("epoch %d ends at %s, the repeated epoch %d at %s", len(tr.Epochs), last, tr.Repeats, earlier)
	}
}

// TestRefusals: a malformed point, a label other than +1/-1, an initial vector of the wrong
// length, each with an error naming where.
func TestRefusals(t *testing.T) {
	for _, c := range []struct{ csv, want string }{
		{"1,2,+1\n1,x,-1\n", "d.csv:2: feature 2: \"x\" is not a number"},
		{"1,2,+1\n\n# two\n1,2,0\n", "d.csv:4: label \"0\": want +1 or -1, the last number of the line (a 0/1 label: write 0 as -1)"},
		{"1,2,+1\n1,2,2\n", "d.csv:2: label \"2\""},
		{"1,2,+1\n1,2,3,-1\n", "d.csv:2: 3 features, but d.csv:1 has 2"},
		{"1\n", "d.csv:1: 1 number: want features"},
		{"# nothing\n", "d.csv: no points"},
		{"x1,x2,y\nx1,x2,y\n", "d.csv:2: feature 1"},
		{"1/0,1,1\n", "d.csv:1: feature 1: \"1/0\": a fraction over 0"},
		{"1e999,1,1\n", "an exponent beyond"},
		{"0x10,1,1\n", "feature 1: \"0x10\" is not a number"},
		{"1,2,+1\n" + strings.Repeat("1", 70000) + "\n", "d.csv:2: a line longer than"},
	} {
		t.Run(c.want, func(t *testing.T) {
			_, err := ReadCSV("d.csv", strings.NewReader(c.csv))
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: %v, want %q", c.csv, err, c.want)
			}
		})
	}
	if _, err := Points([]string{"1,2,1", "3,-1"}); err == nil || err.Error() != "--point 3,-1 (point 2): 1 feature, but --point 1 has 2" {
		t.Errorf("points: %v", err)
	}
	if _, err := Points([]string{"1;2;1"}); err == nil || !strings.Contains(err.Error(), "--point 1;2;1 (point 1): 1 number") {
		t.Errorf("points: %v", err)
	}
	d, err := Points([]string{"1,2,1", "2,1,-1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		c    Config
		want string
	}{
		{Config{Init: exact.Ints(0, 0)}, "initial weights (0, 0): 2 numbers, want 3 (2 features and the bias last)"},
		{Config{Init: exact.Ints(0, 0, 0), Bias: None}, "initial weights (0, 0, 0): 3 numbers, want 2 (2 features and no bias added)"},
		{Config{Eta: exact.Int(0)}, "eta 0: want eta > 0"},
		{Config{Rule: Margin, Zero: Plus}, "no answer at zero"},
		{Config{B: exact.Int(1)}, "a margin b > 0 goes with the margin rule"},
		{Config{Epochs: 150000}, "150000 epochs of 2 points: at most 200000 presentations"},
		{Config{Rule: Batch, Pocket: PocketRun}, "the pocket goes with the online rules"},
		{Config{Schedule: 7}, "unknown schedule"},
		{Config{Pocket: 7}, "unknown pocket"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if _, err := Run(context.Background(), d, c.c); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%+v: %v, want %q", c.c, err, c.want)
			}
		})
	}
}

// TestReadCSV: headings, comments, spaces, fractions and decimals.
func TestReadCSV(t *testing.T) {
	d, err := ReadCSV("d.csv", strings.NewReader("\ufeffx1, x2, label\n# a comment\n 1/2, .5 , +1 # p1\n\n-3 2.25 -1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Points) != 2 || d.Points[0].X.String() != "(0.5, 0.5)" || d.Points[1].X.String() != "(-3, 2.25)" ||
		d.Points[0].Y != 1 || d.Points[1].Y != -1 || d.Points[1].Where != "d.csv:5" {
		t.Errorf("%+v", d.Points)
	}
}
