package rig

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"time"

	"github.com/mark1-perceptron/mark1/internal/regfile"
	"github.com/mark1-perceptron/mark1/internal/tomlfile"
)

var (
	singleSections = map[string]bool{"rig": true, "machine": true, "panel": true}
	arraySections  = map[string]bool{"bus": true, "pca9685": true, "mcp44x1": true, "ads1115": true, "gpio_servo": true, "mcp23017": true, "pot": true}
	knownKeys      = map[string][]string{
		"rig":        {"mode", "update_hz", "watchdog_ms", "on_watchdog", "check_s", "retries", "backoff_ms", "fault_retry_s", "tolerance", "max_corrections", "nv_save_s"},
		"machine":    {"a_units", "r_units", "wiring", "seed", "rule", "data", "epochs"},
		"bus":        {"name", "device"},
		"pca9685":    {"name", "bus", "address", "frequency_hz", "oscillator_hz", "max_slewing", "speed"},
		"mcp44x1":    {"name", "bus", "address", "model", "step_commands"},
		"ads1115":    {"name", "bus", "address", "data_rate", "full_scale_v"},
		"gpio_servo": {"name", "pin"},
		"mcp23017":   {"name", "bus", "address"},
		"pot":        {"weight", "out", "readback", "count", "range", "min_us", "max_us", "trim_us", "reverse", "park"},
		"panel":      {"debounce_ms", "poll_ms", "train", "test", "stop", "reset", "force", "lamps", "fault_lamp"},
	}
)

func sectionList() string {
	return "rig, machine, panel, [[bus]], [[pca9685]], [[mcp44x1]], [[ads1115]], [[gpio_servo]], [[mcp23017]] or [[pot]]"
}

// Default returns the settings a rig file's [rig] section starts from.
func Default() Rig {
	return Rig{Mode: ModeMirror, UpdateHz: 20, Watchdog: 2 * time.Second, OnWatchdog: Hold, Check: 2 * time.Second,
		Retries: 2, Backoff: 2 * time.Millisecond, FaultRetry: time.Second, Tolerance: 0.5, MaxCorrections: 4,
		NVSave: 10 * time.Minute}
}

