// Package problem draws the small feature-space problems of a course on linear discriminants,
// seeded: random linearly separable sets with a margin, XOR, n-bit parity, two clusters with
// outliers, and Gaussian blobs. A problem is described by text, "NAME,key=value,..." (see
// Parse), so that the command line can name one (mark1 lab compare --data problem:xor).
package problem

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/detmath"
	"github.com/mark1-perceptron/mark1/lab/learn"
)

// Spec describes a problem: its name and options (only those the problem takes).
type Spec struct {
	Name string
	// N is the number of samples: per cluster (xor, blobs, outliers), in all (separable).
	N int
	// D is the number of features (separable) or of bits (parity).
	D int
	// K is the number of classes (blobs).
	K int
	// Margin is the least distance of a sample from the separating hyperplane (separable).
	Margin float64
	// Noise is the clusters' standard deviation (xor, blobs, outliers).
	Noise float64
	// Outliers is the number of outlying samples of class -1 (outliers).
	Outliers int
	// Seed is the root of every random choice.
	Seed uint64
}

type kind struct {
	name, doc string
	keys      []string
	def       Spec
}

var kinds = []kind{
	{"separable", "n samples uniform in [-1,1]^d, labelled by a random hyperplane through the cube, kept only at least margin from it", []string{"n", "d", "margin", "seed"}, Spec{N: 100, D: 2, Margin: 0.1, Seed: 1}},
	{"xor", "four clusters of n samples around (0,0), (1,1) (class -1) and (0,1), (1,0) (class +1), standard deviation noise", []string{"n", "noise", "seed"}, Spec{N: 25, Noise: 0.15, Seed: 1}},
	{"parity", "the 2^d bit vectors, class +1 when an odd number of bits is set (d = 2 is XOR)", []string{"d"}, Spec{D: 6}},
	{"outliers", "class +1 around (-1, 1) and class -1 around (1, -1), n each, plus outliers samples of class -1 far behind it around (6, -6): they lie on the right side of any sensible boundary", []string{"n", "noise", "outliers", "seed"}, Spec{N: 25, Noise: 0.5, Outliers: 10, Seed: 1}},
	{"blobs", "k clusters of n samples on a circle of radius 3, standard deviation noise", []string{"n", "k", "noise", "seed"}, Spec{N: 30, K: 3, Noise: 0.6, Seed: 1}},
}

// Names lists the problems with what each draws.
func Names() [][2]string {
	var out [][2]string
	for _, k := range kinds {
		out = append(out, [2]string{k.name, k.doc})
	}
	return out
}

func find(name string) (kind, bool) {
	for _, k := range kinds {
		if k.name == name {
			k.def.Name = name
			return k, true
		}
	}
	return kind{}, false
}

