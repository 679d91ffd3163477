package i18n

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
)

// msgNames reads the names of the messages from messages.go, in the order of their
// constants, so that a failure names the message.
func msgNames(t *testing.T) []string {
	t.Helper()
	f, err := goparser.ParseFile(token.NewFileSet(), "messages.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				names = append(names, n.Name)
			}
		}
		if len(names) > 0 && names[0] == "NoMsg" {
			break
		}
	}
	// NoMsg, the messages, numMsgs.
	if len(names) != NumMsgs+1 {
		t.Fatalf("messages.go has %d constants, want %d", len(names), NumMsgs+1)
	}
	return names
}

// Every message has a text in every language: a translation left out fails here (the
// screen would show the English instead).
func TestEveryMessageHasEveryLanguage(t *testing.T) {
	names := msgNames(t)
	for l := range NumLangs {
		t.Run(l.Code(), func(t *testing.T) {
			missing := 0
			for m := Msg(1); m < numMsgs; m++ {
				if strings.TrimSpace(catalogues[l][m]) == "" {
					missing++
					if missing <= 10 {
						t.Errorf("%s: %s has no text", l.Code(), names[m])
					}
				}
			}
			if missing > 10 {
				t.Errorf("%s: and %d more messages have no text", l.Code(), missing-10)
			}
		})
	}
}

// argUses counts the uses of each argument in compiled nodes, and of # in plurals.
func argUses(ns []node, uses []int) {
	for _, n := range ns {
		switch n.kind {
		case nodeArg:
			uses[n.arg]++
		case nodePlural:
			uses[n.arg]++
			for _, e := range n.plural.exact {
				argUses(e.nodes, uses)
			}
			for _, b := range n.plural.forms {
				argUses(b, uses)
			}
		}
	}
}

// Every template compiles, names only its message's arguments, and uses every one of them
// (a translation that drops the number of cards says less than the English); a plural has
// the forms the language's CLDR rules choose between for small counts.
func TestTemplates(t *testing.T) {
	names := msgNames(t)
	for l := range NumLangs {
		for m := Msg(1); m < numMsgs; m++ {
			s := catalogues[l][m]
			if s == "" {
				continue // TestEveryMessageHasEveryLanguage
			}
			t.Run(l.Code()+"/"+names[m], func(t *testing.T) {
				ns, err := compile(s, argNames(m))
				if err != nil {
					t.Errorf("%s %s: %v: %q", l.Code(), names[m], err, s)
					return
				}
				uses := make([]int, len(argNames(m)))
				argUses(ns, uses)
				for i, u := range uses {
					if u == 0 {
						t.Errorf("%s %s: does not use {%s}: %q", l.Code(), names[m], argNames(m)[i], s)
					}
				}
				checkForms(t, l, names[m], ns)
				if strings.Contains(s, "  ") && m != PanelSpeed {
					t.Errorf("%s %s: two spaces in a row: %q", l.Code(), names[m], s)
				}
				if s != strings.TrimSpace(s) && m != AnswerWanted {
					t.Errorf("%s %s: space at an end: %q", l.Code(), names[m], s)
				}
			})
		}
	}
}

// checkForms checks that each plural in ns that chooses by form has a branch for each form
// the language gives the counts 0 to 1000.
func checkForms(t *testing.T, l Lang, name string, ns []node) {
	for _, n := range ns {
		if n.kind != nodePlural {
			continue
		}
		if len(n.plural.exact) > 0 {
			continue // counted exactly (=1 {...} other {...}): no form is needed
		}
		for c := int64(0); c <= 1000; c++ {
			f := Form(l, c)
			if n.plural.forms[f] == nil && f != plural.Other {
				t.Errorf("%s %s: no branch for %d (form %v)", l.Code(), name, c, f)
				break
			}
		}
	}
}

