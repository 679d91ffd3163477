package i2csim

import (
	"math"
	"slices"
	"sync"
	"time"
)

// PCA9685 register addresses and bits (datasheet section 7.3).
const (
	pcaMode1     = 0x00
	pcaMode2     = 0x01
	pcaSubAdr1   = 0x02
	pcaAllCallAd = 0x05
	pcaLED0      = 0x06
	pcaAllLED    = 0xFA
	pcaPrescale  = 0xFE
	pcaTestMode  = 0xFF
	pcaRestart   = 0x80
	pcaAI        = 0x20
	pcaSleep     = 0x10
	pcaSub1      = 0x08
	pcaSub2      = 0x04
	pcaSub3      = 0x02
	pcaAllCall   = 0x01
	pcaInvrt     = 0x10
	pcaOCH       = 0x08
	pcaFullBit   = 0x10
	pcaResetMode = 0x11 // SLEEP | ALLCALL
)

// PCAOscillatorStart is how long the PCA9685's oscillator takes to run once MODE1's SLEEP bit
// is cleared (datasheet 7.3.1, table 5 note 2: 500 us at most); the outputs are off
// meanwhile, and a RESTART written sooner is ignored (7.3.1.1).
const PCAOscillatorStart = 500 * time.Microsecond

// PCA9685 is a simulated PCA9685 board. Its oscillator may be set off nominal (boards vary by
// several percent). It is safe for concurrent use.
//
// Besides the registers it models what a driver must do in order (datasheet 7.3.1.1): the
// oscillator starts PCAOscillatorStart after SLEEP is cleared, and the outputs are off until
// then; a board put to sleep while a channel runs sets RESTART (MODE1 bit 7) and its channels
// stay stopped after waking until a 1 is written to RESTART, at least PCAOscillatorStart after
// the wake (a RESTART written sooner is ignored), or until a PWM register is written (with
// MODE2's OCH clear, at the STOP; with it set, all four of a channel's registers); and the
// board answers at its LED All Call address (ALLCALLADR, 0x70 at power-up) and its enabled
// sub-addresses besides its own (AnswersAt), so a driver that leaves ALLCALL on collides with
// another chip at 0x70.
type PCA9685 struct {
	clock Clock
	osc   float64 // oscillator frequency, Hz

	mu      sync.Mutex
	reg     [256]byte
	ptr     byte      // the register pointer
	wokeAt  time.Time // when SLEEP was last cleared
	started bool      // the outputs were applied once the oscillator ran after the last wake
	servos  [16]*Servo
}

// NewPCA9685 returns a board at power-up whose oscillator runs at oscHz (0: the nominal
// 25 MHz).
func NewPCA9685(clock Clock, oscHz float64) *PCA9685 {
	if oscHz == 0 {
		oscHz = 25e6
	}
	if clock == nil {
		clock = WallClock{}
	}
	p := &PCA9685{clock: clock, osc: oscHz}
	p.powerOn()
	return p
}

func (p *PCA9685) powerOn() {
	p.reg = [256]byte{}
	p.ptr = 0
	p.reg[pcaMode1] = pcaResetMode
	p.reg[pcaMode2] = 0x04
	p.reg[0x02], p.reg[0x03], p.reg[0x04], p.reg[0x05] = 0xE2, 0xE4, 0xE8, 0xE0
	for ch := range 16 {
		p.reg[pcaLED0+4*ch+3] = pcaFullBit // LEDn_OFF_H: full off
	}
	p.reg[pcaPrescale] = 0x1E
	p.wokeAt, p.started = time.Time{}, false
}

// PowerCycle returns every register to its power-up value, as when the board's supply drops:
// the outputs go off until a driver sets them again.
func (p *PCA9685) PowerCycle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.powerOn()
	p.applyOutputs()
}

// AttachServo hangs a servo on channel ch (0..15).
func (p *PCA9685) AttachServo(ch int, s *Servo) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.servos[ch] = s
	s.clock = p.clock
	s.last = p.clock.Now()
	p.applyOutputs()
}

// AnswersAt implements Aliased: the board also answers at its LED All Call address while
// MODE1's ALLCALL bit is set, and at sub-address n while SUBn is set (datasheet 7.1.2, 7.1.3;
// the registers hold the 8-bit write address).
func (p *PCA9685) AnswersAt(addr uint16) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.reg[pcaMode1]
	for i, bit := range []byte{pcaSub1, pcaSub2, pcaSub3, pcaAllCall} {
		if m&bit != 0 && uint16(p.reg[pcaSubAdr1+i]>>1) == addr {
			return true
		}
	}
	return false
}

