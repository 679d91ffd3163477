package screen

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/museum/camera"
	"github.com/mark1-perceptron/mark1/museum/health"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// scene returns a scene that has drawn a letters machine (for its hit tests).
func scene(t testing.TB) *view.Scene {
	set, err := builtin.Load("letters")
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.New(machine.Default(), set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	f := &session.Frame{Seq: 1, Experiment: "letters", Classes: m.Classes(), Codes: m.Codes(), Board: m.Board(), Range: 64,
		Cards: len(set.Cards), Mode: session.Training, Speed: 1, Answer: -1, Want: -1, Card: -1}
	m.Snapshot(&f.Machine, true)
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc.Draw(f, &view.UI{Zoom: -1}, time.Now())
	return sc
}

// layoutName names a layout's subtest: "landscape,rot=0", "portrait,camera,title,rot=90".
func layoutName(o Options) string {
	s := "landscape"
	if o.Portrait {
		s = "portrait"
	}
	if o.Camera {
		s += ",camera"
	}
	if o.Title != "" {
		s += ",title"
	}
	return fmt.Sprintf("%s,rot=%d", s, o.Rotate)
}

func allLayouts() []Options {
	var out []Options
	for _, portrait := range []bool{false, true} {
		for _, cam := range []bool{false, true} {
			for _, title := range []string{"", "Museum of Computing"} {
				for _, rot := range []int{0, 90, 180, 270} {
					out = append(out, Options{Portrait: portrait, Camera: cam, Title: title, Rotate: rot})
				}
			}
		}
	}
	return out
}

// TestLayoutsShowTheWholeMachine: the tiles cover view's picture once, fit in the layout,
// do not overlap each other, the panel or the band, and each tile keeps its aspect.
func TestLayoutsShowTheWholeMachine(t *testing.T) {
	for _, o := range allLayouts() {
		t.Run(layoutName(o), func(t *testing.T) {
			l := New(o)
			area := 0
			for i, tl := range l.Tiles {
				area += tl.Src.Dx() * tl.Src.Dy()
				if !tl.Dst.In(image.Rect(0, 0, l.W, l.H)) {
					t.Errorf("%+v: tile %d %v outside the %dx%d layout", o, i, tl.Dst, l.W, l.H)
				}
				if sx, sy := float64(tl.Dst.Dx())/float64(tl.Src.Dx()), float64(tl.Dst.Dy())/float64(tl.Src.Dy()); sx/sy > 1.01 || sy/sx > 1.01 {
					t.Errorf("%+v: tile %d stretched (%.3f x %.3f)", o, i, sx, sy)
				}
				for j, u := range l.Tiles[:i] {
					if tl.Src.Overlaps(u.Src) {
						t.Errorf("%+v: tiles %d and %d show the same pixels", o, i, j)
					}
					if tl.Dst.Overlaps(u.Dst) {
						t.Errorf("%+v: tiles %d and %d overlap on the screen", o, i, j)
					}
				}
				if tl.Dst.Overlaps(l.Panel) || tl.Dst.Overlaps(l.Band) {
					t.Errorf("%+v: tile %d under the panel or the band", o, i)
				}
			}
			if area != view.Width*view.Height {
				t.Errorf("%+v: the tiles show %d of view's %d pixels", o, area, view.Width*view.Height)
			}
			if o.Camera != !l.Panel.Empty() || (o.Title != "") != !l.Band.Empty() {
				t.Errorf("%+v: panel %v, band %v", o, l.Panel, l.Band)
			}
			if o.Portrait && l.H <= l.W || !o.Portrait && l.W <= l.H {
				t.Errorf("%+v: %dx%d", o, l.W, l.H)
			}
		})
	}
	if !New(Options{}).Plain() || New(Options{Rotate: 90}).Plain() || New(Options{Camera: true}).Plain() {
		t.Error("Plain is wrong")
	}
}

// TestTilesCutNoPart: along every cut between two portrait tiles, no part of the machine
// (a button, a lamp, a key) is split between two tiles.
func TestTilesCutNoPart(t *testing.T) {
	sc := scene(t)
	l := New(Options{Portrait: true, Camera: true})
	for _, tl := range l.Tiles {
		for _, edge := range []struct{ a, b image.Point }{
			{image.Pt(tl.Src.Min.X, tl.Src.Min.Y), image.Pt(tl.Src.Max.X, tl.Src.Min.Y)}, // top
			{image.Pt(tl.Src.Min.X, tl.Src.Min.Y), image.Pt(tl.Src.Min.X, tl.Src.Max.Y)}, // left
		} {
			if edge.a.X == 0 && edge.b.X == 0 || edge.a.Y == 0 && edge.b.Y == 0 {
				continue // the screen's own edge
			}
			horizontal := edge.a.Y == edge.b.Y
			for i := 0; ; i += 2 {
				p := edge.a.Add(image.Pt(i, 0))
				if !horizontal {
					p = edge.a.Add(image.Pt(0, i))
				}
				if p.X >= edge.b.X && horizontal || p.Y >= edge.b.Y && !horizontal {
					break
				}
				in, out := p, p.Sub(image.Pt(0, 1))
				if !horizontal {
					out = p.Sub(image.Pt(1, 0))
				}
				a, b := sc.HitTest(in), sc.HitTest(out)
				if a.Kind != view.PartNone && a == b {
					t.Errorf("the cut at %v splits %+v", p, a)
					break
				}
			}
		}
	}
}

// TestAtMapsBack: a point of a part drawn on the screen, through any layout and turn, lands
// on the same part of view's picture.
func TestAtMapsBack(t *testing.T) {
	sc := scene(t)
	for _, o := range allLayouts() {
		t.Run(layoutName(o), func(t *testing.T) {
			l := New(o)
			for _, tl := range l.Tiles {
				for _, v := range []image.Point{tl.Src.Min.Add(image.Pt(40, 40)), tl.Src.Max.Sub(image.Pt(40, 40)), tl.Src.Min.Add(tl.Src.Size().Div(2))} {
					v = steady(sc, v)
					// v's place in the layout, then turned onto the screen.
					s := tl.Scale()
					q := image.Pt(tl.Dst.Min.X+int(float64(v.X-tl.Src.Min.X)*s+s/2), tl.Dst.Min.Y+int(float64(v.Y-tl.Src.Min.Y)*s+s/2))
					var p image.Point
					switch o.Rotate {
					case 0:
						p = q
					case 90:
						p = image.Pt(l.H-1-q.Y, q.X)
					case 180:
						p = image.Pt(l.W-1-q.X, l.H-1-q.Y)
					case 270:
						p = image.Pt(q.Y, l.W-1-q.X)
					}
					where, back := l.At(p)
					if where != OnMachine || sc.HitTest(back) != sc.HitTest(v) || back.Sub(v).X*back.Sub(v).X+back.Sub(v).Y*back.Sub(v).Y > 8 {
						t.Errorf("%+v: view %v is at screen %v, which maps back to %v %v", o, v, p, where, back)
					}
				}
			}
			if !l.Panel.Empty() {
				c := l.Panel.Min.Add(image.Pt(5, 5))
				var p image.Point
				switch o.Rotate {
				case 0:
					p = c
				case 90:
					p = image.Pt(l.H-1-c.Y, c.X)
				case 180:
					p = image.Pt(l.W-1-c.X, l.H-1-c.Y)
				case 270:
					p = image.Pt(c.Y, l.W-1-c.X)
				}
				if where, q := l.At(p); where != OnPanel || q != image.Pt(5, 5) {
					t.Errorf("%+v: the panel's corner maps to %v %v", o, where, q)
				}
			}
		})
	}
}

// steady returns a point near v whose neighbours within 3 pixels are all the same part (a
// scaled-down tile cannot say which side of a part's edge a point is on).
func steady(sc *view.Scene, v image.Point) image.Point {
	for d := 0; d < 200; d += 3 {
		for _, c := range []image.Point{v.Add(image.Pt(d, 0)), v.Add(image.Pt(0, d)), v.Sub(image.Pt(d, 0)), v.Sub(image.Pt(0, d))} {
			ok := true
			for y := -3; y <= 3 && ok; y++ {
				for x := -3; x <= 3 && ok; x++ {
					ok = sc.HitTest(c.Add(image.Pt(x, y))) == sc.HitTest(c)
				}
			}
			if ok {
				return c
			}
		}
	}
	return v
}

func TestPanel(t *testing.T) {
	p := NewPanel(PanelWidth, view.Height)
	pic := image.NewGray(image.Rect(0, 0, camera.DefaultSide, camera.DefaultSide))
	for i := range pic.Pix {
		pic.Pix[i] = 255
		if x := i % camera.DefaultSide; x >= 40 && x < 60 {
			pic.Pix[i] = 0
		}
	}
	st := &PanelState{Status: camera.Status{State: camera.Live}, Seq: 1, Picture: pic}
	if !p.Draw(st) {
		t.Fatal("the first Draw changed nothing")
	}
	if p.Draw(st) {
		t.Error("the same state drawn again changed the picture")
	}
	// The bar is ink, the rest paper, in the picture's square.
	r := p.pic
	ink := p.img.RGBAAt(r.Min.X+r.Dx()*50/camera.DefaultSide, r.Min.Y+r.Dy()/2)
	paper := p.img.RGBAAt(r.Min.X+r.Dx()*90/camera.DefaultSide, r.Min.Y+r.Dy()/2)
	if ink != colInk || paper != colPaper {
		t.Errorf("the picture shows %v (ink?) and %v (paper?)", ink, paper)
	}
	// A new picture costs no allocation.
	if n := testing.AllocsPerRun(20, func() { st.Seq++; p.Draw(st) }); n != 0 {
		t.Errorf("a new picture: %v allocations", n)
	}
	for part, q := range map[PanelPart]image.Point{PanelShow: p.show.Min.Add(image.Pt(5, 5)), PanelLive: p.live.Max.Sub(image.Pt(5, 5)), PanelPicture: p.pic.Min.Add(image.Pt(9, 9)), PanelNone: {2, 2}} {
		if got := p.HitTest(q); got != part {
			t.Errorf("HitTest(%v) = %v, want %v", q, got, part)
		}
	}
	// Unplugged: the message, and no picture.
	st.Status.State = camera.Unplugged
	if !p.Draw(st) {
		t.Error("unplugged: nothing changed")
	}
	if c := p.img.RGBAAt(r.Min.X+r.Dx()*50/camera.DefaultSide, r.Min.Y+r.Dy()/2); c == colInk {
		t.Error("unplugged, the old picture is still shown")
	}
}

// TestPanelHintWhole: in every layout with a camera and in every language, the panel tells
// the visitor what to do in a hint drawn whole (the longest that fits), never cut off at the
// panel's bottom.
func TestPanelHintWhole(t *testing.T) {
	for _, o := range allLayouts() {
		if !o.Camera || o.Rotate != 0 {
			continue
		}
		for lang := range i18n.NumLangs {
			t.Run(layoutName(o)+"/"+lang.Code(), func(t *testing.T) {
				l := New(o)
				p := NewPanel(l.Panel.Dx(), l.Panel.Dy())
				p.Draw(&PanelState{Status: camera.Status{State: camera.Live}, Lang: lang})
				if p.hint < 0 {
					t.Errorf("%+v, %s: panel %v: no hint fits", o, lang.Code(), l.Panel.Size())
					return
				}
				if n := lines(face(0, 18), p.show.Dx(), lang.S(PanelHints[p.hint])); n > p.hintFits {
					t.Errorf("%+v, %s: the hint takes %d lines, %d fit", o, lang.Code(), n, p.hintFits)
				}
				if p.hint > 0 && lines(face(0, 18), p.show.Dx(), lang.S(PanelHints[p.hint-1])) <= p.hintFits {
					t.Errorf("%+v, %s: hint %d drawn, a longer one fits", o, lang.Code(), p.hint)
				}
				t.Logf("%+v, %s: panel %v: hint %d (%d lines fit)", o, lang.Code(), l.Panel.Size(), p.hint, p.hintFits)
			})
		}
	}
}

// TestPanelSpeaksEveryLanguage: the camera panel's words come from the catalogue in the
// screen's language, and each fits its place in the landscape and the portrait panel (the
// title and the line under the picture within the panel's frame, a button's label within its
// button, the camera's message within the picture's square), measured with the panel's fonts.
// A language changed redraws the panel.
func TestPanelSpeaksEveryLanguage(t *testing.T) {
	for _, o := range []Options{{Camera: true}, {Camera: true, Portrait: true}} {
		l := New(o)
		for lang := range i18n.NumLangs {
			t.Run(layoutName(o)+"/"+lang.Code(), func(t *testing.T) {
				p := NewPanel(l.Panel.Dx(), l.Panel.Dy())
				inner := p.img.Rect.Dx() - 8 - 16 // the frame's inside, right of the text's left edge (24)
				fits := func(what string, w, room int) {
					if w > room {
						t.Errorf("%+v, %s: %s is %d px wide, its place %d", o, lang.Code(), what, w, room)
					}
				}
				fits("the title", width(face(1, 17), lang.S(i18n.CamPanelTitle)), inner)
				for _, m := range []i18n.Msg{i18n.CamPanelShowPuts, i18n.CamPanelLive} {
					fits(fmt.Sprint("the line ", m), width(face(0, 17), lang.S(m)), p.img.Rect.Dx()-8-p.pic.Min.X)
				}
				fits("SHOW IT", width(face(1, 26), lang.S(i18n.CamButtonShow)), p.show.Dx()-16)
				for _, m := range []i18n.Msg{i18n.CamButtonLive, i18n.CamButtonStopLive} {
					fits(fmt.Sprint("the button ", m), width(face(1, 18), lang.S(m)), p.live.Dx()-16)
				}
				for st := camera.Starting; st <= camera.Failed; st++ {
					msg := CameraMessage(st, lang)
					if st == camera.Live {
						msg = lang.S(i18n.CamPanelNoPicture)
					}
					if msg == "" {
						t.Errorf("%s: camera state %v: no message", lang.Code(), st)
						continue
					}
					if n := lines(face(0, 20), p.pic.Dx()-28, msg); n > 8 || 40+n*27 > p.pic.Dy() {
						t.Errorf("%+v, %s: %q takes %d lines in a %d px square", o, lang.Code(), msg, n, p.pic.Dy())
					}
				}
				// Drawn in this language, then in another: the picture changes.
				st := &PanelState{Status: camera.Status{State: camera.Live}, Lang: lang} // no message of the camera's: the words alone change
				p.Draw(st)
				st.Lang = (lang + 1) % i18n.NumLangs
				if !p.Draw(st) {
					t.Errorf("%s: a new language did not redraw the panel", lang.Code())
				}
			})
		}
	}
	if CameraMessage(camera.Missing, i18n.German) == CameraMessage(camera.Missing, i18n.English) {
		t.Error("the camera's message is the same in German and English")
	}
}

// BenchmarkPanelPicture is the window's cost of a new camera picture: the panel's picture
// drawn (the GPU upload is apart).
func BenchmarkPanelPicture(b *testing.B) {
	p := NewPanel(PanelWidth, view.Height)
	pic := image.NewGray(image.Rect(0, 0, camera.DefaultSide, camera.DefaultSide))
	st := &PanelState{Status: camera.Status{State: camera.Live}, Seq: 1, Picture: pic}
	p.Draw(st)
	b.ReportAllocs()
	for b.Loop() {
		st.Seq++
		p.Draw(st)
	}
}

// TestStaff: the staff screen's controls are where it draws them, a camera that is not live
// and the curator's file's problems are shown in red, and MUTE becomes UNMUTE when muted.
func TestStaff(t *testing.T) {
	s := NewStaff()
	for part, r := range map[StaffPart]image.Rectangle{StaffMute: s.mute, StaffQuieter: s.quieter, StaffLouder: s.louder, StaffClose: s.close} {
		if got := s.HitTest(r.Min.Add(r.Size().Div(2))); got != part {
			t.Errorf("HitTest at the middle of %v = %v, want %v", r, got, part)
		}
	}
	if got := s.HitTest(image.Pt(10, 10)); got != StaffNone {
		t.Errorf("HitTest in the title = %v", got)
	}
	red := func(r image.Rectangle) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if s.img.RGBAAt(x, y) == colRed {
					n++
				}
			}
		}
		return n
	}
	camLine := image.Rect(260, 110+5*28-22, StaffSize.X, 110+5*28+6) // the sixth line: Camera
	st := health.Status{Camera: "live", CameraDevice: "/dev/video0", CameraFPS: 30, UptimeSeconds: 3600}
	s.Draw(st, false, 0.5)
	if n := red(camLine); n != 0 {
		t.Errorf("a live camera is drawn with %d red pixels", n)
	}
	muteLive := image.NewRGBA(s.mute)
	for y := range s.mute.Dy() {
		copy(muteLive.Pix[y*muteLive.Stride:(y+1)*muteLive.Stride], s.img.Pix[s.img.PixOffset(s.mute.Min.X, s.mute.Min.Y+y):][:4*s.mute.Dx()])
	}
	st.Camera, st.CuratorFile, st.CuratorProblems = "unplugged", "museum.toml", []string{"museum.toml:3: sound.volume: 2 is not between 0 and 1"}
	s.Draw(st, true, 0.5)
	if n := red(camLine); n < 50 {
		t.Errorf("an unplugged camera is drawn with %d red pixels, want red", n)
	}
	if n := red(image.Rect(30, camLine.Max.Y+60, StaffSize.X, camLine.Max.Y+200)); n < 50 {
		t.Errorf("the curator's file's problem is drawn with %d red pixels, want red", n)
	}
	same := true
	for y := range s.mute.Dy() {
		if !bytes.Equal(muteLive.Pix[y*muteLive.Stride:(y+1)*muteLive.Stride], s.img.Pix[s.img.PixOffset(s.mute.Min.X, s.mute.Min.Y+y):][:4*s.mute.Dx()]) {
			same = false
		}
	}
	if same {
		t.Error("muted, the MUTE button looks the same")
	}
}

