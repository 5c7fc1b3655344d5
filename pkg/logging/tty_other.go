//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package logging

// stdoutIsTerminal is not probed on this platform: timestamps are off unless
// LogTimestamp or --force-timestamp-logs asks for them.
func stdoutIsTerminal() bool { return false }
