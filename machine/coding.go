package machine

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"strings"
)

// buildCodes returns the code table for k classes on r R-units: codes[class][unit] is +1 (the
// R-unit should be on), -1 (off) or 0 (neutral, not trained for that class).
func buildCodes(coding string, table [][]int8, k, r int) ([][]int8, error) {
	if k < 1 {
		return nil, fmt.Errorf("coding: the machine needs at least one class")
	}
	if coding == CodingAuto {
		switch {
		case k == 2:
			coding = CodingBinary // one R-unit says which: the textbook two-class perceptron
		case k <= r:
			coding = CodingOneHot
		default:
			coding = CodingBinary
		}
	}
	codes := make([][]int8, k)
	switch coding {
	case CodingOneHot:
		if k > r {
			return nil, fmt.Errorf("coding: one-hot needs one R-unit per class: %d classes but %d R-units (use --r-units %d or --coding binary)", k, r, k)
		}
		for c := range codes {
			codes[c] = make([]int8, r)
			for u := 0; u < k; u++ {
				codes[c][u] = -1
			}
			codes[c][c] = 1
		}
	case CodingBinary:
		n := bits.Len(uint(k - 1))
		if n == 0 {
			n = 1
		}
		if n > r {
			return nil, fmt.Errorf("coding: binary coding of %d classes needs %d R-units, have %d", k, n, r)
		}
		for c := range codes {
			codes[c] = make([]int8, r)
			for u := 0; u < n; u++ {
				codes[c][u] = -1
				if c>>uint(u)&1 == 1 {
					codes[c][u] = 1
				}
			}
		}
	case CodingTable:
		if len(table) != k {
			return nil, fmt.Errorf("coding: code table has %d codes for %d classes", len(table), k)
		}
		for c, row := range table {
			if len(row) != r {
				return nil, fmt.Errorf("coding: code of class %d has %d R-units, machine has %d", c, len(row), r)
			}
			codes[c] = append([]int8(nil), row...)
		}
	default:
		return nil, fmt.Errorf("coding: unknown coding %q", coding)
	}
	if err := checkCodes(codes); err != nil {
		return nil, err
	}
	return codes, nil
}

// checkCodes refuses codes outside {-1,0,1}, codes with no trained R-unit, and two classes that
// the machine could not tell apart.
func checkCodes(codes [][]int8) error {
	for c, row := range codes {
		trained := false
		for _, v := range row {
			if v < -1 || v > 1 {
				return fmt.Errorf("coding: class %d: code value %d is not -1, 0 or 1", c, v)
			}
			trained = trained || v != 0
		}
		if !trained {
			return fmt.Errorf("coding: class %d has no trained R-unit (all neutral)", c)
		}
		for d := 0; d < c; d++ {
			if !distinguishable(codes[c], codes[d]) {
				return fmt.Errorf("coding: classes %d and %d have codes that never differ", d, c)
			}
		}
	}
	return nil
}

// distinguishable reports whether some R-unit is trained to opposite answers for the two codes.
func distinguishable(a, b []int8) bool {
	for i := range a {
		if a[i]*b[i] == -1 {
			return true
		}
	}
	return false
}

// ReadCodes reads a code file: one line per class, "LABEL CODE", where CODE has one character
// per R-unit: '1' on, '0' off, '-' neutral. '#' starts a comment. Every class must have a code;
// name is used in error messages. The result is ordered like classes.
func ReadCodes(r io.Reader, name string, classes []string, rUnits int) ([][]int8, error) {
	index := make(map[string]int, len(classes))
	for i, c := range classes {
		index[c] = i
	}
	codes := make([][]int8, len(classes))
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<16)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: want \"LABEL CODE\", got %d fields", name, line, len(f))
		}
		c, ok := index[f[0]]
		if !ok {
			return nil, fmt.Errorf("%s:%d: unknown class %q (the data's classes are %s)", name, line, f[0], strings.Join(classes, " "))
		}
		if codes[c] != nil {
			return nil, fmt.Errorf("%s:%d: class %q has a code already", name, line, f[0])
		}
		if len(f[1]) != rUnits {
			return nil, fmt.Errorf("%s:%d: code %q has %d R-units, the machine has %d", name, line, f[1], len(f[1]), rUnits)
		}
		code := make([]int8, rUnits)
		for i := 0; i < len(f[1]); i++ {
			switch f[1][i] {
			case '1':
				code[i] = 1
			case '0':
				code[i] = -1
			case '-':
			default:
				return nil, fmt.Errorf("%s:%d: code %q: %q is not 1, 0 or -", name, line, f[1], f[1][i])
			}
		}
		codes[c] = code
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	for c, code := range codes {
		if code == nil {
			return nil, fmt.Errorf("%s: class %q has no code", name, classes[c])
		}
	}
	if err := checkCodes(codes); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return codes, nil
}

// WriteCodes writes codes in the format ReadCodes reads.
func WriteCodes(w io.Writer, classes []string, codes [][]int8) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# mark1 code table: LABEL CODE, one character per R-unit: 1 on, 0 off, - neutral")
	for c, code := range codes {
		b := make([]byte, len(code))
		for i, v := range code {
			b[i] = "0-1"[v+1]
		}
		fmt.Fprintf(bw, "%s %s\n", classes[c], b)
	}
	return bw.Flush()
}
