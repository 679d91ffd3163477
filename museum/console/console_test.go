package console_test

import (
	"fmt"
	"image"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/museum/console"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

// recorder is a fake session that records the commands given.
type recorder struct {
	calls []string
	imgs  []*image.Gray
}

func (r *recorder) log(s string) error { r.calls = append(r.calls, s); return nil }

func (r *recorder) Train() error                 { return r.log("train") }
func (r *recorder) Test() error                  { return r.log("test") }
func (r *recorder) Stop() error                  { return r.log("stop") }
func (r *recorder) Reset() error                 { return r.log("reset") }
func (r *recorder) SetExperiment(n string) error { return r.log("experiment " + n) }
func (r *recorder) Teach(c int) error            { return r.log(fmt.Sprint("teach ", c)) }
func (r *recorder) SetSpeed(v session.Speed) error {
	if v.IsMax() {
		return r.log("speed max")
	}
	return r.log(fmt.Sprint("speed ", float64(v)))
}
func (r *recorder) SetRule(ru machine.Rule) error { return r.log("rule " + ru.String()) }
func (r *recorder) Present(img image.Image) error {
	g := img.(*image.Gray)
	c := image.NewGray(g.Rect)
	copy(c.Pix, g.Pix)
	r.imgs = append(r.imgs, c)
	return r.log("present")
}

func (r *recorder) take() string {
	s := strings.Join(r.calls, "; ")
	r.calls = r.calls[:0]
	return s
}

// desk is a console on a real scene, with a frame of the letters.
type desk struct {
	t   *testing.T
	c   *console.Console
	rec *recorder
	sc  *view.Scene
	f   *session.Frame
	now time.Time
}

func newDesk(t *testing.T, experiment string) *desk {
	set, err := builtin.Load(experiment)
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.New(machine.Default(), set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	deck, _ := m.Prepare(set)
	m.Epoch(deck, nil)
	f := &session.Frame{Seq: 1, Experiment: experiment, Classes: m.Classes(), Codes: m.Codes(), Board: m.Board(), Range: 64, Cards: deck.Len(), Mode: session.Training, Speed: 1, Kind: session.TrainCard, Card: 3, Want: 1, Answer: 2}
	m.Snapshot(&f.Machine, true)
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	now := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	d := &desk{t: t, rec: rec, sc: sc, f: f, now: now}
	d.c = console.New(rec, sc, console.Options{Start: now})
	d.frame()
	return d
}

// frame advances the clock a frame and draws.
func (d *desk) frame() {
	d.now = d.now.Add(16 * time.Millisecond)
	d.c.Tick(d.now, d.f)
	d.sc.Draw(d.f, &d.c.UI, d.now)
}

func (d *desk) wait(dt time.Duration) {
	for end := d.now.Add(dt); d.now.Before(end); {
		d.now = d.now.Add(250 * time.Millisecond)
		d.c.Tick(d.now, d.f)
	}
	d.frame()
}

func (d *desk) tap(p image.Point) {
	d.c.Down(p, true)
	d.frame()
	d.c.Up(p, true)
	d.frame()
}

// find returns the centre of the first part of kind and index on the screen.
func (d *desk) find(kind view.PartKind, index int) image.Point {
	d.t.Helper()
	for y := 0; y < view.Height; y += 4 {
		for x := 0; x < view.Width; x += 4 {
			if p := d.sc.HitTest(image.Pt(x, y)); p.Kind == kind && p.Index == index {
				// Move to the part's middle along x.
				x2 := x
				for d.sc.HitTest(image.Pt(x2+4, y)) == p {
					x2 += 4
				}
				return image.Pt((x+x2)/2, y+8)
			}
		}
	}
	d.t.Fatalf("no part %v %d on the screen", kind, index)
	return image.Point{}
}

func TestButtons(t *testing.T) {
	d := newDesk(t, "letters")
	for _, c := range []struct {
		kind  view.PartKind
		index int
		want  string
	}{
		{view.PartButton, int(view.ButtonStop), "stop"},
		{view.PartButton, int(view.ButtonTrain), "train"},
		{view.PartButton, int(view.ButtonTest), "test"},
		{view.PartSpeed, 2, "speed 10"},
		{view.PartRule, int(machine.Forced), "rule forced"},
		{view.PartExperiment, 1, "experiment shapes; train"},
		{view.PartButton, int(view.ButtonReset), ""},
		{view.PartButton, int(view.ButtonReset), "reset"},
	} {
		d.tap(d.find(c.kind, c.index))
		if got := d.rec.take(); got != c.want {
			t.Errorf("tap %v %d: %q, want %q", c.kind, c.index, got, c.want)
		}
	}
	// A press that slides off its button before the release does nothing.
	d.c.Down(d.find(view.PartButton, int(view.ButtonTrain)), false)
	d.c.Up(d.find(view.PartButton, int(view.ButtonTest)), false)
	if got := d.rec.take(); got != "" {
		t.Errorf("slid off: %q", got)
	}
	// Keys.
	d.c.Key(console.KeySpace, true)
	d.c.Key(console.Key5, true)
	if got := d.rec.take(); got != "stop; speed max" {
		t.Errorf("keys: %q", got)
	}
}

func TestDrawAndTeach(t *testing.T) {
	d := newDesk(t, "letters")
	// The class keys do nothing before a drawing while the machine trains.
	d.tap(d.find(view.PartClass, 4))
	if got := d.rec.take(); got != "" || d.c.UI.Note == "" {
		t.Errorf("class key without a drawing: %q, note %q", got, d.c.UI.Note)
	}
	// A vertical stroke down the retina's left third.
	r := d.sc.RetinaRect()
	x := r.Min.X + r.Dx()/3
	d.c.Down(image.Pt(x, r.Min.Y+40), true)
	for y := r.Min.Y + 40; y < r.Max.Y-40; y += 10 {
		d.c.Move(image.Pt(x, y))
		d.frame()
	}
	if d.c.UI.Drawing == nil {
		t.Fatal("no drawing shown while drawing")
	}
	d.c.Up(image.Pt(x, r.Max.Y-40), true)
	d.frame()
	calls := d.rec.take()
	if !strings.HasPrefix(calls, "stop; present") || !strings.HasSuffix(calls, "present") {
		t.Errorf("drawing: %q, want stop, then presents", calls)
	}
	img := d.rec.imgs[len(d.rec.imgs)-1]
	col := (x - r.Min.X) * console.CanvasSide / r.Dx()
	ink := 0
	for y := range console.CanvasSide {
		if img.GrayAt(col, y).Y < 100 {
			ink++
		}
	}
	if ink < 30 || img.GrayAt(console.CanvasSide-5, 30).Y != 255 {
		t.Errorf("the drawing has %d inked pixels down its stroke column, corner %d", ink, img.GrayAt(console.CanvasSide-5, 30).Y)
	}
	if !d.c.UI.HaveDrawing || d.c.UI.Drawing != nil {
		t.Errorf("after drawing: have %v, drawing shown %v", d.c.UI.HaveDrawing, d.c.UI.Drawing != nil)
	}
	d.tap(d.find(view.PartClass, 11))
	if got := d.rec.take(); got != "teach 11" {
		t.Errorf("teach: %q", got)
	}
	d.tap(d.find(view.PartClear, 0))
	if d.c.UI.HaveDrawing {
		t.Errorf("clear left the drawing")
	}
}

func TestBrowseAndZoom(t *testing.T) {
	d := newDesk(t, "letters")
	// Until the visitor chooses one, the plug-board shows an A-unit that fires.
	if u := d.c.UI.Unit; d.f.Machine.A[u/64]>>(u%64)&1 != 1 {
		t.Errorf("A-unit %d shown, which does not fire", u)
	}
	d.tap(d.find(view.PartLamp, 100))
	if d.c.UI.Unit != 100 || d.c.UI.Hover.Kind != view.PartLamp {
		t.Errorf("lamp tap: unit %d, hover %v", d.c.UI.Unit, d.c.UI.Hover)
	}
	d.tap(d.find(view.PartUnitNext, 0))
	d.tap(d.find(view.PartUnitNext, 0))
	d.c.Key(console.KeyLeft, false)
	if d.c.UI.Unit != 101 {
		t.Errorf("unit %d after next, next, left", d.c.UI.Unit)
	}
	d.tap(d.find(view.PartRack, 3))
	if d.c.UI.Zoom != 3 {
		t.Errorf("zoom %d after tapping rack 3", d.c.UI.Zoom)
	}
	d.tap(d.find(view.PartZoomClose, 0))
	if d.c.UI.Zoom != -1 {
		t.Errorf("zoom %d after close", d.c.UI.Zoom)
	}
	// A tapped part's description goes away after a while.
	d.tap(d.find(view.PartCurve, 0))
	if d.c.UI.Hover.Kind != view.PartCurve {
		t.Fatalf("curve tap: hover %v", d.c.UI.Hover)
	}
	d.wait(8 * time.Second)
	if d.c.UI.Hover.Kind != view.PartNone {
		t.Errorf("the description stayed: %v", d.c.UI.Hover)
	}
	// A mouse pointing shows a description at once.
	p := d.find(view.PartButton, int(view.ButtonTest))
	d.c.Hover(p)
	if d.c.UI.Hover.Kind != view.PartButton {
		t.Errorf("hover: %v", d.c.UI.Hover)
	}
}

func TestAttract(t *testing.T) {
	d := newDesk(t, "letters")
	d.wait(59 * time.Second)
	if d.c.Attracting() {
		t.Fatal("attract mode before a minute")
	}
	d.wait(2 * time.Second)
	if !d.c.Attracting() || d.c.UI.Note == "" || d.c.UI.Highlight.Kind == view.PartNone {
		t.Fatalf("no attract mode after a minute idle: note %q", d.c.UI.Note)
	}
	if got := d.rec.take(); got != "experiment letters; speed 1; train" {
		t.Errorf("attract's first scene: %q", got)
	}
	// The narration moves on, and the machine is asked to speed up.
	notes := map[string]bool{}
	for range 110 {
		d.wait(time.Second)
		notes[d.c.UI.Note] = true
	}
	if len(notes) < 9 {
		t.Errorf("%d narrations in 110 s", len(notes))
	}
	calls := d.rec.take()
	if !strings.Contains(calls, "speed 100") || !strings.Contains(calls, "experiment shapes") {
		t.Errorf("attract mode's commands: %q", calls)
	}
	// A touch hands the machine back and does nothing else.
	d.tap(d.find(view.PartButton, int(view.ButtonReset)))
	if d.c.Attracting() || d.c.UI.Note != "" || d.c.UI.Highlight.Kind != view.PartNone {
		t.Errorf("attract mode still on after a touch")
	}
	if got := d.rec.take(); got != "" {
		t.Errorf("the waking touch acted: %q", got)
	}
}
