package machine

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// buildCodes returns the code table for k classes on r R-units: codes[class][unit] is +1 (the
// R-unit should be on), -1 (off) or 0 (neutral, not trained for that class), and the coding it
// used (what CodingAuto chose).
func buildCodes(coding string, table [][]int8, k, r int) ([][]int8, string, error) {
	if k < 1 {
		return nil, "", fmt.Errorf("coding: the machine needs at least one class")
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
			return nil, "", fmt.Errorf("coding: one-hot needs one R-unit per class: %d classes but %d R-units (use --r-units %d or --coding binary)", k, r, k)
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
			return nil, "", fmt.Errorf("coding: binary coding of %d classes needs %d R-units, have %d", k, n, r)
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
			return nil, "", fmt.Errorf("coding: code table has %d codes for %d classes", len(table), k)
		}
		for c, row := range table {
			if len(row) != r {
				return nil, "", fmt.Errorf("coding: code of class %d has %d R-units, machine has %d", c, len(row), r)
			}
			codes[c] = append([]int8(nil), row...)
		}
	default:
		return nil, "", fmt.Errorf("coding: unknown coding %q", coding)
	}
	if err := checkCodes(codes); err != nil {
		return nil, "", err
	}
	return codes, coding, nil
}

// isOneHot reports whether codes are the one-hot codes of their classes: class c has +1 on
// R-unit c, -1 on the other R-units below len(codes), and 0 beyond. Then the code-weighted
// score of class c is 2*sum[c] minus the total of the first len(codes) sums, and the answer is
// simply the R-unit with the largest sum.
func isOneHot(codes [][]int8) bool {
	k := len(codes)
	for c, code := range codes {
		for u, v := range code {
			want := int8(0)
			switch {
			case u == c:
				want = 1
			case u < k:
				want = -1
			}
			if v != want {
				return false
			}
		}
	}
	return true
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
// per R-unit: '1' on, '0' off, '-' neutral. '#' starts a comment. A label with spaces, '#' or
// quotes in it is written in double quotes with Go's escapes ("my class" 1010). A UTF-8
// byte-order mark at the start is skipped. Every class must have a code; name is used in error
// messages. The result is ordered like classes.
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
		if line == 1 {
			text = strings.TrimPrefix(text, "\uFEFF")
		}
		label, code, err := codeLine(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if label == "" && code == "" {
			continue
		}
		c, ok := index[label]
		if !ok {
			return nil, fmt.Errorf("%s:%d: unknown class %q (the data's classes are %s)", name, line, label, listLabels(classes))
		}
		if codes[c] != nil {
			return nil, fmt.Errorf("%s:%d: class %q has a code already", name, line, label)
		}
		if len(code) != rUnits {
			return nil, fmt.Errorf("%s:%d: code %q has %d R-units, the machine has %d", name, line, code, len(code), rUnits)
		}
		v := make([]int8, rUnits)
		for i := 0; i < len(code); i++ {
			switch code[i] {
			case '1':
				v[i] = 1
			case '0':
				v[i] = -1
			case '-':
			default:
				return nil, fmt.Errorf("%s:%d: code %q: %q is not 1, 0 or -", name, line, code, code[i])
			}
		}
		codes[c] = v
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

// codeLine splits a code file line into its label and code; both are empty for a blank or
// comment line.
func codeLine(text string) (label, code string, err error) {
	text = strings.TrimSpace(text)
	quoted := strings.HasPrefix(text, "\"")
	if quoted {
		q, err := strconv.QuotedPrefix(text)
		if err != nil {
			return "", "", fmt.Errorf("malformed quoted label: %w", err)
		}
		label, _ = strconv.Unquote(q)
		text = text[len(q):]
		if text != "" && text[0] != ' ' && text[0] != '\t' {
			return "", "", fmt.Errorf("want a space after the quoted label %s", q)
		}
	}
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	f := strings.Fields(text)
	if quoted {
		f = append([]string{label}, f...)
	}
	switch {
	case len(f) == 0:
		return "", "", nil
	case len(f) != 2:
		return "", "", fmt.Errorf("want \"LABEL CODE\", got %d fields (quote a label with spaces: \"my class\" 1010)", len(f))
	}
	return f[0], f[1], nil
}

// quoteLabel writes a label as a code file needs it: in double quotes when it is empty or has
// spaces, '#' or quotes in it.
func quoteLabel(s string) string {
	if s == "" || strings.ContainsAny(s, "#\"\\") || !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// listLabels lists labels for an error message, each in double quotes.
func listLabels(labels []string) string {
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = strconv.Quote(l)
	}
	return strings.Join(q, " ")
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
		fmt.Fprintf(bw, "%s %s\n", quoteLabel(classes[c]), b)
	}
	return bw.Flush()
}
