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
)

// Unit is one A-unit: its plugs and its threshold.
type Unit struct {
	Exc, Inh []uint16 // S-unit indices (0..399) of excitatory / inhibitory plugs
	Theta    int      // fires when (lit Exc) - (lit Inh) >= Theta
}

// Board is a plug-board: the wiring of the S-units to the A-units.
//
// A valid board (see Validate) has 1 to MaxUnits A-units; every plug names an S-unit 0..399;
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

// Validate reports the first problem of the board: no A-units or too many, a plug naming an
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
	for a := range b.Units {
		u := &b.Units[a]
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
// The counters are packed four to a word: lane k (bits 16k..16k+15) of word a/4 belongs to
// A-unit a. A lane at rest holds 0x8000 - theta; every lit excitatory plug adds 1 and every lit
// inhibitory plug subtracts 1, so the unit fires exactly when the top bit of its lane is set.
// With theta in 1..400 and at most 400 plugs a lane stays within 0x8000-800 .. 0x8000+399, so
// lanes never carry or borrow into each other. Unused lanes (past the last A-unit) stay 0.
type compiled struct {
	units []Unit   // the Units slice compiled from (to notice replacement)
	n     int
	words int      // A-bit words: (n+63)/64
	ctr   []uint16 // scratch: excitatory counters [0, n), inhibitory counters [n, 2n)
	rest  []uint16 // counters for a blank field
	full  []uint16 // counters for a field with every S-unit lit
	start [retina.N + 1]int32
	to    []uint32
}

func compile(units []Unit) *compiled {
	n := len(units)
	c := &compiled{units: units, n: n, words: (n + 63) / 64}
	c.ctr = make([]uint16, 2*n)
	c.rest = make([]uint16, 2*n)
	c.full = make([]uint16, 2*n)
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
			c.to[pos[s]] = uint32(n + a)
			pos[s]++
		}
		c.rest[a] = uint16(0x8000 - u.Theta)
		c.full[a] = uint16(0x8000 - u.Theta + len(u.Exc))
		c.full[n+a] = uint16(len(u.Inh))
	}
	return c
}
