package i2csim

import (
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
)

// Device is a chip on a simulated bus.
type Device interface {
	// Tx performs one transaction addressed to the chip: w is written, then, after a repeated
	// start, len(r) bytes are read into r. An error means the chip did not acknowledge; the
	// chip then changes nothing.
	Tx(w, r []byte) error
}

// Aliased is a Device that may also answer at addresses other than the one it is attached at,
// as its registers say at the time of a transaction (a PCA9685's LED All Call address and
// sub-addresses).
type Aliased interface {
	Device
	AnswersAt(addr uint16) bool
}

// FaultKind is a kind of bus failure.
type FaultKind int

// Kinds of failures a bus may show.
const (
	// NACK: the address (or a command) is not acknowledged, as when a chip is unplugged, busy
	// or browned out. Linux reports it as "remote I/O error".
	NACK FaultKind = iota + 1
	// Timeout: the transaction does not complete (a slave holding SCL low, a lost arbitration).
	Timeout
)

func (k FaultKind) String() string {
	switch k {
	case NACK:
		return "remote I/O error (no acknowledge)"
	case Timeout:
		return "connection timed out"
	}
	return "unknown fault"
}

// AnyAddr in a Fault matches every address on the bus.
const AnyAddr = 0xFFFF

// Fault is a failure to inject into a bus.
type Fault struct {
	Addr  uint16    // the address it hits, or AnyAddr
	Kind  FaultKind // NACK or Timeout
	Skip  int       // let this many matching transactions through first
	Count int       // fail this many transactions, then stop (0: until cleared)
	Prob  float64   // when in (0, 1), fail each matching transaction with this probability
}

// Error is the error of a failed simulated transaction.
type Error struct {
	Bus  string
	Addr uint16
	Kind FaultKind
}

func (e *Error) Error() string {
	return fmt.Sprintf("i2csim: bus %s: address 0x%02x: %s", e.Bus, e.Addr, e.Kind)
}

// Stats counts a bus's traffic.
type Stats struct {
	Transactions uint64 // transactions attempted
	Failed       uint64 // transactions that failed
	Bytes        uint64 // bytes on the wire: address bytes (one per direction) and data
}

type fault struct {
	Fault
	seen, failed int
}

// Bus is a simulated I²C bus. It implements i2c.Bus and is safe for concurrent use: one
// transaction at a time, as on a real bus.
type Bus struct {
	name  string
	clock Clock

	mu     sync.Mutex
	devs   map[uint16]Device
	faults []*fault
	stuck  bool
	rng    *rand.Rand
	stats  Stats
	trace  io.Writer
	start  time.Time
}

// NewBus returns an empty bus named name (as in "1" for /dev/i2c-1), whose chips keep time by
// clock (nil: the wall clock) and whose flaky faults draw from a generator seeded by seed.
func NewBus(name string, clock Clock, seed uint64) *Bus {
	if clock == nil {
		clock = WallClock{}
	}
	return &Bus{name: name, clock: clock, devs: map[uint16]Device{}, rng: rand.New(rand.NewPCG(seed, 0x9685)), start: clock.Now()}
}

// Clock returns the bus's clock.
func (b *Bus) Clock() Clock { return b.clock }

// Attach puts a chip at a 7-bit address.
func (b *Bus) Attach(addr uint16, d Device) error {
	if addr > 0x7F {
		return fmt.Errorf("i2csim: address 0x%x is not a 7-bit address", addr)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.devs[addr]; ok {
		return fmt.Errorf("i2csim: bus %s: address 0x%02x already taken", b.name, addr)
	}
	b.devs[addr] = d
	return nil
}

// Detach removes the chip at addr, as when its wires come loose: it no longer answers.
func (b *Bus) Detach(addr uint16) Device {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.devs[addr]
	delete(b.devs, addr)
	return d
}

// Addresses lists the addresses where a chip answers, ascending.
func (b *Bus) Addresses() []uint16 {
	b.mu.Lock()
	defer b.mu.Unlock()
	var a []uint16
	for addr := range b.devs {
		a = append(a, addr)
	}
	sort.Slice(a, func(i, j int) bool { return a[i] < a[j] })
	return a
}

// Inject adds a fault.
func (b *Bus) Inject(f Fault) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.faults = append(b.faults, &fault{Fault: f})
}

// ClearFaults removes every injected fault and frees a stuck bus.
func (b *Bus) ClearFaults() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.faults = nil
	b.stuck = false
}

