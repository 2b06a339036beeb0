package expand

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoMvdanTypesInAPI: the exported API of package chain and of this
// package (exported functions, methods of exported types, exported
// fields and types) names no mvdan.cc/sh type, as mvdan's own split
// keeps the caller's code to one vocabulary: the chain model.
func TestNoMvdanTypesInAPI(t *testing.T) {
	for _, dir := range []string{".", filepath.Join("..", "chain")} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range mvdanUses(f) {
				t.Errorf("%s: exported API names %s", path, name)
			}
		}
	}
}

// mvdanUses lists the mvdan types f's exported declarations name.
func mvdanUses(f *ast.File) []string {
	mvdan := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if !strings.HasPrefix(p, "mvdan.cc/") {
			continue
		}
		name := filepath.Base(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		mvdan[name] = true
	}
	var out []string
	check := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && mvdan[id.Name] {
					out = append(out, id.Name+"."+sel.Sel.Name)
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || exportedRecv(d.Recv)) {
				check(d.Type)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() {
					checkType(ts.Type, check)
				}
			}
		}
	}
	return out
}

// exportedRecv reports a method of an exported type.
func exportedRecv(r *ast.FieldList) bool {
	t := r.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// checkType checks a type's exported fields, or the whole type when it
// is not a struct.
func checkType(t ast.Expr, check func(ast.Node)) {
	st, ok := t.(*ast.StructType)
	if !ok {
		check(t)
		return
	}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.IsExported() {
				check(f.Type)
				break
			}
		}
	}
}
