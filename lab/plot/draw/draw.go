// Package draw draws the lab's figures (package lab/plot) as PNG images with gonum/plot:
// lines and scatter plots with their legends beside them, decision boundaries clipped to the
// data, class regions, heat maps drawn pixel-exact, and bar charts. It is the only part of the
// lab that carries gonum/plot and its fonts; the browser's build of the lab draws the same
// figures' data itself.
package draw

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	draw2 "image/draw"
	"image/png"
	"io"
	"math"
	"slices"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/mark1-perceptron/mark1/lab/plot"
)

// Size of a figure in points (1/72 inch); PNGs are drawn at 96 dpi... by gonum's default.
const (
	width  = 7 * vg.Inch
	height = 4.5 * vg.Inch
)

// WritePNG draws the figure f as a PNG image.
func WritePNG(w io.Writer, f *plot.Figure) error {
	switch {
	case len(f.Grids) > 0:
		return heatMaps(w, f)
	case len(f.Bars) > 0:
		p, err := barChart(f)
		if err != nil {
			return err
		}
		return writePlot(p, w, width, height)
	}
	p, legend, err := linePlot(f)
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

func newPlot(f *plot.Figure) *gplot.Plot {
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
func xys(s plot.Series, logX, logY bool) plotter.XYs {
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

func linePlot(f *plot.Figure) (*gplot.Plot, []legendEntry, error) {
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

// regionGrid adapts plot.Regions to plotter.GridXYZ.
type regionGrid struct{ r *plot.Regions }

func (g regionGrid) Dims() (c, r int)   { return g.r.Cols, g.r.Rows }
func (g regionGrid) Z(c, r int) float64 { return float64(g.r.Class[r*g.r.Cols+c]) }
func (g regionGrid) X(c int) float64    { return g.r.CellX(c) }
func (g regionGrid) Y(r int) float64    { return g.r.CellY(r) }

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
func regionPalette(r *plot.Regions, k int) palette {
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
func heatMaps(w io.Writer, f *plot.Figure) error {
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

func barChart(f *plot.Figure) (*gplot.Plot, error) {
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
