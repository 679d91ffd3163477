package patchboard

import (
	"errors"
	"fmt"

	"github.com/mark1-perceptron/mark1/retina"
)

// Limits of a board.
const (
	// MarkIFanOut is the Mark I's fan-out limit: one S-unit could feed at most 40 A-units
	// (historical: Nilsson, The Quest for AI, via Wikipedia "Perceptron").
	MarkIFanOut = 40
	// MaxUnits is the largest number of A-units a board may have (A-unit indices are uint16).
	MaxUnits = 1 << 16
	// MaxPlugs is the largest number of plugs a board may have in all (bounding the memory a
	// wiring file can make Read use; the Mark I's limit allows 400*40 = 16000).
	MaxPlugs = 1 << 22
)

// Unit is one A-unit: its plugs and its threshold.
type Unit struct {
	Exc, Inh []uint16 // S-unit indices (0..399) of excitatory / inhibitory plugs
	Theta    int      // fires when (lit Exc) - (lit Inh) >= Theta
}

// Board is a plug-board: the wiring of the S-units to the A-units.
//
// A valid board (see Validate) has 1 to MaxUnits A-units and at most MaxPlugs plugs; every plug names an S-unit 0..399;
// no S-unit is plugged twice into one A-unit; every theta lies in 1..len(Exc), so that a blank
// field lights no A-unit and every A-unit can fire; and, when FanOut > 0, no S-unit feeds more
// than FanOut A-units.
//
// Fire works from tables derived from Units (the scatter form of the wiring). They are built by
// Compile, which the constructors and Read call, or on the first Fire, so a Board written as a
// struct literal works as it is. Fire notices when Units is replaced by another slice, but not
// when the plugs or thresholds of the units are changed in place: call Compile after doing so.
type Board struct {
	Units  []Unit
	FanOut int // limit of A-units one S-unit may feed (Mark I: 40); 0 = no limit

	c *compiled // derived scatter tables and Fire's scratch counters, built by Compile
}

// Len returns the number of A-units.
func (b *Board) Len() int { return len(b.Units) }

// Validate reports the first problem of the board: no A-units or too many, too many plugs, a
// plug naming an
// unknown S-unit, an S-unit plugged twice into one A-unit, a threshold outside 1..len(Exc), a
// negative fan-out limit, or an S-unit feeding more A-units than the limit. Validate only reads
// the board.
func (b *Board) Validate() error {
	if len(b.Units) == 0 {
		return errors.New("patchboard: no A-units")
	}
	if len(b.Units) > MaxUnits {
		return fmt.Errorf("patchboard: %d A-units, over the limit %d", len(b.Units), MaxUnits)
	}
	if b.FanOut < 0 {
		return fmt.Errorf("patchboard: negative fan-out limit %d", b.FanOut)
	}
	var seen [retina.N]int32 // 1 + index of the last A-unit each S-unit was seen in
	var fan [retina.N]int
	plugs := 0
	for a := range b.Units {
		u := &b.Units[a]
		if plugs += len(u.Exc) + len(u.Inh); plugs > MaxPlugs {
			return fmt.Errorf("patchboard: more than %d plugs in all", MaxPlugs)
		}
		for _, plugs := range [2][]uint16{u.Exc, u.Inh} {
			for _, s := range plugs {
				if msg := checkPlug(int(s), a, &seen); msg != "" {
					return errors.New("patchboard: " + msg)
				}
				fan[s]++
			}
		}
		if msg := checkTheta(u.Theta, len(u.Exc), a); msg != "" {
			return errors.New("patchboard: " + msg)
		}
	}
	if b.FanOut > 0 {
		for s, f := range fan {
			if f > b.FanOut {
				return errors.New("patchboard: " + fanOutMsg(s, f, b.FanOut))
			}
		}
	}
	return nil
}

// checkPlug checks plug s of A-unit a; seen records, per S-unit, 1 + the last A-unit it was
// plugged into. It returns the problem, or "".
func checkPlug(s, a int, seen *[retina.N]int32) string {
	if s < 0 || s >= retina.N {
		return fmt.Sprintf("unknown S-unit %d in a%d (S-units are 0..%d)", s, a, retina.N-1)
	}
	if seen[s] == int32(a)+1 {
		return fmt.Sprintf("S-unit %d plugged twice into a%d", s, a)
	}
	seen[s] = int32(a) + 1
	return ""
}

// checkTheta checks the threshold of A-unit a with exc excitatory plugs.
func checkTheta(theta, exc, a int) string {
	switch {
	case theta < 1:
		return fmt.Sprintf("theta %d of a%d is below 1 (the unit would fire on a blank field)", theta, a)
	case theta > exc:
		return fmt.Sprintf("theta %d of a%d is over its %d excitatory plugs (the unit could never fire)", theta, a, exc)
	}
	return ""
}

func fanOutMsg(s, f, limit int) string {
	return fmt.Sprintf("fan-out of S-unit %d is %d, over the limit %d", s, f, limit)
}

