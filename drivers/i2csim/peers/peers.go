// Package peers runs I²C drivers written by others, for real boards, against the simulated
// chips of drivers/i2csim: the rig's chips checked by code that does not share our reading of
// their datasheets.
//
// The drivers are Node.js packages from the npm registry built on the i2c-bus package
// (pca9685, ads1x15, node-mcp23017; install.sh installs them, at pinned versions, into a cache
// outside the repository). They are given a stand-in i2c-bus of ours (i2c-bus.js here), which
// forwards every call over a line protocol to a Server in the Go test, where the simulated bus
// answers. Node is started with the protocol on its file descriptors 3 (requests, node to Go)
// and 4 (replies), so that the drivers' synchronous calls (openSync, writeI2cBlockSync, ...)
// are synchronous, and their stdout stays theirs (the scripts here print one JSON result).
//
// The protocol is one request line, one reply line, in hex:
//
//	open BUS                 ok
//	i2c ADDR WHEX|- N        ok RHEX|-        one combined transaction (write, repeated start, read)
//	rb ADDR CMD              ok BYTE          SMBus read byte data
//	wb ADDR CMD BYTE         ok               SMBus write byte data
//	rw ADDR CMD              ok WORD          SMBus read word data (low byte first on the wire)
//	ww ADDR CMD WORD         ok               SMBus write word data (low byte first on the wire)
//	rib ADDR CMD N           ok RHEX          I2C block read (N <= 32)
//	wib ADDR CMD WHEX        ok               I2C block write (at most 32 bytes)
//	sb ADDR BYTE             ok               SMBus send byte
//	recv ADDR                ok BYTE          SMBus receive byte
//	quick ADDR               ok               SMBus quick write
//	sleep NS                 ok               the driver's timer: the simulated clock advances
//
// and any failure is "err ERRNO MESSAGE" (121 EREMOTEIO for a NACK, 110 ETIMEDOUT for a
// timeout, 22 EINVAL for a malformed request). The SMBus operations become transactions as
// Linux's i2c-dev does them on a plain I²C adapter (drivers/i2c/i2c-core-smbus.c,
// i2c_smbus_xfer_emulated): a command byte then, for reads, a repeated start.
//
// Nothing here is linked into a shipped binary: only tests import this package.
package peers

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

// Errnos the protocol reports, as Linux does.
const (
	errnoEINVAL    = 22
	errnoETIMEDOUT = 110
	errnoEREMOTEIO = 121
)

// maxBlock is the longest SMBus/I2C block (I2C_SMBUS_BLOCK_MAX).
const maxBlock = 32

// Tx is one transaction as it reached the bus, for tests that compare drivers.
type Tx struct {
	Addr uint16
	W    []byte
	R    []byte
	Err  error
}

// Server answers the stand-in i2c-bus's requests from simulated buses. It is safe for
// concurrent use.
type Server struct {
	// Buses are the buses by number (1 for /dev/i2c-1).
	Buses map[int]i2c.Bus
	// Clock advances when the driver sleeps (sleep requests); nil: sleeps are ignored.
	Clock *i2csim.ManualClock

	mu    sync.Mutex
	bus   i2c.Bus
	log   []Tx
	slept time.Duration
}

// Log returns the transactions made so far, in order.
func (s *Server) Log() []Tx {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Tx(nil), s.log...)
}

// Slept returns how long the driver's timers made the clock advance.
func (s *Server) Slept() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.slept
}

// Serve reads requests from r and writes replies to w until r ends.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	bw := bufio.NewWriter(w)
	for sc.Scan() {
		if _, err := bw.WriteString(s.Handle(sc.Text()) + "\n"); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}

type protoError struct {
	errno int
	msg   string
}

func (e *protoError) Error() string { return e.msg }

func invalid(format string, a ...any) error {
	return &protoError{errnoEINVAL, fmt.Sprintf(format, a...)}
}

// Handle answers one request line.
func (s *Server) Handle(line string) string {
	reply, err := s.handle(strings.Fields(line))
	if err != nil {
		errno := errnoEREMOTEIO
		var pe *protoError
		var se *i2csim.Error
		switch {
		case errors.As(err, &pe):
			errno = pe.errno
		case errors.As(err, &se) && se.Kind == i2csim.Timeout:
			errno = errnoETIMEDOUT
		}
		return fmt.Sprintf("err %d %s", errno, strings.ReplaceAll(err.Error(), "\n", " "))
	}
	if reply == "" {
		return "ok"
	}
	return "ok " + reply
}

