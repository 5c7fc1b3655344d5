package stateroot

import (
	"bytes"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func sampleMessages() []*Message {
	root := util.Uint256{1, 2, 3}
	return []*Message{
		{Type: VoteT, Vote: &Vote{ValidatorIndex: 2, Height: 77, Signature: bytes.Repeat([]byte{7}, SignatureLen)}},
		{Type: VoteT, Vote: &Vote{ValidatorIndex: -1, Height: 0, Signature: []byte{}}},
		{Type: RootT, Root: &chain.StateRoot{Index: 5, Root: root, Witnesses: []transaction.Witness{}}},
		{Type: RootT, Root: &chain.StateRoot{Index: 1 << 30, Root: root, Witnesses: []transaction.Witness{{
			InvocationScript: pushSignatures(bytes.Repeat([]byte{9}, SignatureLen)), VerificationScript: []byte{0x11}}}}},
	}
}

func TestMessageRoundTrip(t *testing.T) {
	for _, m := range sampleMessages() {
		b, err := m.Bytes()
		require.NoError(t, err)
		got, err := DecodeMessage(b)
		require.NoError(t, err)
		require.Equal(t, m, got)
	}
}

// TestMessageLayout pins the byte layout the reference reads.
func TestMessageLayout(t *testing.T) {
	m := &Message{Type: VoteT, Vote: &Vote{ValidatorIndex: 1, Height: 0x0102, Signature: []byte{0xaa, 0xbb}}}
	b, err := m.Bytes()
	require.NoError(t, err)
	require.Equal(t, []byte{0, 1, 0, 0, 0, 0x02, 0x01, 0, 0, 2, 0xaa, 0xbb}, b)
	r := &Message{Type: RootT, Root: &chain.StateRoot{Version: 0, Index: 3, Root: util.Uint256{0xee}}}
	b, err = r.Bytes()
	require.NoError(t, err)
	want := append([]byte{1, 0, 3, 0, 0, 0, 0xee}, make([]byte, 31)...)
	require.Equal(t, append(want, 0), b)
}

func TestMessageDecodeErrors(t *testing.T) {
	long := &Message{Type: VoteT, Vote: &Vote{Signature: make([]byte, SignatureLen+1)}}
	w := io.NewBufBinWriter()
	long.EncodeBinary(w.BinWriter)
	two := &chain.StateRoot{Witnesses: make([]transaction.Witness, 2)}
	w2 := io.NewBufBinWriter()
	w2.WriteU8(byte(RootT))
	two.EncodeBinary(w2.BinWriter)
	vote, err := sampleMessages()[0].Bytes()
	require.NoError(t, err)
	for name, b := range map[string][]byte{
		"empty":         nil,
		"unknown type":  {2, 0, 0},
		"long sig":      w.Bytes(),
		"two witnesses": w2.Bytes(),
		"trailing":      append(vote, 0),
		"truncated":     vote[:len(vote)-1],
	} {
		_, err := DecodeMessage(b)
		require.ErrorIs(t, err, ErrInvalidMessage, name)
	}
	_, err = (&Message{Type: 9}).Bytes()
	require.ErrorIs(t, err, ErrInvalidMessage)
}

// FuzzMessage: any input decodes or fails cleanly; what decodes encodes
// back to the same bytes.
func FuzzMessage(f *testing.F) {
	for _, m := range sampleMessages() {
		b, err := m.Bytes()
		require.NoError(f, err)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMessage(b)
		if err != nil {
			require.ErrorIs(t, err, ErrInvalidMessage)
			return
		}
		enc, err := m.Bytes()
		require.NoError(t, err)
		require.Equal(t, b, enc)
	})
}
