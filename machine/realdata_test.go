package machine

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/internal/golden"
	"github.com/mark1-perceptron/mark1/retina"
)

// Real handwritten digits (see ../testdata/README.md).
const mnist = "../testdata/mnist/"

func loadIDX(t testing.TB, name string) *images.Set {
	t.Helper()
	set, err := images.LoadIDX(mnist+name+"-images.idx.gz", mnist+name+"-labels.idx.gz")
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// digitsConfig is the machine the users tried on real digits: defaults, ten R-units,
// one-hot coding.
func digitsConfig(ideal bool) Config {
	cfg := Default()
	cfg.RUnits, cfg.Coding = 10, CodingOneHot
	if ideal {
		cfg = cfg.Ideal()
	}
	return cfg
}

// checkFinite fails if any level, weight or sum of m is NaN or infinite, or a level negative.
func checkFinite(t *testing.T, m *Machine) {
	t.Helper()
	var snap Snapshot
	m.Snapshot(&snap, true)
	for i, v := range snap.Levels {
		if !(v >= 0) || math.IsInf(float64(v), 0) {
			t.Fatalf("cell %d level %v", i, v)
		}
	}
	for r, pots := range snap.Pots {
		for i, v := range pots {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("R%d pot %d reads %v", r, i, v)
			}
		}
	}
	for r, v := range snap.Sums {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("R%d sum %v", r, v)
		}
	}
}

// TestRealDigits trains ideal and analog machines on real handwritten digits (IDX files and a
// PNG class folder, white on black), saves, loads and evaluates them: no NaN, the loaded
// machine gives the accuracy the trained one gave, and both learn well above chance.
func TestRealDigits(t *testing.T) {
	train, test := loadIDX(t, "train"), loadIDX(t, "test")
	folder, err := images.LoadDir(mnist + "png")
	if err != nil {
		t.Fatal(err)
	}
	for _, ideal := range []bool{true, false} {
		name := map[bool]string{true: "ideal", false: "analog"}[ideal]
		t.Run(name, func(t *testing.T) {
			m, deck := newMachine(t, digitsConfig(ideal), train)
			for i := range deck.Stimuli {
				if deck.Stimuli[i].Polarity().String() != "light" {
					t.Fatalf("card %d (%s): figure taken as %s, want light (white on black)", i, deck.Source[i], deck.Stimuli[i].Polarity())
				}
			}
			for range 5 {
				m.Epoch(deck, nil)
			}
			checkFinite(t, m)
			path := filepath.Join(t.TempDir(), "digits.state")
			if err := m.Save(path); err != nil {
				t.Fatal(err)
			}
			l, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []*images.Set{test, folder} {
				dm, err := m.Prepare(s)
				if err != nil {
					t.Fatal(err)
				}
				dl, err := l.Prepare(s)
				if err != nil {
					t.Fatal(err)
				}
				a, b := m.Evaluate(dm), l.Evaluate(dl)
				if a.Correct != b.Correct {
					t.Errorf("%s: loaded machine %d correct, trained %d", s.Name, b.Correct, a.Correct)
				}
				// 10 classes: chance is 10%. 600 training digits give about 75-85%.
				if a.Accuracy < 0.6 {
					t.Errorf("%s: accuracy %.1f%%, want well above chance", s.Name, 100*a.Accuracy)
				}
				t.Logf("%s: %.1f%%", s.Name, 100*a.Accuracy)
			}
			checkFinite(t, l)
		})
	}
}

// TestStateRoundTrip writes, reads and writes again machines trained on real digits in both
// modes: every state the machine writes, it reads, and the bytes are the same.
func TestStateRoundTrip(t *testing.T) {
	train := loadIDX(t, "train")
	train.Cards = train.Cards[:150]
	for _, ideal := range []bool{true, false} {
		m, deck := newMachine(t, digitsConfig(ideal), train)
		m.Epoch(deck, nil)
		if err := m.Idle(7200); err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		if err := m.WriteState(&a); err != nil {
			t.Fatal(err)
		}
		l, err := ReadState(bytes.NewReader(a.Bytes()), "a")
		if err != nil {
			t.Fatalf("ideal=%v: %v", ideal, err)
		}
		if err := l.WriteState(&b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("ideal=%v: state changed in a round trip", ideal)
		}
	}
}

// TestResume trains 3 epochs, saves, loads and trains 2 more: the weights are those of 5
// straight epochs, bit for bit.
func TestResume(t *testing.T) {
	train := loadIDX(t, "train")
	train.Cards = train.Cards[:200]
	for _, ideal := range []bool{true, false} {
		straight, d1 := newMachine(t, digitsConfig(ideal), train)
		parted, d2 := newMachine(t, digitsConfig(ideal), train)
		for range 5 {
			straight.Epoch(d1, nil)
		}
		for range 3 {
			parted.Epoch(d2, nil)
		}
		path := filepath.Join(t.TempDir(), "p.state")
		if err := parted.Save(path); err != nil {
			t.Fatal(err)
		}
		resumed, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		d3, err := resumed.Prepare(train)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			resumed.Epoch(d3, nil)
		}
		for r := range straight.RUnits() {
			a, b := straight.Weights(nil, r), resumed.Weights(nil, r)
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
					t.Fatalf("ideal=%v: R%d weight %d: %v straight, %v resumed", ideal, r, i, a[i], b[i])
				}
			}
		}
	}
}

