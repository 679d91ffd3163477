package retina

import (
	"encoding/json"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// uniform returns a 20x20 card of one grey level.
func uniform(y uint8) *image.Gray {
	return grayImage(0, 0, 20, 20, func(int, int) uint8 { return y })
}

// quiet returns DefaultParams without spread, noise and blur: only gamma, lag and threshold, with
// DarkFigure polarity (uniform black cards would be light figures under AutoPolarity).
func quiet() Params {
	p := DefaultParams()
	p.Spread, p.DarkNoise, p.Blur = 0, 0, 0
	p.Polarity = DarkFigure
	return p
}

// prepare returns r's stimulus for img.
func prepare(r *Retina, img image.Image) *Stimulus {
	s := new(Stimulus)
	r.Prepare(img, s)
	return s
}

func TestPolarity(t *testing.T) {
	// A black square on white paper; no cell sits at exactly one half.
	card := grayImage(0, 0, 40, 40, func(x, y int) uint8 {
		if x >= 10 && x < 24 && y >= 6 && y < 30 {
			return 0
		}
		return 255
	})
	inside := func(i int) bool { r, c := i/Cols, i%Cols; return c >= 5 && c < 12 && r >= 3 && r < 15 }
	for _, ideal := range []bool{true, false} {
		for _, pol := range []Polarity{DarkFigure, LightFigure} {
			p := quiet()
			if ideal {
				p = IdealParams()
			}
			p.Polarity = pol
			r := newRetina(t, p, 1)
			var out Bits
			r.Expose(prepare(r, card), 3, nil, &out)
			for i := range N {
				if want := inside(i) == (pol == DarkFigure); out.Get(i) != want {
					t.Fatalf("ideal=%v %v: cell (%d,%d) on=%v, want %v", ideal, pol, i/Cols, i%Cols, out.Get(i), want)
				}
			}
		}
	}
}

func TestPolarityText(t *testing.T) {
	for _, p := range []Polarity{DarkFigure, LightFigure, AutoPolarity} {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q Polarity
		if err := json.Unmarshal(b, &q); err != nil || q != p {
			t.Fatalf("%v: round trip gave %v, %v", p, q, err)
		}
	}
	if _, err := json.Marshal(Polarity(5)); err == nil {
		t.Fatal("marshalling an unknown polarity succeeded")
	}
	var q Polarity
	if err := json.Unmarshal([]byte(`"grey"`), &q); err == nil {
		t.Fatal("unmarshalling an unknown polarity succeeded")
	}
	if p, err := ParsePolarity("LIGHT"); err != nil || p != LightFigure {
		t.Fatalf("ParsePolarity(LIGHT) = %v, %v", p, err)
	}
	if p, err := ParsePolarity("Auto"); err != nil || p != AutoPolarity || p.String() != "auto" {
		t.Fatalf("ParsePolarity(Auto) = %v, %v", p, err)
	}
	if b, err := json.Marshal(DefaultParams()); err != nil || !strings.Contains(string(b), `"polarity":"auto"`) {
		t.Fatalf("default params marshal to %s, %v; want polarity auto", b, err)
	}
	if _, err := ParsePolarity("grey"); err == nil || !strings.HasPrefix(err.Error(), "retina: polarity: ") {
		t.Fatalf("ParsePolarity(grey): error %v", err)
	}
}

// TestAutoPolarity checks the per-card decision from the border's mean luminance and the
// surround it implies.
func TestAutoPolarity(t *testing.T) {
	square := func(ground, figure uint8) *image.Gray {
		return grayImage(0, 0, 20, 20, func(x, y int) uint8 {
			if x >= 5 && x < 15 && y >= 5 && y < 15 {
				return figure
			}
			return ground
		})
	}
	// A transparent card with an opaque white square.
	bar := image.NewNRGBA(image.Rect(3, 4, 23, 24))
	for y := 4; y < 24; y++ {
		for x := 3; x < 23; x++ {
			if x >= 8 && x < 18 && y >= 9 && y < 19 {
				bar.Set(x, y, color.NRGBA{255, 255, 255, 255})
			}
		}
	}
	half := grayImage(0, 0, 20, 20, func(x, _ int) uint8 { return uint8(255 * (x % 2)) }) // border mean exactly 1/2
	tests := []struct {
		name     string
		img      image.Image
		surround float64
		want     Polarity
		outside  float32 // light of a cell off the card (at half scale)
		onCard   float32 // light of cell (6, 10): the card's ground (or its transparent part)
		figure   bool    // the 20x20 card's figure is on and its ground off
	}{
		{"printed card", square(255, 0), 1, DarkFigure, 1, 1, true},
		{"light figure on black", square(0, 255), 1, LightFigure, 0, 0, true},
		{"light figure, grey surround mirrored", square(0, 255), 0.2, LightFigure, 0.8, 0, true},
		{"dark ground of 0.4", square(102, 255), 1, LightFigure, 0, 0.4, true},
		{"border exactly one half", half, 1, DarkFigure, 1, 0.5, false},
		{"transparent over white: the white figure is invisible", bar, 1, DarkFigure, 1, 1, false},
		{"transparent over black: light, transparent pixels stay black", bar, 0, LightFigure, 1, 0, true},
		{"one black pixel", grayImage(0, 0, 1, 1, func(int, int) uint8 { return 0 }), 1, LightFigure, 0, 0, false},
		{"nil image", nil, 1, DarkFigure, 1, 1, false},
		{"empty image", image.NewGray(image.Rect(4, 4, 4, 9)), 0.3, DarkFigure, 0.3, 0.3, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, ideal := range []bool{true, false} {
				p := NeutralParams()
				if ideal {
					p = IdealParams()
				}
				p.Surround, p.Scale = tc.surround, 0.5
				r := newRetina(t, p, 1)
				s := prepare(r, tc.img)
				if s.Polarity() != tc.want {
					t.Fatalf("ideal=%v: polarity %v, want %v", ideal, s.Polarity(), tc.want)
				}
				if got := s.Light[0]; math.Abs(float64(got-tc.outside)) > 1e-6 {
					t.Errorf("ideal=%v: light outside the card %v, want %v", ideal, got, tc.outside)
				}
				if got := s.Light[6*Cols+10]; math.Abs(float64(got-tc.onCard)) > 1e-6 {
					t.Errorf("ideal=%v: light on the card's ground %v, want %v", ideal, got, tc.onCard)
				}
				// The figure is on, the ground off.
				var out Bits
				r.Expose(s, 3, nil, &out)
				if tc.figure {
					if !out.Get(10*Cols+10) || out.Get(6*Cols+10) {
						t.Errorf("ideal=%v: figure on=%v, ground on=%v; want the figure only", ideal, out.Get(10*Cols+10), out.Get(6*Cols+10))
					}
				}
			}
		})
	}
	// A blank black card is a light card with no figure: at any placement the field outside
	// it is dark too, so no cell sees light (the rotated path included).
	for _, rot := range []float64{0, 90, 30} {
		for _, ideal := range []bool{true, false} {
			p := DefaultParams()
			if ideal {
				p = IdealParams()
			}
			p.Scale, p.Rotation, p.OffsetX = 0.6, rot, 2.3
			s := prepare(newRetina(t, p, 1), uniform(0))
			for i, l := range s.Light {
				if s.Polarity() != LightFigure || l != 0 {
					t.Fatalf("ideal=%v rotation %v: a blank black card gives polarity %v, light %v at cell %d; want light and 0",
						ideal, rot, s.Polarity(), l, i)
				}
			}
		}
	}
	// Explicit polarities do not look at the border, and keep the surround.
	for _, pol := range []Polarity{DarkFigure, LightFigure} {
		p := idealWith(func(p *Params) { p.Polarity, p.Scale = pol, 0.5 })
		s := prepare(newRetina(t, p, 1), square(0, 255))
		if s.Polarity() != pol || s.Light[0] != 1 {
			t.Errorf("%v: polarity %v, outside light %v; want %v and 1", pol, s.Polarity(), s.Light[0], pol)
		}
	}
	var zero Stimulus
	if zero.Polarity() != DarkFigure {
		t.Errorf("a Stimulus Prepare did not fill reports %v, want dark", zero.Polarity())
	}
}

