package consensus

import (
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"github.com/nspcc-dev/dbft"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/payload"
)

func messageSeeds(f *testing.F) {
	for _, c := range sampleMessages(rand.New(rand.NewPCG(5, 6))) {
		b, err := c.msg.Bytes()
		require.NoError(f, err)
		f.Add(b)
	}
}

// FuzzMessage: any input decodes or fails cleanly; what decodes encodes
// to a canonical form that decodes to itself.
func FuzzMessage(f *testing.F) {
	messageSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMessage(b)
		if err != nil {
			require.ErrorIs(t, err, ErrInvalidMessage)
			return
		}
		enc, err := m.Bytes()
		require.NoError(t, err)
		m2, err := DecodeMessage(enc)
		require.NoError(t, err)
		enc2, err := m2.Bytes()
		require.NoError(t, err)
		require.Equal(t, enc, enc2)
	})
}

// FuzzPayload: a dBFT extensible payload from the network never panics
// the decoding, the witness check or the recovery rebuild.
func FuzzPayload(f *testing.F) {
	raw, err := hex.DecodeString(privnetCommit)
	require.NoError(f, err)
	f.Add(raw)
	r := rand.New(rand.NewPCG(7, 8))
	k, err := keys.NewPrivateKeyFromBytes(randBytes(r, 32))
	require.NoError(f, err)
	for _, c := range sampleMessages(r) {
		p := NewPayload(privnetMagic, c.msg)
		p.Sign(k)
		f.Add(encode(f, &p.Extensible))
	}
	vals := []dbft.PublicKey{k.PublicKey(), k.PublicKey(), k.PublicKey(), k.PublicKey()}
	f.Fuzz(func(t *testing.T, b []byte) {
		var e payload.Extensible
		rd := io.NewBinReaderFromBuf(b)
		e.DecodeBinary(rd)
		if rd.Err != nil {
			return
		}
		p, err := PayloadFromExtensible(privnetMagic, &e)
		if err != nil {
			return
		}
		_, _ = p.VerifyWitness()
		if rm, ok := p.Msg.Body.(*RecoveryMessage); ok {
			_ = rm.GetPrepareRequest(p, vals, uint16(primaryIndex(p.Msg.BlockIndex, p.Msg.ViewNumber, len(vals))))
			_ = rm.GetPrepareResponses(p, vals)
			_ = rm.GetChangeViews(p, vals)
			_ = rm.GetCommits(p, vals)
		}
	})
}
