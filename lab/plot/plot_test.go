package plot

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func sampleFigures() []*Figure {
	var xs, ys, ys2 []float64
	for e := 1; e <= 30; e++ {
		xs = append(xs, float64(e))
		ys = append(ys, math.Exp(-float64(e)/8))
		ys2 = append(ys2, 0.3+0.1*math.Sin(float64(e)))
	}
	heat := Grid{Title: "R0 (E on)", Rows: 20, Cols: 20}
	for r := range 20 {
		for c := range 20 {
			heat.Values = append(heat.Values, float64(c-r))
		}
	}
	regions := &Regions{Cols: 4, Rows: 3, XMin: -2, XMax: 2, YMin: -1, YMax: 2, Class: []int{0, 0, 1, 1, 0, 1, 1, 2, 2, 2, 2, 2}}
	return []*Figure{
		{Name: "curves", Title: "learning curves", XLabel: "epoch", YLabel: "training error",
			Series: []Series{{Name: "perceptron", X: xs, Y: ys2}, {Name: "pocket", X: xs, Y: ys, Dashed: true}}},
		{Name: "log", Title: "log-log", LogX: true, LogY: true, XLabel: "bound", YLabel: "corrections",
			Series: []Series{{Name: "problems", X: []float64{1, 10, 100, 0}, Y: []float64{1, 5, 50, 3}, Points: true}}},
		{Name: "boundary", Title: "XOR", XLabel: "x1", YLabel: "x2",
			Series:     []Series{{Name: "-1", X: []float64{0, 1}, Y: []float64{0, 1}, Points: true}, {Name: "+1", X: []float64{0, 1}, Y: []float64{1, 0}, Points: true}},
			Boundaries: []Boundary{{Name: "perceptron", W: [3]float64{1, 1, -0.5}}, {Name: "vertical", W: [3]float64{1, 0, -0.5}}, {Name: "outside", W: [3]float64{0, 1, -50}}}},
		{Name: "regions", Title: "three classes", Regions: regions,
			Series: []Series{{Name: "a", X: []float64{-1}, Y: []float64{0}, Points: true}}},
		{Name: "heat", Title: "receptive fields", Grids: []Grid{heat, heat, heat, heat, heat}},
		{Name: "normal", Title: "w normal to its boundary", Equal: true, XLabel: "x1", YLabel: "x2",
			Series: []Series{{Name: "points", X: []float64{0, 4}, Y: []float64{0, 1}, Points: true},
				{Name: "w", X: []float64{1, 2}, Y: []float64{1, 2}, Arrow: true}},
			Boundaries: []Boundary{{Name: "x1 + x2 = 2", W: [3]float64{1, 1, -2}}}},
		{Name: "undecided", Title: "regions nobody answers", Regions: &Regions{Cols: 3, Rows: 1, XMin: 0, XMax: 3, YMin: 0, YMax: 1,
			Class: []int{0, 2, 3}, Grey: 2, Names: []string{"a", "b", "ambiguous", "no class"}}},
		{Name: "bars", Title: "test accuracy", YLabel: "accuracy", YMin: 0, YMax: 1,
			Bars: []Bar{{"ideal", 0.95}, {"blur", 0.93}, {"gamma", 0.95}, {"spread", 0.9}, {"lag", 0.9}, {"dark_noise", 0.8}, {"all", 0.7}}},
	}
}

func TestWriteCSV(t *testing.T) {
	figs := sampleFigures()
	want := map[string][]string{
		"curves":   {"series,epoch,training error", "perceptron,1,", "pocket,30,"},
		"boundary": {"boundary perceptron,1,1,-0.5"},
		"regions":  {"series,x,y,value", "a,-1,0,\n", "regions,-1.5,-0.5,0", "regions,1.5,1.5,2"},
		"heat":     {"grid,row,col,value", "R0 (E on),0,3,3", "R0 (E on),19,0,-19"},
		"bars":     {"label,value", "dark_noise,0.8"},
	}
	for _, f := range figs {
		var buf bytes.Buffer
		if err := f.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll(); err != nil {
			t.Fatalf("%s: not CSV: %v", f.Name, err)
		}
		for _, w := range want[f.Name] {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("%s: CSV lacks %q:\n%s", f.Name, w, buf.String())
			}
		}
	}
}

// TestFigureJSON: a figure marshals with the names the browser lab reads, every list present,
// and numbers that are not finite as null (JSON has no NaN).
func TestFigureJSON(t *testing.T) {
	tests := []struct {
		name string
		fig  *Figure
		want []string
	}{
		{"series", &Figure{Name: "c", Title: "T", XLabel: "epoch", Series: []Series{{Name: "a", X: []float64{1, math.NaN()}, Y: []float64{math.Inf(1), 0.5}, Points: true, Style: 2}}},
			[]string{`"name":"c"`, `"xlabel":"epoch"`, `"series":[{"name":"a","points":true,"dashed":false,"style":2,"reference":false,"arrow":false,"x":[1,null],"y":[null,0.5]}]`,
				`"boundaries":[]`, `"regions":null`, `"grids":[]`, `"bars":[]`}},
		{"grid", &Figure{Grids: []Grid{{Title: "g", Rows: 1, Cols: 2, Values: []float64{math.NaN(), -1}}}}, []string{`"grids":[{"title":"g","rows":1,"cols":2,"values":[null,-1]}]`}},
		{"boundary", &Figure{Boundaries: []Boundary{{Name: "b", W: [3]float64{1, math.NaN(), 3}, Solid: true}}}, []string{`"boundaries":[{"name":"b","style":0,"solid":true,"w":[1,null,3]}]`}},
		{"bars", &Figure{Bars: []Bar{{"x", math.NaN()}, {"y", 2}}}, []string{`"bars":[{"label":"x","value":null},{"label":"y","value":2}]`}},
		{"regions", &Figure{Regions: &Regions{Cols: 1, Rows: 1, XMax: 1, YMax: 1, Class: []int{0}}}, []string{`"regions":{"cols":1,"rows":1,"xmin":0,"xmax":1,"ymin":0,"ymax":1,"class":[0],"grey":0,"names":null}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.fig)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("JSON lacks %s:\n%s", w, b)
				}
			}
			var back map[string]any
			if err := json.Unmarshal(b, &back); err != nil {
				t.Errorf("not JSON: %v", err)
			}
		})
	}
}