func TestLag(t *testing.T) {
	black, white := uniform(0), uniform(255)
	thr := math.Pow(0.5, 0.8)
	afterBlack := math.Exp(-3 / 0.3) // level after 3 s of a black card, from white
	tests := []struct {
		name      string
		before    *image.Gray // shown for 3 s first
		card      *image.Gray
		dt        float64
		wantOn    int     // cells on
		wantLevel float64 // level at dt
	}{
		// Rise is fast: a white card after a black one reads white even in a short presentation.
		{"dark to light, short", black, white, 0.1, 0, 1 + (afterBlack-1)*math.Exp(-0.1/0.03)},
		{"dark to light, long", black, white, 3, 0, 1 + (afterBlack-1)*math.Exp(-3/0.03)},
		// Decay is slow: a black card right after a white one leaves an after-image when the
		// comparator reads early, but not at the default latch.
		{"light to dark, short: after-image", white, black, 0.1, 0, math.Exp(-0.1 / 0.3)},
		{"light to dark, long", white, black, 3, N, math.Exp(-3 / 0.3)},
		{"light to dark, just past the crossing", white, black, 0.3 * -math.Log(thr) * 1.01, N,
			math.Exp(-1.01 * -math.Log(thr))},
		{"light to dark, just before the crossing", white, black, 0.3 * -math.Log(thr) * 0.99, 0,
			math.Exp(-0.99 * -math.Log(thr))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRetina(t, quiet(), 1)
			var out Bits
			r.Expose(prepare(r, tc.before), 3, nil, &out)
			r.Expose(prepare(r, tc.card), tc.dt, nil, &out)
			if out.Count() != tc.wantOn {
				t.Errorf("%d cells on, want %d", out.Count(), tc.wantOn)
			}
			lv := make([]float32, N)
			r.Levels(lv)
			if math.Abs(float64(lv[0])-tc.wantLevel) > 1e-6 {
				t.Errorf("level %v, want %v", lv[0], tc.wantLevel)
			}
		})
	}
}

