package machine

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/internal/detmath"
	"github.com/mark1-perceptron/mark1/internal/regfile"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/potentiometer"
	"github.com/mark1-perceptron/mark1/retina"
)

// StateVersion is the version of the state file format this package writes and the newest it
// reads. Version 1 files (mark1 before the gear-true pot model) are read too: see ReadState.
const StateVersion = 2

// stateMagic opens every state file. The header line is
//
//	mark1-state VERSION LENGTH SHA256
//
// followed by LENGTH bytes of JSON whose SHA-256 is SHA256 (hex).
const stateMagic = "mark1-state"

// MaxStateBody is the largest JSON body a state file may have, checked by the writer and the
// reader alike: 1 GiB. The biggest machine the limits allow (65,536 A-units, 64 R-units,
// every analog effect on) takes 337 MB; the default machine about 0.3 MB.
const MaxStateBody = 1 << 30

// maxHeader bounds the header line; a real one is under 100 bytes.
const maxHeader = 256

// state is the JSON body of a state file.
type state struct {
	Config        Config                    `json:"config"`
	Classes       []string                  `json:"classes"`
	Codes         [][]int8                  `json:"codes"`
	Wiring        string                    `json:"wiring"`
	Retina        retina.State              `json:"retina"`
	Racks         []potentiometer.RackState `json:"racks"`
	Noise         []byte                    `json:"noise_rng"`
	Order         []byte                    `json:"order_rng"`
	Clock         float64                   `json:"clock_s"`
	Presentations uint64                    `json:"presentations"`
}

// ErrTooBig is returned (wrapped) when a machine's state is larger than MaxStateBody.
var ErrTooBig = errors.New("machine: state larger than the limit of 1 GiB")

// WriteState writes the whole machine (configuration, wiring, pot positions and their hidden
// state, cell states, random state, clock) in the versioned state format. It may be called
// from another goroutine while the machine trains: it writes the machine as it stands between
// two presentations.
func (m *Machine) WriteState(w io.Writer) error {
	body, err := m.stateBody()
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	if _, err := fmt.Fprintf(w, "%s %d %d %s\n", stateMagic, StateVersion, len(body), hex.EncodeToString(sum[:])); err != nil {
		return err
	}
	_, err = w.Write(body)
	return err
}

// stateBody encodes the machine's state as JSON.
func (m *Machine) stateBody() ([]byte, error) {
	m.mu.Lock()
	m.syncRetina()
	st := state{
		Config:        m.cfg,
		Classes:       m.classes,
		Codes:         m.codes,
		Retina:        m.retina.State(),
		Clock:         m.clock,
		Presentations: m.count,
	}
	var err error
	for r, rack := range m.racks {
		s, ok := rack.(Stater)
		if !ok {
			err = fmt.Errorf("machine: rack %d: %w", r, errNotSimulated)
			break
		}
		st.Racks = append(st.Racks, s.State())
	}
	if err == nil {
		st.Noise, err = m.noiseSrc.MarshalBinary()
	}
	if err == nil {
		st.Order, err = m.orderSrc.MarshalBinary()
	}
	m.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	st.Config.Codes = nil
	var wiring strings.Builder
	if _, err := m.board.WriteTo(&wiring); err != nil {
		return nil, fmt.Errorf("machine: writing wiring: %w", err)
	}
	st.Wiring = wiring.String()
	body, err := json.Marshal(&st)
	if err != nil {
		return nil, fmt.Errorf("machine: encoding state: %w", err)
	}
	if len(body) > MaxStateBody {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooBig, len(body))
	}
	return body, nil
}

// Save writes the machine's state to path atomically (see atomicfile.Write): the file at path
// is always either the old state or the new one, a device, FIFO or folder at path is refused,
// and a symbolic link at path is followed (its target is replaced).
func (m *Machine) Save(path string) error {
	body, err := m.stateBody()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	sum := sha256.Sum256(body)
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		if _, err := fmt.Fprintf(w, "%s %d %d %s\n", stateMagic, StateVersion, len(body), hex.EncodeToString(sum[:])); err != nil {
			return err
		}
		_, err := w.Write(body)
		return err
	})
}

