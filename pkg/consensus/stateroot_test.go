package consensus

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/util"
)

func srRequest() *Message {
	return &Message{BlockIndex: 7, ValidatorIndex: 1, ViewNumber: 2, Body: &PrepareRequest{
		PrevHash: util.Uint256{1}, TimestampMS: 1234, NonceValue: 5, Hashes: []util.Uint256{{2}, {3}},
		StateRootEnabled: true, StateRoot: util.Uint256{0xaa, 31: 0xbb}}}
}

// TestPrepareRequestStateRoot: with StateRootInHeader the proposal ends
// with the previous state root (neo-go's prepareRequest layout); decoding
// needs the network's setting, also for the request inside a recovery
// message.
func TestPrepareRequestStateRoot(t *testing.T) {
	m := srRequest()
	raw, err := m.Bytes()
	require.NoError(t, err)
	plain := *m.Body.(*PrepareRequest)
	plain.StateRootEnabled = false
	m2 := *m
	m2.Body = &plain
	rawPlain, err := m2.Bytes()
	require.NoError(t, err)
	require.Equal(t, rawPlain, raw[:len(rawPlain)])
	require.Equal(t, util.Uint256{0xaa, 31: 0xbb}.BytesBE(), reverse(raw[len(rawPlain):]))

	got, err := DecodeMessageSR(raw, true)
	require.NoError(t, err)
	req := got.Body.(*PrepareRequest)
	require.True(t, req.StateRootEnabled)
	require.Equal(t, m.Body.(*PrepareRequest).StateRoot, req.StateRoot)
	// Without the setting the root is left over (ignored like any
	// trailing bytes of a message).
	got, err = DecodeMessageSR(raw, false)
	require.NoError(t, err)
	require.Zero(t, got.Body.(*PrepareRequest).StateRoot)

	rec := &Message{BlockIndex: 7, ValidatorIndex: 2, ViewNumber: 2, Body: &RecoveryMessage{
		PrepareRequest: srRequest(),
		Commits:        []CommitCompact{{ViewNumber: 2, ValidatorIndex: 3, InvocationScript: []byte{1}}},
	}}
	raw, err = rec.Bytes()
	require.NoError(t, err)
	back, err := DecodeMessageSR(raw, true)
	require.NoError(t, err)
	rm := back.Body.(*RecoveryMessage)
	require.Equal(t, m.Body.(*PrepareRequest).StateRoot, rm.PrepareRequest.Body.(*PrepareRequest).StateRoot)
	require.Len(t, rm.Commits, 1)
	again, err := back.Bytes()
	require.NoError(t, err)
	require.Equal(t, raw, again)
	// Read without the setting, the commits are misplaced: the setting
	// must match the network.
	if wrong, err := DecodeMessageSR(raw, false); err == nil {
		require.NotEqual(t, rm.Commits, wrong.Body.(*RecoveryMessage).Commits)
	}
}

func reverse(b []byte) []byte {
	out := make([]byte, len(b))
	for i := range b {
		out[len(b)-1-i] = b[i]
	}
	return out
}

// FuzzMessageStateRoot is FuzzMessage on a StateRootInHeader network.
func FuzzMessageStateRoot(f *testing.F) {
	for _, m := range []*Message{srRequest()} {
		b, err := m.Bytes()
		require.NoError(f, err)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMessageSR(b, true)
		if err != nil {
			require.ErrorIs(t, err, ErrInvalidMessage)
			return
		}
		enc, err := m.Bytes()
		require.NoError(t, err)
		m2, err := DecodeMessageSR(enc, true)
		require.NoError(t, err)
		enc2, err := m2.Bytes()
		require.NoError(t, err)
		require.Equal(t, enc, enc2)
	})
}
