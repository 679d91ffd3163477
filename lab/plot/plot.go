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
	"image"
	"image/color"
	draw2 "image/draw"
	"image/png"
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
	// Style, when not 0, numbers the colour and glyph from 1: series with the same Style look
	// alike. 0 takes the series' place in the figure.
	Style int
	// Reference draws the series as a thin grey dashed line: a level or a mark to read the
	// others against, not data.
	Reference bool
	// Arrow draws an arrowhead at the line's last point (a vector drawn from its first).
	Arrow bool
}

// Boundary is the line w[0] x + w[1] y + w[2] = 0 of a two-feature discriminant.
type Boundary struct {
	Name  string
	W     [3]float64
	Style int // as Series.Style
	// Solid draws the line solid whatever its style (styles beyond the first are dashed).
	Solid bool
}

// Regions colours the plane by the class a classifier answers, on a Cols x Rows grid over
// [XMin, XMax] x [YMin, YMax]: Class[r*Cols+c] is the class at the centre of cell (c, r), row 0
// at YMin.
type Regions struct {
	Cols, Rows             int
	XMin, XMax, YMin, YMax float64
	Class                  []int
	// Grey, when above 0, draws the values from Grey up in greys (Grey the lightest, each
	// further value darker) instead of colours: cells no class is answered in (ambiguous, no
	// decision).
	Grey int
	// Names, when given, names the values 0, 1, ... in the legend with a swatch of their colour.
	Names []string
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
	// Equal gives both axes the same scale (a square plot over equal spans), so that angles
	// in the plane are drawn true: a weight vector normal to its boundary looks normal.
	Equal bool
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
	p, legend, err := f.linePlot()
	if err != nil {
		return err
	}
	h := height
	if f.Regions != nil || len(f.Boundaries) > 0 {
		h = width * 0.8 // decision-boundary plots keep the plane's proportions better
	}
	wd := width
	if f.Equal {
		// The data area square: the axes' labels and ticks take about as much room across
		// as down.
		wd, h = 0.8*width, 0.8*width
	}
	return writeWithLegend(p, legend, w, wd, h)
}

// legendEntry is one line of a legend.
type legendEntry struct {
	name  string
	thumb gplot.Thumbnailer
}

// writeWithLegend draws p with its legend in a column to the right of the plot, so that the
// legend never hides data.
func writeWithLegend(p *gplot.Plot, entries []legendEntry, w io.Writer, wd, ht vg.Length) error {
	if len(entries) == 0 {
		return writePlot(p, w, wd, ht)
	}
	leg := gplot.NewLegend()
	leg.Top, leg.Left = true, true
	var textW vg.Length
	for _, e := range entries {
		leg.Add(e.name, e.thumb)
		textW = max(textW, leg.TextStyle.Width(e.name))
	}
	legW := textW + leg.ThumbnailWidth + vg.Length(float64(4*leg.Padding)) + vg.Points(12)
	img := vgimg.NewWith(vgimg.UseWH(wd+legW, ht), vgimg.UseDPI(96))
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -legW, 0, 0))
	// The legend's column starts level with the top of the plot's data.
	leg.Draw(draw.Crop(dc, wd+vg.Points(6), 0, 0, -vg.Points(24)))
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
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

// style returns the plotutil colour and glyph number of a Style s at place i.
func style(s, i int) int {
	if s > 0 {
		return s - 1
	}
	return i
}

