package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoPatternCompiledAtInit: every start of canopy runs every package's
// init, --version included, so no package-level variable of canopy's (or
// of its copy of goldmark, third_party/goldmark) may compile a regular
// expression as it is initialised: it is compiled on first use instead
// (package lazyregexp). Issue 39 measured such patterns, canopy's and
// goldmark's, at about a fifth of canopy's start.
func TestNoPatternCompiledAtInit(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, spec := range g.Specs {
					for _, value := range spec.(*ast.ValueSpec).Values {
						if call := compileOutsideFunc(value); call != "" {
							t.Errorf("%s: a package-level variable calls %s at init: use lazyregexp (or a function run on first use)",
								fset.Position(value.Pos()), call)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// compileOutsideFunc is the regexp compile that e calls as it is
// evaluated ("regexp.MustCompile"), if any; a function literal's body runs
// later, so it is not looked into.
func compileOutsideFunc(e ast.Expr) string {
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if pkg, ok := n.X.(*ast.Ident); ok && pkg.Name == "regexp" && strings.Contains(n.Sel.Name, "Compile") {
				found = "regexp." + n.Sel.Name
			}
		}
		return found == ""
	})
	return found
}
