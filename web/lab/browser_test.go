package labpage

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// theNotesStep is the lecture notes' one-step update from w = (-5, 0, 1), as mark1's flags.
var theNotesStep = []string{"--bias", "first", "--init=-5,0,1", "--point", "5,7,+1", "--point", "2,6,-1"}

// same fails the test when the page's rows are not mark1's. With the stand-in, whose numbers
// are not the lab's, it only asks for rows.
func same(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	if len(got) == 0 {
		t.Fatalf("%s: the page shows no rows", what)
	}
	if stubbed() {
		return
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("%s: the page shows\n%s\nmark1 prints\n%s", what, rowsText(got), rowsText(want))
	}
}

func rowsText(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %s\n", strings.Join(r, " | "))
	}
	return b.String()
}

// sameTrace fails the test when the plane's trace is not mark1's rows: the page shows the last
// rows of a long trace (the state holds its last 200) and says how many there are.
func sameTrace(t *testing.T, p *page, what string, want [][]string) {
	t.Helper()
	got := p.traceRows()
	if stubbed() {
		same(t, what, got, want)
		return
	}
	if len(got) == 0 || len(got) > len(want) {
		same(t, what, got, want)
		return
	}
	if len(got) < len(want) {
		var total int
		p.json(`mark1labPage.playground.state.trace.total`, &total)
		if total != len(want) && !stubbed() {
			t.Errorf("%s: the page counts %d presentations, mark1 prints %d", what, total, len(want))
		}
		if note := p.eval(`document.getElementById("trace-note").textContent`); !strings.Contains(note, fmt.Sprint(len(want))) {
			t.Errorf("%s: the page shows %d of %d rows and says %q", what, len(got), len(want), note)
		}
	}
	same(t, what, got, want[len(want)-len(got):])
}

// TestTraceLink: the link opens the notes' step with its trace table, row for row
// mark1 lab trace's for the same flags, whether its +1 comes as +, %2B, bare or as a space.
func TestTraceLink(t *testing.T) {
	p := newPage(t, 1400, 1000)
	want := mark1Trace(t, theNotesStep...)
	for _, tc := range []struct{ name, label string }{{"plus", "+1"}, {"escaped", "%2B1"}, {"bare", "1"}, {"space", "%201"}} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			p.open("?demo=trace&bias=first&init=-5,0,1&point=5,7," + tc.label + "&point=2,6,-1")
			sameTrace(t, p, "the trace", want)
			if link := p.eval(`location.search`); !strings.Contains(link, "point=5,7,+1&point=2,6,-1") {
				t.Errorf("the page's link is %s, want the points as point=5,7,+1&point=2,6,-1", link)
			}
			if cmd := p.eval(`document.getElementById("command").textContent`); !strings.HasPrefix(cmd, "mark1 lab trace") {
				t.Errorf("the command shown is %q, want mark1 lab trace ...", cmd)
			}
		})
	}
}

// TestRuleLinks: a link with each of the trace's rules opens the plane with that rule, its
// trace row for row mark1 lab trace's for the same flags, and the page writes the same link
// back.
func TestRuleLinks(t *testing.T) {
	if stubbed() {
		t.Skip("the stand-in's rules are not the lab's")
	}
	p := newPage(t, 1400, 1000)
	cloud := "&point=1,1,+1&point=2,0.5,+1&point=0.5,1.5,+1&point=-0.5,0.5,+1&point=-1,-1,-1&point=-2,-0.5,-1&point=0.5,-0.5,-1&point=0,0,-1"
	for _, tc := range []struct{ name, query string }{
		{"batch", "demo=trace&rule=batch&point=1,2,+1&point=2,0,-1&point=-1,1,+1"},
		{"margin", "demo=trace&rule=margin&margin=3&point=1,2,+1&point=2,0,-1&point=-1,1,+1"},
		{"variable", "demo=trace&rule=margin&eta=2&margin=1/2&schedule=1/sqrt(k)&point=1,2,+1&point=2,0,-1&point=-1,1,+1"},
		{"pocket", "demo=trace&pocket=run&epochs=6" + cloud},
		{"ratchet", "demo=trace&bias=first&init=1,0,0&pocket=ratchet&at-zero=+1&epochs=6" + cloud},
		{"fractions", "demo=trace&bias=first&init=1/3,0,0&eta=1/2&point=1,2,+1&point=2,0,-1&point=-1,1,+1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			p.open("?" + tc.query)
			var args []string
			for _, part := range strings.Split(tc.query, "&")[1:] {
				k, v, _ := strings.Cut(part, "=")
				args = append(args, "--"+k, v)
			}
			sameTrace(t, p, tc.query, mark1Trace(t, args...))
			cmd := p.eval(`document.getElementById("command").textContent`)
			for i := 0; i < len(args); i += 2 {
				if !strings.HasPrefix(cmd, "mark1 lab trace ") || !strings.Contains(cmd, args[i]) {
					t.Errorf("the command shown is %q, without %s", cmd, args[i])
				}
			}
			if back := p.eval(`location.search`); back != "?"+tc.query {
				t.Errorf("the page writes the link back as\n%s\nnot\n?%s", back, tc.query)
			}
		})
	}
}

