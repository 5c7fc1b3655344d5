package consensus

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
)

// A single validator whose chain refuses the agreed block (a full disk)
// is locked at that height by its Commit: the service must hand the same
// block to the chain again once it takes blocks, not stall for good
// (found by the process-level full-disk soak: the node resumed its
// storage but made no block after it).
func TestAgreedBlockHandedAgainAfterChainRefusal(t *testing.T) {
	ks, err := validatorKeys()
	require.NoError(t, err)
	n := newTestNet(t, "protocol.privnet.single.yml", []*keys.PrivateKey{ks[0]})
	nd := n.nodes[0]
	var (
		mu       sync.Mutex
		refused  int
		firstTry util.Uint256
	)
	cfg := nd.config()
	cfg.ProcessBlock = func(b *block.Block) error {
		mu.Lock()
		if b.Index == 2 && refused < 3 {
			if refused == 0 {
				firstTry = b.Hash()
			}
			refused++
			mu.Unlock()
			return errors.New("storage refuses writes: no space left on device")
		}
		mu.Unlock()
		return nd.processBlock(b)
	}
	nd.startWith(cfg)
	n.waitHeight(4, 10*time.Second)
	nd.stop()
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, 3, refused)
	got, ok := nd.chain.GetHeaderHash(2)
	require.True(t, ok)
	require.Equal(t, firstTry, got, "the block signed first, not another one")
}
