package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"math/big"
)

// TestClosedFormsAsFisherLSQ: least squares (lambda 0) and Fisher solve to the weights mark1
// lab fisher-lsq reports for the same points, exactly; a ridge shrinks the feature weights and
// leaves the bias unpenalised.
func TestClosedFormsAsFisherLSQ(t *testing.T) {
	pts := `[[0,0,1],[1,0,1],[0,2,1],[3,1,-1],[4,3,-1]]`
	res, err := RunDemo(context.Background(), "fisher-lsq", "point=0,0,%2B1&point=1,0,%2B1&point=0,2,%2B1&point=3,1,-1&point=4,3,-1")
	if err != nil {
		t.Fatal(err)
	}
	var rep tablesOf
	if err := json.Unmarshal(res.Report, &rep); err != nil {
		t.Fatal(err)
	}
	value := map[string]string{}
	for _, row := range rep.Tables[0].Rows {
		value[row[0]] = row[1]
	}
	solve := func(config string) *State {
		s := newSession(t, config)
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		st := s.State()
		if st.Status != Solved {
			t.Fatalf("status %s", st.Status)
		}
		return st
	}
	lsq := solve(`{"method":"lsq","points":` + pts + `}`)
	if w := lsq.W.Exact; "("+w[0]+", "+w[1]+")" != value["LSQ 1, -1: w"] || w[2] != value["LSQ 1, -1: w0"] {
		t.Errorf("least squares %v; fisher-lsq w %s, w0 %s", w, value["LSQ 1, -1: w"], value["LSQ 1, -1: w0"])
	}
	if lsq.Command != "mark1 lab fisher-lsq --point 0,0,+1 --point 1,0,+1 --point 0,2,+1 --point 3,1,-1 --point 4,3,-1" {
		t.Errorf("command %q", lsq.Command)
	}
	fisher := solve(`{"method":"fisher","bias":"first","points":` + pts + `}`)
	if w := fisher.W.Exact; "("+w[1]+", "+w[2]+")" != value["Fisher"] {
		t.Errorf("fisher %v (bias first); fisher-lsq %s", w, value["Fisher"])
	}
	// The bias puts the boundary through m = (1.6, 1.2).
	if f := fisher.W.Float; math.Abs(f[0]+1.6*f[1]+1.2*f[2]) > 1e-12 {
		t.Errorf("fisher's boundary misses the mean: %v", f)
	}
	ridge := solve(`{"method":"lsq","lambda":"10","points":` + pts + `}`)
	if r, l := ridge.W.Float, lsq.W.Float; math.Hypot(r[0], r[1]) >= math.Hypot(l[0], l[1]) || ridge.Command != "" || ridge.CommandNote == "" {
		t.Errorf("ridge %v against %v; command %q (%s)", r, l, ridge.Command, ridge.CommandNote)
	}
}