// TestRunControls: Step, Epoch, Reset and Run, from a link that takes no step: the trace grows
// row by row as mark1 lab trace's rows, and Run runs it to its end at the speed set.
func TestRunControls(t *testing.T) {
	if stubbed() {
		t.Skip("the stand-in's rules are not the lab's")
	}
	p := newPage(t, 1400, 1000)
	p.open("?demo=trace&bias=first&init=-5,0,1&point=5,7,+1&point=2,6,-1&auto=0&steps=0")
	want := mark1Trace(t, theNotesStep...)
	click := func(id string) {
		t.Helper()
		p.eval(`document.getElementById("` + id + `").click()`)
	}
	if rows := p.traceRows(); len(rows) != 0 {
		t.Fatalf("a link of no steps shows %d rows", len(rows))
	}
	click("step")
	same(t, "one step", p.traceRows(), want[:1])
	click("epoch")
	same(t, "to the epoch's end", p.traceRows(), want[:2])
	click("epoch")
	same(t, "an epoch more", p.traceRows(), want[:4])
	if link := p.eval(`(mark1labPage.playground.hooks.changed(), location.search)`); !strings.HasSuffix(link, "&auto=0&steps=4") {
		t.Errorf("after 4 steps the link is %s", link)
	}
	click("reset")
	if rows := p.traceRows(); len(rows) != 0 {
		t.Errorf("Reset left %d rows", len(rows))
	}
	p.eval(`(() => { const s = document.getElementById("speed"); s.value = "60"; s.dispatchEvent(new Event("input")); })()`)
	click("run")
	p.waitFor(`mark1labPage.playground.state.status !== "running"`)
	same(t, "run to its end", p.traceRows(), want)
	if pressed := p.eval(`document.getElementById("run").getAttribute("aria-pressed")`); pressed != "false" {
		t.Errorf("Run still pressed (%s) after the run ended", pressed)
	}
}

// TestCommandNote: a session no mark1 command runs (least squares with a ridge) shows the lab's
// word on why where the command would be.
func TestCommandNote(t *testing.T) {
	if stubbed() {
		t.Skip("the stand-in always names a command")
	}
	p := newPage(t, 1400, 1000)
	p.open("?demo=playground&method=lsq&lambda=1&point=1,5,+1&point=2,4,+1&point=6,5,-1&point=7,4,-1")
	if cmd := p.eval(`document.getElementById("command").textContent`); !strings.HasPrefix(cmd, "# ") || len(cmd) < 10 {
		t.Errorf("where the command would be, the page says %q", cmd)
	}
}

// screenAt is where the plane draws the point (x1, x2), in the page's CSS pixels.
func (p *page) screenAt(x1, x2 float64) (x, y float64) {
	p.t.Helper()
	var xy [2]float64
	p.json(fmt.Sprintf(`(() => { const pl = mark1labPage.playground.plane, r = pl.canvas.getBoundingClientRect(),
		s = pl.toScreen([%g, %g]); return [r.left + s[0], r.top + s[1]]; })()`, x1, x2), &xy)
	return xy[0], xy[1]
}

type boundary struct{ A, B, C float64 }

func (p *page) boundary() boundary {
	p.t.Helper()
	var b boundary
	p.json(`(() => { const b = mark1labPage.playground.state.boundary; return {A: b.a, B: b.b, C: b.c}; })()`, &b)
	return b
}

