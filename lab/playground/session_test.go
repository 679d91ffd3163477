package playground

import (
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/mdblock"
)

// newSession makes a session from a config's JSON.
func newSession(t *testing.T, config string) *Session {
	t.Helper()
	var c SessionConfig
	if err := json.Unmarshal([]byte(config), &c); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// runMark1 runs a command line of mark1 (as State.Command writes it) with --json and returns
// its report's tables.
func runMark1(t *testing.T, command string) tablesOf {
	t.Helper()
	bin, err := mark1Bin()
	if err != nil {
		t.Fatal(err)
	}
	c, ok := mdblock.ParseCommand("mark1", command)
	if !ok {
		t.Fatalf("not a mark1 command: %q", command)
	}
	for i, a := range c.Args {
		if strings.HasPrefix(a, `"`) {
			if c.Args[i], err = strconv.Unquote(a); err != nil {
				t.Fatalf("%s: %v", a, err)
			}
		}
	}
	out, err := exec.Command(bin, append(c.Args, "--json")...).Output()
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	var r tablesOf
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// sessionCases are the rules of the session on the lecture notes' problems.
var sessionCases = []struct{ name, config string }{
	{"one-step", `{"points":[[5,7,"+1"],[2,6,-1]],"bias":"first","init":"-5,0,1"}`},
	{"three-point", `{"points":[[1,2,1],[2,0,-1],[-1,1,1]]}`},
	{"three-point-batch", `{"points":[[1,2,1],[2,0,-1],[-1,1,1]],"method":"batch"}`},
	{"three-point-margin", `{"points":[[1,2,1],[2,0,-1],[-1,1,1]],"method":"margin","margin":"3"}`},
	{"first-eta", `{"points":[["1","2","+1"],[2,0,-1],[-1,1,1]],"bias":"first","eta":"1/2","init":"1/3,0,0"}`},
	{"xor-cycles", `{"points":[[0,0,-1],[0,1,1],[1,0,1],[1,1,-1]]}`},
	{"and-at-zero", `{"points":[[0,0,-1],[0,1,-1],[1,0,-1],[1,1,1]],"atZero":"+1","eta":"0.5"}`},
	{"variable", `{"points":[[0,0,-1],[0,1,1],[1,0,1],[1,1,-1]],"method":"variable","margin":"1/2","epochs":6}`},
	{"sqrt", `{"points":[[0,0,-1],[0,1,1],[1,0,1],[1,1,1]],"schedule":"1/sqrt(k)","eta":"2"}`},
	{"pocket", `{"points":[[0,0,-1],[0,1,1],[1,0,1],[1,1,-1],[2,2,1]],"method":"pocket","epochs":8}`},
	{"pocket-ratchet", `{"points":[[0,0,-1],[0,1,1],[1,0,1],[1,1,-1],[2,2,1]],"method":"pocket-ratchet","epochs":8}`},
	{"fractions", `{"points":[["1/3","0.25",1],["-2/7","1.5",-1],["0.1","-1",1]],"epochs":20}`},
}

// TestSessionAsTrace: run to its end, a session's trace is the rows mark1 lab trace prints for
// its command (State.Command), cell for cell, and so are its epochs.
func TestSessionAsTrace(t *testing.T) {
	for _, tt := range sessionCases {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t, tt.config)
			if err := s.RunToEnd(); err != nil {
				t.Fatal(err)
			}
			st := s.State()
			if st.Command == "" || st.Trace == nil {
				t.Fatalf("no command (%s) or no trace", st.CommandNote)
			}
			want := runMark1(t, st.Command)
			if len(want.Tables) < 2 || want.Tables[0].Name != "trace" {
				t.Fatalf("mark1's tables: %+v", want.Tables)
			}
			if !slices.Equal(st.Trace.Columns, want.Tables[0].Columns) || st.Trace.Total != len(want.Tables[0].Rows) || st.Trace.First != 0 {
				t.Fatalf("%d rows %q; mark1: %d rows %q", st.Trace.Total, st.Trace.Columns, len(want.Tables[0].Rows), want.Tables[0].Columns)
			}
			for i, row := range want.Tables[0].Rows {
				if !slices.Equal(st.Trace.Rows[i], row) {
					t.Fatalf("row %d: %q; mark1: %q", i+1, st.Trace.Rows[i], row)
				}
			}
			if !slices.EqualFunc(st.Trace.EpochRows, want.Tables[1].Rows, slices.Equal) {
				t.Errorf("epochs %q; mark1 %q", st.Trace.EpochRows, want.Tables[1].Rows)
			}
			if st.Status == Running {
				t.Errorf("status %s after RunToEnd", st.Status)
			}
		})
	}
}