// TestSessionRegionsAsDemo: K classes on mark1 lab regions's own points (its figures' series)
// grid the regions that mark1 lab regions draws, for each strategy, fitted by the
// perceptron (the same learner: every cell) and by least squares (exact here, a pseudo-inverse
// there: at most a few cells on the boundaries apart).
func TestSessionRegionsAsDemo(t *testing.T) {
	for _, method := range []string{"perceptron", "lsq"} {
		res, err := RunDemo(context.Background(), "regions", "method="+method)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Figures []struct {
				Title   string `json:"title"`
				Regions struct {
					Class []int `json:"class"`
				} `json:"regions"`
				Series []struct {
					X []float64 `json:"x"`
					Y []float64 `json:"y"`
				} `json:"series"`
			} `json:"figures"`
		}
		if err := json.Unmarshal(res.Report, &rep); err != nil {
			t.Fatal(err)
		}
		var pts []string
		for c, s := range rep.Figures[0].Series {
			for i := range s.X {
				pts = append(pts, fmt.Sprintf(`["%s","%s",%d]`, exact.Format(ratOf(s.X[i])), exact.Format(ratOf(s.Y[i])), c))
			}
		}
		// The demo's data in its order: class by class the figures give, sample by sample the
		// demo drew (round robin); the perceptron's order matters.
		pts = roundRobin(pts, len(rep.Figures[0].Series))
		for _, fig := range []struct {
			index int
			mc    string
		}{{0, "ovr"}, {2, "ovo"}, {3, "kdisc"}} {
			t.Run(method+"/"+fig.mc, func(t *testing.T) {
				m := map[string]string{"perceptron": "fixed", "lsq": "lsq"}[method]
				s := newSession(t, fmt.Sprintf(`{"classes":3,"method":%q,"multiclass":%q,"epochs":1000,"points":[%s]}`, m, fig.mc, strings.Join(pts, ",")))
				if err := s.RunToEnd(); err != nil {
					t.Fatal(err)
				}
				got, want := s.State().Regions.Class, rep.Figures[fig.index].Regions.Class
				differ := 0
				for i := range want {
					if got[i] != want[i] {
						differ++
					}
				}
				if limit := map[string]int{"perceptron": 0, "lsq": 20}[method]; len(got) != len(want) || differ > limit {
					t.Errorf("%s: %d of %d cells differ from mark1 lab regions's", rep.Figures[fig.index].Title, differ, len(want))
				}
			})
		}
	}
}

// ratOf returns a float's exact value as a fraction.
func ratOf(f float64) *big.Rat { return new(big.Rat).SetFloat64(f) }

// roundRobin orders samples given class by class as the demo drew them: the first of each
// class, then the second of each, ...
func roundRobin(byClass []string, k int) []string {
	n := len(byClass) / k
	var out []string
	for i := range n {
		for c := range k {
			out = append(out, byClass[c*n+i])
		}
	}
	return out
}

