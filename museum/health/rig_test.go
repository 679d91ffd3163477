package health

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The rig's state is in the status (JSON, and so the status file) and in the metrics when the
// exhibit has a rig, and absent from both when it has none; a Snapshot's rig is a copy.
func TestRigStatus(t *testing.T) {
	for _, c := range []struct {
		name string
		rig  *RigStatus
	}{
		{"no rig", nil},
		{"mirror", &RigStatus{Bridge: "127.0.0.1:8707", Mode: "mirror", Connected: true, State: "turning", Generation: 3, Knobs: 24, Moving: 5,
			ReadbackError: 0.75, Sent: 120, BusFrames: 80, BusBytes: 4321}},
		{"loop, a fault", &RigStatus{Bridge: "pi.local:8707", Mode: "loop", Connected: true, State: "fault", Emulated: true, Faults: 1, FaultyChip: "pots1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := NewMonitor("")
			m.Update(func(s *Status) { s.Rig = c.rig })
			st := m.Snapshot()
			b, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			var metrics bytes.Buffer
			WriteMetrics(&metrics, st)
			if c.rig == nil {
				if strings.Contains(string(b), `"rig"`) || strings.Contains(metrics.String(), "mark1_museum_rig") {
					t.Errorf("no rig, and the status says one: %s\n%s", b, metrics.String())
				}
				return
			}
			if st.Rig == c.rig || *st.Rig != *c.rig {
				t.Errorf("the snapshot's rig %p %+v, want a copy of %p %+v", st.Rig, st.Rig, c.rig, c.rig)
			}
			var back Status
			if err := json.Unmarshal(b, &back); err != nil || back.Rig == nil || *back.Rig != *c.rig {
				t.Errorf("the JSON's rig: %v %+v, want %+v", err, back.Rig, c.rig)
			}
			conn := "0"
			if c.rig.Connected {
				conn = "1"
			}
			for _, want := range []string{
				`mark1_museum_rig_connected{bridge="` + c.rig.Bridge + `",mode="` + c.rig.Mode + `",state="` + c.rig.State + `"} ` + conn + "\n",
				"mark1_museum_rig_faults " + map[bool]string{true: "1", false: "0"}[c.rig.Faults == 1] + "\n",
				"mark1_museum_rig_bus_bytes " + map[bool]string{true: "4321", false: "0"}[c.rig.BusBytes == 4321] + "\n",
				"mark1_museum_rig_emulated " + map[bool]string{true: "1", false: "0"}[c.rig.Emulated] + "\n",
			} {
				if !strings.Contains(metrics.String(), want) {
					t.Errorf("/metrics lacks %q:\n%s", want, metrics.String())
				}
			}
		})
	}
}
