package mcpserver

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// TestInstructionsSyntax: what the instructions call refused is refused
// by the parser, in both dialects, and what they say runs is accepted;
// no sentence of the instructions or of a tool's description calls a
// construct that runs refused.
func TestInstructionsSyntax(t *testing.T) {
	for _, d := range []chain.Dialect{chain.POSIX, chain.Windows} {
		for _, c := range syntaxRuns {
			for _, ex := range c.examples {
				if _, err := chain.ParseDialect(ex, d); err != nil {
					t.Errorf("%s: the instructions say %s run, but %q is refused: %v", d, c.name, ex, err)
				}
			}
		}
		for _, c := range syntaxRefused {
			for _, ex := range c.examples {
				var pe *chain.ParseError
				if _, err := chain.ParseDialect(ex, d); !errors.As(err, &pe) {
					t.Errorf("%s: the instructions say %s are refused, but %q is accepted", d, c.name, ex)
				}
			}
		}
	}
	// The texts as a client receives them.
	c := connect(t, Config{}, nil, "")
	texts := map[string]string{"the instructions": c.cs.InitializeResult().Instructions}
	tools, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		texts["the "+tool.Name+" tool's description"] = tool.Description
	}
	sentence := regexp.MustCompile(`[^.\n]*(?:[Rr]efused|not supported|[Uu]nsupported)[^.\n]*`) // the run description's list of fixes is one line a fix
	for where, text := range texts {
		for _, s := range sentence.FindAllString(text, -1) {
			for _, c := range syntaxRuns {
				if containsWord(s, c.name) {
					t.Errorf("%s calls %s refused (%q), but they run", where, c.name, strings.TrimSpace(s))
				}
			}
		}
	}
	for _, c := range syntaxRefused {
		if !strings.Contains(instructions, c.name) {
			t.Errorf("the instructions do not name %s", c.name)
		}
	}
}

// containsWord reports name in s, not as part of a longer word.
func containsWord(s, name string) bool {
	return regexp.MustCompile(`(^|[^A-Za-z])` + regexp.QuoteMeta(name) + `($|[^A-Za-z])`).MatchString(s)
}

// TestRunDescriptionFixes: the run tool's description lists every
// construct the instructions call refused, each refused example gets a
// fix from the parser (a refusal without one would leave the model with
// no next step), and the description carries that fix as the parser
// words it.
func TestRunDescriptionFixes(t *testing.T) {
	for _, c := range syntaxRefused {
		if !strings.Contains(runTool.Description, "\n- "+c.name+" (") {
			t.Errorf("the run description does not list %s", c.name)
		}
		for _, ex := range c.examples {
			fix := parserFix(ex)
			if fix == "" {
				t.Errorf("the parser's refusal of %q gives no fix (no \"not supported; …\")", ex)
				continue
			}
			head, _, _ := strings.Cut(fix, ":")
			if !strings.Contains(runTool.Description, head) {
				t.Errorf("the run description lacks the fix for %q: %q", ex, fix)
			}
		}
	}
	if !strings.Contains(runTool.Description, backgroundFix) {
		t.Error("the run description does not say how to run in the background")
	}
}
