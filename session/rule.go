package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/mark1-perceptron/mark1/machine"
)

// withRule returns a copy of m that uses rule r: m's state written out, its configuration's
// rule changed, and read back, so that every pot, cell and random stream carries over. It is
// the session's workaround until package machine offers a SetRule of its own.
func withRule(m *machine.Machine, r machine.Rule) (*machine.Machine, error) {
	var buf bytes.Buffer
	if err := m.WriteState(&buf); err != nil {
		return nil, err
	}
	header, body, ok := bytes.Cut(buf.Bytes(), []byte("\n"))
	fields := bytes.Fields(header)
	if !ok || len(fields) != 4 {
		return nil, fmt.Errorf("unexpected state header %q", header)
	}
	var st map[string]json.RawMessage
	if err := json.Unmarshal(body, &st); err != nil {
		return nil, fmt.Errorf("reading state: %w", err)
	}
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(st["config"], &cfg); err != nil {
		return nil, fmt.Errorf("reading state's config: %w", err)
	}
	name, err := r.MarshalText()
	if err != nil {
		return nil, err
	}
	if cfg["rule"], err = json.Marshal(string(name)); err != nil {
		return nil, err
	}
	if st["config"], err = json.Marshal(cfg); err != nil {
		return nil, err
	}
	if body, err = json.Marshal(st); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s %s %d %s\n", fields[0], fields[1], len(body), hex.EncodeToString(sum[:]))
	out.Write(body)
	c, err := machine.ReadState(&out, "rule change")
	if err != nil {
		return nil, err
	}
	if c.Config().Rule != r {
		return nil, fmt.Errorf("the state's rule did not change")
	}
	return c, nil
}
