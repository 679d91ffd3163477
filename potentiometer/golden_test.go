package potentiometer

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/golden"
)

// goldenHeader heads testdata/golden-digest.txt: the SHA-256 digests of the bit patterns of
// TestGolden's sessions. They are the same on amd64 and arm64 (make arm64 runs this
// test under qemu): the rack uses internal/detmath for exp and normal deviates and forbids fused
// multiply-adds. A deliberate change of the model or of detmath changes them; update them then
// (-update), from amd64 and arm64 alike.
const goldenHeader = "# SHA-256 of the bit patterns of TestGolden's sessions, the same on amd64 and arm64.\n" +
	"# Regenerate after a deliberate change of the model or of detmath: go test ./potentiometer -run Golden -update\n"

var goldenFile = golden.File{Path: "testdata/golden-digest.txt", Header: goldenHeader, Sep: ": "}

// TestGolden runs a session of every kind of call on racks with every effect on, builds,
// drives, sums, drifts, warms up and saves, and compares a digest of every result's bits with
// the one recorded.
func TestGolden(t *testing.T) {
	ratchet := DefaultParams()
	ratchet.Drive, ratchet.TeethPerIncrement = DriveRatchet, 3
	got := map[string]string{}
	for name, p := range map[string]Params{"motor": DefaultParams(), "ratchet": ratchet} {
		h := sha256.New()
		put := func(xs ...float64) {
			for _, x := range xs {
				h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(x)))
			}
		}
		build, ctl, noise := newRNG(80), newRNG(81), newRNG(82)
		racks := []*Rack{mustRack(t, 64, p, build), mustRack(t, 64, p, build), mustRack(t, 64, p, build)}
		var active []uint16
		for step := range 4000 {
			active = randomActive(ctl, 64, 0.3, active)
			for _, r := range racks {
				s := r.Sum(active, noise)
				put(s)
				y := float64(2*ctl.IntN(2) - 1)
				if step%2 == 0 {
					r.Drive(active, y, 0, noise)
				} else {
					N, a := 65.0, float64(len(active)+1)
					r.Drive(active, y*(N-a)/N, -y*a/N, noise)
				}
				r.Advance(3, noise)
				put(r.Gain())
			}
		}
		for _, r := range racks {
			st := r.State()
			put(st.Motor...)
			put(st.Wiper...)
			put(st.MotorGain...)
			put(st.TrackGain...)
			put(st.Time, st.DriftElapsed, st.TrackFactor, st.WarmLeft)
			put(st.RatchetRemainder...)
			put(readings(r)...)
		}
		got[name] = hex.EncodeToString(h.Sum(nil))
	}
	goldenFile.Check(t, golden.Sorted(got))
}