// Tx implements Device.
func (p *PCA9685) Tx(w, r []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started && p.running() {
		p.started = true
		p.applyOutputs() // the oscillator started since the last transaction
	}
	if len(w) == 0 && len(r) == 0 {
		return nil
	}
	var led bool      // a PWM register was written
	var whole [16]int // registers written per channel
	if len(w) > 0 {
		// The register pointer is 8 bits; the chip increments it after each byte when MODE1's
		// AI bit is set. A byte written to a register that does not exist is acknowledged and
		// dropped.
		p.ptr = w[0]
		for _, b := range w[1:] {
			a := p.ptr
			p.write(a, b)
			switch {
			case a >= pcaLED0 && a < pcaLED0+64:
				led = true
				whole[(a-pcaLED0)/4] |= 1 << ((a - pcaLED0) % 4)
			case a >= pcaAllLED && a <= pcaAllLED+3:
				led = true
				for ch := range whole {
					whole[ch] |= 1 << (a - pcaAllLED)
				}
			}
			if p.reg[pcaMode1]&pcaAI != 0 {
				p.ptr++
			}
		}
	}
	// A read continues from the pointer, which a read-only transaction does not set.
	for i := range r {
		r[i] = p.read(p.ptr)
		if p.reg[pcaMode1]&pcaAI != 0 {
			p.ptr++
		}
	}
	// Writing a PWM register clears RESTART (7.3.1.1): with MODE2's OCH clear at the STOP, with
	// it set once all four of a channel's registers are written.
	if led && (p.reg[pcaMode2]&pcaOCH == 0 || slices.Contains(whole[:], 0x0F)) {
		p.reg[pcaMode1] &^= pcaRestart
	}
	// With MODE2 OCH = 0 (the default) the outputs change at the STOP condition.
	if len(w) > 1 {
		p.applyOutputs()
	}
	return nil
}

// running reports whether the oscillator runs (called with the lock held).
func (p *PCA9685) running() bool {
	return p.reg[pcaMode1]&pcaSleep == 0 && !p.clock.Now().Before(p.wokeAt.Add(PCAOscillatorStart))
}

// active reports whether a channel is not fully off (called with the lock held).
func (p *PCA9685) active() bool {
	for ch := range 16 {
		if p.reg[pcaLED0+4*ch+3]&pcaFullBit == 0 {
			return true
		}
	}
	return false
}

func (p *PCA9685) write(a, v byte) {
	switch {
	case a == pcaMode1:
		old := p.reg[a]
		restart := old & pcaRestart
		// Writing 1 to RESTART restarts the stopped channels, once the oscillator has run
		// for 500 us since SLEEP was cleared; writing 0 does nothing.
		if v&pcaRestart != 0 && restart != 0 && v&pcaSleep == 0 && p.running() {
			restart = 0
		}
		v = v&^pcaRestart | restart
		switch {
		case old&pcaSleep == 0 && v&pcaSleep != 0 && p.active():
			v |= pcaRestart // put to sleep while a channel runs: its channels wait for a restart
		case old&pcaSleep != 0 && v&pcaSleep == 0:
			p.wokeAt, p.started = p.clock.Now(), false
		}
		p.reg[a] = v
	case a == pcaPrescale:
		if p.reg[pcaMode1]&pcaSleep != 0 { // PRE_SCALE is writable only while asleep
			p.reg[a] = max(v, 3)
		}
	case a >= pcaAllLED && a <= pcaAllLED+3:
		for ch := range 16 {
			p.reg[pcaLED0+4*ch+int(a-pcaAllLED)] = v
		}
	case a <= 0x45:
		p.reg[a] = v
	}
}

func (p *PCA9685) read(a byte) byte {
	switch {
	case a >= pcaAllLED && a <= pcaAllLED+3:
		return 0 // ALL_LED registers read as zero
	case a == pcaTestMode || (a > 0x45 && a < pcaAllLED):
		return 0
	}
	return p.reg[a]
}

// Period returns the PWM period the board runs at, from its prescale and oscillator.
func (p *PCA9685) Period() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.period()
}

func (p *PCA9685) period() time.Duration {
	return time.Duration(float64(int(p.reg[pcaPrescale])+1) * 4096 / p.osc * 1e9)
}

// Pulse returns the high time of channel ch's output in each period: 0 when the output is off,
// the board asleep, its oscillator not yet started or its channels waiting for a restart; the
// whole period when fully on.
func (p *PCA9685) Pulse(ch int) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pulse(ch)
}

func (p *PCA9685) pulse(ch int) time.Duration {
	if !p.running() || p.reg[pcaMode1]&pcaRestart != 0 {
		return 0
	}
	base := pcaLED0 + 4*ch
	on := int(p.reg[base]) | int(p.reg[base+1]&0x0F)<<8
	off := int(p.reg[base+2]) | int(p.reg[base+3]&0x0F)<<8
	period := p.period()
	var width time.Duration
	switch {
	case p.reg[base+3]&pcaFullBit != 0: // full off has priority
	case p.reg[base+1]&pcaFullBit != 0:
		width = period
	default:
		ticks := (off - on + 4096) % 4096
		width = time.Duration(float64(ticks) * float64(period) / 4096)
	}
	if p.reg[pcaMode2]&pcaInvrt != 0 {
		width = period - width
	}
	return width
}

