package demo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

func geometryDemo() lab.Demo {
	return lab.Demo{Name: "geometry", Help: "w normal to the boundary, distances g(x)/|w|, projections",
		Args: "--data FILE | --point X1,X2,Y ... [--w W]", Usage: "--data FILE | --point X1,X2,LABEL ... [--w W] [trace flags]",
		Params: append(traceParams(), lab.Param{Name: "w", Kind: lab.String, Help: "the weights to draw, comma-separated, bias where --bias says (default: the trace's last weights)"}),
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			d, tc, err := traceSettings(c)
			if err != nil {
				return nil, err
			}
			var w exact.Vec
			if text := c.String("w"); text != "" {
				if w, err = exact.ParseVec(text); err != nil {
					return nil, lab.ParamErrorf("--w %s: %v", text, err)
				}
			}
			r, err := geometryReport(ctx, d, tc, w)
			if err != nil && ctx.Err() == nil {
				return nil, &lab.ParamError{Msg: err.Error()}
			}
			return r, err
		}}
}

func sqrtF(v float64) float64 { return math.Sqrt(v) }

// split returns the feature weights and the bias of augmented weights w.
func split(w exact.Vec, b trace.Bias) (exact.Vec, *big.Rat) {
	if b == trace.First {
		return w[1:], w[0]
	}
	return w[:len(w)-1], w[len(w)-1]
}

// pointGeometry is what the geometry of w.x says of one sample, exactly: the feature part of
// the score, w.x, and g(x) = w.x + w0; the projection w.x/|w| and the signed distance
// g(x)/|w| are these over |w| = sqrt(NormSq).
type pointGeometry struct {
	Sample string
	X      exact.Vec
	Y      int
	WX     *big.Rat // w.x, the bias left out
	G      *big.Rat // g(x) = w.x + w0
}

// planeGeometry is the geometry of one weight vector on a two-feature problem.
type planeGeometry struct {
	W      exact.Vec // the feature weights (w1, w2)
	W0     *big.Rat  // the bias
	NormSq *big.Rat  // |w|^2 = w1^2 + w2^2
	Points []pointGeometry
}

// newPlaneGeometry computes the geometry of the augmented weights w (bias where b says) on d.
func newPlaneGeometry(d *trace.Data, w exact.Vec, b trace.Bias) (*planeGeometry, error) {
	if b == trace.None {
		return nil, errors.New("the geometry needs a bias, first or last (the boundary's distance from the origin is -w0/|w|)")
	}
	if len(w) != d.Dim()+1 {
		return nil, fmt.Errorf("weights %s: %d numbers, want %d", w, len(w), d.Dim()+1)
	}
	wv, w0 := split(w, b)
	g := &planeGeometry{W: wv, W0: w0, NormSq: wv.Dot(wv)}
	if g.NormSq.Sign() == 0 {
		return nil, fmt.Errorf("weights %s: w = 0 apart from the bias has no boundary (every x scores w0)", w)
	}
	for _, p := range d.Points {
		wx := wv.Dot(p.X)
		g.Points = append(g.Points, pointGeometry{p.Where, p.X, p.Y, wx, new(big.Rat).Add(wx, w0)})
	}
	return g, nil
}

// equation writes w1 x1 + w2 x2 + w0 as a textbook does: "2 x1 - x2 + 0.5", terms of 0 left
// out.
func equation(w exact.Vec, w0 *big.Rat) string {
	return equationOf(w, w0, func(i int) string { return fmt.Sprintf("x%d", i+1) })
}

