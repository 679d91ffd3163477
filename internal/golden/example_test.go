package golden_test

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/internal/golden"
)

// A package's golden test digests its results by name and hands them to File.Check
// (file.Check(t, golden.Sorted(got))), which compares them with the file name by name, or
// rewrites the file under -update with the text Format gives.
func ExampleFile() {
	file := golden.File{
		Path:   "testdata/golden-digest.txt",
		Header: "# SHA-256 of the racks' sessions. Regenerate: go test ./potentiometer -run Golden -update\n",
		Sep:    ": ",
	}
	got := map[string]string{"ratchet": "44f836f9", "motor": "271cf50f"}
	fmt.Print(file.Format(golden.Sorted(got)))
	back, err := file.Parse(file.Format(golden.Sorted(got)))
	fmt.Println(back, err)
	// Output:
	// # SHA-256 of the racks' sessions. Regenerate: go test ./potentiometer -run Golden -update
	// motor: 271cf50f
	// ratchet: 44f836f9
	// [{motor 271cf50f} {ratchet 44f836f9}] <nil>
}
