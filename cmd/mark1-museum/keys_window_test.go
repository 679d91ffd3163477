//go:build museumwindow

package main

import (
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeysTypedAsCharacters: the help (?) and large text (+) answer the characters typed, not
// the US keyboard's places of the keys (a German or Spanish keyboard has its + and ? on other
// keys; ebiten's keys are the US places, its characters what the layout types): the real
// program, each key typed by xdotool, read from the screenshot (the help's panel over the
// machine, the A+ button lit). Xvfb here keeps the US layout (setxkbmap does not change it),
// so a German keyboard itself is not tried.
func TestKeysTypedAsCharacters(t *testing.T) {
	display := ownXvfb(t, "1920x1080x24")
	env := []string{"DISPLAY=" + display}
	dir := t.TempDir()
	cur := filepath.Join(dir, "museum.toml")
	os.WriteFile(cur, []byte("[exhibit]\nlanguage = \"de\"\n[staff]\nstatus_addr = \"\"\n"), 0o644)
	shot := func(key string) string {
		path := filepath.Join(dir, "shot-"+key+".png")
		cmd := exec.Command(bin, "--curator", cur, "--state-dir", "", "--attract", "0", "--camera", "off",
			"--fullscreen", "--screenshot", path, "--frames", "180")
		cmd.Env = append(os.Environ(), env...)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if key != "" {
			pressKey(t, env, key)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return path
	}
	// The help covers the middle of the machine with its panel's colour; the large-text
	// button (A+, top right) is lit amber when the text is large.
	helpArea, aPlus := image.Rect(500, 450, 1400, 650), image.Rect(1760, 18, 1800, 42)
	helpColour, litColour := color.RGBA{25, 29, 37, 255}, color.RGBA{91, 76, 58, 255}
	measure := func(img image.Image) (help, lit float64) {
		return float64(near(img, helpArea, helpColour, 3)) / float64(helpArea.Dx()*helpArea.Dy()),
			float64(near(img, aPlus, litColour, 12)) / float64(aPlus.Dx()*aPlus.Dy())
	}
	base := readAny(t, shot(""))
	if b := base.Bounds().Size(); b != image.Pt(1920, 1080) {
		t.Fatalf("screenshot %v, want 1920x1080", b)
	}
	help, lit := measure(base)
	t.Logf("no key: %.0f%% of the middle in the help's colour, %.0f%% of A+ lit", 100*help, 100*lit)
	if help > 0.7 || lit > 0.2 {
		t.Fatalf("with no key typed the help or the large text is on already")
	}
	help, _ = measure(readAny(t, shot("question")))
	t.Logf("?: %.0f%% of the middle in the help's colour", 100*help)
	if help < 0.85 {
		t.Errorf("? typed did not open the help (%.0f%% of the middle in its colour)", 100*help)
	}
	_, lit = measure(readAny(t, shot("plus")))
	t.Logf("+: %.0f%% of A+ lit", 100*lit)
	if lit < 0.5 {
		t.Errorf("+ typed did not set the large text (%.0f%% of A+ lit)", 100*lit)
	}
}