// TestClickAddsPoint: a click on the plane adds a point of the chosen class: the boundary and
// the trace change, to mark1 lab trace's with that point; a right-click on it takes it away.
func TestClickAddsPoint(t *testing.T) {
	p := newPage(t, 1400, 1000)
	p.open("?demo=trace&bias=first&init=-5,0,1&point=5,7,+1&point=2,6,-1")
	before, rows := p.boundary(), p.traceRows()
	x, y := p.screenAt(-1, 3)
	if err := p.Click(x, y, "left"); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`mark1labPage.playground.points.length === 3`)
	after := p.boundary()
	if after == before {
		t.Errorf("the boundary stayed %+v after a point was added", after)
	}
	if slices.EqualFunc(p.traceRows(), rows, slices.Equal) {
		t.Errorf("the trace stayed the same after a point was added")
	}
	sameTrace(t, p, "the trace with the added point", mark1Trace(t, append(slices.Clone(theNotesStep), "--point", "-1,3,+1")...))
	if link := p.linkSoon(func(l string) bool { return strings.HasSuffix(l, "&point=-1,3,+1") }); !strings.HasSuffix(link, "&point=-1,3,+1") {
		t.Errorf("the link %s does not end with the added point", link)
	}
	// The right button takes it away again.
	if err := p.Click(x, y, "right"); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`mark1labPage.playground.points.length === 2`)
	sameTrace(t, p, "the trace without it", mark1Trace(t, theNotesStep...))
}

// TestDragMovesPoint: a point dragged to a new place moves there, and the trace is mark1's for
// the point there; the move pointer does the same, and the delete pointer removes a point.
func TestDragMovesPoint(t *testing.T) {
	p := newPage(t, 1400, 1000)
	p.open("?demo=trace&point=1,2,+1&point=2,0,-1&point=-1,1,+1")
	drag := func(fromX, fromY, toX, toY float64) {
		t.Helper()
		x0, y0 := p.screenAt(fromX, fromY)
		x1, y1 := p.screenAt(toX, toY)
		if err := p.Mouse("mouseMoved", x0, y0, "none"); err != nil {
			t.Fatal(err)
		}
		if err := p.Mouse("mousePressed", x0, y0, "left"); err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 8; i++ {
			f := float64(i) / 8
			if err := p.Mouse("mouseMoved", x0+f*(x1-x0), y0+f*(y1-y0), "left"); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Mouse("mouseReleased", x1, y1, "left"); err != nil {
			t.Fatal(err)
		}
	}
	drag(2, 0, 2, -1)
	p.waitFor(`mark1labPage.playground.points[1].x.join() === "2,-1"`)
	sameTrace(t, p, "point 2 dragged to (2, -1)", mark1Trace(t, "--point", "1,2,+1", "--point", "2,-1,-1", "--point", "-1,1,+1"))
	p.eval(`document.querySelector('input[name=tool][value=move]').click()`)
	drag(-1, 1, -2, 1.5)
	p.waitFor(`mark1labPage.playground.points[2].x.join() === "-2,1.5"`)
	sameTrace(t, p, "point 3 moved to (-2, 1.5)", mark1Trace(t, "--point", "1,2,+1", "--point", "2,-1,-1", "--point", "-2,1.5,+1"))
	p.eval(`document.querySelector('input[name=tool][value=delete]').click()`)
	x, y := p.screenAt(1, 2)
	if err := p.Click(x, y, "left"); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`mark1labPage.playground.points.length === 2`)
	sameTrace(t, p, "point 1 deleted", mark1Trace(t, "--point", "2,-1,-1", "--point", "-2,1.5,+1"))
}