func TestLatchAndDt(t *testing.T) {
	black := uniform(0)
	// The level at the latch decides; the level at dt is what the next card starts from.
	p := quiet()
	p.Latch = 0.2 // exp(-0.2/0.3) = 0.51 < 0.574: on
	r := newRetina(t, p, 1)
	var out Bits
	s := prepare(r, black)
	r.Expose(s, 0.15, nil, &out) // dt < Latch: latches at dt, exp(-0.5) = 0.61: off
	if out.Count() != 0 {
		t.Fatalf("dt < latch: %d cells on, want 0 (latched at dt)", out.Count())
	}
	r.Reset()
	r.Expose(s, 0.25, nil, &out)
	if out.Count() != N {
		t.Fatalf("dt > latch: %d cells on, want %d", out.Count(), N)
	}
	lv := make([]float32, N)
	r.Levels(lv)
	if want := math.Exp(-0.25 / 0.3); math.Abs(float64(lv[7])-want) > 1e-6 {
		t.Fatalf("level at dt %v, want %v", lv[7], want)
	}
	// Changing dt between calls must not reuse the factors of the old dt.
	r.Reset()
	r.Expose(s, 0.1, nil, &out)
	r.Expose(s, 0.05, nil, &out)
	r.Levels(lv)
	if want := math.Exp(-0.15 / 0.3); math.Abs(float64(lv[7])-want) > 1e-6 {
		t.Fatalf("after 0.1 s and 0.05 s: level %v, want %v", lv[7], want)
	}
	// dt of zero, negative or NaN reads the cells as they are and leaves them.
	for _, dt := range []float64{0, -1, math.NaN()} {
		r.Reset()
		r.Expose(s, dt, nil, &out)
		r.Levels(lv)
		if out.Count() != 0 || lv[0] != 1 {
			t.Fatalf("dt %v: %d on, level %v; want 0 on, level 1", dt, out.Count(), lv[0])
		}
	}
	// Instant cells (taus 0) follow the card at once.
	p.RiseTau, p.DecayTau = 0, 0
	r = newRetina(t, p, 1)
	r.Expose(s, 0.001, nil, &out)
	if out.Count() != N {
		t.Fatalf("instant cells: %d on, want %d", out.Count(), N)
	}
}

