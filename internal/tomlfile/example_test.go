package tomlfile_test

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/internal/tomlfile"
)

// A reader walks the file, keeps its own rules (here: the keys of one [sound] section) and
// reads each value with a getter, naming the file, the line and the key when it cannot.
func ExampleWalk() {
	doc := "[sound]\non = true\nvolume = 8.0\nvoices = 2.0\n"
	seen := tomlfile.Lines{}
	err := tomlfile.Walk([]byte(doc), "museum.toml", func(e tomlfile.Expr) error {
		if e.Kind != tomlfile.KeyValue {
			return nil
		}
		if err := seen.Add(e.Key, e.Line); err != nil {
			return &tomlfile.Error{File: "museum.toml", Line: e.Line, Where: e.Key, Err: err}
		}
		var err error
		switch e.Key {
		case "on":
			var on bool
			on, err = e.Value.Bool()
			fmt.Println("on:", on)
		case "volume":
			var x float64
			x, err = e.Value.Float(0, 10)
			fmt.Println("volume:", x)
		case "voices":
			var n int64
			n, err = e.Value.Int(1, 8)
			fmt.Println("voices:", n)
		}
		if err != nil {
			return &tomlfile.Error{File: "museum.toml", Line: e.Line, Where: "sound." + e.Key, Err: err}
		}
		return nil
	})
	fmt.Println(err)
	// Output:
	// on: true
	// volume: 8
	// voices: 0
	// museum.toml:4: sound.voices: 2.0 is a float; write 2
}