// TestKeys: the plane is reached with Tab, and points are added and removed by keys: the
// arrows move the cursor, - chooses the class -1, Enter adds, Delete removes; the point under
// the cursor is described with its distance g(x)/|w|.
func TestKeys(t *testing.T) {
	p := newPage(t, 1400, 1000)
	p.open("")
	three := []string{"--point", "1,2,+1", "--point", "2,0,-1", "--point", "-1,1,+1"}
	sameTrace(t, p, "the notes' three points", mark1Trace(t, three...))
	reached := false
	for range 60 {
		if err := p.Key("Tab"); err != nil {
			t.Fatal(err)
		}
		if p.eval(`document.activeElement.id`) == "plane" {
			reached = true
			break
		}
	}
	if !reached {
		t.Fatal("Tab never reached the plane")
	}
	// The cursor starts at the origin; the grid is 0.5: four steps right, two down is (2, -1).
	for _, k := range []string{"ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown", "ArrowDown", "-", "Enter"} {
		if err := p.Key(k); err != nil {
			t.Fatal(err)
		}
	}
	p.waitFor(`mark1labPage.playground.points.length === 4`)
	sameTrace(t, p, "the trace with the point added by keys", mark1Trace(t, append(slices.Clone(three), "--point", "2,-1,-1")...))
	if info := p.eval(`document.getElementById("plane-info").textContent`); !strings.Contains(info, "g(x)/|w|") {
		t.Errorf("under the cursor the page says %q, want the point's g(x)/|w|", info)
	}
	if err := p.Key("Delete"); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`mark1labPage.playground.points.length === 3`)
	sameTrace(t, p, "the trace after Delete", mark1Trace(t, three...))
}

// demoCase is a demonstration's link (a worksheet's command as a query) and a change made in
// its form, each beside the mark1 command that must print the same tables.
type demoCase struct {
	name, query string
	args        []string
	change      string // JavaScript changing the form
	changed     []string
}

func setInput(name, value string) string {
	return fmt.Sprintf(`(() => { const e = document.querySelector('#demo-params [name="%s"]'); e.value = %q;
		e.dispatchEvent(new Event("change")); })()`, name, value)
}

var demoCases = []demoCase{
	{"regions", "?demo=regions", []string{"lab", "regions"},
		setInput("method", "perceptron"), []string{"lab", "regions", "--method", "perceptron"}},
	{"loss", "?demo=loss&points=10", []string{"lab", "loss", "--points", "10"},
		setInput("epochs", "5"), []string{"lab", "loss", "--points", "10", "--epochs", "5"}},
	{"masking", "?demo=masking&middle=30", []string{"lab", "masking", "--middle", "30"},
		setInput("noise", "0.5"), []string{"lab", "masking", "--middle", "30", "--noise", "0.5"}},
	{"boolean", "?demo=boolean&epochs=3", []string{"lab", "boolean", "--epochs", "3"},
		setInput("epochs", "5"), []string{"lab", "boolean", "--epochs", "5"}},
	{"fisher-lsq", "?demo=fisher-lsq&point=0,0,+1&point=1,0,+1&point=0,2,+1&point=3,1,-1&point=4,3,-1",
		[]string{"lab", "fisher-lsq", "--point", "0,0,+1", "--point", "1,0,+1", "--point", "0,2,+1", "--point", "3,1,-1", "--point", "4,3,-1"},
		setInput("point", "0,0,+1\n1,0,+1\n0,2,+1\n3,1,-1\n4,3,-1\n2,3,-1"),
		[]string{"lab", "fisher-lsq", "--point", "0,0,+1", "--point", "1,0,+1", "--point", "0,2,+1", "--point", "3,1,-1", "--point", "4,3,-1", "--point", "2,3,-1"}},
}

// sameTables fails the test when the page's tables are not mark1's, cell for cell.
func sameTables(t *testing.T, what string, got, want []table) {
	t.Helper()
	if len(got) == 0 {
		t.Fatalf("%s: the page shows no table", what)
	}
	if stubbed() {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%s: the page shows %d tables, mark1 prints %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Name != w.Name || g.Title != w.Title || !slices.Equal(g.Columns, w.Columns) {
			t.Errorf("%s: table %d is %s %q %v, mark1's %s %q %v", what, i+1, g.Name, g.Title, g.Columns, w.Name, w.Title, w.Columns)
			continue
		}
		same(t, fmt.Sprintf("%s, table %s", what, w.Name), g.Rows, w.Rows)
	}
}

// TestDemoLinks: each demonstration the page runs opens from its link with mark1's tables for
// the same flags, and a change in its form runs it again, to mark1's tables with that flag.
func TestDemoLinks(t *testing.T) {
	p := newPage(t, 1400, 1000)
	for _, tc := range demoCases {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			p.open(tc.query)
			first := p.demoTables()
			sameTables(t, tc.query, first, mark1Tables(t, tc.args...))
			if cmd := p.eval(`document.getElementById("command").textContent`); !strings.HasPrefix(cmd, "mark1 lab "+tc.name) {
				t.Errorf("the command shown is %q", cmd)
			}
			p.eval(tc.change)
			p.waitFor(`document.getElementById("command").textContent.includes(` + fmt.Sprintf("%q", tc.changed[len(tc.changed)-1]) + `)`)
			sameTables(t, strings.Join(tc.changed, " "), p.demoTables(), mark1Tables(t, tc.changed...))
			flag := tc.changed[len(tc.changed)-2]
			if link := p.eval(`decodeURIComponent(location.search)`); !strings.Contains(link, strings.TrimPrefix(flag, "--")+"=") {
				t.Errorf("the link %s does not hold %s", link, flag)
			}
		})
	}
}

