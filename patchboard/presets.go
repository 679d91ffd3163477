package patchboard

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/mark1-perceptron/mark1/knob"
	"github.com/mark1-perceptron/mark1/retina"
)

// MarkIParams parameterises the random Mark I plug-board: AUnits A-units, each with Exc
// excitatory and Inh inhibitory plugs from distinct S-units and threshold Theta (Rosenblatt's
// (x, y, theta)), no S-unit feeding more than FanOut A-units (0 = no limit).
type MarkIParams struct {
	AUnits int `json:"a_units"` // number of A-units (historical: 512)
	Exc    int `json:"exc"`     // excitatory plugs per A-unit, x (assumed)
	Inh    int `json:"inh"`     // inhibitory plugs per A-unit, y (assumed)
	Theta  int `json:"theta"`   // threshold, 1..Exc (assumed)
	FanOut int `json:"fanout"`  // most A-units one S-unit may feed (historical: 40); 0 = no limit
}

// DefaultMarkI returns the Mark I plug-board: 512 A-units (historical), fan-out limit 40
// (historical), and A-units of (x, y, theta) = (7, 4, 2): seven excitatory and four inhibitory
// plugs, firing when at least two more excitatory than inhibitory plugs are lit (assumed: the
// surviving record has no plug counts or thresholds). That is 5632 plugs, 14 per S-unit on
// average.
//
// The values were chosen by measuring A-unit activity (TestDefaultActivity), over 4 wiring
// seeds:
//   - On 828 test figures, capital letters drawn with strokes at 3 sizes, 3 stroke widths and 3
//     positions and shapes (squares, rings, diamonds, discs, bars, crosses), with 10% to 35% of
//     the field on (20% on average, dark figures): mean activity 24% of the A-units (8% to 42%
//     on a single figure), rising with the lit area from 14% (10-15% of the field on) to 36%
//     (30-35% on); no A-unit dead or always on, at most 2 of 512 firing on fewer than 2% of
//     the figures.
//   - On the built-in card sets through the default retina (12% to 17% of the field on;
//     leftright 8%): mean activity 13% to 20% (leftright 8%); 2% to 6% of the A-units never
//     fire on the letter sets, 8% to 11% on the smaller sets (60 to 120 cards), whose figures
//     leave parts of the field always dark. No A-unit is always on.
//
// Six excitatory plugs gave 10% to 15% on the built-in cards with up to 21% of the A-units
// never firing; eight gave up to 51% on large figures. Fewer inhibitory plugs make activity
// follow the lit area more steeply. A light figure on a dark field (about 75% on) lights about
// 70% of the A-units.
func DefaultMarkI() MarkIParams {
	return MarkIParams{AUnits: 512, Exc: 7, Inh: 4, Theta: 2, FanOut: MarkIFanOut}
}

// MarkI wires a board at random, as the Mark I's plug-board was wired from a table of random
// numbers, drawing every random number from rng: the same rng state gives the same board.
//
// Each A-unit draws its Exc+Inh plugs without replacement from the S-units not yet at the
// fan-out limit, so no S-unit is plugged twice into one A-unit, and takes the first Exc as
// excitatory, the rest as inhibitory. Only when the limit leaves no slack (the remaining units
// could not all be wired otherwise) does a unit first take some plugs from the S-units whose
// spare fan-out is at least the number of units still to wire; for requests with
// AUnits*(Exc+Inh) well under 400*FanOut, such as the default, this never happens.
// Plugs are listed in ascending order of S-unit. MarkI returns an error for impossible or
// nonsensical parameters, among them AUnits*(Exc+Inh) > 400*FanOut.
func MarkI(p MarkIParams, rng *rand.Rand) (*Board, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m := p.Exc + p.Inh
	var spare [retina.N]int // fan-out left per S-unit
	limited := p.FanOut > 0
	for s := range spare {
		spare[s] = p.FanOut
		if !limited {
			spare[s] = p.AUnits
		}
	}
	pool := make([]uint16, retina.N) // S-units with spare fan-out
	for s := range pool {
		pool[s] = uint16(s)
	}
	plugs := make([]uint16, p.AUnits*m)
	units := make([]Unit, p.AUnits)
	for a := range units {
		// Forced draws: after this unit, r-1 units remain, each needing m distinct S-units.
		// That is possible exactly when sum_s min(spare_s, r-1) >= (r-1)*m (Gale-Ryser), so
		// of the S-units with spare >= r at most slack = sum_s min(spare_s, r) - r*m may be
		// left out of this unit.
		r := p.AUnits - a
		need := 0
		if limited {
			slack, full := -r*m, 0
			for _, s := range pool {
				slack += min(spare[s], r)
				if spare[s] >= r {
					full++
				}
			}
			need = max(0, full-slack)
			if full == len(pool) {
				need = 0 // every S-unit left qualifies: any m of them will do
			}
			if need > 0 {
				// Move the S-units with spare >= r to the front of the pool.
				k := 0
				for i, s := range pool {
					if spare[s] >= r {
						pool[i], pool[k] = pool[k], s
						k++
					}
				}
				for k := range need {
					j := k + rng.IntN(full-k)
					pool[k], pool[j] = pool[j], pool[k]
				}
			}
		}
		for k := need; k < m; k++ {
			j := k + rng.IntN(len(pool)-k)
			pool[k], pool[j] = pool[j], pool[k]
		}
		u := plugs[a*m : (a+1)*m : (a+1)*m]
		copy(u, pool[:m])
		if need > 0 {
			rng.Shuffle(m, func(i, j int) { u[i], u[j] = u[j], u[i] })
		}
		units[a] = Unit{Exc: u[:p.Exc:p.Exc], Theta: p.Theta}
		if p.Inh > 0 {
			units[a].Inh = u[p.Exc:]
		}
		slices.Sort(units[a].Exc)
		slices.Sort(units[a].Inh)
		if limited {
			for _, s := range u {
				spare[s]--
			}
			pool = slices.DeleteFunc(pool, func(s uint16) bool { return spare[s] == 0 })
		}
	}
	b := &Board{Units: units, FanOut: p.FanOut}
	if err := b.Compile(); err != nil {
		return nil, fmt.Errorf("patchboard: internal error: MarkI built an invalid board: %w", err)
	}
	return b, nil
}

