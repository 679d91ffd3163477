package machine

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/retina"
)

func loadSet(t testing.TB, name string) *images.Set {
	t.Helper()
	set, err := builtin.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// newMachine builds a machine for the set's classes and prepares the set's cards.
func newMachine(t testing.TB, cfg Config, set *images.Set) (*Machine, *Deck) {
	t.Helper()
	m, err := New(cfg, set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	deck, err := m.Prepare(set)
	if err != nil {
		t.Fatal(err)
	}
	return m, deck
}

// plainPixels computes the ideal retina independently: the card fitted to 20x20 cells (the
// built-in cards are square, so each cell is a block of k x k pixels), the block's mean
// luminance, and "on" where it is below one half (dark ink on white paper).
func plainPixels(t testing.TB, img image.Image) []int {
	b := img.Bounds()
	if b.Dx() != b.Dy() || b.Dx()%retina.Cols != 0 {
		t.Fatalf("test needs square cards of a multiple of 20 pixels, got %v", b)
	}
	k := b.Dx() / retina.Cols
	x := make([]int, retina.N)
	for r := range retina.Rows {
		for c := range retina.Cols {
			sum := 0.0
			for y := 0; y < k; y++ {
				for xx := 0; xx < k; xx++ {
					g := color.GrayModel.Convert(img.At(b.Min.X+c*k+xx, b.Min.Y+r*k+y)).(color.Gray)
					sum += float64(g.Y) / 255
				}
			}
			if sum/float64(k*k) < 0.5 {
				x[r*retina.Cols+c] = 1
			}
		}
	}
	return x
}

// plainPhi computes the A-units of a board from its plugs, one by one.
func plainPhi(b *patchboard.Board, x []int) []int {
	phi := make([]int, len(b.Units))
	for a, u := range b.Units {
		n := 0
		for _, s := range u.Exc {
			n += x[s]
		}
		for _, s := range u.Inh {
			n -= x[s]
		}
		if n >= u.Theta {
			phi[a] = 1
		}
	}
	return phi
}

// textbook is the fixed-increment perceptron of the lecture notes (Duda, Hart & Stork), one
// per R-unit: weights and bias from zero, samples in order, w += y*phi and b += y whenever
// y*(w.phi + b) <= 0. Codes give y per class and R-unit (0: that R-unit is not trained).
func textbook(feats [][]int, classes []int, codes [][]int8, epochs int) (w [][]int, bias []int) {
	r := len(codes[0])
	w = make([][]int, r)
	bias = make([]int, r)
	for u := range w {
		w[u] = make([]int, len(feats[0]))
	}
	for range epochs {
		for i, phi := range feats {
			for u := range r {
				y := int(codes[classes[i]][u])
				if y == 0 {
					continue
				}
				s := bias[u]
				for a, v := range phi {
					s += w[u][a] * v
				}
				if y*s <= 0 {
					for a, v := range phi {
						w[u][a] += y * v
					}
					bias[u] += y
				}
			}
		}
	}
	return w, bias
}

// TestIdealIsTextbook trains the ideal machine and the plain textbook perceptron on real
// cards and compares every weight and bias, bit for bit.
func TestIdealIsTextbook(t *testing.T) {
	tests := []struct {
		data, wiring, coding string
		rUnits, epochs       int
	}{
		{"letters", WiringIdentity, CodingOneHot, 26, 4},
		{"letters", WiringRandom, CodingBinary, 8, 5},
		{"shapes", WiringRandom, CodingOneHot, 8, 6},
		{"ef", WiringLocal, CodingAuto, 8, 6},
	}
	for _, tt := range tests {
		t.Run(tt.data+"/"+tt.wiring+"/"+tt.coding, func(t *testing.T) {
			set := loadSet(t, tt.data)
			cfg := Default()
			cfg.Seed = 7
			cfg.Wiring, cfg.Coding, cfg.RUnits = tt.wiring, tt.coding, tt.rUnits
			cfg.Order = OrderFile // the textbook's order
			m, deck := newMachine(t, cfg.Ideal(), set)
			feats := make([][]int, len(set.Cards))
			classes := make([]int, len(set.Cards))
			for i, c := range set.Cards {
				feats[i] = plainPhi(m.Board(), plainPixels(t, c.Image))
				classes[i] = c.Class
			}
			corrections := 0
			for range tt.epochs {
				corrections += m.Epoch(deck, nil).Corrections
			}
			if corrections == 0 {
				t.Fatal("no corrections: the test would prove nothing")
			}
			w, bias := textbook(feats, classes, m.Codes(), tt.epochs)
			n := m.AUnits()
			for u := range m.RUnits() {
				got := m.Weights(nil, u)
				if got[n] != float64(bias[u]) {
					t.Fatalf("R%d bias = %v, textbook %d", u, got[n], bias[u])
				}
				for a := range n {
					if got[a] != float64(w[u][a]) {
						t.Fatalf("R%d weight %d = %v, textbook %d", u, a, got[a], w[u][a])
					}
				}
			}
		})
	}
}

func TestAnalogLearnsLetters(t *testing.T) {
	set := loadSet(t, "letters")
	cfg := Default()
	cfg.RUnits = len(set.Classes)
	m, deck := newMachine(t, cfg, set)
	for range 40 {
		if m.Epoch(deck, nil).Corrections == 0 {
			break
		}
	}
	if res := m.Evaluate(deck); res.Accuracy != 1 {
		t.Fatalf("analog machine's training accuracy on letters = %v, want 1", res.Accuracy)
	}
}

func TestRules(t *testing.T) {
	set := loadSet(t, "ef")
	for _, rule := range []Rule{Alpha, Gamma, Forced} {
		t.Run(rule.String(), func(t *testing.T) {
			cfg := Default()
			cfg.Rule = rule
			m, deck := newMachine(t, cfg.Ideal(), set)
			var total []float64
			for e := range 30 {
				st := m.Epoch(deck, nil)
				if rule == Gamma {
					// The gamma system conserves each rack's total.
					for r := range m.RUnits() {
						sum := 0.0
						for _, v := range m.Weights(nil, r) {
							sum += v
						}
						if e == 0 && r >= len(total) {
							total = append(total, 0)
						}
						if math.Abs(sum-total[r]) > 1e-6 {
							t.Fatalf("epoch %d: rack %d total %v, want %v", e, r, sum, total[r])
						}
					}
				}
				if rule == Forced && st.Corrections != st.Cards {
					t.Fatalf("forced rule: %d corrections for %d cards", st.Corrections, st.Cards)
				}
			}
			// Error-correcting rules separate E from F; forced (Hebbian) reinforcement need not.
			if acc := m.Evaluate(deck).Accuracy; rule != Forced && acc < 0.9 {
				t.Fatalf("%s rule: accuracy %v on E vs F", rule, acc)
			}
		})
	}
}

// TestMovesMirrorWeights replays the observer's moves on plain arrays, as a hardware bridge
// would, and checks that they reproduce the ideal machine's weights under every rule.
func TestMovesMirrorWeights(t *testing.T) {
	set := loadSet(t, "shapes")
	for _, rule := range []Rule{Alpha, Gamma, Forced} {
		t.Run(rule.String(), func(t *testing.T) {
			cfg := Default().Ideal()
			cfg.Rule = rule
			m, err := New(cfg, set.Classes)
			if err != nil {
				t.Fatal(err)
			}
			n := m.AUnits()
			mirror := make([][]float64, m.RUnits())
			for r := range mirror {
				mirror[r] = make([]float64, n+1)
			}
			active := make([]bool, n+1)
			m.Observe(ObserverFunc(func(e *Event) {
				clear(active)
				for _, a := range e.Active {
					active[a] = true
				}
				active[n] = true // the bias unit is always on
				for _, mv := range e.Moves {
					for i := range mirror[mv.R] {
						if active[i] {
							mirror[mv.R][i] += mv.OnActive
						} else {
							mirror[mv.R][i] += mv.OnInactive
						}
					}
				}
			}))
			deck, err := m.Prepare(set)
			if err != nil {
				t.Fatal(err)
			}
			for range 5 {
				m.Epoch(deck, nil)
			}
			for r := range mirror {
				w := m.Weights(nil, r)
				for i := range w {
					if math.Abs(w[i]-mirror[r][i]) > 1e-9 {
						t.Fatalf("R%d pot %d: machine %v, mirrored moves %v", r, i, w[i], mirror[r][i])
					}
				}
			}
		})
	}
}

func TestDeterminism(t *testing.T) {
	set := loadSet(t, "shapes")
	run := func(seed uint64) []byte {
		cfg := Default()
		cfg.Seed = seed
		m, deck := newMachine(t, cfg, set)
		for range 3 {
			m.Epoch(deck, nil)
		}
		var buf bytes.Buffer
		if err := m.WriteState(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b, c := run(3), run(3), run(4)
	if !bytes.Equal(a, b) {
		t.Fatal("same seed gave different machines")
	}
	if bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same machine")
	}
}

// TestSaveContinues checks that a saved and loaded machine goes on exactly as the original.
func TestSaveContinues(t *testing.T) {
	set := loadSet(t, "letters")
	for _, ideal := range []bool{false, true} {
		cfg := Default()
		if ideal {
			cfg = cfg.Ideal()
		}
		m, deck := newMachine(t, cfg, set)
		m.Epoch(deck, nil)
		path := filepath.Join(t.TempDir(), "m.state")
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		l, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		ldeck, err := l.Prepare(set)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			a, b := m.Epoch(deck, nil), l.Epoch(ldeck, nil)
			if a != b {
				t.Fatalf("ideal=%v: after loading, epoch %+v, original %+v", ideal, b, a)
			}
		}
		var x, y bytes.Buffer
		m.WriteState(&x)
		l.WriteState(&y)
		if !bytes.Equal(x.Bytes(), y.Bytes()) {
			t.Fatalf("ideal=%v: loaded machine diverged from the original", ideal)
		}
	}
}

func TestReadStateErrors(t *testing.T) {
	set := loadSet(t, "ef")
	m, err := New(Default(), set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	nl := strings.IndexByte(good, '\n')
	flip := []byte(good)
	flip[nl+100] ^= 1
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "empty file"},
		{"not state", "hello\n", "not a mark1 state file"},
		{"newer", strings.Replace(good, "mark1-state 2 ", "mark1-state 3 ", 1), "version 3 is newer"},
		{"no header line", strings.Repeat("x", 5000), "not a mark1 state file"},
		{"over the limit", "mark1-state 2 2000000000 " + strings.Repeat("0", 64) + "\n", "over the limit"},
		{"truncated", good[:len(good)-10], "truncated"},
		{"corrupt", string(flip), "checksum mismatch"},
		{"trailing", good + "x", "data after the state"},
		{"bad header", "mark1-state 2 x y\n", "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadState(strings.NewReader(tt.data), "m.state")
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "m.state") {
				t.Fatalf("error = %v, want one naming m.state and %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
}

func FuzzReadState(f *testing.F) {
	set, err := builtin.Load("ef")
	if err != nil {
		f.Fatal(err)
	}
	cfg := Default()
	cfg.MarkI.AUnits = 16
	m, err := New(cfg, set.Classes)
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteState(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte("mark1-state 1 10 00\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadState(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := m.WriteState(&out); err != nil {
			t.Fatalf("loaded machine cannot be written: %v", err)
		}
	})
}

func TestObserver(t *testing.T) {
	set := loadSet(t, "ef")
	m, err := New(Default().Ideal(), set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	deck, err := m.Prepare(set)
	if err != nil {
		t.Fatal(err)
	}
	var events, moves int
	var lastCount uint64
	m.Observe(ObserverFunc(func(e *Event) {
		events++
		moves += len(e.Moves)
		if e.Count != lastCount+1 {
			t.Fatalf("event count %d after %d", e.Count, lastCount)
		}
		lastCount = e.Count
		if len(e.Active) > 0 && e.A[e.Active[0]>>6]>>(e.Active[0]&63)&1 == 0 {
			t.Fatal("active list disagrees with the A-bits")
		}
	}))
	st := m.Epoch(deck, nil)
	if events != deck.Len() || moves != st.Corrections {
		t.Fatalf("observer saw %d events and %d moves, epoch had %d cards and %d corrections", events, moves, deck.Len(), st.Corrections)
	}
}

func TestCodings(t *testing.T) {
	tests := []struct {
		coding  string
		k, r    int
		want    [][]int8
		wantErr string
	}{
		{CodingAuto, 2, 8, [][]int8{{-1, 0, 0}, {1, 0, 0}}, ""},
		{CodingOneHot, 3, 3, [][]int8{{1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}, ""},
		{CodingAuto, 3, 3, [][]int8{{1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}, ""},
		{CodingBinary, 3, 3, [][]int8{{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}}, ""},
		{CodingOneHot, 4, 3, nil, "one-hot needs one R-unit per class"},
		{CodingBinary, 9, 3, nil, "needs 4 R-units"},
	}
	for _, tt := range tests {
		got, _, err := buildCodes(tt.coding, nil, tt.k, tt.r)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s %d/%d: error %v, want %q", tt.coding, tt.k, tt.r, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %d/%d: %v", tt.coding, tt.k, tt.r, err)
			continue
		}
		for c := range got {
			got[c] = got[c][:len(tt.want[c])]
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %d/%d: codes %v, want %v", tt.coding, tt.k, tt.r, got, tt.want)
		}
	}
}

func TestReadCodes(t *testing.T) {
	classes := []string{"a", "b", "c"}
	tests := []struct {
		name, in, want string
	}{
		{"ok", "# comment\na 10\nb 01\n\nc 11 # trailing\n", ""},
		{"unknown class", "a 10\nz 01\n", "codes:2: unknown class \"z\""},
		{"twice", "a 10\na 01\n", "codes:2: class \"a\" has a code already"},
		{"length", "a 101\n", "codes:1: code \"101\" has 3 R-units, the machine has 2"},
		{"bad char", "a 1x\n", "codes:1: code \"1x\": 'x' is not 1, 0 or -"},
		{"fields", "a\n", "codes:1: want \"LABEL CODE\""},
		{"missing", "a 10\nb 01\n", "codes: class \"c\" has no code"},
		{"same", "a 10\nb 10\nc 01\n", "never differ"},
		{"neutral", "a --\nb 10\nc 01\n", "no trained R-unit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			codes, err := ReadCodes(strings.NewReader(tt.in), "codes", classes, 2)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				WriteCodes(&buf, classes, codes)
				again, err := ReadCodes(&buf, "codes", classes, 2)
				if err != nil || !reflect.DeepEqual(again, codes) {
					t.Fatalf("round trip: %v %v, want %v", again, err, codes)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func FuzzReadCodes(f *testing.F) {
	f.Add("a 10\nb 01\nc 11\n")
	f.Add("a 1-\nb 0-\nc -1\n")
	classes := []string{"a", "b", "c"}
	f.Fuzz(func(t *testing.T, in string) {
		codes, err := ReadCodes(strings.NewReader(in), "f", classes, 2)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		WriteCodes(&buf, classes, codes)
		again, err := ReadCodes(&buf, "f", classes, 2)
		if err != nil || !reflect.DeepEqual(again, codes) {
			t.Fatalf("round trip: %v %v, want %v", again, err, codes)
		}
	})
}

func TestPresentDoesNotAllocate(t *testing.T) {
	set := loadSet(t, "letters")
	for _, ideal := range []bool{true, false} {
		cfg := Default()
		if ideal {
			cfg = cfg.Ideal()
		}
		m, deck := newMachine(t, cfg, set)
		i := 0
		allocs := testing.AllocsPerRun(2000, func() {
			m.Train(&deck.Stimuli[i%deck.Len()], deck.Class[i%deck.Len()])
			i++
		})
		if allocs != 0 {
			t.Fatalf("ideal=%v: %v allocations per presentation", ideal, allocs)
		}
	}
}

func benchTrain(b *testing.B, ideal bool) {
	set := loadSet(b, "letters")
	cfg := Default()
	// Distinct 8-bit codes so that all eight R-units learn (as mark1 bench does).
	cfg.Coding, cfg.Codes = CodingTable, make([][]int8, len(set.Classes))
	for c := range cfg.Codes {
		v := (c*37 + 11) & 255
		cfg.Codes[c] = make([]int8, 8)
		for u := range 8 {
			cfg.Codes[c][u] = int8(2*(v>>u&1) - 1)
		}
	}
	if ideal {
		cfg = cfg.Ideal()
	}
	m, deck := newMachine(b, cfg, set)
	order := m.orderOf(deck)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := order[i%len(order)]
		m.Train(&deck.Stimuli[k], deck.Class[k])
	}
}

// BenchmarkTrainIdeal and BenchmarkTrainAnalog measure one training presentation of the
// full-size machine (400 S, 512 A, 8 R, alpha rule) from a fresh machine on the letters: the
// early, error-heavy presentations are included in proportion to b.N.
func BenchmarkTrainIdeal(b *testing.B)  { benchTrain(b, true) }
func BenchmarkTrainAnalog(b *testing.B) { benchTrain(b, false) }

// FuzzReadStateBody fuzzes the JSON body of a state file behind a checksum the fuzzer's input
// does not have to get right (the header is recomputed), so it reaches the validation: any
// machine that loads must present, train and save, and load again.
func FuzzReadStateBody(f *testing.F) {
	set, err := builtin.Load("ef")
	if err != nil {
		f.Fatal(err)
	}
	for _, ideal := range []bool{false, true} {
		cfg := Default()
		cfg.MarkI.AUnits, cfg.RUnits = 16, 2
		if ideal {
			cfg = cfg.Ideal()
		}
		m, err := New(cfg, set.Classes)
		if err != nil {
			f.Fatal(err)
		}
		d, err := m.Prepare(set)
		if err != nil {
			f.Fatal(err)
		}
		m.Epoch(d, nil)
		body, err := m.stateBody()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body)
	}
	card := set.Cards[0].Image
	f.Fuzz(func(t *testing.T, body []byte) {
		sum := sha256.Sum256(body)
		file := fmt.Sprintf("mark1-state %d %d %x\n%s", StateVersion, len(body), sum, body)
		m, err := ReadState(strings.NewReader(file), "fuzz")
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		var st retina.Stimulus
		m.PrepareImage(card, &st)
		for range 3 {
			m.Train(&st, 0)
		}
		var out bytes.Buffer
		if err := m.WriteState(&out); err != nil {
			t.Fatalf("loaded machine cannot be written: %v", err)
		}
		if _, err := ReadState(&out, "again"); err != nil {
			t.Fatalf("a machine that loaded and trained does not load again: %v", err)
		}
	})
}

// benchLearning times whole learning runs: a fresh full-size machine trained on E versus F from
// scratch until an epoch passes without a correction, reported per presentation.
func benchLearning(b *testing.B, ideal bool) {
	set := loadSet(b, "ef")
	cfg := Default()
	if ideal {
		cfg = cfg.Ideal()
	}
	presented := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m, deck := newMachine(b, cfg, set)
		b.StartTimer()
		for e := 0; e < 100; e++ {
			st := m.Epoch(deck, nil)
			presented += st.Cards
			if st.Corrections == 0 {
				break
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(presented), "ns/presentation")
	b.ReportMetric(float64(presented)/float64(b.N), "presentations/run")
}

// benchConverged times presentations of a machine that has learned its cards: no correction,
// so only the retina, the plug-board, the sums and the answer.
func benchConverged(b *testing.B, ideal bool) {
	set := loadSet(b, "ef")
	cfg := Default()
	if ideal {
		cfg = cfg.Ideal()
	}
	m, deck := newMachine(b, cfg, set)
	for e := 0; e < 100 && m.Epoch(deck, nil).Corrections > 0; e++ {
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := i % deck.Len()
		m.Train(&deck.Stimuli[k], deck.Class[k])
	}
}

// BenchmarkLearningIdeal and BenchmarkLearningAnalog: from scratch to a clean epoch.
func BenchmarkLearningIdeal(b *testing.B)  { benchLearning(b, true) }
func BenchmarkLearningAnalog(b *testing.B) { benchLearning(b, false) }

// BenchmarkConvergedIdeal and BenchmarkConvergedAnalog: presentations once learned.
func BenchmarkConvergedIdeal(b *testing.B)  { benchConverged(b, true) }
func BenchmarkConvergedAnalog(b *testing.B) { benchConverged(b, false) }

// Weights appends to dst: what dst held stays in front, and with room enough it allocates
// nothing.
func TestWeightsAppends(t *testing.T) {
	m, deck := newMachine(t, Default().Ideal(), loadSet(t, "ef"))
	m.Epoch(deck, nil)
	want := m.Weights(nil, 1)
	if len(want) != m.AUnits()+1 {
		t.Fatalf("%d readings, want %d", len(want), m.AUnits()+1)
	}
	got := m.Weights([]float64{-7}, 1)
	if got[0] != -7 || !slices.Equal(got[1:], want) {
		t.Errorf("appended readings differ, or the prefix was lost: %v", got[:3])
	}
	buf := make([]float64, 0, len(want))
	if n := testing.AllocsPerRun(20, func() { buf = m.Weights(buf[:0], 1) }); n != 0 {
		t.Errorf("Weights into a large enough dst: %v allocations", n)
	}
}

// Last shows the driving goroutine the presentation Snapshot copies, for the analog machine
// and the ideal one.
func TestLastIsSnapshot(t *testing.T) {
	for _, cfg := range []Config{Default(), Default().Ideal()} {
		m, deck := newMachine(t, cfg, loadSet(t, "letters"))
		var snap Snapshot
		for k := range 5 {
			m.Present(&deck.Stimuli[k])
			m.Snapshot(&snap, false)
			last := m.Last()
			if *last.S != snap.S || !slices.Equal(last.A, snap.A) || !slices.Equal(last.Sums, snap.Sums) {
				t.Fatalf("ideal %v, card %d: Last differs from Snapshot", cfg.IsIdeal(), k)
			}
			if last.S.Count() == 0 || len(last.Sums) != m.RUnits() {
				t.Fatalf("ideal %v, card %d: %d S-units on, %d sums", cfg.IsIdeal(), k, last.S.Count(), len(last.Sums))
			}
		}
	}
}
