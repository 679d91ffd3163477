package demo

import (
	"context"
	_ "embed"
	"encoding/csv"
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
)

func digitsDemo() lab.Demo {
	return lab.Demo{Name: "digits", Help: "the pocket against the perceptron: MNIST 1s against 5s",
		Args: "[--updates N]", Usage: "[--updates N] [--seed N] [--quick]",
		Params: []lab.Param{
			{Name: "updates", Kind: lab.Int, Default: "1000", Min: 1, Max: 100000, Help: "updates of the perceptron (and the pocket beside it)", QuickSets: true},
			seedParam("the seed of the digits drawn for the updates", true),
		},
		Quick: courseQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			r, curve, err := digitsReport(ctx, pocketConfig{Updates: c.Int("updates"), Seed: c.Uint("seed")})
			if err == nil && c.Quick {
				r.Checks = pocketChecks(curve)
				r.Notes = append(r.Notes, courseQuickNote)
			}
			return r, err
		}}
}

// digit is one digit image reduced to two integer sums: its ink (the sum of its pixels, 0 to
// 255 each) and its asymmetry (the sum over its pixels of |p(r, c) - p(H-1-r, W-1-c)|, the
// image against itself turned half a turn). Its features are the intensity Ink/Scale and the
// symmetry -Asym/Scale, with Scale = 255 times the pixels. Abu-Mostafa, Magdon-Ismail and Lin
// (Learning from Data, example 3.1) set 1s against 5s on intensity and symmetry; their
// symmetry compares a digit with its mirror image, but MNIST's 1s are mostly slanted, and a
// slanted stroke is symmetric under a half turn, not under a mirror.
type digit struct {
	Source    string
	Label     string // the class, "1" or "5"
	Ink, Asym int64
	Scale     int64
}

// digitFeatures reduces the cards of set whose class is a or b to Digits (the half turn is
// about the centre of each card's bounds).
func digitFeatures(set *images.Set, a, b string) ([]digit, error) {
	var out []digit
	for _, c := range set.Cards {
		label := set.Classes[c.Class]
		if label != a && label != b {
			continue
		}
		bd := c.Image.Bounds()
		w, h := bd.Dx(), bd.Dy()
		px := make([]int64, w*h)
		for y := range h {
			for x := range w {
				px[y*w+x] = int64(grey(c.Image, bd.Min.X+x, bd.Min.Y+y))
			}
		}
		d := digit{Source: c.Source, Label: label, Scale: 255 * int64(w*h)}
		for y := range h {
			for x := range w {
				v := px[y*w+x]
				d.Ink += v
				if m := px[(h-1-y)*w+w-1-x]; v > m {
					d.Asym += v - m
				} else {
					d.Asym += m - v
				}
			}
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no digits of classes %s and %s", set.Name, a, b)
	}
	return out, nil
}

func grey(img image.Image, x, y int) uint8 {
	if g, ok := img.(*image.Gray); ok {
		return g.GrayAt(x, y).Y
	}
	return color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y
}

// digitsCSV is the 1s and 5s of testdata/mnist (train8000 and test2000: the first 10,000
// digits of MNIST's training set, shuffled once and split) as digits: set, place in the
// file, label, ink, asymmetry.
// TestDigitTable computes it again from the IDX files.
//
//go:embed digits15.csv
var digitsCSV string

// digitTable returns the embedded 1s and 5s: 28x28 MNIST digits, training and test.
func digitTable() (train, test []digit, err error) {
	rows, err := csv.NewReader(strings.NewReader(digitsCSV)).ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("digits15.csv: %w", err)
	}
	for i, r := range rows[1:] {
		if len(r) != 5 {
			return nil, nil, fmt.Errorf("digits15.csv:%d: %d fields", i+2, len(r))
		}
		ink, err1 := strconv.ParseInt(r[3], 10, 64)
		asym, err2 := strconv.ParseInt(r[4], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("digits15.csv:%d: not numbers", i+2)
		}
		d := digit{Source: r[0] + "#" + r[1], Label: r[2], Ink: ink, Asym: asym, Scale: 255 * 28 * 28}
		if r[0] == "train" {
			train = append(train, d)
		} else {
			test = append(test, d)
		}
	}
	return train, test, nil
}

