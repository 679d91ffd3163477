package experiment

import (
	"slices"
	"testing"
)

// TestEightBitCodes holds EightBitCodes to what its comment and the letters report say of the
// codes for 26 letters on the Mark I's 8 R-units: distinct, each 4 of the 8 on, the first 14 at
// least 4 apart and all at least 2 apart (26 words of 8 bits cannot all be 3 apart); at most
// 70 codes however many are asked for.
func TestEightBitCodes(t *testing.T) {
	codes := EightBitCodes(26)
	if len(codes) != 26 {
		t.Fatalf("%d codes for 26 classes", len(codes))
	}
	for i, c := range codes {
		on := 0
		for _, v := range c {
			if v != 1 && v != -1 {
				t.Fatalf("code %d: %v, want +1 or -1 on each R-unit", i, c)
			}
			if v == 1 {
				on++
			}
		}
		if len(c) != 8 || on != 4 {
			t.Fatalf("code %d: %v, want 4 of 8 R-units on", i, c)
		}
		for j := range i {
			if slices.Equal(codes[j], c) {
				t.Fatalf("codes %d and %d are the same: %v", j, i, c)
			}
		}
	}
	if d := minDistance(codes[:14]); d < 4 {
		t.Errorf("the first 14 codes are only %d apart, want 4", d)
	}
	if d := minDistance(codes); d != 2 {
		t.Errorf("the 26 codes are %d apart, want 2", d)
	}
	if n := len(EightBitCodes(100)); n != 70 {
		t.Errorf("EightBitCodes(100) gives %d codes, want the 70 words of 8 bits with 4 on", n)
	}
}