func TestReset(t *testing.T) {
	p := quiet()
	p.Spread, p.Lamp, p.Surround = 0.1, 1.3, 0.9
	r := newRetina(t, p, 3)
	st := r.State()
	g := math.Pow(1.3*0.9, 0.8)
	for i, v := range st.Level {
		if math.Abs(v-st.Sensitivity[i]*g) > 1e-12 {
			t.Fatalf("new retina: cell %d level %v, want sensitivity*(lamp*surround)^gamma = %v", i, v, st.Sensitivity[i]*g)
		}
	}
	var out Bits
	r.Expose(prepare(r, uniform(0)), 3, nil, &out)
	r.Reset()
	if got := r.State(); !equalFloats(got.Level, st.Level) {
		t.Fatal("Reset did not restore the rest levels")
	}
}

func TestSensitivitySpread(t *testing.T) {
	p := DefaultParams()
	a, b, c := newRetina(t, p, 1).State(), newRetina(t, p, 1).State(), newRetina(t, p, 2).State()
	if !equalFloats(a.Sensitivity, b.Sensitivity) {
		t.Fatal("same seed gave different sensitivities")
	}
	if equalFloats(a.Sensitivity, c.Sensitivity) {
		t.Fatal("different seeds gave the same sensitivities")
	}
	mean, sq := 0.0, 0.0
	for _, v := range a.Sensitivity {
		mean += v
		sq += v * v
	}
	mean /= N
	sd := math.Sqrt(sq/N - mean*mean)
	if math.Abs(mean-1) > 0.01 || sd < 0.04 || sd > 0.06 {
		t.Fatalf("sensitivities: mean %.4f sd %.4f, want about 1 and 0.05", mean, sd)
	}
	// The same seed with a larger spread scales the same pattern.
	p2 := p
	p2.Spread = 0.1
	d := newRetina(t, p2, 1).State()
	for i := range N {
		if math.Abs((d.Sensitivity[i]-1)-2*(a.Sensitivity[i]-1)) > 1e-12 {
			t.Fatalf("cell %d: spread 0.1 gives %v, spread 0.05 gives %v: not proportional", i, d.Sensitivity[i], a.Sensitivity[i])
		}
	}
	// The threshold is not scaled by a cell's sensitivity: on a card at exactly the threshold
	// light, the less sensitive cells see figure, the more sensitive ones ground.
	q := quiet()
	q.Spread, q.RiseTau, q.DecayTau = 0.05, 0, 0
	r := newRetina(t, q, 1)
	var s Stimulus
	for i := range s.Light {
		s.Light[i] = 0.5
		s.G[i] = float32(a.Sensitivity[i] * math.Pow(0.5, 0.8))
	}
	var out Bits
	r.Expose(&s, 30, nil, &out)
	for i, v := range a.Sensitivity {
		if v == 1 {
			continue
		}
		if want := float32(v*math.Pow(0.5, 0.8)) < float32(math.Pow(0.5, 0.8)); out.Get(i) != want {
			t.Fatalf("cell %d sensitivity %v: on=%v, want %v", i, v, out.Get(i), want)
		}
	}
	if n := out.Count(); n < N/4 || n > 3*N/4 {
		t.Fatalf("%d of %d cells on at the threshold light, want roughly half", n, N)
	}
	// Prepare includes the sensitivity in G.
	pr := prepare(r, uniform(102))
	for i := range N {
		want := a.Sensitivity[i] * math.Pow(0.4, 0.8)
		if math.Abs(float64(pr.G[i])-want) > 1e-6 {
			t.Fatalf("cell %d: G %v, want %v", i, pr.G[i], want)
		}
	}
}

