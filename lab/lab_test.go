package lab

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
)

// TestIdealMachineIsThePerceptron: with the cards in file order, the ideal Mark I trained by
// its alpha rule and the fixed-increment perceptron (one-vs-rest) on its A-unit features make
// the same corrections in every epoch and reach the same errors: the machine's one R-unit per
// class is one perceptron per class.
func TestIdealMachineIsThePerceptron(t *testing.T) {
	for _, set := range []string{"ef", "shapes"} {
		t.Run(set, func(t *testing.T) {
			cards, err := builtin.Load(set)
			if err != nil {
				t.Fatal(err)
			}
			cfg := machine.Default()
			cfg.Seed = 3
			p, err := NewCardDataset(cfg, cards, nil)
			if err != nil {
				t.Fatal(err)
			}
			methods, err := ParseMethods("mark1,perceptron")
			if err != nil {
				t.Fatal(err)
			}
			runs, err := Compare(context.Background(), p, methods, Options{Epochs: 15, InOrder: true})
			if err != nil {
				t.Fatal(err)
			}
			m, q := runs[0], runs[1]
			if len(m.Curve) != len(q.Curve) || m.Corrections != q.Corrections {
				t.Fatalf("%s: machine %d corrections in %d epochs, perceptron %d in %d", set, m.Corrections, len(m.Curve), q.Corrections, len(q.Curve))
			}
			for e := range m.Curve {
				if m.Curve[e].Corrections != q.Curve[e].Corrections || m.Curve[e].TrainError != q.Curve[e].TrainError {
					t.Fatalf("%s epoch %d: machine %+v, perceptron %+v", set, e+1, m.Curve[e], q.Curve[e])
				}
			}
			// And the weights: the machine's pots are the perceptron's weights.
			multi := q.Classifier.(*learn.Multi)
			for r, u := range multi.Units {
				if !slices.Equal(m.Machine.Weights(nil, r), u.W) {
					t.Fatalf("%s: R-unit %d's pots differ from the perceptron's weights", set, r)
				}
			}
			if m.Corrections == 0 || len(m.Curve) < 2 {
				t.Fatalf("%s: a trivial run (%d corrections)", set, m.Corrections)
			}
		})
	}
}

