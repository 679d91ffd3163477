package gen

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxCards is the most cards one Spec may ask for (a card takes about 3.7 KB).
const MaxCards = 200_000

// Range is an interval of sizes in pixels; Min == Max is a fixed size.
type Range struct{ Min, Max float64 }

func (r Range) String() string {
	if r.Min == r.Max {
		return fmtNum(r.Min)
	}
	return fmtNum(r.Min) + "-" + fmtNum(r.Max)
}

// Spec describes a generated card set. Start from Default and change what an experiment
// needs; Validate checks it.
type Spec struct {
	// Kind names the set (see Kinds).
	Kind string
	// N is the number of cards in all, dealt round-robin over the classes.
	N int
	// Seed is the root of every random choice.
	Seed uint64
	// Fill is "outline", "solid" or "both" (each card solid or outlined at random): shapes.
	Fill string
	// Stroke is the outline's width in pixels (3 pixels are one retina cell): shapes, the
	// connectedness figure.
	Stroke float64
	// Size is the figure's size in pixels: the side of a square (and of a diamond, which is the
	// square turned 45 degrees), the diameter of a circle, the cap height of a letter. Each card
	// draws its size uniformly from the range.
	Size Range
	// Rotate turns each figure by a random angle (squares-circles): the orientation varies.
	Rotate bool
	// Shift is the largest offset of the figure's centre from the card's centre, in pixels,
	// along each axis: each card draws its centre uniformly within it, as far as the figure
	// keeps the margin (30, the default, lets the figure go anywhere on the card; 0 centres
	// it). Shapes and letters.
	Shift float64
	// Font is the typeface of letters: "bold" (Go Bold), "mono" (Go Mono Bold) or "both"
	// (each card in one of them at random).
	Font string
}

// Kind describes one kind of generated set.
type Kind struct {
	Name    string
	Classes []string
	Doc     string
	Keys    []string // the options Parse accepts for it, besides n and seed
	Default Spec
}

var kinds = []Kind{
	{
		Name: "squares-circles", Classes: []string{"square", "circle"},
		Doc:     "a square or a circle of one size (side = diameter), at a random position and, with rotate, a random orientation; thick outlines, solid figures or both",
		Keys:    []string{"fill", "stroke", "size", "rotate", "shift"},
		Default: Spec{N: 200, Seed: 1, Fill: "outline", Stroke: 5, Size: Range{24, 24}, Rotate: true, Shift: 30},
	},
	{
		Name: "square-diamond", Classes: []string{"square", "diamond"},
		Doc:     "a square upright or turned 45 degrees (a diamond), at a random position and size",
		Keys:    []string{"fill", "stroke", "size", "shift"},
		Default: Spec{N: 60, Seed: 1, Fill: "both", Stroke: 4, Size: Range{17, 25}, Shift: 30},
	},
	{
		Name: "ef", Classes: []string{"E", "F"},
		Doc:     "the letter E or F at a random position and cap height",
		Keys:    []string{"font", "size", "shift"},
		Default: Spec{N: 60, Seed: 1, Font: "both", Size: Range{30, 42}, Shift: 30},
	},
	{
		Name: "xe", Classes: []string{"X", "E"},
		Doc:     "the letter X or E at a random position and cap height",
		Keys:    []string{"font", "size", "shift"},
		Default: Spec{N: 60, Seed: 1, Font: "both", Size: Range{30, 42}, Shift: 30},
	},
	{
		Name: "letters", Classes: strings.Split(alphabet, ""),
		Doc:     "the 26 capital letters at a random position and cap height",
		Keys:    []string{"font", "size", "shift"},
		Default: Spec{N: 260, Seed: 1, Font: "bold", Size: Range{34, 42}, Shift: 30},
	},
	{
		Name: "leftright", Classes: []string{"left", "right"},
		Doc:     "a solid square of random size anywhere in the left or the right half of the card",
		Keys:    []string{"size"},
		Default: Spec{N: 60, Seed: 1, Size: Range{13, 21}},
	},
	{
		Name: "connected", Classes: []string{"connected", "disconnected"},
		Doc:     "Minsky and Papert's figure: four strokes joined at each end by a switch; connected (one loop) when the two switches differ, two loops when they agree",
		Keys:    []string{"stroke"},
		Default: Spec{N: 200, Seed: 1, Stroke: 4},
	},
}

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Kinds lists the kinds of generated sets, with their classes, options and defaults.
func Kinds() []Kind {
	out := slices.Clone(kinds)
	for i := range out {
		out[i].Classes = slices.Clone(out[i].Classes)
		out[i].Keys = slices.Clone(out[i].Keys)
		out[i].Default.Kind = out[i].Name
	}
	return out
}

