package node_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/storage"
)

// Process-level full disk (issue 16): `n3d node` (single validator,
// LevelDB, its database, block log, sign log and saved pool on a small
// filesystem of their own) runs under the transfer load of the crash
// soak while the test fills the filesystem, keeps the load on while the
// disk is full, frees the space, and SIGKILLs and restarts the node. The
// node must report the failure at ERROR, resume by itself (or exit with
// an error: then it is restarted once space is back), and after each
// resume and restart every block hash, state root and accepted
// transaction it served must be unchanged, in a block, pooled or
// expired. Skipped unless N3D_SOAK_SMALL_FS names a directory on a small
// filesystem (a few tens of MB), e.g. as root:
//
//	mkdir -p /mnt/n3d-small && mount -t tmpfs -o size=64m tmpfs /mnt/n3d-small
//	N3D_SOAK_SMALL_FS=/mnt/n3d-small make soak-diskfull
//
// N3D_SOAK_DISKFULL_CYCLES sets the fill/free cycles (default 3),
// N3D_SOAK_SEED the seed, N3D_SOAK_PORT+40 and +41 are its ports
// (default 22840, 22841).

const (
	noSpace      = "no space left on device"
	diskFullLine = "storage write failed: the chain stops accepting blocks and transactions"
	resumedLine  = "storage writable again: the chain accepts blocks and transactions"
)

// soakFill writes a file in dir until its filesystem is full, with ever
// smaller writes so that no free block is left.
func soakFill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	require.NoError(t, err)
	for _, size := range []int{1 << 20, 64 << 10, 4 << 10, 512, 1} {
		chunk := make([]byte, size)
		for {
			if _, err := f.Write(chunk); err != nil {
				require.True(t, storage.IsNoSpace(err), "filling the disk: %v", err)
				break
			}
		}
	}
	require.NoError(t, f.Close())
	return path
}

func TestSoakDiskFull(t *testing.T) {
	base := os.Getenv("N3D_SOAK_SMALL_FS")
	if base == "" {
		t.Skip("process full-disk soak: set N3D_SOAK_SMALL_FS to a directory on a small filesystem " +
			"(see the comment at the top of soak_diskfull_test.go)")
	}
	cycles := 3
	if s := os.Getenv("N3D_SOAK_DISKFULL_CYCLES"); s != "" {
		var err error
		cycles, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	seed, rng := soakSeed(t)
	port := soakPort(t, 40)
	dir, err := os.MkdirTemp(base, "n3d-soak-diskfull-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	n := newSoakNode(buildN3d(t), soakSingleConfig(t, dir, port, port+1), filepath.Join(t.TempDir(), "node.log"), port+1)
	t.Cleanup(func() {
		n.kill(t)
		keepLog(t, n.logFile, fmt.Sprintf("seed%d", seed))
	})
	signer := soakSigner(t)
	seen := newSoakSeen()
	var sent, accepted, refusedFull, acceptedFull, exits, resumes int
	var from, height uint32
	// load sends transfers for d (or until done returns true) and
	// records what the node served; RPC failures are counted, not fatal
	// (the node may be refusing everything, or have exited).
	load := func(d time.Duration, done func() bool, full bool) {
		end := time.Now().Add(d)
		for time.Now().Before(end) && (done == nil || !done()) {
			sent++
			if seen.send(t, n.rpc, soakTransfer(t, rng, signer, soakVUB(rng, height))) {
				accepted++
				if full {
					acceptedFull++
				}
			} else if full {
				refusedFull++
			}
			if rng.Intn(8) == 0 {
				if f, err := seen.observe(n.rpc, from); err == nil {
					from = f
					if f > 0 {
						height = f - 1
					}
				} else if ex, _ := n.exited(); !ex {
					require.NoError(t, err, "reads must be served while the disk is full")
				}
			}
		}
	}
	// N3D_SOAK_DISKFULL_KILL=1 also SIGKILLs the node while its disk is
	// full (before space is freed and it is restarted).
	killFull := os.Getenv("N3D_SOAK_DISKFULL_KILL") == "1"
	var fullKills, resumedBefore int
	n.start(t)
	height = n.waitHeight(t, 0)
	for c := 0; c < cycles; c++ {
		load(time.Second+time.Duration(rng.Int63n(int64(2*time.Second))), nil, false)
		before := logCount(t, n.logFile, noSpace)
		chainBefore := logCount(t, n.logFile, diskFullLine)
		filler := soakFill(t, dir)
		// Keep the load on until the node has noticed (a block, a
		// consensus message or a transaction it cannot write), then a
		// while longer.
		noticed := func() bool { return logCount(t, n.logFile, noSpace) > before }
		load(60*time.Second, noticed, true)
		require.True(t, noticed(), "cycle %d: no ERROR about the full disk in 60 s", c)
		frozen := from
		load(time.Second+time.Duration(rng.Int63n(int64(2*time.Second))), nil, true)
		ex, werr := n.exited()
		if ex {
			exits++
			t.Logf("cycle %d: the node exited on the full disk (%v)", c, werr)
		} else {
			// Reads are served and nothing served changed.
			_, err := seen.observe(n.rpc, 0)
			require.NoError(t, err, "cycle %d: reads while full", c)
			t.Logf("cycle %d: disk full at height %d, now %d", c, frozen-1, from-1)
		}
		if killFull && !ex {
			n.kill(t) // SIGKILLed while the disk is full
			ex = true
			fullKills++
		}
		require.NoError(t, os.Remove(filler))
		if ex {
			n.cmd = nil
			n.start(t)
			n.waitHeight(t, 0)
		} else {
			// Blocks resume by themselves (and the chain says so if it
			// had stopped).
			resumed := func() bool { return soakCount(t, n.rpc) > frozen }
			load(60*time.Second, resumed, false)
			require.True(t, resumed(), "cycle %d: no block within 60 s of freeing space", c)
			if logCount(t, n.logFile, diskFullLine) > chainBefore {
				require.Positive(t, logCount(t, n.logFile, resumedLine)-resumedBefore, "cycle %d", c)
			}
			resumes++
		}
		resumedBefore = logCount(t, n.logFile, resumedLine)
		seen.verify(t, n.rpc, c)
		load(time.Second+time.Duration(rng.Int63n(int64(2*time.Second))), nil, false)
		_, err := seen.observe(n.rpc, from)
		require.NoError(t, err)
		n.kill(t)
		n.start(t)
		n.waitHeight(t, 0)
		seen.verify(t, n.rpc, c)
		from, err = seen.observe(n.rpc, 0)
		require.NoError(t, err)
	}
	t.Logf("SUMMARY diskfull seed %d: cycles %d (resumed by itself %d, exited %d, killed while full %d), "+
		"chain storage ERROR lines %d, no-space lines %d, "+
		"blocks checked %d, txs sent %d accepted %d (while full: accepted %d refused %d): in served blocks %d, "+
		"expired %d, still pooled %d", seed, cycles, resumes, exits, fullKills, logCount(t, n.logFile, diskFullLine),
		logCount(t, n.logFile, noSpace),
		len(seen.blocks), sent, accepted, acceptedFull, refusedFull, seen.confirmed, seen.expired, len(seen.txs))
}
