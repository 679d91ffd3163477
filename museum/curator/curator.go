// Package curator reads the curator's file: one TOML file that sets up an exhibit (the
// experiments offered, the default language, sound, the attract mode's timing and text, the
// camera, the screen's size and orientation, the save interval, the institution's name in the
// title bar, and the staff's status endpoint, status file and log). Example is a commented
// file with every key at its default.
//
// A file with mistakes never stops the exhibit: each key that cannot be used keeps its
// default and adds a Problem naming the file and line ("museum.toml:12: sound.volume: 1.5 is
// above 1"); a file that is not TOML at all leaves every default. The window shows the
// problems on the staff screen and writes them to the log.
package curator

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2/unstable"

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

// Read reads the curator's file at path. It never fails: what cannot be used is in
// Config.Problems, and keeps its default.
func Read(path string) Config {
	c := Default()
	c.Path = path
	f, err := os.Open(path)
	if err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("%s: %v (every setting is at its default)", path, err))
		return c
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err == nil && len(data) > MaxFile {
		err = fmt.Errorf("larger than %d bytes", MaxFile)
	}
	if err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("%s: %v (every setting is at its default)", path, err))
		return c
	}
	return Parse(data, path)
}

// Parse reads a curator's file's text; name is the file's name for the problems.
func Parse(data []byte, name string) Config {
	c := Default()
	c.Path = name
	vals, err := parse(data, name)
	if err != nil {
		c.Problems = append(c.Problems, err.Error()+" (every setting is at its default)")
		return c
	}
	for _, v := range vals {
		if strings.HasPrefix(v.key, "?") {
			continue // in an unknown section, reported on its own line
		}
		if strings.HasPrefix(v.key, "[") {
			c.Problems = append(c.Problems, fmt.Sprintf("%s:%d: %s: unknown section (the sections are [exhibit], [attract], [sound], [camera], [screen] and [staff]); its keys are not used", name, v.line, v.key))
			continue
		}
		k, ok := keyIndex[v.key]
		if !ok {
			c.Problems = append(c.Problems, fmt.Sprintf("%s:%d: %s: unknown key (the keys are those of mark1-museum --curator-example)", name, v.line, v.key))
			continue
		}
		if err := k.set(&c, v); err != nil {
			c.Problems = append(c.Problems, fmt.Sprintf("%s:%d: %s: %v (it keeps its default, %s)", name, v.line, v.key, err, k.def))
		}
	}
	return c
}

// value is one key's value with its line.
type value struct {
	key  string
	line int
	kind unstable.Kind
	s    string
	list []string
}

func (v value) str() (string, error) {
	if v.kind != unstable.String {
		return "", fmt.Errorf("want a string in quotes, not %s", kindName(v.kind))
	}
	return v.s, nil
}

func (v value) boolean() (bool, error) {
	if v.kind != unstable.Bool {
		return false, fmt.Errorf("want true or false, not %s", kindName(v.kind))
	}
	return v.s == "true", nil
}

func (v value) number() (float64, error) {
	if v.kind != unstable.Integer && v.kind != unstable.Float {
		return 0, fmt.Errorf("want a number, not %s", kindName(v.kind))
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(v.s, "_", ""), 64)
	if err != nil {
		i, err2 := strconv.ParseInt(strings.ReplaceAll(v.s, "_", ""), 0, 64)
		if err2 != nil {
			return 0, fmt.Errorf("malformed number %s", v.s)
		}
		f = float64(i)
	}
	return f, nil
}

func (v value) duration() (time.Duration, error) {
	s, err := v.str()
	if err != nil {
		return 0, fmt.Errorf("want a duration in quotes (\"90s\", \"5m\"), not %s", kindName(v.kind))
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration of 0 or more (\"90s\", \"5m\", \"1h\")", s)
	}
	return d, nil
}

func kindName(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "a string"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a number"
	case unstable.Bool:
		return "true/false"
	case unstable.Array:
		return "a list"
	}
	return strings.ToLower(k.String())
}

