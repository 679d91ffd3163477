package detmath

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoFusibleProducts enforces the package's rule in its shipped (non-test) source: every
// floating-point product must be rounded by an explicit conversion, float64(a*b), unless its
// only use is as an operand of another multiplication, a division or a comparison. The Go
// specification lets a compiler fuse a product with an addition or subtraction that uses it,
// even across statements and after inlining, so a product that is assigned, returned, passed
// to a function or negated needs the conversion as much as one added directly.
// scripts/check-fma.sh checks the compiled result; this checks the source, for every
// compiler and every future inlining decision.
func TestNoFusibleProducts(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, n, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("detmath", fset, files, info); err != nil {
		t.Fatalf("type-checking the package from source: %v", err)
	}
	isFloat := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		if !ok || tv.Value != nil { // constants are folded exactly at compile time
			return false
		}
		b, ok := tv.Type.Underlying().(*types.Basic)
		return ok && b.Info()&types.IsFloat != 0
	}
	isConversion := func(c *ast.CallExpr) bool {
		tv, ok := info.Types[c.Fun]
		return ok && tv.IsType()
	}
	checked := 0
	for _, f := range files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.MUL_ASSIGN && isFloat(as.Lhs[0]) {
				t.Errorf("%s: x *= y on floats: write x = float64(x * y)", fset.Position(as.Pos()))
			}
			be, ok := n.(*ast.BinaryExpr)
			if !ok || be.Op != token.MUL || !isFloat(be) {
				return true
			}
			checked++
			// Find the first ancestor that is not a parenthesis.
			var parent ast.Node
			for i := len(stack) - 2; i >= 0; i-- {
				if _, paren := stack[i].(*ast.ParenExpr); !paren {
					parent = stack[i]
					break
				}
			}
			switch p := parent.(type) {
			case *ast.CallExpr:
				if isConversion(p) {
					return true
				}
			case *ast.BinaryExpr:
				switch p.Op {
				case token.MUL, token.QUO, token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
					return true
				}
			}
			t.Errorf("%s: product %s is not rounded by an explicit conversion: write float64(...)",
				fset.Position(be.Pos()), types.ExprString(be))
			return true
		})
	}
	t.Logf("%d floating-point products checked", checked)
	if checked < 100 {
		t.Errorf("only %d products found: is the check still looking at the source?", checked)
	}
}
