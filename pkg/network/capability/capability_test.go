package capability

import (
	"bytes"
	"testing"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/stretchr/testify/require"
)

func enc(t testing.TB, e io.Encodable) []byte {
	t.Helper()
	w := io.NewBufBinWriter()
	e.EncodeBinary(w.BinWriter)
	require.NoError(t, w.Err)
	return bytes.Clone(w.Bytes())
}

func dec(b []byte) (Capabilities, error) {
	var cs Capabilities
	r := io.NewBinReaderFromBuf(b)
	cs.DecodeBinary(r)
	if r.Err == nil && r.Len() != 0 {
		return cs, io.ErrTooLarge
	}
	return cs, r.Err
}

func TestEncoding(t *testing.T) {
	// Type byte then the body of the reference's capability classes.
	for _, tc := range []struct {
		c    Capability
		want []byte
	}{
		{NewTCPServer(10333), []byte{0x01, 0x5d, 0x28}},
		{Capability{Type: WSServer, Port: 2}, []byte{0x02, 0x02, 0x00}},
		{NewFullNode(0x01020304), []byte{0x10, 0x04, 0x03, 0x02, 0x01}},
		{NewArchivalNode(), []byte{0x11, 0x00}},
		{NewDisableCompression(), []byte{0x03, 0x00}},
		// The reference's unknown-capability test vector.
		{Capability{Type: 0xff, Data: []byte{1, 2, 3}}, []byte{0xff, 0x03, 0x01, 0x02, 0x03}},
		{Capability{Type: Extension0}, []byte{0xf0, 0x00}},
	} {
		got := enc(t, &tc.c)
		require.Equal(t, tc.want, got, tc.c.Type.String())
		require.Equal(t, len(got), tc.c.Size())
		var back Capability
		r := io.NewBinReaderFromBuf(got)
		back.DecodeBinary(r)
		require.NoError(t, r.Err)
		require.Equal(t, got, enc(t, &back))
	}
	// Server capabilities are 3 bytes (reference unit test).
	require.Equal(t, 3, (&Capability{Type: WSServer, Port: 2}).Size())
}

func TestListRules(t *testing.T) {
	cs := Capabilities{NewTCPServer(1), NewFullNode(2), NewArchivalNode(),
		{Type: 0xf0}, {Type: 0xf0, Data: []byte{9}}, NewDisableCompression(), NewDisableCompression()}
	b := enc(t, cs)
	require.Len(t, b, cs.Size())
	got, err := dec(b)
	require.NoError(t, err)
	require.Equal(t, b, enc(t, got))
	require.Equal(t, uint16(1), got.TCPPort())
	h, ok := got.StartHeight()
	require.True(t, ok)
	require.Equal(t, uint32(2), h)
	require.True(t, got.IsArchival())
	require.False(t, got.AllowCompression())
	require.True(t, Capabilities{NewTCPServer(1)}.AllowCompression())

	// Duplicates of a known type are refused.
	for _, c := range []Capability{NewTCPServer(5), {Type: WSServer}, NewFullNode(0), NewArchivalNode()} {
		_, err := dec(enc(t, Capabilities{c, c}))
		require.ErrorIs(t, err, ErrDuplicate, c.Type.String())
	}
	// TcpServer and WsServer are distinct types.
	_, err = dec(enc(t, Capabilities{NewTCPServer(1), {Type: WSServer, Port: 1}}))
	require.NoError(t, err)

	// Bounds: 32 capabilities, 1024 bytes of unknown data.
	many := make(Capabilities, MaxCapabilities)
	for i := range many {
		many[i] = Capability{Type: Extension0}
	}
	_, err = dec(enc(t, many))
	require.NoError(t, err)
	_, err = dec(enc(t, append(many, many[0])))
	require.ErrorIs(t, err, io.ErrTooLarge)
	_, err = dec(enc(t, Capabilities{{Type: 0x77, Data: make([]byte, MaxDataSize)}}))
	require.NoError(t, err)
	_, err = dec(enc(t, Capabilities{{Type: 0x77, Data: make([]byte, MaxDataSize+1)}}))
	require.ErrorIs(t, err, io.ErrTooLarge)
	// DisableCompression is read like an unknown capability (var-bytes
	// body), as the reference does.
	got, err = dec([]byte{1, 0x03, 0x02, 0xaa, 0xbb})
	require.NoError(t, err)
	require.Equal(t, []byte{0xaa, 0xbb}, got[0].Data)
	// ArchivalNode must carry exactly one zero byte.
	_, err = dec([]byte{1, 0x11, 0x01})
	require.ErrorIs(t, err, ErrNonZeroBody)
	// Truncated bodies.
	for _, b := range [][]byte{{1, 0x01, 0x00}, {1, 0x10, 1, 2, 3}, {1, 0x11}, {1, 0xf0, 2, 1}, {2, 0x01, 1, 1}} {
		_, err = dec(b)
		require.Error(t, err, b)
	}
}

func FuzzCapabilities(f *testing.F) {
	f.Add(enc(f, Capabilities{NewTCPServer(1), NewFullNode(2), NewArchivalNode(), NewDisableCompression()}))
	f.Add([]byte{1, 0xff, 3, 1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		var cs Capabilities
		r := io.NewBinReaderFromBuf(b)
		cs.DecodeBinary(r)
		if r.Err != nil {
			return
		}
		once := enc(t, cs)
		again, err := dec(once)
		require.NoError(t, err)
		require.Equal(t, once, enc(t, again))
		require.Equal(t, len(once), cs.Size())
	})
}
