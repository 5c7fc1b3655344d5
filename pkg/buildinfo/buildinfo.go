// Package buildinfo carries the version and commit stamped into the binary
// at link time (-ldflags -X, see the Makefile) and reports the toolchain.
package buildinfo

import "runtime"

// Version and Commit are set by the linker; they read "dev" and "unknown"
// in a plain `go build`.
var (
	Version = "dev"
	Commit  = "unknown"
)

// UserAgent is the P2P user agent in the reference's "/name:version/" form.
func UserAgent() string { return "/n3d:" + Version + "/" }

// GoVersion reports the Go toolchain the binary was built with.
func GoVersion() string { return runtime.Version() }