// TestRetina: the Mark I's panel: a card shown fires A-units; a stroke drawn on the retina
// changes which; teaching it changes the R-units' sums; training on a set counts its cards;
// the link holds the drawing.
func TestRetina(t *testing.T) {
	p := newPage(t, 1400, 1000)
	p.open("?demo=retina&card=builtin:ef/0")
	type state struct {
		Shown   string    `json:"shown"`
		AUnits  []int     `json:"aunits"`
		Sums    []float64 `json:"sums"`
		Trained int       `json:"trained"`
	}
	var st state
	p.json(`mark1labPage.retina.state`, &st)
	fired := func(s state) int {
		n := 0
		for _, a := range s.AUnits {
			n += a
		}
		return n
	}
	if len(st.AUnits) == 0 || fired(st) == 0 {
		t.Fatalf("the card ef/0 fires %d of %d A-units", fired(st), len(st.AUnits))
	}
	// A stroke down the right of the retina.
	var r [4]float64
	p.json(`(() => { const b = document.getElementById("retina").getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; })()`, &r)
	cell := r[2] / 20
	x := r[0] + 16.5*cell
	if err := p.Mouse("mouseMoved", x, r[1]+2.5*cell, "none"); err != nil {
		t.Fatal(err)
	}
	if err := p.Mouse("mousePressed", x, r[1]+2.5*cell, "left"); err != nil {
		t.Fatal(err)
	}
	for row := 3; row < 18; row++ {
		if err := p.Mouse("mouseMoved", x, r[1]+(float64(row)+0.5)*cell, "left"); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Mouse("mouseReleased", x, r[1]+17.5*cell, "left"); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`mark1labPage.retina.state.drawing.filter((c, i) => c && i % 20 === 16).length >= 15`)
	var drawn state
	p.json(`mark1labPage.retina.state`, &drawn)
	if drawn.Shown != "drawing" || slices.Equal(drawn.AUnits, st.AUnits) {
		t.Errorf("after the stroke the machine is shown %q, its A-units as they were: %v", drawn.Shown, slices.Equal(drawn.AUnits, st.AUnits))
	}
	if link := p.linkSoon(func(l string) bool { return strings.Contains(l, "cells=") }); !strings.Contains(link, "cells=") {
		t.Errorf("the link %s does not hold the drawing", link)
	}
	p.eval(`document.querySelector("#teach button:last-child").click()`)
	var taught state
	p.json(`mark1labPage.retina.state`, &taught)
	if taught.Trained != drawn.Trained+1 {
		t.Errorf("one teaching counts %d presentations, before %d", taught.Trained, drawn.Trained)
	}
	p.eval(`document.getElementById("train").click()`)
	var trained state
	p.json(`mark1labPage.retina.state`, &trained)
	if trained.Trained <= taught.Trained {
		t.Errorf("training on a set left the count at %d (before %d)", trained.Trained, taught.Trained)
	}
}

