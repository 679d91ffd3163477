package plot

import (
	"encoding/json"
	"math"
)

// number is a float64 that marshals to JSON as null when it is not finite (JSON has no NaN or
// infinity).
type number float64

// MarshalJSON writes the number as encoding/json writes a float64, or null.
func (n number) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// numbers is a []float64 whose numbers that are not finite marshal to JSON as null.
type numbers []float64

// MarshalJSON writes the numbers as a JSON array ([] for none).
func (ns numbers) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+8*len(ns))
	b = append(b, '[')
	for i, f := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			b = append(b, "null"...)
			continue
		}
		v, err := json.Marshal(f)
		if err != nil {
			return nil, err
		}
		b = append(b, v...)
	}
	return append(b, ']'), nil
}

// MarshalJSON writes the series, its numbers that are not finite as null.
func (s Series) MarshalJSON() ([]byte, error) {
	type plain Series
	return json.Marshal(struct {
		plain
		X numbers `json:"x"`
		Y numbers `json:"y"`
	}{plain(s), s.X, s.Y})
}

// MarshalJSON writes the boundary, its weights that are not finite as null.
func (b Boundary) MarshalJSON() ([]byte, error) {
	type plain Boundary
	return json.Marshal(struct {
		plain
		W numbers `json:"w"`
	}{plain(b), b.W[:]})
}

// MarshalJSON writes the grid, its missing values (NaN) as null.
func (g Grid) MarshalJSON() ([]byte, error) {
	type plain Grid
	return json.Marshal(struct {
		plain
		Values numbers `json:"values"`
	}{plain(g), g.Values})
}

// MarshalJSON writes the bar, a value that is not finite as null.
func (b Bar) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Label string `json:"label"`
		Value number `json:"value"`
	}{b.Label, number(b.Value)})
}

// MarshalJSON writes the figure with every list present ([] for none; regions null for none),
// so that a program reading it need not test for a missing one.
func (f Figure) MarshalJSON() ([]byte, error) {
	type plain Figure
	p := plain(f)
	if p.Series == nil {
		p.Series = []Series{}
	}
	if p.Boundaries == nil {
		p.Boundaries = []Boundary{}
	}
	if p.Grids == nil {
		p.Grids = []Grid{}
	}
	if p.Bars == nil {
		p.Bars = []Bar{}
	}
	return json.Marshal(p)
}