// Compile validates the board and builds the tables Fire works from. The constructors and Read
// return compiled boards, and Fire compiles a board on first use, so Compile is only needed
// after changing the plugs or thresholds of a board's units in place.
func (b *Board) Compile() error {
	if err := b.Validate(); err != nil {
		return err
	}
	b.c = compile(b.Units)
	return nil
}

// compiled is the scatter form of a board, with Fire's scratch counters.
//
// Every A-unit a has two 16-bit counters: an excitatory one, ctr[a], which at rest holds
// 0x8000-theta, and an inhibitory one, ctr[m+a], which at rest holds 0 (m is the number of
// A-units rounded up to a multiple of 64). Every lit plug steps its counter by one, so the unit
// fires exactly when the top bit of ctr[a]-ctr[m+a] is set. With theta in 1..400 and at most
// 400 plugs per unit the counters stay within 0x8000-400..0x8000+399 and 0..400, so no
// arithmetic wraps. The counters of the padding units past the last A-unit stay 0: they never
// fire.
type compiled struct {
	units []Unit   // the Units slice compiled from (to notice replacement)
	m     int      // A-units rounded up to a multiple of 64
	ctr   []uint16 // scratch counters: excitatory [0, m), inhibitory [m, 2m)
	rest  []uint16 // counters for a blank field
	full  []uint16 // counters for a field with every S-unit lit
	// The plugs of S-unit s are to[start[s]:start[s+1]], in A-unit order, each the index of
	// the counter it steps: a for an excitatory plug into A-unit a, m+a for an inhibitory one.
	start [retina.N + 1]int32
	to    []uint32

	// The byte form, used when every unit's counts fit in one byte (theta+inh <= 128 and
	// exc-theta <= 127, true of every preset): one counter per A-unit, at rest 128-theta,
	// stepped up by excitatory and down by inhibitory plugs, so the unit fires exactly when the
	// counter's top bit is set; eight counters are thresholded per 64-bit load.
	small          bool
	ctr8           *[1 << 16]uint8 // scratch counters, indexed by A-unit (uint16: no bounds check)
	rest8, full8   []uint8         // counters for a blank field and for an all-lit field
	eStart, iStart [retina.N + 1]int32
	eTo, iTo       []uint16 // A-units fed by each S-unit's excitatory / inhibitory plugs
}

func compile(units []Unit) *compiled {
	m := (len(units) + 63) &^ 63
	c := &compiled{units: units, m: m}
	c.ctr = make([]uint16, 2*m)
	c.rest = make([]uint16, 2*m)
	c.full = make([]uint16, 2*m)
	// Count the plugs of every S-unit, then fill the lists in A-unit order.
	var count [retina.N]int32
	for _, u := range units {
		for _, s := range u.Exc {
			count[s]++
		}
		for _, s := range u.Inh {
			count[s]++
		}
	}
	for s := range retina.N {
		c.start[s+1] = c.start[s] + count[s]
	}
	c.to = make([]uint32, c.start[retina.N])
	pos := c.start
	for a, u := range units {
		for _, s := range u.Exc {
			c.to[pos[s]] = uint32(a)
			pos[s]++
		}
		for _, s := range u.Inh {
			c.to[pos[s]] = uint32(m + a)
			pos[s]++
		}
		c.rest[a] = uint16(0x8000 - u.Theta)
		c.full[a] = uint16(0x8000 - u.Theta + len(u.Exc))
		c.full[m+a] = uint16(len(u.Inh))
	}
	compileSmall(c, units)
	return c
}

// compileSmall builds the byte form of c when every unit's counts fit in a byte.
func compileSmall(c *compiled, units []Unit) {
	if len(units) > 1<<16 {
		return
	}
	for _, u := range units {
		if u.Theta+len(u.Inh) > 128 || len(u.Exc)-u.Theta > 127 {
			return
		}
	}
	c.small = true
	c.ctr8 = new([1 << 16]uint8)
	c.rest8 = make([]uint8, c.m)
	c.full8 = make([]uint8, c.m)
	var ne, ni [retina.N]int32
	for a, u := range units {
		for _, s := range u.Exc {
			ne[s]++
		}
		for _, s := range u.Inh {
			ni[s]++
		}
		c.rest8[a] = uint8(128 - u.Theta)
		c.full8[a] = uint8(128 - u.Theta + len(u.Exc) - len(u.Inh))
	}
	for s := range retina.N {
		c.eStart[s+1] = c.eStart[s] + ne[s]
		c.iStart[s+1] = c.iStart[s] + ni[s]
	}
	c.eTo = make([]uint16, c.eStart[retina.N])
	c.iTo = make([]uint16, c.iStart[retina.N])
	pe, pi := c.eStart, c.iStart
	for a, u := range units {
		for _, s := range u.Exc {
			c.eTo[pe[s]] = uint16(a)
			pe[s]++
		}
		for _, s := range u.Inh {
			c.iTo[pi[s]] = uint16(a)
			pi[s]++
		}
	}
}
