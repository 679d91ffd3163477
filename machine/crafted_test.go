package machine

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// craftedState writes a small trained analog machine's state with the body changed by edit
// (on the decoded JSON) and a correct checksum: the file passes the checksum, so only the
// validation of the values can refuse it.
func craftedState(t *testing.T, ideal bool, edit func(map[string]any)) string {
	t.Helper()
	cfg := Default()
	cfg.MarkI.AUnits, cfg.RUnits = 32, 2
	if ideal {
		cfg = cfg.Ideal()
	}
	return craftedFrom(t, cfg, edit)
}

// craftedFrom is craftedState for a machine of cfg, trained one epoch on the built-in ef cards.
func craftedFrom(t *testing.T, cfg Config, edit func(map[string]any)) string {
	t.Helper()
	set := loadSet(t, "ef")
	m, d := newMachine(t, cfg, set)
	m.Epoch(d, nil)
	body, err := m.stateBody()
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	edit(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return withHeader(out)
}

func withHeader(body []byte) string {
	return fmt.Sprintf("mark1-state %d %d %x\n%s", StateVersion, len(body), sha256.Sum256(body), body)
}

// at walks a path of object keys and array indices into decoded JSON.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

func set(v any, value any, path ...any) {
	parent := at(v, path[:len(path)-1]...)
	switch k := path[len(path)-1].(type) {
	case string:
		parent.(map[string]any)[k] = value
	case int:
		parent.([]any)[k] = value
	}
}

// TestCraftedStates feeds state files that pass the checksum but hold values the machine could
// not have produced: each must be refused, naming the field.
func TestCraftedStates(t *testing.T) {
	cases := []struct {
		name  string
		ideal bool
		edit  func(v map[string]any)
		want  string
	}{
		{"wiper beyond the stops", false, func(v map[string]any) { set(v, 1000.0, "racks", 0, "wiper", 3) }, "wiper[3]"},
		{"wiper far from its motor", false, func(v map[string]any) { set(v, 5.0, "racks", 0, "wiper", 3) }, "racks[0]"},
		{"motor gain 1e300", false, func(v map[string]any) { set(v, 1e300, "racks", 1, "motor_gain", 0) }, "motor_gain[0]"},
		{"track gain 0", false, func(v map[string]any) { set(v, 0.0, "racks", 1, "track_gain", 2) }, "track_gain[2]"},
		{"track factor 5", false, func(v map[string]any) { set(v, 5.0, "racks", 0, "track_factor") }, "track_factor"},
		{"warm left 2", false, func(v map[string]any) { set(v, 2.0, "racks", 0, "warm_left") }, "warm_left"},
		{"drift elapsed negative", false, func(v map[string]any) { set(v, -1.0, "racks", 0, "drift_elapsed_s") }, "drift_elapsed_s"},
		{"short wiper list", false, func(v map[string]any) {
			w := at(v, "racks", 0, "wiper").([]any)
			set(v, w[:3], "racks", 0, "wiper")
		}, "wiper"},
		{"resolution 1e308", false, func(v map[string]any) { set(v, 1e308, "config", "pots", "resolution") }, "resolution"},
		{"unknown field inside pots", false, func(v map[string]any) { set(v, 1.0, "config", "pots", "bogus") }, "bogus"},
		{"unknown field at the top", false, func(v map[string]any) { v["extra"] = true }, "extra"},
		{"unknown coding", false, func(v map[string]any) { set(v, "gray", "config", "coding") }, "coding"},
		{"codes not the coding's", false, func(v map[string]any) { set(v, 1.0, "codes", 0, 1) }, "codes"},
		{"unknown rule", false, func(v map[string]any) { set(v, "delta", "config", "rule") }, "delta"},
		{"unknown order", false, func(v map[string]any) { set(v, "random", "config", "order") }, "order"},
		{"lamp 1e300", false, func(v map[string]any) { set(v, 1e300, "config", "retina", "lamp") }, "lamp"},
		{"negative level", false, func(v map[string]any) { set(v, -1.0, "retina", "level", 7) }, "level"},
		{"sensitivity 1e300", false, func(v map[string]any) { set(v, 1e300, "retina", "sensitivity", 7) }, "sensitivity"},
		{"ideal level above 1", true, func(v map[string]any) { set(v, 3.0, "retina", "level", 7) }, "level"},
		{"ideal motor and wiper apart", true, func(v map[string]any) { set(v, 0.5, "racks", 0, "motor", 1) }, "racks[0]"},
		{"negative clock", false, func(v map[string]any) { set(v, -3.0, "clock_s") }, "clock_s"},
		{"rack time not the clock", false, func(v map[string]any) { set(v, 1.0, "racks", 1, "time_s") }, "time_s"},
		{"one rack missing", false, func(v map[string]any) { set(v, at(v, "racks").([]any)[:1], "racks") }, "racks"},
		{"r_units 65", false, func(v map[string]any) { set(v, 65.0, "config", "r_units") }, "r_units"},
		{"presentation time 0", false, func(v map[string]any) { set(v, 0.0, "config", "presentation_time_s") }, "presentation_time_s"},
		{"label twice", false, func(v map[string]any) { set(v, "E", "classes", 1) }, "twice"},
		{"noise generator garbage", false, func(v map[string]any) { set(v, "AAAA", "noise_rng") }, "noise_rng"},
		{"wiring garbage", false, func(v map[string]any) { set(v, "a0 theta=1 +999\n", "wiring") }, "wiring"},
		// The configuration must describe its own wiring (issue 18: it loaded, and the next
		// save copied the contradiction).
		{"a_units not the wiring's", false, func(v map[string]any) { set(v, 64.0, "config", "mark_i", "a_units") }, "mark_i.a_units: 64, but the wiring has 32 A-units"},
		{"exc not the wiring's", false, func(v map[string]any) { set(v, 6.0, "config", "mark_i", "exc") }, "mark_i.exc: 6, but A-unit 0 of the wiring has 7"},
		{"inh not the wiring's", false, func(v map[string]any) { set(v, 3.0, "config", "mark_i", "inh") }, "mark_i.inh: 3"},
		{"theta not the wiring's", false, func(v map[string]any) { set(v, 3.0, "config", "mark_i", "theta") }, "mark_i.theta: 3, but A-unit 0 of the wiring has threshold 2"},
		{"fanout not the wiring's", false, func(v map[string]any) { set(v, 39.0, "config", "mark_i", "fanout") }, "mark_i.fanout: 39"},
		{"dark noise 1e308", false, func(v map[string]any) { set(v, 1e308, "config", "retina", "dark_noise") }, "dark_noise: 1e+308, want 0..10"},
		{"latch 1e308", false, func(v map[string]any) { set(v, 1e308, "config", "retina", "latch_s") }, "latch_s"},
		{"rotation 1e308", false, func(v map[string]any) { set(v, 1e308, "config", "retina", "rotation_deg") }, "rotation_deg"},
		{"presentation time 1e308", false, func(v map[string]any) { set(v, 1e308, "config", "presentation_time_s") }, "presentation_time_s"},
		{"presentation time 1e-300", false, func(v map[string]any) { set(v, 1e-300, "config", "presentation_time_s") }, "presentation_time_s"},
		{"track tau 1e-300", false, func(v map[string]any) { set(v, 1e-300, "config", "pots", "track_tau_s") }, "track_tau_s"},
		{"clock 1e308", false, func(v map[string]any) { set(v, 1e308, "clock_s") }, "clock_s"},
		// A version 2 body under a version 2 header must have version 2's fields.
		{"version 2 without order", false, func(v map[string]any) { delete(v["config"].(map[string]any), "order") }, "config.order: missing: a version 2 state has it"},
		{"version 2 without a rack's warm-up", false, func(v map[string]any) { delete(at(v, "racks", 1).(map[string]any), "warm_left") }, "racks[].warm_left: missing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := craftedState(t, tc.ideal, tc.edit)
			_, err := ReadState(strings.NewReader(file), "m.state")
			if err == nil {
				t.Fatalf("accepted")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "m.state: ") || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q, want one line naming m.state and %q", msg, tc.want)
			}
		})
	}
	// Data after the JSON body, inside the declared length.
	good := craftedState(t, false, func(map[string]any) {})
	body := good[strings.IndexByte(good, '\n')+1:]
	if _, err := ReadState(strings.NewReader(withHeader([]byte(body+" {}"))), "m.state"); err == nil || !strings.Contains(err.Error(), "data after the JSON body") {
		t.Fatalf("data after the body: %v", err)
	}
	if _, err := ReadState(strings.NewReader(good), "m.state"); err != nil {
		t.Fatalf("the unedited state: %v", err)
	}
	// A version 1 header on a version 2 body (issue 18: it loaded).
	v1 := fmt.Sprintf("mark1-state 1 %d %x\n%s", len(body), sha256.Sum256([]byte(body)), body)
	if _, err := ReadState(strings.NewReader(v1), "m.state"); err == nil || !strings.Contains(err.Error(), "m.state: config.order: a version 2 field, in a state whose header says version 1") {
		t.Fatalf("a version 1 header on a version 2 body: %v", err)
	}
}

