package i18n

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
)

// A node is a piece of a compiled message.
type node struct {
	kind   nodeKind
	text   string
	arg    int
	plural *pluralNode
}

type nodeKind uint8

const (
	nodeText   nodeKind = iota
	nodeArg             // an argument
	nodeHash            // # in a plural's branch: its number
	nodePlural          // a plural
)

// pluralNode is a compiled {name, plural, ...}.
type pluralNode struct {
	exact []exactBranch
	forms [plural.Many + 1][]node // by plural.Form; nil: not given
}

type exactBranch struct {
	n     int64
	nodes []node
}

// compiled holds every message of every language, compiled.
var compiled [NumLangs][numMsgs][]node

// catalogues are the languages' templates.
var catalogues = [NumLangs]*[numMsgs]string{English: &english, German: &german, French: &french, Spanish: &spanish}

func init() {
	readNumberFormats()
	for l := range NumLangs {
		for m := Msg(1); m < numMsgs; m++ {
			ns, err := compile(catalogues[l][m], argNames(m))
			if err != nil {
				// The tests check every template; a mistake shows the raw text.
				ns = []node{{kind: nodeText, text: catalogues[l][m]}}
			}
			if catalogues[l][m] == "" && l != English {
				ns = compiled[English][m] // a missing translation: the English (the tests fail it)
			}
			compiled[l][m] = ns
		}
	}
}

// argNames returns the names of m's arguments, in the order they are given.
func argNames(m Msg) []string { return strings.Fields(defs[m].args) }

// compile parses a template.
func compile(s string, names []string) ([]node, error) {
	p := &parser{s: s, names: names}
	ns, err := p.nodes(false, false)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.s) {
		return nil, fmt.Errorf("unexpected %q at %d", p.s[p.i], p.i)
	}
	return ns, nil
}

type parser struct {
	s     string
	i     int
	names []string
}

// nodes reads nodes up to the end, or up to a closing brace when inBranch.
func (p *parser) nodes(inBranch, inPlural bool) ([]node, error) {
	var out []node
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			out = append(out, node{kind: nodeText, text: text.String()})
			text.Reset()
		}
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '}':
			if !inBranch {
				return nil, fmt.Errorf("a } without its { at %d", p.i)
			}
			flush()
			return out, nil
		case c == '#' && inPlural:
			flush()
			out = append(out, node{kind: nodeHash})
			p.i++
		case c == '{':
			flush()
			n, err := p.placeholder()
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		default:
			text.WriteByte(c)
			p.i++
		}
	}
	if inBranch {
		return nil, fmt.Errorf("a branch is not closed")
	}
	flush()
	return out, nil
}

func (p *parser) skipSpace() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *parser) word() string {
	p.skipSpace()
	start := p.i
	for p.i < len(p.s) && (isWordByte(p.s[p.i]) || p.s[p.i] == '=' && p.i == start) {
		p.i++
	}
	return p.s[start:p.i]
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// placeholder reads {name} or {name, plural, ...}, at the opening brace.
func (p *parser) placeholder() (node, error) {
	at := p.i
	p.i++ // {
	name := p.word()
	arg := -1
	for i, n := range p.names {
		if n == name {
			arg = i
		}
	}
	if arg < 0 {
		return node{}, fmt.Errorf("{%s} at %d is not one of the message's arguments %q", name, at, p.names)
	}
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return node{kind: nodeArg, arg: arg}, nil
	}
	if p.i >= len(p.s) || p.s[p.i] != ',' {
		return node{}, fmt.Errorf("want } or , after {%s at %d", name, at)
	}
	p.i++
	if kind := p.word(); kind != "plural" {
		return node{}, fmt.Errorf("{%s, %s}: only plural is known", name, kind)
	}
	p.skipSpace()
	if p.i >= len(p.s) || p.s[p.i] != ',' {
		return node{}, fmt.Errorf("want , after {%s, plural at %d", name, at)
	}
	p.i++
	pl := &pluralNode{}
	for {
		p.skipSpace()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			break
		}
		sel := p.word()
		p.skipSpace()
		if sel == "" || p.i >= len(p.s) || p.s[p.i] != '{' {
			return node{}, fmt.Errorf("{%s, plural}: want a form and a {branch} at %d", name, p.i)
		}
		p.i++
		ns, err := p.nodes(true, true)
		if err != nil {
			return node{}, err
		}
		p.i++ // }
		if strings.HasPrefix(sel, "=") {
			n, err := strconv.ParseInt(sel[1:], 10, 64)
			if err != nil {
				return node{}, fmt.Errorf("{%s, plural}: %q is not =N", name, sel)
			}
			pl.exact = append(pl.exact, exactBranch{n, ns})
			continue
		}
		f, ok := formNames[sel]
		if !ok {
			return node{}, fmt.Errorf("{%s, plural}: %q is not a plural form (zero, one, two, few, many, other)", name, sel)
		}
		if pl.forms[f] != nil {
			return node{}, fmt.Errorf("{%s, plural}: %s twice", name, sel)
		}
		if ns == nil {
			ns = []node{} // an empty branch is given, not missing
		}
		pl.forms[f] = ns
	}
	if pl.forms[plural.Other] == nil {
		return node{}, fmt.Errorf("{%s, plural}: no other branch", name)
	}
	return node{kind: nodePlural, arg: arg, plural: pl}, nil
}

var formNames = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two, "few": plural.Few, "many": plural.Many, "other": plural.Other,
}
