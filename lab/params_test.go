package lab

import (
	"fmt"
	"testing"
)

// testParams are parameters of every kind and range.
var testParams = []Param{
	{Name: "epochs", Kind: Int, Default: "20", Min: 1, Max: 100, Help: "h"},
	{Name: "seed", Kind: Uint, Default: "1", Min: 1, Want: "seeds start at 1", Help: "h"},
	{Name: "margin", Kind: Float, Default: "0.05", Min: 0, MinOpen: true, Max: 0.5, MaxOpen: true, Want: "want 0 < G < 0.5", Help: "h"},
	{Name: "noise", Kind: Float, Default: "0.7", Min: 0, MinOpen: true, Max: 10, Want: "want 0 < S <= 10", Help: "h"},
	{Name: "eta", Kind: Float, Default: "1", Help: "h"},
	{Name: "method", Kind: String, Default: "lsq", Choices: []string{"lsq", "perceptron"}, Want: "want lsq or perceptron", Help: "h"},
	{Name: "no-cards", Kind: Bool, Help: "h"},
	{Name: "counts", Kind: Floats, Default: "512,4096", Min: 1, Max: 65536, Whole: true, Want: "want whole numbers of A-units, 1..65536", Help: "h"},
	{Name: "point", Kind: Points, Help: "h"},
	{Name: "data", Kind: Cards, Default: "builtin:letters", Required: true, Help: "h"},
	{Name: "test", Kind: Cards, Default: "gen:letters", DefaultWith: "data", Help: "h"},
}

// TestValues: the defaults, values given, and the default that goes with another's.
func TestValues(t *testing.T) {
	v := NewValues(testParams)
	got := fmt.Sprintln(v.Int("epochs"), v.Uint("seed"), v.Float("margin"), v.String("method"), v.Bool("no-cards"), v.Floats("counts"), v.Points("point"), v.String("data"), v.String("test"), v.Given("epochs"))
	if want := "20 1 0.05 lsq false [512 4096] [] builtin:letters gen:letters false\n"; got != want {
		t.Errorf("defaults: %s, want %s", got, want)
	}
	for _, s := range [][2]string{{"epochs", "7"}, {"no-cards", "true"}, {"point", "1,2,+1"}, {"point", "0,1,-1"}, {"counts", "64, 128"}, {"data", "builtin:ef"}} {
		if err := v.Set(s[0], s[1]); err != nil {
			t.Fatal(err)
		}
	}
	got = fmt.Sprintln(v.Int("epochs"), v.Bool("no-cards"), v.Points("point"), v.Floats("counts"), v.String("data"), v.String("test"), v.Given("epochs"))
	if want := "7 true [1,2,+1 0,1,-1] [64 128] builtin:ef  true\n"; got != want {
		t.Errorf("given: %s, want %s", got, want)
	}
	if err := v.Set("test", "builtin:ef"); err != nil || v.String("test") != "builtin:ef" {
		t.Errorf("--test given: %q, %v", v.String("test"), err)
	}
}

// TestValuesCheck: each value out of its range, or not of its kind, is refused with one line
// naming the parameter, as mark1 prints it.
func TestValuesCheck(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"epochs", "0", "--epochs 0: want 1..100"},
		{"epochs", "101", "--epochs 101: want 1..100"},
		{"epochs", "x", `--epochs "x": want a whole number`},
		{"seed", "0", "--seed 0: seeds start at 1"},
		{"margin", "0.5", "--margin 0.5: want 0 < G < 0.5"},
		{"margin", "0", "--margin 0: want 0 < G < 0.5"},
		{"margin", "NaN", "--margin NaN: want 0 < G < 0.5"},
		{"noise", "0", "--noise 0: want 0 < S <= 10"},
		{"noise", "10.5", "--noise 10.5: want 0 < S <= 10"},
		{"method", "svm", `--method "svm": want lsq or perceptron`},
		{"counts", "0", "--counts 0: want whole numbers of A-units, 1..65536"},
		{"counts", "2.5", "--counts 2.5: want whole numbers of A-units, 1..65536"},
		{"counts", "1,x", `--counts "1,x": want numbers separated by commas`},
		{"counts", ",", "--counts: want at least one number"},
		{"no-cards", "maybe", `--no-cards "maybe": want true or false`},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			v := NewValues(testParams)
			err := v.Set(tc.name, tc.value)
			if err == nil {
				err = v.Check()
			}
			if err == nil || err.Error() != tc.want || !IsParamError(err) {
				t.Errorf("%v, want %q", err, tc.want)
			}
		})
	}
	for _, ok := range [][2]string{{"noise", "10"}, {"epochs", "100"}, {"eta", "-3"}, {"counts", "1,65536"}, {"method", "perceptron"}} {
		t.Run(ok[0]+"="+ok[1], func(t *testing.T) {
			v := NewValues(testParams)
			if err := v.Set(ok[0], ok[1]); err != nil {
				t.Fatal(err)
			}
			if err := v.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestQuickRefusal: a quick run refuses the parameters it sets, every one given, by name.
func TestQuickRefusal(t *testing.T) {
	d := Demo{Name: "d", Quick: &Quick{Sets: "data and sizes"}, Params: []Param{
		{Name: "a", Kind: Int, Default: "1", Min: 0, Max: 9, QuickSets: true},
		{Name: "b", Kind: Int, Default: "1", Min: 0, Max: 9},
		{Name: "c", Kind: Int, Default: "1", Min: 0, Max: 9, QuickSets: true},
	}}
	v := d.Defaults().Values
	if err := d.QuickRefusal(v); err != nil {
		t.Errorf("nothing given: %v", err)
	}
	v.Set("b", "2")
	if err := d.QuickRefusal(v); err != nil {
		t.Errorf("--b given: %v", err)
	}
	v.Set("c", "2")
	v.Set("a", "2")
	if err := d.QuickRefusal(v); fmt.Sprint(err) != "--quick runs the demo's own data and sizes: leave out --a, --c" {
		t.Errorf("--a and --c given: %v", err)
	}
}
