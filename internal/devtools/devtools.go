// Package devtools drives a headless Chromium through the DevTools protocol, for the tests of
// the project's web pages: it starts the browser with --remote-debugging-pipe (commands on the
// browser's file 3, answers and events on its file 4, each message JSON ended by a NUL byte),
// attaches to the page it opened, and offers what the tests do there: open an address,
// evaluate JavaScript, click, press keys, take a screenshot.
//
// Only tests import it. The browser, and every process it started, ends with the test.
package devtools

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Browser is a Chromium driven over its DevTools pipe, attached to one page.
type Browser struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	session string

	mu      sync.Mutex
	next    int
	waiting map[int]chan reply
	done    chan struct{}
	err     error
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Headless are the flags of a headless Chromium for tests: no sandbox (tests may run as
// root), no GPU (software drawing), nothing fetched from the network behind the test's back.
var Headless = []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic",
	"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"}

// Chromium is the browser the tests use: $CHROMIUM, else chromium on the $PATH.
func Chromium() (string, error) {
	if c := os.Getenv("CHROMIUM"); c != "" {
		return c, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on the PATH (set CHROMIUM)")
}

// Start starts chromium with args (an address among them, or none for a blank page) and
// attaches to its page. The browser is closed, or killed with its helpers, when the test ends;
// its output is logged if the test failed.
func Start(t testing.TB, chromium string, args ...string) *Browser {
	t.Helper()
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(chromium, append([]string{"--remote-debugging-pipe"}, args...)...)
	cmd.ExtraFiles = []*os.File{cmdR, outW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its renderers and GPU process with it
	log, err := os.Create(filepath.Join(t.TempDir(), "chromium.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	outW.Close()
	b := &Browser{cmd: cmd, in: cmdW, waiting: map[int]chan reply{}, done: make(chan struct{})}
	go b.read(outR)
	t.Cleanup(func() {
		// Closed as asked; killed, with its helpers, when it does not end within 10 s.
		ended := make(chan struct{})
		go func() { b.Call("", "Browser.close", nil, nil); cmd.Wait(); close(ended) }()
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-ended
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // a helper left behind
		b.in.Close()
		log.Close()
		if t.Failed() {
			out, _ := os.ReadFile(log.Name())
			var keep []string
			for _, line := range strings.Split(string(out), "\n") {
				if !strings.Contains(line, "dbus") { // a machine without a session bus: noise
					keep = append(keep, line)
				}
			}
			t.Logf("chromium's output:\n%s", strings.Join(keep, "\n"))
		}
	})
	var targets struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
		} `json:"targetInfos"`
	}
	for range 100 {
		if err := b.Call("", "Target.getTargets", nil, &targets); err != nil {
			t.Fatal(err)
		}
		for _, ti := range targets.TargetInfos {
			if ti.Type == "page" {
				var at struct {
					SessionID string `json:"sessionId"`
				}
				if err := b.Call("", "Target.attachToTarget", map[string]any{"targetId": ti.TargetID, "flatten": true}, &at); err != nil {
					t.Fatal(err)
				}
				b.session = at.SessionID
				return b
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("chromium opened no page")
	return nil
}

func (b *Browser) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.err = fmt.Errorf("chromium's pipe: %w", err)
			close(b.done)
			b.mu.Unlock()
			return
		}
		var m struct {
			ID int `json:"id"`
			reply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue // an event
		}
		b.mu.Lock()
		ch := b.waiting[m.ID]
		delete(b.waiting, m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m.reply
		}
	}
}

// Call sends a command (to the page's session when session is not "") and decodes its result
// into out (when not nil).
func (b *Browser) Call(session, method string, params any, out any) error {
	b.mu.Lock()
	if b.err != nil {
		b.mu.Unlock()
		return b.err
	}
	b.next++
	id := b.next
	ch := make(chan reply, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := b.in.Write(append(data, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: %w", method, b.err)
	}
}

// Page calls a method in the page's session.
func (b *Browser) Page(method string, params any, out any) error {
	return b.Call(b.session, method, params, out)
}

// Eval evaluates a JavaScript expression in the page (awaiting a promise) and returns its
// value: a string as it is, anything else as JSON.
func (b *Browser) Eval(ctx context.Context, expr string) (string, error) {
	var r struct {
		Result struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := b.Page("Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &r); err != nil {
		return "", err
	}
	if r.Exception != nil {
		if r.Exception.Exception != nil && r.Exception.Exception.Description != "" {
			return "", errors.New(r.Exception.Exception.Description)
		}
		return "", errors.New(r.Exception.Text)
	}
	if r.Result.Type == "string" {
		var s string
		err := json.Unmarshal(r.Result.Value, &s)
		return s, err
	}
	return string(r.Result.Value), nil
}

// EvalJSON evaluates expr in the page and decodes its value (made JSON in the page) into out.
func (b *Browser) EvalJSON(ctx context.Context, expr string, out any) error {
	s, err := b.Eval(ctx, "JSON.stringify("+expr+")")
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(s), out); err != nil {
		return fmt.Errorf("%s: %w (%.200s)", expr, err, s)
	}
	return nil
}

// WaitFor evaluates expr in the page until it is true, or ctx ends; the error names expr.
func (b *Browser) WaitFor(ctx context.Context, expr string) error {
	for {
		s, err := b.Eval(ctx, "Boolean("+expr+")")
		if err == nil && s == "true" {
			return nil
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = errors.New("still false")
			}
			return fmt.Errorf("waiting for %s: %w", expr, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Open loads url in the page and waits for its load event (not for what its scripts do next).
func (b *Browser) Open(ctx context.Context, url string) error {
	if err := b.Page("Page.enable", nil, nil); err != nil {
		return err
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := b.Page("Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("open %s: %s", url, nav.ErrorText)
	}
	return b.WaitFor(ctx, `document.readyState === "complete"`)
}

// BeforeLoad runs source in every page the browser opens from now on, before its own scripts.
func (b *Browser) BeforeLoad(source string) error {
	return b.Page("Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": source}, nil)
}

// Size sets the page's viewport to w x h CSS pixels at scale 1.
func (b *Browser) Size(w, h int) error {
	return b.Page("Emulation.setDeviceMetricsOverride", map[string]any{"width": w, "height": h, "deviceScaleFactor": 1, "mobile": false}, nil)
}

// Mouse sends one mouse event at (x, y) in CSS pixels: typ is mousePressed, mouseReleased or
// mouseMoved; button is left, right or none.
func (b *Browser) Mouse(typ string, x, y float64, button string) error {
	p := map[string]any{"type": typ, "x": x, "y": y, "button": button, "clickCount": 1, "pointerType": "mouse"}
	if typ == "mouseMoved" {
		delete(p, "clickCount")
		if button == "left" {
			p["buttons"] = 1
		}
	}
	return b.Page("Input.dispatchMouseEvent", p, nil)
}

// Click presses and releases a mouse button at (x, y).
func (b *Browser) Click(x, y float64, button string) error {
	if err := b.Mouse("mouseMoved", x, y, "none"); err != nil {
		return err
	}
	if err := b.Mouse("mousePressed", x, y, button); err != nil {
		return err
	}
	return b.Mouse("mouseReleased", x, y, button)
}

// keyCodes are the Windows virtual key codes of the keys the tests press that are not
// characters.
var keyCodes = map[string]int{"Enter": 13, "Tab": 9, "Escape": 27, " ": 32, "Delete": 46, "Backspace": 8,
	"ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40}

// Key presses and releases a key, named as KeyboardEvent.key names it ("Enter", "ArrowLeft",
// "+", "a").
func (b *Browser) Key(key string) error {
	down := map[string]any{"type": "keyDown", "key": key}
	if code, ok := keyCodes[key]; ok {
		down["windowsVirtualKeyCode"] = code
		if key == "Enter" {
			down["text"] = "\r"
		} else if key == " " {
			down["text"] = " "
			down["code"] = "Space"
		}
	} else {
		down["text"] = key
	}
	if err := b.Page("Input.dispatchKeyEvent", down, nil); err != nil {
		return err
	}
	up := map[string]any{"type": "keyUp", "key": key}
	if code, ok := keyCodes[key]; ok {
		up["windowsVirtualKeyCode"] = code
	}
	return b.Page("Input.dispatchKeyEvent", up, nil)
}

// Screenshot writes the page's viewport as a PNG file.
func (b *Browser) Screenshot(path string) error {
	var r struct {
		Data string `json:"data"`
	}
	if err := b.Page("Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		return err
	}
	data, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