// digitSet is digits as exact integer vectors: (Ink, -Asym, Scale) is Scale times the
// augmented sample (intensity, symmetry, 1), so that every score is an integer and the rules'
// answers are those on the features themselves. Label +1 for the first class, -1 else.
type digitSet struct {
	x [][3]int64
	y []int
}

func newDigitSet(ds []digit, plus string) digitSet {
	var s digitSet
	for _, d := range ds {
		s.x = append(s.x, [3]int64{d.Ink, -d.Asym, d.Scale})
		y := -1
		if d.Label == plus {
			y = 1
		}
		s.y = append(s.y, y)
	}
	return s
}

func dot3(w, x [3]int64) int64 { return w[0]*x[0] + w[1]*x[1] + w[2]*x[2] }

// errors counts the samples w misclassifies (y w.x <= 0).
func (s digitSet) errors(w [3]int64) int {
	n := 0
	for i, x := range s.x {
		if v := dot3(w, x); (v > 0) != (s.y[i] > 0) || v == 0 {
			n++
		}
	}
	return n
}

// pocketCurve is, after each update of the perceptron, the errors of its weights and of the
// pocket's, on the training digits and on the test digits.
type pocketCurve struct {
	PLAIn, PLATest, PocketIn, PocketTest []int
	Train, Test                          int // digits
	PLA, Pocket                          [3]int64
}

// runPocket runs the perceptron from zero weights for updates updates, each on a digit drawn
// at random (seeded) among those it misclassifies (Learning from Data's PLA), and the pocket
// beside it: after each update the current weights go into the pocket when they misclassify
// fewer training digits than the pocket's. Both are scored after every update.
func runPocket(ctx context.Context, train, test []digit, plus string, updates int, seed uint64) (pocketCurve, error) {
	tr, te := newDigitSet(train, plus), newDigitSet(test, plus)
	rng := rand.New(rand.NewPCG(seed, 0x706f636b)) // "pock"
	var w, pocket [3]int64
	pocketErr := tr.errors(pocket)
	c := pocketCurve{Train: len(train), Test: len(test)}
	var wrong []int
	for range updates {
		if err := ctx.Err(); err != nil {
			return c, err
		}
		wrong = wrong[:0]
		for i, x := range tr.x {
			if v := dot3(w, x); v == 0 || (v > 0) != (tr.y[i] > 0) {
				wrong = append(wrong, i)
			}
		}
		if len(wrong) == 0 {
			break
		}
		i := wrong[rng.IntN(len(wrong))]
		for j := range w {
			w[j] += int64(tr.y[i]) * tr.x[i][j]
		}
		e := tr.errors(w)
		if e < pocketErr {
			pocket, pocketErr = w, e
		}
		c.PLAIn, c.PLATest = append(c.PLAIn, e), append(c.PLATest, te.errors(w))
		c.PocketIn, c.PocketTest = append(c.PocketIn, pocketErr), append(c.PocketTest, te.errors(pocket))
	}
	c.PLA, c.Pocket = w, pocket
	return c, nil
}

// pocketConfig sets up the pocket on digits.
type pocketConfig struct {
	Train, Test []digit // nil: the embedded 1s and 5s of testdata/mnist
	Plus        string  // the class labelled +1 (default "1")
	Updates     int     // updates of the perceptron
	Seed        uint64  // of the digits drawn for the updates
	Source      string  // where the digits come from, for the report
}

func pct(n, of int) float64 { return 100 * float64(n) / float64(of) }