func TestDarkNoise(t *testing.T) {
	p := quiet()
	p.RiseTau, p.DecayTau = 0, 0 // levels equal the targets at the latch
	p.DarkNoise = 0.01
	r := newRetina(t, p, 1)
	thr := math.Pow(0.5, 0.8)
	// Cells 0..99 at the threshold, 100..199 at 6 sigma above and 200..299 at 6 sigma below
	// (drawn, but far enough to flip only once in 1e9), the rest far away.
	var s Stimulus
	for i := range N {
		switch {
		case i < 100:
			s.G[i] = float32(thr)
		case i < 200:
			s.G[i] = float32(thr + 0.06)
		case i < 300:
			s.G[i] = float32(thr - 0.06)
		case i%2 == 0:
			s.G[i] = 0
		default:
			s.G[i] = 1
		}
	}
	noise := rand.New(rand.NewPCG(9, 9))
	var ons, offs [N]int
	var out Bits
	const runs = 200
	for range runs {
		r.Expose(&s, 3, noise, &out)
		for i := range N {
			if out.Get(i) {
				ons[i]++
			} else {
				offs[i]++
			}
		}
	}
	for i := range N {
		switch {
		case i < 100:
			if ons[i] == 0 || offs[i] == 0 {
				t.Fatalf("threshold cell %d: on %d, off %d times: noise flips nothing", i, ons[i], offs[i])
			}
		case i < 200 || (i >= 300 && i%2 == 1):
			if ons[i] != 0 {
				t.Fatalf("bright cell %d flipped on %d times", i, ons[i])
			}
		default:
			if offs[i] != 0 {
				t.Fatalf("dark cell %d flipped off %d times", i, offs[i])
			}
		}
	}
	// Cells far from the threshold draw no noise at all.
	for i := range 300 {
		s.G[i] = 1
	}
	noise = rand.New(rand.NewPCG(9, 9))
	r.Expose(&s, 3, noise, &out)
	if got, want := noise.Uint64(), rand.New(rand.NewPCG(9, 9)).Uint64(); got != want {
		t.Fatal("noise was drawn for cells far from the threshold")
	}
	// Without a noise source the comparator is deterministic: a cell just below the threshold
	// is always on, one at it always off.
	for i := range 100 {
		s.G[i] = float32(thr - 1e-6)
	}
	at := float32(thr)
	if float64(at) < thr {
		at = math.Nextafter32(at, 2) // the nearest float32 at or above the threshold
	}
	for i := 100; i < 200; i++ {
		s.G[i] = at
	}
	for range 10 {
		r.Expose(&s, 3, nil, &out)
		if out.Count() != 150 { // 0..99 and the even cells from 300 on
			t.Fatalf("no noise: %d cells on, want 150", out.Count())
		}
	}
}

// sequence shows cards in turn and returns the S-states after each.
func sequence(r *Retina, cards []*Stimulus, dts []float64, noise *rand.Rand) []Bits {
	var out []Bits
	for k, s := range cards {
		var b Bits
		r.Expose(s, dts[k%len(dts)], noise, &b)
		out = append(out, b)
	}
	return out
}

// letterCards returns a few letter-like cards of various sizes.
func letterCards() []image.Image {
	shapes := []func(x, y float64) bool{
		func(x, y float64) bool { return y < 0.2 || (x > 0.4 && x < 0.6) },                    // T
		func(x, y float64) bool { return x < 0.2 || y > 0.8 },                                 // L
		func(x, y float64) bool { return x < 0.2 || y < 0.15 || (y > 0.45 && y < 0.6) },       // F
		func(x, y float64) bool { d := math.Hypot(x-0.5, y-0.5); return d > 0.3 && d < 0.45 }, // O
	}
	sizes := []int{20, 28, 60, 45}
	var cards []image.Image
	for k, f := range shapes {
		n := sizes[k]
		cards = append(cards, grayImage(0, 0, n, n, func(x, y int) uint8 {
			if f((float64(x)+0.5)/float64(n), (float64(y)+0.5)/float64(n)) {
				return 20
			}
			return 235
		}))
	}
	return cards
}

