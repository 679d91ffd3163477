//go:build !js

package main

import "os"

// browser is true in the browser build.
const browser = false

// args returns the command line's arguments.
func args() []string { return os.Args[1:] }
