// Package curator reads the curator's file: one TOML file that sets up an exhibit (the
// experiments offered, the default language, sound, the attract mode's timing and text, the
// camera, the screen's size and orientation, the save interval, the institution's name in the
// title bar, the staff's status endpoint, status file and log, and the hardware rig's bridge).
// Example is a commented file with every key at its default.
//
// A file with mistakes never stops the exhibit: each key that cannot be used keeps its
// default and adds a Problem naming the file and line ("museum.toml:12: sound.volume: 1.5 is
// not between 0 and 1 (it keeps its default, 0.5)"); a file that is not TOML at all, or that
// gives a key twice, leaves every default. The window shows the problems on the staff screen
// and writes them to the log. The file is read with internal/tomlfile, in the words of the
// other TOML files mark1 reads.
package curator

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/internal/regfile"
	"github.com/mark1-perceptron/mark1/internal/tomlfile"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// Config is what the curator's file sets.
type Config struct {
	Institution string   // shown in the title bar after the machine's name ("" nothing)
	Experiments []string // offered, in order (nil: every built-in one)
	Experiment  string   // opened on a new museum ("" the first offered)
	Language    string   // the default language's code: en, de, fr or es (a region, "de-CH", is kept)
	LargeText   bool     // the large-text mode is on when the exhibit starts and after each visit
	SaveEvery   time.Duration

	Attract Attract
	Sound   Sound
	Camera  Camera
	Screen  Screen
	Staff   Staff
	Bridge  Bridge

	// Problems are the file's mistakes, each "FILE:LINE: key: what", in the file's order.
	Problems []string
	// Path is the file read ("" none).
	Path string
}

// Attract is the attract mode's timing and text.
type Attract struct {
	After time.Duration // idle time before it starts (0: never)
	Pace  float64       // each scene's time multiplied by this (1: as written)
	Text  string        // the curator's own scene, shown first in each round ("" none)
}

// Sound is the machine's sound: relays clicking, motors whirring.
type Sound struct {
	// On says whether the exhibit makes sound; Set whether the file said so (otherwise: off
	// in a kiosk, on in a window).
	On, Set bool
	Volume  float64 // 0..1
}

// Camera is the camera used as the projector.
type Camera struct {
	On            bool
	Device        string // "auto", "/dev/video0", or "file:PATH" (a recorded .y4m)
	Width, Height int    // wanted picture size
	Mirror        bool
}

// Screen is the screen's shape.
type Screen struct {
	Width, Height int    // the window's size when not full screen
	Orientation   string // "auto" (the screen's shape), "landscape" or "portrait"
	Rotate        int    // 0, 90, 180 or 270: the picture turned clockwise (a screen hung on its side)
}

// Staff is what the staff watch the exhibit with.
type Staff struct {
	StatusAddr string // the status endpoint's loopback address ("" none)
	StatusFile string // the status file ("" none; default: status.json in the state folder)
	LogFile    string // the log ("" the state folder's museum.log)
	LogMaxMB   float64
}

// Bridge is the hardware rig the exhibit drives: hwbridge's address and its token.
type Bridge struct {
	Addr      string // HOST:PORT ("" none)
	TokenFile string // a file holding the bridge's API token ("" none)
}

// Experiments the museum knows, for checking.
var known = []string{"letters", "shapes", "leftright", "ef"}

// Default returns the defaults.
func Default() Config {
	return Config{
		Language:  "en",
		SaveEvery: 5 * time.Minute,
		Attract:   Attract{After: time.Minute, Pace: 1},
		Sound:     Sound{Volume: 0.5},
		Camera:    Camera{Device: "auto", Width: 320, Height: 240},
		Screen:    Screen{Width: 1280, Height: 720, Orientation: "auto"},
		Staff:     Staff{StatusAddr: "127.0.0.1:8177", LogMaxMB: 2},
	}
}

// MaxFile bounds the size of the file read.
const MaxFile = 1 << 20

