package english

import (
	"fmt"
	"testing"
)

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "mistake", "0 mistakes"},
		{1, "mistake", "1 mistake"},
		{2, "mistake", "2 mistakes"},
		{1, "R-unit", "1 R-unit"},
		{8, "R-unit", "8 R-units"},
		{1, "class", "1 class"},
		{26, "class", "26 classes"},
		{3, "box", "3 boxes"},
		{2, "brush", "2 brushes"},
		{1, "epoch", "1 epoch"},
		{50, "epoch", "50 epochs"},
		{-1, "card", "-1 cards"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			if got := Count(tt.n, tt.noun); got != tt.want {
				t.Errorf("Count(%d, %q) = %q, want %q", tt.n, tt.noun, got, tt.want)
			}
		})
	}
}

func TestSpan(t *testing.T) {
	for _, tt := range []struct {
		first uint64
		n     int
		want  string
	}{
		{1, 1, "seed 1"},
		{1, 5, "seeds 1-5"},
		{7, 2, "seeds 7-8"},
		{1, 0, "no seed"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			if got := Span("seed", tt.first, tt.n); got != tt.want {
				t.Errorf("Span(seed, %d, %d) = %q, want %q", tt.first, tt.n, got, tt.want)
			}
		})
	}
}

func TestList(t *testing.T) {
	for _, tt := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"},
	} {
		t.Run(fmt.Sprintf("n=%d", len(tt.items)), func(t *testing.T) {
			if got := List(tt.items); got != tt.want {
				t.Errorf("List(%q) = %q, want %q", tt.items, got, tt.want)
			}
		})
	}
}

func TestBrief(t *testing.T) {
	letters := func(n int) []string {
		var s []string
		for i := range n {
			s = append(s, string(rune('a'+i)))
		}
		return s
	}
	for _, tt := range []struct {
		n    int
		want string
	}{
		{0, ""},
		{1, "a"},
		{8, "a b c d e f g h"},
		{9, "a b c ... i"},
		{26, "a b c ... z"},
	} {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			if got := Brief(letters(tt.n)); got != tt.want {
				t.Errorf("Brief(%d letters) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}
