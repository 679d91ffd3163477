// Package plot holds the data of the lab's figures: learning curves, scatter plots with the
// decision boundaries of two-feature problems, class regions, receptive-field heat maps and bar
// charts.
//
// A Figure holds the data of one picture, in plain slices, so that a test can check what a
// figure shows by its numbers rather than its pixels. WriteCSV writes its data for use
// elsewhere (a spreadsheet, matplotlib), and a Figure marshals to JSON (the browser lab draws
// it from that: numbers that are not finite are null); package lab/plot/draw draws it as a PNG
// with gonum/plot. This package itself draws nothing and carries no fonts, so that the
// browser's build of the lab does not.
package plot

import (
	"encoding/csv"
	"io"
	"strconv"
)

// Series is a named sequence of points, drawn as a line or as points.
type Series struct {
	Name   string    `json:"name"`
	X      []float64 `json:"x"`
	Y      []float64 `json:"y"`
	Points bool      `json:"points"` // draw the points alone (a scatter plot), not a line
	Dashed bool      `json:"dashed"` // draw the line dashed
	// Style, when not 0, numbers the colour and glyph from 1: series with the same Style look
	// alike. 0 takes the series' place in the figure.
	Style int `json:"style"`
	// Reference draws the series as a thin grey dashed line: a level or a mark to read the
	// others against, not data.
	Reference bool `json:"reference"`
	// Arrow draws an arrowhead at the line's last point (a vector drawn from its first).
	Arrow bool `json:"arrow"`
}

// Boundary is the line w[0] x + w[1] y + w[2] = 0 of a two-feature discriminant.
type Boundary struct {
	Name  string     `json:"name"`
	W     [3]float64 `json:"w"`
	Style int        `json:"style"` // as Series.Style
	// Solid draws the line solid whatever its style (styles beyond the first are dashed).
	Solid bool `json:"solid"`
}

// Regions colours the plane by the class a classifier answers, on a Cols x Rows grid over
// [XMin, XMax] x [YMin, YMax]: Class[r*Cols+c] is the class at the centre of cell (c, r), row 0
// at YMin.
type Regions struct {
	Cols  int     `json:"cols"`
	Rows  int     `json:"rows"`
	XMin  float64 `json:"xmin"`
	XMax  float64 `json:"xmax"`
	YMin  float64 `json:"ymin"`
	YMax  float64 `json:"ymax"`
	Class []int   `json:"class"`
	// Grey, when above 0, draws the values from Grey up in greys (Grey the lightest, each
	// further value darker) instead of colours: cells no class is answered in (ambiguous, no
	// decision).
	Grey int `json:"grey"`
	// Names, when given, names the values 0, 1, ... in the legend with a swatch of their colour.
	Names []string `json:"names"`
}

// CellX returns the x of the centre of the cells of column c.
func (r *Regions) CellX(c int) float64 {
	step := (r.XMax - r.XMin) / float64(r.Cols)
	return r.XMin + float64(step*(float64(c)+0.5))
}

// CellY returns the y of the centre of the cells of row (from YMin).
func (r *Regions) CellY(row int) float64 {
	step := (r.YMax - r.YMin) / float64(r.Rows)
	return r.YMin + float64(step*(float64(row)+0.5))
}

// Grid is a heat map of Rows x Cols values, row-major, row 0 at the top (as the retina's rows).
type Grid struct {
	Title  string    `json:"title"`
	Rows   int       `json:"rows"`
	Cols   int       `json:"cols"`
	Values []float64 `json:"values"` // NaN: no value (drawn grey; null in JSON)
}

// Bar is one bar of a bar chart.
type Bar struct {
	Label string  `json:"label"`
	Value float64 `json:"value"`
}

// Figure is the data of one picture. A figure with Grids is a set of heat maps side by side;
// with Bars, a bar chart; otherwise a plot of its Series, Boundaries and Regions.
type Figure struct {
	Name       string     `json:"name"` // file name stem (name.png, name.csv)
	Title      string     `json:"title"`
	XLabel     string     `json:"xlabel"`
	YLabel     string     `json:"ylabel"`
	LogX       bool       `json:"logx"`
	LogY       bool       `json:"logy"`
	YMin       float64    `json:"ymin"` // when YMax > YMin, the y axis spans exactly this
	YMax       float64    `json:"ymax"`
	Series     []Series   `json:"series"`
	Boundaries []Boundary `json:"boundaries"`
	Regions    *Regions   `json:"regions"`
	Grids      []Grid     `json:"grids"`
	Bars       []Bar      `json:"bars"`
	Caption    string     `json:"caption"` // what the figure shows, for reports
	// Equal gives both axes the same scale (a square plot over equal spans), so that angles
	// in the plane are drawn true: a weight vector normal to its boundary looks normal.
	Equal bool `json:"equal"`
}

// WriteCSV writes the figure's data as CSV: for series, one row per point "series,x,y"; a
// figure with boundaries or regions has a fourth column, value, empty for the points, and
// rows "boundary NAME,w_x,w_y,w_0" and "regions,x,y,class" (at each cell's centre); for heat
// maps, "grid,row,col,value"; for bars, "label,value".
func (f *Figure) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch {
	case len(f.Grids) > 0:
		cw.Write([]string{"grid", "row", "col", "value"})
		for _, g := range f.Grids {
			for i, v := range g.Values {
				cw.Write([]string{g.Title, strconv.Itoa(i / g.Cols), strconv.Itoa(i % g.Cols), num(v)})
			}
		}
	case len(f.Bars) > 0:
		cw.Write([]string{"label", "value"})
		for _, b := range f.Bars {
			cw.Write([]string{b.Label, num(b.Value)})
		}
	default:
		head := []string{"series", orDefault(f.XLabel, "x"), orDefault(f.YLabel, "y")}
		extra := len(f.Boundaries) > 0 || f.Regions != nil
		if extra {
			head = append(head, "value")
		}
		cw.Write(head)
		for _, s := range f.Series {
			for i := range min(len(s.X), len(s.Y)) {
				row := []string{s.Name, num(s.X[i]), num(s.Y[i])}
				if extra {
					row = append(row, "")
				}
				cw.Write(row)
			}
		}
		for _, b := range f.Boundaries {
			cw.Write([]string{"boundary " + b.Name, num(b.W[0]), num(b.W[1]), num(b.W[2])})
		}
		if r := f.Regions; r != nil {
			for row := range r.Rows {
				for c := range r.Cols {
					cw.Write([]string{"regions", num(r.CellX(c)), num(r.CellY(row)), strconv.Itoa(r.Class[row*r.Cols+c])})
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
