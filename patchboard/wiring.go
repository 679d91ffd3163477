package patchboard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/retina"
)

// The wiring file is plain text, one A-unit per line, so that it reads and diffs well:
//
//	# mark1 wiring
//	# S-unit index = row*20 + col (0..399); +S excitatory plug, -S inhibitory plug;
//	# an A-unit fires when (lit +S) - (lit -S) >= theta.
//	format 1
//	fanout 40
//	a0 theta=2 +12 +45 +300 -7 -99
//	a1 theta=1 +3 -250
//
// '#' starts a comment that runs to the end of the line; blank lines are ignored; words are
// separated by spaces or tabs (a UTF-8 byte-order mark at the start is skipped). Two optional header lines may come before the first A-unit, each
// at most once: "format N" (the format version; this package reads version 1) and "fanout N"
// (the most A-units one S-unit may feed; default 40, the Mark I's limit; 0 = no limit). Then
// come the A-units, listed a0, a1, a2, ... in order, each exactly once, at most MaxUnits. An
// A-unit line holds the unit's name, its threshold theta=N, and its plugs: +S for an excitatory
// plug from S-unit S, -S for an inhibitory one, in any order (excitatory and inhibitory plugs
// each keep their order). Every A-unit must satisfy the rules of Validate: so no unit has more
// than 400 plugs, and a file at most MaxPlugs. Lines are at most MaxLineLen bytes.
const (
	// FormatVersion is the version of the wiring format that WriteTo writes and Read reads.
	FormatVersion = 1
	// MaxLineLen is the longest line Read accepts, in bytes.
	MaxLineLen = 16 << 10
)

// Read reads a board from a wiring file (see FormatVersion for the format). Errors are one
// line, name the file (name) and the line: "wiring.txt:12: unknown S-unit 400 in a3 (S-units
// are 0..399)". The board is returned compiled.
func Read(r io.Reader, name string) (*Board, error) {
	p := parser{name: name, fanOut: MarkIFanOut}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLineLen)
	for sc.Scan() {
		p.line++
		text := sc.Text()
		if p.line == 1 {
			text = strings.TrimPrefix(text, "\uFEFF") // a byte-order mark some editors write
		}
		if err := p.parseLine(text); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line too long (over %d bytes)", name, p.line+1, MaxLineLen)
		}
		return nil, fmt.Errorf("%s:%d: %w", name, p.line+1, err)
	}
	if len(p.units) == 0 {
		return nil, fmt.Errorf("%s: no A-units (want lines like \"a0 theta=1 +12 -7\")", name)
	}
	b := &Board{Units: p.units, FanOut: p.fanOut}
	if err := b.Compile(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

// parser is the state of Read.
type parser struct {
	name                   string
	line                   int
	formatLine, fanOutLine int // lines of the header directives, 0 if not seen
	fanOut                 int
	units                  []Unit
	unitLines              []int // line of every A-unit
	plugs                  int   // plugs so far
	seen                   [retina.N]int32
	fan                    [retina.N]int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, args...))
}

func (p *parser) parseLine(text string) error {
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	f := strings.Fields(text)
	if len(f) == 0 {
		return nil
	}
	switch {
	case f[0] == "format":
		if err := p.header(f, &p.formatLine); err != nil {
			return err
		}
		v, ok := smallInt(f, 6)
		switch {
		case !ok || v < 1:
			return p.errorf("malformed format version %s (want format %d)", quote(strings.Join(f, " ")), FormatVersion)
		case v > FormatVersion:
			return p.errorf("wiring format %d is newer than this program reads (%d)", v, FormatVersion)
		}
	case f[0] == "fanout":
		if err := p.header(f, &p.fanOutLine); err != nil {
			return err
		}
		v, ok := smallInt(f, 6)
		if !ok || v < 0 {
			return p.errorf("malformed fan-out limit %s (want fanout N, N >= 0; 0 = no limit)", quote(strings.Join(f, " ")))
		}
		p.fanOut = v
	case len(f[0]) > 1 && f[0][0] == 'a' && isDigits(f[0][1:]):
		return p.unit(f)
	default:
		return p.errorf("unknown directive %s (want format, fanout or an A-unit a0, a1, ...)", quote(f[0]))
	}
	return nil
}

// header checks the placement of header directive f, first seen on line *at (0 if not yet).
func (p *parser) header(f []string, at *int) error {
	switch {
	case len(p.units) > 0:
		return p.errorf("%s must come before the A-units", f[0])
	case *at != 0:
		return p.errorf("%s given twice (first on line %d)", f[0], *at)
	}
	*at = p.line
	return nil
}

// smallInt parses f[1], the argument of a directive, as an integer of at most digits digits.
func smallInt(f []string, digits int) (int, bool) {
	if len(f) != 2 || len(f[1]) > digits+1 {
		return 0, false
	}
	v, err := strconv.Atoi(f[1])
	return v, err == nil
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// quote quotes s for an error message, shortened to its first 40 bytes.
func quote(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:40]) + "..."
	}
	return strconv.Quote(s)
}

