// Package tomlfile reads the TOML files users write (machine's configuration files, rig's rig
// files, the museum's curator's file) with go-toml's unstable parser, in one way for all three:
//
//   - ReadAll reads a file's text within a size limit;
//   - Walk gives each table header and each key = value in order, with the line it is on, the
//     value read as a Value, and refuses a document that does not parse with name:line;
//   - a Value's getters (Str, Bool, Whole, Int, Number, Float, Duration, DurationText, OneOf,
//     Strings, Scalar) take the value as the reader wants it, or say in one line, in the same
//     words in every file, why not ("want a whole number, not a string", "8.0 is a float;
//     write 8", "1000 out of range 1..200");
//   - Error puts a file, a line and a section or key in front of such a reason, and Lines
//     remembers what was given where, for "given twice (first on line 3)".
//
// A reader keeps its own rules: which sections and keys exist, what a value may be, and
// whether it stops at the first mistake (a rig file, a configuration) or goes on (the
// curator's file, whose mistakes never stop the exhibit).
package tomlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// ReadAll reads a file's text from r: at most limit bytes, a longer file being refused as
// "NAME: larger than LIMIT bytes: not WHAT" ("not a rig file"). A read error is "NAME: ERR".
func ReadAll(r io.Reader, name string, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes: not %s", name, limit, what)
	}
	return data, nil
}

// ExprKind is the kind of an expression Walk gives.
type ExprKind uint8

// The kinds of expression.
const (
	Table      ExprKind = iota + 1 // a [table] header
	ArrayTable                     // an [[array table]] header
	KeyValue                       // a key = value
)

func (k ExprKind) String() string {
	switch k {
	case Table:
		return "Table"
	case ArrayTable:
		return "ArrayTable"
	case KeyValue:
		return "KeyValue"
	}
	return fmt.Sprintf("ExprKind(%d)", uint8(k))
}

var exprKinds = map[unstable.Kind]ExprKind{unstable.Table: Table, unstable.ArrayTable: ArrayTable, unstable.KeyValue: KeyValue}

// Expr is one expression of a document: a [table] or [[array table]] header, or a key =
// value.
type Expr struct {
	Kind ExprKind
	// Key is the header's or the key's name, its parts joined with dots (escapes resolved);
	// Parts is their number.
	Key   string
	Parts int
	// Line is the line of the key's first part (1 is the first line; 0 when it is not known).
	Line int
	// Value is a key's value, with Line as its line (the zero Value for a header).
	Value Value
}

// SyntaxError is Walk's error for a document that does not parse: "NAME:LINE: malformed
// TOML: what the parser says" (line 0 when the parser does not say where).
type SyntaxError struct {
	File string
	Line int
	Err  error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: malformed TOML: %v", e.File, e.Line, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// Walk parses data (a UTF-8 byte-order mark first is skipped) and calls fn on each expression
// in order, stopping at the first error fn returns, which Walk returns as it is. A document
// that does not parse is refused with a *SyntaxError naming name and the line, once fn has
// seen the expressions before the mistake.
func Walk(data []byte, name string, fn func(Expr) error) error {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
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
		x := Expr{Kind: exprKinds[e.Kind]}
		if x.Kind == 0 {
			continue // a comment
		}
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
		if x.Kind == KeyValue {
			x.Value = value(e.Value(), x.Line, 0)
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
		return &SyntaxError{File: name, Line: ln, Err: err}
	}
	return nil
}

// Error is a mistake in a file, "FILE:LINE: WHERE: ERR" (without WHERE, "FILE:LINE: ERR").
type Error struct {
	File  string
	Line  int
	Where string // the section or key, as the reader names it ("[rig] retries", "retina.gamma")
	Err   error
}

// Errorf returns the *Error of file, line and where, with a reason formatted as fmt.Errorf
// does (%w wraps).
func Errorf(file string, line int, where, format string, a ...any) *Error {
	return &Error{File: file, Line: line, Where: where, Err: fmt.Errorf(format, a...)}
}

func (e *Error) Error() string {
	if e.Where == "" {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: %s: %v", e.File, e.Line, e.Where, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Lines remembers the line each name (a section, a key) was first given on.
type Lines map[string]int

// Add records that name is given on line, or, when it was given before, returns "given twice
// (first on line N)" and keeps the first line.
func (l Lines) Add(name string, line int) error {
	if prev, ok := l[name]; ok {
		return fmt.Errorf("given twice (first on line %d)", prev)
	}
	l[name] = line
	return nil
}