// Validate reports nonsensical or impossible parameters, naming the field by its JSON name.
func (p MarkIParams) Validate() error {
	if p.Exc >= 1 && p.Exc <= retina.N && checkTheta(p.Theta, p.Exc, 0) != "" {
		return fmt.Errorf("patchboard: theta: %d, want 1..%d (the excitatory plugs per A-unit)", p.Theta, p.Exc)
	}
	if err := knob.CheckStruct(p, MarkIDocs()); err != nil {
		return fmt.Errorf("patchboard: %w", err)
	}
	plugs := p.AUnits * (p.Exc + p.Inh)
	switch {
	case p.Exc+p.Inh > retina.N:
		return fmt.Errorf("patchboard: exc, inh: %d+%d plugs per A-unit, but there are only %d S-units", p.Exc, p.Inh, retina.N)
	case plugs > MaxPlugs:
		return fmt.Errorf("patchboard: a_units: %d A-units of %d plugs need %d plugs, over the limit %d", p.AUnits, p.Exc+p.Inh, plugs, MaxPlugs)
	case p.FanOut > 0 && plugs > retina.N*p.FanOut:
		return fmt.Errorf("patchboard: fanout: %d A-units of %d plugs need %d plugs, over the %d that %d S-units with fan-out %d allow (raise fanout to at least %d)",
			p.AUnits, p.Exc+p.Inh, plugs, retina.N*p.FanOut, retina.N, p.FanOut, (plugs+retina.N-1)/retina.N)
	}
	if msg := checkTheta(p.Theta, p.Exc, 0); msg != "" {
		return fmt.Errorf("patchboard: theta: %d, want 1..%d (the excitatory plugs per A-unit)", p.Theta, p.Exc)
	}
	return nil
}

// MarkIDocs describes the fields of MarkIParams for configuration files, by JSON name.
func MarkIDocs() []knob.Doc {
	return []knob.Doc{
		{Key: "a_units", Models: "association units (A-units) on the plug-board", Unit: "units", Source: knob.Historical,
			Range: knob.Closed(1, MaxUnits)},
		{Key: "exc", Models: "excitatory plugs per A-unit (Rosenblatt's x)", Unit: "plugs", Source: knob.Assumed,
			Range: knob.Closed(1, retina.N)},
		{Key: "inh", Models: "inhibitory plugs per A-unit (Rosenblatt's y)", Unit: "plugs", Source: knob.Assumed,
			Range: knob.Closed(0, retina.N-1)},
		{Key: "theta", Models: "A-unit threshold: fires when lit excitatory minus lit inhibitory plugs reach it", Unit: "plugs", Source: knob.Assumed,
			Range: knob.Closed(1, retina.N), Note: "at most exc"},
		{Key: "fanout", Models: "most A-units one S-unit may feed (0: no limit)", Unit: "A-units", Source: knob.Historical,
			Note: "historical 40 for 512 A-units; the command line scales it with --a-units", Range: knob.Closed(0, MaxUnits)},
	}
}

