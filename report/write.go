package report

import (
	"encoding/json"
	"io"
)

// Write prints v as one line of JSON. HTML escaping stays off so redirect
// operators and output read as > and &, not \u003e and \u0026; this is the
// only encoder of the wire format, so every object reads the same way.
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