// Register returns the raw value of register a, for tests.
func (p *PCA9685) Register(a byte) byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reg[a]
}

// applyOutputs tells the servos their new pulses (called with the lock held).
func (p *PCA9685) applyOutputs() {
	now := p.clock.Now()
	for ch, s := range p.servos {
		if s != nil {
			s.command(now, p.pulse(ch))
		}
	}
}

// Supply is the servos' power supply: when more of its servos move at once than it can feed,
// it browns out (counted, for tests of the slew limit).
type Supply struct {
	// MaxMoving is the most servos that may move together without a brown-out (0: no limit).
	MaxMoving int

	mu        sync.Mutex
	servos    []*Servo
	brownouts int
	peak      int
}

// Brownouts returns how many times more servos moved at once than the supply can feed.
func (s *Supply) Brownouts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.brownouts
}

// PeakMoving returns the most servos seen moving at once.
func (s *Supply) PeakMoving() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

func (s *Supply) check(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, sv := range s.servos {
		if sv.movingAt(now) {
			n++
		}
	}
	s.peak = max(s.peak, n)
	if s.MaxMoving > 0 && n > s.MaxMoving {
		s.brownouts++
	}
}

// Servo is a simulated hobby servo turning a knob whose potentiometer an ADC can read. It
// follows its pulse at a finite speed; with no pulse it goes limp and stays where it is.
type Servo struct {
	MinPulse, MaxPulse time.Duration // pulses at the two ends of its travel (500-2500 us typical)
	Travel             float64       // degrees between the ends (180 typical)
	Speed              float64       // degrees per second (600: 0.1 s per 60 degrees)
	Deadband           time.Duration // pulse changes smaller than this do not move it
	Supply             *Supply       // its power supply, or nil

	clock     Clock
	mu        sync.Mutex
	pos       float64 // degrees from the MinPulse end
	target    float64
	pulse     time.Duration
	last      time.Time
	travelled float64 // degrees moved, in all
}

// NewServo returns a servo of 500-2500 us over 180 degrees at 600 degrees per second, with a
// 4 us deadband, standing at mid-travel, powered from supply (may be nil).
func NewServo(supply *Supply) *Servo {
	s := &Servo{MinPulse: 500 * time.Microsecond, MaxPulse: 2500 * time.Microsecond, Travel: 180, Speed: 600,
		Deadband: 4 * time.Microsecond, Supply: supply, pos: 90, target: 90, clock: WallClock{}}
	if supply != nil {
		supply.mu.Lock()
		supply.servos = append(supply.servos, s)
		supply.mu.Unlock()
	}
	return s
}

func (s *Servo) command(now time.Time, pulse time.Duration) {
	s.mu.Lock()
	s.update(now)
	d := pulse - s.pulse
	if pulse == 0 {
		s.target = s.pos // limp
		s.pulse = 0
	} else if d < -s.Deadband || d > s.Deadband || s.pulse == 0 {
		s.pulse = pulse
		f := float64(pulse-s.MinPulse) / float64(s.MaxPulse-s.MinPulse)
		s.target = s.Travel * math.Min(1, math.Max(0, f))
	}
	s.mu.Unlock()
	if s.Supply != nil {
		s.Supply.check(now)
	}
}

// update moves the servo to where it is at now (called with the lock held).
func (s *Servo) update(now time.Time) {
	dt := now.Sub(s.last).Seconds()
	s.last = now
	if dt <= 0 {
		return
	}
	step := float64(s.Speed * dt)
	from := s.pos
	switch {
	case s.pos < s.target:
		s.pos = math.Min(s.target, s.pos+step)
	case s.pos > s.target:
		s.pos = math.Max(s.target, s.pos-step)
	}
	s.travelled += math.Abs(s.pos - from)
}

func (s *Servo) movingAt(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.update(now)
	return s.pos != s.target
}

// Angle returns the servo's position now, in degrees from the MinPulse end.
func (s *Servo) Angle() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.update(s.clock.Now())
	return s.pos
}

// Travelled returns how far the servo has moved in all, in degrees (a sweep to both ends of
// the travel is at least one whole travel).
func (s *Servo) Travelled() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.update(s.clock.Now())
	return s.travelled
}

// Moving reports whether the servo is still travelling to its target.
func (s *Servo) Moving() bool { return s.movingAt(s.clock.Now()) }

// Fraction returns the knob's position as a fraction of the servo's travel, 0..1: what a
// potentiometer on the knob's shaft, wired across the reference, divides.
func (s *Servo) Fraction() float64 { return s.Angle() / s.Travel }
