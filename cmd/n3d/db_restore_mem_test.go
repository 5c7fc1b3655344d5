package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRestoreGC: a restore lowers the GC target unless GOGC is set, and
// puts the previous one back.
func TestRestoreGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)

	undo := restoreGC(func(string) string { return "" })
	require.Equal(t, restoreGCPercent, debug.SetGCPercent(restoreGCPercent))
	undo()
	require.Equal(t, 100, debug.SetGCPercent(100))

	undo = restoreGC(func(k string) string {
		if k == "GOGC" {
			return "200"
		}
		return ""
	})
	require.Equal(t, 100, debug.SetGCPercent(100), "GOGC in the environment wins")
	undo()
	require.Equal(t, 100, debug.SetGCPercent(100))
}
