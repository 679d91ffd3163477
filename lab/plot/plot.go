// Package plot draws the lab's figures with gonum/plot: learning curves, scatter plots with the
// decision boundaries of two-feature problems, receptive-field heat maps and bar charts.
//
// A Figure holds the data of one picture, in plain slices, so that a test can check what a
// figure shows by its numbers rather than its pixels; WritePNG draws it and WriteCSV writes its
// data for use elsewhere (a spreadsheet, matplotlib).
package plot

import (
	"encoding/csv"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Series is a named sequence of points, drawn as a line or as points.
type Series struct {
	Name   string
	X, Y   []float64
	Points bool // draw the points alone (a scatter plot), not a line
	Dashed bool // draw the line dashed
	Style  int  // colour and glyph number; series with the same Style look alike (default: its index)
}

// Boundary is the line w[0] x + w[1] y + w[2] = 0 of a two-feature discriminant.
type Boundary struct {
	Name  string
	W     [3]float64
	Style int
}

// Regions colours the plane by the class a classifier answers, on a Cols x Rows grid over
// [XMin, XMax] x [YMin, YMax]: Class[r*Cols+c] is the class at the centre of cell (c, r), row 0
// at YMin.
type Regions struct {
	Cols, Rows             int
	XMin, XMax, YMin, YMax float64
	Class                  []int
}

// Grid is a heat map of Rows x Cols values, row-major, row 0 at the top (as the retina's rows).
type Grid struct {
	Title      string
	Rows, Cols int
	Values     []float64
}

// Bar is one bar of a bar chart.
type Bar struct {
	Label string
	Value float64
}

// Figure is the data of one picture. A figure with Grids is a set of heat maps side by side;
// with Bars, a bar chart; otherwise a plot of its Series, Boundaries and Regions.
type Figure struct {
	Name           string // file name stem (name.png, name.csv)
	Title          string
	XLabel, YLabel string
	LogX, LogY     bool
	YMin, YMax     float64 // when YMax > YMin, the y axis spans exactly this
	Series         []Series
	Boundaries     []Boundary
	Regions        *Regions
	Grids          []Grid
	Bars           []Bar
	Caption        string // what the figure shows, for reports
}

// Size of a figure in points (1/72 inch); PNGs are drawn at 96 dpi... by gonum's default.
const (
	width  = 7 * vg.Inch
	height = 4.5 * vg.Inch
)

// WritePNG draws the figure as a PNG image.
func (f *Figure) WritePNG(w io.Writer) error {
	switch {
	case len(f.Grids) > 0:
		return f.heatMaps(w)
	case len(f.Bars) > 0:
		p, err := f.barChart()
		if err != nil {
			return err
		}
		return writePlot(p, w, width, height)
	}
	p, err := f.linePlot()
	if err != nil {
		return err
	}
	h := height
	if f.Regions != nil || len(f.Boundaries) > 0 {
		h = width * 0.8 // decision-boundary plots keep the plane's proportions better
	}
	return writePlot(p, w, width, h)
}

func writePlot(p *gplot.Plot, w io.Writer, wd, ht vg.Length) error {
	wt, err := p.WriterTo(wd, ht, "png")
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	_, err = wt.WriteTo(w)
	return err
}

func newPlot(f *Figure) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	p.Legend.Top = true
	if f.LogX {
		p.X.Scale = gplot.LogScale{}
		p.X.Tick.Marker = gplot.LogTicks{Prec: -1}
	}
	if f.LogY {
		p.Y.Scale = gplot.LogScale{}
		p.Y.Tick.Marker = gplot.LogTicks{Prec: -1}
	}
	return p
}

// xys adapts two slices to plotter.XYer, leaving out points a log axis cannot show.
func xys(s Series, logX, logY bool) plotter.XYs {
	var out plotter.XYs
	for i := range min(len(s.X), len(s.Y)) {
		x, y := s.X[i], s.Y[i]
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || (logX && x <= 0) || (logY && y <= 0) {
			continue
		}
		out = append(out, plotter.XY{X: x, Y: y})
	}
	return out
}

func style(s, i int) int {
	if s != 0 {
		return s
	}
	return i
}

