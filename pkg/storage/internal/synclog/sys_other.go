//go:build !linux

package synclog

import "os"

// fdatasync is f.Sync where fdatasync(2) is not known.
func fdatasync(f *os.File) error { return f.Sync() }
