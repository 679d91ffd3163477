package i2csim

import (
	"math"
	"math/rand/v2"
	"sync"
	"time"
)

// ADS1115 config register fields (datasheet section 8.6.3).
const (
	adsOS         = 0x8000
	adsModeSingle = 0x0100
)

var (
	adsRates = [8]float64{8, 16, 32, 64, 128, 250, 475, 860}
	adsFSR   = [8]float64{6.144, 4.096, 2.048, 1.024, 0.512, 0.256, 0.256, 0.256}
)

// ADS1115 is a simulated ADS1115 ADC. Its inputs are functions giving each pin's voltage. A
// single-shot conversion takes 1/data-rate on the chip's own oscillator, which runs OscError
// slow or fast (the datasheet allows 10%); until it ends the conversion register holds the
// previous result (maybe another channel's) and the config register's OS bit reads 0. It is
// safe for concurrent use.
type ADS1115 struct {
	clock Clock

	// OscError is the oscillator's relative error: conversions take (1 + OscError)/rate.
	// Default 0.05.
	OscError float64
	// Noise is the standard deviation of the input-referred noise, volts. Default 50 uV.
	Noise float64

	mu      sync.Mutex
	rng     *rand.Rand
	in      [4]func() float64
	ptr     byte
	config  uint16
	lo, hi  uint16
	conv    int16
	pending int16     // the result of the conversion under way
	doneAt  time.Time // when it ends (zero: none under way)
	convs   int
}

// NewADS1115 returns an ADC at power-up (power-down single-shot mode, AIN0-AIN1, +-2.048 V,
// 128 samples per second); seed draws its noise.
func NewADS1115(clock Clock, seed uint64) *ADS1115 {
	if clock == nil {
		clock = WallClock{}
	}
	return &ADS1115{clock: clock, OscError: 0.05, Noise: 50e-6, rng: rand.New(rand.NewPCG(seed, 0x1115)),
		config: 0x8583, lo: 0x8000, hi: 0x7FFF}
}

// SetInput connects pin AINch (0..3) to a voltage source (nil: ground).
func (a *ADS1115) SetInput(ch int, v func() float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.in[ch] = v
}

// Conversions returns how many conversions the chip has started.
func (a *ADS1115) Conversions() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.convs
}

func (a *ADS1115) pin(ch int) float64 {
	if a.in[ch] == nil {
		return 0
	}
	return a.in[ch]()
}

// sample converts the multiplexer's input now.
func (a *ADS1115) sample() int16 {
	var v float64
	switch mux := (a.config >> 12) & 7; mux {
	case 0:
		v = a.pin(0) - a.pin(1)
	case 1:
		v = a.pin(0) - a.pin(3)
	case 2:
		v = a.pin(1) - a.pin(3)
	case 3:
		v = a.pin(2) - a.pin(3)
	default:
		v = a.pin(int(mux - 4))
	}
	v += float64(a.rng.NormFloat64() * a.Noise)
	fsr := adsFSR[(a.config>>9)&7]
	code := math.Round(v / fsr * 32768)
	return int16(max(-32768, min(32767, code)))
}

func (a *ADS1115) convTime() time.Duration {
	rate := adsRates[(a.config>>5)&7]
	return time.Duration((1 + a.OscError) / rate * 1e9)
}

// settle ends a conversion whose time is up (called with the lock held). In continuous mode a
// new conversion follows each one.
func (a *ADS1115) settle() {
	now := a.clock.Now()
	for !a.doneAt.IsZero() && !now.Before(a.doneAt) {
		a.conv = a.pending
		if a.config&adsModeSingle != 0 {
			a.doneAt = time.Time{}
			a.config |= adsOS
			return
		}
		a.pending = a.sample()
		a.doneAt = a.doneAt.Add(a.convTime())
		if a.doneAt.Before(now) { // skip the conversions nobody could have read
			a.doneAt = now.Add(a.convTime())
		}
	}
}

// Tx implements Device.
func (a *ADS1115) Tx(w, r []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.settle()
	if len(w) > 0 {
		if w[0] > 3 {
			return errNACK
		}
		a.ptr = w[0]
		if len(w) >= 3 {
			v := uint16(w[1])<<8 | uint16(w[2])
			switch a.ptr {
			case 1:
				a.writeConfig(v)
			case 2:
				a.lo = v
			case 3:
				a.hi = v
			}
		}
	}
	if len(r) > 0 {
		var v uint16
		switch a.ptr {
		case 0:
			v = uint16(a.conv)
		case 1:
			v = a.config
		case 2:
			v = a.lo
		case 3:
			v = a.hi
		}
		for i := range r {
			if i%2 == 0 {
				r[i] = byte(v >> 8)
			} else {
				r[i] = byte(v)
			}
		}
	}
	return nil
}

func (a *ADS1115) writeConfig(v uint16) {
	start := v&adsOS != 0 && a.doneAt.IsZero()
	a.config = v &^ adsOS
	if !a.doneAt.IsZero() {
		return // OS reads 0 while a conversion is under way
	}
	if v&adsModeSingle == 0 || start {
		a.convs++
		a.pending = a.sample()
		a.doneAt = a.clock.Now().Add(a.convTime())
		return
	}
	a.config |= adsOS // idle
}