// What view draws over the machine is shown whole, on top, where the layout's tiles would cut
// it apart (portrait), and a touch on it lands on view's pixel under it; where one tile shows
// it whole (landscape), nothing is added.
func TestOverlay(t *testing.T) {
	help := image.Rect(view.Width/2-560, 130, view.Width/2+560, 890) // the help's panel
	tip := image.Rect(900, 300, 1300, 420)                           // a description across the portrait's bands
	for _, c := range []struct {
		name string
		o    Options
		src  image.Rectangle
		over bool
	}{
		{"landscape help", Options{}, help, false},
		{"landscape tip", Options{Camera: true, Title: "M"}, tip, false},
		{"portrait help", Options{Portrait: true}, help, true},
		{"portrait tip", Options{Portrait: true, Title: "M", Camera: true}, tip, true},
		{"portrait inside one band", Options{Portrait: true}, image.Rect(10, 300, 200, 400), false},
		{"portrait none", Options{Portrait: true}, image.Rectangle{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := New(c.o)
			l.SetOverlay(c.src)
			if got := !l.Over.Src.Empty(); got != c.over {
				t.Errorf("%+v, %v: overlay %v, want %v", c.o, c.src, got, c.over)
				return
			}
			if !c.over {
				return
			}
			d := l.Over.Dst
			inside := image.Rect(OverlayMargin, l.Band.Max.Y+OverlayMargin, l.W-OverlayMargin+1, l.H-OverlayMargin+1)
			if l.Over.Src != c.src || !d.In(inside) || l.Over.Scale() > 1 {
				t.Errorf("%+v: overlay %v at %v (scale %.3f), want all of %v within %v", c.o, l.Over.Src, d, l.Over.Scale(), c.src, inside)
			}
			if r := float64(d.Dy()) / float64(d.Dx()) / (float64(c.src.Dy()) / float64(c.src.Dx())); r < 0.99 || r > 1.01 {
				t.Errorf("%+v: the overlay's shape is changed by %.3f", c.o, r)
			}
			mid := image.Pt((d.Min.X+d.Max.X)/2, (d.Min.Y+d.Max.Y)/2)
			where, p := l.At(mid)
			want := image.Pt((c.src.Min.X+c.src.Max.X)/2, (c.src.Min.Y+c.src.Max.Y)/2)
			if where != OnMachine || abs(p.X-want.X) > 2 || abs(p.Y-want.Y) > 2 {
				t.Errorf("%+v: a touch at the overlay's centre lands %v at %v, want the machine at %v", c.o, where, p, want)
			}
			l.SetOverlay(image.Rectangle{})
			if !l.Over.Src.Empty() {
				t.Errorf("%+v: the overlay stays after it is closed", c.o)
			}
		})
	}
}

