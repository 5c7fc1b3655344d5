package chain

import (
	"fmt"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
)

// sigCacheSize is the least number of successful signature checks one
// generation of the chain's signature cache holds (it keeps between this
// and twice this, 32 bytes each). The cache serves two readers: Restore's
// pre-verification, which runs at most readAheadRecords blocks ahead (a few
// signatures each), and a block's transactions that were verified once but
// are not in the memory pool when the block comes. A block made of pooled
// transactions does not need it: it trusts the pool's verification
// (verify_pooled.go), so the cache is not sized to the pool (a generation
// of 50k pooled transactions' signatures was ~2 MB of live heap, hardly
// ever read under load).
const sigCacheSize = 4096

// checkSig is pub.Verify(sig, digest), answered by cache (when not nil) if
// this exact key, signature and digest verified before. The cache only
// remembers successes, so the answer is the same with or without it.
func checkSig(cache *keys.SigCache, pub *keys.PublicKey, sig, digest []byte) bool {
	if cache == nil {
		return pub.Verify(sig, digest)
	}
	return cache.Verify(pub, sig, digest)
}

// checkMultiSig is scripts.VerifyMultiSig with every signature check going
// through checkSig: CheckMultisig's walk, each signature against the keys in
// order, giving up as soon as too few keys are left.
func checkMultiSig(cache *keys.SigCache, digest []byte, pubs keys.PublicKeys, sigs [][]byte) (bool, error) {
	m, n := len(sigs), len(pubs)
	if n == 0 || m == 0 || m > n {
		return false, fmt.Errorf("%w: %d signatures for %d keys", scripts.ErrMultisigParams, m, n)
	}
	for i, j := 0, 0; i < m && j < n; {
		if checkSig(cache, pubs[j], sigs[i], digest) {
			i++
		}
		j++
		if m-i > n-j {
			return false, nil
		}
	}
	return true, nil
}

// startPreverify starts Restore's signature pre-verification: blocks sent
// to the returned channel (by the read-ahead, without blocking) have the
// signatures of their standard header and transaction witnesses checked on
// a worker goroutine through the chain's signature cache, so that adding
// them finds every outcome already there (the failed key/signature pairings
// of multisig witnesses included; an invalid witness is still reported by
// the block's own verification). Blocks the chain has reached by the time
// the worker gets to them are skipped. stop ends the worker and waits for
// it.
func (c *Chain) startPreverify() (in chan<- *block.Block, stop func()) {
	ch := make(chan *block.Block, readAheadRecords)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case b := <-ch:
				// The block after the height may already be being added.
				if b.Index > c.BlockHeight()+1 {
					c.preverify(b, done)
				}
			}
		}
	})
	return ch, sync.OnceFunc(func() {
		close(done)
		wg.Wait()
	})
}

// preverify checks the standard witnesses of b's header and transactions
// into the signature cache. b's hashes must already be computed (Hash
// caches them; the read-ahead does it before handing b over).
func (c *Chain) preverify(b *block.Block, done <-chan struct{}) {
	magic := uint32(c.proto.Magic)
	c.preverifyWitness(hash.Sha256(b.SignData(magic)), &b.Witness)
	for _, tx := range b.Transactions {
		select {
		case <-done:
			return
		default:
		}
		digest := hash.Sha256(tx.SignData(magic))
		for i := range tx.Witnesses {
			c.preverifyWitness(digest, &tx.Witnesses[i])
		}
	}
}

// preverifyWitness checks the signatures of a standard witness into the
// cache; the outcome is not needed (the cache remembers it).
func (c *Chain) preverifyWitness(digest util.Uint256, w *transaction.Witness) {
	key, _, pubs, sigs, ok := standardWitness(w)
	if !ok {
		return
	}
	if key == nil {
		_, _ = checkMultiSig(c.sigs, digest[:], pubs, sigs) // outcome re-checked when the block is added
		return
	}
	pub, err := keys.NewPublicKeyFromBytes(key)
	if err != nil {
		return // the block's own verification reports it
	}
	checkSig(c.sigs, pub, sigs[0], digest[:])
}