// TestRetinaTrainLink: a link that trains the Mark I on a built-in set gives mark1 train's
// epochs and accuracy for the same seed, ideal and with the analog flaws.
func TestRetinaTrainLink(t *testing.T) {
	p := newPage(t, 1400, 1000)
	type epoch struct{ Epoch, Cards, Mistakes, Corrections int }
	type result struct{ Cards, Correct int }
	for _, tc := range []struct {
		name, query string
		args        []string
	}{
		{"ideal", "?demo=retina&set=ef&train=ef&epochs=5", []string{"train", "--data", "builtin:ef", "--epochs", "5", "--ideal"}},
		{"analog", "?demo=retina&set=ef&analog=1&seed=3&train=ef&epochs=3", []string{"train", "--data", "builtin:ef", "--epochs", "3", "--seed", "3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			p.open(tc.query)
			var got struct {
				Epochs   []epoch `json:"epochs"`
				Accuracy *result `json:"accuracy"`
				Command  string  `json:"command"`
			}
			p.json(`mark1labPage.retina.state`, &got)
			cmd := exec.Command(fixture.mark1, append(tc.args, "--json")...)
			cmd.Dir = t.TempDir()
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("mark1 %s: %v", strings.Join(tc.args, " "), err)
			}
			var want struct {
				Epochs []epoch `json:"epochs"`
				Train  result  `json:"train"`
			}
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatal(err)
			}
			if len(got.Epochs) == 0 || got.Accuracy == nil {
				t.Fatalf("the page trained no epochs: %+v", got)
			}
			if stubbed() {
				return
			}
			if !slices.Equal(got.Epochs, want.Epochs) || *got.Accuracy != want.Train {
				t.Errorf("the page trained %+v, %+v; mark1 %s: %+v, %+v", got.Epochs, *got.Accuracy, strings.Join(tc.args, " "), want.Epochs, want.Train)
			}
			if shown := p.eval(`document.getElementById("command").textContent`); !strings.HasPrefix(shown, "mark1 train") {
				t.Errorf("the command shown is %q", shown)
			}
		})
	}
}

// TestLanguages: ?lang= shows the page in each of the museum's four languages, and no key
// shows in place of its words.
func TestLanguages(t *testing.T) {
	p := newPage(t, 1400, 1000)
	table := readTable(t)
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			p.t = t
			p.open("?lang=" + lang)
			if got := p.eval(`document.documentElement.lang`); got != lang {
				t.Errorf("<html lang> is %q", got)
			}
			if got, want := p.eval(`document.getElementById("tab-plane").textContent`), table["tabPlane"][lang]; got != want {
				t.Errorf("the plane's tab says %q, want %q", got, want)
			}
			var shown [][2]string
			p.json(`[...document.querySelectorAll("[data-i18n]")].map((e) => [e.dataset.i18n, e.textContent])`, &shown)
			for _, ks := range shown {
				if want := table[ks[0]][lang]; ks[1] != want {
					t.Errorf("%s shows %q, want %q", ks[0], ks[1], want)
				}
			}
			if lang != "en" && !strings.Contains(p.eval(`location.search`), "lang="+lang) {
				t.Errorf("the link does not keep the language")
			}
		})
	}
}

// TestProjector: ?view=projector makes the text large; the button turns it off, and the link
// follows.
func TestProjector(t *testing.T) {
	p := newPage(t, 1400, 1000)
	p.open("?view=projector")
	var size float64
	p.json(`parseFloat(getComputedStyle(document.body).fontSize)`, &size)
	if size < 20 {
		t.Errorf("projector text is %g px", size)
	}
	p.eval(`document.getElementById("projector").click()`)
	p.json(`parseFloat(getComputedStyle(document.body).fontSize)`, &size)
	if size >= 20 || strings.Contains(p.eval(`location.search`), "view=projector") {
		t.Errorf("after the button: text %g px, link %s", size, p.eval(`location.search`))
	}
}

// TestTabReachesControls: Tab reaches every control of the plane's panel and the page's own.
func TestTabReachesControls(t *testing.T) {
	p := newPage(t, 1400, 1000)
	p.open("")
	seen := map[string]bool{}
	for range 120 {
		if err := p.Key("Tab"); err != nil {
			t.Fatal(err)
		}
		seen[p.eval(`document.activeElement.id || document.activeElement.name || document.activeElement.textContent`)] = true
	}
	for _, id := range []string{"tab-plane", "lang", "projector", "tool", "cls", "preset", "snap", "fit", "plane", "method",
		"classes", "eta", "bias", "init", "atZero", "epochs", "reset", "speed", "auto", "png", "data-csv", "trace-csv",
		"csv-file", "trace-scroll", "copy-command", "copy-link"} {
		if !seen[id] {
			t.Errorf("Tab never reaches %s", id)
		}
	}
}