func (f *Figure) linePlot() (*gplot.Plot, error) {
	p := newPlot(f)
	// The data's extent, for the boundaries and the regions.
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range f.Series {
		for _, pt := range xys(s, f.LogX, f.LogY) {
			xmin, xmax = min(xmin, pt.X), max(xmax, pt.X)
			ymin, ymax = min(ymin, pt.Y), max(ymax, pt.Y)
		}
	}
	if r := f.Regions; r != nil {
		xmin, xmax, ymin, ymax = r.XMin, r.XMax, r.YMin, r.YMax
		if len(r.Class) != r.Cols*r.Rows || r.Cols < 1 || r.Rows < 1 {
			return nil, errors.New("plot: regions: grid size and classes disagree")
		}
		k := slices.Max(r.Class) + 1
		h := plotter.NewHeatMap(regionGrid{r}, lightPalette(k))
		h.Min, h.Max = -0.5, float64(k)-0.5
		p.Add(h)
	}
	for i, s := range f.Series {
		pts := xys(s, f.LogX, f.LogY)
		if len(pts) == 0 {
			continue
		}
		st := style(s.Style, i)
		if s.Points {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("plot: %s: %w", s.Name, err)
			}
			sc.GlyphStyle.Color = plotutil.Color(st)
			sc.GlyphStyle.Shape = plotutil.Shape(st)
			sc.GlyphStyle.Radius = vg.Points(3)
			p.Add(sc)
			if s.Name != "" {
				p.Legend.Add(s.Name, sc)
			}
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("plot: %s: %w", s.Name, err)
		}
		l.LineStyle.Color = plotutil.Color(st)
		l.LineStyle.Width = vg.Points(1.5)
		if s.Dashed {
			l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		if s.Name != "" {
			p.Legend.Add(s.Name, l)
		}
	}
	if len(f.Boundaries) > 0 && !math.IsInf(xmin, 0) {
		// Room around the points, and above them for the legend.
		padX, padY := float64((xmax-xmin)*0.08), float64((ymax-ymin)*0.08)
		xmin, xmax, ymin, ymax = xmin-padX, xmax+padX, ymin-padY, ymax+float64(padY*float64(2+len(f.Series)+len(f.Boundaries)))
		for i, b := range f.Boundaries {
			seg, ok := boundarySegment(b.W, xmin, xmax, ymin, ymax)
			if !ok {
				continue
			}
			l, err := plotter.NewLine(seg)
			if err != nil {
				return nil, err
			}
			st := style(b.Style, i)
			l.LineStyle.Color = plotutil.Color(st)
			l.LineStyle.Width = vg.Points(2)
			l.LineStyle.Dashes = plotutil.Dashes(st)
			p.Add(l)
			p.Legend.Add(b.Name, l)
		}
	}
	if len(f.Boundaries) > 0 || f.Regions != nil {
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
	}
	if f.YMax > f.YMin {
		p.Y.Min, p.Y.Max = f.YMin, f.YMax
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// boundarySegment returns the part of the line w[0] x + w[1] y + w[2] = 0 that crosses the
// box, as two points (false when the line misses the box or w is zero).
func boundarySegment(w [3]float64, xmin, xmax, ymin, ymax float64) (plotter.XYs, bool) {
	a, b, c := w[0], w[1], w[2]
	if a == 0 && b == 0 {
		return nil, false
	}
	var pts plotter.XYs
	if math.Abs(b) >= math.Abs(a) {
		for _, x := range []float64{xmin, xmax} {
			pts = append(pts, plotter.XY{X: x, Y: -(float64(a*x) + c) / b})
		}
	} else {
		for _, y := range []float64{ymin, ymax} {
			pts = append(pts, plotter.XY{X: -(float64(b*y) + c) / a, Y: y})
		}
	}
	// The line crosses the box when its ends are not both beyond one side.
	if (pts[0].Y > ymax && pts[1].Y > ymax) || (pts[0].Y < ymin && pts[1].Y < ymin) ||
		(pts[0].X > xmax && pts[1].X > xmax) || (pts[0].X < xmin && pts[1].X < xmin) {
		return nil, false
	}
	return pts, true
}

// regionGrid adapts Regions to plotter.GridXYZ.
type regionGrid struct{ r *Regions }

func (g regionGrid) Dims() (c, r int)   { return g.r.Cols, g.r.Rows }
func (g regionGrid) Z(c, r int) float64 { return float64(g.r.Class[r*g.r.Cols+c]) }
func (g regionGrid) X(c int) float64 {
	step := (g.r.XMax - g.r.XMin) / float64(g.r.Cols)
	return g.r.XMin + float64(step*(float64(c)+0.5))
}
func (g regionGrid) Y(r int) float64 {
	step := (g.r.YMax - g.r.YMin) / float64(g.r.Rows)
	return g.r.YMin + float64(step*(float64(r)+0.5))
}

// palette is a list of colours (gonum's palette.Palette).
type palette []color.Color

func (p palette) Colors() []color.Color { return p }

// lightPalette returns pale versions of the first k series colours, for class regions.
func lightPalette(k int) palette {
	var p palette
	for i := range k {
		r, g, b, _ := plotutil.Color(i).RGBA()
		pale := func(v uint32) uint8 { return uint8(255 - (255-v>>8)*30/100) }
		p = append(p, color.RGBA{pale(r), pale(g), pale(b), 255})
	}
	return p
}

// diverging is blue (negative) through white (zero) to red (positive), in 101 steps.
func diverging() palette {
	var p palette
	for i := range 101 {
		t := i - 50 // -50..50
		switch {
		case t < 0:
			v := uint8(255 + t*200/50) // toward (55, 90, 200)
			p = append(p, color.RGBA{v, uint8(255 + t*165/50), uint8(255 + t*55/50), 255})
		default:
			p = append(p, color.RGBA{uint8(255 - t*55/50), uint8(255 - t*200/50), uint8(255 - t*200/50), 255})
		}
	}
	return p
}

// heatGrid adapts Grid to plotter.GridXYZ: column c at x = c, row r at y = Rows-1-r (row 0 on
// top).
type heatGrid struct{ g *Grid }

func (h heatGrid) Dims() (c, r int)   { return h.g.Cols, h.g.Rows }
func (h heatGrid) Z(c, r int) float64 { return h.g.Values[(h.g.Rows-1-r)*h.g.Cols+c] }
func (h heatGrid) X(c int) float64    { return float64(c) }
func (h heatGrid) Y(r int) float64    { return float64(r) }

// heatMaps draws the grids side by side, up to four to a row, each on its own symmetric scale
// (blue negative, red positive, white zero; the title gives the largest magnitude).
func (f *Figure) heatMaps(w io.Writer) error {
	n := len(f.Grids)
	cols := min(n, 4)
	rows := (n + cols - 1) / cols
	tile := 2.2 * vg.Inch // the width of a map; its height adds its title
	titleH := vg.Length(0)
	if f.Title != "" {
		titleH = 0.4 * vg.Inch
	}
	// (Every product rounded before it is added: see internal/detmath on fused multiply-adds.)
	h := vg.Length(float64(vg.Length(rows)*(tile+0.3*vg.Inch))) + titleH
	img := vgimg.NewWith(vgimg.UseWH(vg.Length(cols)*tile, h), vgimg.UseDPI(96))
	dc := draw.New(img)
	if f.Title != "" {
		title := gplot.New().Title.TextStyle
		title.Font.Size = vg.Points(14)
		title.XAlign = draw.XCenter
		mid := vg.Length(float64((dc.Min.X + dc.Max.X) / 2))
		dc.FillText(title, vg.Point{X: mid, Y: dc.Max.Y - vg.Length(float64(titleH/2))}, f.Title)
		dc.Max.Y -= titleH
	}
	plots := make([][]*gplot.Plot, rows)
	for r := range rows {
		plots[r] = make([]*gplot.Plot, cols)
	}
	for i := range f.Grids {
		g := &f.Grids[i]
		if len(g.Values) != g.Rows*g.Cols || g.Rows < 1 || g.Cols < 1 {
			return fmt.Errorf("plot: heat map %q: %d values for %dx%d", g.Title, len(g.Values), g.Rows, g.Cols)
		}
		top := 0.0
		for _, v := range g.Values {
			if !math.IsNaN(v) {
				top = max(top, math.Abs(v))
			}
		}
		if top == 0 {
			top = 1
		}
		p := gplot.New()
		p.Title.Text = fmt.Sprintf("%s (|max| %.3g)", g.Title, top)
		p.Title.TextStyle.Font.Size = vg.Points(9)
		h := plotter.NewHeatMap(heatGrid{g}, diverging())
		h.Min, h.Max = -top, top
		p.Add(h)
		p.HideAxes()
		p.X.Min, p.X.Max = -0.5, float64(g.Cols)-0.5
		p.Y.Min, p.Y.Max = -0.5, float64(g.Rows)-0.5
		plots[i/cols][i%cols] = p
	}
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 3, PadY: vg.Millimeter * 3,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := gplot.Align(plots, t, dc)
	for r := range rows {
		for c := range cols {
			if plots[r][c] != nil {
				plots[r][c].Draw(canvases[r][c])
			}
		}
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

func (f *Figure) barChart() (*gplot.Plot, error) {
	p := newPlot(f)
	vals := make(plotter.Values, len(f.Bars))
	names := make([]string, len(f.Bars))
	for i, b := range f.Bars {
		vals[i], names[i] = b.Value, b.Label
	}
	bc, err := plotter.NewBarChart(vals, vg.Points(14))
	if err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	bc.Color = plotutil.Color(0)
	bc.LineStyle.Width = 0
	p.Add(bc)
	p.NominalX(names...)
	if len(names) > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 4
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	if f.YMax > f.YMin {
		p.Y.Min, p.Y.Max = f.YMin, f.YMax
	}
	p.Add(plotter.NewGrid())
	return p, nil
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
			g := regionGrid{r}
			for row := range r.Rows {
				for c := range r.Cols {
					cw.Write([]string{"regions", num(g.X(c)), num(g.Y(row)), strconv.Itoa(r.Class[row*r.Cols+c])})
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
