package main

import (
	"bytes"
	"image/png"
	"os"
	"testing"
)

// The committed picture is what this program draws (regenerate it with
// go run ./docs/rigdiagram -o docs/images/rig-wiring.png).
func TestCommittedPicture(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, draw1()); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../images/rig-wiring.png")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Error("docs/images/rig-wiring.png is not what docs/rigdiagram draws: regenerate it")
	}
}
