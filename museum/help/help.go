// Package help is the museum window's usage, kept where a program can print it before any
// window library starts: mark1-museum's first-initialised package (museum/displayguard) prints
// it when there is no display, mark1-museum prints it with one, and "mark1 museum -h" prints
// it without running the window. It imports nothing, so it is initialised before anything
// that needs a display. cmd/mark1-museum's window tests check that Flags names every flag of
// the program with its usage and default.
package help

// Flags lists mark1-museum's flags (and so "mark1 museum"'s), within 80 columns.
const Flags = `  --fullscreen        open full screen
  --kiosk             full screen, cursor hidden when idle, close button ignored
                      (Ctrl+Shift+Q quits)
  --experiment NAME   the experiment to open on: letters, shapes, leftright or
                      ef (default letters); a museum resumed from --state-dir
                      opens on the experiment it was showing, unless this flag
                      names one: that one opens, and the others stay saved
  --state-dir DIR     folder where the machines are saved and resumed from (""
                      keeps nothing) (default $XDG_STATE_HOME/mark1/museum, or
                      ~/.local/state/mark1/museum)
  --save-every D      how often the machine is saved while it changes (default
                      5m0s)
  --speed N|max       cards' pace: 1 is about 3 s a card (the original's,
                      assumed), 10 ten times faster, max as fast as possible
                      (default 1)
  --seed N            seed of the machine's wiring and flaws (default 1)
  --ideal             every analog flaw off (the textbook perceptron)
  --attract D         idle time before the narrated demonstration (0: never)
                      (default 1m0s)
  --pretrain N        epochs to train at full speed before the window opens
  --screenshot FILE   write the screen to this PNG file after --frames frames,
                      and quit
  --frames N          frames before the screenshot (default 30)
  --stats             print frame timings on standard output: every 10 s while
                      the window is open, and a summary when it closes
  --curator FILE      the curator's file (TOML) setting up the exhibit:
                      experiments, sound, attract mode, camera, screen, staff
  --curator-example   print a commented curator's file with every setting at its
                      default, and quit
  --camera DEVICE     the camera as the projector: a device (/dev/video0), auto,
                      file:VIDEO.y4m, or off (default: the curator's file's)
  --sound on|off      on or off (default: the curator's file's; without it, off
                      in a kiosk, on in a window)
  --bridge HOST:PORT  a running hwbridge's HOST:PORT: a mirror rig's knobs
                      follow the screen, a loop rig's pots are the weights
                      (default: the curator's file's)
  --token-file FILE   a FILE holding the bridge's API token (default: the
                      curator's file's)
  --language CODE     the language the screen opens in and returns to: en, de,
                      fr or es (default: the curator's file's, else en)
  --log-format FORM   the log on standard error and in the log file: text
                      (key=value) or json (one object a line) (default text)
  --log-level LEVEL   the least level logged on standard error: debug, info,
                      warn or error (the log file keeps info and up) (default
                      warn)
`

// Text is mark1-museum's whole usage, as -h prints it.
const Text = `usage: mark1-museum [flags]

The museum's Mark I Perceptron in a window: it needs a display (an X server,
or XWayland under Wayland). "mark1 museum" runs it; without a display use
mark1 demo, mark1 train, mark1 eval.

flags:
` + Flags

// boolFlags are the flags that take no value.
var boolFlags = [...]string{"fullscreen", "kiosk", "ideal", "stats", "curator-example"}

// Asked reports whether the command line args (without the program's name) asks for help as
// Go's flag package reads it: -h, -help, --h or --help among the flags, before the first
// argument that is not one or a "--", and not as the value of the flag before it.
func Asked(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || a == "--" {
			return false
		}
		name := a[1:]
		if name[0] == '-' {
			name = name[1:]
		}
		hasValue := false
		for j := 0; j < len(name); j++ {
			if name[j] == '=' {
				name, hasValue = name[:j], true
				break
			}
		}
		if name == "h" || name == "help" {
			return true
		}
		if !hasValue && !isBool(name) {
			i++ // the next argument is this flag's value
		}
	}
	return false
}

func isBool(name string) bool {
	for _, b := range boolFlags {
		if b == name {
			return true
		}
	}
	return false
}