// ReadFile reads and checks the rig file at path; only a regular file is read.
func ReadFile(path string) (*Rig, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads and checks a rig file; name is used in error messages (and to find a wiring
// file named relative to it). At most MaxFile bytes are read; a UTF-8 byte-order mark is
// skipped.
func Parse(r io.Reader, name string) (*Rig, error) {
	data, err := tomlfile.ReadAll(r, name, MaxFile, "a rig file")
	if err != nil {
		return nil, err
	}
	tables, err := parseTOML(data, name)
	if err != nil {
		return nil, err
	}
	rg := Default()
	rg.File = name
	var rigSeen bool
	for _, t := range tables {
		f := &fields{file: name, t: t}
		switch t.name {
		case "rig":
			rigSeen = true
			rg.decode(f)
		case "machine":
			rg.Machine = decodeMachine(f)
		case "bus":
			b := Bus{Line: t.line}
			f.str("name", &b.Name, true)
			f.str("device", &b.Device, true)
			rg.Buses = append(rg.Buses, b)
		case "pca9685":
			c := PCA9685{Chip: chip(f, 0x40, 0x7F), FrequencyHz: 50, OscillatorHz: 25e6, Speed: 1.5}
			if c.Address >= 0x78 {
				f.fail("address", f.line("address"), "0x%02x is reserved by the I2C specification (0x78-0x7f: 10-bit addressing and future use): a PCA9685 takes 0x40-0x77, but 0x70", c.Address)
			}
			f.float("frequency_hz", &c.FrequencyHz, 24, 1526)
			f.float("oscillator_hz", &c.OscillatorHz, 20e6, 30e6)
			f.int("max_slewing", &c.MaxSlewing, 0, 16, false)
			f.float("speed", &c.Speed, 0.01, 100)
			rg.PCA9685 = append(rg.PCA9685, c)
		case "mcp44x1":
			c := MCP44x1{Chip: chip(f, 0x2C, 0x2F), Model: "MCP4451", StepCommands: true}
			f.oneOf("model", &c.Model, "MCP4451", "MCP4461")
			f.bool("step_commands", &c.StepCommands)
			rg.MCP44x1 = append(rg.MCP44x1, c)
		case "ads1115":
			c := ADS1115{Chip: chip(f, 0x48, 0x4B), DataRate: 860, FullScaleV: 4.096}
			f.int("data_rate", &c.DataRate, 8, 860, false)
			f.float("full_scale_v", &c.FullScaleV, 0.256, 6.144)
			rg.ADS1115 = append(rg.ADS1115, c)
		case "gpio_servo":
			s := GPIOServo{Line: t.line}
			f.str("name", &s.Name, true)
			f.str("pin", &s.Pin, true)
			if msg := servoPin(s.Pin); msg != "" && f.err == nil {
				f.fail("pin", f.line("pin"), "%s", msg)
			}
			rg.GPIOServos = append(rg.GPIOServos, s)
		case "mcp23017":
			rg.MCP23017 = append(rg.MCP23017, MCP23017{chip(f, 0x20, 0x27)})
		case "pot":
			pots, err := decodePots(f, len(rg.Pots))
			if err != nil {
				return nil, err
			}
			rg.Pots = append(rg.Pots, pots...)
		case "panel":
			rg.Panel = decodePanel(f)
		}
		if err := f.done(); err != nil {
			return nil, err
		}
	}
	if !rigSeen {
		return nil, tomlfile.Errorf(name, 1, "", "no [rig] section: not a rig file")
	}
	if err := rg.validate(); err != nil {
		return nil, err
	}
	return &rg, nil
}

func (rg *Rig) decode(f *fields) {
	f.oneOf("mode", &rg.Mode, ModeMirror, ModeLoop)
	f.float("update_hz", &rg.UpdateHz, 1, 200)
	f.dur("watchdog_ms", &rg.Watchdog, time.Millisecond, 0, 3600e3)
	f.oneOf("on_watchdog", &rg.OnWatchdog, Hold, Park)
	f.dur("check_s", &rg.Check, time.Second, 0.1, 3600)
	f.int("retries", &rg.Retries, 0, 10, false)
	f.dur("backoff_ms", &rg.Backoff, time.Millisecond, 0, 1000)
	f.dur("fault_retry_s", &rg.FaultRetry, time.Second, 0.01, 3600)
	f.float("tolerance", &rg.Tolerance, 0.01, 100)
	f.int("max_corrections", &rg.MaxCorrections, 0, 100, false)
	f.dur("nv_save_s", &rg.NVSave, time.Second, 1, 7*24*3600)
	if rg.Watchdog > 0 && rg.Watchdog < 2*time.Duration(float64(time.Second)/rg.UpdateHz) && f.err == nil {
		f.fail("watchdog_ms", f.line("watchdog_ms"), "%v is shorter than two update periods", rg.Watchdog)
	}
	if rg.Mode == ModeLoop && rg.OnWatchdog == Park && f.err == nil {
		f.fail("on_watchdog", f.line("on_watchdog"), "%q in a loop rig: its pots are its machine's weights, and parking them would erase what it learnt: use %q", Park, Hold)
	}
}

func decodeMachine(f *fields) *Machine {
	m := &Machine{Line: f.t.line, AUnits: 15, RUnits: 1, Wiring: "random", Seed: 1, Rule: "alpha", Epochs: 10}
	f.int("a_units", &m.AUnits, 1, 65536, false)
	f.int("r_units", &m.RUnits, 1, 64, false)
	f.str("wiring", &m.Wiring, false)
	var seed int
	f.int("seed", &seed, 0, 1<<53, false)
	if _, ok := f.t.keys["seed"]; ok {
		m.Seed = uint64(seed)
	}
	f.oneOf("rule", &m.Rule, "alpha", "gamma", "forced")
	f.str("data", &m.Data, false)
	f.int("epochs", &m.Epochs, 1, 100000, false)
	return m
}

// servoPin tells why a GPIO servo cannot be on pin ("" when it can). Of a Raspberry Pi's
// header pins only GPIO12, 13, 18 and 19 carry PWM; periph (host v3.8.5, bcm283x) drives GPIO13
// and GPIO19 from PWM1, the hardware channel, but GPIO12 and GPIO18 by DMA in 5 us steps
// (PWM0 clocks the DMA).
func servoPin(pin string) string {
	switch pin {
	case "GPIO13", "GPIO19":
		return ""
	case "GPIO12", "GPIO18":
		return fmt.Sprintf("%q is PWM0, which periph drives by DMA in 5 us steps, not as hardware PWM (PWM0 clocks its DMA): use GPIO13 or GPIO19 (PWM1), or better a PCA9685 channel", pin)
	}
	return fmt.Sprintf("%q has no hardware PWM: a servo on a Raspberry Pi's own pins needs GPIO13 or GPIO19 (PWM1); or use a PCA9685 channel", pin)
}

func chip(f *fields, lo, hi uint16) Chip {
	c := Chip{Line: f.t.line}
	f.str("name", &c.Name, true)
	f.str("bus", &c.Bus, true)
	f.addr("address", &c.Address, lo, hi)
	return c
}

var (
	weightRE = regexp.MustCompile(`^R(\d+)\.(?:A(\d+)|(bias))$`)
	refRE    = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)(?::(\d+))?$`)
)

func decodePots(f *fields, have int) ([]Pot, error) {
	p := Pot{Line: f.t.line, Range: 32, MinPulse: time.Millisecond, MaxPulse: 2 * time.Millisecond, Park: 0.5}
	var weight, out, rb string
	count := 1
	f.str("weight", &weight, true)
	f.str("out", &out, true)
	f.str("readback", &rb, false)
	f.int("count", &count, 1, MaxPots, false)
	f.float("range", &p.Range, 0.001, 1e6)
	f.dur("min_us", &p.MinPulse, time.Microsecond, 100, 5000)
	f.dur("max_us", &p.MaxPulse, time.Microsecond, 100, 5000)
	f.dur("trim_us", &p.Trim, time.Microsecond, -1000, 1000)
	f.bool("reverse", &p.Reverse)
	f.float("park", &p.Park, 0, 1)
	if f.err != nil {
		return nil, f.err
	}
	if have+count > MaxPots {
		f.fail("count", f.line("count"), "more than %d pots in the rig", MaxPots)
		return nil, f.err
	}
	m := weightRE.FindStringSubmatch(weight)
	if m == nil {
		f.fail("weight", f.line("weight"), "%q: want R<unit>.A<unit> or R<unit>.bias (R0.A17, R0.bias)", weight)
		return nil, f.err
	}
	r, err1 := strconv.Atoi(m[1])
	a, err2 := strconv.Atoi(m[2])
	switch {
	case err1 != nil || r >= 64:
		f.fail("weight", f.line("weight"), "%q: R-unit out of range 0..63", weight)
	case m[3] == "bias" && count > 1:
		f.fail("count", f.line("count"), "a bias pot is one pot (count %d)", count)
	case m[3] == "bias":
		a = Bias
	case err2 != nil || a+count > 65536:
		f.fail("weight", f.line("weight"), "%q: A-unit out of range 0..65535", weight)
	}
	if p.MinPulse >= p.MaxPulse {
		f.fail("max_us", f.line("max_us"), "%v is not above min_us %v", p.MaxPulse, p.MinPulse)
	}
	outRef := parseRef(f, "out", out)
	var rbRef *Ref
	if rb != "" {
		rr := parseRef(f, "readback", rb)
		rbRef = &rr
	}
	if f.err != nil {
		return nil, f.err
	}
	pots := make([]Pot, 0, count)
	for i := range count {
		q := p
		q.Weight = Weight{R: r, A: a}
		if a != Bias {
			q.Weight.A = a + i
		}
		q.Out = outRef
		if outRef.Channel >= 0 {
			q.Out.Channel += i
		} else if count > 1 {
			f.fail("count", f.line("count"), "%s has one channel (count %d)", outRef.Chip, count)
			return nil, f.err
		}
		if rbRef != nil {
			rr := *rbRef
			rr.Channel += i
			q.Readback = &rr
		}
		pots = append(pots, q)
	}
	return pots, nil
}

func parseRef(f *fields, key, s string) Ref {
	m := refRE.FindStringSubmatch(s)
	if m == nil {
		f.fail(key, f.line(key), "%q: want CHIP:CHANNEL (servos:3) or a GPIO servo's name", s)
		return Ref{}
	}
	r := Ref{Chip: m[1], Channel: -1}
	if m[2] != "" {
		c, err := strconv.Atoi(m[2])
		if err != nil || c > 65535 {
			f.fail(key, f.line(key), "%q: channel out of range", s)
		}
		r.Channel = c
	}
	return r
}

func decodePanel(f *fields) *Panel {
	p := &Panel{Line: f.t.line, Debounce: 30 * time.Millisecond, Poll: 10 * time.Millisecond}
	f.dur("debounce_ms", &p.Debounce, time.Millisecond, 1, 1000)
	f.dur("poll_ms", &p.Poll, time.Millisecond, 1, 1000)
	for _, k := range []struct {
		key string
		dst *string
	}{{"train", &p.Train}, {"test", &p.Test}, {"stop", &p.Stop}, {"reset", &p.Reset}, {"fault_lamp", &p.FaultLamp}} {
		f.str(k.key, k.dst, false)
	}
	f.strs("force", &p.Force)
	f.strs("lamps", &p.Lamps)
	if len(p.Force) > 64 || len(p.Lamps) > 64 {
		f.fail("force", f.t.line, "at most 64 switches and 64 lamps")
	}
	return p
}