// digitsReport sets the pocket algorithm against the perceptron on real digits, 1 against 5
// on two features (intensity and symmetry): the perceptron's training error jumps about with
// every update (the digits are not linearly separable in these features), the pocket's never
// rises, and its test error mostly follows.
func digitsReport(ctx context.Context, c pocketConfig) (*report.Report, pocketCurve, error) {
	if c.Train == nil {
		var err error
		if c.Train, c.Test, err = digitTable(); err != nil {
			return nil, pocketCurve{}, err
		}
		c.Source = "the 1s and 5s of testdata/mnist: train8000 for training, test2000 for testing (MNIST's first 10,000 training digits in a seeded random order, split 8,000 and 2,000)"
	}
	if c.Plus == "" {
		c.Plus = "1"
	}
	curve, err := runPocket(ctx, c.Train, c.Test, c.Plus, c.Updates, c.Seed)
	if err != nil {
		return nil, pocketCurve{}, err
	}
	count := func(ds []digit) string {
		n := 0
		for _, d := range ds {
			if d.Label == c.Plus {
				n++
			}
		}
		return fmt.Sprintf("%d (%d of them %ss)", len(ds), n, c.Plus)
	}
	r := &report.Report{Name: "digits", Title: "The pocket against the perceptron on real digits"}
	r.Summary = "Handwritten 1s against 5s on two features, as in Learning from Data (example 3.1): the intensity (the mean pixel value, 0 to 1) and the symmetry (minus the mean absolute difference between the digit and the digit turned half a turn: MNIST's 1s are slanted, symmetric under a half turn rather than a mirror). No line separates the two classes here, so the perceptron never stops, and its error jumps about with every update. The pocket keeps the best weights seen so far on the training digits: its training error never rises, and its test error mostly follows it, though it need not."
	r.Condition("digits", c.Source)
	r.Condition("training, test digits", count(c.Train)+"; "+count(c.Test))
	r.Condition("rule", fmt.Sprintf("the perceptron from zero, each update on a training digit drawn at random among those misclassified (seed %d), %s; the pocket takes the current weights when they misclassify fewer training digits than its own (Learning from Data's pocket; Gallant's with ratchet also asks for a longer run of correct answers). Exact integer arithmetic (each digit's sums)", c.Seed, english.Count(len(curve.PLAIn), "update")))
	tab := &report.Table{Name: "digits", Title: "Errors (%) after some of the updates", Columns: []string{"update", "perceptron: training", "perceptron: test", "pocket: training", "pocket: test"}}
	n := len(curve.PLAIn)
	for _, u := range []int{1, 10, 100, 1000, 10000, 100000} {
		if u > n {
			break
		}
		tab.AddRow(u, fmt.Sprintf("%.2f", pct(curve.PLAIn[u-1], curve.Train)), fmt.Sprintf("%.2f", pct(curve.PLATest[u-1], curve.Test)),
			fmt.Sprintf("%.2f", pct(curve.PocketIn[u-1], curve.Train)), fmt.Sprintf("%.2f", pct(curve.PocketTest[u-1], curve.Test)))
	}
	if n > 0 && n != 1 && n != 10 && n != 100 && n != 1000 && n != 10000 && n != 100000 {
		tab.AddRow(n, fmt.Sprintf("%.2f", pct(curve.PLAIn[n-1], curve.Train)), fmt.Sprintf("%.2f", pct(curve.PLATest[n-1], curve.Test)),
			fmt.Sprintf("%.2f", pct(curve.PocketIn[n-1], curve.Train)), fmt.Sprintf("%.2f", pct(curve.PocketTest[n-1], curve.Test)))
	}
	worst, best := 0, curve.Train
	betterIn, betterTest := 0, 0
	for i, e := range curve.PLAIn {
		worst, best = max(worst, e), min(best, e)
		if curve.PocketIn[i] < e {
			betterIn++
		}
		if curve.PocketTest[i] < curve.PLATest[i] {
			betterTest++
		}
	}
	tab.Note = fmt.Sprintf("Over the updates the perceptron's training error ranged from %.2f%% to %.2f%%; the pocket ends at %.2f%% (%d of %d digits) with weights (intensity, symmetry, bias) %s times 1/%d. After %d of the %d updates the pocket misclassified fewer training digits than the perceptron's current weights, and after %d fewer test digits.",
		pct(best, curve.Train), pct(worst, curve.Train), pct(curve.PocketIn[n-1], curve.Train), curve.PocketIn[n-1], curve.Train, vec3(curve.Pocket), 255*28*28, betterIn, n, betterTest)
	r.Tables = append(r.Tables, tab)
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	rates := func(e []int, of int) []float64 {
		out := make([]float64, len(e))
		for i, v := range e {
			out[i] = pct(v, of)
		}
		return out
	}
	r.Figures = append(r.Figures, &plot.Figure{Name: "errors", Title: "1 against 5: errors after each update", XLabel: "update", YLabel: "error (%)", LogX: true,
		Caption: "training and test error of the perceptron's current weights and of the pocket's, after each update",
		Series: []plot.Series{
			{Name: "perceptron, training", X: xs, Y: rates(curve.PLAIn, curve.Train), Style: 1},
			{Name: "perceptron, test", X: xs, Y: rates(curve.PLATest, curve.Test), Style: 4, Dashed: true},
			{Name: "pocket, training", X: xs, Y: rates(curve.PocketIn, curve.Train), Style: 3},
			{Name: "pocket, test", X: xs, Y: rates(curve.PocketTest, curve.Test), Style: 5, Dashed: true},
		}}, digitScatter(c, curve))
	r.Data = map[string]any{"perceptron_training_errors": curve.PLAIn, "perceptron_test_errors": curve.PLATest,
		"pocket_training_errors": curve.PocketIn, "pocket_test_errors": curve.PocketTest, "training_digits": curve.Train, "test_digits": curve.Test,
		"pocket_weights": curve.Pocket, "perceptron_weights": curve.PLA, "weights_scale": 255 * 28 * 28}
	return r, curve, nil
}