// TestFailedStart: a lab's program that cannot start is said in one line on the loading
// screen (a missing file, a file that is no WebAssembly).
func TestFailedStart(t *testing.T) {
	setup(t)
	for _, tc := range []struct{ name, wasm, want string }{
		{"missing", "", "mark1-lab.wasm: 404"},
		{"broken", "this is not WebAssembly", "WebAssembly"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := copyPage(dir); err != nil {
				t.Fatal(err)
			}
			if err := copyWasmExec(dir); err != nil {
				t.Fatal(err)
			}
			if tc.wasm != "" {
				if err := os.WriteFile(filepath.Join(dir, "mark1-lab.wasm"), []byte(tc.wasm), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			srv := httptest.NewServer(labHandler(dir))
			defer srv.Close()
			stub := fixture.stub
			fixture.stub = "" // the real loader, whatever the other tests use
			p := newPage(t, 1000, 700)
			fixture.stub = stub
			if err := p.Open(p.ctx, srv.URL+"/lab/"); err != nil {
				t.Fatal(err)
			}
			p.waitFor(`document.body.dataset.failed`)
			shown := p.eval(`document.getElementById("loading-error").hidden ? "" : document.getElementById("loading-error").textContent`)
			if !strings.Contains(shown, tc.want) || strings.Contains(shown, "\n") {
				t.Errorf("the loading screen says %q, want one line with %q", shown, tc.want)
			}
		})
	}
}

// geometryTables are the tables of mark1 lab geometry's report under the plane.
func (p *page) geometryTables() []table {
	var tabs []table
	p.json(`[...document.querySelectorAll("#geometry-report table[data-table]")].map((t) => ({name: t.dataset.table,
		title: t.caption ? t.caption.textContent : "", columns: [...t.tHead.rows[0].cells].map((c) => c.textContent),
		rows: [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent))}))`, &tabs)
	return tabs
}

// TestWorksheetLinksInBrowser: every worksheet's link to the page opens what its command
// prints: the trace's table row for row, geometry's table, a demonstration's tables.
func TestWorksheetLinksInBrowser(t *testing.T) {
	p := newPage(t, 1400, 1000)
	for _, l := range worksheetLinks(t) {
		t.Run(l.file+"/"+strings.Join(l.args, "_"), func(t *testing.T) {
			p.t = t
			p.open(strings.TrimPrefix(l.link, "/lab/"))
			switch {
			case l.args[0] == "lab" && l.args[1] == "trace":
				sameTrace(t, p, l.link, mark1Trace(t, l.args[2:]...))
			case l.args[0] == "lab" && l.args[1] == "geometry":
				p.waitFor(`document.querySelector("#geometry-report table[data-table]")`)
				sameTables(t, l.link, p.geometryTables(), mark1Tables(t, l.args...))
			default:
				sameTables(t, l.link, p.demoTables(), mark1Tables(t, l.args...))
			}
		})
	}
}

// TestCompressedLoad: a server that sends the lab's program compressed (Content-Encoding:
// gzip, as mark1 web does for a browser that takes it) still starts the page, and the page
// tells the bytes that came over the wire from the program's own.
func TestCompressedLoad(t *testing.T) {
	setup(t)
	if stubbed() {
		t.Skip("the stand-in loads no program")
	}
	wasm, err := os.ReadFile(filepath.Join(fixture.dir, "mark1-lab.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(wasm)
	zw.Close()
	plain := labHandler(fixture.dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Type", "application/wasm")
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Content-Length", fmt.Sprint(gz.Len()))
			w.Write(gz.Bytes())
			return
		}
		plain.ServeHTTP(w, r)
	}))
	defer srv.Close()
	p := newPage(t, 1400, 1000)
	if err := p.Open(p.ctx, srv.URL+"/lab/?demo=trace&point=1,2,+1&point=2,0,-1&point=-1,1,+1"); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`document.body.dataset.ready === "1" || document.body.dataset.failed`)
	var got struct {
		Wire   int  `json:"wire"`
		Packed bool `json:"packed"`
		Bytes  int  `json:"bytes"`
	}
	p.json(`JSON.parse(document.body.dataset.wasm)`, &got)
	if !got.Packed || got.Wire != gz.Len() || got.Bytes != len(wasm) {
		t.Errorf("the page saw %+v; the server sent %d bytes of gzip for %d", got, gz.Len(), len(wasm))
	}
	if n := len(p.traceRows()); n == 0 {
		t.Errorf("the page started from a compressed program shows no trace")
	}
	t.Logf("mark1-lab.wasm: %d bytes, %d gzip -9", len(wasm), gz.Len())
}