// Read reads the curator's file at path (a regular file only). It never fails: what cannot
// be used is in Config.Problems, and keeps its default.
func Read(path string) Config {
	c := Default()
	c.Path = path
	f, err := regfile.OpenFor(path, "a curator's file")
	if err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("%v (every setting is at its default)", err))
		return c
	}
	defer f.Close()
	data, err := tomlfile.ReadAll(f, path, MaxFile, "a curator's file")
	if err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("%v (every setting is at its default)", err))
		return c
	}
	return Parse(data, path)
}

// Parse reads a curator's file's text; name is the file's name for the problems.
func Parse(data []byte, name string) Config {
	c := Default()
	c.Path = name
	entries, err := parse(data, name)
	if err != nil {
		var se *tomlfile.SyntaxError
		if errors.As(err, &se) {
			err = fmt.Errorf("%s:%d: not TOML: %v", se.File, se.Line, se.Err)
		}
		c.Problems = append(c.Problems, err.Error()+" (every setting is at its default)")
		return c
	}
	for _, e := range entries {
		if e.problem != "" {
			c.Problems = append(c.Problems, tomlfile.Errorf(name, e.line, e.key, "%s; its keys are not used", e.problem).Error())
			continue
		}
		k, ok := keyIndex[e.key]
		if !ok {
			c.Problems = append(c.Problems, tomlfile.Errorf(name, e.line, e.key, "unknown key (the keys are those of mark1-museum --curator-example)").Error())
			continue
		}
		if err := k.set(&c, e.v); err != nil {
			c.Problems = append(c.Problems, tomlfile.Errorf(name, e.line, e.key, "%v (it keeps its default, %s)", err, k.def).Error())
		}
	}
	return c
}

// entry is a key of the file, "section.key", with its line and value; or a section that is
// not one of the file's, "[name]" or "[[name]]", with the problem (its keys are not kept).
type entry struct {
	key     string
	line    int
	v       tomlfile.Value
	problem string
}

// parse reads the file's keys in order. A key given twice is an error.
func parse(data []byte, name string) ([]entry, error) {
	var out []entry
	section, known := "", true
	seen := tomlfile.Lines{}
	err := tomlfile.Walk(data, name, func(e tomlfile.Expr) error {
		switch e.Kind {
		case tomlfile.Table, tomlfile.ArrayTable:
			section, known = e.Key, e.Kind == tomlfile.Table && sections[e.Key]
			switch {
			case known:
			case sections[e.Key]:
				out = append(out, entry{key: "[[" + e.Key + "]]", line: e.Line, problem: "write [" + e.Key + "] (the file has one)"})
			default:
				header := "[" + e.Key + "]"
				if e.Kind == tomlfile.ArrayTable {
					header = "[" + header + "]"
				}
				out = append(out, entry{key: header, line: e.Line,
					problem: "unknown section (the sections are [exhibit], [attract], [sound], [camera], [screen], [staff] and [bridge])"})
			}
		case tomlfile.KeyValue:
			if !known {
				return nil // reported with its section
			}
			full := e.Key
			if section != "" {
				full = section + "." + e.Key
			}
			if err := seen.Add(full, e.Line); err != nil {
				return tomlfile.Errorf(name, e.Line, full, "%w", err)
			}
			out = append(out, entry{key: full, line: e.Line, v: e.Value})
		}
		return nil
	})
	return out, err
}

// sections are the file's [sections].
var sections = map[string]bool{"exhibit": true, "attract": true, "sound": true, "camera": true, "screen": true, "staff": true, "bridge": true}

// key is one key of the file: its comment for Example, its default as written, and how it
// is set.
type key struct {
	name, doc, def string
	set            func(c *Config, v tomlfile.Value) error
}

var keyIndex = map[string]*key{}

func init() {
	for i := range keys {
		keyIndex[keys[i].name] = &keys[i]
	}
}

// setter returns the set function of a key whose value get reads (and checks) and stores at
// at.
func setter[T any](at func(c *Config) *T, get func(tomlfile.Value) (T, error)) func(*Config, tomlfile.Value) error {
	return func(c *Config, v tomlfile.Value) error {
		x, err := get(v)
		if err == nil {
			*at(c) = x
		}
		return err
	}
}

