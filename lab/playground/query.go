package playground

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// parseQuery splits a URL query into its parameters, in order, each name and value decoded as
// a form decodes it: %XX escapes, and "+" as a space. (A label's "+1" that reaches a link
// unescaped so becomes " 1": normalize reads it back.)
func parseQuery(q string) ([][2]string, error) {
	q = strings.TrimPrefix(q, "?")
	var out [][2]string
	for _, part := range strings.Split(q, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			return nil, fmt.Errorf("query: %q: a bad %%-escape", k)
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			return nil, fmt.Errorf("query: --%s %q: a bad %%-escape", key, v)
		}
		out = append(out, [2]string{key, val})
	}
	return out, nil
}

// normalize trims the spaces around each comma-separated part of a value, so that a "+" a
// form's decoding made a space (" 1") reads as the "1" it stood for, and gives an exponent its
// "+" back ("1e 5": 1e+5).
func normalize(v string) string {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if j := strings.IndexAny(p, "eE"); j > 0 && j+2 < len(p) && p[j+1] == ' ' && p[j+2] >= '0' && p[j+2] <= '9' {
			p = p[:j+1] + "+" + p[j+2:]
		}
		parts[i] = p
	}
	return strings.Join(parts, ",")
}

// canonicalPoint writes a point as the command line shows it: each number as lab/exact writes
// it, the label +1 or -1 ("5,7,1" is "5,7,+1"). A point that does not read is left as it is,
// for its refusal to quote.
func canonicalPoint(v string) string {
	x, y, err := trace.ParsePoint(v)
	if err != nil {
		return v
	}
	return pointText(x, y)
}

// csvPoints reads samples in the --data FILE format (lab/trace.ReadCSV) and writes each as a
// --point value: its features exactly, then its label +1 or -1.
func csvPoints(text string) ([]string, error) {
	d, err := trace.ReadCSV("csv", strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range d.Points {
		out = append(out, pointText(p.X, p.Y))
	}
	return out, nil
}

// pointText writes a sample as --point takes it: "x1,x2,+1".
func pointText(x exact.Vec, y int) string {
	var b strings.Builder
	for _, v := range x {
		b.WriteString(exact.Format(v))
		b.WriteByte(',')
	}
	b.WriteString(fmt.Sprintf("%+d", y))
	return b.String()
}

// flagArg writes a flag and its value ("\x00" between them: two arguments). mark1's flags
// take the next argument as their value even when it starts with a "-" (--init -5,0,1).
func flagArg(name, value string) string {
	return "--" + name + "\x00" + value
}

// boolOrFlag writes a parameter as the command's arguments: a true bool alone (--quick), a
// false one as --name=false, any other as flagArg.
func boolOrFlag(name, value string, isBool bool) []string {
	if isBool {
		if b, err := strconv.ParseBool(value); err == nil && b {
			return []string{"--" + name}
		}
		return []string{"--" + name + "=" + value}
	}
	return []string{flagArg(name, value)}
}

// argString writes arguments as a command line: each argument after a space, quoted as a shell
// needs it ("\x00" separates a flag from its value, each quoted alone).
func argString(args []string) string {
	var b strings.Builder
	for _, arg := range args {
		for _, a := range strings.Split(arg, "\x00") {
			b.WriteByte(' ')
			if a == "" || strings.ContainsAny(a, " \t\"'$\\|&;<>()*?[]#~`!{}") {
				a = strconv.Quote(a)
			}
			b.WriteString(a)
		}
	}
	return b.String()
}
