//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "mark1-lab runs in a browser: make web builds it into web/dist/lab/")
	os.Exit(2)
}
