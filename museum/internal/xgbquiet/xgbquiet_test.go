//go:build (freebsd || (linux && !android) || netbsd || openbsd) && !nintendosdk && !playstation5

package xgbquiet

import (
	"bytes"
	"log"
	"testing"

	"github.com/jezek/xgb"
)

// The notes about a missing Xauthority are dropped; xgb's other lines are written.
func TestNotesDropped(t *testing.T) {
	var buf bytes.Buffer
	l := log.New(notes{&buf}, "XGB: ", log.Lshortfile)
	l.Printf("Could not get authority info: %v", "open /x: no such file or directory")
	l.Println("Trying connection without authority info...")
	l.Printf("A read error is unrecoverable: %s", "EOF")
	got := buf.String()
	if bytes.Contains(buf.Bytes(), []byte("authority")) || !bytes.Contains(buf.Bytes(), []byte("XGB: xgbquiet_test.go:")) ||
		!bytes.Contains(buf.Bytes(), []byte("A read error is unrecoverable: EOF\n")) {
		t.Errorf("logged %q: want only the read error", got)
	}
	if _, ok := xgb.Logger.Writer().(notes); !ok {
		t.Errorf("xgb.Logger writes to %T, not through the filter", xgb.Logger.Writer())
	}
}
