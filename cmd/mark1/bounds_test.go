package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestBoundedFlags: every bounded integer flag refuses a value one below its least and one above
// its most with the one line "mark1 CMD: --FLAG V: want LO..HI" (exit 2, nothing on standard
// output), takes its bounds themselves past the check, and is still listed by -h as an int flag.
func TestBoundedFlags(t *testing.T) {
	for _, tt := range []struct {
		cmd    []string // the command, and what it needs to get as far as the flag
		flag   string
		lo, hi int
	}{
		{[]string{"experiment", "ef"}, "seeds", 0, 1000},
		{[]string{"experiment", "figure4"}, "seeds", 0, 1000},
		{[]string{"experiment", "ef"}, "workers", 0, 1024},
		{[]string{"lab", "compare", "--data", "problem:xor"}, "epochs", 1, 100000},
		{[]string{"lab", "compare", "--data", "builtin:ef"}, "epochs", 1, 100000},
		{[]string{"lab", "compare", "--data", "problem:xor"}, "workers", 0, 1024},
		{[]string{"lab", "flaws"}, "epochs", 1, 100000},
		{[]string{"lab", "flaws"}, "seeds", 1, 1000},
		{[]string{"lab", "flaws"}, "workers", 0, 1024},
		{[]string{"lab", "forget"}, "epochs", 1, 100000},
		{[]string{"lab", "forget"}, "seeds", 1, 1000},
		{[]string{"lab", "aunits"}, "epochs", 1, 100000},
		{[]string{"lab", "aunits"}, "seeds", 1, 1000},
		{[]string{"lab", "fields"}, "epochs", 1, 100000},
		{[]string{"lab", "fields"}, "seeds", 1, 1000},
		{[]string{"lab", "novikoff"}, "problems", 1, 100000},
		{[]string{"lab", "novikoff"}, "dim", 1, 1000},
		{[]string{"lab", "novikoff"}, "points", 2, 100000},
		{[]string{"lab", "novikoff"}, "workers", 0, 1024},
		{[]string{"lab", "nonseparable"}, "epochs", 2, 100000},
		{[]string{"lab", "nonseparable"}, "cards", 2, 20000},
		{[]string{"lab", "nonseparable"}, "workers", 0, 1024},
		{[]string{"lab", "outliers"}, "draws", 1, 10000},
		{[]string{"lab", "outliers"}, "outliers", 1, 10000},
		{[]string{"lab", "outliers"}, "workers", 0, 1024},
		{[]string{"lab", "trace", "--point", "1,2,1"}, "epochs", 1, 200000},
		{[]string{"lab", "geometry", "--point", "1,2,1"}, "epochs", 1, 200000},
		{[]string{"lab", "loss"}, "points", 2, 1000},
		{[]string{"lab", "loss"}, "epochs", 1, 1000},
		{[]string{"lab", "regions"}, "classes", 3, 8},
		{[]string{"lab", "masking"}, "n", 2, 10000},
		{[]string{"lab", "masking"}, "middle", 2, 10000},
		{[]string{"lab", "boolean"}, "epochs", 1, 6250},
		{[]string{"lab", "digits"}, "updates", 1, 100000},
	} {
		t.Run(caseName(tt.cmd)+" --"+tt.flag, func(t *testing.T) {
			for _, v := range []int{tt.lo - 1, tt.hi + 1, -1 << 31, 1 << 40} {
				if v >= tt.lo && v <= tt.hi {
					continue
				}
				args := append(append([]string(nil), tt.cmd...), "--"+tt.flag, strconv.Itoa(v))
				code, out, errs := mark1(t, args...)
				want := fmt.Sprintf("mark1 %s: --%s %d: want %d..%d\n", tt.cmd[0], tt.flag, v, tt.lo, tt.hi)
				if code != 2 || out != "" || errs != want {
					t.Errorf("mark1 %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(args, " "), code, out, errs, want)
				}
			}
			// The bounds themselves pass the check: whatever the command says next, it is not
			// about the flag's range. (--out to a file stops each run before any work.)
			for _, v := range []int{tt.lo, tt.hi} {
				args := append(append([]string(nil), tt.cmd...), "--"+tt.flag, strconv.Itoa(v), "--out", "bounds_test.go")
				if _, _, errs := mark1(t, args...); strings.Contains(errs, "want") && strings.Contains(errs, "--"+tt.flag+" ") {
					t.Errorf("mark1 %s: %q", strings.Join(args, " "), errs)
				}
			}
			args := append(append([]string(nil), tt.cmd...), "--"+tt.flag, "x")
			want := fmt.Sprintf("mark1 %s: invalid value \"x\" for flag -%s: parse error\n", tt.cmd[0], tt.flag)
			if code, _, errs := mark1(t, args...); code != 2 || errs != want {
				t.Errorf("mark1 %s: exit %d, stderr %q; want %q", strings.Join(args, " "), code, errs, want)
			}
			help := append(append([]string(nil), tt.cmd[:2]...), "-h")
			if _, out, _ := mark1(t, help...); !strings.Contains(out, "\n  -"+tt.flag+" int\n") {
				t.Errorf("mark1 %s does not list -%s as an int flag:\n%s", strings.Join(help, " "), tt.flag, out)
			}
		})
	}
}