// equationOf writes w.x + w0 as equation does, the i-th feature named name(i).
func equationOf(w exact.Vec, w0 *big.Rat, name func(i int) string) string {
	var b strings.Builder
	term := func(c *big.Rat, name string) {
		if c.Sign() == 0 {
			return
		}
		a := new(big.Rat).Abs(c)
		switch {
		case b.Len() == 0 && c.Sign() < 0:
			b.WriteString("-")
		case b.Len() > 0 && c.Sign() < 0:
			b.WriteString(" - ")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		if name == "" || a.Cmp(exact.Int(1)) != 0 {
			b.WriteString(exact.Format(a))
			if name != "" {
				b.WriteString(" ")
			}
		}
		b.WriteString(name)
	}
	for i, c := range w {
		term(c, name(i))
	}
	term(w0, "")
	if b.Len() == 0 {
		return "0"
	}
	return b.String()
}

// norm returns |w| (floating point: a square root).
func (g *planeGeometry) norm() float64 { return math.Sqrt(exact.Float(g.NormSq)) }

// origin returns the boundary's signed distance from the origin, -w0/|w| (positive when the
// boundary lies on w's side of the origin).
func (g *planeGeometry) origin() float64 { return -exact.Float(g.W0) / g.norm() }

// geometryReport shows the geometry of w.x on a two-feature problem: w normal to the
// boundary, the boundary's distance -w0/|w| from the origin, each sample's signed distance
// g(x)/|w| and its projection w.x/|w| onto w's direction, and, when the weights come from a
// trace, the boundary after each update. w nil: the trace's final weights.
func geometryReport(ctx context.Context, d *trace.Data, c trace.Config, w exact.Vec) (*report.Report, error) {
	if d.Dim() != 2 {
		return nil, fmt.Errorf("the geometry is drawn in the plane: want 2 features, the data have %d", d.Dim())
	}
	if c.Bias == trace.None {
		return nil, errors.New("the geometry needs a bias, first or last (the boundary's distance from the origin is -w0/|w|)")
	}
	var t *trace.Trace
	from := "given"
	if w == nil {
		var err error
		if t, err = trace.Run(ctx, d, c); err != nil {
			return nil, err
		}
		w, from = t.Final(), "the trace's last (mark1 lab trace with the same flags prints it): "+ruleText(c)
		if !t.Converged {
			from += "; " + traceOutcome(t)
		}
	}
	g, err := newPlaneGeometry(d, w, c.Bias)
	if err != nil {
		return nil, err
	}
	r := &report.Report{Name: "geometry", Title: "The geometry of w.x in the plane"}
	r.Summary = "g(x) = w.x + w0 is zero on the boundary, a line normal to w. A sample's signed distance from it is g(x)/|w|, positive on w's side; the boundary's own distance from the origin is -w0/|w|. The dot product w.x/|w| is the length of x's projection onto w's direction: the signed distance is that projection less the boundary's."
	r.Condition("data", dataText(d))
	r.Condition("weights", fmt.Sprintf("%s, %s", w, from))
	r.Condition("bias", biasText(c.Bias))
	r.Condition("w, w0", fmt.Sprintf("w = %s, w0 = %s", g.W, exact.Format(g.W0)))
	r.Condition("|w|", fmt.Sprintf("sqrt(%s) ≈ %.4g", exact.Format(g.NormSq), g.norm()))
	r.Condition("boundary", fmt.Sprintf("%s = 0, at -w0/|w| = %s from the origin", equation(g.W, g.W0), ratSqrt(new(big.Rat).Neg(g.W0), g.NormSq)))
	tab := &report.Table{Name: "distances", Title: "Each sample's projection and distance", Columns: []string{"sample", "x", "y", "w.x", "g(x) = w.x + w0", "projection w.x/|w|", "distance g(x)/|w|", "right side"}}
	for _, p := range g.Points {
		tab.Rows = append(tab.Rows, []string{p.Sample, p.X.String(), signed(p.Y), exact.Format(p.WX), exact.Format(p.G),
			ratSqrt(p.WX, g.NormSq), ratSqrt(p.G, g.NormSq), yes(p.G.Sign() == p.Y)})
	}
	tab.Note = "distance = projection - (-w0/|w|): the projection onto w's direction measured from the boundary's place on it. Right side: the sign of g(x) is y (a score of 0 is on the boundary, on neither side)."
	r.Tables = append(r.Tables, tab)
	r.Figures = append(r.Figures, geometryFigure(d, g))
	if t != nil {
		if fig := updatesFigure(t); fig != nil {
			r.Figures = append(r.Figures, fig)
		}
	}
	pts := make([]map[string]any, len(g.Points))
	for i, p := range g.Points {
		pts[i] = map[string]any{"sample": p.Sample, "x": p.X.Strings(), "y": p.Y, "w_x": exact.Format(p.WX), "g": exact.Format(p.G),
			"projection": exact.Float(p.WX) / g.norm(), "distance": exact.Float(p.G) / g.norm()}
	}
	r.Data = map[string]any{"w": g.W.Strings(), "w0": exact.Format(g.W0), "norm_squared": exact.Format(g.NormSq),
		"origin_distance": g.origin(), "points": pts}
	return r, nil
}

// geometryFigure draws the samples, the boundary, w as an arrow from the boundary's point
// nearest the origin, w's direction through the origin with each sample's projection on it,
// and each sample's distance to the boundary.
func geometryFigure(d *trace.Data, g *planeGeometry) *plot.Figure {
	w1, w2, w0 := exact.Float(g.W[0]), exact.Float(g.W[1]), exact.Float(g.W0)
	n := g.norm()
	u1, u2 := w1/n, w2/n // w's direction
	f := &plot.Figure{Name: "geometry", Title: "w is normal to the boundary; distances are g(x)/|w|", XLabel: "x1", YLabel: "x2", Equal: true,
		Caption: "the boundary w.x + w0 = 0; w drawn from the boundary's point nearest the origin (at -w0/|w| from it); the dashed grey line is w's direction through the origin, each sample's projection marked on it; the dashed segments are the samples' distances to the boundary"}
	f.Series = classSeries(d)
	// The extent of the data and the origin, for the lengths drawn.
	xmin, xmax, ymin, ymax := 0.0, 0.0, 0.0, 0.0
	for _, p := range d.Points {
		x, y := exact.Float(p.X[0]), exact.Float(p.X[1])
		xmin, xmax, ymin, ymax = min(xmin, x), max(xmax, x), min(ymin, y), max(ymax, y)
	}
	span := max(xmax-xmin, ymax-ymin, 1)
	o := g.origin()
	p0x, p0y := float64(o*u1), float64(o*u2) // the boundary's point nearest the origin
	f.Series = append(f.Series,
		plot.Series{Name: "origin", X: []float64{0}, Y: []float64{0}, Points: true, Style: 7},
		plot.Series{Name: "w's direction through the origin", X: []float64{float64(-span * u1), float64(span * u1)}, Y: []float64{float64(-span * u2), float64(span * u2)}, Reference: true},
		plot.Series{Name: "-w0/|w| from the origin", X: []float64{0, p0x}, Y: []float64{0, p0y}, Style: 7},
		plot.Series{Name: "w (its direction)", X: []float64{p0x, p0x + float64(span*u1/3)}, Y: []float64{p0y, p0y + float64(span*u2/3)}, Arrow: true, Style: 4})
	proj := plot.Series{Name: "projections w.x/|w| onto w", Points: true, Style: 5}
	for i, p := range g.Points {
		x, y := exact.Float(p.X[0]), exact.Float(p.X[1])
		s := exact.Float(p.WX) / n
		proj.X, proj.Y = append(proj.X, float64(s*u1)), append(proj.Y, float64(s*u2))
		dist := exact.Float(p.G) / n // back along w by the signed distance
		seg := plot.Series{X: []float64{x, x - float64(dist*u1)}, Y: []float64{y, y - float64(dist*u2)}, Dashed: true, Style: 6}
		if i == 0 {
			seg.Name = "distance g(x)/|w| to the boundary"
		}
		f.Series = append(f.Series, seg)
	}
	f.Series = append(f.Series, proj)
	f.Boundaries = []plot.Boundary{{Name: "boundary g(x) = 0", W: [3]float64{w1, w2, w0}, Style: 3, Solid: true}}
	return f
}
