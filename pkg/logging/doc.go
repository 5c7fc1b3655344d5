/*
Package logging builds the node's zap logger from the logging settings.

The command line (cmd/n3d) builds one *zap.Logger with New at start-up and
passes it down to every service; nothing here installs a global logger.

	Options (LogLevel, LogEncoding, LogPath, LogTimestamp from the config,
	         --debug and --force-timestamp-logs from the CLI)
	  └─▶ New ─▶ *zap.Logger, *zap.AtomicLevel (changeable at run time), close

Output goes to stderr, or to LogPath (its directory is created, the file is
appended to). Timestamps are written when LogTimestamp says so, or, when it
is unset, when stdout is a terminal; --force-timestamp-logs turns them on
regardless. --debug forces the debug level.
*/
package logging
