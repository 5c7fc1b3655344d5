//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package logging

import (
	"os"

	"golang.org/x/sys/unix"
)

func stdoutIsTerminal() bool {
	_, err := unix.IoctlGetTermios(int(os.Stdout.Fd()), unix.TIOCGETA)
	return err == nil
}
