package rigdev

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
)

// Env is what the host gives a rig: its buses and pins, its clock, and where to log.
type Env struct {
	// Bus opens an I²C bus by the rig file's device name ("1", "/dev/i2c-1").
	Bus func(device string) (i2c.Bus, error)
	// Pin finds a GPIO pin by name ("GPIO13"); nil when the host has none.
	Pin func(name string) (gpio.PinIO, error)
	// Model is the board's model, as its device tree gives it (/proc/device-tree/model: "Raspberry
	// Pi 4 Model B Rev 1.4"), or what the host could tell of it; a GPIO servo is refused on a
	// board where periph would send its pulses wrong (gpioservo.CheckBoard). Empty in a
	// simulation, whose pins are no board's: the check is skipped.
	Model string
	// Clock is the time the rig reads and waits on (nil: the wall clock, time.Now and
	// time.Sleep). Tests use a manual clock (drivers/i2csim.ManualClock).
	Clock Clock
	// Logger receives the rig's faults and losses (Warn), recoveries, calibrations and
	// EEPROM saves (Info), each with component=rig (nil: discarded).
	Logger *slog.Logger
	// Trace, when not nil, receives every bus transaction, one line each.
	Trace io.Writer
	// CalFile is where the read-back pots' ends are kept between starts (JSON, written
	// atomically when a sweep finds new ends); "" keeps them in memory only, so every Open
	// sweeps. CalRead are more files read, never written (an older place); for each pot the
	// newest matching entry of them all counts.
	CalFile string
	CalRead []string
	// Recalibrate sweeps every read-back pot at Open, whatever the files hold.
	Recalibrate bool
}

// Clock is the time a rig reads and waits on: the wall clock, or a test's manual clock. It is
// also the clock of the rig's chips.
type Clock interface {
	Now() time.Time
	Sleep(d time.Duration)
}

// wallClock is time.Now and time.Sleep.
type wallClock struct{}

func (wallClock) Now() time.Time        { return time.Now() }
func (wallClock) Sleep(d time.Duration) { time.Sleep(d) }

func (e *Env) fill() {
	if e.Clock == nil {
		e.Clock = wallClock{}
	}
	if e.Logger == nil {
		e.Logger = slog.New(slog.DiscardHandler)
	}
	e.Logger = e.Logger.With("component", "rig")
}

// BusStats counts one bus's traffic.
type BusStats struct {
	Transactions uint64 `json:"transactions"`
	Failed       uint64 `json:"failed"`
	Bytes        uint64 `json:"bytes"` // on the wire: address bytes and data
}

// meter is an i2c.Bus that counts (and traces) the transactions of the bus it wraps, real or
// simulated.
type meter struct {
	bus   i2c.Bus
	name  string
	now   func() time.Time
	start time.Time

	mu    sync.Mutex
	stats BusStats
	trace io.Writer
}

func (m *meter) String() string { return m.bus.String() }

func (m *meter) SetSpeed(f physic.Frequency) error { return m.bus.SetSpeed(f) }

func (m *meter) Tx(addr uint16, w, r []byte) error {
	err := m.bus.Tx(addr, w, r)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stats.Transactions++
	if err != nil {
		m.stats.Failed++
		m.stats.Bytes++
	} else {
		if len(w) > 0 || len(r) == 0 {
			m.stats.Bytes += 1 + uint64(len(w))
		}
		if len(r) > 0 {
			m.stats.Bytes += 1 + uint64(len(r))
		}
	}
	if m.trace != nil {
		var s strings.Builder
		fmt.Fprintf(&s, "%10.3fms bus %s 0x%02x", float64(m.now().Sub(m.start))/1e6, m.name, addr)
		if len(w) > 0 {
			fmt.Fprintf(&s, " W % x", w)
		}
		if len(r) > 0 && err == nil {
			fmt.Fprintf(&s, " R % x", r)
		}
		if err != nil {
			fmt.Fprintf(&s, " FAILED: %v", err)
		}
		fmt.Fprintln(m.trace, s.String())
	}
	return err
}

func (m *meter) read() BusStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stats
}

var _ i2c.Bus = (*meter)(nil)

// errList is several errors as one, on one line.
type errList []error

func (e errList) Error() string {
	s := e[0].Error()
	if len(e) > 1 {
		s += fmt.Sprintf(" (and %d more: %v)", len(e)-1, e[len(e)-1])
	}
	return s
}

func (e errList) Unwrap() []error { return e }

// join returns the errors as one (nil when there are none).
func join(errs []error) error {
	var l errList
	for _, err := range errs {
		if err != nil {
			l = append(l, err)
		}
	}
	if len(l) == 0 {
		return nil
	}
	return l
}
