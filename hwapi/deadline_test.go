package hwapi

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// mute is a bridge that takes every connection and never answers, as one stopped by SIGSTOP
// does (the kernel still accepts, nobody reads): it returns its address.
func mute(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// Every call of a Client, and a remote rack's, ends within its deadline against a bridge that
// never answers, with a *NoAnswerError naming the bridge and the call (issue 26: mark1 bridge
// and hwbridge halt waited for ever on a stopped bridge).
func TestClientCallsHaveDeadlines(t *testing.T) {
	addr := mute(t)
	c, err := NewClient(addr, "")
	if err != nil {
		t.Fatal(err)
	}
	c.Timeout = 300 * time.Millisecond
	info := newFake("loop").info
	racks, err := c.Racks(info)
	if err != nil {
		t.Fatal(err)
	}
	rr := racks[0]
	rr.Timeout = 400 * time.Millisecond // a Drive's own deadline
	ctx := context.Background()         // no deadline of the caller's
	for _, tc := range []struct {
		name, call string
		limit      time.Duration
		run        func() error
	}{
		{"info", "GET /v1/info", c.Timeout, func() error { _, err := c.Info(ctx); return err }},
		{"status", "GET /v1/status", c.Timeout, func() error { _, err := c.Status(ctx); return err }},
		{"frame", "POST /v1/frame", c.Timeout, func() error { _, err := c.Frame(ctx, Frame{Seq: 1}); return err }},
		{"heartbeat", "POST /v1/heartbeat", c.Timeout, func() error { _, err := c.Heartbeat(ctx); return err }},
		{"halt", "POST /v1/halt?park=1", c.Timeout, func() error { return c.Halt(ctx, true) }},
		{"resume", "POST /v1/resume", c.Timeout, func() error { _, err := c.Resume(ctx); return err }},
		{"release", "POST /v1/release", c.Timeout, func() error { return c.Release(ctx) }},
		{"fault", "POST /v1/sim/fault", c.Timeout, func() error { return c.InjectFault(ctx, Fault{Bus: "main", Kind: "clear"}) }},
		{"sum", "POST /v1/loop/sum", c.Timeout, func() error { _, err := rr.Sum([]uint16{1}); return err }},
		{"readings", "GET /v1/loop/readings?r=0", c.Timeout, func() error { return rr.Readings(make([]float64, rr.Len())) }},
		{"wait", "GET /v1/info", c.Timeout, func() error { _, err := c.Wait(ctx, time.Minute, nil); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			err := tc.run()
			took := time.Since(start)
			var na *NoAnswerError
			if !errors.As(err, &na) || na.Call != tc.call || na.Addr != addr {
				t.Fatalf("%v, want a NoAnswerError of %s at %s", err, tc.call, addr)
			}
			if !strings.Contains(err.Error(), "the bridge at "+addr+" does not answer: no reply to "+tc.call) {
				t.Errorf("message %q", err)
			}
			if took < tc.limit || took > tc.limit+time.Second {
				t.Errorf("ended after %v, want its deadline, %v", took, tc.limit)
			}
		})
	}
	// A Drive waits for the pots to settle: its deadline is the rack's. (A session that met
	// a bridge that does not answer is over: a new client, as a new session would make.)
	c2, _ := NewClient(addr, "")
	c2.Timeout = 300 * time.Millisecond
	racks, _ = c2.Racks(info)
	racks[0].Timeout = 800 * time.Millisecond
	start := time.Now()
	err = racks[0].Drive([]uint16{1}, 1, 0)
	var na *NoAnswerError
	if took := time.Since(start); !errors.As(err, &na) || took > 3*time.Second {
		t.Errorf("Drive: %v after %v", err, took)
	}
	if c2.Err() == nil {
		t.Error("a bridge that does not answer did not end the session")
	}
}

// The transport has its own deadlines, whatever a call's context says: the connection, the
// TLS handshake, the reply's header.
func TestClientTransportDeadlines(t *testing.T) {
	c, err := NewClient("127.0.0.1:8707", "")
	if err != nil {
		t.Fatal(err)
	}
	tr, ok := c.hc.Transport.(*http.Transport)
	if !ok {
		t.Fatalf("transport %T", c.hc.Transport)
	}
	if tr.TLSHandshakeTimeout != TLSTimeout || tr.ResponseHeaderTimeout != MaxReplyWait || tr.DialContext == nil {
		t.Errorf("TLS %v, header %v, dial %v", tr.TLSHandshakeTimeout, tr.ResponseHeaderTimeout, tr.DialContext != nil)
	}
	if DefaultTimeout >= 10*time.Second || DialTimeout > DefaultTimeout {
		t.Errorf("a call may take %v (a dial %v): an operator's halt must say within 10 s that the bridge does not answer", DefaultTimeout, DialTimeout)
	}
	// The reply's header: a call whose context has no deadline still ends (the transport's).
	addr := mute(t)
	tr.ResponseHeaderTimeout = 200 * time.Millisecond
	c2, _ := NewClient(addr, "")
	c2.hc = &http.Client{Transport: tr}
	c2.Timeout = time.Hour
	start := time.Now()
	_, err = c2.Info(context.Background())
	var na *NoAnswerError
	if took := time.Since(start); !errors.As(err, &na) || took > 2*time.Second {
		t.Errorf("Info: %v after %v, want the transport's 200ms", err, took)
	}
}

// hangingSink answers frames and never a heartbeat, until its context ends.
type hangingSink struct {
	sinkRec
	beats chan struct{}
}

func (s *hangingSink) Heartbeat(ctx context.Context) (Ack, error) {
	s.beats <- struct{}{}
	<-ctx.Done()
	return Ack{}, ctx.Err()
}

// A mirror's heartbeat waits for its answer at most FrameTimeout: the next one goes (issue 26:
// it waited for ever on a bridge that did not answer).
func TestMirrorHeartbeatDeadline(t *testing.T) {
	m, _ := smallMachine(t)
	mi := NewMirror(m, mirrorPots(), time.Millisecond)
	mi.FrameTimeout = 100 * time.Millisecond
	sink := &hangingSink{beats: make(chan struct{}, 100)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mi.Run(ctx, sink, 20*time.Millisecond) }()
	for i := range 3 {
		select {
		case <-sink.beats:
		case <-time.After(2 * time.Second):
			t.Fatalf("heartbeat %d did not come: the one before it waits for ever", i+1)
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not end")
	}
}

// A drive waits for the pots, as long as its deadline allows, only while the bridge answers:
// it asks for the bridge's Info every Timeout meanwhile. A bridge that stops answering in the
// middle of a drive (SIGSTOP) ends it within Timeout + pingTimeout, far before the drive's
// minute; a slow rig whose bridge answers is waited for.
func TestDriveAsksWhetherTheBridgeAnswers(t *testing.T) {
	gone := make(chan struct{}) // closed at the end: a stopped bridge's handlers return
	t.Cleanup(func() { close(gone) })
	var settle atomic.Int64 // a drive's settling, ns; 0: the bridge is stopped
	var infos atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/info", func(w http.ResponseWriter, r *http.Request) {
		infos.Add(1)
		if settle.Load() == 0 {
			<-gone
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	})
	mux.HandleFunc("/v1/loop/drive", func(w http.ResponseWriter, r *http.Request) {
		d := settle.Load()
		if d == 0 {
			<-gone
			return
		}
		time.Sleep(time.Duration(d))
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"generation":7}`))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	c, err := NewClient(ln.Addr().String(), "")
	if err != nil {
		t.Fatal(err)
	}
	c.Timeout = 300 * time.Millisecond

	t.Run("slow rig", func(t *testing.T) {
		settle.Store(int64(1500 * time.Millisecond)) // five Timeouts: five questions, each answered
		start := time.Now()
		rep, err := c.LoopDrive(context.Background(), DriveRequest{R: 0, Active: []uint16{1}, OnActive: 1})
		if err != nil || rep.Generation != 7 {
			t.Fatalf("a drive that settles in 1.5 s on a bridge that answers: %+v, %v", rep, err)
		}
		if took, n := time.Since(start), infos.Load(); took < 1500*time.Millisecond || n < 3 {
			t.Errorf("answered after %v, %d questions asked meanwhile", took, n)
		}
	})
	t.Run("stopped", func(t *testing.T) {
		settle.Store(0)
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := c.LoopDrive(ctx, DriveRequest{R: 0, Active: []uint16{1}, OnActive: 1})
		took := time.Since(start)
		var na *NoAnswerError
		if !errors.As(err, &na) || na.Call != "POST /v1/loop/drive" || !strings.Contains(err.Error(), "does not answer") {
			t.Fatalf("%v, want a NoAnswerError of the drive", err)
		}
		if limit := c.Timeout + pingTimeout + time.Second; took > limit {
			t.Errorf("ended after %v, want within %v", took, limit)
		}
		t.Logf("a drive on a bridge that stopped answering ended after %v: %v", took.Round(10*time.Millisecond), err)
	})
}
