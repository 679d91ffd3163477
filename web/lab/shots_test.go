package labpage

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScreenshots writes the pictures of docs/lab/README.md's "In the browser" into
// $MARK1_LAB_SHOTS (scripts/lab-shots.sh: docs/images, made small after): each panel as a
// student opens it from a link. Look at every one after.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("MARK1_LAB_SHOTS")
	if dir == "" {
		t.Skip("MARK1_LAB_SHOTS is not set (scripts/lab-shots.sh sets it)")
	}
	for _, s := range []struct {
		name, query string
		w, h        int
		full        bool   // the whole page, not the window's first screen
		then        string // JavaScript run before the picture
	}{
		{"lab-plane", "?demo=trace&bias=first&init=-5,0,1&point=5,7,+1&point=2,6,-1", 1280, 900, true, ""},
		{"lab-plane-classes", "?demo=playground&method=lsq&classes=3&multiclass=ovr&point=-4,-3,0&point=-3,-4,0&point=-3,-2.5,0&point=-2.5,-3.5,0&point=-3.5,-3,0&point=0,0.5,1&point=0.5,0,1&point=-0.5,-0.5,1&point=0,-0.5,1&point=0.5,0.5,1&point=3,4,2&point=4,3,2&point=3,2.5,2&point=2.5,3.5,2&point=3.5,3,2", 1280, 900, false, ""},
		{"lab-plane-pocket", "?demo=playground&method=pocket&epochs=30&auto=0&steps=23&point=1,1,+1&point=2,0.5,+1&point=1.5,2,+1&point=0.5,1.5,+1&point=2.5,1.5,+1&point=-0.5,0.5,+1&point=0,2,+1&point=1,-0.5,+1&point=-1,-1,-1&point=-2,-0.5,-1&point=-1.5,-2,-1&point=-0.5,-1.5,-1&point=0.5,-0.5,-1&point=-2,1,-1&point=0,0,-1&point=1.5,0,-1", 1280, 900, false, ""},
		{"lab-retina", "?demo=retina&card=builtin:ef/0&train=ef&epochs=5", 1280, 760, false, ""},
		{"lab-demos", "?demo=regions", 1280, 900, true, ""},
		{"lab-projector", "?view=projector&demo=trace&point=1,2,+1&point=2,0,-1&point=-1,1,+1", 1280, 800, false, ""},
	} {
		t.Run(s.name, func(t *testing.T) {
			p := newPage(t, s.w, s.h)
			p.open(s.query)
			if s.then != "" {
				p.eval(s.then)
			}
			if s.full {
				var h float64
				p.json(`Math.min(3000, document.documentElement.scrollHeight)`, &h)
				if err := p.Size(s.w, int(h)); err != nil {
					t.Fatal(err)
				}
			}
			// Let the charts redraw at their size.
			p.eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`)
			if err := p.Screenshot(filepath.Join(dir, s.name+".png")); err != nil {
				t.Fatal(err)
			}
		})
	}
}
