package problem

import (
	"math"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/learn"
)

func TestParse(t *testing.T) {
	for _, text := range []string{"xor", "xor,n=3,noise=0.5,seed=9", "parity,d=3", "separable,n=10,d=5,margin=0.2", "outliers,outliers=0", "blobs,k=30"} {
		t.Run(text, func(t *testing.T) {
			s, err := Parse(text)
			if err != nil {
				t.Fatalf("Parse(%q): %v", text, err)
			}
			back, err := Parse(s.String())
			if err != nil || back != s {
				t.Fatalf("Parse(%q) = %+v; Parse(%q) = %+v, %v", text, s, s.String(), back, err)
			}
		})
	}
	for text, want := range map[string]string{
		"circle": "unknown problem", "xor,d=3": `no option "d"`, "xor,n": "want key=value", "xor,n=1,n=2": "twice",
		"xor,n=x": "want a number", "xor,n=0": "n=0: want 1..100000", "parity,d=17": "2..16 bits", "separable,margin=0.5": "margin",
		"xor,noise=NaN": "want a number", "blobs,k=1": "2..64", "xor,n=-1": "want a number",
	} {
		if _, err := Parse(text); err == nil || !strings.HasPrefix(err.Error(), "problem: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want %q", text, err, want)
		}
	}
}

func TestGenerate(t *testing.T) {
	tests := []struct {
		spec      string
		n, dim, k int
		separable bool
	}{
		{"separable,n=50,d=4,margin=0.1", 50, 4, 2, true},
		{"xor,n=10", 40, 2, 2, false},
		{"parity,d=4", 16, 4, 2, false},
		{"parity,d=2", 4, 2, 2, false},
		{"outliers,n=20,outliers=5", 45, 2, 2, true},
		{"blobs,k=4,n=5", 20, 2, 4, false},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			s, err := Parse(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			d, err := s.Generate()
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(); err != nil || d.Len() != tt.n || d.Dim() != tt.dim || d.K() != tt.k {
				t.Fatalf("%s: %d samples, %d features, %d classes, %v", tt.spec, d.Len(), d.Dim(), d.K(), err)
			}
			if tt.k != 2 {
				return
			}
			y := make([]int, d.Len())
			for i, c := range d.Y {
				y[i] = 2*c - 1
			}
			_, _, sep, err := learn.MaxMargin(d.X, y, 20000, 1e-9)
			if err != nil {
				t.Fatal(err)
			}
			if sep != tt.separable {
				t.Errorf("%s: separable %v, want %v", tt.spec, sep, tt.separable)
			}
		})
	}
	// Parity labels: odd numbers of ones are class 1.
	s, err := Parse("parity,d=3")
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.Generate()
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range d.X {
		ones := int(x[0] + x[1] + x[2])
		if d.Y[i] != ones%2 {
			t.Fatalf("parity sample %v: class %d", x, d.Y[i])
		}
	}
}

// TestSeparableMargin: every sample lies at least the margin from the planted hyperplane, so
// the largest margin (bias in the norm) is positive and the perceptron converges.
func TestSeparableMargin(t *testing.T) {
	s, err := Parse("separable,n=200,d=10,margin=0.05,seed=3")
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.Generate()
	if err != nil {
		t.Fatal(err)
	}
	y := make([]int, d.Len())
	for i, c := range d.Y {
		y[i] = 2*c - 1
	}
	if _, ok, err := learn.Train(d.X, y, learn.Rule{}, 10000); err != nil || !ok {
		t.Fatalf("perceptron: converged %v, %v", ok, err)
	}
	_, g, ok, err := learn.MaxMargin(d.X, y, 50000, 1e-9)
	if err != nil {
		t.Fatal(err)
	}
	if !ok || g <= 0 || math.IsNaN(g) {
		t.Fatalf("margin %v", g)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"xor", "parity,d=5", "separable,n=10,d=3,margin=0.2,seed=4", "outliers,outliers=3", "blobs,k=5,noise=1e-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "problem: ") {
				t.Fatalf("error %q without the prefix", err)
			}
			return
		}
		back, err := Parse(s.String())
		if err != nil || back != s {
			t.Fatalf("Parse(%q) = %+v; Parse(%q) = %+v, %v", text, s, s.String(), back, err)
		}
	})
}
