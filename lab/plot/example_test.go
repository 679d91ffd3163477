package plot_test

import (
	"fmt"
	"os"

	"github.com/mark1-perceptron/mark1/lab/plot"
)

// A learning curve: the figure is its data, written here as CSV (lab/plot/draw.WritePNG draws
// it).
func ExampleFigure_WriteCSV() {
	f := &plot.Figure{Name: "curve", Title: "Training error", XLabel: "epoch", YLabel: "error",
		Series: []plot.Series{{Name: "perceptron", X: []float64{1, 2, 3}, Y: []float64{0.4, 0.1, 0}}}}
	if err := f.WriteCSV(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// series,epoch,error
	// perceptron,1,0.4
	// perceptron,2,0.1
	// perceptron,3,0
}