func TestDeterminism(t *testing.T) {
	p := DefaultParams()
	p.Rotation = 7
	run := func(seed uint64) ([]Bits, State) {
		r := newRetina(t, p, seed)
		var cards []*Stimulus
		for _, img := range letterCards() {
			cards = append(cards, prepare(r, img))
		}
		cards = append(cards, cards...)
		bits := sequence(r, cards, []float64{3, 0.2, 0.5}, rand.New(rand.NewPCG(seed, 99)))
		return bits, r.State()
	}
	b1, s1 := run(1)
	b2, s2 := run(1)
	for k := range b1 {
		if b1[k] != b2[k] {
			t.Fatalf("presentation %d differs between two runs with the same seed", k)
		}
	}
	if !equalFloats(s1.Level, s2.Level) {
		t.Fatal("levels differ between two runs with the same seed")
	}
	_, s3 := run(2)
	if equalFloats(s1.Level, s3.Level) {
		t.Fatal("a different seed gave the same levels")
	}
}

func TestIdealIsPlainThreshold(t *testing.T) {
	cards := letterCards()
	for k := range 5 {
		cards = append(cards, randomGray(uint64(40+k), 20*(k%3+1), 20*(k%3+1)))
	}
	for _, pol := range []Polarity{DarkFigure, LightFigure} {
		r := newRetina(t, idealWith(func(p *Params) { p.Polarity = pol }), 1)
		for k, img := range cards {
			want := refMeans(img.(*image.Gray), r.Params())
			var out Bits
			s := prepare(r, img)
			r.Expose(s, 3, rand.New(rand.NewPCG(1, 1)), &out)
			for i := range N {
				on := want[i] < 0.5
				if pol == LightFigure {
					on = want[i] > 0.5
				}
				if out.Get(i) != on {
					t.Fatalf("%v card %d cell %d: on=%v, mean %v", pol, k, i, out.Get(i), want[i])
				}
			}
			// No state: the same card gives the same bits whatever came before, whatever dt.
			var again Bits
			r.Expose(prepare(r, cards[(k+1)%len(cards)]), 0.01, nil, &again)
			r.Expose(s, 0.01, nil, &again)
			if again != out {
				t.Fatalf("%v card %d: ideal retina has memory", pol, k)
			}
		}
	}
}

func TestStateRoundTrip(t *testing.T) {
	p := DefaultParams()
	a := newRetina(t, p, 1)
	var cards []*Stimulus
	for _, img := range letterCards() {
		cards = append(cards, prepare(a, img))
	}
	noise := rand.New(rand.NewPCG(5, 5))
	sequence(a, cards, []float64{0.3}, noise)
	data, err := json.Marshal(a.State())
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	b := newRetina(t, p, 77) // different spread until SetState
	if err := b.SetState(st); err != nil {
		t.Fatal(err)
	}
	var bcards []*Stimulus
	for _, img := range letterCards() {
		bcards = append(bcards, prepare(b, img))
	}
	for k := range cards {
		if cards[k].G != bcards[k].G {
			t.Fatalf("card %d: restored retina prepares a different stimulus", k)
		}
	}
	seed := noise.Uint64()
	wa := sequence(a, cards, []float64{0.3, 2}, rand.New(rand.NewPCG(seed, 1)))
	wb := sequence(b, bcards, []float64{0.3, 2}, rand.New(rand.NewPCG(seed, 1)))
	for k := range wa {
		if wa[k] != wb[k] {
			t.Fatalf("presentation %d after restoring differs", k)
		}
	}
	if !equalFloats(a.State().Level, b.State().Level) {
		t.Fatal("levels differ after restoring")
	}
}

