package devtools

import (
	"context"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// page is a small page of its own: an input that keeps the keys typed, a button that counts
// its clicks.
const page = `<!DOCTYPE html><title>t</title>
<input id="in" autofocus style="position:absolute;left:10px;top:10px;width:100px;height:30px">
<button id="b" style="position:absolute;left:10px;top:60px;width:100px;height:40px"
  onclick="this.dataset.n = Number(this.dataset.n || 0) + 1">b</button>`

// TestBrowser: a headless Chromium opens a page, evaluates, types, clicks and takes a picture
// (run with MARK1_BROWSER_TEST=1: the page tests' scripts set it).
func TestBrowser(t *testing.T) {
	if os.Getenv("MARK1_BROWSER_TEST") != "1" {
		t.Skip("MARK1_BROWSER_TEST is not 1")
	}
	chromium, err := Chromium()
	if err != nil {
		t.Fatal(err)
	}
	b := Start(t, chromium, append(append([]string{}, Headless...), "--user-data-dir="+t.TempDir(), "about:blank")...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := b.Size(400, 300); err != nil {
		t.Fatal(err)
	}
	if err := b.BeforeLoad(`globalThis.before = "yes"`); err != nil {
		t.Fatal(err)
	}
	if err := b.Open(ctx, "data:text/html,"+url.PathEscape(page)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ expr, want string }{
		{"1 + 1", "2"},
		{`"a" + "b"`, "ab"},
		{"globalThis.before", "yes"},
		{"Promise.resolve([1, 2])", "[1,2]"},
	} {
		if got, err := b.Eval(ctx, c.expr); err != nil || got != c.want {
			t.Errorf("Eval(%s) = %q, %v; want %q", c.expr, got, err, c.want)
		}
	}
	if _, err := b.Eval(ctx, `(() => { throw new Error("thrown here") })()`); err == nil || !strings.Contains(err.Error(), "thrown here") {
		t.Errorf("a thrown error came back as %v", err)
	}
	b.Eval(ctx, `document.getElementById("in").focus()`)
	for _, k := range []string{"h", "i", "Backspace", "o"} {
		if err := b.Key(k); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := b.Eval(ctx, `document.getElementById("in").value`); got != "ho" {
		t.Errorf("typed h, i, Backspace, o: the input holds %q", got)
	}
	for range 2 {
		if err := b.Click(60, 80, "left"); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := b.Eval(ctx, `document.getElementById("b").dataset.n`); got != "2" {
		t.Errorf("two clicks on the button counted %q", got)
	}
	short, cancelShort := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancelShort()
	if err := b.WaitFor(short, "window.never"); err == nil || !strings.Contains(err.Error(), "window.never") {
		t.Errorf("waiting for what never comes: %v", err)
	}
	shot := filepath.Join(t.TempDir(), "shot.png")
	if err := b.Screenshot(shot); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 400 || r.Dy() != 300 {
		t.Errorf("the screenshot is %v, want 400x300", r)
	}
}