// Clone returns an independent copy of the machine, which continues exactly as m would (it is
// what saving and loading give, without the file). It fails for a machine with racks that are
// not Staters.
func (m *Machine) Clone() (*Machine, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.syncRetina()
	cfg := m.cfg
	// The board's units are read only; its scratch space is per board.
	cfg.Board = &patchboard.Board{Units: m.board.Units, FanOut: m.board.FanOut}
	cfg.Codes, cfg.Coding = m.codes, CodingTable
	c, err := New(cfg, m.classes)
	if err != nil {
		return nil, err
	}
	c.cfg.Coding, c.cfg.Codes, c.coding = m.cfg.Coding, m.cfg.Codes, m.coding
	for r, rack := range m.racks {
		s, ok := rack.(Stater)
		if !ok {
			return nil, fmt.Errorf("machine: rack %d: %w", r, errNotSimulated)
		}
		if err := c.racks[r].(Stater).SetState(s.State()); err != nil {
			return nil, fmt.Errorf("machine: clone: rack %d: %w", r, err)
		}
	}
	if err := c.retina.SetState(m.retina.State()); err != nil {
		return nil, fmt.Errorf("machine: clone: %w", err)
	}
	for _, p := range [][2]*rand.PCG{{m.noiseSrc, c.noiseSrc}, {m.orderSrc, c.orderSrc}} {
		b, err := p[0].MarshalBinary()
		if err == nil {
			err = p[1].UnmarshalBinary(b)
		}
		if err != nil {
			return nil, fmt.Errorf("machine: clone: %w", err)
		}
	}
	c.clock, c.count, c.obs = m.clock, m.count, m.obs
	c.s, c.ev.Card, c.ev.Class, c.ev.Predicted, c.ev.Learning = m.s, m.ev.Card, m.ev.Class, m.ev.Predicted, m.ev.Learning
	copy(c.a, m.a)
	c.activeBuf = append(c.activeBuf[:0], m.active...)
	c.active = c.activeBuf
	copy(c.sums, m.sums)
	return c, nil
}

// ReadState reads a machine written by WriteState; name is used in error messages. The loaded
// machine continues exactly as the saved one would have.
//
// The file is checked as a whole before a machine is built from it: the header (at most 256
// bytes), the length (at most MaxStateBody) and checksum, the JSON (no unknown field at any
// depth, nothing after the body), and every value against the range the machine could have
// produced itself (the parts' SetState checks positions, gains and levels), so that any
// machine that loads can train and be saved again. Errors name the file and the field.
//
// Version 1 files are read with the new model's parameters at the values that reproduce
// version 1's behaviour where the new model allows it (file order; see migrateV1); an analog
// machine then continues under the gear-true pot model, not bit for bit as version 1 would.
func ReadState(r io.Reader, name string) (*Machine, error) {
	br := bufio.NewReaderSize(r, 4096)
	header, err := br.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull) || len(header) > maxHeader:
		return nil, fmt.Errorf("%s: not a mark1 state file (no header line in the first %d bytes)", name, maxHeader)
	case errors.Is(err, io.EOF) && len(header) == 0:
		return nil, fmt.Errorf("%s: empty file, not a mark1 state file", name)
	case err != nil && !errors.Is(err, io.EOF):
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f := strings.Fields(string(header))
	if len(f) == 0 || f[0] != stateMagic {
		return nil, fmt.Errorf("%s: not a mark1 state file", name)
	}
	if len(f) != 4 {
		return nil, fmt.Errorf("%s: malformed state header", name)
	}
	version, err := strconv.Atoi(f[1])
	if err != nil || version < 1 {
		return nil, fmt.Errorf("%s: malformed state version %q", name, f[1])
	}
	if version > StateVersion {
		return nil, fmt.Errorf("%s: state file version %d is newer than this mark1 reads (%d); upgrade mark1", name, version, StateVersion)
	}
	length, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || length < 2 {
		return nil, fmt.Errorf("%s: malformed state length %q", name, f[2])
	}
	if length > MaxStateBody {
		return nil, fmt.Errorf("%s: state of %d bytes is over the limit of %d bytes", name, length, MaxStateBody)
	}
	want, err := hex.DecodeString(f[3])
	if err != nil || len(want) != sha256.Size {
		return nil, fmt.Errorf("%s: malformed state checksum", name)
	}
	// The buffer grows with the data that arrives, so a header that lies costs nothing.
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(br, length+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if n < length {
		return nil, fmt.Errorf("%s: truncated: %d of %d bytes of state", name, n, length)
	}
	if n > length {
		return nil, fmt.Errorf("%s: corrupt: data after the state", name)
	}
	body := buf.Bytes()
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], want) {
		return nil, fmt.Errorf("%s: corrupt: checksum mismatch", name)
	}
	m, err := decodeState(body, version)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// decodeState builds a machine from a checked state body of the given version.