// TestSessionStepwise: stepping one presentation at a time, an epoch at a time, or all at once
// gives the same rows, and each step adds its row (two at a batch epoch's end).
func TestSessionStepwise(t *testing.T) {
	for _, tt := range sessionCases {
		t.Run(tt.name, func(t *testing.T) {
			all := newSession(t, tt.config)
			if err := all.RunToEnd(); err != nil {
				t.Fatal(err)
			}
			one, ep := newSession(t, tt.config), newSession(t, tt.config)
			for one.status == Running {
				before := len(one.rows)
				if err := one.Step(); err != nil {
					t.Fatal(err)
				}
				if n := len(one.rows) - before; n != 1 && !(n == 2 && one.set.tc.Rule == 2) {
					t.Fatalf("a step added %d rows", n)
				}
			}
			for ep.status == Running {
				if err := ep.Epoch(); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range []*Session{one, ep} {
				if !slices.EqualFunc(s.rows, all.rows, slices.Equal) || s.status != all.status {
					t.Fatalf("%d rows (%s), all at once %d (%s)", len(s.rows), s.status, len(all.rows), all.status)
				}
			}
			if strings.Join(all.State().W.Exact, ",") == "" {
				t.Error("no weights")
			}
		})
	}
}

// sameJSON returns where two JSON values differ ("" when they do not), numbers compared to 7
// digits (StateJSON writes some as float32s).
func sameJSON(a, b any, at string) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return at
		}
		for k, v := range x {
			if w := sameJSON(v, y[k], at+"."+k); w != "" {
				return w
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return at
		}
		for i := range x {
			if w := sameJSON(x[i], y[i], fmt.Sprintf("%s[%d]", at, i)); w != "" {
				return w
			}
		}
		return ""
	case float64:
		y, ok := b.(float64)
		if !ok || math.Abs(x-y) > 1e-6*max(math.Abs(y), 1e-30) {
			return at
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return at
	}
	return ""
}

// TestStateJSON: StateJSON is State's JSON, at the start, mid-way and at the end, for each
// method, two classes and three, and with no points.
func TestStateJSON(t *testing.T) {
	cases := []struct{ name, config string }{
		{"empty", `{}`},
		{"empty-k3", `{"classes":3}`},
		{"three-classes-lsq", `{"classes":3,"method":"lsq","multiclass":"ovr","points":[[0,0,0],[1,0,0],[3,3,1],[4,3,1],[0,4,2],[1,5,2]]}`},
		{"three-classes-ovo", `{"classes":3,"method":"fixed","multiclass":"ovo","points":[[0,0,0],[1,0,0],[3,3,1],[4,3,1],[0,4,2],[1,5,2]]}`},
		{"lsq", `{"method":"lsq","lambda":"1/2","points":[[0,0,1],[1,2,1],[3,1,-1],[2,-1,-1]]}`},
		{"fisher", `{"method":"fisher","points":[[0,0,1],[1,2,1],[0,1,1],[3,1,-1],[2,-1,-1],[4,0,-1]]}`},
	}
	cases = append(cases, sessionCases...)
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t, tt.config)
			for i := 0; ; i++ {
				want, err := json.Marshal(s.State())
				if err != nil {
					t.Fatal(err)
				}
				got := s.StateJSON()
				var a, b any
				if err := json.Unmarshal(got, &a); err != nil {
					t.Fatalf("StateJSON: %v\n%s", err, got)
				}
				if err := json.Unmarshal(want, &b); err != nil {
					t.Fatal(err)
				}
				if where := sameJSON(a, b, ""); where != "" {
					t.Fatalf("after %d steps, at %s:\nStateJSON %s\nState     %s", s.steps, where, got, want)
				}
				if s.status != Running || len(s.set.points) == 0 || i > 12 {
					break
				}
				if err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestLine: the criteria along the line through weight space are, at t = 0 and t = 1, those of
// the initial and the current weights (the history's first and last points).
func TestLine(t *testing.T) {
	s := newSession(t, cloud(60, "margin"))
	for range 45 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	st := s.State()
	l := st.Line
	at := func(tv float64) int { return slices.Index(l.Ts, tv) }
	first, last := st.History[0], s.hist.last
	for _, c := range []struct {
		i int
		h HistoryPoint
	}{{at(0), first}, {at(1), last}} {
		if c.i < 0 {
			t.Fatalf("no t = 0 or 1 among %v", l.Ts)
		}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }
		if l.ZeroOne[c.i] != c.h.ZeroOne || !near(l.EP[c.i], c.h.EP) || !near(l.EQ[c.i], c.h.EQ) || !near(l.ER[c.i], c.h.ER) {
			t.Errorf("t = %v: %d %v %v %v; the weights' criteria %+v", l.Ts[c.i], l.ZeroOne[c.i], l.EP[c.i], l.EQ[c.i], l.ER[c.i], c.h)
		}
	}
	if l.Along != "path" || st.Updates == 0 {
		t.Errorf("along %s after %d updates", l.Along, st.Updates)
	}
}