func (f *Figure) linePlot() (*gplot.Plot, []legendEntry, error) {
	p := newPlot(f)
	var legend []legendEntry
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
			return nil, nil, errors.New("plot: regions: grid size and classes disagree")
		}
		k := slices.Max(r.Class) + 1
		pal := regionPalette(r, k)
		h := plotter.NewHeatMap(regionGrid{r}, pal)
		h.Min, h.Max = -0.5, float64(k)-0.5
		p.Add(h)
		for i, name := range r.Names {
			if i < len(pal) && name != "" {
				legend = append(legend, legendEntry{name, swatch{pal[i]}})
			}
		}
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
				return nil, nil, fmt.Errorf("plot: %s: %w", s.Name, err)
			}
			sc.GlyphStyle.Color = plotutil.Color(st)
			sc.GlyphStyle.Shape = plotutil.Shape(st)
			sc.GlyphStyle.Radius = vg.Points(3)
			p.Add(sc)
			if s.Name != "" {
				legend = append(legend, legendEntry{s.Name, sc})
			}
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, nil, fmt.Errorf("plot: %s: %w", s.Name, err)
		}
		l.LineStyle.Color = plotutil.Color(st)
		l.LineStyle.Width = vg.Points(1.5)
		if st >= len(plotutil.DefaultColors) {
			// The colours repeat after seven: the second seven are dotted, and so on.
			l.LineStyle.Dashes = plotutil.Dashes(st / len(plotutil.DefaultColors))
		}
		if s.Dashed {
			l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		if s.Reference {
			l.LineStyle.Color = color.Gray{Y: 110}
			l.LineStyle.Width = vg.Points(1)
			l.LineStyle.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		}
		p.Add(l)
		if s.Arrow && len(pts) >= 2 {
			head, err := arrowHead(pts[len(pts)-2], pts[len(pts)-1], l.LineStyle)
			if err != nil {
				return nil, nil, err
			}
			p.Add(head)
		}
		if s.Name != "" {
			legend = append(legend, legendEntry{s.Name, l})
		}
	}
	if len(f.Boundaries) > 0 && !math.IsInf(xmin, 0) {
		// Room around the points.
		padX, padY := float64((xmax-xmin)*0.08), float64((ymax-ymin)*0.08)
		xmin, xmax, ymin, ymax = xmin-padX, xmax+padX, ymin-padY, ymax+padY
		for i, b := range f.Boundaries {
			name := b.Name
			seg, ok := boundarySegment(b.W, xmin, xmax, ymin, ymax)
			if !ok {
				// Still in the legend, so that a reader looks for it: drawn outside, clipped.
				name += " (outside the plot)"
				far := plotter.XY{X: float64(3*xmax) - float64(2*xmin), Y: float64(3*ymax) - float64(2*ymin)}
				seg = plotter.XYs{far, far}
			}
			l, err := plotter.NewLine(seg)
			if err != nil {
				return nil, nil, err
			}
			st := style(b.Style, i)
			l.LineStyle.Color = plotutil.Color(st)
			l.LineStyle.Width = vg.Points(2)
			if !b.Solid {
				l.LineStyle.Dashes = plotutil.Dashes(st)
			}
			p.Add(l)
			legend = append(legend, legendEntry{name, l})
		}
	}
	if f.Equal && !math.IsInf(xmin, 0) {
		// Equal spans, centred on the data (the plot is drawn square).
		if len(f.Boundaries) == 0 && f.Regions == nil {
			padX, padY := float64((xmax-xmin)*0.08), float64((ymax-ymin)*0.08)
			xmin, xmax, ymin, ymax = xmin-padX, xmax+padX, ymin-padY, ymax+padY
		}
		span := max(xmax-xmin, ymax-ymin, 1e-9)
		cx, cy := float64((xmin+xmax)/2), float64((ymin+ymax)/2)
		half := float64(span / 2)
		xmin, xmax, ymin, ymax = cx-half, cx+half, cy-half, cy+half
	}
	if len(f.Boundaries) > 0 || f.Regions != nil || f.Equal {
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
	}
	if f.YMax > f.YMin {
		p.Y.Min, p.Y.Max = f.YMin, f.YMax
	}
	p.Add(plotter.NewGrid())
	return p, legend, nil
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

// arrowHead returns the two short strokes of an arrowhead at b, for a line from a to b, an
// eighth of the line's length (in data units; the figure should have Equal axes).
func arrowHead(a, b plotter.XY, style draw.LineStyle) (*plotter.Line, error) {
	dx, dy := b.X-a.X, b.Y-a.Y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return plotter.NewLine(plotter.XYs{b, b})
	}
	size := n / 8
	ux, uy := dx/n, dy/n
	// Back along the line and out to either side by half as much.
	left := plotter.XY{X: b.X - float64(size*ux) - float64(size*uy/2), Y: b.Y - float64(size*uy) + float64(size*ux/2)}
	right := plotter.XY{X: b.X - float64(size*ux) + float64(size*uy/2), Y: b.Y - float64(size*uy) - float64(size*ux/2)}
	l, err := plotter.NewLine(plotter.XYs{left, b, right})
	if err != nil {
		return nil, err
	}
	l.LineStyle = style
	l.LineStyle.Dashes = nil
	return l, nil
}

// swatch is a legend's square of a region's colour.
type swatch struct{ c color.Color }

// Thumbnail fills the legend entry's box with the colour, edged in grey.
func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(s.c, pts)
	c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 150}, Width: vg.Points(0.5)}, append(pts, pts[0]))
}