// TestSessionEdits: editing the points runs again as far as the run had gone: to the end after
// an ended run (the rows a fresh session gives), as many steps mid-way.
func TestSessionEdits(t *testing.T) {
	s := newSession(t, `{"points":[[1,2,1],[2,0,-1],[-1,1,1]]}`)
	if err := s.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	if err := s.Add("0.5", "-1", "-1"); err != nil {
		t.Fatal(err)
	}
	fresh := newSession(t, `{"points":[[1,2,1],[2,0,-1],[-1,1,1],["1/2",-1,-1]]}`)
	if err := fresh.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(s.rows, fresh.rows, slices.Equal) || s.status != fresh.status {
		t.Fatalf("after an add: %d rows (%s), fresh %d (%s)", len(s.rows), s.status, len(fresh.rows), fresh.status)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Move(0, "3", "3"); err != nil {
		t.Fatal(err)
	}
	if s.steps != 3 || len(s.rows) != 3 || s.rows[0][3] != "(3, 3, 1)" {
		t.Fatalf("after a move mid-way: %d steps, rows %q", s.steps, s.rows)
	}
	if err := s.Remove(3); err != nil {
		t.Fatal(err)
	}
	if st := s.State(); len(st.Points) != 3 || st.Step != 3 || !strings.Contains(st.Command, "--point 3,3,+1") {
		t.Fatalf("after a removal: %d points, step %d, %s", len(st.Points), st.Step, st.Command)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{s.Move(7, "1", "1"), "point index 7: want 0..2"},
		{s.Remove(-1), "point index -1: want 0..2"},
		{s.Add("1", "2", "0"), "point 4: label \"0\": want +1 or -1"},
		{s.Add("1", "1e999", "1"), "point 4: "},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
}

// TestSessionCSV: the points' CSV is mark1 lab trace's --data format and reads back the same.
func TestSessionCSV(t *testing.T) {
	s := newSession(t, `{"points":[["1/3",2,1],[2,"-0.25",-1]]}`)
	text := s.CSV()
	if text != "x1,x2,label\n1/3,2,+1\n2,-0.25,-1\n" {
		t.Fatalf("csv %q", text)
	}
	other := newSession(t, `{}`)
	if err := other.LoadCSV(text); err != nil {
		t.Fatal(err)
	}
	if other.CSV() != text {
		t.Errorf("read back %q", other.CSV())
	}
	if err := other.LoadCSV("1,2,3,+1\n"); err == nil || err.Error() != "csv: 3 features: the playground's points have 2" {
		t.Errorf("three features: %v", err)
	}
	k := newSession(t, `{"classes":3}`)
	if err := k.LoadCSV("x1,x2,class\n0,0,0\n1 1 2\n# note\n2,0,1\n"); err != nil || k.CSV() != "x1,x2,label\n0,0,0\n1,1,2\n2,0,1\n" {
		t.Errorf("three classes: %v, %q", err, k.CSV())
	}
	if err := k.LoadCSV("0,0,3\n"); err == nil || err.Error() != `csv:1: label "3": want a class 0..2` {
		t.Errorf("class 3 of 3: %v", err)
	}
}

// TestNovikoff: on separable points the fixed increment from zero makes no more updates than
// R^2/gamma^2; on XOR there is no bound.
func TestNovikoff(t *testing.T) {
	s := newSession(t, `{"points":[[1,2,1],[2,0,-1],[-1,1,1],[3,1,-1],[0,3,1]]}`)
	if err := s.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	n := s.State().Novikoff
	if !n.Separable || n.Bound == nil || float64(n.Updates) > *n.Bound || n.Updates == 0 || n.R2 != 11 {
		t.Errorf("separable: %+v (bound %v)", n, n.Bound)
	}
	xor := newSession(t, `{"points":[[0,0,-1],[0,1,1],[1,0,1],[1,1,-1]]}`)
	if n := xor.State().Novikoff; n.Separable || n.Bound != nil {
		t.Errorf("xor: %+v", n)
	}
}

// TestSessionRefusals: a bad set-up is refused in one line that names the field.
func TestSessionRefusals(t *testing.T) {
	for _, c := range []struct{ config, want string }{
		{`{"method":"newton"}`, `method "newton": want fixed, batch, margin, variable, pocket, pocket-ratchet, lsq, fisher`},
		{`{"classes":9}`, "classes 9: want 2..8"},
		{`{"bias":"none"}`, `bias "none": want last or first`},
		{`{"eta":"0"}`, `eta "0": want a number > 0`},
		{`{"margin":"-1"}`, `margin "-1": want a number >= 0`},
		{`{"lambda":"x"}`, `lambda "x": want a number >= 0`},
		{`{"schedule":"1/k^2"}`, `schedule "1/k^2": want const, 1/k or 1/sqrt(k)`},
		{`{"atZero":"0"}`, `atZero "0": want wrong, +1 or -1`},
		{`{"method":"margin","atZero":"+1"}`, `atZero "+1": the margin rule meets a sample when y w.x > b`},
		{`{"init":"1,2"}`, "init 1,2: 2 numbers, want 3 (2 features and the bias last)"},
		{`{"multiclass":"all"}`, `multiclass "all": want ovr, ovo or kdisc`},
		{`{"points":[[1,2]]}`, "point 1: 2 numbers: want [x1, x2, label]"},
		{`{"points":[[1,2,2]]}`, `point 1: label "2": want +1 or -1`},
		{`{"classes":3,"points":[[1,2,"+1"]]}`, `point 1: label "+1": want a class 0..2`},
		{`{"epochs":-1}`, "epochs -1: want 1..200000"},
	} {
		t.Run(c.config, func(t *testing.T) {
			var cfg SessionConfig
			if err := json.Unmarshal([]byte(c.config), &cfg); err != nil {
				t.Fatal(err)
			}
			_, err := NewSession(cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	s := newSession(t, `{}`)
	if err := s.Step(); err == nil || err.Error() != "no points: add some first" {
		t.Errorf("a step with no points: %v", err)
	}
	if err := s.Set([]byte(`{"method":"lsq","lambda":"-2"}`)); err == nil || s.set.method != "fixed" {
		t.Errorf("a bad Set: %v, method %s", err, s.set.method)
	}
}