// FanOutFor returns the fan-out limit that keeps the Mark I's proportions for a board of
// aUnits A-units: the historical 40 up to 512 A-units, and beyond that 40 scaled with the
// number of A-units (a bigger machine needs each cell to feed more units), so that the default
// plugs always fit with the Mark I's slack.
func FanOutFor(aUnits int) int {
	if aUnits <= 512 {
		return MarkIFanOut
	}
	return (MarkIFanOut*aUnits + 511) / 512
}

// Identity returns the one-to-one board: 400 A-units, A-unit i with one excitatory plug from
// S-unit i and theta 1, so A-unit i fires exactly when S-unit i is on (phi(x) = x): the
// textbook linear perceptron on the pixels. Its fan-out limit is the Mark I's 40.
func Identity() *Board {
	plugs := make([]uint16, retina.N)
	units := make([]Unit, retina.N)
	for i := range units {
		plugs[i] = uint16(i)
		units[i] = Unit{Exc: plugs[i : i+1 : i+1], Theta: 1}
	}
	b := &Board{Units: units, FanOut: MarkIFanOut}
	b.c = compile(units)
	return b
}

// Local receptive fields: plug counts and threshold of every A-unit of Local (assumed).
const (
	localExc   = 7
	localInh   = 4
	localTheta = 2
)

// MaxLocalRadius is the largest radius Local accepts: the surround then spans the field.
const MaxLocalRadius = retina.Rows / 2

// MaxLocalUnits is the most A-units Local may be asked for: each takes at least localTheta
// plugs, within the 400 S-units' fan-out of 40. Fewer may fit: a unit whose disc is used up is
// not placed (Local fails, naming it).
const MaxLocalUnits = retina.N * MarkIFanOut / localTheta

// Local wires a board with local centre-surround receptive fields (not the Mark I's wiring: a
// comparison preset), drawing every random number from rng. Each A-unit gets a centre cell
// drawn uniformly from the field; it takes 7 excitatory plugs drawn without replacement from the
// centre disc (the cells within radius of the centre, Euclidean distance in cells) and 4
// inhibitory plugs from the surround annulus (farther than radius, within 2*radius), and fires
// when at least 2 more excitatory than inhibitory plugs are lit: the same (x, y, theta) as
// DefaultMarkI, so a unit responds to figure on its centre and is held back by figure around
// it. Near the edge of the field the disc and annulus are clipped, and a unit takes fewer plugs
// if fewer cells are left (a radius-1 disc has only 5 cells).
//
// The Mark I fan-out limit of 40 is honoured: an S-unit at the limit is not drawn again; when
// the centre drawn has fewer than 2 S-units left in its disc, the centre is drawn again among
// the cells that have enough, and Local fails when none has. radius must be in
// 1..MaxLocalRadius.
//
// Activity of 512 A-units on the test figures of DefaultMarkI: radius 2 (the machine's default),
// mean 23% (16% to 34% from the smallest to the largest figures), 5 A-units dead (near the
// corners, where the figures rarely reach); radius 3, 28%, 1 dead; radius 4, 27%, none dead;
// radius 1 is weaker, 12% with 44 dead, as 5-cell centres are easily outweighed by their
// surround. On the built-in card sets, whose figures are centred, radius 2 gives 8% to 19%,
// and 19% to 33% of the A-units (those looking at the margins) never fire.
func Local(aUnits, radius int, rng *rand.Rand) (*Board, error) {
	return local(aUnits, radius, localExc, localInh, localTheta, rng)
}