// parse reads the file's keys as "section.key" with their lines.
func parse(data []byte, name string) ([]value, error) {
	var p unstable.Parser
	p.Reset(data)
	line := func(n *unstable.Node) int {
		if n == nil || int(n.Raw.Offset)+int(n.Raw.Length) > len(data) {
			return 0
		}
		return p.Shape(n.Raw).Start.Line
	}
	var out []value
	section := ""
	seen := map[string]int{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			key, first := keyOf(e.Key())
			section = key
			if e.Kind == unstable.ArrayTable || !sections[key] {
				out = append(out, value{key: "[" + key + "]", line: line(first)})
				section = "?" + key
			}
		case unstable.KeyValue:
			key, first := keyOf(e.Key())
			full := key
			if section != "" {
				full = section + "." + key
			}
			ln := line(first)
			if prev, ok := seen[full]; ok {
				return nil, fmt.Errorf("%s:%d: %s: given twice (first on line %d)", name, ln, full, prev)
			}
			seen[full] = ln
			v := value{key: full, line: ln}
			n := e.Value()
			v.kind, v.s = n.Kind, string(n.Data)
			if n.Kind == unstable.Array {
				it := n.Children()
				for it.Next() {
					c := it.Node()
					if c.Kind != unstable.String {
						v.kind = unstable.InlineTable // marks a bad list
						break
					}
					v.list = append(v.list, string(c.Data))
				}
			}
			out = append(out, v)
		}
	}
	if err := p.Error(); err != nil {
		ln := 0
		var pe *unstable.ParserError
		if errors.As(err, &pe) && len(pe.Highlight) > 0 {
			func() {
				defer func() { _ = recover() }()
				ln = p.Shape(p.Range(pe.Highlight)).Start.Line
			}()
		}
		return nil, fmt.Errorf("%s:%d: not TOML: %v", name, ln, err)
	}
	return out, nil
}

func keyOf(it unstable.Iterator) (string, *unstable.Node) {
	var parts []string
	var first *unstable.Node
	for it.Next() {
		if first == nil {
			first = it.Node()
		}
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, "."), first
}

// sections are the file's [sections].
var sections = map[string]bool{"exhibit": true, "attract": true, "sound": true, "camera": true, "screen": true, "staff": true}

// key is one key of the file: its comment for Example, its default as written, and how it
// is set.
type key struct {
	name, doc, def string
	set            func(c *Config, v value) error
}

var keyIndex = map[string]*key{}

func init() {
	for i := range keys {
		keyIndex[keys[i].name] = &keys[i]
	}
}

func oneOf(s string, list ...string) error {
	if !slices.Contains(list, s) {
		return fmt.Errorf("%q is not one of %s", s, strings.Join(list, ", "))
	}
	return nil
}