// str reads a string of at most most characters (0: any), naming why when longer.
func str(most int, why string) func(tomlfile.Value) (string, error) {
	return func(v tomlfile.Value) (string, error) {
		s, err := v.Str()
		if n := len([]rune(s)); err == nil && most > 0 && n > most {
			err = fmt.Errorf("%d characters: at most %d %s", n, most, why)
		}
		return s, err
	}
}

// duration reads a duration of at least 10s (or 0 when never is 0).
func duration(never bool) func(tomlfile.Value) (time.Duration, error) {
	return func(v tomlfile.Value) (time.Duration, error) {
		d, err := v.DurationText()
		switch {
		case err != nil, d >= 10*time.Second:
		case never && d == 0:
		case never:
			err = fmt.Errorf("%v: at least 10s (or \"0s\": never)", d)
		default:
			err = fmt.Errorf("%v: at least 10s", d)
		}
		return d, err
	}
}

// number reads a number from lo to hi; the message names the range as it says.
func number(lo, hi float64, format string) func(tomlfile.Value) (float64, error) {
	return func(v tomlfile.Value) (float64, error) {
		f, err := v.Number()
		if err == nil && !(f >= lo && f <= hi) {
			err = fmt.Errorf(format, f)
		}
		return f, err
	}
}

// whole reads a whole number from lo to hi.
func whole(lo, hi int64) func(tomlfile.Value) (int, error) {
	return func(v tomlfile.Value) (int, error) {
		n, err := v.Int(lo, hi)
		return int(n), err
	}
}