func findKind(name string) (Kind, bool) {
	for _, k := range kinds {
		if k.Name == name {
			k.Default.Kind = k.Name
			return k, true
		}
	}
	return Kind{}, false
}

func kindNames() string {
	var n []string
	for _, k := range kinds {
		n = append(n, k.Name)
	}
	return strings.Join(n, ", ")
}

// Default returns the default Spec of a kind.
func Default(kind string) (Spec, error) {
	k, ok := findKind(kind)
	if !ok {
		return Spec{}, fmt.Errorf("gen: unknown kind %q (have %s)", kind, kindNames())
	}
	return k.Default, nil
}

// Parse reads a Spec written as "KIND" or "KIND,key=value,...": the kind's defaults, then each
// option. Every kind takes n (cards in all, 1..MaxCards) and seed (0..2^64-1); the others
// depend on the kind (see Kinds): fill=outline|solid|both, stroke=PIXELS, size=PIXELS or
// size=MIN-MAX, rotate=true|false, shift=PIXELS, font=bold|mono|both. Numbers are plain decimals. An unknown
// kind or option, an option given twice and a value out of range are errors naming it; the
// result is validated (see Spec.Validate).
func Parse(text string) (Spec, error) {
	parts := strings.Split(text, ",")
	kind := strings.TrimSpace(parts[0])
	k, ok := findKind(kind)
	if !ok {
		return Spec{}, fmt.Errorf("gen: unknown kind %q (have %s)", kind, kindNames())
	}
	s := k.Default
	seen := map[string]bool{}
	for _, p := range parts[1:] {
		key, val, found := strings.Cut(p, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !found || key == "" {
			return Spec{}, fmt.Errorf("gen: %s: option %q: want key=value", kind, p)
		}
		if key != "n" && key != "seed" && !slices.Contains(k.Keys, key) {
			return Spec{}, fmt.Errorf("gen: %s has no option %q (have n, seed, %s)", kind, key, strings.Join(k.Keys, ", "))
		}
		if seen[key] {
			return Spec{}, fmt.Errorf("gen: %s: option %q given twice", kind, key)
		}
		seen[key] = true
		if err := s.set(key, val); err != nil {
			return Spec{}, fmt.Errorf("gen: %s: %s=%s: %w", kind, key, val, err)
		}
	}
	if err := s.Validate(); err != nil {
		return Spec{}, err
	}
	return s, nil
}

func (s *Spec) set(key, val string) error {
	var err error
	switch key {
	case "n":
		var n uint64
		if n, err = strconv.ParseUint(val, 10, 64); err != nil || n < 1 || n > MaxCards {
			return fmt.Errorf("want a whole number of cards, 1..%d", MaxCards)
		}
		s.N = int(n)
	case "seed":
		if s.Seed, err = strconv.ParseUint(val, 10, 64); err != nil {
			return errors.New("want a whole number, 0..18446744073709551615")
		}
	case "fill":
		if val != "outline" && val != "solid" && val != "both" {
			return errors.New("want outline, solid or both")
		}
		s.Fill = val
	case "font":
		if val != "bold" && val != "mono" && val != "both" {
			return errors.New("want bold, mono or both")
		}
		s.Font = val
	case "rotate":
		if s.Rotate, err = strconv.ParseBool(val); err != nil {
			return errors.New("want true or false")
		}
	case "stroke":
		if s.Stroke, err = parseNum(val); err != nil {
			return err
		}
	case "shift":
		if s.Shift, err = parseNum(val); err != nil {
			return err
		}
	case "size":
		lo, hi, isRange := strings.Cut(val, "-")
		if s.Size.Min, err = parseNum(lo); err != nil {
			return err
		}
		s.Size.Max = s.Size.Min
		if isRange {
			if s.Size.Max, err = parseNum(hi); err != nil {
				return err
			}
		}
	}
	return nil
}

// parseNum reads a plain decimal number of pixels: digits with at most one point.
func parseNum(v string) (float64, error) {
	dots := 0
	for i := range len(v) {
		switch c := v[i]; {
		case c == '.':
			dots++
		case c < '0' || c > '9':
			return 0, errors.New("want a number of pixels, like 24 or 4.5")
		}
	}
	if v == "" || v == "." || dots > 1 || len(v) > 20 {
		return 0, errors.New("want a number of pixels, like 24 or 4.5")
	}
	return strconv.ParseFloat(v, 64)
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// String writes s in the form Parse reads, every option of its kind given: Parse(s.String())
// gives s back.
func (s Spec) String() string {
	k, ok := findKind(s.Kind)
	if !ok {
		return s.Kind
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s,n=%d,seed=%d", s.Kind, s.N, s.Seed)
	for _, key := range k.Keys {
		switch key {
		case "fill":
			fmt.Fprintf(&b, ",fill=%s", s.Fill)
		case "stroke":
			fmt.Fprintf(&b, ",stroke=%s", fmtNum(s.Stroke))
		case "size":
			fmt.Fprintf(&b, ",size=%s", s.Size)
		case "rotate":
			fmt.Fprintf(&b, ",rotate=%t", s.Rotate)
		case "shift":
			fmt.Fprintf(&b, ",shift=%s", fmtNum(s.Shift))
		case "font":
			fmt.Fprintf(&b, ",font=%s", s.Font)
		}
	}
	return b.String()
}

// Classes returns the class names of the set s draws.
func (s Spec) Classes() []string {
	k, _ := findKind(s.Kind)
	return slices.Clone(k.Classes)
}

// room is the extent a figure may take on the card: the card less the margin on both sides.
const room = cardSize - 2*margin

// Validate checks that s can be drawn: a known kind, 1..MaxCards cards, and sizes and strokes
// that fit the card with its margin at every position and orientation.
func (s Spec) Validate() error {
	k, ok := findKind(s.Kind)
	if !ok {
		return fmt.Errorf("gen: unknown kind %q (have %s)", s.Kind, kindNames())
	}
	bad := func(key, val, want string) error {
		return fmt.Errorf("gen: %s: %s=%s: %s", s.Kind, key, val, want)
	}
	if s.N < 1 || s.N > MaxCards {
		return bad("n", strconv.Itoa(s.N), fmt.Sprintf("want 1..%d cards", MaxCards))
	}
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	for _, key := range k.Keys {
		switch key {
		case "fill":
			if s.Fill != "outline" && s.Fill != "solid" && s.Fill != "both" {
				return bad("fill", s.Fill, "want outline, solid or both")
			}
		case "font":
			if s.Font != "bold" && s.Font != "mono" && s.Font != "both" {
				return bad("font", s.Font, "want bold, mono or both")
			}
		}
	}
	size := s.Size
	if slices.Contains(k.Keys, "size") {
		if !finite(size.Min) || !finite(size.Max) || size.Min > size.Max {
			return bad("size", size.String(), "want MIN-MAX with MIN <= MAX")
		}
		// The largest figure must fit the room (a diamond and a turned square need their
		// diagonal); the smallest must cover a few retina cells.
		limit := float64(room)
		switch {
		case s.Kind == "squares-circles" && s.Rotate, s.Kind == "square-diamond":
			limit = math.Floor(room / math.Sqrt2)
		case s.Kind == "leftright":
			limit = cardSize/2 - margin - 1
		}
		if size.Min < 6 || size.Max > limit {
			return bad("size", size.String(), fmt.Sprintf("want sizes within 6-%s pixels", fmtNum(limit)))
		}
	}
	if slices.Contains(k.Keys, "shift") && (!finite(s.Shift) || s.Shift < 0 || s.Shift > cardSize/2) {
		return bad("shift", fmtNum(s.Shift), "want 0-30 pixels")
	}
	if slices.Contains(k.Keys, "stroke") {
		minStroke, maxStroke := 1.0, 8.0
		if s.Kind == "connected" {
			// A stroke must light a whole row of cells on the retina (a cell is three pixels),
			// and the rows must keep two dark cells between them (see switchGap).
			minStroke, maxStroke = 3, 5
		}
		if s.Kind != "connected" && (s.Fill == "outline" || s.Fill == "both") {
			maxStroke = min(maxStroke, math.Floor(float64(size.Min/2)-1))
		}
		if !finite(s.Stroke) || s.Stroke < minStroke || s.Stroke > maxStroke {
			return bad("stroke", fmtNum(s.Stroke), fmt.Sprintf("want %s-%s pixels", fmtNum(minStroke), fmtNum(maxStroke)))
		}
	}
	return nil
}