// unit parses an A-unit line.
func (p *parser) unit(f []string) error {
	a := len(p.units)
	idx := MaxUnits
	if len(f[0]) <= 6 {
		idx, _ = strconv.Atoi(f[0][1:])
	}
	switch {
	case idx < a:
		return p.errorf("a%d listed twice (first on line %d)", idx, p.unitLines[idx])
	case a == MaxUnits:
		return p.errorf("more than %d A-units", MaxUnits)
	case idx > a:
		name := f[0]
		if len(name) > 12 {
			name = name[:12] + "..."
		}
		return p.errorf("%s out of order: a%d expected next (A-units are listed a0, a1, ... in order)", name, a)
	}
	var u Unit
	thetaSeen := false
	for _, t := range f[1:] {
		switch {
		case strings.HasPrefix(t, "theta="):
			if thetaSeen {
				return p.errorf("threshold of a%d given twice", a)
			}
			thetaSeen = true
			v, err := strconv.Atoi(t[len("theta="):])
			if err != nil || len(t) > len("theta=")+7 {
				return p.errorf("malformed threshold %s (want theta=N)", quote(t))
			}
			u.Theta = v
		case t[0] == '+' || t[0] == '-':
			if p.plugs++; p.plugs > MaxPlugs {
				return p.errorf("more than %d plugs in all", MaxPlugs)
			}
			if !isDigits(t[1:]) {
				return p.errorf("malformed plug %s in a%d (want +S for excitatory, -S for inhibitory, S = 0..%d)", quote(t), a, retina.N-1)
			}
			s := retina.N
			if len(t) <= 7 {
				s, _ = strconv.Atoi(t[1:])
			}
			if msg := checkPlug(s, a, &p.seen); msg != "" {
				if digits := t[1:]; s >= retina.N {
					// Name the S-unit as written (checkPlug's s is capped for long numbers).
					if len(digits) > 12 {
						digits = digits[:12] + "..."
					}
					return p.errorf("unknown S-unit %s in a%d (S-units are 0..%d)", digits, a, retina.N-1)
				}
				return p.errorf("%s", msg)
			}
			if t[0] == '+' {
				u.Exc = append(u.Exc, uint16(s))
			} else {
				u.Inh = append(u.Inh, uint16(s))
			}
			p.fan[s]++
			if p.fanOut > 0 && p.fan[s] > p.fanOut {
				return p.errorf("%s", fanOutMsg(s, p.fan[s], p.fanOut))
			}
		default:
			return p.errorf("malformed plug %s in a%d (want +S for excitatory, -S for inhibitory, S = 0..%d)", quote(t), a, retina.N-1)
		}
	}
	if !thetaSeen {
		return p.errorf("a%d has no threshold (want theta=N)", a)
	}
	if msg := checkTheta(u.Theta, len(u.Exc), a); msg != "" {
		return p.errorf("%s", msg)
	}
	p.units = append(p.units, u)
	p.unitLines = append(p.unitLines, p.line)
	return nil
}

// WriteTo writes the board in the canonical form of the wiring file (see FormatVersion): a
// comment, the format and fanout lines, then one line per A-unit with its threshold, its
// excitatory plugs and its inhibitory plugs, each in the board's order. Read of the output
// reproduces the board. WriteTo refuses an invalid board (see Validate) and writes nothing.
func (b *Board) WriteTo(w io.Writer) (int64, error) {
	if err := b.Validate(); err != nil {
		return 0, err
	}
	cw := &countWriter{w: w}
	bw := bufio.NewWriter(cw)
	fmt.Fprintf(bw, "# mark1 wiring: %d A-units\n", len(b.Units))
	fmt.Fprintf(bw, "# S-unit index = row*%d + col (0..%d); +S excitatory plug, -S inhibitory plug;\n", retina.Cols, retina.N-1)
	fmt.Fprintf(bw, "# an A-unit fires when (lit +S) - (lit -S) >= theta.\n")
	fmt.Fprintf(bw, "format %d\nfanout %d\n", FormatVersion, b.FanOut)
	line := make([]byte, 0, 64)
	for a, u := range b.Units {
		line = append(line[:0], 'a')
		line = strconv.AppendInt(line, int64(a), 10)
		line = append(line, " theta="...)
		line = strconv.AppendInt(line, int64(u.Theta), 10)
		for _, s := range u.Exc {
			line = append(line, ' ', '+')
			line = strconv.AppendUint(line, uint64(s), 10)
		}
		for _, s := range u.Inh {
			line = append(line, ' ', '-')
			line = strconv.AppendUint(line, uint64(s), 10)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			break
		}
	}
	err := bw.Flush()
	if err != nil {
		err = fmt.Errorf("patchboard: writing the wiring: %w", err)
	}
	return cw.n, err
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