var keys = []key{
	{"exhibit.institution", "Your institution's name, shown in the title bar after the machine's name.", `""`,
		setter(func(c *Config) *string { return &c.Institution }, str(80, "fit in the title bar"))},
	{"exhibit.experiments", "The experiments the visitors may choose, in order: letters, shapes, leftright, ef.", `["letters", "shapes", "leftright", "ef"]`,
		setter(func(c *Config) *[]string { return &c.Experiments }, func(v tomlfile.Value) ([]string, error) {
			list, err := v.Strings()
			if err == nil && len(list) == 0 {
				err = errors.New("an empty list: at least one experiment")
			}
			for _, e := range v.Elems {
				if err == nil {
					_, err = e.OneOf(known...)
				}
			}
			return list, err
		})},
	{"exhibit.experiment", "The experiment a new museum opens on (\"\": the first offered). A restarted museum opens on the one it was showing.", `""`,
		setter(func(c *Config) *string { return &c.Experiment }, func(v tomlfile.Value) (string, error) {
			s, err := v.Str()
			if err == nil && s != "" {
				_, err = v.OneOf(known...)
			}
			return s, err
		})},
	{"exhibit.language", "The language the exhibit opens in, and returns to when the attract mode starts: en (English), de (Deutsch), fr (Français) or es (Español); a region is allowed (\"de-CH\", \"es-419\"). Visitors choose another with the language button or the L key.", `"en"`,
		setter(func(c *Config) *string { return &c.Language }, func(v tomlfile.Value) (string, error) {
			s, err := v.Str()
			if err == nil {
				// At most i18n.MaxTag bytes are parsed: a long tag costs no more than a short.
				_, err = i18n.ParseTag(s)
			}
			return s, err
		})},
	{"exhibit.large_text", "Whether the captions, labels and descriptions start large (for a screen seen from afar). Visitors switch with the A+ button or the + and - keys; the attract mode returns to this.", "false",
		setter(func(c *Config) *bool { return &c.LargeText }, tomlfile.Value.Bool)},
	{"exhibit.save_every", "How often a machine that learned is saved (also when the experiment changes and at the end).", `"5m"`,
		setter(func(c *Config) *time.Duration { return &c.SaveEvery }, duration(false))},
	{"attract.after", "How long nobody must touch the machine before the narrated demonstration starts (\"0s\": never).", `"1m"`,
		setter(func(c *Config) *time.Duration { return &c.Attract.After }, duration(true))},
	{"attract.pace", "How long each scene of the demonstration stays, as a multiple of its written time (2: twice as long).", "1.0",
		setter(func(c *Config) *float64 { return &c.Attract.Pace }, number(0.25, 4, "%v: between 0.25 and 4"))},
	{"attract.text", "A scene of your own, shown first in each round of the demonstration (\"\": none).", `""`,
		setter(func(c *Config) *string { return &c.Attract.Text }, str(200, "(two lines of the caption)"))},
	{"sound.on", "Whether the machine clicks and whirs as it learns. When this key is absent: silent in a kiosk (--kiosk), on in a window. A browser plays sound only after the visitor's first touch.", "false",
		func(c *Config, v tomlfile.Value) error {
			b, err := v.Bool()
			if err == nil {
				c.Sound.On, c.Sound.Set = b, true
			}
			return err
		}},
	{"sound.volume", "The loudness, 0 (silent) to 1.", "0.5",
		setter(func(c *Config) *float64 { return &c.Sound.Volume }, number(0, 1, "%v is not between 0 and 1"))},
	{"camera.on", "Whether a camera is the projector: the visitor holds a drawing up to it and presses SHOW IT.", "false",
		setter(func(c *Config) *bool { return &c.Camera.On }, tomlfile.Value.Bool)},
	{"camera.device", "Which camera: \"auto\" (the first that works), a device such as \"/dev/video0\" (ls /dev/video* lists them; v4l2-ctl --list-devices names them), or \"file:PATH\", a recorded .y4m video played in a loop (a rehearsal without a camera).", `"auto"`,
		setter(func(c *Config) *string { return &c.Camera.Device }, func(v tomlfile.Value) (string, error) {
			s, err := v.Str()
			if err == nil && s != "auto" && !strings.HasPrefix(s, "/dev/") && !strings.HasPrefix(s, "file:") {
				err = fmt.Errorf("%q: want \"auto\", a device under /dev/ or file:PATH", s)
			}
			return s, err
		})},
	{"camera.width", "The picture's width the camera is asked for, in pixels (it gives the nearest it has).", "320",
		setter(func(c *Config) *int { return &c.Camera.Width }, whole(64, 4096))},
	{"camera.height", "The picture's height the camera is asked for.", "240",
		setter(func(c *Config) *int { return &c.Camera.Height }, whole(48, 4096))},
	{"camera.mirror", "Flip the picture left to right (a camera looking through a mirror).", "false",
		setter(func(c *Config) *bool { return &c.Camera.Mirror }, tomlfile.Value.Bool)},
	{"screen.width", "The window's width when not full screen (a kiosk is always full screen).", "1280",
		setter(func(c *Config) *int { return &c.Screen.Width }, whole(320, 16384))},
	{"screen.height", "The window's height when not full screen.", "720",
		setter(func(c *Config) *int { return &c.Screen.Height }, whole(240, 16384))},
	{"screen.orientation", "\"auto\" (follow the screen's shape), \"landscape\" (the machine as one wide picture) or \"portrait\" (the machine in three bands, one above the other, for a screen taller than wide).", `"auto"`,
		setter(func(c *Config) *string { return &c.Screen.Orientation }, func(v tomlfile.Value) (string, error) {
			return v.OneOf("auto", "landscape", "portrait")
		})},
	{"screen.rotate", "Degrees the picture is turned clockwise, 0, 90, 180 or 270: for a screen hung on its side when the computer does not turn it itself (xrandr --rotate is better where it works). With 90 or 270 a landscape screen shows the portrait layout.", "0",
		setter(func(c *Config) *int { return &c.Screen.Rotate }, func(v tomlfile.Value) (int, error) {
			f, err := v.Number()
			if err == nil && f != 0 && f != 90 && f != 180 && f != 270 {
				err = fmt.Errorf("%v: want 0, 90, 180 or 270", f)
			}
			return int(f), err
		})},
	{"staff.status_addr", "The status endpoint's address: a loopback address and port (\"\": none). GET / for JSON, /metrics for Prometheus.", `"127.0.0.1:8177"`,
		setter(func(c *Config) *string { return &c.Staff.StatusAddr }, func(v tomlfile.Value) (string, error) {
			s, err := v.Str()
			if err == nil && s != "" && !loopback(s) {
				err = fmt.Errorf("%q: want a loopback address (127.0.0.1:PORT or [::1]:PORT); see docs/kiosk.md to watch it from elsewhere", s)
			}
			return s, err
		})},
	{"staff.status_file", "A file rewritten every 10 s with the status, as JSON (\"\": status.json in the state folder).", `""`,
		setter(func(c *Config) *string { return &c.Staff.StatusFile }, str(0, ""))},
	{"staff.log_file", "The log (\"\": museum.log in the state folder). It rotates: one older file, museum.log.1, is kept.", `""`,
		setter(func(c *Config) *string { return &c.Staff.LogFile }, str(0, ""))},
	{"staff.log_max_mb", "The log's size, in MB, at which it rotates.", "2",
		setter(func(c *Config) *float64 { return &c.Staff.LogMaxMB }, number(0.01, 100, "%v: between 0.01 and 100"))},
	{"bridge.addr", "The hardware rig's bridge, HOST:PORT of a running hwbridge (\"\": no rig). A mirror rig's knobs follow the weights on the screen; on a loop rig the machine learns on the rig's pots. The exhibit never waits for it: without the bridge the screen says so and goes on. docs/rig.md sets up the rig.", `""`,
		setter(func(c *Config) *string { return &c.Bridge.Addr }, func(v tomlfile.Value) (string, error) {
			s, err := v.Str()
			if err == nil && s != "" && !hostPort(s) {
				err = fmt.Errorf("%q: want HOST:PORT (127.0.0.1:8707, raspberrypi.local:8707)", s)
			}
			return s, err
		})},
	{"bridge.token_file", "A file holding the bridge's API token (a copy of the Pi's /etc/mark1/token, readable by the exhibit's user only): needed unless the bridge listens on loopback without one.", `""`,
		setter(func(c *Config) *string { return &c.Bridge.TokenFile }, str(0, ""))},
}