// TestIdentityFeaturesArePixels: with the identity wiring the features are the ideal retina's
// S-units.
func TestIdentityFeaturesArePixels(t *testing.T) {
	cards, err := builtin.Load("leftright")
	if err != nil {
		t.Fatal(err)
	}
	cfg := machine.Default()
	cfg.Wiring = machine.WiringIdentity
	d, err := Features(cfg, nil, cards)
	if err != nil {
		t.Fatal(err)
	}
	r, err := retina.New(retina.IdealParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var st retina.Stimulus
	var bits retina.Bits
	for i, c := range cards.Cards {
		r.Prepare(c.Image, &st)
		r.Expose(&st, 0, nil, &bits)
		for s := range retina.N {
			if (d.X[i][s] == 1) != bits.Get(s) {
				t.Fatalf("card %d, cell %d: feature %v, S-unit %v", i, s, d.X[i][s], bits.Get(s))
			}
		}
		if d.Y[i] != c.Class {
			t.Fatalf("card %d: class %d, want %d", i, d.Y[i], c.Class)
		}
	}
}

// TestReceptiveField: on the identity board the field is the weights; on a random board each
// weight lands on its A-unit's plugs with their signs.
func TestReceptiveField(t *testing.T) {
	cfg := machine.Default()
	cfg.Wiring = machine.WiringIdentity
	b, err := machine.BuildBoard(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, 401)
	for i := range w {
		w[i] = float64(i)
	}
	f, err := ReceptiveField(b, w)
	if err != nil || !slices.Equal(f, w[:400]) {
		t.Fatalf("identity: %v", err)
	}
	b, err = machine.BuildBoard(machine.Default())
	if err != nil {
		t.Fatal(err)
	}
	w = make([]float64, b.Len())
	w[7] = 2
	f, err = ReceptiveField(b, w)
	if err != nil {
		t.Fatal(err)
	}
	u := b.Units[7]
	sum := 0.0
	for s, v := range f {
		want := 0.0
		if slices.Contains(u.Exc, uint16(s)) {
			want = 2
		}
		if slices.Contains(u.Inh, uint16(s)) {
			want = -2
		}
		if v != want {
			t.Fatalf("cell %d: %v, want %v", s, v, want)
		}
		sum += v
	}
	if sum != 2*float64(len(u.Exc)-len(u.Inh)) {
		t.Fatalf("sum %v", sum)
	}
	if _, err := ReceptiveField(b, w[:3]); err == nil {
		t.Fatal("too few weights: no error")
	}
}

// TestCompare runs every kind of method on a small problem; the runs come back in order with
// sane numbers, and the same call gives the same numbers.
func TestCompare(t *testing.T) {
	train, err := builtin.Load("shapes")
	if err != nil {
		t.Fatal(err)
	}
	test, err := builtin.Load("squares-circles")
	if err != nil {
		t.Fatal(err)
	}
	cfg := machine.Default()
	cfg.MarkI.AUnits = 128
	p, err := NewCardDataset(cfg, train, test)
	if err != nil {
		t.Fatal(err)
	}
	if p.Test.Classes[1] != "circle" || p.Test.Y[1] != 1 {
		t.Fatalf("test classes %v, first labels %v", p.Test.Classes, p.Test.Y[:2])
	}
	methods, err := ParseMethods("perceptron,batch,variable,pocket/kdisc,lsq/ovo,fisher/ovr,fisher-mid/ovo,mark1,mark1-analog,mark1+backlash,perceptron/ovo")
	if err != nil {
		t.Fatal(err)
	}
	var last atomic.Int64
	o := Options{Epochs: 6, Margin: 1, Schedule: learn.InverseK, Progress: func(done, total int) {
		if total != 11*6 || done < int(last.Load()) || done > total {
			t.Errorf("progress %d of %d", done, total)
		}
		last.Store(int64(done))
	}}
	runs, err := Compare(context.Background(), p, methods, o)
	if err != nil {
		t.Fatal(err)
	}
	if last.Load() != 66 {
		t.Fatalf("progress ended at %d of 66", last.Load())
	}
	again, err := Compare(context.Background(), p, methods, Options{Epochs: 6, Margin: 1, Schedule: learn.InverseK, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range runs {
		if r.Method != methods[i].Name {
			t.Fatalf("run %d is %s, want %s", i, r.Method, methods[i].Name)
		}
		if r.TrainError < 0 || r.TrainError > 1 || r.TestError == nil || *r.TestError < 0 || *r.TestError > 1 || len(r.Curve) == 0 {
			t.Fatalf("%s: %+v", r.Method, r)
		}
		a := again[i]
		if a.TrainError != r.TrainError || *a.TestError != *r.TestError || a.Corrections != r.Corrections {
			t.Fatalf("%s: not deterministic: %v/%v/%d then %v/%v/%d", r.Method, r.TrainError, *r.TestError, r.Corrections, a.TrainError, *a.TestError, a.Corrections)
		}
	}
	// Features-only problems refuse the machine.
	p.Config = nil
	if _, err := Compare(context.Background(), p, methods[7:8], o); err == nil || !strings.Contains(err.Error(), "needs cards") {
		t.Fatalf("mark1 on features: %v", err)
	}
}

func TestParseMethod(t *testing.T) {
	good := map[string]Method{
		"pocket/ovo":     {Name: "pocket/ovo", Rule: "pocket", Strategy: learn.OneVsOne},
		"lsq":            {Name: "lsq", Rule: "lsq"},
		"mark1":          {Name: "mark1", Rule: "mark1", Flaws: "none"},
		"mark1-analog":   {Name: "mark1-analog", Rule: "mark1", Flaws: "all"},
		"mark1+backlash": {Name: "mark1+backlash", Rule: "mark1", Flaws: "backlash"},
	}
	for s, want := range good {
		if got, err := ParseMethod(s); err != nil || got != want {
			t.Errorf("ParseMethod(%q) = %+v, %v", s, got, err)
		}
	}
	for s, want := range map[string]string{
		"svm": "unknown method", "mark1+rust": "unknown flaw", "mark1/ovo": "no strategy",
		"fisher/kdisc": "two classes", "pocket/all": "unknown strategy",
	} {
		if _, err := ParseMethod(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMethod(%q): %v, want %q", s, err, want)
		}
	}
	if _, err := ParseMethods(" , "); err == nil {
		t.Error("ParseMethods of nothing: no error")
	}
	for _, n := range MethodNames() {
		if _, err := ParseMethod(n); err != nil {
			t.Errorf("MethodNames lists %q, which does not parse: %v", n, err)
		}
	}
}

func TestParallel(t *testing.T) {
	out, err := Parallel(context.Background(), 100, 4, nil, func(_ context.Context, i int) (int, error) { return i * i, nil })
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		if v != i*i {
			t.Fatalf("result %d = %d", i, v)
		}
	}
	boom := errors.New("boom")
	if _, err := Parallel(context.Background(), 100, 3, nil, func(_ context.Context, i int) (int, error) {
		if i == 50 {
			return 0, boom
		}
		return i, nil
	}); !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Parallel(ctx, 10, 2, nil, func(_ context.Context, i int) (int, error) { return i, nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
