package logging

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// ErrBadOptions is wrapped by New for an unknown level or encoding.
var ErrBadOptions = errors.New("logging: bad options")

// Options are the logging settings.
type Options struct {
	// Level is debug, info (default), warn, error, dpanic, panic or fatal.
	Level string
	// Encoding is console (default) or json.
	Encoding string
	// Path is a log file; empty means Output.
	Path string
	// Timestamp forces timestamps on or off; nil means "when stdout is a
	// terminal".
	Timestamp *bool
	// Debug forces the debug level (the --debug flag).
	Debug bool
	// ForceTimestamp turns timestamps on (the --force-timestamp-logs flag).
	ForceTimestamp bool
	// Output receives the log when Path is empty; nil means os.Stderr.
	Output io.Writer
}

// New builds a logger. The returned level can be changed while the logger
// runs; close flushes the logger and closes the log file, if any.
func New(o Options) (*zap.Logger, *zap.AtomicLevel, func() error, error) {
	level := zapcore.InfoLevel
	if o.Level != "" {
		var err error
		if level, err = zapcore.ParseLevel(strings.ToLower(o.Level)); err != nil {
			return nil, nil, nil, fmt.Errorf("%w: level %q: %w", ErrBadOptions, o.Level, err)
		}
	}
	if o.Debug {
		level = zapcore.DebugLevel
	}
	encCfg := zap.NewProductionEncoderConfig()
	encCfg.EncodeDuration = zapcore.StringDurationEncoder
	encCfg.EncodeLevel = zapcore.CapitalLevelEncoder
	encCfg.EncodeTime = zapcore.ISO8601TimeEncoder
	if !WantTimestamps(o, stdoutIsTerminal()) {
		encCfg.TimeKey = zapcore.OmitKey
	}
	var enc zapcore.Encoder
	switch o.Encoding {
	case "", "console":
		enc = zapcore.NewConsoleEncoder(encCfg)
	case "json":
		enc = zapcore.NewJSONEncoder(encCfg)
	default:
		return nil, nil, nil, fmt.Errorf("%w: encoding %q, want console or json", ErrBadOptions, o.Encoding)
	}
	sink, closeSink, err := openSink(o)
	if err != nil {
		return nil, nil, nil, err
	}
	atom := zap.NewAtomicLevelAt(level)
	log := zap.New(zapcore.NewCore(enc, sink, atom))
	closer := func() error {
		return errors.Join(log.Sync(), closeSink())
	}
	return log, &atom, closer, nil
}

// WantTimestamps decides whether log entries carry a timestamp: forced by
// the flag, else as LogTimestamp says, else when stdout is a terminal.
func WantTimestamps(o Options, stdoutTTY bool) bool {
	switch {
	case o.ForceTimestamp:
		return true
	case o.Timestamp != nil:
		return *o.Timestamp
	default:
		return stdoutTTY
	}
}

func openSink(o Options) (zapcore.WriteSyncer, func() error, error) {
	if o.Path == "" {
		out := o.Output
		if out == nil {
			out = os.Stderr
		}
		// Hide the stream's Sync: fsync fails on terminals and pipes, and
		// writes to them are not buffered anyway.
		return zapcore.Lock(zapcore.AddSync(struct{ io.Writer }{out})), func() error { return nil }, nil
	}
	if dir := filepath.Dir(o.Path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, fmt.Errorf("logging: log directory: %w", err)
		}
	}
	f, err := os.OpenFile(o.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("logging: log file: %w", err)
	}
	return zapcore.Lock(f), f.Close, nil
}
