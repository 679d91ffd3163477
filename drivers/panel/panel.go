package panel

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
)

// Source reads several inputs at once: bit i of the result is input i, set when pressed.
type Source interface {
	Read() (uint64, error)
	String() string
}

// Sink drives several outputs at once: bit i is output i, set when lit.
type Sink interface {
	Write(bits uint64) error
	String() string
}

type pinSource struct{ pins []gpio.PinIn }

// PinInputs returns the GPIO pins as a Source of active-low buttons, with their pull-ups on.
func PinInputs(pins []gpio.PinIn) (Source, error) {
	if len(pins) > 64 {
		return nil, errors.New("panel: more than 64 pins in one source")
	}
	for _, p := range pins {
		if err := p.In(gpio.PullUp, gpio.NoEdge); err != nil {
			return nil, fmt.Errorf("panel: %s: %w", p, err)
		}
	}
	return &pinSource{pins}, nil
}

func (s *pinSource) Read() (uint64, error) {
	var v uint64
	for i, p := range s.pins {
		if p.Read() == gpio.Low {
			v |= 1 << i
		}
	}
	return v, nil
}

func (s *pinSource) String() string { return fmt.Sprintf("%d GPIO pins", len(s.pins)) }

type pinSink struct{ pins []gpio.PinOut }

// PinLamps returns GPIO pins as a Sink of lamps (lit when high).
func PinLamps(pins []gpio.PinOut) Sink { return &pinSink{pins} }

func (s *pinSink) Write(bits uint64) error {
	for i, p := range s.pins {
		if err := p.Out(gpio.Level(bits&(1<<i) != 0)); err != nil {
			return fmt.Errorf("panel: %s: %w", p, err)
		}
	}
	return nil
}

func (s *pinSink) String() string { return fmt.Sprintf("%d GPIO pins", len(s.pins)) }

// Input is a named button or switch: bit Bit of source Source.
type Input struct {
	Name        string
	Source, Bit int
}

// Lamp is a named lamp: bit Bit of sink Sink.
type Lamp struct {
	Name      string
	Sink, Bit int
}

// Event is a debounced change of an input.
type Event struct {
	Name    string
	Pressed bool // pressed or switch closed; false: released or opened
}

// Opts configures a Panel.
type Opts struct {
	Debounce time.Duration // how long an input must hold a new level; default 30 ms
}

type inputState struct {
	stable, candidate bool
	since             time.Time
}

// Panel is an operator's panel. Its methods are safe for concurrent use.
type Panel struct {
	sources []Source
	inputs  []Input
	sinks   []Sink
	lamps   []Lamp
	opts    Opts

	mu      sync.Mutex
	state   []inputState
	lit     []uint64 // per sink, the bits wanted
	written []uint64 // per sink, the bits last written
	known   []bool
}

// New returns a panel of the given inputs and lamps. Names must be unique and refer to
// existing sources and sinks.
func New(sources []Source, inputs []Input, sinks []Sink, lamps []Lamp, opts *Opts) (*Panel, error) {
	o := Opts{}
	if opts != nil {
		o = *opts
	}
	if o.Debounce == 0 {
		o.Debounce = 30 * time.Millisecond
	}
	if o.Debounce < 0 {
		return nil, errors.New("panel: negative debounce")
	}
	seen := map[string]bool{}
	for _, in := range inputs {
		switch {
		case seen[in.Name] || in.Name == "":
			return nil, fmt.Errorf("panel: input %q: empty or given twice", in.Name)
		case in.Source < 0 || in.Source >= len(sources) || in.Bit < 0 || in.Bit > 63:
			return nil, fmt.Errorf("panel: input %q: no source %d bit %d", in.Name, in.Source, in.Bit)
		}
		seen[in.Name] = true
	}
	for _, l := range lamps {
		switch {
		case seen[l.Name] || l.Name == "":
			return nil, fmt.Errorf("panel: lamp %q: empty or given twice", l.Name)
		case l.Sink < 0 || l.Sink >= len(sinks) || l.Bit < 0 || l.Bit > 63:
			return nil, fmt.Errorf("panel: lamp %q: no sink %d bit %d", l.Name, l.Sink, l.Bit)
		}
		seen[l.Name] = true
	}
	return &Panel{sources: sources, inputs: inputs, sinks: sinks, lamps: lamps, opts: o,
		state: make([]inputState, len(inputs)), lit: make([]uint64, len(sinks)),
		written: make([]uint64, len(sinks)), known: make([]bool, len(sinks))}, nil
}

// Poll reads every source and returns the inputs' debounced changes at time now, in input
// order. A source that fails to read is skipped (its inputs keep their states) and its error
// returned, with the events of the others.
func (p *Panel) Poll(now time.Time) ([]Event, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	vals := make([]uint64, len(p.sources))
	ok := make([]bool, len(p.sources))
	var errs []error
	for i, s := range p.sources {
		v, err := s.Read()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		vals[i], ok[i] = v, true
	}
	var ev []Event
	for i, in := range p.inputs {
		if !ok[in.Source] {
			continue
		}
		st := &p.state[i]
		raw := vals[in.Source]&(1<<in.Bit) != 0
		if raw != st.candidate {
			st.candidate, st.since = raw, now
		}
		if st.candidate != st.stable && now.Sub(st.since) >= p.opts.Debounce {
			st.stable = st.candidate
			ev = append(ev, Event{Name: in.Name, Pressed: st.stable})
		}
	}
	return ev, oneLine(errs)
}

// Held reports whether the named input is (debounced) pressed or closed.
func (p *Panel) Held(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, in := range p.inputs {
		if in.Name == name {
			return p.state[i].stable
		}
	}
	return false
}

// SetLamp sets the named lamp (written by Flush). An unknown name is ignored.
func (p *Panel) SetLamp(name string, on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.lamps {
		if l.Name == name {
			if on {
				p.lit[l.Sink] |= 1 << l.Bit
			} else {
				p.lit[l.Sink] &^= 1 << l.Bit
			}
		}
	}
}

// Flush writes the sinks whose lamps changed (every sink the first time, and after a failed
// write).
func (p *Panel) Flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for i, s := range p.sinks {
		if p.known[i] && p.written[i] == p.lit[i] {
			continue
		}
		if err := s.Write(p.lit[i]); err != nil {
			p.known[i] = false
			errs = append(errs, err)
			continue
		}
		p.written[i], p.known[i] = p.lit[i], true
	}
	return oneLine(errs)
}

// Halt turns every lamp off.
func (p *Panel) Halt() error {
	p.mu.Lock()
	clear(p.lit)
	p.mu.Unlock()
	return p.Flush()
}

// oneLine returns the first error, saying how many more there were (nil for none).
func oneLine(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return fmt.Errorf("%w (and %d more)", errs[0], len(errs)-1)
}
