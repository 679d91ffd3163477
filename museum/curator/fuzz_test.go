package curator

import (
	"regexp"
	"slices"
	"testing"
)

// FuzzParse: any file gives a Config within its bounds (a mistake keeps the key's default),
// and every problem names the file and a line.
func FuzzParse(f *testing.F) {
	f.Add(Example())
	f.Add([]byte("[sound]\non = true\nvolume = 2\n"))
	f.Add([]byte("[screen]\nrotate = 45\norientation = \"sideways\"\n[staff]\nstatus_addr = \"0.0.0.0:80\"\n"))
	f.Add([]byte("[exhibit]\nexperiments = [\"letters\", \"nope\"]\nsave_every = \"-1s\"\n"))
	f.Add([]byte("[attract]\nafter = \"10s\"\npace = 0\ntext = 3\n[[x]]\n"))
	f.Add([]byte("not = [toml"))
	problem := regexp.MustCompile(`^museum\.toml:\d+: `)
	whole := regexp.MustCompile(`^museum\.toml: `)
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Parse(data, "museum.toml")
		for _, p := range c.Problems {
			if !problem.MatchString(p) && !whole.MatchString(p) {
				t.Errorf("problem %q names no file and line", p)
			}
		}
		if !(c.Sound.Volume >= 0 && c.Sound.Volume <= 1) {
			t.Errorf("volume %v", c.Sound.Volume)
		}
		if !slices.Contains([]int{0, 90, 180, 270}, c.Screen.Rotate) {
			t.Errorf("rotate %d", c.Screen.Rotate)
		}
		if !slices.Contains([]string{"auto", "landscape", "portrait"}, c.Screen.Orientation) {
			t.Errorf("orientation %q", c.Screen.Orientation)
		}
		if c.SaveEvery <= 0 || !(c.Attract.Pace > 0) || c.Attract.After < 0 {
			t.Errorf("save_every %v, pace %v, after %v", c.SaveEvery, c.Attract.Pace, c.Attract.After)
		}
		if c.Staff.StatusAddr != "" && !loopback(c.Staff.StatusAddr) {
			t.Errorf("status_addr %q is not loopback", c.Staff.StatusAddr)
		}
		for _, e := range c.Experiments {
			if !slices.Contains(known, e) {
				t.Errorf("experiment %q offered", e)
			}
		}
		if c.Experiments != nil && len(c.Experiments) == 0 {
			t.Error("no experiment offered")
		}
	})
}
