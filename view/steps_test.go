package view_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark1-perceptron/mark1/view"
)

// stepSeen names, for each of the scene's draw steps, the region of the screen whose golden
// must differ when the step is left out, and the check of what the visitor sees that must
// fail ("" where only the golden can tell: a background's panel or label, the zoomed rack).
var stepSeen = map[string]struct{ region, check string }{
	"bg.title":    {"title", ""},
	"bg.card":     {"card", ""},
	"bg.retina":   {"retina", ""}, // the cells are painted again by the retina step
	"bg.lamps":    {"lamps", ""},
	"bg.unit":     {"plug-board", ""},
	"bg.runits":   {"R-units", ""},
	"bg.heat":     {"heat maps", ""},
	"bg.racks":    {"dials", "dials"},
	"bg.rig":      {"rig", ""},
	"bg.controls": {"controls", ""},
	"bg.curve":    {"curve", ""},
	"bg.headings": {"retina", ""},
	"title":       {"title", "title"},
	"caption":     {"caption", "caption"},
	"card":        {"card", "card"},
	"answer":      {"answer", "answer"},
	"retina":      {"retina", "retina"},
	"zoom":        {"zoom", ""},
	"lamps":       {"lamps", "lamps"},
	"runits":      {"R-units", "R-units"},
	"heat":        {"heat maps", "heat maps"},
	"racks":       {"dials", "dials"},
	"rig":         {"rig", "rig"},
	"wiring":      {"plug-board", "plug-board"},
	"controls":    {"controls", "controls"},
	"curve":       {"curve", "curve"},
	"highlight":   {"screen", "highlight"},
	"tip":         {"screen", "tip"},
	"focus":       {"screen", ""},
	"help":        {"screen", ""},
}

// leftOut is what fails, on any of the main screens, when the scene leaves out one step.
type leftOut struct {
	regions, checks map[string]bool
	problems        []string // a few, for the log
}

var (
	screensOnce sync.Once
	allScreens  []screen
)

func leaveOut(t *testing.T, step string) leftOut {
	screensOnce.Do(func() { allScreens = screens(t) })
	lo := leftOut{regions: map[string]bool{}, checks: map[string]bool{}}
	for _, s := range allScreens {
		sc, err := view.New(view.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sc.SkipStep(step)
		seen := seenOf(t, sc, s)
		for _, p := range goldenProblems(t, sc, s.name, seen.img, false) {
			lo.regions[p.region] = true
			if len(lo.problems) < 3 {
				lo.problems = append(lo.problems, p.msg)
			}
		}
		for _, c := range semanticChecks {
			if ps := c.check(seen); len(ps) > 0 {
				lo.checks[c.name] = true
				lo.problems = append(lo.problems, s.name+": "+c.name+": "+ps[0])
			}
		}
	}
	return lo
}

// TestEachDrawStepIsSeen leaves out each of the scene's draw steps in turn and requires the
// tests to see it: the golden of the step's region differs, and the check of what the visitor
// sees there fails. A review removed drawAnswer, drawTitle, drawCurve and drawRUnits one at a
// time, and every test stayed green (issue 13); a step added without a row in stepSeen fails
// here too.
func TestEachDrawStepIsSeen(t *testing.T) {
	if testing.Short() {
		t.Skip("draws the main screens once for each draw step")
	}
	steps := view.DrawSteps()
	for name := range stepSeen {
		if !slices.Contains(steps, name) {
			t.Errorf("stepSeen names %q, which the scene does not have", name)
		}
	}
	for _, step := range steps {
		t.Run(step, func(t *testing.T) {
			want, ok := stepSeen[step]
			if !ok {
				t.Fatalf("draw step %q has no row in stepSeen: say which region and check see it", step)
			}
			lo := leaveOut(t, step)
			if !lo.regions[want.region] {
				t.Errorf("without %q the %s region still matches its golden (differing: %v)", step, want.region, keys(lo.regions))
			}
			if want.check != "" && !lo.checks[want.check] {
				t.Errorf("without %q the %s check still passes (failing: %v)", step, want.check, keys(lo.checks))
			}
			t.Logf("without %s: regions %v differ; checks %v fail; e.g. %s", step, keys(lo.regions), keys(lo.checks), strings.Join(lo.problems, "; "))
		})
	}
}

// TestReviewedPanels are the review's four cases, kept explicit: without the answer, the
// title, the curve or the R-units, their regions and their checks fail.
func TestReviewedPanels(t *testing.T) {
	for _, c := range []struct{ step, region, check string }{
		{"answer", "answer", "answer"},
		{"title", "title", "title"},
		{"curve", "curve", "curve"},
		{"runits", "R-units", "R-units"},
	} {
		t.Run(c.step, func(t *testing.T) {
			lo := leaveOut(t, c.step)
			if !lo.regions[c.region] || !lo.checks[c.check] {
				t.Errorf("without %s: regions %v differ, checks %v fail; want region %s and check %s", c.step, keys(lo.regions), keys(lo.checks), c.region, c.check)
			}
		})
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