// hostPort reports whether addr is HOST:PORT with a port number.
func hostPort(addr string) bool {
	i := strings.LastIndexByte(addr, ':')
	if i <= 0 {
		return false
	}
	p, err := strconv.Atoi(addr[i+1:])
	return err == nil && p > 0 && p <= 65535
}

// loopback reports whether addr is HOST:PORT on a loopback address.
func loopback(addr string) bool {
	host, port, ok := strings.Cut(addr, "]:")
	if ok {
		host = strings.TrimPrefix(host, "[")
	} else if i := strings.LastIndexByte(addr, ':'); i > 0 {
		host, port = addr[:i], addr[i+1:]
	} else {
		return false
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return false
	}
	return host == "localhost" || host == "::1" || strings.HasPrefix(host, "127.")
}

// Example returns a commented curator's file with every key at its default.
func Example() []byte {
	var b bytes.Buffer
	b.WriteString("# mark1-museum curator's file (TOML): mark1-museum --curator FILE reads it.\n")
	b.WriteString("# Every key is at its default; delete the ones you do not change. A mistake never stops the\n")
	b.WriteString("# exhibit: that key keeps its default, and the staff screen (Ctrl+Shift+S) and the log say\n")
	b.WriteString("# which line is wrong.\n")
	section := ""
	for _, k := range keys {
		sec, name, _ := strings.Cut(k.name, ".")
		if sec != section {
			fmt.Fprintf(&b, "\n[%s]\n", sec)
			section = sec
		}
		b.WriteString("\n")
		line := "#"
		for _, w := range strings.Fields(k.doc) {
			if len(line)+1+len(w) > 96 && line != "#" {
				b.WriteString(line + "\n")
				line = "#"
			}
			line += " " + w
		}
		b.WriteString(line + "\n")
		fmt.Fprintf(&b, "%s = %s\n", name, k.def)
	}
	return b.Bytes()
}