var keys = []key{
	{"exhibit.institution", "Your institution's name, shown in the title bar after the machine's name.", `""`,
		func(c *Config, v value) (err error) {
			s, err := v.str()
			if err == nil && len([]rune(s)) > 80 {
				return fmt.Errorf("%d characters: at most 80 fit in the title bar", len([]rune(s)))
			}
			if err == nil {
				c.Institution = s
			}
			return err
		}},
	{"exhibit.experiments", "The experiments the visitors may choose, in order: letters, shapes, leftright, ef.", `["letters", "shapes", "leftright", "ef"]`,
		func(c *Config, v value) error {
			if v.kind != unstable.Array {
				return fmt.Errorf("want a list of names in quotes, not %s", kindName(v.kind))
			}
			if len(v.list) == 0 {
				return errors.New("an empty list: at least one experiment")
			}
			for _, e := range v.list {
				if err := oneOf(e, known...); err != nil {
					return err
				}
			}
			c.Experiments = slices.Clone(v.list)
			return nil
		}},
	{"exhibit.experiment", "The experiment a new museum opens on (\"\": the first offered). A restarted museum opens on the one it was showing.", `""`,
		func(c *Config, v value) error {
			s, err := v.str()
			if err == nil && s != "" {
				err = oneOf(s, known...)
			}
			if err == nil {
				c.Experiment = s
			}
			return err
		}},
	{"exhibit.language", "The language the exhibit opens in, and returns to when the attract mode starts: en (English), de (Deutsch), fr (Français) or es (Español); a region is allowed (\"de-CH\", \"es-419\"). Visitors choose another with the language button or the L key.", `"en"`,
		func(c *Config, v value) error {
			s, err := v.str()
			if err == nil {
				if _, ok := i18n.Parse(s); !ok {
					err = fmt.Errorf("%q is not a language the exhibit speaks: en, de, fr or es", s)
				}
			}
			if err == nil {
				c.Language = s
			}
			return err
		}},
	{"exhibit.large_text", "Whether the captions, labels and descriptions start large (for a screen seen from afar). Visitors switch with the A+ button or the + and - keys; the attract mode returns to this.", "false",
		func(c *Config, v value) error {
			b, err := v.boolean()
			if err == nil {
				c.LargeText = b
			}
			return err
		}},
	{"exhibit.save_every", "How often a machine that learned is saved (also when the experiment changes and at the end).", `"5m"`,
		func(c *Config, v value) error {
			d, err := v.duration()
			if err == nil && d < 10*time.Second {
				err = fmt.Errorf("%v: at least 10s", d)
			}
			if err == nil {
				c.SaveEvery = d
			}
			return err
		}},
	{"attract.after", "How long nobody must touch the machine before the narrated demonstration starts (\"0s\": never).", `"1m"`,
		func(c *Config, v value) error {
			d, err := v.duration()
			if err == nil && d > 0 && d < 10*time.Second {
				err = fmt.Errorf("%v: at least 10s (or \"0s\": never)", d)
			}
			if err == nil {
				c.Attract.After = d
			}
			return err
		}},
	{"attract.pace", "How long each scene of the demonstration stays, as a multiple of its written time (2: twice as long).", "1.0",
		func(c *Config, v value) error {
			f, err := v.number()
			if err == nil && !(f >= 0.25 && f <= 4) {
				err = fmt.Errorf("%v: between 0.25 and 4", f)
			}
			if err == nil {
				c.Attract.Pace = f
			}
			return err
		}},
	{"attract.text", "A scene of your own, shown first in each round of the demonstration (\"\": none).", `""`,
		func(c *Config, v value) error {
			s, err := v.str()
			if err == nil && len([]rune(s)) > 200 {
				err = fmt.Errorf("%d characters: at most 200 (two lines of the caption)", len([]rune(s)))
			}
			if err == nil {
				c.Attract.Text = s
			}
			return err
		}},
	{"sound.on", "Whether the machine clicks and whirs as it learns. When this key is absent: silent in a kiosk (--kiosk), on in a window. A browser plays sound only after the visitor's first touch.", "false",
		func(c *Config, v value) error {
			b, err := v.boolean()
			if err == nil {
				c.Sound.On, c.Sound.Set = b, true
			}
			return err
		}},
	{"sound.volume", "The loudness, 0 (silent) to 1.", "0.5",
		func(c *Config, v value) error {
			f, err := v.number()
			if err == nil && !(f >= 0 && f <= 1) {
				err = fmt.Errorf("%v is not between 0 and 1", f)
			}
			if err == nil {
				c.Sound.Volume = f
			}
			return err
		}},
	{"camera.on", "Whether a camera is the projector: the visitor holds a drawing up to it and presses SHOW IT.", "false",
		func(c *Config, v value) error {
			b, err := v.boolean()
			if err == nil {
				c.Camera.On = b
			}
			return err
		}},
	{"camera.device", "Which camera: \"auto\" (the first that works), a device such as \"/dev/video0\" (ls /dev/video* lists them; v4l2-ctl --list-devices names them), or \"file:PATH\", a recorded .y4m video played in a loop (a rehearsal without a camera).", `"auto"`,
		func(c *Config, v value) error {
			s, err := v.str()
			if err == nil && s != "auto" && !strings.HasPrefix(s, "/dev/") && !strings.HasPrefix(s, "file:") {
				err = fmt.Errorf("%q: want \"auto\", a device under /dev/ or file:PATH", s)
			}
			if err == nil {
				c.Camera.Device = s
			}
			return err
		}},
	{"camera.width", "The picture's width the camera is asked for, in pixels (it gives the nearest it has).", "320",
		intKey(func(c *Config) *int { return &c.Camera.Width }, 64, 4096)},
	{"camera.height", "The picture's height the camera is asked for.", "240",
		intKey(func(c *Config) *int { return &c.Camera.Height }, 48, 4096)},
	{"camera.mirror", "Flip the picture left to right (a camera looking through a mirror).", "false",
		func(c *Config, v value) error {
			b, err := v.boolean()
			if err == nil {
				c.Camera.Mirror = b
			}
			return err
		}},
	{"screen.width", "The window's width when not full screen (a kiosk is always full screen).", "1280",
		intKey(func(c *Config) *int { return &c.Screen.Width }, 320, 16384)},
	{"screen.height", "The window's height when not full screen.", "720",
		intKey(func(c *Config) *int { return &c.Screen.Height }, 240, 16384)},
	{"screen.orientation", "\"auto\" (follow the screen's shape), \"landscape\" (the machine as one wide picture) or \"portrait\" (the machine in three bands, one above the other, for a screen taller than wide).", `"auto"`,
		func(c *Config, v value) error {
			s, err := v.str()
			if err == nil {
				err = oneOf(s, "auto", "landscape", "portrait")
			}
			if err == nil {
				c.Screen.Orientation = s
			}
			return err
		}},
	{"screen.rotate", "Degrees the picture is turned clockwise, 0, 90, 180 or 270: for a screen hung on its side when the computer does not turn it itself (xrandr --rotate is better where it works). With 90 or 270 a landscape screen shows the portrait layout.", "0",
		func(c *Config, v value) error {
			f, err := v.number()
			if err == nil && f != 0 && f != 90 && f != 180 && f != 270 {
				err = fmt.Errorf("%v: want 0, 90, 180 or 270", f)
			}
			if err == nil {
				c.Screen.Rotate = int(f)
			}
			return err
		}},
	{"staff.status_addr", "The status endpoint's address: a loopback address and port (\"\": none). GET / for JSON, /metrics for Prometheus.", `"127.0.0.1:8177"`,
		func(c *Config, v value) error {
			s, err := v.str()
			if err == nil && s != "" && !loopback(s) {
				err = fmt.Errorf("%q: want a loopback address (127.0.0.1:PORT or [::1]:PORT); see docs/kiosk.md to watch it from elsewhere", s)
			}
			if err == nil {
				c.Staff.StatusAddr = s
			}
			return err
		}},
	{"staff.status_file", "A file rewritten every 10 s with the status, as JSON (\"\": status.json in the state folder).", `""`,
		func(c *Config, v value) error {
			s, err := v.str()
			if err == nil {
				c.Staff.StatusFile = s
			}
			return err
		}},
	{"staff.log_file", "The log (\"\": museum.log in the state folder). It rotates: one older file, museum.log.1, is kept.", `""`,
		func(c *Config, v value) error {
			s, err := v.str()
			if err == nil {
				c.Staff.LogFile = s
			}
			return err
		}},
	{"staff.log_max_mb", "The log's size, in MB, at which it rotates.", "2",
		func(c *Config, v value) error {
			f, err := v.number()
			if err == nil && !(f >= 0.01 && f <= 100) {
				err = fmt.Errorf("%v: between 0.01 and 100", f)
			}
			if err == nil {
				c.Staff.LogMaxMB = f
			}
			return err
		}},
}

func intKey(at func(c *Config) *int, lo, hi int) func(c *Config, v value) error {
	return func(c *Config, v value) error {
		if v.kind != unstable.Integer {
			return fmt.Errorf("want a whole number, not %s", kindName(v.kind))
		}
		n, err := strconv.Atoi(strings.ReplaceAll(v.s, "_", ""))
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("%s: want a whole number from %d to %d", v.s, lo, hi)
		}
		*at(c) = n
		return nil
	}
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