func (s *Server) handle(f []string) (string, error) {
	if len(f) == 0 {
		return "", invalid("empty request")
	}
	want := map[string]int{"open": 2, "i2c": 4, "rb": 3, "wb": 4, "rw": 3, "ww": 4, "rib": 4, "wib": 4, "sb": 3, "recv": 2, "quick": 2, "sleep": 2}
	n, ok := want[f[0]]
	if !ok {
		return "", invalid("unknown request %q", f[0])
	}
	if len(f) != n {
		return "", invalid("%s takes %d fields, got %d", f[0], n-1, len(f)-1)
	}
	switch f[0] {
	case "open":
		num, err := number(f[1], 0, 1<<20)
		if err != nil {
			return "", err
		}
		b, ok := s.Buses[int(num)]
		if !ok {
			return "", &protoError{2, fmt.Sprintf("no bus %d (ENOENT)", num)}
		}
		s.mu.Lock()
		s.bus = b
		s.mu.Unlock()
		return "", nil
	case "sleep":
		ns, err := number(f[1], 0, int64(time.Hour))
		if err != nil {
			return "", err
		}
		if s.Clock != nil {
			s.Clock.Advance(time.Duration(ns))
		}
		s.mu.Lock()
		s.slept += time.Duration(ns)
		s.mu.Unlock()
		return "", nil
	}
	addr, err := number(f[1], 0, 0x7F)
	if err != nil {
		return "", err
	}
	a := uint16(addr)
	byteArg := func(i int) (byte, error) {
		v, err := number(f[i], 0, 0xFF)
		return byte(v), err
	}
	switch f[0] {
	case "i2c":
		w, err := hexBytes(f[2])
		if err != nil {
			return "", err
		}
		n, err := number(f[3], 0, 1<<16)
		if err != nil {
			return "", err
		}
		r := make([]byte, n)
		if err := s.tx(a, w, r); err != nil {
			return "", err
		}
		return hexOrDash(r), nil
	case "sb":
		b, err := byteArg(2)
		if err != nil {
			return "", err
		}
		return "", s.tx(a, []byte{b}, nil)
	case "recv":
		var r [1]byte
		if err := s.tx(a, nil, r[:]); err != nil {
			return "", err
		}
		return strconv.Itoa(int(r[0])), nil
	case "quick":
		return "", s.tx(a, nil, nil)
	}
	cmd, err := byteArg(2)
	if err != nil {
		return "", err
	}
	switch f[0] {
	case "rb":
		var r [1]byte
		if err := s.tx(a, []byte{cmd}, r[:]); err != nil {
			return "", err
		}
		return strconv.Itoa(int(r[0])), nil
	case "wb":
		b, err := byteArg(3)
		if err != nil {
			return "", err
		}
		return "", s.tx(a, []byte{cmd, b}, nil)
	case "rw":
		var r [2]byte
		if err := s.tx(a, []byte{cmd}, r[:]); err != nil {
			return "", err
		}
		return strconv.Itoa(int(r[0]) | int(r[1])<<8), nil // SMBus words travel low byte first
	case "ww":
		v, err := number(f[3], 0, 0xFFFF)
		if err != nil {
			return "", err
		}
		return "", s.tx(a, []byte{cmd, byte(v), byte(v >> 8)}, nil)
	case "rib":
		n, err := number(f[3], 1, maxBlock)
		if err != nil {
			return "", err
		}
		r := make([]byte, n)
		if err := s.tx(a, []byte{cmd}, r); err != nil {
			return "", err
		}
		return hex.EncodeToString(r), nil
	default: // wib
		w, err := hexBytes(f[3])
		if err != nil {
			return "", err
		}
		if len(w) > maxBlock {
			return "", invalid("wib: %d bytes, at most %d", len(w), maxBlock)
		}
		return "", s.tx(a, append([]byte{cmd}, w...), nil)
	}
}

func (s *Server) tx(addr uint16, w, r []byte) error {
	s.mu.Lock()
	b := s.bus
	s.mu.Unlock()
	if b == nil {
		return &protoError{9, "no bus open (EBADF)"}
	}
	err := b.Tx(addr, w, r)
	s.mu.Lock()
	s.log = append(s.log, Tx{Addr: addr, W: append([]byte(nil), w...), R: append([]byte(nil), r...), Err: err})
	s.mu.Unlock()
	return err
}

func number(s string, lo, hi int64) (int64, error) {
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil || v < lo || v > hi {
		return 0, invalid("%q: want a number in %d..%d", s, lo, hi)
	}
	return v, nil
}

func hexBytes(s string) ([]byte, error) {
	if s == "-" {
		return nil, nil
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, invalid("%q: want hex bytes or -", s)
	}
	return b, nil
}

func hexOrDash(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return hex.EncodeToString(b)
}