// TestCraftedAgainstItself feeds states whose values are each in range but contradict the rest
// of the file: the configuration against the wiring it carries, the times against the clock
// (issues 14 and 18: they loaded, and the next save copied the contradiction). Each must be
// refused in one line naming the file and the field.
func TestCraftedAgainstItself(t *testing.T) {
	small := Default()
	small.MarkI.AUnits, small.RUnits = 32, 2
	identity, local := small, small
	identity.Wiring = WiringIdentity
	local.Wiring, local.LocalUnits = WiringLocal, 48
	// clock returns the state's clock.
	clock := func(v map[string]any) float64 { return v["clock_s"].(float64) }
	cases := []struct {
		name string
		cfg  Config
		edit func(v map[string]any)
		want string
	}{
		// The Mark I parameters are in range whatever the wiring: an identity machine carries
		// them into its next save.
		{"identity: a_units 1e9", identity, func(v map[string]any) { set(v, 1e9, "config", "mark_i", "a_units") }, "a_units: 1000000000, want 1..65536"},
		{"identity: theta over exc", identity, func(v map[string]any) { set(v, 9.0, "config", "mark_i", "theta") }, "theta: 9, want 1..7"},
		{"identity: a unit rewired", identity, func(v map[string]any) {
			set(v, strings.Replace(v["wiring"].(string), "\na5 theta=1 +5\n", "\na5 theta=1 +6\n", 1), "wiring")
		}, "wiring: identity, but A-unit 5 of the wiring is not S-unit 5 alone"},
		{"identity: a random wiring", identity, func(v map[string]any) {
			w := craftedFrom(t, small, func(map[string]any) {})
			var doc map[string]any
			if err := json.Unmarshal([]byte(w[strings.IndexByte(w, '\n')+1:]), &doc); err != nil {
				t.Fatal(err)
			}
			set(v, doc["wiring"], "wiring")
		}, "wiring: identity, but the wiring has 32 A-units, not 400"},
		{"local: local_units not the wiring's", local, func(v map[string]any) { set(v, 47.0, "config", "local_units") }, "local_units: 47, but the wiring has 48 A-units"},
		{"local: local_radius not the wiring's", local, func(v map[string]any) { set(v, 5.0, "config", "local_radius") }, "local_radius: 5, but the wiring is not a local wiring of that radius"},
		{"local: a_units 0", local, func(v map[string]any) { set(v, 0.0, "config", "mark_i", "a_units") }, "a_units: 0, want 1..65536"},
		// Times: what a run of this machine could have produced.
		{"presentations beyond the clock", small, func(v map[string]any) {
			set(v, clock(v)/3+1, "presentations")
		}, "presentations: 61 of 3 s take 183 s, but the machine's clock_s is 180"},
		{"presentations 1e15", small, func(v map[string]any) { set(v, 1e15, "presentations") }, "presentations: 1000000000000000"},
		{"presentation time over the clock's", small, func(v map[string]any) { set(v, 3.5, "config", "presentation_time_s") }, "presentations: 60 of 3.5 s take 210 s"},
		{"drift beyond the clock", small, func(v map[string]any) {
			set(v, clock(v)+1, "racks", 0, "drift_elapsed_s")
		}, "racks[0]: drift_elapsed_s 181, but the machine's clock_s is only 180"},
		{"warm-up not the clock's", small, func(v map[string]any) { set(v, 0.5, "racks", 1, "warm_left") }, "racks[1]: warm_left 0.5, but a rack warming up with track_tau_s 1800"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			good := craftedFrom(t, tc.cfg, func(map[string]any) {})
			if _, err := ReadState(strings.NewReader(good), "m.state"); err != nil {
				t.Fatalf("the unedited state: %v", err)
			}
			_, err := ReadState(strings.NewReader(craftedFrom(t, tc.cfg, tc.edit)), "m.state")
			if err == nil {
				t.Fatalf("accepted")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "m.state: ") || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q, want one line naming m.state and %q", msg, tc.want)
			}
		})
	}
}