// regionPalette returns the colours of the values 0..k-1 of r: pale series colours, and from
// r.Grey up (when above 0) greys, each darker than the last.
func regionPalette(r *Regions, k int) palette {
	p := lightPalette(k)
	if r.Grey > 0 {
		for i := r.Grey; i < k; i++ {
			p[i] = color.Gray{Y: uint8(max(120, 215-40*(i-r.Grey)))}
		}
	}
	return p
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

// Heat-map layout, in pixels at 96 dpi.
const (
	heatCell   = 14 // side of a cell of a map with 20 columns (wider grids get smaller cells)
	heatSide   = 20 * heatCell
	heatGap    = 28 // between maps
	heatLabel  = 22 // a map's own title above it
	heatTitle  = 44 // the figure's title
	heatMargin = 16
	heatMinW   = 672 // 7 inches: room for the figure's title
)

// heatMaps draws the grids side by side, up to four to a row, each on its own symmetric scale
// (blue negative, red positive, white zero; each map's title gives its largest magnitude).
// The cells are square and drawn pixel-exact.
func (f *Figure) heatMaps(w io.Writer) error {
	n := len(f.Grids)
	cols := min(n, 4)
	rows := (n + cols - 1) / cols
	for i := range f.Grids {
		g := &f.Grids[i]
		if len(g.Values) != g.Rows*g.Cols || g.Rows < 1 || g.Cols < 1 || g.Rows > 1000 || g.Cols > 1000 {
			return fmt.Errorf("plot: heat map %q: %d values for %dx%d", g.Title, len(g.Values), g.Rows, g.Cols)
		}
	}
	mapsW := cols*heatSide + (cols-1)*heatGap
	width := max(mapsW+2*heatMargin, heatMinW)
	height := heatTitle + rows*(heatLabel+heatSide+heatGap) + heatMargin
	rgba := image.NewRGBA(image.Rect(0, 0, width, height))
	draw2.Draw(rgba, rgba.Bounds(), image.White, image.Point{}, draw2.Src)
	pal := diverging()
	left0 := (width - mapsW) / 2
	type label struct {
		x, y int // the label's centre, in pixels from the top left
		text string
		size float64
	}
	labels := []label{{width / 2, heatTitle / 2, f.Title, 14}}
	for i := range f.Grids {
		g := &f.Grids[i]
		top := 0.0
		for _, v := range g.Values {
			if !math.IsNaN(v) {
				top = max(top, math.Abs(v))
			}
		}
		if top == 0 {
			top = 1
		}
		cell := max(1, heatSide/max(g.Rows, g.Cols))
		x0 := left0 + (i%cols)*(heatSide+heatGap)
		y0 := heatTitle + (i/cols)*(heatLabel+heatSide+heatGap) + heatLabel
		labels = append(labels, label{x0 + heatSide/2, y0 - heatLabel/2, fmt.Sprintf("%s (|max| %.3g)", g.Title, top), 9})
		for r := range g.Rows {
			for c := range g.Cols {
				v := g.Values[r*g.Cols+c]
				col := color.Color(color.RGBA{200, 200, 200, 255})
				if !math.IsNaN(v) {
					k := int(math.Round(v/top*50)) + 50
					col = pal[min(max(k, 0), len(pal)-1)]
				}
				draw2.Draw(rgba, image.Rect(x0+c*cell, y0+r*cell, x0+(c+1)*cell, y0+(r+1)*cell), image.NewUniform(col), image.Point{}, draw2.Src)
			}
		}
		// A thin frame around the map.
		frame := image.NewUniform(color.Gray{Y: 150})
		w, h := g.Cols*cell, g.Rows*cell
		for _, rc := range []image.Rectangle{image.Rect(x0-1, y0-1, x0+w+1, y0), image.Rect(x0-1, y0+h, x0+w+1, y0+h+1),
			image.Rect(x0-1, y0, x0, y0+h), image.Rect(x0+w, y0, x0+w+1, y0+h)} {
			draw2.Draw(rgba, rc, frame, image.Point{}, draw2.Src)
		}
	}
	// The titles, with gonum's fonts, drawn on a clear canvas laid over the pixels.
	pt := func(px int) vg.Length { return vg.Length(float64(px) * 0.75) } // 72 points per 96 pixels
	img := vgimg.NewWith(vgimg.UseWH(pt(width), pt(height)), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.Transparent))
	dc := draw.New(img)
	for _, l := range labels {
		if l.text == "" {
			continue
		}
		st := gplot.New().Title.TextStyle
		st.Font.Size = vg.Points(l.size)
		st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
		dc.FillText(st, vg.Point{X: pt(l.x), Y: pt(height - l.y)}, l.text)
	}
	draw2.Draw(rgba, rgba.Bounds(), img.Image(), image.Point{}, draw2.Over)
	return png.Encode(w, rgba)
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
