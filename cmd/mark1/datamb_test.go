package main

import (
	"strings"
	"testing"
)

// TestMaxDataMB: --max-data-mb refuses what is not a positive number of MiB, and what is
// under one byte (which would have become a budget of 0 bytes, the default 1 GiB), in one
// line with exit status 2; one byte is taken as given.
func TestMaxDataMB(t *testing.T) {
	for _, tc := range []struct {
		value string
		code  int
		want  string // standard error, whole (usage errors) or in part
	}{
		{"1e-320", 2, "mark1 train: --max-data-mb 1e-320: under one byte (the least is 9.5367431640625e-07, one byte)\n"},
		{"1e-7", 2, "mark1 train: --max-data-mb 1e-07: under one byte (the least is 9.5367431640625e-07, one byte)\n"},
		{"0", 2, "mark1 train: --max-data-mb 0: want a positive number of MiB\n"},
		{"-1", 2, "mark1 train: --max-data-mb -1: want a positive number of MiB\n"},
		{"9.5367431640625e-07", 1, "over the memory budget for cards of 1 bytes"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			code, out, errs := mark1(t, "train", "--data", "builtin:ef", "--epochs", "1", "--max-data-mb", tc.value)
			whole := tc.code == 2
			if code != tc.code || out != "" || whole && errs != tc.want || !whole && !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stderr %q", code, out, errs, tc.code, tc.want)
			}
		})
	}
}
