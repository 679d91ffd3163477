package playground

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/machine"
)

// TestRetinaAsTrain: trained on a built-in set, the panel's machine makes the epochs and the
// training accuracy mark1 train --json reports for the same seed and cards, ideal and analog.
func TestRetinaAsTrain(t *testing.T) {
	bin, err := mark1Bin()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cfg    RetinaConfig
		epochs int
	}{
		{RetinaConfig{Set: "ef", Seed: 3}, 5},
		{RetinaConfig{Set: "leftright", Seed: 1, Analog: true}, 2},
		{RetinaConfig{Card: "builtin:xe/4", Seed: 7}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.cfg.Set+tt.cfg.Card, func(t *testing.T) {
			r, err := NewRetina(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := NewRetina(RetinaConfig{Set: r.cfg.Set, Seed: tt.cfg.Seed, Analog: tt.cfg.Analog})
			if err != nil {
				t.Fatal(err)
			}
			if err := fresh.Train("", tt.epochs); err != nil {
				t.Fatal(err)
			}
			st := fresh.State()
			args := strings.Fields(st.Command)[1:]
			out, err := exec.Command(bin, append(args, "--json")...).Output()
			if err != nil {
				t.Fatalf("%s: %v", st.Command, err)
			}
			var want struct {
				Epochs []machine.EpochStats `json:"epochs"`
				Train  *machine.Result      `json:"train"`
			}
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(st.Epochs, want.Epochs) || !reflect.DeepEqual(st.Accuracy, want.Train) {
				t.Errorf("%s:\npanel %+v %+v\nmark1 %+v %+v", st.Command, st.Epochs, st.Accuracy, want.Epochs, want.Train)
			}
		})
	}
}

// TestRetinaPanel: a drawing reaches the S-units cell for cell on the ideal machine, fires
// A-units and gets an answer; a correction changes the R-units' sums toward the class taught;
// the refusals say why.
func TestRetinaPanel(t *testing.T) {
	r, err := NewRetina(RetinaConfig{Set: "ef", Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st := r.State(); st.Answer != -1 || st.Shown != "" || len(st.AUnits) != 512 || len(st.Cells) != 400 || len(st.Sums) != st.RUnits {
		t.Fatalf("a new panel: %+v", st)
	}
	cells := make([]int, 400)
	for row := 3; row < 17; row++ { // an E: a bar down the left, three across
		cells[row*20+5], cells[row*20+6] = 1, 1
	}
	for _, row := range []int{3, 4, 9, 10, 15, 16} {
		for c := 5; c < 15; c++ {
			cells[row*20+c] = 1
		}
	}
	if err := r.Draw(cells); err != nil {
		t.Fatal(err)
	}
	st := r.State()
	if !reflect.DeepEqual(st.Cells, cells) || !reflect.DeepEqual(st.Drawing, cells) || st.Active == 0 || st.Answer < 0 || st.Shown != "drawing" {
		t.Fatalf("drawn: active %d, answer %d, cells as drawn %v", st.Active, st.Answer, reflect.DeepEqual(st.Cells, cells))
	}
	before := append([]float64(nil), st.Sums...)
	if err := r.Teach(1); err != nil {
		t.Fatal(err)
	}
	if err := r.Draw(cells); err != nil {
		t.Fatal(err)
	}
	after := r.State()
	if after.Trained != 1 || reflect.DeepEqual(after.Sums, before) {
		t.Errorf("taught F: trained %d, sums %v then %v", after.Trained, before, after.Sums)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{r.Draw(cells[:10]), "drawing: 10 cells, want 400"},
		{r.Teach(5), "teach: class 5: want 0..1 (E, F)"},
		{r.Show("builtin:xe/0"), "card builtin:xe/0: the machine answers the classes of ef"},
		{r.Show("builtin:ef/60"), "card builtin:ef/60: the set has 60 cards (0..59)"},
		{r.Show("ef/1"), `card "ef/1": want builtin:NAME/INDEX`},
		{r.Train("nothing", 1), `set nothing: builtin: unknown built-in set "nothing"`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
}
