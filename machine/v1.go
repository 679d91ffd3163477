package machine

import (
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/potentiometer"
	"github.com/mark1-perceptron/mark1/retina"
)

// v1Config is the configuration a version 1 state file's body is read over: for the parameters
// version 1 did not have, the values that give version 1's behaviour (cards in file order, the
// continuous motor drive, racks that all warm up alike).
func v1Config() Config {
	c := Config{Order: OrderFile}
	c.Pots = potentiometer.DefaultParams()
	c.Pots.TrackSpread = 0
	return c
}

// migrateV1 brings the hidden state of a version 1 file into the gear-true model: each rack's
// state is upgraded (a wiper that drifted alone keeps its place and its motor side follows it
// into the play; see potentiometer.UpgradeState). An ideal version 1 machine continues bit for
// bit; an analog one continues under the new model.
func migrateV1(st *state) {
	if st.Config.Pots.Ideal {
		st.Config.Pots = potentiometer.IdealParams()
	}
	for r, rs := range st.Racks {
		st.Racks[r] = potentiometer.UpgradeState(st.Config.Pots, rs)
	}
	// Version 1 computed the cells' power law with the standard library, which can round a
	// level a little above what the portable one gives for the same light: bring every level
	// within its cell's largest conductance.
	if ret, err := retina.New(st.Config.Retina, rand.New(rand.NewPCG(st.Config.Seed, streamRetina))); err == nil && len(st.Retina.Sensitivity) == len(st.Retina.Level) {
		top := ret.LampLevel()
		for i, v := range st.Retina.Level {
			st.Retina.Level[i] = min(v, st.Retina.Sensitivity[i]*top)
		}
	}
}
