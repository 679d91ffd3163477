//go:build (freebsd || (linux && !android) || netbsd || openbsd) && !nintendosdk && !playstation5

// The build constraint is that of ebiten's own code that uses xgb (internal/ui/ui_linbsd.go).

package xgbquiet

import (
	"bytes"
	"io"
	"log"
	"os"

	"github.com/jezek/xgb"
)

func init() {
	xgb.Logger = log.New(notes{os.Stderr}, "XGB: ", log.Lshortfile)
}

// notes writes xgb's log lines to w, but for its notes about a missing Xauthority.
type notes struct{ w io.Writer }

func (n notes) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("Could not get authority info")) || bytes.Contains(p, []byte("Trying connection without authority info")) {
		return len(p), nil
	}
	return n.w.Write(p)
}
