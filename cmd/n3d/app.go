package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/n3d-io/n3d/pkg/config"
	"io"

	"github.com/n3d-io/n3d/pkg/buildinfo"
	"github.com/urfave/cli/v3"
)

// env is what a command sees of the outside world; tests replace it.
type env struct {
	stdout, stderr io.Writer
	// stdin feeds prompts (wallet passwords); nil means os.Stdin.
	stdin io.Reader
	// ready, when set, is called once the node is up and waiting for a
	// signal (tests use it to know when to stop the node).
	ready func()
	// adjust, when set, edits the loaded configuration before the node
	// starts (tests move every listener to a free loopback port).
	adjust func(*config.Config)
}

// run executes the command line and returns the process exit code.
func run(ctx context.Context, args []string, e *env) int {
	app := newApp(e)
	err := app.Run(ctx, args)
	if err == nil {
		return 0
	}
	fmt.Fprintf(e.stderr, "n3d: %v\n", err)
	var coder cli.ExitCoder
	if errors.As(err, &coder) && coder.ExitCode() != 0 {
		return coder.ExitCode()
	}
	return 1
}

func newApp(e *env) *cli.Command {
	return &cli.Command{
		Name:    "n3d",
		Usage:   "Neo N3 full node",
		Version: buildinfo.Version,
		Writer:  e.stdout,
		// Errors are printed by run, once, and never exit the process from
		// inside the library.
		ErrWriter:      e.stderr,
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Commands: []*cli.Command{
			nodeCommand(e),
			dbCommand(e),
			walletCommand(e),
			queryCommand(e),
			contractCommand(e),
			utilCommand(e),
			simCommand(e),
			versionCommand(e),
		},
	}
}

// ensureNoArgs rejects positional arguments, like neo-go does.
func ensureNoArgs(cmd *cli.Command) error {
	if cmd.Args().Present() {
		return fmt.Errorf("unexpected arguments %q: this command takes flags only", cmd.Args().Slice())
	}
	return nil
}

func versionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "Print version, commit and Go version",
		Action: func(_ context.Context, cmd *cli.Command) error {
			if err := ensureNoArgs(cmd); err != nil {
				return err
			}
			_, err := fmt.Fprintf(e.stdout, "n3d\nVersion: %s\nCommit: %s\nGoVersion: %s\n",
				buildinfo.Version, buildinfo.Commit, buildinfo.GoVersion())
			return err
		},
	}
}