func abs(x int) int { return max(x, -x) }

// TestStaffRig: the staff screen says the rig's state on the line after the sound, in red when
// the rig is not sound (a chip faulty, the learning on the emulated racks, no bridge).
func TestStaffRig(t *testing.T) {
	s := NewStaff()
	rigLine := image.Rect(260, 110+7*28-22, StaffSize.X, 110+7*28+6)
	count := func(c color.RGBA) int {
		n := 0
		for y := rigLine.Min.Y; y < rigLine.Max.Y; y++ {
			for x := rigLine.Min.X; x < rigLine.Max.X; x++ {
				if s.img.RGBAAt(x, y) == c {
					n++
				}
			}
		}
		return n
	}
	for _, c := range []struct {
		name     string
		rig      *health.RigStatus
		ink, red bool
	}{
		{"no rig: the memory on its line", nil, true, false},
		{"turning", &health.RigStatus{Bridge: "127.0.0.1:8707", Mode: "mirror", Connected: true, State: "turning", Knobs: 24}, true, false},
		{"a fault", &health.RigStatus{Bridge: "pi.local:8707", Mode: "loop", Connected: true, State: "fault", FaultyChip: "pots1", Faults: 1, Emulated: true}, true, true},
		{"not connected", &health.RigStatus{Bridge: "pi.local:8707", Mode: "loop", State: "not connected", Emulated: true}, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s.Draw(health.Status{Camera: "off", Sound: "off", Rig: c.rig}, false, 0.5)
			ink, red := count(colText), count(colRed)
			if (ink+red > 50) != c.ink || (red > 50) != c.red {
				t.Errorf("the rig's line: %d pixels of text, %d red; want text %v, red %v", ink, red, c.ink, c.red)
			}
		})
	}
}
