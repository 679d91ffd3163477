// Package i18n is the museum's message catalogue: every word the visitors' screen shows, in
// English, German, French and Spanish, with plurals chosen by each language's CLDR rules
// (golang.org/x/text/feature/plural) and numbers written as each language writes them (the
// decimal and grouping separators are CLDR's, read from golang.org/x/text at start).
//
// A message is a template in a subset of ICU MessageFormat: literal text, an argument
// {name}, and a plural {name, plural, =0 {...} one {...} other {...}} whose branches may
// hold arguments and # (the number, written as the language writes numbers). Each message
// takes the arguments its definition names (args.go), given in that order. The templates are
// compiled once, when the package starts; Append then writes a message into a byte slice
// without allocating, so that the screen can be drawn every frame with no garbage.
package i18n

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Lang is a language of the exhibit.
type Lang uint8

// The languages, in the order the language menu lists them.
const (
	English Lang = iota
	German
	French
	Spanish
	NumLangs
)

// Info describes a language.
type Info struct {
	Code string       // its BCP 47 code: "en"
	Name string       // its name in itself: "Deutsch"
	Tag  language.Tag // for x/text
}

var infos = [NumLangs]Info{
	English: {"en", "English", language.English},
	German:  {"de", "Deutsch", language.German},
	French:  {"fr", "Français", language.French},
	Spanish: {"es", "Español", language.Spanish},
}

// Info returns what l is.
func (l Lang) Info() Info { return infos[l.valid()] }

// Code is l's BCP 47 code.
func (l Lang) Code() string { return infos[l.valid()].Code }

// String is l's name in itself.
func (l Lang) String() string { return infos[l.valid()].Name }

func (l Lang) valid() Lang {
	if l >= NumLangs {
		return English
	}
	return l
}

// Next is the language after l in the menu's order (after the last, the first).
func (l Lang) Next() Lang { return (l.valid() + 1) % NumLangs }

var matcher = language.NewMatcher([]language.Tag{language.English, language.German, language.French, language.Spanish})

// MaxTag is the longest language tag read, in bytes: BCP 47's practical limit (RFC 5646,
// 4.4.1: 35 characters hold a language with its extended subtag, a script, a region and a
// variant). The tags the exhibit speaks are far shorter ("es-419"); a longer one is refused
// before it is parsed, so a tag of a million characters costs no more than a short one
// (x/text's parser takes time quadratic in some long tags: seconds for a million).
const MaxTag = 35

// Parse returns the language the exhibit speaks for a BCP 47 code ("de", "de-CH", "fr-CA",
// "es-419", "en-GB"): the language of the code when the catalogue has it, and false
// otherwise (with English). A code longer than MaxTag is false at once.
func Parse(code string) (Lang, bool) {
	if len(code) > MaxTag {
		return English, false
	}
	return match(code)
}

// ParseTag is Parse with the reason a code is refused, in one line for the caller to put after
// the field's name: too long, or not a language the exhibit speaks. Its time and memory do
// not grow with the code's length.
func ParseTag(code string) (Lang, error) {
	if len(code) > MaxTag {
		return English, fmt.Errorf("%d bytes long: a language tag has at most %d characters (BCP 47's practical limit): en, de, fr or es", len(code), MaxTag)
	}
	l, ok := match(code)
	if !ok {
		return English, fmt.Errorf("%q is not a language the exhibit speaks: en, de, fr or es", code)
	}
	return l, nil
}

// match parses a tag of at most MaxTag bytes and matches it with the catalogue's languages.
func match(code string) (Lang, bool) {
	t, err := language.Parse(code)
	if err != nil {
		return English, false
	}
	_, i, conf := matcher.Match(t)
	if conf < language.High {
		return English, false
	}
	return Lang(i), true
}

// Arg is an argument of a message.
type Arg struct {
	kind argKind
	i    int64
	f    float64
	prec int
	s    string
	b    []byte
}

type argKind uint8

const (
	argInt argKind = iota
	argNum
	argSigned
	argStr
	argBytes
	argPad2
)

// Int is a whole number, written with the language's grouping ("1,234", "1.234", "1 234").
func Int(n int) Arg { return Arg{kind: argInt, i: int64(n)} }

// Pad2 is a whole number from 0 to 99 written with two digits ("05"), for minutes.
func Pad2(n int) Arg { return Arg{kind: argPad2, i: int64(n)} }

// Num is a number with prec digits after the language's decimal separator ("94.7", "94,7").
// A plural on it chooses by its integer part.
func Num(f float64, prec int) Arg { return Arg{kind: argNum, f: f, prec: prec, i: int64(f)} }

// Signed is Num with a plus sign before a number above zero ("+2.5").
func Signed(f float64, prec int) Arg { return Arg{kind: argSigned, f: f, prec: prec, i: int64(f)} }

// Str is a text put in as it is (a class's label, a name).
func Str(s string) Arg { return Arg{kind: argStr, s: s} }

// Bytes is a text put in as it is, already written (another message, say); b is only read.
func Bytes(b []byte) Arg { return Arg{kind: argBytes, b: b} }

// Append appends message m in language l, with its arguments, to b.
func (l Lang) Append(b []byte, m Msg, args ...Arg) []byte {
	if m <= 0 || m >= numMsgs {
		return b
	}
	return l.appendNodes(b, compiled[l.valid()][m], args, nil)
}

// S returns message m in language l as a string (it allocates: not for the screen's frames).
func (l Lang) S(m Msg, args ...Arg) string { return string(l.Append(nil, m, args...)) }