func decodeState(body []byte, version int) (*Machine, error) {
	var st state
	if version == 1 {
		st.Config = v1Config()
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("corrupt state: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("corrupt state: data after the JSON body")
	}
	if err := checkVersion(body, version); err != nil {
		return nil, err
	}
	if version == 1 {
		migrateV1(&st)
	}
	return fromState(&st)
}

// v2Fields are the fields version 2 added: a version 2 body has every one, a version 1 body none
// (a header that says another version than its body is refused, not read with defaults).
var v2Fields = []struct{ path []string }{
	{[]string{"config", "order"}},
	{[]string{"config", "pots", "drive"}},
	{[]string{"config", "pots", "track_spread"}},
	{[]string{"config", "pots", "teeth_per_increment"}},
	{[]string{"config", "pots", "ratchet_miss"}},
	{[]string{"config", "pots", "ratchet_double"}},
	{[]string{"racks", "[]", "track_factor"}},
	{[]string{"racks", "[]", "warm_left"}},
}

// checkVersion checks that the body is of the version its header says.
func checkVersion(body []byte, version int) error {
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		return fmt.Errorf("corrupt state: %w", err)
	}
	for _, f := range v2Fields {
		has := hasField(doc, f.path)
		name := strings.ReplaceAll(strings.Join(f.path, "."), ".[]", "[]")
		switch {
		case version == 1 && has:
			return fmt.Errorf("%s: a version 2 field, in a state whose header says version 1", name)
		case version >= 2 && !has:
			return fmt.Errorf("%s: missing: a version %d state has it (is the body a version 1 state's?)", name, version)
		}
	}
	return nil
}