func TestPluralsAndNumbers(t *testing.T) {
	names := msgNames(t)
	for _, c := range []struct {
		lang Lang
		m    Msg
		args []Arg
		want string
	}{
		{English, StatusTotals, []Arg{Int(1), Str("5 s")}, "1 card shown · 5 s of machine time"},
		{English, StatusTotals, []Arg{Int(12345), Str("5 s")}, "12,345 cards shown · 5 s of machine time"},
		{English, ZoomMotors, []Arg{Int(0)}, "0 motors turning"},
		{German, ZoomMotors, []Arg{Int(1)}, "1 Motor dreht sich"},
		{German, ZoomMotors, []Arg{Int(2)}, "2 Motoren drehen sich"},
		{French, ZoomMotors, []Arg{Int(0)}, "0 moteur en marche"},
		{French, ZoomMotors, []Arg{Int(1)}, "1 moteur en marche"},
		{French, ZoomMotors, []Arg{Int(2)}, "2 moteurs en marche"},
		{Spanish, ZoomMotors, []Arg{Int(1)}, "1 motor girando"},
		{Spanish, ZoomMotors, []Arg{Int(3)}, "3 motores girando"},
		{German, LampsFiring, []Arg{Int(1234)}, "1.234 feuern"},
		{French, LampsFiring, []Arg{Int(1234)}, "1\u00a0234 actives"},
		{Spanish, LampsFiring, []Arg{Int(1234)}, "1234 activas"},
		{Spanish, LampsFiring, []Arg{Int(12345)}, "12.345 activas"},
		{English, CapTestDone, []Arg{Int(9), Int(10), Num(90, 1)}, "Test finished: 9 of 10 cards right (90.0%). Nothing was learned during the test."},
		{German, ZoomBias, []Arg{Num(-2.5, 1)}, "Bias: -2,5 Schritte"},
		{French, ZoomBias, []Arg{Num(2.5, 1)}, "biais\u00a0: 2,5 pas"},
	} {
		t.Run(c.lang.Code()+"/"+names[c.m]+"/"+argsName(c.args), func(t *testing.T) {
			if got := c.lang.S(c.m, c.args...); got != c.want {
				t.Errorf("%s: got %q, want %q", c.lang.Code(), got, c.want)
			}
		})
	}
}

// argsName writes a message's arguments for a subtest's name: "9,10,90.0".
func argsName(args []Arg) string {
	var out []string
	for _, a := range args {
		switch a.kind {
		case argInt:
			out = append(out, strconv.FormatInt(a.i, 10))
		case argNum:
			out = append(out, strconv.FormatFloat(a.f, 'f', a.prec, 64))
		default:
			out = append(out, a.s)
		}
	}
	return strings.Join(out, ",")
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		code string
		want Lang
		ok   bool
	}{
		{"en", English, true}, {"de", German, true}, {"de-CH", German, true}, {"fr-CA", French, true},
		{"es-419", Spanish, true}, {"en-GB", English, true}, {"ja", English, false}, {"", English, false},
		{"xx-!!", English, false},
	} {
		name := c.code
		if name == "" {
			name = "empty"
		}
		t.Run(name, func(t *testing.T) {
			got, ok := Parse(c.code)
			if got != c.want || ok != c.ok {
				t.Errorf("Parse(%q) = %v, %v; want %v, %v", c.code, got, ok, c.want, c.ok)
			}
		})
	}
}

// Append writes a message without allocating, so that the screen's frames make no garbage.
func TestAppendAllocatesNothing(t *testing.T) {
	b := make([]byte, 0, 1024)
	args := []Arg{Int(3), Int(61), Str("E")}
	n := testing.AllocsPerRun(100, func() {
		for l := range NumLangs {
			b = l.Append(b[:0], MotorsSentence, args...)
		}
	})
	if n != 0 {
		t.Errorf("Append allocates %v times a run", n)
	}
}

func FuzzCompile(f *testing.F) {
	for m := Msg(1); m < numMsgs; m++ {
		f.Add(english[m])
	}
	f.Fuzz(func(t *testing.T, s string) {
		ns, err := compile(s, []string{"n", "cards", "epochs"})
		if err != nil {
			return
		}
		for l := range NumLangs {
			for _, n := range []int{0, 1, 2, 5, 21, 1000} {
				_ = l.appendNodes(nil, ns, []Arg{Int(n), Num(float64(n), 1), Str("x")}, nil)
			}
		}
	})
}