func TestSetStateErrors(t *testing.T) {
	good := newRetina(t, DefaultParams(), 1).State()
	bad := func(f func(*State)) State {
		s := State{Sensitivity: append([]float64(nil), good.Sensitivity...), Level: append([]float64(nil), good.Level...)}
		f(&s)
		return s
	}
	tests := []struct {
		name string
		st   State
		want string
	}{
		{"empty", State{}, "sensitivity: 0 values"},
		{"short levels", bad(func(s *State) { s.Level = s.Level[:10] }), "level: 10 values"},
		{"NaN sensitivity", bad(func(s *State) { s.Sensitivity[3] = math.NaN() }), "cell 3"},
		{"negative sensitivity", bad(func(s *State) { s.Sensitivity[4] = -1 }), "cell 4"},
		{"infinite level", bad(func(s *State) { s.Level[5] = math.Inf(1) }), "cell 5"},
		{"negative level", bad(func(s *State) { s.Level[399] = -0.1 }), "cell 399"},
	}
	ideal := newRetina(t, IdealParams(), 1).State()
	ideal.Level[7] = 1.5
	tests = append(tests, struct {
		name string
		st   State
		want string
	}{"ideal light above 1", ideal, "cell 7"})
	for _, tc := range tests {
		p := DefaultParams()
		if tc.name == "ideal light above 1" {
			p = IdealParams()
		}
		r := newRetina(t, p, 2)
		before := r.State()
		err := r.SetState(tc.st)
		if err == nil || !strings.HasPrefix(err.Error(), "retina: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one starting with \"retina: \" naming %q", tc.name, err, tc.want)
		}
		if after := r.State(); !equalFloats(after.Level, before.Level) || !equalFloats(after.Sensitivity, before.Sensitivity) {
			t.Errorf("%s: failed SetState changed the retina", tc.name)
		}
	}
}

func TestNewValidates(t *testing.T) {
	tests := []struct {
		name string
		f    func(*Params)
		want string
	}{
		{"NaN gamma", func(p *Params) { p.Gamma = math.NaN() }, "gamma"},
		{"zero gamma", func(p *Params) { p.Gamma = 0 }, "gamma"},
		{"zero scale", func(p *Params) { p.Scale = 0 }, "scale"},
		{"infinite offset", func(p *Params) { p.OffsetX = math.Inf(1) }, "offset_x"},
		{"huge offset", func(p *Params) { p.OffsetY = 1e9 }, "offset_y"},
		{"NaN rotation", func(p *Params) { p.Rotation = math.NaN() }, "rotation"},
		{"negative blur", func(p *Params) { p.Blur = -0.1 }, "blur"},
		{"huge blur", func(p *Params) { p.Blur = 11 }, "blur"},
		{"negative lamp", func(p *Params) { p.Lamp = -1 }, "lamp"},
		{"blinding lamp", func(p *Params) { p.Lamp = 1e300 }, "lamp"},
		{"surround above 1", func(p *Params) { p.Surround = 1.5 }, "surround"},
		{"unknown polarity", func(p *Params) { p.Polarity = 3 }, "polarity"},
		{"negative spread", func(p *Params) { p.Spread = -0.1 }, "spread"},
		{"negative rise", func(p *Params) { p.RiseTau = -1 }, "rise_tau"},
		{"negative decay", func(p *Params) { p.DecayTau = -1 }, "decay_tau"},
		{"negative latch", func(p *Params) { p.Latch = -1 }, "latch"},
		{"negative noise", func(p *Params) { p.DarkNoise = -1 }, "dark_noise"},
		{"infinite threshold", func(p *Params) { p.Threshold = math.Inf(1) }, "threshold"},
		{"huge threshold", func(p *Params) { p.Threshold = 1e6 }, "threshold"},
	}
	for _, tc := range tests {
		p := DefaultParams()
		tc.f(&p)
		_, err := New(p, rand.New(rand.NewPCG(1, 1)))
		if err == nil || !strings.HasPrefix(err.Error(), "retina: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one starting with \"retina: \" naming %q", tc.name, err, tc.want)
		}
	}
	if _, err := New(DefaultParams(), nil); err == nil || !strings.HasPrefix(err.Error(), "retina: spread: ") {
		t.Errorf("New with spread and no rng: error %v, want one naming spread", err)
	}
	for _, p := range []Params{IdealParams(), quiet()} {
		r, err := New(p, nil)
		if err != nil {
			t.Fatalf("New(%+v, nil): %v", p, err)
		}
		if r.Params() != p {
			t.Fatal("Params() does not return the parameters given to New")
		}
	}
}

