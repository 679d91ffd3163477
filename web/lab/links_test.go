package labpage

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/mdblock"
)

// worksheetLink is a link of a worksheet to the page, with the mark1 command it stands for.
type worksheetLink struct {
	file, link string
	args       []string // mark1's arguments: lab NAME --flag value ... (or experiment NAME ...)
}

var linkRe = regexp.MustCompile(`\]\((/lab/\?[^)\s]+)\)`)

// experiments are the historical experiments' names (mark1 experiment NAME); every other demo
// is mark1 lab NAME.
var experiments = []string{"letters", "squares-circles", "square-diamond", "ef", "xe", "leftright", "figure4"}

// linkArgs turns a link's query into mark1's arguments, flag for parameter in the link's
// order ("quick=true" is --quick): the query a page link holds is the command's flags.
func linkArgs(t *testing.T, link string) []string {
	t.Helper()
	_, query, _ := strings.Cut(link, "?")
	var args []string
	for _, part := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(part, "=")
		v, err := url.PathUnescape(v) // a + stays a +, as the page reads it
		if err != nil {
			t.Fatalf("%s: %v", link, err)
		}
		switch {
		case k == "demo" && slices.Contains(experiments, v):
			args = append([]string{"experiment", v}, args...)
		case k == "demo":
			args = append([]string{"lab", v}, args...)
		case v == "true":
			args = append(args, "--"+k)
		default:
			args = append(args, "--"+k, v)
		}
	}
	return args
}

// commandArgs are a worksheet command's arguments as the page's link holds them: --flag=value
// split in two, and --out DIR (the page writes no folder) left out.
func commandArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--out" || a == "--json" {
			if a == "--out" {
				i++
			}
			continue
		}
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			out = append(out, k, v)
			continue
		}
		out = append(out, a)
	}
	return out
}

// worksheetLinks reads the worksheets' links to the page and checks each against the commands
// of its worksheet: the link must be one of them, flag for flag.
func worksheetLinks(t *testing.T) []worksheetLink {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "lab", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no worksheets: %v", err)
	}
	var links []worksheetLink
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks, _, err := mdblock.Parse(f, strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		var commands [][]string
		for _, b := range blocks {
			for _, line := range b.Lines() {
				if c, ok := mdblock.ParseCommand("mark1", line); ok {
					commands = append(commands, commandArgs(c.Args))
				}
			}
		}
		for _, m := range linkRe.FindAllStringSubmatch(string(data), -1) {
			l := worksheetLink{file: filepath.Base(f), link: m[1], args: linkArgs(t, m[1])}
			if !slices.ContainsFunc(commands, func(c []string) bool { return slices.Equal(c, l.args) }) {
				t.Errorf("%s: the link %s is mark1 %s, which is none of the worksheet's commands", l.file, l.link, strings.Join(l.args, " "))
			}
			links = append(links, l)
		}
	}
	return links
}

// TestWorksheetLinks: every link of a worksheet to the page stands for one of its commands.
func TestWorksheetLinks(t *testing.T) {
	links := worksheetLinks(t)
	if len(links) < 20 {
		t.Errorf("the worksheets link the page only %d times", len(links))
	}
}
