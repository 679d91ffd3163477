package report_test

import (
	"os"

	"github.com/mark1-perceptron/mark1/lab/report"
)

// A report with the record beside the measured figure, as text. Package lab/report/folder
// writes the same report as a folder: index.html, report.json, CSV tables and PNG figures.
func ExampleReport_WriteText() {
	r := &report.Report{Name: "ef", Title: "E against F"}
	r.Condition("machine", "1,000 A-units")
	r.Findings = append(r.Findings, report.Finding{
		What: "E against F", Record: "over 80% with 60 images", Source: "the record",
		Measured: "88.5% on new images within 5 px", Gap: "none: it does better",
	})
	r.WriteText(os.Stdout)
	// Output:
	// E against F
	// ===========
	//
	// conditions:
	//   machine  1,000 A-units
	//
	// E against F
	//   record:   over 80% with 60 images (the record)
	//   measured: 88.5% on new images within 5 px
	//   gap:      none: it does better
}
