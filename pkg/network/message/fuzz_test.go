package message

import (
	"bytes"
	"errors"
	"testing"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// FuzzMessage feeds arbitrary frames to Parse and Read: they must agree,
// never panic, and a decoded message must re-frame and decode to the same
// payload.
func FuzzMessage(f *testing.F) {
	for _, m := range []*Message{
		mustNew(f, CmdPing, &payload.Ping{Nonce: 1}),
		mustNew(f, CmdVersion, &payload.Version{UserAgent: "/n3d/"}),
		mustNew(f, CmdFilterAdd, &payload.FilterAdd{Data: make([]byte, 300)}),
		mustNew(f, CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: make([]util.Uint256, 3)}),
		mustNew(f, CmdVerack, nil),
	} {
		f.Add(m.Bytes(true))
		f.Add(m.Bytes(false))
	}
	f.Add([]byte{0, 0x50, 1, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, n, err := Parse(b)
		if m == nil && err == nil {
			require.Zero(t, n)
			return
		}
		m2, err2 := Read(bytes.NewReader(b))
		if err != nil && m == nil {
			require.Error(t, err2)
			return
		}
		require.Equal(t, err == nil, err2 == nil)
		require.Equal(t, m.Command, m2.Command)
		require.Equal(t, m.RawPayload(), m2.RawPayload())
		if err != nil {
			require.True(t, errors.Is(err, ErrUnknownCommand) || errors.Is(err, ErrBadPayload) ||
				errors.Is(err, ErrEmptyPayload) || errors.Is(err, ErrBadCompression), err)
			return
		}
		// Re-framing is canonical (the length var-int may not be).
		mr, _, err := Parse(m.Bytes(true))
		require.NoError(t, err)
		require.Equal(t, m.RawPayload(), mr.RawPayload())
		if m.Payload == nil {
			return
		}
		re, err := New(m.Command, m.Payload)
		require.NoError(t, err)
		m3, _, err := Parse(re.Bytes(true))
		require.NoError(t, err)
		w1, w2 := io.NewBufBinWriter(), io.NewBufBinWriter()
		m.Payload.EncodeBinary(w1.BinWriter)
		m3.Payload.EncodeBinary(w2.BinWriter)
		require.Equal(t, w1.Bytes(), w2.Bytes())
	})
}
