package audit

import (
	"context"
	"log/slog"
	"sync"

	"gopkg.in/natefinch/lumberjack.v2"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/report"
)

// Config configures the audit log file and its rotation.
type Config struct {
	// Path is the log file; rotated files are kept beside it.
	Path string
	// MaxSizeMB is the size in megabytes at which the file is rotated;
	// 0 means 100.
	MaxSizeMB int
	// MaxBackups is how many rotated files are kept; 0 keeps all.
	MaxBackups int
	// MaxAgeDays is how long rotated files are kept; 0 keeps them forever.
	MaxAgeDays int
}

// Log writes one JSON line per chain through log/slog, into a file
// rotated by size and age. It implements engine.Auditor and is safe for
// concurrent use.
type Log struct {
	mu  sync.Mutex
	out *lumberjack.Logger
	log *slog.Logger
}

var _ engine.Auditor = (*Log)(nil)

// NewLog opens (lazily, on the first record) the log cfg describes.
func NewLog(cfg Config) *Log {
	out := &lumberjack.Logger{
		Filename:   cfg.Path,
		MaxSize:    cfg.MaxSizeMB,
		MaxBackups: cfg.MaxBackups,
		MaxAge:     cfg.MaxAgeDays,
		LocalTime:  false,
	}
	return &Log{
		out: out,
		log: slog.New(slog.NewJSONHandler(out, &slog.HandlerOptions{Level: slog.LevelInfo})),
	}
}

// auditSegment is one segment's outcome as the log records it: fewer
// fields than a report.Segment, with signal and skipped left out when
// zero, to keep the lines short. Its reasons and durations are report's.
type auditSegment struct {
	Index      int      `json:"index"`
	Args       []string `json:"argv"`
	ExitCode   int      `json:"exit_code"`
	Signal     int      `json:"signal,omitempty"`
	Skipped    bool     `json:"skipped,omitempty"`
	DurationMS float64  `json:"duration_ms"`
	Error      string   `json:"error,omitempty"`
}

// Audit appends one record; its decision is report.Decision's fields, as
// the run report carries them, empty lists left out to keep lines short.
// Errors writing the log are not reported to the chain: the record is
// dropped (lumberjack retries on the next write).
func (l *Log) Audit(rec *engine.AuditRecord) {
	if l == nil || rec == nil {
		return
	}
	attrs := []slog.Attr{
		slog.String("dir", rec.Dir),
		slog.String("command", rec.Command),
	}
	if d := report.NewDecision(rec.Decision); d != nil {
		attrs = append(attrs, slog.String("decision", string(d.Verdict)), slog.Any("reasons", d.Reasons))
		if len(d.ChainReasons) > 0 {
			attrs = append(attrs, slog.Any("chain_reasons", d.ChainReasons))
		}
		if len(d.Suggestions) > 0 {
			attrs = append(attrs, slog.Any("suggestions", d.Suggestions))
		}
	} else {
		attrs = append(attrs, slog.String("decision", "none"))
	}
	if r := rec.Result; r != nil {
		segs := make([]auditSegment, len(r.Segments))
		for i, s := range r.Segments {
			segs[i] = auditSegment{Index: s.Index, Args: s.Args, ExitCode: s.ExitCode, Signal: s.Signal,
				Skipped: s.Skipped, DurationMS: report.Millis(s.Duration), Error: s.Error}
		}
		attrs = append(attrs, slog.Int("exit_code", r.ExitCode), slog.Any("segments", segs),
			slog.Float64("duration_ms", report.Millis(r.Duration)))
		if r.TimedOut {
			attrs = append(attrs, slog.Bool("timed_out", true))
		}
	}
	if rec.Err != nil {
		attrs = append(attrs, slog.String("error", rec.Err.Error()),
			slog.String("error_kind", string(chain.KindOf(rec.Err))))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log.LogAttrs(context.Background(), slog.LevelInfo, "chain", attrs...)
}

// Close closes the log file.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.out.Close()
}