// Parse reads "NAME,key=value,...": the problem's defaults, then the options given. Keys: n,
// d, k (whole numbers), margin, noise (decimals), outliers, seed.
func Parse(text string) (Spec, error) {
	parts := strings.Split(text, ",")
	name := strings.TrimSpace(parts[0])
	k, ok := find(name)
	if !ok {
		var names []string
		for _, k := range kinds {
			names = append(names, k.name)
		}
		return Spec{}, fmt.Errorf("problem: unknown problem %q (have %s)", name, strings.Join(names, ", "))
	}
	s := k.def
	seen := map[string]bool{}
	for _, p := range parts[1:] {
		key, val, found := strings.Cut(p, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch {
		case !found || key == "":
			return Spec{}, fmt.Errorf("problem: %s: option %q: want key=value", name, p)
		case !slices.Contains(k.keys, key):
			return Spec{}, fmt.Errorf("problem: %s has no option %q (have %s)", name, key, strings.Join(k.keys, ", "))
		case seen[key]:
			return Spec{}, fmt.Errorf("problem: %s: option %q given twice", name, key)
		}
		seen[key] = true
		var err error
		switch key {
		case "n", "d", "k", "outliers":
			var v uint64
			v, err = strconv.ParseUint(val, 10, 31)
			if err == nil {
				*map[string]*int{"n": &s.N, "d": &s.D, "k": &s.K, "outliers": &s.Outliers}[key] = int(v)
			}
		case "margin", "noise":
			var v float64
			v, err = strconv.ParseFloat(val, 64)
			if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				err = errors.New("not finite")
			}
			if err == nil {
				*map[string]*float64{"margin": &s.Margin, "noise": &s.Noise}[key] = v
			}
		case "seed":
			s.Seed, err = strconv.ParseUint(val, 10, 64)
		}
		if err != nil {
			return Spec{}, fmt.Errorf("problem: %s: %s=%s: want a number", name, key, val)
		}
	}
	if err := s.Validate(); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// String writes s in the form Parse reads.
func (s Spec) String() string {
	k, ok := find(s.Name)
	if !ok {
		return s.Name
	}
	out := s.Name
	for _, key := range k.keys {
		var v string
		switch key {
		case "n":
			v = strconv.Itoa(s.N)
		case "d":
			v = strconv.Itoa(s.D)
		case "k":
			v = strconv.Itoa(s.K)
		case "outliers":
			v = strconv.Itoa(s.Outliers)
		case "margin":
			v = strconv.FormatFloat(s.Margin, 'g', -1, 64)
		case "noise":
			v = strconv.FormatFloat(s.Noise, 'g', -1, 64)
		case "seed":
			v = strconv.FormatUint(s.Seed, 10)
		}
		out += "," + key + "=" + v
	}
	return out
}

// Validate checks the options against what a problem can draw.
func (s Spec) Validate() error {
	k, ok := find(s.Name)
	if !ok {
		return fmt.Errorf("problem: unknown problem %q", s.Name)
	}
	bad := func(key string, v any, want string) error {
		return fmt.Errorf("problem: %s: %s=%v: want %s", s.Name, key, v, want)
	}
	for _, key := range k.keys {
		switch {
		case key == "n" && (s.N < 1 || s.N > 100_000):
			return bad("n", s.N, "1..100000")
		case key == "d" && s.Name == "parity" && (s.D < 2 || s.D > 16):
			return bad("d", s.D, "2..16 bits")
		case key == "d" && s.Name != "parity" && (s.D < 1 || s.D > 10_000):
			return bad("d", s.D, "1..10000")
		case key == "k" && (s.K < 2 || s.K > 64):
			return bad("k", s.K, "2..64 classes")
		case key == "margin" && (s.Margin < 0 || s.Margin >= 0.5):
			return bad("margin", s.Margin, "0 <= margin < 0.5")
		case key == "noise" && (s.Noise < 0 || s.Noise > 10):
			return bad("noise", s.Noise, "0..10")
		case key == "outliers" && s.Outliers > 100_000:
			return bad("outliers", s.Outliers, "0..100000")
		}
	}
	return nil
}

// normal draws a standard normal number, the same on every architecture.
func normal(rng *rand.Rand) float64 { return detmath.Normal(rng) }

// Generate draws the problem. Two-class problems have classes "-1" and "+1" (class 1 is +1).
func (s Spec) Generate() (*learn.Data, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x70726f62)) // "prob"
	d := &learn.Data{Classes: []string{"-1", "+1"}}
	add := func(x []float64, c int) {
		d.X = append(d.X, x)
		d.Y = append(d.Y, c)
	}
	cluster := func(cx, cy float64, c, n int) {
		for range n {
			add([]float64{cx + float64(s.Noise*normal(rng)), cy + float64(s.Noise*normal(rng))}, c)
		}
	}
	switch s.Name {
	case "separable":
		x, y := Separable(rng, s.N, s.D, s.Margin)
		for i := range x {
			add(x[i], (y[i]+1)/2)
		}
	case "xor":
		// Interleaved, so that a learner in file order sees both classes from the start.
		for range s.N {
			cluster(0, 0, 0, 1)
			cluster(0, 1, 1, 1)
			cluster(1, 1, 0, 1)
			cluster(1, 0, 1, 1)
		}
	case "parity":
		for v := range 1 << s.D {
			x := make([]float64, s.D)
			ones := 0
			for b := range s.D {
				if v>>b&1 == 1 {
					x[b] = 1
					ones++
				}
			}
			add(x, ones%2)
		}
	case "outliers":
		for range s.N {
			cluster(-1, 1, 1, 1)
			cluster(1, -1, 0, 1)
		}
		cluster(6, -6, 0, s.Outliers)
	case "blobs":
		d.Classes = nil
		for c := range s.K {
			d.Classes = append(d.Classes, string(rune('a'+c%26))+strings.Repeat("'", c/26))
		}
		for range s.N {
			for c := range s.K {
				sin, cos := detmath.Sincos(float64(2*math.Pi*float64(c)) / float64(s.K))
				cluster(float64(3*cos), float64(3*sin), c, 1)
			}
		}
	}
	return d, nil
}

// Separable draws n samples uniform in [-1,1]^d labelled +1 or -1 by a random hyperplane
// w.x + w0 = 0 (w standard normal, w0 within a fifth of w's length, so that the plane crosses
// the cube), keeping only samples at least margin from it: the data are linearly separable
// with margin at least margin (in the plane's own units, bias not counted).
func Separable(rng *rand.Rand, n, d int, margin float64) ([][]float64, []int) {
	w := make([]float64, d)
	norm := 0.0
	for i := range w {
		w[i] = normal(rng)
		norm += float64(w[i] * w[i])
	}
	norm = math.Sqrt(norm)
	w0 := float64(norm * (float64(0.4*rng.Float64()) - 0.2))
	var x [][]float64
	var y []int
	for len(x) < n {
		v := make([]float64, d)
		g := w0
		for i := range v {
			v[i] = (float64(rng.Float64()) - 0.5) * 2 // float64(): Float64 inlines a product
			g += float64(w[i] * v[i])
		}
		if math.Abs(g)/norm < margin {
			continue
		}
		x = append(x, v)
		if g > 0 {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	return x, y
}
