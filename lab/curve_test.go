package lab

import "testing"

// A nil Progress counts nothing; a Progress reports the count, never past the total.
func TestProgress(t *testing.T) {
	var nilp *Progress
	nilp.Add(1)
	var got [][2]int
	p := NewProgress(func(d, n int) { got = append(got, [2]int{d, n}) }, 3)
	p.Add(2)
	p.Add(2)
	if len(got) != 2 || got[0] != [2]int{2, 3} || got[1] != [2]int{3, 3} {
		t.Errorf("reports %v", got)
	}
}
