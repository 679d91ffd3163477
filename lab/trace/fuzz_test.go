package trace

import (
	"context"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

// FuzzReadCSV: any file is points or one line of error naming the file, never a panic; the
// points read have the same number of features and labels of +1 or -1, and written back as a
// CSV file they read back the same.
func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{"1,2,+1\n2,0,-1\n", "x1,x2,y\n1/2, .5, 1 # c\n", "0 0 -1 -1\n", "1,2,0\n", "\ufeff1,1\n", "1,2e-3,-1\r\n3,4,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ReadCSV("f.csv", strings.NewReader(s))
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "f.csv") {
				t.Fatalf("%q: %q", s, msg)
			}
			return
		}
		var b strings.Builder
		for _, p := range d.Points {
			if len(p.X) != d.Dim() || (p.Y != 1 && p.Y != -1) {
				t.Fatalf("%q: point %+v", s, p)
			}
			b.WriteString(strings.Join(append(p.X.Strings(), map[int]string{1: "+1", -1: "-1"}[p.Y]), ",") + "\n")
		}
		back, err := ReadCSV("g.csv", strings.NewReader(b.String()))
		if err != nil || len(back.Points) != len(d.Points) {
			t.Fatalf("%q: written back as %q: %v", s, b.String(), err)
		}
		for i, p := range back.Points {
			if !p.X.Equal(d.Points[i].X) || p.Y != d.Points[i].Y {
				t.Fatalf("%q: point %d reads back as %v", s, i, p)
			}
		}
	})
}

// FuzzParsePoint: any --point is a point or one line of error, never a panic; a trace from it
// runs.
func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"1,2,+1", "1/3,-1", "", ",", "1 2 -1", "1,2,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, y, err := ParsePoint(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		d := &Data{Points: []Point{{X: x, Y: y, Where: "--point 1"}}}
		if _, err := Run(context.Background(), d, Config{Epochs: 3, Init: exact.Zeros(len(x) + 1)}); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	})
}
