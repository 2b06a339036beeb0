package environ

import (
	"slices"
	"testing"
)

func TestCut(t *testing.T) {
	for _, tt := range []struct {
		kv, key, val string
		ok           bool
	}{
		{"A=1", "A", "1", true},
		{"A=", "A", "", true},
		{"A=b=c", "A", "b=c", true},
		{`=C:=C:\work`, "=C:", `C:\work`, true},
		{"noequals", "", "", false},
		{"=", "", "", false},
		{"", "", "", false},
	} {
		t.Run(tt.kv, func(t *testing.T) {
			k, v, ok := Cut(tt.kv)
			if k != tt.key || v != tt.val || ok != tt.ok {
				t.Errorf("Cut(%q) = %q, %q, %v; want %q, %q, %v", tt.kv, k, v, ok, tt.key, tt.val, tt.ok)
			}
		})
	}
}

func TestNames(t *testing.T) {
	env := []string{"Path=a", "HOME=/h", "PATH=b", "x=1"}
	tests := []struct {
		name  string
		names Names
		do    func(n Names) any
		want  any
	}{
		{"equal exact", Exact, func(n Names) any { return n.Equal("Path", "PATH") }, false},
		{"equal fold", Fold, func(n Names) any { return n.Equal("Path", "PATH") }, true},
		{"equal fold is ASCII only", Fold, func(n Names) any { return n.Equal("É", "é") }, false},
		{"get exact", Exact, func(n Names) any { v, _ := n.Get(env, "Path"); return v }, "a"},
		{"get fold, last wins", Fold, func(n Names) any { v, _ := n.Get(env, "path"); return v }, "b"},
		{"get absent", Exact, func(n Names) any { _, ok := n.Get(env, "path"); return ok }, false},
		{"get is not a prefix match", Exact, func(n Names) any { _, ok := n.Get(env, "HOM"); return ok }, false},
		{"values fold", Fold, func(n Names) any { return n.Values(env, "PATH") }, []string{"a", "b"}},
		{"set exact", Exact, func(n Names) any { return n.Set(env, "PATH", "c") }, []string{"Path=a", "HOME=/h", "PATH=c", "x=1"}},
		{"set fold replaces the first, drops the rest", Fold, func(n Names) any { return n.Set(env, "PATH", "c") },
			[]string{"PATH=c", "HOME=/h", "x=1"}},
		{"set absent appends", Exact, func(n Names) any { return n.Set(env, "NEW", "") }, []string{"Path=a", "HOME=/h", "PATH=b", "x=1", "NEW="}},
		{"unset fold", Fold, func(n Names) any { return n.Unset(env, "path") }, []string{"HOME=/h", "x=1"}},
		{"unset exact", Exact, func(n Names) any { return n.Unset(env, "path") }, env},
		{"with appends in order", Exact, func(n Names) any { return n.With(env, "x=2", "y=3") },
			[]string{"Path=a", "HOME=/h", "PATH=b", "x=2", "y=3"}},
		{"with, the last of one name wins", Fold, func(n Names) any { return n.With(env, "X=2", "path=p", "x=3") },
			[]string{"HOME=/h", "path=p", "x=3"}},
		{"with nothing", Exact, func(n Names) any { return n.With(env) }, env},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(env)
			got := tt.do(tt.names)
			if !equalAny(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if !slices.Equal(env, before) {
				t.Errorf("the input was changed: %q", env)
			}
		})
	}
}

func equalAny(a, b any) bool {
	as, aok := a.([]string)
	bs, bok := b.([]string)
	if aok && bok {
		return slices.Equal(as, bs)
	}
	return a == b
}

func TestHost(t *testing.T) {
	if Host.Equal("a", "A") != (Host == Fold) {
		t.Fatal("Host does not compare as it says")
	}
}
