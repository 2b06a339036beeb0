package policy

import (
	"errors"
	"fmt"

	"github.com/chainrun/chainrun/chain"
)

// Mode is a permission mode, Claude Code's permissions.defaultMode: the
// baseline for what nothing else decides. Deny rules win in every mode,
// and sensitive paths and ask rules ask in every mode.
type Mode string

const (
	// ModeDefault asks about writes without an Edit allow rule and about
	// segments no rule allows. The zero Mode is ModeDefault.
	ModeDefault Mode = "default"
	// ModeAcceptEdits also permits writes inside the working directories
	// (the roots), and allows the file commands mkdir, touch, rm, rmdir,
	// mv, cp and sed (in place) when everything they touch is inside.
	ModeAcceptEdits Mode = "acceptEdits"
	// ModePlan modifies nothing: every write is denied.
	ModePlan Mode = "plan"
	// ModeDontAsk denies whatever would ask.
	ModeDontAsk Mode = "dontAsk"
	// ModeBypass allows whatever would ask, except ask rules and sensitive
	// paths.
	ModeBypass Mode = "bypassPermissions"
)

// ParseMode reads a mode as Claude Code spells it; "manual" is an alias
// of "default". Claude Code's "auto" (a model judges each action) has no
// counterpart here: it is an error, and Parse reads it as "default" with
// a warning.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case "", "manual":
		return ModeDefault, nil
	case ModeDefault, ModeAcceptEdits, ModePlan, ModeDontAsk, ModeBypass:
		return m, nil
	}
	return "", fmt.Errorf("unknown permission mode %q (want default, acceptEdits, plan, dontAsk or bypassPermissions)", s)
}

// SetMode sets the mode from a command-line flag or a caller, over the
// settings files' defaultMode; bypassPermissions is refused when managed
// settings disable it.
func (p *Policy) SetMode(m Mode) error {
	m, err := ParseMode(string(m))
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	if m == ModeBypass && p.noBypass {
		return errors.New("policy: bypassPermissions is disabled by managed settings (disableBypassPermissionsMode)")
	}
	p.Mode = m
	return nil
}

// acceptEditsCommand reports the file commands acceptEdits mode allows
// without a rule (Claude Code's list, the registry's acceptEdits records)
// when their guard finds nothing but in-place editing (sed -i).
func acceptEditsCommand(args []word) bool {
	p := lookupWord(canonWord(args[0]))
	if p == nil || !p.acceptEdits {
		return false
	}
	g := guard(args)
	return g == "" || guardEditsOnly(args, g)
}

// applyMode turns the asks of a judged chain into what the mode makes of
// them: dontAsk denies them, bypassPermissions allows those that are not
// hard (an ask rule, a sensitive path).
func (p *Policy) applyMode(d *chain.Decision, facts []segFacts) {
	switch p.Mode {
	case ModeDontAsk:
		for i := range d.Segments {
			if sd := &d.Segments[i]; sd.Verdict == chain.Ask {
				sd.Verdict = chain.Deny
				sd.Reasons = append(sd.Reasons, "dontAsk mode denies what would ask")
			}
		}
	case ModeBypass:
		for i := range d.Segments {
			if sd := &d.Segments[i]; sd.Verdict == chain.Ask && !facts[i].hard {
				sd.Verdict = chain.Allow
				sd.Reasons = append(sd.Reasons, "bypassPermissions mode allows what would ask")
				facts[i].suggest = false
			}
		}
	}
}

// chainAskVerdict is what the chain-wide asks make of the chain in the
// mode: ask, deny under dontAsk, nothing under bypassPermissions.
func (p *Policy) chainAskVerdict() chain.Verdict {
	switch p.Mode {
	case ModeDontAsk:
		return chain.Deny
	case ModeBypass:
		return chain.Allow
	}
	return chain.Ask
}
