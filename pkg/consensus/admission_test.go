package consensus

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// TestAdmission: a dBFT payload is admitted only in its height window,
// from a validator of the next block, with a valid witness; the
// validators are read once per height.
func TestAdmission(t *testing.T) {
	const magic = 42
	val, other := mustKey(t), mustKey(t)
	height, reads := uint32(3), 0
	a, err := NewAdmission(AdmissionConfig{Magic: magic,
		Height: func() uint32 { return height },
		NextBlockValidators: func() (keys.PublicKeys, error) {
			reads++
			return keys.PublicKeys{val.PublicKey()}, nil
		}})
	require.NoError(t, err)
	signed := func(k *keys.PrivateKey, index uint32) *payload.Extensible {
		p := NewPayload(magic, Message{Type: RecoveryRequestType, BlockIndex: index,
			Body: &RecoveryRequest{TimestampMS: 1}})
		p.Sign(k)
		e := p.Extensible
		return &e
	}

	require.NoError(t, a.Check(signed(val, 4)))
	require.NoError(t, a.Check(signed(val, 5)))
	require.Equal(t, 1, reads, "validators read once at a height")

	require.ErrorIs(t, a.Check(signed(val, 3)), ErrExtensibleHeight, "window ends at the current height")
	require.ErrorIs(t, a.Check(signed(other, 4)), ErrExtensibleSender)
	wrong := signed(val, 4)
	wrong.Category = "StateService"
	require.ErrorIs(t, a.Check(wrong), ErrExtensibleCategory)
	forged := signed(val, 4)
	forged.Witness.InvocationScript[10] ^= 0xff
	require.Error(t, a.Check(forged), "bad witness")

	height = 4
	require.NoError(t, a.Check(signed(val, 5)))
	require.Equal(t, 2, reads, "validators read again at a new height")

	_, err = NewAdmission(AdmissionConfig{Magic: magic})
	require.ErrorIs(t, err, ErrBadConfig)
	failing, err := NewAdmission(AdmissionConfig{Magic: magic, Height: func() uint32 { return 0 },
		NextBlockValidators: func() (keys.PublicKeys, error) { return nil, errors.New("no state") }})
	require.NoError(t, err)
	require.ErrorContains(t, failing.Check(signed(val, 1)), "no state")
}

// TestProposable: expired and on-chain transactions are dropped, the
// others keep their order.
func TestProposable(t *testing.T) {
	mk := func(nonce, vub uint32) *transaction.Transaction {
		return &transaction.Transaction{Nonce: nonce, ValidUntilBlock: vub, Script: []byte{0x40}}
	}
	expired, onChain, failing, a, b := mk(1, 10), mk(2, 20), mk(3, 20), mk(4, 11), mk(5, 30)
	got := Proposable([]*transaction.Transaction{a, expired, onChain, b, failing}, 10,
		func(h util.Uint256) (bool, error) {
			switch h {
			case onChain.Hash():
				return true, nil
			case failing.Hash():
				return false, errors.New("lookup failed")
			}
			return false, nil
		})
	require.Equal(t, []*transaction.Transaction{a, b}, got)
}

func mustKey(t *testing.T) *keys.PrivateKey {
	t.Helper()
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	return k
}