// local is Local with the plug counts and threshold as parameters.
func local(aUnits, radius, nExc, nInh, theta int, rng *rand.Rand) (*Board, error) {
	if aUnits < 1 || aUnits > MaxUnits {
		return nil, fmt.Errorf("patchboard: %d A-units, want 1..%d", aUnits, MaxUnits)
	}
	if radius < 1 || radius > MaxLocalRadius {
		return nil, fmt.Errorf("patchboard: local radius %d, want 1..%d", radius, MaxLocalRadius)
	}
	if aUnits*theta > retina.N*MarkIFanOut {
		return nil, fmt.Errorf("patchboard: %d local A-units need at least %d plugs, over the %d that %d S-units with fan-out %d allow",
			aUnits, aUnits*theta, retina.N*MarkIFanOut, retina.N, MarkIFanOut)
	}
	var spare [retina.N]int
	for s := range spare {
		spare[s] = MarkIFanOut
	}
	units := make([]Unit, aUnits)
	disc := make([]uint16, 0, retina.N)
	ring := make([]uint16, 0, retina.N)
	// field collects the S-units below the limit in the disc and annulus around centre.
	field := func(centre int) {
		cr, cc := centre/retina.Cols, centre%retina.Cols
		disc, ring = disc[:0], ring[:0]
		for r := max(0, cr-2*radius); r <= min(retina.Rows-1, cr+2*radius); r++ {
			for c := max(0, cc-2*radius); c <= min(retina.Cols-1, cc+2*radius); c++ {
				s := r*retina.Cols + c
				if spare[s] == 0 {
					continue
				}
				switch d2 := (r-cr)*(r-cr) + (c-cc)*(c-cc); {
				case d2 <= radius*radius:
					disc = append(disc, uint16(s))
				case d2 <= 4*radius*radius:
					ring = append(ring, uint16(s))
				}
			}
		}
	}
	var centres []int
	for a := range units {
		field(rng.IntN(retina.N))
		if len(disc) < theta {
			// Draw again among the centres whose disc has theta S-units left.
			centres = centres[:0]
			for c := range retina.N {
				if field(c); len(disc) >= theta {
					centres = append(centres, c)
				}
			}
			if len(centres) == 0 {
				return nil, fmt.Errorf("patchboard: cannot place local A-unit %d: every disc of radius %d has fewer than %d S-units below the fan-out limit %d",
					a, radius, theta, MarkIFanOut)
			}
			field(centres[rng.IntN(len(centres))])
		}
		u := Unit{Exc: draw(disc, nExc, rng), Inh: draw(ring, nInh, rng), Theta: theta}
		for _, s := range u.Exc {
			spare[s]--
		}
		for _, s := range u.Inh {
			spare[s]--
		}
		units[a] = u
	}
	b := &Board{Units: units, FanOut: MarkIFanOut}
	if err := b.Compile(); err != nil {
		return nil, fmt.Errorf("patchboard: internal error: Local built an invalid board: %w", err)
	}
	return b, nil
}

// CheckLocal reports how b could not have been wired by Local with radius, naming an A-unit as
// wiring files do (a3): its fan-out limit is not the Mark I's, or an A-unit has another
// threshold, more plugs than Local gives, or no centre cell with its excitatory plugs within
// radius and its inhibitory ones beyond radius, within 2*radius. A board Local wired with radius
// passes; one wired with another radius, or by another preset, fails (for any but the smallest
// boards). radius must be in 1..MaxLocalRadius.
func CheckLocal(b *Board, radius int) error {
	if radius < 1 || radius > MaxLocalRadius {
		return fmt.Errorf("patchboard: local radius %d, want 1..%d", radius, MaxLocalRadius)
	}
	if b.FanOut != MarkIFanOut {
		return fmt.Errorf("fan-out limit %d, not the %d of a local wiring", b.FanOut, MarkIFanOut)
	}
	dist2 := func(s, c int) int {
		dr, dc := s/retina.Cols-c/retina.Cols, s%retina.Cols-c%retina.Cols
		return dr*dr + dc*dc
	}
	r2 := radius * radius
	// fits reports whether centre c has u's excitatory plugs in its disc and its inhibitory
	// plugs in its annulus.
	fits := func(u Unit, c int) bool {
		for _, s := range u.Exc {
			if dist2(int(s), c) > r2 {
				return false
			}
		}
		for _, s := range u.Inh {
			if d := dist2(int(s), c); d <= r2 || d > 4*r2 {
				return false
			}
		}
		return true
	}
	for a, u := range b.Units {
		switch {
		case u.Theta != localTheta:
			return fmt.Errorf("a%d: threshold %d, not the %d of a local wiring", a, u.Theta, localTheta)
		case len(u.Exc) < localTheta || len(u.Exc) > localExc:
			return fmt.Errorf("a%d: %d excitatory plugs, want %d..%d in a local wiring", a, len(u.Exc), localTheta, localExc)
		case len(u.Inh) > localInh:
			return fmt.Errorf("a%d: %d inhibitory plugs, want at most %d in a local wiring", a, len(u.Inh), localInh)
		}
		// The centre is within radius of the first excitatory plug.
		s0 := int(u.Exc[0])
		r0, c0 := s0/retina.Cols, s0%retina.Cols
		found := false
		for r := max(0, r0-radius); r <= min(retina.Rows-1, r0+radius) && !found; r++ {
			for c := max(0, c0-radius); c <= min(retina.Cols-1, c0+radius) && !found; c++ {
				found = fits(u, r*retina.Cols+c)
			}
		}
		if !found {
			return fmt.Errorf("a%d: no centre has its excitatory plugs within radius %d and its inhibitory plugs beyond it, within %d", a, radius, 2*radius)
		}
	}
	return nil
}

// draw returns min(n, len(from)) elements of from drawn without replacement, in ascending
// order, or nil if none; it reorders from.
func draw(from []uint16, n int, rng *rand.Rand) []uint16 {
	n = min(n, len(from))
	if n == 0 {
		return nil
	}
	for k := range n {
		j := k + rng.IntN(len(from)-k)
		from[k], from[j] = from[j], from[k]
	}
	out := slices.Clone(from[:n])
	slices.Sort(out)
	return out
}
