//go:build (linux || freebsd || netbsd || openbsd || dragonfly) && !android

// Package displayguard ends a window program at once, with one line and no stack, when there
// is no X display to open, or with the program's usage (museum/help) when that is all the
// command line asks for: help never needs a display. On these systems ebiten's GLFW needs one
// (XWayland provides it under Wayland), and a program that imports ebiten panics in ebiten's
// own initialisation, before main, when $DISPLAY is unset or names a display nobody serves.
// Go initialises packages in dependency order and then by import path; this package imports
// only os, syscall, museum/help (which imports nothing) and museum/internal/xdisplay (which
// imports only syscall), so it is initialised right after os, long before ebiten's
// user-interface package, whose dependencies include os and much more. The museum's window
// tests check that it is: the program says one line, or its usage, and no panic.
package displayguard

import (
	"os"
	"syscall"

	"github.com/mark1-perceptron/mark1/museum/help"
	"github.com/mark1-perceptron/mark1/museum/internal/xdisplay"
)

func init() {
	display, _ := syscall.Getenv("DISPLAY")
	msg := xdisplay.Check(display)
	if msg == "" {
		return
	}
	if help.Asked(os.Args[1:]) {
		os.Stdout.WriteString(help.Text)
		os.Exit(0)
	}
	syscall.Write(2, []byte("mark1-museum: "+msg+"; without a display use the headless commands: mark1 demo, mark1 train, mark1 eval (mark1 help)\n"))
	syscall.Exit(1)
}
