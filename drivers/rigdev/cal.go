package rigdev

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/internal/regfile"
)

// calVersion is the calibration file's format.
const calVersion = 1

// maxCalFile is the largest calibration file read.
const maxCalFile = 1 << 20

// calFile is what a calibration file holds: the ends found for each pot with a read-back.
type calFile struct {
	Version int      `json:"version"`
	Rig     string   `json:"rig"` // the rig file it was made for, for a reader
	Pots    []calPot `json:"pots"`
}

// calPot is one pot's ends. An entry counts only for a pot whose weight, output, read-back and
// drive (what decides where its ends are) are all the same as the rig file's now.
type calPot struct {
	Weight   string    `json:"weight"`
	Out      string    `json:"out"`
	Readback string    `json:"readback"`
	Drive    string    `json:"drive"`
	V0       float64   `json:"v0"` // volts read at position 0
	V1       float64   `json:"v1"` // and at 1
	Time     time.Time `json:"time"`
}

// drive describes what decides where a pot's ends are: a servo's pulses at both ends (and the
// board's rate and oscillator, which turn them into counts), a digital pot's model.
func (p *Pot) drive() string {
	switch {
	case p.pca != nil:
		return fmt.Sprintf("servo min_us=%d max_us=%d trim_us=%d reverse=%v frequency_hz=%g oscillator_hz=%g",
			p.spec.MinPulse.Microseconds(), p.spec.MaxPulse.Microseconds(), p.spec.Trim.Microseconds(), p.spec.Reverse,
			float64(p.pca.opts.Frequency)/1e9, float64(p.pca.opts.Oscillator)/1e9)
	case p.mcp != nil:
		return "digipot " + p.mcp.kind
	}
	return fmt.Sprintf("gpio_servo min_us=%d max_us=%d trim_us=%d reverse=%v",
		p.spec.MinPulse.Microseconds(), p.spec.MaxPulse.Microseconds(), p.spec.Trim.Microseconds(), p.spec.Reverse)
}

func (p *Pot) calKey() string {
	return p.name + "|" + p.spec.Out.String() + "|" + p.spec.Readback.String() + "|" + p.drive()
}

// usableEnds reports whether two end readings can calibrate a pot.
func usableEnds(v0, v1 float64) bool {
	ok := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) <= 10 }
	return ok(v0) && ok(v1) && math.Abs(v1-v0) >= 0.05
}

// readCal reads a calibration file: its entries by key. A missing file is no entry and no error.
func readCal(path string) (map[string]calPot, error) {
	f, err := regfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCalFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxCalFile {
		return nil, fmt.Errorf("%s: larger than %d bytes: not a calibration file", path, maxCalFile)
	}
	var cf calFile
	if err := json.Unmarshal(data, &cf); err != nil {
		return nil, fmt.Errorf("%s: not a calibration file: %w", path, err)
	}
	if cf.Version != calVersion {
		return nil, fmt.Errorf("%s: calibration format %d, want %d", path, cf.Version, calVersion)
	}
	m := map[string]calPot{}
	for _, e := range cf.Pots {
		if !usableEnds(e.V0, e.V1) {
			continue
		}
		k := e.Weight + "|" + e.Out + "|" + e.Readback + "|" + e.Drive
		if old, ok := m[k]; !ok || e.Time.After(old.Time) {
			m[k] = e
		}
	}
	return m, nil
}

// writeCal writes the calibrated pots' ends to path, atomically.
func writeCal(path, rigFile string, entries []calPot) error {
	sort.Slice(entries, func(i, j int) bool { return entries[i].Weight < entries[j].Weight })
	cf := calFile{Version: calVersion, Rig: rigFile, Pots: entries}
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(cf)
	})
}

