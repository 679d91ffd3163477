package riglink_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/session"
)

// TestStoppedBridge: a bridge that keeps its connections open and never answers (kill -STOP:
// a hung Pi) is said on the screen within 10 s (the rig not connected; a loop's learning on
// emulated racks), the machine goes on meanwhile, and when the bridge goes on (SIGCONT) the
// rig comes back and every knob is on its target.
func TestStoppedBridge(t *testing.T) {
	for _, rig := range []string{"builtin:mirror", "builtin:loop"} {
		t.Run(rig, func(t *testing.T) {
			b := startBridge(t, rig, "")
			e := startExhibit(t, b.addr, 10)
			e.waitRig(t, "the rig", 20*time.Second, func(f *session.Frame) bool {
				return f.Rig.State.Connected() && !f.Rig.Emulated && f.Rig.NKnobs > 0
			})
			e.s.Train()
			e.waitRig(t, "a knob sent", 20*time.Second, func(f *session.Frame) bool { return f.Rig.Sent > 0 })
			if err := b.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			stopped := time.Now()
			cont := func() { b.cmd.Process.Signal(syscall.SIGCONT) }
			t.Cleanup(cont) // before the bridge's kill, which a stopped process takes as well
			f := e.waitRig(t, "the rig said not to answer", 10*time.Second, func(f *session.Frame) bool {
				return f.Rig.State == session.RigNotConnected && (!f.Rig.Loop || f.Rig.Emulated)
			})
			t.Logf("%s: said not connected %v after SIGSTOP (emulated %v)", rig, time.Since(stopped).Round(10*time.Millisecond), f.Rig.Emulated)
			e.goesOn(t, "the bridge stopped")
			cont()
			e.waitRig(t, "back on the rig", 30*time.Second, func(f *session.Frame) bool {
				return f.Rig.State.Connected() && !f.Rig.Emulated
			})
			e.goesOn(t, "the bridge going on")
			e.s.Stop()
			e.onTarget(t, b, "after SIGCONT")
		})
	}
}
