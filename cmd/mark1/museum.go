package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mark1-perceptron/mark1/museum/help"
)

// The museum's window is a separate program, mark1-museum: a program that imports ebiten
// panics at start on Linux when there is no display, and mark1 must run headless. "mark1
// museum" finds that program and runs it in its own place; "mark1 web" serves its browser
// build (web.go). Neither imports ebiten.

func init() {
	commands = append(commands,
		command{"museum", "[--kiosk] [--fullscreen] [flags]", "open the museum's window: watch the machine learn, draw and teach it (runs mark1-museum)", cmdMuseum},
		command{"web", "[--dir DIR] [--addr HOST:PORT] [--allow-host NAME]", "serve the browser build (made by make web) on this computer: the museum, and the lab at /lab/", cmdWeb},
	)
}

// museumName is the window program's file name.
func museumName() string {
	if runtime.GOOS == "windows" {
		return "mark1-museum.exe"
	}
	return "mark1-museum"
}

// museumHint says how to build the window program: make demo (scripts/museum-demo.sh) builds
// and installs it where findMuseum looks, and a test holds the target named here to a recipe
// that writes mark1-museum.
const museumHint = "in mark1's source, `make demo` builds it (installing the X and GL headers it needs), puts mark1, " +
	"mark1-museum and hwbridge in ~/.local/bin and opens the window; or build it by hand with " +
	"`go build -o DIR/mark1-museum ./cmd/mark1-museum` (it needs cgo and, on Debian, " +
	"libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev)"

// museumDirs are the folders where make demo installs the window program, newest first:
// ~/.local/bin, and ${XDG_CACHE_HOME:-~/.cache}/mark1/bin, where it did before. Each comes with
// how the messages name it.
func museumDirs() (dirs, names []string) {
	home, err := os.UserHomeDir()
	if err == nil && home != "" {
		dirs, names = append(dirs, filepath.Join(home, ".local", "bin")), append(names, "in ~/.local/bin")
	}
	if c := os.Getenv("XDG_CACHE_HOME"); c != "" {
		dirs, names = append(dirs, filepath.Join(c, "mark1", "bin")), append(names, "in $XDG_CACHE_HOME/mark1/bin")
	} else if err == nil && home != "" {
		dirs, names = append(dirs, filepath.Join(home, ".cache", "mark1", "bin")), append(names, "in ~/.cache/mark1/bin")
	}
	return dirs, names
}

// findMuseum returns the path of mark1-museum: $MARK1_MUSEUM if set, else the one next to
// this program's executable, else the one make demo installed (museumDirs), else the one on
// $PATH.
func findMuseum() (string, error) {
	if p := os.Getenv("MARK1_MUSEUM"); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", fmt.Errorf("$MARK1_MUSEUM=%s is not a program", p)
		}
		return p, nil
	}
	var looked []string
	isProgram := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.Mode().IsRegular() && (runtime.GOOS == "windows" || st.Mode()&0o111 != 0)
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		if p := filepath.Join(filepath.Dir(exe), museumName()); isProgram(p) {
			return p, nil
		}
		looked = append(looked, "next to "+exe)
	}
	dirs, names := museumDirs()
	for i, d := range dirs {
		if p := filepath.Join(d, museumName()); isProgram(p) {
			return p, nil
		}
		looked = append(looked, names[i])
	}
	if p, err := exec.LookPath(museumName()); err == nil {
		return p, nil
	}
	looked = append(looked, "on $PATH")
	return "", fmt.Errorf("the window program %s was not found (looked %s): %s", museumName(), strings.Join(looked, ", "), museumHint)
}

// hasDisplay reports whether a window can be opened: on Linux and the BSDs an X or Wayland
// display must be named in the environment; other systems always have one.
func hasDisplay() bool {
	switch runtime.GOOS {
	case "linux", "freebsd", "netbsd", "openbsd", "dragonfly":
		return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
	}
	return true
}

// errNoDisplay is the error of "mark1 museum" without a display.
var errNoDisplay = errors.New("no display ($DISPLAY and $WAYLAND_DISPLAY are unset): the museum needs a screen; without one use the headless commands: mark1 demo, mark1 train, mark1 eval (mark1 help)")

// cmdMuseum runs mark1-museum with the arguments given, in mark1's place.
func cmdMuseum(args []string, stdout, stderr io.Writer) error {
	if help.Asked(args) {
		fmt.Fprint(stdout, "usage: mark1 museum [flags]\n\nRuns the museum's window, mark1-museum (it needs a display), with these flags:\n", help.Flags)
		return flag.ErrHelp
	}
	if !hasDisplay() {
		return errNoDisplay
	}
	path, err := findMuseum()
	if err != nil {
		return err
	}
	return execMuseum(path, args, stderr)
}

// museumNoArgs is what mark1 with no arguments does when it can: open the museum, when there
// is a display and the window program is found. ok is false otherwise (mark1 then prints its
// usage). It execs the window, so main calls it, never run (which the tests call in-process).
func museumNoArgs(stderr io.Writer) (status int, ok bool) {
	if !hasDisplay() {
		return 0, false
	}
	path, err := findMuseum()
	if err != nil {
		return 0, false
	}
	fmt.Fprintln(stderr, "mark1: opening the museum's window (\"mark1 help\" lists the commands)")
	if err := execMuseum(path, nil, stderr); err != nil {
		fmt.Fprintf(stderr, "mark1 museum: %v\n", err)
		return 1, true
	}
	return 0, true
}
