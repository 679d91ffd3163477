// Package tomlwalk walks a TOML document with go-toml's unstable parser, giving each table
// header and each key = value with the line it is on, so that a reader of a user's file
// (machine's configuration, rig's rig file) can refuse a bad section, key or value with
// name:line and say which. The reader keeps its own rules: which sections and keys exist, what
// a value may be.
package tomlwalk

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Expr is one expression of a document: a [table] or [[array table]] header, or a key =
// value.
type Expr struct {
	// Kind is unstable.Table, unstable.ArrayTable or unstable.KeyValue.
	Kind unstable.Kind
	// Key is the header's or the key's name, its parts joined with dots; Parts is their
	// number.
	Key   string
	Parts int
	// Line is the line of the key's first part (1 is the first line; 0 when it is not known).
	Line int
	// Value is a key's value (nil for a header).
	Value *unstable.Node
}

// Walk parses data and calls fn on each expression in order, stopping at the first error fn
// returns, which Walk returns as it is. A document that does not parse is refused as
// "name:line: malformed TOML: ..." (line 0 when the parser does not say where).
func Walk(data []byte, name string, fn func(Expr) error) error {
	var p unstable.Parser
	p.Reset(data)
	// The line of a key comes from its raw range: a key with escapes has its Data copied out
	// of data.
	line := func(n *unstable.Node) int {
		if n == nil || n.Raw.Length == 0 && n.Raw.Offset == 0 {
			return 0
		}
		if int(n.Raw.Offset)+int(n.Raw.Length) > len(data) {
			return 0
		}
		return p.Shape(n.Raw).Start.Line
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable, unstable.KeyValue:
		default:
			continue
		}
		x := Expr{Kind: e.Kind}
		var parts []string
		var first *unstable.Node
		for it := e.Key(); it.Next(); {
			n := it.Node()
			if first == nil {
				first = n
			}
			parts = append(parts, string(n.Data))
		}
		x.Key, x.Parts, x.Line = strings.Join(parts, "."), len(parts), line(first)
		if e.Kind == unstable.KeyValue {
			x.Value = e.Value()
		}
		if err := fn(x); err != nil {
			return err
		}
	}
	if err := p.Error(); err != nil {
		ln := 0
		var pe *unstable.ParserError
		if errors.As(err, &pe) && len(pe.Highlight) > 0 {
			func() {
				defer func() { _ = recover() }() // a highlight outside the input has no line
				ln = p.Shape(p.Range(pe.Highlight)).Start.Line
			}()
		}
		return fmt.Errorf("%s:%d: malformed TOML: %v", name, ln, err)
	}
	return nil
}

// Scalar converts a scalar value to an int64, a float64, a string or a bool. ok is false for
// any other kind (an array, an inline table, a date or a time), which the caller names in its
// own words. An integer out of int64's range and a malformed number are errors.
func Scalar(n *unstable.Node) (v any, ok bool, err error) {
	s := string(n.Data)
	switch n.Kind {
	case unstable.String:
		return s, true, nil
	case unstable.Bool:
		return s == "true", true, nil
	case unstable.Integer:
		i, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
		if err != nil {
			return nil, true, fmt.Errorf("integer %s is out of range", s)
		}
		return i, true, nil
	case unstable.Float:
		f, err := strconv.ParseFloat(strings.TrimPrefix(strings.ReplaceAll(s, "_", ""), "+"), 64)
		if err != nil {
			return nil, true, fmt.Errorf("malformed number %s", s)
		}
		return f, true, nil
	}
	return nil, false, nil
}
