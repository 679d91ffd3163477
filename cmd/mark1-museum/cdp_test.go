//go:build museumwindow

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// devtools drives a headless Chromium through the DevTools protocol over a pipe
// (--remote-debugging-pipe: commands on the browser's file 3, answers and events on its file
// 4, each message JSON ended by a NUL byte), attached to the page it opened.
type devtools struct {
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

// startChromium starts chromium with args (its URL among them) and attaches to its page.
func startChromium(t *testing.T, chromium string, args ...string) *devtools {
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
	log, err := os.Create(t.TempDir() + "/chromium.log")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	outW.Close()
	d := &devtools{cmd: cmd, in: cmdW, waiting: map[int]chan reply{}, done: make(chan struct{})}
	go d.read(outR)
	t.Cleanup(func() {
		// Closed as asked; killed, with its helpers, when it does not end within 10 s.
		ended := make(chan struct{})
		go func() { d.call("", "Browser.close", nil, nil); cmd.Wait(); close(ended) }()
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-ended
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // a helper left behind
		d.in.Close()
		log.Close()
		if t.Failed() {
			b, _ := os.ReadFile(log.Name())
			t.Logf("chromium's output:\n%s", b)
		}
	})
	// The page it opened.
	var targets struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
		} `json:"targetInfos"`
	}
	for range 100 {
		if err := d.call("", "Target.getTargets", nil, &targets); err != nil {
			t.Fatal(err)
		}
		for _, ti := range targets.TargetInfos {
			if ti.Type == "page" {
				var at struct {
					SessionID string `json:"sessionId"`
				}
				if err := d.call("", "Target.attachToTarget", map[string]any{"targetId": ti.TargetID, "flatten": true}, &at); err != nil {
					t.Fatal(err)
				}
				d.session = at.SessionID
				return d
			}
		}
	}
	t.Fatal("chromium opened no page")
	return nil
}

func (d *devtools) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			d.mu.Lock()
			d.err = fmt.Errorf("chromium's pipe: %w", err)
			close(d.done)
			d.mu.Unlock()
			return
		}
		var m struct {
			ID int `json:"id"`
			reply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue // an event
		}
		d.mu.Lock()
		ch := d.waiting[m.ID]
		delete(d.waiting, m.ID)
		d.mu.Unlock()
		if ch != nil {
			ch <- m.reply
		}
	}
}

// call sends a command (to the page's session when session is not "") and decodes its result
// into out (when not nil).
func (d *devtools) call(session, method string, params any, out any) error {
	d.mu.Lock()
	if d.err != nil {
		d.mu.Unlock()
		return d.err
	}
	d.next++
	id := d.next
	ch := make(chan reply, 1)
	d.waiting[id] = ch
	d.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := d.in.Write(append(b, 0)); err != nil {
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
	case <-d.done:
		return fmt.Errorf("%s: %w", method, d.err)
	}
}

// page calls a method in the page's session.
func (d *devtools) page(method string, params any, out any) error {
	return d.call(d.session, method, params, out)
}

// eval evaluates a JavaScript expression in the page (awaiting a promise) and returns its
// value as a string.
func (d *devtools) eval(ctx context.Context, expr string) (string, error) {
	var r struct {
		Result struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := d.page("Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &r); err != nil {
		return "", err
	}
	if r.Exception != nil {
		return "", errors.New(r.Exception.Text)
	}
	var s string
	if r.Result.Type == "string" {
		err := json.Unmarshal(r.Result.Value, &s)
		return s, err
	}
	return string(r.Result.Value), nil
}
