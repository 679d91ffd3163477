package patchboard

import (
	"fmt"
	"math/rand/v2"
	"slices"

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
// (historical), and A-units (x, y, theta) = (XXX) (assumed: the surviving record has no plug counts or
// thresholds).
//
// MEASURE
func DefaultMarkI() MarkIParams {
	return MarkIParams{AUnits: 512, Exc: 6, Inh: 4, Theta: 2, FanOut: MarkIFanOut}
}

// MarkI wires a board at random, as the Mark I's plug-board was wired from a table of random
// numbers, drawing every random number from rng: the same rng state gives the same board.
//
// Each A-unit draws its Exc+Inh plugs without replacement from the S-units not yet at the
// fan-out limit, so no S-unit is plugged twice into one A-unit, and takes the first Exc as
// excitatory, the rest as inhibitory. Only when the limit leaves no slack (the remaining units
// could not all be wired otherwise) does a unit first take plugs from the S-units with the most
// spare fan-out; for any request with AUnits*(Exc+Inh) well under 400*FanOut this never happens.
// Plugs are listed in ascending order of S-unit. MarkI returns an error for impossible or
// nonsensical parameters, among them AUnits*(Exc+Inh) > 400*FanOut.
func MarkI(p MarkIParams, rng *rand.Rand) (*Board, error) {
	if err := p.check(); err != nil {
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

// check reports nonsensical or impossible parameters.
func (p MarkIParams) check() error {
	switch {
	case p.AUnits < 1 || p.AUnits > MaxUnits:
		return fmt.Errorf("patchboard: %d A-units, want 1..%d", p.AUnits, MaxUnits)
	case p.Exc < 1:
		return fmt.Errorf("patchboard: %d excitatory plugs per A-unit, want at least 1", p.Exc)
	case p.Inh < 0:
		return fmt.Errorf("patchboard: %d inhibitory plugs per A-unit, want at least 0", p.Inh)
	case p.Exc+p.Inh > retina.N:
		return fmt.Errorf("patchboard: %d+%d plugs per A-unit, but there are only %d S-units", p.Exc, p.Inh, retina.N)
	case p.FanOut < 0:
		return fmt.Errorf("patchboard: negative fan-out limit %d", p.FanOut)
	case p.FanOut > 0 && p.AUnits*(p.Exc+p.Inh) > retina.N*p.FanOut:
		return fmt.Errorf("patchboard: %d A-units of %d plugs need %d plugs, over the %d that %d S-units with fan-out %d allow",
			p.AUnits, p.Exc+p.Inh, p.AUnits*(p.Exc+p.Inh), retina.N*p.FanOut, retina.N, p.FanOut)
	}
	if msg := checkTheta(p.Theta, p.Exc, 0); msg != "" {
		return fmt.Errorf("patchboard: theta %d, want 1..%d (the excitatory plugs per A-unit)", p.Theta, p.Exc)
	}
	return nil
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
	localExc   = 6
	localInh   = 6
	localTheta = 2
	// MaxLocalRadius is the largest radius Local accepts: the surround then spans the field.
	MaxLocalRadius = retina.Rows / 2
)

// Local wires a board with local centre-surround receptive fields, drawing every random number
// from rng. Each A-unit gets a centre cell drawn uniformly from the field; it takes XXX
// excitatory plugs drawn without replacement from the centre disc (cells within radius of the
// centre, Euclidean distance) and XXX inhibitory plugs from the surround annulus (cells farther
// than radius but within 2*radius), and threshold XXX (assumed). Near the edge of the field the disc
// and annulus are clipped, and a unit takes fewer plugs if fewer cells are left. The Mark I
// fan-out limit of 40 is honoured: an S-unit at the limit is not drawn again; a unit whose disc
// has fewer than theta S-units left gets a new centre. radius must be in 1..MaxLocalRadius.
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
	const tries = 1000
	for a := range units {
		for try := 0; ; try++ {
			if try == tries {
				return nil, fmt.Errorf("patchboard: cannot place local A-unit %d: near each of %d centres tried, fewer than %d S-units are below the fan-out limit %d",
					a, tries, theta, MarkIFanOut)
			}
			centre := rng.IntN(retina.N)
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
			if len(disc) >= theta {
				break
			}
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
