package node_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/consensus"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
)

const obsTestMagic = 56753

// obsTestNet is four validator keys sorted by public key, so that index
// i signs as validator i.
func obsTestNet(t *testing.T) ([]*keys.PrivateKey, keys.PublicKeys) {
	t.Helper()
	privs := make([]*keys.PrivateKey, 4)
	for i := range privs {
		var err error
		privs[i], err = keys.NewPrivateKey()
		require.NoError(t, err)
	}
	pubs := make(keys.PublicKeys, 4)
	for i, p := range privs {
		pubs[i] = p.PublicKey()
	}
	pubs.Sort()
	sorted := make([]*keys.PrivateKey, 4)
	for _, p := range privs {
		for j, k := range pubs {
			if k.Equal(p.PublicKey()) {
				sorted[j] = p
			}
		}
	}
	return sorted, pubs
}

func obsSigned(key *keys.PrivateKey, idx byte, h uint32, view byte, body consensus.Body) *consensus.Payload {
	p := consensus.NewPayload(obsTestMagic, consensus.Message{Type: body.Type(), BlockIndex: h,
		ValidatorIndex: idx, ViewNumber: view, Body: body})
	p.Sign(key)
	return p
}

func obsCommitBody(fill byte) *consensus.Commit {
	c := &consensus.Commit{}
	for i := range c.Sig {
		c.Sig[i] = fill
	}
	return c
}

// feed gives the payload to the observer the way the network does: as an
// extensible payload.
func feed(t *testing.T, o *dbftObserver, p *consensus.Payload) {
	t.Helper()
	require.ErrorIs(t, o.onExtensible(&p.Extensible), errObserverOnly)
}

// TestDbftObserverCatchesDoubleSign: the soak's observer passes the same
// payloads seen twice and catches each kind of conflicting signature it
// is meant to (so a soak run without a sign log fails, see docs/node.md).
func TestDbftObserverCatchesDoubleSign(t *testing.T) {
	privs, pubs := obsTestNet(t)
	proposal := func(ts uint64) *consensus.PrepareRequest {
		return &consensus.PrepareRequest{Version: 0, TimestampMS: ts, NonceValue: 7,
			Hashes: []util.Uint256{{1}, {2}}}
	}

	t.Run("repeats are no conflict", func(t *testing.T) {
		o := newDbftObserver(obsTestMagic, pubs)
		for range 2 {
			feed(t, o, obsSigned(privs[1], 1, 10, 0, proposal(1000)))
			feed(t, o, obsSigned(privs[2], 2, 10, 0, &consensus.PrepareResponse{Preparation: util.Uint256{9}}))
			feed(t, o, obsSigned(privs[2], 2, 10, 0, obsCommitBody(5)))
			// A Commit re-sent at a later view (the same block) is none.
			feed(t, o, obsSigned(privs[2], 2, 10, 1, obsCommitBody(5)))
		}
		// Another validator, height or view is another key.
		feed(t, o, obsSigned(privs[3], 3, 10, 0, obsCommitBody(6)))
		feed(t, o, obsSigned(privs[1], 1, 11, 0, proposal(2000)))
		feed(t, o, obsSigned(privs[1], 1, 10, 1, proposal(3000)))
		require.Empty(t, o.Violations())
		require.Contains(t, o.Summary(), "dBFT payloads checked 11")
	})

	conflicts := []struct {
		name  string
		first *consensus.Payload
		then  *consensus.Payload
		want  string
	}{
		{"two proposals", obsSigned(privs[1], 1, 10, 0, proposal(1000)),
			obsSigned(privs[1], 1, 10, 0, proposal(1001)), "two different PrepareRequest at height 10 view 0"},
		{"two responses", obsSigned(privs[0], 0, 10, 0, &consensus.PrepareResponse{Preparation: util.Uint256{1}}),
			obsSigned(privs[0], 0, 10, 0, &consensus.PrepareResponse{Preparation: util.Uint256{2}}),
			"two different PrepareResponse at height 10 view 0"},
		{"two commits", obsSigned(privs[3], 3, 10, 0, obsCommitBody(1)),
			obsSigned(privs[3], 3, 10, 2, obsCommitBody(2)), "two different Commits at height 10"},
		{"response after commit", obsSigned(privs[3], 3, 10, 0, obsCommitBody(1)),
			obsSigned(privs[3], 3, 10, 1, &consensus.PrepareResponse{Preparation: util.Uint256{1}}),
			"PrepareResponse at height 10 view 1 after its Commit at view 0"},
		{"commit after a later proposal", obsSigned(privs[2], 2, 10, 1, proposal(1000)),
			obsSigned(privs[2], 2, 10, 0, obsCommitBody(1)), "committed at height 10 view 0 after a Prepare* at view 1"},
		{"commit in a recovery", obsSigned(privs[3], 3, 10, 0, obsCommitBody(1)),
			obsSigned(privs[0], 0, 10, 0, &consensus.RecoveryMessage{Commits: []consensus.CommitCompact{
				{ViewNumber: 0, ValidatorIndex: 3, Signature: obsCommitBody(2).Sig}}}),
			"validator 3 signed two different Commits at height 10"},
		{"proposal in a recovery", obsSigned(privs[1], 1, 10, 0, proposal(1000)),
			obsSigned(privs[0], 0, 10, 0, &consensus.RecoveryMessage{PrepareRequest: &consensus.Message{
				Type: consensus.PrepareRequestType, BlockIndex: 10, ValidatorIndex: 1, Body: proposal(999)}}),
			"validator 1 signed two different PrepareRequest at height 10 view 0"},
	}
	for _, c := range conflicts {
		t.Run(c.name, func(t *testing.T) {
			o := newDbftObserver(obsTestMagic, pubs)
			feed(t, o, c.first)
			require.Empty(t, o.Violations())
			feed(t, o, c.then)
			v := o.Violations()
			require.Len(t, v, 1)
			require.True(t, strings.Contains(v[0], c.want), "%q lacks %q", v[0], c.want)
		})
	}

	t.Run("a payload not signed by its validator is not counted", func(t *testing.T) {
		o := newDbftObserver(obsTestMagic, pubs)
		feed(t, o, obsSigned(privs[1], 1, 10, 0, proposal(1000)))
		feed(t, o, obsSigned(privs[2], 1, 10, 0, proposal(1001))) // validator 2's key as 1
		require.Empty(t, o.Violations())
		require.Contains(t, o.Summary(), "bad witnesses 1")
	})
}
