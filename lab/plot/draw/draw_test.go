package draw

import (
	"bytes"
	"flag"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/plot"
)

var keep = flag.String("keep", "", "write the test figures' PNGs into this folder, to look at them")

func sampleFigures() []*plot.Figure {
	var xs, ys, ys2 []float64
	for e := 1; e <= 30; e++ {
		xs = append(xs, float64(e))
		ys = append(ys, math.Exp(-float64(e)/8))
		ys2 = append(ys2, 0.3+0.1*math.Sin(float64(e)))
	}
	heat := plot.Grid{Title: "R0 (E on)", Rows: 20, Cols: 20}
	for r := range 20 {
		for c := range 20 {
			heat.Values = append(heat.Values, float64(c-r))
		}
	}
	regions := &plot.Regions{Cols: 4, Rows: 3, XMin: -2, XMax: 2, YMin: -1, YMax: 2, Class: []int{0, 0, 1, 1, 0, 1, 1, 2, 2, 2, 2, 2}}
	return []*plot.Figure{
		{Name: "curves", Title: "learning curves", XLabel: "epoch", YLabel: "training error",
			Series: []plot.Series{{Name: "perceptron", X: xs, Y: ys2}, {Name: "pocket", X: xs, Y: ys, Dashed: true}}},
		{Name: "log", Title: "log-log", LogX: true, LogY: true, XLabel: "bound", YLabel: "corrections",
			Series: []plot.Series{{Name: "problems", X: []float64{1, 10, 100, 0}, Y: []float64{1, 5, 50, 3}, Points: true}}},
		{Name: "boundary", Title: "XOR", XLabel: "x1", YLabel: "x2",
			Series:     []plot.Series{{Name: "-1", X: []float64{0, 1}, Y: []float64{0, 1}, Points: true}, {Name: "+1", X: []float64{0, 1}, Y: []float64{1, 0}, Points: true}},
			Boundaries: []plot.Boundary{{Name: "perceptron", W: [3]float64{1, 1, -0.5}}, {Name: "vertical", W: [3]float64{1, 0, -0.5}}, {Name: "outside", W: [3]float64{0, 1, -50}}}},
		{Name: "regions", Title: "three classes", Regions: regions,
			Series: []plot.Series{{Name: "a", X: []float64{-1}, Y: []float64{0}, Points: true}}},
		{Name: "heat", Title: "receptive fields", Grids: []plot.Grid{heat, heat, heat, heat, heat}},
		{Name: "normal", Title: "w normal to its boundary", Equal: true, XLabel: "x1", YLabel: "x2",
			Series: []plot.Series{{Name: "points", X: []float64{0, 4}, Y: []float64{0, 1}, Points: true},
				{Name: "w", X: []float64{1, 2}, Y: []float64{1, 2}, Arrow: true}},
			Boundaries: []plot.Boundary{{Name: "x1 + x2 = 2", W: [3]float64{1, 1, -2}}}},
		{Name: "undecided", Title: "regions nobody answers", Regions: &plot.Regions{Cols: 3, Rows: 1, XMin: 0, XMax: 3, YMin: 0, YMax: 1,
			Class: []int{0, 2, 3}, Grey: 2, Names: []string{"a", "b", "ambiguous", "no class"}}},
		{Name: "bars", Title: "test accuracy", YLabel: "accuracy", YMin: 0, YMax: 1,
			Bars: []plot.Bar{{Label: "ideal", Value: 0.95}, {Label: "blur", Value: 0.93}, {Label: "gamma", Value: 0.95}, {Label: "spread", Value: 0.9}, {Label: "lag", Value: 0.9}, {Label: "dark_noise", Value: 0.8}, {Label: "all", Value: 0.7}}},
	}
}

// TestWritePNG draws every kind of figure: each is a PNG of the expected size.
func TestWritePNG(t *testing.T) {
	for _, f := range sampleFigures() {
		var buf bytes.Buffer
		if err := WritePNG(&buf, f); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		img, err := png.Decode(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 200 {
			t.Fatalf("%s: %v, too small", f.Name, b)
		}
		if *keep != "" {
			if err := os.WriteFile(filepath.Join(*keep, f.Name+".png"), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestBoundarySegment(t *testing.T) {
	tests := []struct {
		w    [3]float64
		ok   bool
		x, y [2]float64
	}{
		{[3]float64{1, 1, -1}, true, [2]float64{0, 2}, [2]float64{1, -1}}, // y = 1 - x over x in [0, 2]
		{[3]float64{1, 0, -1}, true, [2]float64{1, 1}, [2]float64{0, 2}},  // x = 1
		{[3]float64{0, 1, -5}, false, [2]float64{}, [2]float64{}},         // y = 5, above the box
		{[3]float64{0, 0, 1}, false, [2]float64{}, [2]float64{}},          // no line
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.w), func(t *testing.T) {
			seg, ok := boundarySegment(tt.w, 0, 2, 0, 2)
			if ok != tt.ok {
				t.Errorf("%v: ok %v", tt.w, ok)
				return
			}
			if ok && (seg[0].X != tt.x[0] || seg[1].X != tt.x[1] || seg[0].Y != tt.y[0] || seg[1].Y != tt.y[1]) {
				t.Errorf("%v: segment %v", tt.w, seg)
			}
		})
	}
}

// TestEqualAxes: an Equal figure spans as much across as down (so that a right angle is drawn
// as one); without Equal the spans follow the data.
func TestEqualAxes(t *testing.T) {
	f := &plot.Figure{Series: []plot.Series{{X: []float64{0, 4}, Y: []float64{0, 1}, Points: true}}, Equal: true}
	p, _, err := linePlot(f)
	if err != nil {
		t.Fatal(err)
	}
	if dx, dy := p.X.Max-p.X.Min, p.Y.Max-p.Y.Min; math.Abs(dx-dy) > 1e-12 || dx < 4 || p.Y.Min > 0 || p.Y.Max < 1 {
		t.Errorf("spans %v x %v (%v..%v, %v..%v)", dx, dy, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	f.Equal = false
	if p, _, err = linePlot(f); err != nil {
		t.Fatal(err)
	}
	if p.X.Max-p.X.Min == p.Y.Max-p.Y.Min {
		t.Errorf("unequal data drawn with equal spans without Equal")
	}
}

// TestRegionGreys: values from Grey up are greys, darker one by one; names go in the legend.
func TestRegionGreys(t *testing.T) {
	r := &plot.Regions{Cols: 4, Rows: 1, XMax: 1, YMax: 1, Class: []int{0, 1, 2, 3}, Grey: 2, Names: []string{"a", "b", "ambiguous", "none"}}
	pal := regionPalette(r, 4)
	g2, ok2 := pal[2].(color.Gray)
	g3, ok3 := pal[3].(color.Gray)
	if _, grey := pal[1].(color.Gray); grey || !ok2 || !ok3 || g3.Y >= g2.Y {
		t.Errorf("palette %v", pal)
	}
	_, legend, err := linePlot(&plot.Figure{Regions: r})
	if err != nil || len(legend) != 4 || legend[2].name != "ambiguous" {
		t.Errorf("legend %v, %v", legend, err)
	}
}

func TestBadGrid(t *testing.T) {
	f := &plot.Figure{Grids: []plot.Grid{{Title: "bad", Rows: 2, Cols: 2, Values: []float64{1}}}}
	if err := WritePNG(&bytes.Buffer{}, f); err == nil || !strings.Contains(err.Error(), "bad") {
		t.Fatalf("error %v", err)
	}
}