// hasField reports whether the decoded JSON v has the field at path ("[]": every element of a
// list, which must hold it in each; an empty list holds every field).
func hasField(v any, path []string) bool {
	if len(path) == 0 {
		return true
	}
	if path[0] == "[]" {
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range list {
			if !hasField(e, path[1:]) {
				return false
			}
		}
		return true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	next, ok := m[path[0]]
	return ok && hasField(next, path[1:])
}

// Load reads a machine from a state file. Only a regular file is read (a FIFO or a device is
// refused at once, naming it).
func Load(path string) (*Machine, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadState(f, path)
}

// MaxClock bounds a machine's clock, seconds: the pots' longest time (potentiometer.MaxSeconds),
// some thirty thousand years of presentations and idling.
const MaxClock = potentiometer.MaxSeconds

// checkWiring checks a state's configuration against the wiring it carries: the A-units, plugs,
// threshold and fan-out of a preset are what its board has (the next save copies the
// configuration: a state that contradicted its board would pass the contradiction on).
func checkWiring(cfg Config, b *patchboard.Board) error {
	switch cfg.Wiring {
	case WiringRandom:
		p := cfg.MarkI
		if b.Len() != p.AUnits {
			return fmt.Errorf("config: mark_i.a_units: %d, but the wiring has %d A-units", p.AUnits, b.Len())
		}
		var feeds [retina.N]int
		for a, u := range b.Units {
			switch {
			case len(u.Exc) != p.Exc:
				return fmt.Errorf("config: mark_i.exc: %d, but A-unit %d of the wiring has %d excitatory plugs", p.Exc, a, len(u.Exc))
			case len(u.Inh) != p.Inh:
				return fmt.Errorf("config: mark_i.inh: %d, but A-unit %d of the wiring has %d inhibitory plugs", p.Inh, a, len(u.Inh))
			case u.Theta != p.Theta:
				return fmt.Errorf("config: mark_i.theta: %d, but A-unit %d of the wiring has threshold %d", p.Theta, a, u.Theta)
			}
			for _, s := range u.Exc {
				feeds[s]++
			}
			for _, s := range u.Inh {
				feeds[s]++
			}
		}
		if p.FanOut > 0 {
			for s, n := range feeds {
				if n > p.FanOut {
					return fmt.Errorf("config: mark_i.fanout: %d, but S-unit %d of the wiring feeds %d A-units", p.FanOut, s, n)
				}
			}
		}
		if b.FanOut != p.FanOut {
			return fmt.Errorf("config: mark_i.fanout: %d, but the wiring's fan-out limit is %d", p.FanOut, b.FanOut)
		}
	case WiringLocal:
		if b.Len() != cfg.LocalUnits {
			return fmt.Errorf("config: local_units: %d, but the wiring has %d A-units", cfg.LocalUnits, b.Len())
		}
		if err := patchboard.CheckLocal(b, cfg.LocalRadius); err != nil {
			return fmt.Errorf("config: local_radius: %d, but the wiring is not a local wiring of that radius: %w", cfg.LocalRadius, err)
		}
	case WiringIdentity:
		if b.Len() != retina.N {
			return fmt.Errorf("config: wiring: identity, but the wiring has %d A-units, not %d", b.Len(), retina.N)
		}
		id := patchboard.Identity()
		if b.FanOut != id.FanOut {
			return fmt.Errorf("config: wiring: identity, but the wiring's fan-out limit is %d, not %d", b.FanOut, id.FanOut)
		}
		for a, u := range b.Units {
			if want := id.Units[a]; u.Theta != want.Theta || len(u.Inh) != 0 || !slices.Equal(u.Exc, want.Exc) {
				return fmt.Errorf("config: wiring: identity, but A-unit %d of the wiring is not S-unit %d alone with threshold 1", a, a)
			}
		}
	}
	return nil
}

// checkTimes checks the state's times against what a run could have produced: the clock within
// MaxClock; every presentation advanced the clock by presentation_time_s (idling adds time, not
// presentations), so the presentations fit in the clock; a rack's drift batch and warm-up began
// with the machine, so its drift_elapsed_s is at most the clock and its warm_left is
// exp(-clock/track_tau_s). The sums that make the clock round: the slack allows for it.
func checkTimes(st *state) error {
	clock, pt := st.Clock, st.Config.PresentationTime
	if !(clock >= 0) || clock > MaxClock {
		return fmt.Errorf("clock_s: %v, want a machine time of 0..%g s", clock, float64(MaxClock))
	}
	n := float64(st.Presentations)
	if need := float64(n * pt); need-float64(float64(n*0x1p-52)*max(clock, need)) > clock { // products rounded: no fused multiply-add on arm64
		return fmt.Errorf("presentations: %d of %v s take %v s, but the machine's clock_s is %v", st.Presentations, pt, need, clock)
	}
	for r, rs := range st.Racks {
		if rs.Time != clock {
			return fmt.Errorf("racks[%d]: time_s %v, but the machine's clock_s is %v", r, rs.Time, clock)
		}
		if rs.DriftElapsed > clock {
			return fmt.Errorf("racks[%d]: drift_elapsed_s %v, but the machine's clock_s is only %v", r, rs.DriftElapsed, clock)
		}
		p := st.Config.Pots
		if p.Ideal || p.TrackDrift == 0 {
			continue // warm_left is 1 (the rack's own check)
		}
		want := detmath.Exp(-clock / p.TrackTau)
		if math.Abs(rs.WarmLeft-want) > 1e-9+float64(1e-3*want) {
			return fmt.Errorf("racks[%d]: warm_left %v, but a rack warming up with track_tau_s %v has %.6g left at clock_s %v", r, rs.WarmLeft, p.TrackTau, want, clock)
		}
	}
	return nil
}

// fromState builds the machine a state describes, checking every part against what the
// machine itself could have produced.
func fromState(st *state) (*Machine, error) {
	board, err := patchboard.Read(strings.NewReader(st.Wiring), "wiring")
	if err != nil {
		return nil, err
	}
	cfg := st.Config
	cfg.Board = board
	if cfg.Coding == CodingTable && len(st.Codes) == 0 {
		return nil, errors.New("codes: a table coding without a code table")
	}
	cfg.Codes = st.Codes
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := checkWiring(cfg, board); err != nil {
		return nil, err
	}
	// The codes must be what the coding gives (or any valid table for a table coding).
	used := CodingTable
	if cfg.Coding != CodingTable {
		want, resolved, err := buildCodes(cfg.Coding, nil, len(st.Classes), cfg.RUnits)
		used = resolved
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(want, st.Codes) {
			return nil, fmt.Errorf("codes: not the %s codes of %d classes on %d R-units", cfg.Coding, len(st.Classes), cfg.RUnits)
		}
	}
	cfg.Coding = CodingTable
	m, err := New(cfg, st.Classes)
	if err != nil {
		return nil, err
	}
	m.cfg.Coding, m.coding = st.Config.Coding, used
	if m.cfg.Coding != CodingTable {
		m.cfg.Codes = nil
	}
	if len(st.Racks) != len(m.racks) {
		return nil, fmt.Errorf("racks: %d racks for %d R-units", len(st.Racks), len(m.racks))
	}
	for r, rs := range st.Racks {
		if err := m.racks[r].(Stater).SetState(rs); err != nil {
			return nil, fmt.Errorf("racks[%d]: %w", r, err)
		}
	}
	if err := m.retina.SetState(st.Retina); err != nil {
		return nil, err
	}
	if err := m.noiseSrc.UnmarshalBinary(st.Noise); err != nil {
		return nil, fmt.Errorf("noise_rng: %w", err)
	}
	if err := m.orderSrc.UnmarshalBinary(st.Order); err != nil {
		return nil, fmt.Errorf("order_rng: %w", err)
	}
	if err := checkTimes(st); err != nil {
		return nil, err
	}
	m.clock, m.count = st.Clock, st.Presentations
	return m, nil
}