// TestStimulusSize keeps the Stimulus small: decks of 60,000 cards are normal.
func TestStimulusSize(t *testing.T) {
	if n := unsafe.Sizeof(Stimulus{}); n > 3272 {
		t.Errorf("a Stimulus takes %d bytes, want at most 3272 (Light, G, the ideal bits and a few bytes)", n)
	}
}

func TestExposeDoesNotAllocate(t *testing.T) {
	for _, p := range []Params{DefaultParams(), IdealParams()} {
		r := newRetina(t, p, 1)
		cards := []*Stimulus{prepare(r, letterCards()[0]), prepare(r, letterCards()[1])}
		noise := rand.New(rand.NewPCG(1, 2))
		var out Bits
		k := 0
		allocs := testing.AllocsPerRun(100, func() {
			r.Expose(cards[k%2], []float64{3, 0, 0.1}[k%3], noise, &out)
			k++
		})
		if allocs != 0 {
			t.Errorf("ideal=%v: Expose allocates %v times per call", p.Ideal, allocs)
		}
	}
}

func TestLevels(t *testing.T) {
	r := newRetina(t, quiet(), 1)
	var out Bits
	r.Expose(prepare(r, uniform(0)), 0.3, nil, &out)
	lv := make([]float32, N+5)
	r.Levels(lv)
	st := r.State()
	for i := range N {
		if lv[i] != float32(st.Level[i]) {
			t.Fatalf("cell %d: Levels %v, State %v", i, lv[i], st.Level[i])
		}
	}
	if lv[N] != 0 {
		t.Fatal("Levels wrote past N")
	}
	// The ideal retina shows each card's light.
	ri := newRetina(t, IdealParams(), 1)
	s := prepare(ri, uniform(51))
	ri.Expose(s, 3, nil, &out)
	ri.Levels(lv)
	if lv[0] != s.Light[0] {
		t.Fatalf("ideal level %v, want the light %v", lv[0], s.Light[0])
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestRest checks that cells left without a card relax toward their rest level with their
// lags, in closed form: a short rest moves them part of the way, a long one all the way.
func TestRest(t *testing.T) {
	p := DefaultParams()
	p.Spread = 0
	r, err := New(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	rest := make([]float32, N)
	r.Levels(rest)
	black := image.NewGray(image.Rect(0, 0, 20, 20))
	var s Stimulus
	r.Prepare(black, &s)
	var out Bits
	r.Expose(&s, 3, nil, &out)
	dark := make([]float32, N)
	r.Levels(dark)
	// Rising back to the white surround with RiseTau: after one time constant the gap is e^-1.
	r.Rest(p.RiseTau)
	got := make([]float32, N)
	r.Levels(got)
	want := float64(rest[0]) + (float64(dark[0])-float64(rest[0]))*math.Exp(-1)
	if math.Abs(float64(got[0])-want) > 1e-6 {
		t.Fatalf("after one rise time constant: %v, want %v", got[0], want)
	}
	r.Rest(3600)
	r.Levels(got)
	for i := range got {
		if got[i] != rest[i] {
			t.Fatalf("cell %d after an hour: %v, want the rest level %v", i, got[i], rest[i])
		}
	}
	r.Rest(math.NaN())
	r.Rest(-1)
}