// AppendInt appends n as l writes whole numbers.
func (l Lang) AppendInt(b []byte, n int) []byte {
	return appendNumber(b, l.valid(), float64(n), 0, int64(n), true)
}

func (l Lang) appendNodes(b []byte, ns []node, args []Arg, hash *Arg) []byte {
	for i := range ns {
		n := &ns[i]
		switch n.kind {
		case nodeText:
			b = append(b, n.text...)
		case nodeHash:
			if hash != nil {
				b = l.appendArg(b, hash)
			}
		case nodeArg:
			if n.arg < len(args) {
				b = l.appendArg(b, &args[n.arg])
			}
		case nodePlural:
			if n.arg >= len(args) {
				continue
			}
			a := &args[n.arg]
			b = l.appendNodes(b, n.plural.branch(l, a.i), args, a)
		}
	}
	return b
}

func (l Lang) appendArg(b []byte, a *Arg) []byte {
	switch a.kind {
	case argInt:
		return appendNumber(b, l, 0, 0, a.i, true)
	case argPad2:
		if a.i >= 0 && a.i < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, a.i, 10)
	case argNum:
		return appendNumber(b, l, a.f, a.prec, 0, false)
	case argSigned:
		if a.f > 0 && roundsAboveZero(a.f, a.prec) {
			b = append(b, '+')
		}
		return appendNumber(b, l, a.f, a.prec, 0, false)
	case argStr:
		return append(b, a.s...)
	case argBytes:
		return append(b, a.b...)
	}
	return b
}

// roundsAboveZero reports whether f, written with prec decimals, is not zero.
func roundsAboveZero(f float64, prec int) bool {
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], f, 'f', prec, 64)
	for _, c := range s {
		if c >= '1' && c <= '9' {
			return true
		}
	}
	return false
}

// numberFormat is how a language writes numbers: CLDR's decimal and grouping separators, and
// the fewest digits before the separator that make it group at all (CLDR's
// minimumGroupingDigits: Spanish writes 1234 but 12.345).
type numberFormat struct {
	decimal, group string
	minGroup       int
}

var numbers [NumLangs]numberFormat

// minGrouping is CLDR's minimumGroupingDigits where it is not 1 (x/text does not apply it).
var minGrouping = map[Lang]int{Spanish: 2}

// readNumberFormats reads each language's separators from x/text's CLDR data, by writing
// 12345.5 as the language does.
func readNumberFormats() {
	for l := range NumLangs {
		s := message.NewPrinter(infos[l].Tag).Sprint(number.Decimal(12345.5, number.Scale(1)))
		// "12" group "345" decimal "5"
		if !strings.HasPrefix(s, "12") || !strings.HasSuffix(s, "5") || len(s) < 8 {
			panic(fmt.Sprintf("i18n: %s writes 12345.5 as %q", infos[l].Code, s))
		}
		mid := s[2 : len(s)-1] // group + "345" + decimal
		i := strings.Index(mid, "345")
		if i < 0 {
			panic(fmt.Sprintf("i18n: %s writes 12345.5 as %q", infos[l].Code, s))
		}
		numbers[l] = numberFormat{group: mid[:i], decimal: mid[i+3:], minGroup: max(1, minGrouping[l])}
	}
}

// appendNumber writes f with prec decimals (or the integer n when isInt) as l writes numbers.
func appendNumber(b []byte, l Lang, f float64, prec int, n int64, isInt bool) []byte {
	var buf [40]byte
	var s []byte
	if isInt {
		s = strconv.AppendInt(buf[:0], n, 10)
	} else {
		s = strconv.AppendFloat(buf[:0], f, 'f', prec, 64)
	}
	if len(s) > 0 && s[0] == '-' {
		// Minus zero after rounding ("-0.0") is written as zero.
		zero := true
		for _, c := range s[1:] {
			if c >= '1' && c <= '9' {
				zero = false
			}
		}
		if !zero {
			b = append(b, '-')
		}
		s = s[1:]
	}
	intEnd := len(s)
	for i, c := range s {
		if c == '.' {
			intEnd = i
			break
		}
	}
	nf := &numbers[l]
	grouped := intEnd >= 4 && intEnd >= 3+nf.minGroup
	for i := range intEnd {
		if grouped && i > 0 && (intEnd-i)%3 == 0 {
			b = append(b, nf.group...)
		}
		b = append(b, s[i])
	}
	if intEnd < len(s) {
		b = append(b, nf.decimal...)
		b = append(b, s[intEnd+1:]...)
	}
	return b
}

// branch returns the plural's branch for the count n in language l: an exact match (=0),
// else the language's CLDR plural form, else other.
func (p *pluralNode) branch(l Lang, n int64) []node {
	for i := range p.exact {
		if p.exact[i].n == n {
			return p.exact[i].nodes
		}
	}
	if f := Form(l, n); p.forms[f] != nil {
		return p.forms[f]
	}
	return p.forms[plural.Other]
}

// Form is the CLDR plural form of the whole number n in language l.
func Form(l Lang, n int64) plural.Form {
	if n < 0 {
		n = -n
	}
	// The rules read the number's last digits; a huge count keeps its last seven (the
	// forms depend on at most the last six and whether it is a million's multiple).
	if n > 1<<31-1 {
		n = n%10_000_000 + 10_000_000
	}
	return plural.Cardinal.MatchPlural(infos[l].Tag, int(n), 0, 0, 0, 0)
}