// calibrateAtOpen gives every pot with a read-back its ends (called with the lock held, at
// Open): those stored in the environment's calibration files, for the pots whose entry matches
// the rig file, are checked (each pot, once at its first position, must read back within the
// rig's tolerance of it); the others, those that fail the check, and all of them when
// Env.Recalibrate is set, are swept to both ends. The result is written to Env.CalFile when a
// sweep found anything new.
func (h *Hardware) calibrateAtOpen() {
	var pots []*Pot
	for _, p := range h.pots {
		if p.adc != nil {
			pots = append(pots, p)
		}
	}
	if len(pots) == 0 {
		return
	}
	files := h.env.CalRead
	if h.env.CalFile != "" {
		files = append([]string{h.env.CalFile}, files...)
	}
	stored := map[string]calPot{}
	where := map[string]string{}
	if !h.env.Recalibrate {
		for _, f := range files {
			m, err := readCal(f)
			if err != nil {
				h.env.Logger.Warn(fmt.Sprintf("calibration: %v: every read-back pot it would have given is swept", err))
				continue
			}
			for k, e := range m {
				if old, ok := stored[k]; !ok || e.Time.After(old.Time) {
					stored[k], where[k] = e, f
				}
			}
		}
	}
	h.calTime = map[*Pot]time.Time{}
	var sweep, fromFile []*Pot
	changed := false
	for _, p := range pots {
		e, ok := stored[p.calKey()]
		if !ok {
			sweep = append(sweep, p)
			continue
		}
		p.v0, p.v1, p.calibrated = e.V0, e.V1, true
		h.calTime[p] = e.Time
		fromFile = append(fromFile, p)
		changed = changed || where[p.calKey()] != h.env.CalFile
	}
	var failed []string
	if len(fromFile) > 0 {
		for _, p := range h.checkEnds(fromFile) {
			p.calibrated = false
			sweep = append(sweep, p)
			failed = append(failed, p.name)
		}
	}
	if len(sweep) > 0 {
		h.sweep(sweep)
		for _, p := range sweep {
			if p.calibrated {
				h.calTime[p] = h.env.Clock.Now()
				changed = true
			}
		}
	}
	h.settleLocked(10*time.Second, true)
	h.errs = nil
	if len(files) == 0 {
		return
	}
	msg := fmt.Sprintf("calibration: %d read-back pots, %d from %s, %d swept", len(pots), len(fromFile)-len(failed), strings.Join(files, " and "), len(sweep))
	if len(failed) > 0 {
		msg += fmt.Sprintf(" (%s read back off their stored ends: swept again)", strings.Join(failed, ", "))
	}
	if changed && h.env.CalFile != "" {
		var entries []calPot
		for _, p := range pots {
			if p.calibrated {
				entries = append(entries, calPot{Weight: p.name, Out: p.spec.Out.String(), Readback: p.spec.Readback.String(),
					Drive: p.drive(), V0: p.v0, V1: p.v1, Time: h.calTime[p].UTC()})
			}
		}
		if err := writeCal(h.env.CalFile, h.spec.File, entries); err != nil {
			msg += fmt.Sprintf("; not saved: %v (the next start sweeps them again)", err)
		} else {
			msg += "; saved to " + h.env.CalFile
		}
	}
	h.env.Logger.Info(msg)
}

// checkEnds moves the pots to their first targets and reads each back once: it returns those
// whose reading disagrees with the position commanded by more than the rig's tolerance (their
// stored ends are wrong: a knob that slipped, a pot rewired); the others are where they should
// be, and that reading is the closed loop's. A pot that cannot be read now (its chip or ADC
// faulty) keeps its stored ends. Called with the lock held.
func (h *Hardware) checkEnds(pots []*Pot) (failed []*Pot) {
	h.settleLocked(10*time.Second, false)
	now := h.env.Clock.Now()
	for _, p := range pots {
		if !p.hasTarget || p.outState().faulty || p.adc.faulty || p.adc.dev == nil || p.phase == writing || !p.settled(now) {
			continue
		}
		pos, err := h.readBack(p, now)
		if err != nil {
			continue
		}
		if miss := math.Abs(pos-p.cmd) * 2 * p.spec.Range; !(miss <= h.spec.Tolerance) { // NaN fails
			h.emit(Event{Kind: "calibration_check", Pot: p.name, Message: fmt.Sprintf(
				"at position %.3f it reads %.3f with its stored ends (%.3f V, %.3f V): %.3g increments off, beyond the tolerance %g: swept again",
				p.cmd, pos, p.v0, p.v1, miss, h.spec.Tolerance)})
			failed = append(failed, p)
			continue
		}
		if p.phase == settling {
			p.phase = idle // read back at its target: the closed loop has nothing to do
		}
	}
	return failed
}
