/*
Command n3d is the Neo N3 full node daemon.

	n3d node              run a node (default: single-validator privnet)
	n3d db dump|restore   export or import blocks in the .acc chain dump format
	n3d wallet ...        NEP-6 wallet management
	n3d version           print version, commit and Go version

The flags are neo-go's (--config-path, --config-file, --relative-path,
-p/-m/-t, -d, --force-timestamp-logs, db -i/-o/-s/-c/--dump/--non-incremental)
so operators' scripts keep working; docs/cli.md describes them.

Flow of a command: flags ─▶ config file selection (flags.go) ─▶
config.LoadFile (strict decode, defaults, validation) ─▶ logging.New (one
*zap.Logger, injected) ─▶ the command's function, which receives the loaded
config, the logger and a context cancelled on SIGINT/SIGTERM. Services are
wired in node.go, chain import/export in db.go.
*/
package main