// TestGoldenDigest trains an analog and an ideal machine on real digits and compares a digest
// of everything they hold with testdata/golden-digest.txt. The same seed must give the same
// machine bit for bit on every architecture: make test runs this test compiled for arm64 under
// qemu too. Run with -update after an intended change of the model.
func TestGoldenDigest(t *testing.T) {
	train := loadIDX(t, "train")
	train.Cards = train.Cards[:300]
	var digests []golden.Digest
	for _, ideal := range []bool{true, false} {
		for _, rule := range []Rule{Alpha, Gamma} {
			cfg := digitsConfig(ideal)
			cfg.Rule = rule
			m, deck := newMachine(t, cfg, train)
			for range 3 {
				m.Epoch(deck, nil)
			}
			m.Idle(3600)
			h := sha256.New()
			var snap Snapshot
			m.Snapshot(&snap, true)
			for _, pots := range snap.Pots {
				for _, v := range pots {
					binary.Write(h, binary.LittleEndian, v)
				}
			}
			binary.Write(h, binary.LittleEndian, snap.Levels[:])
			var st bytes.Buffer
			m.WriteState(&st)
			h.Write(st.Bytes())
			digests = append(digests, golden.Digest{Name: fmt.Sprintf("%s ideal=%t", cfg.Rule, ideal), Sum: hex.EncodeToString(h.Sum(nil))})
		}
	}
	golden.File{Path: "testdata/golden-digest.txt", Sep: " "}.Check(t, digests)
}

// TestSnapshotWhileTraining reads snapshots from other goroutines while one trains; run with
// -race (make test does) it proves the readers never race with the hot loop.
func TestSnapshotWhileTraining(t *testing.T) {
	train := loadIDX(t, "train")
	train.Cards = train.Cards[:200]
	m, deck := newMachine(t, digitsConfig(false), train)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var snap Snapshot
			var last uint64
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				m.Snapshot(&snap, true)
				if snap.Count < last {
					t.Errorf("presentation count went back from %d to %d", last, snap.Count)
					return
				}
				last = snap.Count
				if len(snap.Sums) != m.RUnits() || len(snap.Pots) != m.RUnits() {
					t.Errorf("snapshot of %d sums, %d racks", len(snap.Sums), len(snap.Pots))
					return
				}
				m.Clock()
				var buf bytes.Buffer
				if i%20 == 0 {
					m.WriteState(&buf)
				}
			}
		}()
	}
	for range 2 {
		m.Epoch(deck, nil)
	}
	close(done)
	wg.Wait()
	var snap Snapshot
	m.Snapshot(&snap, false)
	if snap.Count != uint64(2*deck.Len()) || snap.Pots == nil && len(snap.Pots) != 0 {
		t.Fatalf("count %d after two epochs of %d", snap.Count, deck.Len())
	}
}

// TestSnapshotDoesNotAllocate checks that a grown snapshot is refilled without allocating.
func TestSnapshotDoesNotAllocate(t *testing.T) {
	set := loadSet(t, "ef")
	m, deck := newMachine(t, Default(), set)
	m.Epoch(deck, nil)
	var snap Snapshot
	m.Snapshot(&snap, true)
	if a := testing.AllocsPerRun(100, func() { m.Snapshot(&snap, true) }); a != 0 {
		t.Fatalf("%v allocations per snapshot", a)
	}
}

// TestClassesByLabel evaluates a machine on data with a subset of its classes in another
// order, and refuses data with labels it does not know, naming them.
func TestClassesByLabel(t *testing.T) {
	train := loadIDX(t, "train")
	m, deck := newMachine(t, digitsConfig(true), train)
	for range 3 {
		m.Epoch(deck, nil)
	}
	// The PNG folder's digits 3 and 7 only, with the classes listed backwards.
	folder, err := images.LoadDir(mnist + "png")
	if err != nil {
		t.Fatal(err)
	}
	sub := &images.Set{Name: "sub", Classes: []string{"7", "3"}}
	for _, c := range folder.Cards {
		switch folder.Classes[c.Class] {
		case "3":
			sub.Cards = append(sub.Cards, images.Card{Image: c.Image, Class: 1, Source: c.Source})
		case "7":
			sub.Cards = append(sub.Cards, images.Card{Image: c.Image, Class: 0, Source: c.Source})
		}
	}
	d, err := m.Prepare(sub)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range d.Class {
		want := m.ClassIndex(sub.Classes[sub.Cards[i].Class])
		if c != want || want < 0 {
			t.Fatalf("card %d: machine class %d, want %d", i, c, want)
		}
	}
	res := m.Evaluate(d)
	if res.Cards != 40 || res.Accuracy < 0.5 || len(res.Confusion) != 10 {
		t.Fatalf("subset: %+v", res)
	}
	bad := &images.Set{Name: "letters", Classes: []string{"3", "A", "B"}, Cards: sub.Cards[:1]}
	_, err = m.Prepare(bad)
	if err == nil || !strings.Contains(err.Error(), `classes the machine does not know: "A" "B"`) {
		t.Fatalf("unknown labels: %v", err)
	}
}

// TestOrders checks the three presentation orders.
func TestOrders(t *testing.T) {
	d := &Deck{Class: []int{0, 0, 0, 1, 1, 2}}
	d.Stimuli = make([]retina.Stimulus, len(d.Class))
	m, err := New(Default().Ideal(), []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		order string
		want  []int
	}{
		{OrderFile, []int{0, 1, 2, 3, 4, 5}},
		{OrderInterleave, []int{0, 3, 5, 1, 4, 2}},
	} {
		m.SetOrder(tt.order)
		if got := m.orderOf(d); !equalInts(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.order, got, tt.want)
		}
	}
	m.SetOrder(OrderShuffle)
	a := append([]int(nil), m.orderOf(d)...)
	b := append([]int(nil), m.orderOf(d)...)
	if equalInts(a, b) && equalInts(a, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("shuffle gave the file order twice: %v", a)
	}
	if err := m.SetOrder("sorted"); err == nil {
		t.Error("SetOrder accepted an unknown order")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
