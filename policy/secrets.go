package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Secrets files (.env, .env.local, .env.production) hold keys a read would
// show the model, and no repository keeps (they are ignored by git), so a
// read, a removal, a move, an edit in place and a write over one that
// exists ask. A redirect or a copy that creates one, or a redirect
// appending to one, shows nothing and loses nothing: that is a write like
// any other, as Claude Code judges it (its protected files hold no .env).
// Templates (.env.example and its kin) are committed with placeholders,
// by convention, and are no secrets files.

// whySecrets is the reason a secrets file is sensitive.
const whySecrets = "secrets"

// secretsName reports a secrets file's name (lower-cased): .env, or
// .env.SOMETHING but a template.
func secretsName(base string) bool {
	if base == ".env" {
		return true
	}
	rest, ok := strings.CutPrefix(base, ".env.")
	if !ok {
		return false
	}
	switch rest {
	case "example", "sample", "template", "dist":
		return false
	}
	return true
}

// harmlessSecretsWrite reports a write f to abs, sensitive for why, that
// neither shows nor loses a secrets file's contents: a redirect or a
// copy's destination (f.fresh) where no file is now, or a redirect
// appending to a file that has no other name. The name must be a secrets file's as written: a Windows spelling
// read as one (".env:stream", ".env.") asks.
func harmlessSecretsWrite(f fileArg, abs, why string) bool {
	if why != whySecrets || f.role != roleWrite || !f.fresh || f.tree != treeNone ||
		!secretsName(strings.ToLower(filepath.Base(abs))) {
		return false
	}
	if _, err := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
		return true
	}
	// An append to one that exists, when it is no second name of another
	// file (a hard link to ~/.bashrc).
	return f.appends && soleName(abs)
}
