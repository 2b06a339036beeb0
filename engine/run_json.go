package engine

import (
	"encoding/json"
	"math"
	"time"
	"unicode/utf8"

	"github.com/chainrun/chainrun/chain"
)

// MarshalJSON renders a result for agents: output as strings (decoded on
// Windows), invalid UTF-8 replaced by U+FFFD and flagged, durations in
// milliseconds.
func (r *Result) MarshalJSON() ([]byte, error) {
	type plain Result
	out, outBad, outEnc := jsonText(r.Stdout)
	errs, errBad, errEnc := jsonText(r.Stderr)
	segs := r.Segments
	if segs == nil {
		segs = []SegmentResult{}
	}
	return json.Marshal(struct {
		*plain
		Stdout            string          `json:"stdout"`
		Stderr            string          `json:"stderr"`
		StdoutInvalidUTF8 bool            `json:"stdout_invalid_utf8,omitempty"`
		StderrInvalidUTF8 bool            `json:"stderr_invalid_utf8,omitempty"`
		StdoutEncoding    string          `json:"stdout_encoding,omitempty"`
		StderrEncoding    string          `json:"stderr_encoding,omitempty"`
		DurationMS        float64         `json:"duration_ms"`
		Segments          []SegmentResult `json:"segments"`
	}{(*plain)(r), out, errs, outBad, errBad, outEnc, errEnc, millis(r.Duration), segs})
}

// MarshalJSON adds duration_ms and renders absent lists as [].
func (s SegmentResult) MarshalJSON() ([]byte, error) {
	type plain SegmentResult
	if s.Args == nil {
		s.Args = []string{}
	}
	if s.Redirects == nil {
		s.Redirects = []chain.Redirect{}
	}
	return json.Marshal(struct {
		plain
		DurationMS float64 `json:"duration_ms"`
	}{plain(s), millis(s.Duration)})
}

// jsonText decodes captured bytes and makes them valid UTF-8.
func jsonText(raw []byte) (text string, invalid bool, encoding string) {
	b, enc := decodeCaptured(raw)
	if utf8.Valid(b) {
		return string(b), false, enc
	}
	return string([]rune(string(b))), true, enc
}

func millis(d time.Duration) float64 {
	return math.Round(float64(d)/1e3) / 1e3
}