func vec3(w [3]int64) string { return fmt.Sprintf("(%d, %d, %d)", w[0], w[1], w[2]) }

// digitScatter draws the training digits on the two features with the last boundaries.
func digitScatter(c pocketConfig, curve pocketCurve) *plot.Figure {
	plus := plot.Series{Name: "digit " + c.Plus, Points: true, Style: 2}
	other := plot.Series{Name: "the other digit", Points: true, Style: 1}
	for _, d := range c.Train {
		s := &other
		if d.Label == c.Plus {
			s = &plus
		}
		s.X = append(s.X, float64(d.Ink)/float64(d.Scale))
		s.Y = append(s.Y, -float64(d.Asym)/float64(d.Scale))
	}
	// w.(Ink, -Asym, Scale) = Scale w.(intensity, symmetry, 1): the same line on the features.
	b := func(w [3]int64) [3]float64 { return [3]float64{float64(w[0]), float64(w[1]), float64(w[2])} }
	return &plot.Figure{Name: "features", Title: "The training digits on two features", XLabel: "intensity", YLabel: "symmetry",
		Caption:    "each training digit by its intensity and its symmetry, with the pocket's boundary and the perceptron's last",
		Series:     []plot.Series{other, plus},
		Boundaries: []plot.Boundary{{Name: "pocket", W: b(curve.Pocket), Style: 3, Solid: true}, {Name: "perceptron, last", W: b(curve.PLA), Style: 4}}}
}

// pocketChecks checks the pocket against the perceptron on the digits: the pocket's training
// error never rises, is never above the perceptron's, and is below it after most updates.
func pocketChecks(c pocketCurve) []report.Check {
	n := len(c.PocketIn)
	rises, above, below := 0, 0, 0
	for i := range n {
		if i > 0 && c.PocketIn[i] > c.PocketIn[i-1] {
			rises++
		}
		if c.PocketIn[i] > c.PLAIn[i] {
			above++
		}
		if c.PocketIn[i] < c.PLAIn[i] {
			below++
		}
	}
	return []report.Check{
		report.NewCheck("updates after which the pocket's training error rose", float64(rises), 0, 0, "the pocket's last weights for its best: many"),
		report.NewCheck("updates after which the pocket misclassified more training digits than the perceptron", float64(above), 0, 0, "a pocket that keeps other weights than the best: many"),
		report.NewCheck("updates after which the pocket misclassified fewer training digits than the perceptron (fraction)", float64(below)/float64(n), 0.6, 1, "a pocket no better than the perceptron: 0"),
		report.NewCheck("the pocket's final training error (%)", pct(c.PocketIn[n-1], c.Train), 5, 15, "a perceptron that never learns: about 44 to 56"),
	}
}
