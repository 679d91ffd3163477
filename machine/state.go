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
	"os"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/potentiometer"
	"github.com/mark1-perceptron/mark1/retina"
)

// StateVersion is the version of the state file format this package writes and the newest it
// reads.
const StateVersion = 1

// stateMagic opens every state file. The header line is
//
//	mark1-state VERSION LENGTH SHA256
//
// followed by LENGTH bytes of JSON whose SHA-256 is SHA256 (hex).
const stateMagic = "mark1-state"

// maxStateBody bounds the JSON body a state file may declare (a full machine is well under 2 MB).
const maxStateBody = 256 << 20

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

// stater is what a rack must offer to be saved.
type stater interface {
	State() potentiometer.RackState
	SetState(potentiometer.RackState) error
}

// WriteState writes the whole machine (configuration, wiring, pot positions and their hidden
// state, cell states, random state, clock) in the versioned state format.
func (m *Machine) WriteState(w io.Writer) error {
	st := state{
		Config:        m.cfg,
		Classes:       m.classes,
		Codes:         m.codes,
		Retina:        m.retina.State(),
		Clock:         m.clock,
		Presentations: m.count,
	}
	st.Config.Codes = nil
	var wiring strings.Builder
	if _, err := m.board.WriteTo(&wiring); err != nil {
		return fmt.Errorf("machine: writing wiring: %w", err)
	}
	st.Wiring = wiring.String()
	for r, rack := range m.racks {
		s, ok := rack.(stater)
		if !ok {
			return fmt.Errorf("machine: rack %d: %w", r, errNotSimulated)
		}
		st.Racks = append(st.Racks, s.State())
	}
	var err error
	if st.Noise, err = m.noiseSrc.MarshalBinary(); err != nil {
		return fmt.Errorf("machine: %w", err)
	}
	if st.Order, err = m.orderSrc.MarshalBinary(); err != nil {
		return fmt.Errorf("machine: %w", err)
	}
	body, err := json.Marshal(&st)
	if err != nil {
		return fmt.Errorf("machine: encoding state: %w", err)
	}
	sum := sha256.Sum256(body)
	if _, err := fmt.Fprintf(w, "%s %d %d %s\n", stateMagic, StateVersion, len(body), hex.EncodeToString(sum[:])); err != nil {
		return err
	}
	_, err = w.Write(body)
	return err
}

// Save writes the machine's state to path atomically: a temporary file is written, synced and
// renamed, so the file at path is always either the old state or the new one.
func (m *Machine) Save(path string) error {
	return atomicfile.Write(path, 0o644, m.WriteState)
}

// ReadState reads a machine written by WriteState; name is used in error messages. The loaded
// machine continues exactly as the saved one would have.
func ReadState(r io.Reader, name string) (*Machine, error) {
	br := bufio.NewReader(r)
	header, err := br.ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && header != "") {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file, not a mark1 state file", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f := strings.Fields(header)
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
	length, err := strconv.Atoi(f[2])
	if err != nil || length < 2 || length > maxStateBody {
		return nil, fmt.Errorf("%s: malformed state length %q", name, f[2])
	}
	want, err := hex.DecodeString(f[3])
	if err != nil || len(want) != sha256.Size {
		return nil, fmt.Errorf("%s: malformed state checksum", name)
	}
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(br, int64(length)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if n < int64(length) {
		return nil, fmt.Errorf("%s: truncated: %d of %d bytes of state", name, n, length)
	}
	if n > int64(length) {
		return nil, fmt.Errorf("%s: corrupt: data after the state", name)
	}
	body := buf.Bytes()
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], want) {
		return nil, fmt.Errorf("%s: corrupt: checksum mismatch", name)
	}
	var st state
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("%s: corrupt state: %w", name, err)
	}
	m, err := fromState(&st, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// Load reads a machine from a state file.
func Load(path string) (*Machine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadState(f, path)
}

func fromState(st *state, name string) (*Machine, error) {
	board, err := patchboard.Read(strings.NewReader(st.Wiring), name+" (wiring)")
	if err != nil {
		return nil, err
	}
	cfg := st.Config
	cfg.Board = board
	cfg.Codes = st.Codes
	cfg.Coding = CodingTable
	m, err := New(cfg, st.Classes)
	if err != nil {
		return nil, err
	}
	m.cfg.Coding = st.Config.Coding
	if len(st.Racks) != len(m.racks) {
		return nil, fmt.Errorf("state has %d racks for %d R-units", len(st.Racks), len(m.racks))
	}
	for r, rs := range st.Racks {
		if err := m.racks[r].(stater).SetState(rs); err != nil {
			return nil, fmt.Errorf("rack %d: %w", r, err)
		}
	}
	if err := m.retina.SetState(st.Retina); err != nil {
		return nil, err
	}
	if err := m.noiseSrc.UnmarshalBinary(st.Noise); err != nil {
		return nil, fmt.Errorf("noise random state: %w", err)
	}
	if err := m.orderSrc.UnmarshalBinary(st.Order); err != nil {
		return nil, fmt.Errorf("order random state: %w", err)
	}
	if !(st.Clock >= 0) {
		return nil, fmt.Errorf("clock %v is not a machine time", st.Clock)
	}
	m.clock, m.count = st.Clock, st.Presentations
	return m, nil
}
