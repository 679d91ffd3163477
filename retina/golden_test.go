package retina

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/golden"
)

// TestGoldenDigest digests, for several parameter sets, the stimuli of real cards (Light and G
// bit for bit), the S-states of a noisy sequence of presentations and the final state. The
// digests must be the same on every architecture (make arm64 runs this test under
// qemu-aarch64); they change only when the model does (then run go test -run GoldenDigest
// -update, and say why in the commit).
func TestGoldenDigest(t *testing.T) {
	all := realCards(t)
	cards := append(all[:200:200], all[len(all)-100:]...)
	cards = append(cards, letterCards()...)
	configs := []struct {
		name string
		f    func(*Params)
	}{
		{"default", nil},
		{"ideal", func(p *Params) { *p = IdealParams() }},
		{"neutral", func(p *Params) { *p = NeutralParams() }},
		{"rotated 23, shifted", func(p *Params) { p.Rotation, p.OffsetX, p.Scale = 23, 1.5, 0.9 }},
		{"quarter turn, wide blur", func(p *Params) { p.Rotation, p.Blur = 90, 1.3 }},
		{"strong flaws, dark", func(p *Params) {
			p.Polarity, p.Gamma, p.Spread, p.DarkNoise, p.Lamp = DarkFigure, 0.6, 0.2, 0.05, 1.3
		}},
	}
	var digests []golden.Digest
	for _, c := range configs {
		p := DefaultParams()
		if c.f != nil {
			c.f(&p)
		}
		r := newRetina(t, p, 1)
		h := sha256.New()
		stim := make([]Stimulus, len(cards))
		for k, img := range cards {
			r.Prepare(img, &stim[k])
			binary.Write(h, binary.LittleEndian, stim[k].Light[:])
			binary.Write(h, binary.LittleEndian, stim[k].G[:])
			h.Write([]byte{byte(stim[k].Polarity())})
		}
		noise := rand.New(rand.NewPCG(7, 8))
		var out Bits
		for k := range 2 * len(stim) {
			r.Expose(&stim[(k*13)%len(stim)], []float64{3, 0.2, 1.5}[k%3], noise, &out)
			binary.Write(h, binary.LittleEndian, out[:])
		}
		st := r.State()
		binary.Write(h, binary.LittleEndian, st.Sensitivity)
		binary.Write(h, binary.LittleEndian, st.Level)
		digests = append(digests, golden.Digest{Name: c.name, Sum: hex.EncodeToString(h.Sum(nil))})
	}
	golden.File{Path: "testdata/golden-digest.txt", Sep: ": "}.Check(t, digests)
}