// SetStuck makes every transaction time out (a slave holding SDA low) until cleared.
func (b *Bus) SetStuck(stuck bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stuck = stuck
}

// Stats returns the traffic counted so far.
func (b *Bus) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

// SetTrace prints every transaction to w (nil: none), one line each.
func (b *Bus) SetTrace(w io.Writer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.trace = w
}

// String implements i2c.Bus.
func (b *Bus) String() string { return "i2csim-" + b.name }

// SetSpeed implements i2c.Bus; the simulated bus has no speed.
func (b *Bus) SetSpeed(physic.Frequency) error { return nil }

// Tx implements i2c.Bus.
func (b *Bus) Tx(addr uint16, w, r []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stats.Transactions++
	err := b.fault(addr)
	if err == nil {
		err = b.deliver(addr, w, r)
	}
	if err != nil {
		b.stats.Failed++
		b.stats.Bytes++ // the address byte went out
		clear(r)
	} else {
		if len(w) > 0 || len(r) == 0 {
			b.stats.Bytes += 1 + uint64(len(w))
		}
		if len(r) > 0 {
			b.stats.Bytes += 1 + uint64(len(r))
		}
	}
	if b.trace != nil {
		b.printTx(addr, w, r, err)
	}
	return err
}

// deliver performs a transaction with every chip that answers at addr: the one attached there
// and any Aliased chip answering there too. Each gets the bytes written; what they send back
// meets on the open-drain bus as the AND of their bytes, and the address is acknowledged when
// any chip acknowledges it (called with the lock held).
func (b *Bus) deliver(addr uint16, w, r []byte) error {
	var chips []Device
	if d, ok := b.devs[addr]; ok {
		chips = append(chips, d)
	}
	others := make([]uint16, 0, len(b.devs))
	for a := range b.devs {
		if a != addr {
			others = append(others, a)
		}
	}
	sort.Slice(others, func(i, j int) bool { return others[i] < others[j] })
	for _, a := range others {
		if al, ok := b.devs[a].(Aliased); ok && al.AnswersAt(addr) {
			chips = append(chips, al)
		}
	}
	nack := &Error{Bus: b.name, Addr: addr, Kind: NACK}
	switch len(chips) {
	case 0:
		return nack
	case 1:
		if chips[0].Tx(w, r) != nil {
			return nack
		}
		return nil
	}
	wired := make([]byte, len(r))
	for i := range wired {
		wired[i] = 0xFF
	}
	acked := false
	buf := make([]byte, len(r))
	for _, d := range chips {
		clear(buf)
		if d.Tx(w, buf) != nil {
			continue
		}
		acked = true
		for i := range wired {
			wired[i] &= buf[i]
		}
	}
	if !acked {
		return nack
	}
	copy(r, wired)
	return nil
}

// fault returns the injected failure of this transaction, if any.
func (b *Bus) fault(addr uint16) error {
	if b.stuck {
		return &Error{Bus: b.name, Addr: addr, Kind: Timeout}
	}
	for _, f := range b.faults {
		if f.Addr != AnyAddr && f.Addr != addr {
			continue
		}
		f.seen++
		if f.seen <= f.Skip || (f.Count > 0 && f.failed >= f.Count) {
			continue
		}
		if f.Prob > 0 && f.Prob < 1 && b.rng.Float64() >= f.Prob {
			continue
		}
		f.failed++
		return &Error{Bus: b.name, Addr: addr, Kind: f.Kind}
	}
	return nil
}

func (b *Bus) printTx(addr uint16, w, r []byte, err error) {
	var s strings.Builder
	fmt.Fprintf(&s, "%10.3fms i2c-%s 0x%02x", float64(b.clock.Now().Sub(b.start))/1e6, b.name, addr)
	if len(w) > 0 {
		fmt.Fprintf(&s, " W % x", w)
	}
	if len(r) > 0 {
		if err != nil {
			fmt.Fprintf(&s, " R (%d bytes)", len(r))
		} else {
			fmt.Fprintf(&s, " R % x", r)
		}
	}
	if err != nil {
		if e, ok := err.(*Error); ok {
			fmt.Fprintf(&s, " FAILED: %s", e.Kind)
		}
	}
	fmt.Fprintln(b.trace, s.String())
}

var _ i2c.Bus = (*Bus)(nil)
