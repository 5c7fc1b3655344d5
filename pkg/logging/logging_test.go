package logging

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

func TestLevels(t *testing.T) {
	var buf bytes.Buffer
	log, level, closeLog, err := New(Options{Level: "warn", Output: &buf})
	require.NoError(t, err)
	log.Info("hidden")
	log.Warn("shown")
	require.NoError(t, closeLog())
	require.NotContains(t, buf.String(), "hidden")
	require.Contains(t, buf.String(), "WARN\tshown")
	require.Equal(t, zapcore.WarnLevel, level.Level())

	level.SetLevel(zapcore.DebugLevel)
	log.Debug("now visible")
	require.Contains(t, buf.String(), "now visible")
}

func TestDebugOverridesLevel(t *testing.T) {
	var buf bytes.Buffer
	log, level, _, err := New(Options{Level: "error", Debug: true, Output: &buf})
	require.NoError(t, err)
	log.Debug("dbg")
	require.Contains(t, buf.String(), "DEBUG\tdbg")
	require.Equal(t, zapcore.DebugLevel, level.Level())
}

func TestJSONAndTimestamps(t *testing.T) {
	var buf bytes.Buffer
	off := false
	log, _, _, err := New(Options{Encoding: "json", Timestamp: &off, Output: &buf})
	require.NoError(t, err)
	log.Info("hello", zap.Int("n", 1))
	var m map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &m))
	require.Equal(t, "hello", m["msg"])
	require.Equal(t, "INFO", m["level"])
	require.EqualValues(t, 1, m["n"])
	require.NotContains(t, m, "ts")

	buf.Reset()
	log, _, _, err = New(Options{Encoding: "json", Timestamp: &off, ForceTimestamp: true, Output: &buf})
	require.NoError(t, err)
	log.Info("hello")
	require.NoError(t, json.Unmarshal(buf.Bytes(), &m))
	require.Contains(t, m, "ts", "the flag wins over LogTimestamp")
}

func TestWantTimestamps(t *testing.T) {
	on, off := true, false
	require.True(t, WantTimestamps(Options{}, true))
	require.False(t, WantTimestamps(Options{}, false))
	require.True(t, WantTimestamps(Options{Timestamp: &on}, false))
	require.False(t, WantTimestamps(Options{Timestamp: &off}, true))
	require.True(t, WantTimestamps(Options{Timestamp: &off, ForceTimestamp: true}, false))
}

func TestLogFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "dir", "n3d.log")
	log, _, closeLog, err := New(Options{Path: path})
	require.NoError(t, err)
	log.Info("to the file")
	require.NoError(t, closeLog())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, strings.Contains(string(data), "to the file"))

	// A second logger appends.
	log, _, closeLog, err = New(Options{Path: path})
	require.NoError(t, err)
	log.Info("again")
	require.NoError(t, closeLog())
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, 2, strings.Count(string(data), "\n"))
}

func TestBadOptions(t *testing.T) {
	_, _, _, err := New(Options{Level: "loud"})
	require.ErrorIs(t, err, ErrBadOptions)
	_, _, _, err = New(Options{Encoding: "xml"})
	require.ErrorIs(t, err, ErrBadOptions)

	blocker := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o600))
	_, _, _, err = New(Options{Path: filepath.Join(blocker, "sub", "n3d.log")})
	require.Error(t, err, "a file in the way of the log directory")
}
