// Package folder writes a lab report (package lab/report) as a folder a student can put in a
// report: an HTML page (index.html) that shows everything, each table as CSV, each figure as a
// PNG (drawn by lab/plot/draw) with its data as CSV, and the whole report as report.json.
//
// Every file is written atomically (internal/atomicfile): an interrupted run leaves each file
// either as it was or complete.
package folder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"

	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/lab/plot/draw"
	"github.com/mark1-perceptron/mark1/lab/report"
)

// Write writes the report r into the folder dir, making it if needed: index.html,
// report.json, NAME.csv for each table, and NAME.png and NAME.csv for each figure. Each file is
// written atomically; files of other names in dir are left alone.
func Write(dir string, r *report.Report) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s: not a folder", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := map[string]bool{"index": true, "report": true}
	for _, t := range r.Tables {
		if names[t.Name] {
			return fmt.Errorf("report: two files named %q", t.Name)
		}
		names[t.Name] = true
	}
	for _, f := range r.Figures {
		if names[f.Name] {
			return fmt.Errorf("report: two files named %q", f.Name)
		}
		names[f.Name] = true
	}
	write := func(name string, fill func(io.Writer) error) error {
		return atomicfile.Write(filepath.Join(dir, name), 0o644, fill)
	}
	for _, t := range r.Tables {
		if err := write(t.Name+".csv", t.WriteCSV); err != nil {
			return err
		}
	}
	for _, f := range r.Figures {
		if err := write(f.Name+".png", func(w io.Writer) error { return draw.WritePNG(w, f) }); err != nil {
			return err
		}
		if err := write(f.Name+".csv", f.WriteCSV); err != nil {
			return err
		}
	}
	if err := write("report.json", func(w io.Writer) error {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}); err != nil {
		return err
	}
	return write("index.html", func(w io.Writer) error { return WriteHTML(w, r) })
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; line-height: 1.4; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; }
.scroll { overflow-x: auto; width: max-content; min-width: 100%; max-width: calc(100vw - 3em); margin-left: 50%; transform: translateX(-50%); }
.scroll table { font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.finding { border-left: 4px solid #48c; padding: 0.2em 0 0.2em 1em; margin: 1em 0; }
.finding dt { font-weight: bold; float: left; width: 6em; } .finding dd { margin-left: 7em; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.95em; color: #444; }
code { background: #f4f4f4; padding: 0 0.2em; } .note { color: #444; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{with .Command}}<p><code>{{.}}</code></p>{{end}}
{{with .Summary}}<p>{{.}}</p>{{end}}
{{with .Conditions}}<h2>Conditions</h2>
<table>{{range .}}<tr><th>{{.Label}}</th><td>{{.Value}}</td></tr>
{{end}}</table>{{end}}
{{with .Findings}}<h2>The record and the emulator</h2>
{{range .}}<div class="finding"><h3>{{.What}}</h3><dl>
<dt>record</dt><dd>{{.Record}} <i>({{.Source}}{{with .Kind}}; {{.}}{{end}})</i></dd>
<dt>measured</dt><dd>{{.Measured}}</dd>
<dt>gap</dt><dd>{{.Gap}}</dd></dl></div>
{{end}}{{end}}
{{range .Tables}}<h2>{{.Title}}</h2>
<div class="scroll"><table><tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr>
{{$num := .NumericColumns}}{{range .Rows}}<tr>{{range $i, $c := .}}<td{{if index $num $i}} class="num"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table></div>
{{with .Note}}<p class="note">{{.}}</p>{{end}}
<p><a href="{{.Name}}.csv">{{.Name}}.csv</a></p>
{{end}}
{{with .Figures}}<h2>Figures</h2>
{{range .}}<figure><img src="{{.Name}}.png" alt="{{.Title}}">
<figcaption>{{.Title}}{{with .Caption}}: {{.}}{{end}} (data: <a href="{{.Name}}.csv">{{.Name}}.csv</a>)</figcaption></figure>
{{end}}{{end}}
{{with .Notes}}<h2>Notes</h2>
<ul>{{range .}}<li>{{.}}</li>
{{end}}</ul>{{end}}
{{with .ChecksTable}}<h2>{{.Title}}</h2>
<table><tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<p class="note">{{.Note}}</p>{{end}}
<p class="note">Written by mark1; the whole report as data: <a href="report.json">report.json</a>. Run time {{printf "%.1f" .Seconds}} s (the one figure that varies from run to run).</p>
</body>
</html>
`))

// WriteHTML writes the report r as one HTML page; the figures are the NAME.png files beside
// it.
func WriteHTML(w io.Writer, r *report.Report) error {
	var b bytes.Buffer
	if err := page.Execute(&b, r); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}
