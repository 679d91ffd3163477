package curator

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestExampleIsTheDefaults(t *testing.T) {
	ex := Example()
	c := Parse(ex, "example.toml")
	if len(c.Problems) > 0 {
		t.Fatalf("the example has problems: %q", c.Problems)
	}
	want := Default()
	want.Path = "example.toml"
	want.Experiments = []string{"letters", "shapes", "leftright", "ef"}
	want.Sound.Set = true // the example says sound.on = false
	if !reflect.DeepEqual(c, want) {
		t.Errorf("the example reads as\n%+v\nwant the defaults\n%+v", c, want)
	}
	for _, k := range keys {
		_, name, _ := strings.Cut(k.name, ".")
		if !strings.Contains(string(ex), "\n"+name+" = ") {
			t.Errorf("the example does not show %s", k.name)
		}
	}
}

func TestSettings(t *testing.T) {
	c := Parse([]byte(`
[exhibit]
institution = "Museum of Computing"
experiments = ["ef", "letters"]
experiment = "ef"
language = "fr"
large_text = true
save_every = "30m"
[attract]
after = "2m"
pace = 1.5
text = "Touch me!"
[sound]
on = true
volume = 0.25
[camera]
on = true
device = "/dev/video2"
width = 640
height = 480
mirror = true
[screen]
orientation = "portrait"
rotate = 90
width = 1080
height = 1920
[staff]
status_addr = "127.0.0.1:9100"
status_file = "/run/mark1/status.json"
log_file = "/var/log/mark1/museum.log"
log_max_mb = 5
[bridge]
addr = "raspberrypi.local:8707"
token_file = "/etc/mark1/bridge-token"
`), "m.toml")
	if len(c.Problems) > 0 {
		t.Fatalf("problems: %q", c.Problems)
	}
	want := Config{
		Institution: "Museum of Computing", Experiments: []string{"ef", "letters"}, Experiment: "ef", Language: "fr", LargeText: true,
		SaveEvery: 30 * time.Minute,
		Attract:   Attract{After: 2 * time.Minute, Pace: 1.5, Text: "Touch me!"},
		Sound:     Sound{On: true, Set: true, Volume: 0.25},
		Camera:    Camera{On: true, Device: "/dev/video2", Width: 640, Height: 480, Mirror: true},
		Screen:    Screen{Width: 1080, Height: 1920, Orientation: "portrait", Rotate: 90},
		Staff:     Staff{StatusAddr: "127.0.0.1:9100", StatusFile: "/run/mark1/status.json", LogFile: "/var/log/mark1/museum.log", LogMaxMB: 5},
		Bridge:    Bridge{Addr: "raspberrypi.local:8707", TokenFile: "/etc/mark1/bridge-token"},
		Path:      "m.toml",
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got\n%+v\nwant\n%+v", c, want)
	}
}

