package node_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Process-level crash soak (issue 16): `n3d node` is built, run as a
// single validator on LevelDB with 1 s blocks and SIGKILLed at seeded
// random moments while transfers are sent over RPC. After every restart
// each block hash and state root an RPC client was served must be
// unchanged at its height, and each accepted transaction must be in a
// block, back in the memory pool, or expired. Skipped unless
// N3D_SOAK_KILLS is set (the number of kills); N3D_SOAK_SEED fixes the
// seed and N3D_SOAK_PORT the first of the two loopback ports used
// (default 22800). Run by `make soak-kill`, never by `make test`.

const soakMultiAddr = "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP" // 1-of-1 validators multisig

func TestSoakKillSingle(t *testing.T) {
	kills, _ := strconv.Atoi(os.Getenv("N3D_SOAK_KILLS"))
	if kills <= 0 {
		t.Skip("process crash soak: set N3D_SOAK_KILLS (make soak-kill KILLS=50)")
	}
	seed, rng := soakSeed(t)
	port := soakPort(t, 0)
	dir := t.TempDir()
	n := newSoakNode(buildN3d(t), soakSingleConfig(t, dir, port, port+1), filepath.Join(dir, "node.log"), port+1)
	t.Cleanup(func() {
		n.kill(t)
		keepLog(t, n.logFile, fmt.Sprintf("seed%d", seed))
	})
	signer := soakSigner(t)
	seen := newSoakSeen()
	var sent, accepted int
	for k := 0; k < kills; k++ {
		n.start(t)
		height := n.waitHeight(t, 0)
		if k > 0 {
			seen.verify(t, n.rpc, k)
		}
		from, err := seen.observe(n.rpc, 0)
		require.NoError(t, err)
		// Load for a random 0.2-3 s, then SIGKILL without warning.
		end := time.Now().Add(200*time.Millisecond + time.Duration(rng.Int63n(int64(2800*time.Millisecond))))
		for time.Now().Before(end) {
			// Short validity, so some expire across kills too.
			sent++
			if seen.send(t, n.rpc, soakTransfer(t, rng, signer, soakVUB(rng, height))) {
				accepted++
			}
			if rng.Intn(8) == 0 {
				from, err = seen.observe(n.rpc, from)
				require.NoError(t, err, "kill %d", k)
				if from > 0 {
					height = from - 1
				}
			}
		}
		n.kill(t)
	}
	n.start(t)
	n.waitHeight(t, 0)
	seen.verify(t, n.rpc, kills)
	t.Logf("SUMMARY single seed %d: kills %d, restarts that replayed the block log %d, blocks checked %d "+
		"(height %d), txs sent %d accepted %d: in served blocks %d, expired %d, still pooled %d",
		seed, kills, countReplays(t, n.logFile), len(seen.blocks), len(seen.blocks)-1, sent, accepted,
		seen.confirmed, seen.expired, len(seen.txs))
}