// TestMistakesKeepDefaults: each bad key is named with its file and line and keeps its
// default; the good keys still apply.
func TestMistakesKeepDefaults(t *testing.T) {
	c := Parse([]byte(`[exhibit]
institution = "Good"
experiments = ["letters", "digits"]
save_every = 300
[sound]
volume = 1.5
on = "yes"
[camera]
device = "video0"
colour = true
[screen]
rotate = 45
orientation = "portrait"
[staff]
status_addr = "0.0.0.0:8177"
[lights]
on = true
[bridge]
addr = "raspberrypi.local"
`), "museum.toml")
	want := []string{
		"museum.toml:3: exhibit.experiments:",
		"museum.toml:4: exhibit.save_every:",
		"museum.toml:6: sound.volume: 1.5 is not between 0 and 1",
		"museum.toml:7: sound.on: want true or false",
		"museum.toml:9: camera.device:",
		"museum.toml:10: camera.colour: unknown key",
		"museum.toml:12: screen.rotate:",
		"museum.toml:15: staff.status_addr:",
		"museum.toml:16: [lights]: unknown section",
		"museum.toml:19: bridge.addr: \"raspberrypi.local\": want HOST:PORT",
	}
	if len(c.Problems) != len(want) {
		t.Fatalf("%d problems, want %d:\n%s", len(c.Problems), len(want), strings.Join(c.Problems, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(c.Problems[i], w) {
			t.Errorf("problem %d: %q, want it to start %q", i, c.Problems[i], w)
		}
	}
	d := Default()
	if c.Institution != "Good" || c.Screen.Orientation != "portrait" {
		t.Errorf("the good keys were not used: %q %q", c.Institution, c.Screen.Orientation)
	}
	if c.Experiments != nil || c.SaveEvery != d.SaveEvery || c.Sound != d.Sound || c.Camera.Device != d.Camera.Device ||
		c.Screen.Rotate != 0 || c.Staff.StatusAddr != d.Staff.StatusAddr || c.Bridge.Addr != "" {
		t.Errorf("a bad key did not keep its default: %+v", c)
	}
}

func TestNotTOML(t *testing.T) {
	c := Parse([]byte("[sound]\nvolume = 0.3\non = tru\n"), "m.toml")
	if len(c.Problems) != 1 || !strings.HasPrefix(c.Problems[0], "m.toml:3: not TOML") {
		t.Fatalf("problems %q, want one at m.toml:3", c.Problems)
	}
	if c.Sound.Volume != Default().Sound.Volume {
		t.Errorf("a file that is not TOML set the volume to %v", c.Sound.Volume)
	}
	c = Parse([]byte("[sound]\nvolume = 0.3\nvolume = 0.4\n"), "m.toml")
	if len(c.Problems) != 1 || !strings.HasPrefix(c.Problems[0], "m.toml:3: sound.volume: given twice (first on line 2)") {
		t.Errorf("problems %q", c.Problems)
	}
}

func TestRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.toml")
	os.WriteFile(p, []byte("[exhibit]\ninstitution = \"X\"\n"), 0o644)
	if c := Read(p); c.Institution != "X" || len(c.Problems) > 0 {
		t.Errorf("%+v", c)
	}
	c := Read(filepath.Join(t.TempDir(), "none.toml"))
	if len(c.Problems) != 1 || !strings.Contains(c.Problems[0], "none.toml") {
		t.Errorf("a missing file: %q", c.Problems)
	}
}

// The language must be one the exhibit speaks (a region is allowed); another is named with
// its line and the exhibit keeps English.
func TestLanguage(t *testing.T) {
	for _, c := range []struct {
		code, want, problem string
	}{
		{"de", "de", ""}, {"es-419", "es-419", ""}, {"fr-CA", "fr-CA", ""},
		{"ja", "en", "m.toml:2: exhibit.language: \"ja\" is not a language the exhibit speaks"},
		{"english", "en", "m.toml:2: exhibit.language:"},
	} {
		t.Run(c.code, func(t *testing.T) {
			got := Parse([]byte("[exhibit]\nlanguage = \""+c.code+"\"\n"), "m.toml")
			if got.Language != c.want {
				t.Errorf("%q: language %q, want %q", c.code, got.Language, c.want)
			}
			if c.problem == "" && len(got.Problems) > 0 || c.problem != "" && (len(got.Problems) != 1 || !strings.HasPrefix(got.Problems[0], c.problem)) {
				t.Errorf("%q: problems %q, want %q", c.code, got.Problems, c.problem)
			}
		})
	}
}

// TestProblems: each mistake is one problem, in full, and the file's other keys still apply.
func TestProblems(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string // want "" is no problem
	}{
		{"byte-order mark", "\uFEFF[sound]\nvolume = 0.25\n", ""},
		{"integer for a number", "[sound]\nvolume = 1\n", ""},
		{"whole float for a whole number", "[camera]\nwidth = 640.0\n",
			"m.toml:2: camera.width: 640.0 is a float; write 640 (it keeps its default, 320)"},
		{"out of range", "[camera]\nwidth = 640000\n",
			"m.toml:2: camera.width: 640000 out of range 64..4096 (it keeps its default, 320)"},
		{"string for a whole number", "[screen]\nheight = \"720\"\n",
			"m.toml:2: screen.height: want a whole number, not a string (it keeps its default, 720)"},
		{"not one of", "[screen]\norientation = \"sideways\"\n",
			"m.toml:2: screen.orientation: \"sideways\": want auto, landscape or portrait (it keeps its default, \"auto\")"},
		{"not a duration", "[attract]\nafter = 60\n",
			"m.toml:2: attract.after: want a duration in quotes (\"90s\", \"5m\"), not an integer (it keeps its default, \"1m\")"},
		{"too short", "[attract]\nafter = \"5s\"\n",
			"m.toml:2: attract.after: 5s: at least 10s (or \"0s\": never) (it keeps its default, \"1m\")"},
		{"never", "[attract]\nafter = \"0s\"\n", ""},
		{"list of numbers", "[exhibit]\nexperiments = [\"ef\", 3]\n",
			"m.toml:2: exhibit.experiments: want an array of strings, not of an integer (it keeps its default, [\"letters\", \"shapes\", \"leftright\", \"ef\"])"},
		{"unknown experiment", "[exhibit]\nexperiments = [\"ef\", \"digits\"]\n",
			"m.toml:2: exhibit.experiments: \"digits\": want letters, shapes, leftright or ef (it keeps its default, [\"letters\", \"shapes\", \"leftright\", \"ef\"])"},
		{"too long", "[exhibit]\ninstitution = \"" + strings.Repeat("é", 81) + "\"\n",
			"m.toml:2: exhibit.institution: 81 characters: at most 80 fit in the title bar (it keeps its default, \"\")"},
		{"array of a section", "[[sound]]\nvolume = 0.2\n",
			"m.toml:1: [[sound]]: write [sound] (the file has one); its keys are not used"},
		{"unknown array of tables", "[[lights]]\non = true\n",
			"m.toml:1: [[lights]]: unknown section (the sections are [exhibit], [attract], [sound], [camera], [screen], [staff] and [bridge]); its keys are not used"},
		{"key twice in an unknown section", "[lights]\non = true\non = false\n",
			"m.toml:1: [lights]: unknown section (the sections are [exhibit], [attract], [sound], [camera], [screen], [staff] and [bridge]); its keys are not used"},
		{"top-level key", "volume = 0.2\n",
			"m.toml:1: volume: unknown key (the keys are those of mark1-museum --curator-example)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Parse([]byte(tc.text+"[staff]\nlog_max_mb = 7\n"), "m.toml")
			if got := strings.Join(c.Problems, "\n"); got != tc.want {
				t.Errorf("problems\n%s\nwant\n%s", got, tc.want)
			}
			if c.Staff.LogMaxMB != 7 {
				t.Errorf("the good key was not used: log_max_mb %v", c.Staff.LogMaxMB)
			}
		})
	}
}

// TestReadRefuses: a folder, a device (a FIFO would never end) or a file over MaxFile is not
// read, in one problem.
func TestReadRefuses(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.toml")
	if err := os.WriteFile(big, []byte(strings.Repeat("#", MaxFile+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ name, path, want string }{
		{"folder", dir, dir + ": a folder, not a curator's file (every setting is at its default)"},
		{"device", os.DevNull, os.DevNull + ": a device, not a curator's file (every setting is at its default)"},
		{"too large", big, big + ": larger than 1048576 bytes: not a curator's file (every setting is at its default)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if c := Read(tc.path); len(c.Problems) != 1 || c.Problems[0] != tc.want {
				t.Errorf("problems %q, want %q", c.Problems, tc.want)
			}
		})
	}
}
