package message

import (
	"bytes"
	"encoding/binary"
	stdio "io"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/capability"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// roundTrip frames m both ways and checks that Parse and Read give back
// the same command and payload bytes.
func roundTrip(t *testing.T, m *Message) *Message {
	t.Helper()
	var last *Message
	for _, allow := range []bool{true, false} {
		frame := m.Bytes(allow)
		require.Len(t, frame, m.Size(allow))
		got, n, err := Parse(frame)
		require.NoError(t, err)
		require.Equal(t, len(frame), n)
		require.Equal(t, m.Command, got.Command)
		require.Equal(t, m.RawPayload(), got.RawPayload())
		require.Equal(t, allow && m.IsCompressed(), got.IsCompressed())

		got2, err := Read(bytes.NewReader(frame))
		require.NoError(t, err)
		require.Equal(t, got.RawPayload(), got2.RawPayload())

		r := io.NewBinReaderFromBuf(frame)
		var got3 Message
		got3.DecodeBinary(r)
		require.NoError(t, r.Err)
		require.Equal(t, got.RawPayload(), got3.RawPayload())
		// A decoded message re-frames to the frame it came from.
		require.Equal(t, frame, got.Bytes(true))
		last = got
	}
	return last
}

func mustNew(t testing.TB, cmd Command, p io.Serializable) *Message {
	t.Helper()
	m, err := New(cmd, p)
	require.NoError(t, err)
	return m
}

func sampleHeader() *block.Header {
	return &block.Header{
		PrevHash:      util.Uint256{1, 2, 3},
		MerkleRoot:    util.Uint256{4, 5, 6},
		Timestamp:     1468595301000,
		Nonce:         0x7c2bac1d,
		Index:         7,
		PrimaryIndex:  1,
		NextConsensus: util.Uint160{9},
		Witness:       transaction.Witness{InvocationScript: []byte{0x0c, 0x40}, VerificationScript: []byte{0x11}},
	}
}

func TestCommandTable(t *testing.T) {
	// The reference's MessageCommand enum: value, name, whether
	// Message.ShallICompress lists it, and whether ReflectionCache maps it
	// to a payload type.
	ref := []struct {
		c        Command
		v        byte
		name     string
		compress bool
		payload  bool
	}{
		{CmdVersion, 0x00, "Version", false, true},
		{CmdVerack, 0x01, "Verack", false, false},
		{CmdGetAddr, 0x10, "GetAddr", false, false},
		{CmdAddr, 0x11, "Addr", true, true},
		{CmdPing, 0x18, "Ping", false, true},
		{CmdPong, 0x19, "Pong", false, true},
		{CmdGetHeaders, 0x20, "GetHeaders", false, true},
		{CmdHeaders, 0x21, "Headers", true, true},
		{CmdGetBlocks, 0x24, "GetBlocks", false, true},
		{CmdMempool, 0x25, "Mempool", false, false},
		{CmdInv, 0x27, "Inv", false, true},
		{CmdGetData, 0x28, "GetData", false, true},
		{CmdGetBlockByIndex, 0x29, "GetBlockByIndex", false, true},
		{CmdNotFound, 0x2a, "NotFound", false, true},
		{CmdTransaction, 0x2b, "Transaction", true, true},
		{CmdBlock, 0x2c, "Block", true, true},
		{CmdExtensible, 0x2e, "Extensible", true, true},
		{CmdReject, 0x2f, "Reject", false, false},
		{CmdFilterLoad, 0x30, "FilterLoad", true, true},
		{CmdFilterAdd, 0x31, "FilterAdd", true, true},
		{CmdFilterClear, 0x32, "FilterClear", false, false},
		{CmdMerkleBlock, 0x38, "MerkleBlock", true, true},
		{CmdAlert, 0x40, "Alert", false, false},
		// neo-go's P2PSigExtensions command (CMDP2PNotaryRequest, compressed).
		{CmdP2PNotaryRequest, 0x50, "P2PNotaryRequest", true, true},
		// neo-go's P2PStateExchangeExtensions commands (CMDGetMPTData is
		// never compressed, CMDMPTData is like any large payload).
		{CmdGetMPTData, 0x51, "GetMPTData", false, true},
		{CmdMPTData, 0x52, "MPTData", true, true},
	}
	known := 0
	for i := range 256 {
		if Command(i).Known() {
			known++
		}
	}
	require.Equal(t, len(ref), known)
	for _, r := range ref {
		require.Equal(t, r.v, byte(r.c), r.name)
		require.Equal(t, r.name, r.c.String())
		require.True(t, r.c.Known())
		require.Equal(t, r.compress, r.c.Compressible(), r.name)
		require.Equal(t, r.payload, r.c.HasPayload(), r.name)
	}
	// Inventory types are the commands carrying the items.
	require.Equal(t, byte(CmdTransaction), byte(payload.InvTX))
	require.Equal(t, byte(CmdBlock), byte(payload.InvBlock))
	require.Equal(t, byte(CmdExtensible), byte(payload.InvExtensible))
	require.Equal(t, "Unknown(0x5f)", Command(0x5f).String())
}

func TestRoundTripEveryCommand(t *testing.T) {
	hdr := sampleHeader()
	caps := capability.Capabilities{capability.NewTCPServer(10333), capability.NewFullNode(5)}
	msgs := map[Command]io.Serializable{
		CmdVersion:         &payload.Version{Network: 860833102, Timestamp: 1, Nonce: 2, UserAgent: "/n3d:0.1/", Capabilities: caps},
		CmdAddr:            &payload.AddrList{Addrs: []payload.NetworkAddress{{Timestamp: 3, IP: [16]byte{15: 1}, Capabilities: caps}}},
		CmdPing:            &payload.Ping{LastBlockIndex: 1, Timestamp: 2, Nonce: 3},
		CmdPong:            &payload.Ping{LastBlockIndex: 4, Timestamp: 5, Nonce: 6},
		CmdGetHeaders:      &payload.GetBlockByIndex{IndexStart: 1, Count: -1},
		CmdHeaders:         &payload.Headers{Headers: []*block.Header{hdr, hdr}},
		CmdGetBlocks:       &payload.GetBlocks{HashStart: util.Uint256{1}, Count: 500},
		CmdInv:             &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{{1}, {2}}},
		CmdGetData:         &payload.Inventory{Type: payload.InvBlock, Hashes: []util.Uint256{{3}}},
		CmdGetBlockByIndex: &payload.GetBlockByIndex{IndexStart: 100, Count: 2000},
		CmdNotFound:        &payload.Inventory{Type: payload.InvExtensible},
		CmdExtensible: &payload.Extensible{Category: "dBFT", ValidBlockStart: 1, ValidBlockEnd: 2,
			Data: bytes.Repeat([]byte{7}, 300), Witness: hdr.Witness},
		CmdFilterLoad:  &payload.FilterLoad{Filter: make([]byte, 1000), K: 3, Tweak: 4},
		CmdFilterAdd:   &payload.FilterAdd{Data: []byte{1, 2}},
		CmdMerkleBlock: &payload.MerkleBlock{Header: *hdr, TxCount: 3, Hashes: []util.Uint256{{1}}, Flags: []byte{1}},
	}
	for cmd, p := range msgs {
		m := mustNew(t, cmd, p)
		got := roundTrip(t, m)
		require.IsType(t, p, got.Payload, cmd.String())
		want, err := encode(p)
		require.NoError(t, err)
		again, err := encode(got.Payload)
		require.NoError(t, err)
		require.Equal(t, want, again, cmd.String())
	}
	for _, cmd := range []Command{CmdVerack, CmdGetAddr, CmdMempool, CmdFilterClear, CmdReject, CmdAlert} {
		m := mustNew(t, cmd, nil)
		require.Equal(t, []byte{0, byte(cmd), 0}, m.Bytes(true))
		got := roundTrip(t, m)
		require.Nil(t, got.Payload)
	}
}

func encode(p io.Serializable) ([]byte, error) {
	w := io.NewBufBinWriter()
	p.EncodeBinary(w.BinWriter)
	return w.Bytes(), w.Err
}

// TestCompressionRules checks Message.Create's decision: compressible
// command, payload longer than 128 bytes, gain larger than 64 bytes.
func TestCompressionRules(t *testing.T) {
	fa := func(n int) *payload.FilterAdd { return &payload.FilterAdd{Data: make([]byte, n)} }
	// 127 data bytes + 1-byte length = 128: not above the minimum.
	require.False(t, mustNew(t, CmdFilterAdd, fa(127)).IsCompressed())
	require.True(t, mustNew(t, CmdFilterAdd, fa(128)).IsCompressed())
	// Not a compressible command.
	inv := &payload.Inventory{Type: payload.InvTX, Hashes: make([]util.Uint256, 100)}
	require.False(t, mustNew(t, CmdInv, inv).IsCompressed())
	// Incompressible data.
	require.False(t, mustNew(t, CmdFilterAdd, &payload.FilterAdd{Data: lcg(1, 500)}).IsCompressed())
	// The gain must exceed the threshold: find the boundary with random
	// data followed by zeros and check both sides against compress itself.
	for n := 130; n < 400; n++ {
		data := append(lcg(2, 80), make([]byte, n-80)...)
		raw := append([]byte{byte(n)}, data...)
		if n >= 0xfd {
			raw = append([]byte{0xfd, byte(n), byte(n >> 8)}, data...)
		}
		want := len(compress(raw)) < len(raw)-CompressionThreshold
		m := mustNew(t, CmdFilterAdd, &payload.FilterAdd{Data: data})
		require.Equal(t, want, m.IsCompressed(), n)
		if want {
			require.Equal(t, compress(raw), m.wire)
		}
	}
}

func TestPlainFallback(t *testing.T) {
	m := mustNew(t, CmdFilterAdd, &payload.FilterAdd{Data: make([]byte, 400)})
	require.True(t, m.IsCompressed())
	plain := m.Bytes(false)
	require.Equal(t, byte(0), plain[0])
	require.Equal(t, byte(CmdFilterAdd), plain[1])
	require.Equal(t, []byte{0xfd, 0x93, 0x01}, plain[2:5]) // 3 + 400 bytes
	require.Equal(t, m.RawPayload(), plain[5:])
	c := m.Bytes(true)
	require.Equal(t, byte(Compressed), c[0])
	require.Less(t, len(c), len(plain))
}

func TestPayloadTooLarge(t *testing.T) {
	// Framing: a length above PayloadMaxSize is rejected from the header.
	for _, hdr := range [][]byte{
		{0, byte(CmdBlock), 0xfe, 0x01, 0x00, 0x00, 0x02},
		{0, byte(CmdBlock), 0xff, 0, 0, 0, 0, 0, 0, 0, 1},
	} {
		_, _, err := Parse(hdr)
		require.ErrorIs(t, err, ErrPayloadTooLarge)
		_, err = Read(bytes.NewReader(hdr))
		require.ErrorIs(t, err, ErrPayloadTooLarge)
		r := io.NewBinReaderFromBuf(hdr)
		new(Message).DecodeBinary(r)
		require.ErrorIs(t, r.Err, io.ErrTooLarge)
	}
	// Exactly PayloadMaxSize is allowed (only the header is checked here).
	hdr := []byte{0, byte(CmdBlock), 0xfe, 0, 0, 0, 2}
	m, n, err := Parse(hdr)
	require.NoError(t, err)
	require.Nil(t, m)
	require.Zero(t, n)
	// A compressed payload announcing more than PayloadMaxSize.
	bad := []byte{byte(Compressed), byte(CmdBlock), 5, 1, 0, 0, 2, 0}
	_, _, err = Parse(bad)
	require.ErrorIs(t, err, ErrBadCompression)
	// Encoding refuses a payload over the limit.
	_, err = New(CmdFilterAdd, &bigPayload{n: PayloadMaxSize + 1})
	require.ErrorIs(t, err, ErrPayloadTooLarge)
}

type bigPayload struct{ n int }

func (b *bigPayload) EncodeBinary(w *io.BinWriter) { w.WriteBytes(make([]byte, b.n)) }
func (b *bigPayload) DecodeBinary(r *io.BinReader) {}

func TestTruncated(t *testing.T) {
	m := mustNew(t, CmdPing, &payload.Ping{LastBlockIndex: 1, Timestamp: 2, Nonce: 3})
	frame := m.Bytes(true)
	big := mustNew(t, CmdFilterLoad, &payload.FilterLoad{Filter: lcg(3, 300), K: 1})
	frames := [][]byte{frame, big.Bytes(true)}
	for _, f := range frames {
		for i := range len(f) {
			got, n, err := Parse(f[:i])
			require.NoError(t, err)
			require.Nil(t, got)
			require.Zero(t, n)
			_, err = Read(bytes.NewReader(f[:i]))
			if i == 0 {
				require.ErrorIs(t, err, stdio.EOF)
			} else {
				require.ErrorIs(t, err, stdio.ErrUnexpectedEOF, i)
			}
		}
	}
	// A payload shorter than its type needs.
	short := []byte{0, byte(CmdPing), 11}
	short = append(short, make([]byte, 11)...)
	_, n, err := Parse(short)
	require.ErrorIs(t, err, ErrBadPayload)
	require.Equal(t, len(short), n)
}

func TestUnknownCommandKeepsStream(t *testing.T) {
	ping := mustNew(t, CmdPing, &payload.Ping{Nonce: 9}).Bytes(true)
	unknown := []byte{0, 0x5f, 3, 1, 2, 3}
	stream := append(append(append([]byte{}, unknown...), ping...), unknown...)
	r := bytes.NewReader(stream)
	m, err := Read(r)
	require.ErrorIs(t, err, ErrUnknownCommand)
	require.Equal(t, Command(0x5f), m.Command)
	require.Equal(t, []byte{1, 2, 3}, m.RawPayload())
	m, err = Read(r)
	require.NoError(t, err)
	require.Equal(t, uint32(9), m.Payload.(*payload.Ping).Nonce)

	m, n, err := Parse(stream)
	require.ErrorIs(t, err, ErrUnknownCommand)
	require.Equal(t, len(unknown), n)
	require.Nil(t, m.Payload)
	m, _, err = Parse(stream[n:])
	require.NoError(t, err)
	require.Equal(t, CmdPing, m.Command)
}

func TestEmptyAndIgnoredPayloads(t *testing.T) {
	// A command that carries a payload cannot come without one.
	for _, cmd := range []Command{CmdVersion, CmdBlock, CmdTransaction, CmdInv, CmdPing} {
		_, _, err := Parse([]byte{0, byte(cmd), 0})
		require.ErrorIs(t, err, ErrEmptyPayload, cmd.String())
		// Even flagged as compressed: the reference skips decompression of
		// an empty payload.
		_, _, err = Parse([]byte{byte(Compressed), byte(cmd), 0})
		require.ErrorIs(t, err, ErrEmptyPayload, cmd.String())
	}
	// Payload-less commands ignore whatever they carry, as the reference
	// does, but a flagged payload must still decompress.
	m, _, err := Parse([]byte{0, byte(CmdVerack), 2, 0xaa, 0xbb})
	require.NoError(t, err)
	require.Nil(t, m.Payload)
	c := compress(make([]byte, 300))
	f := append([]byte{byte(Compressed), byte(CmdAlert), byte(len(c))}, c...)
	m, _, err = Parse(f)
	require.NoError(t, err)
	require.Len(t, m.RawPayload(), 300)
	f[3]++ // wrong announced length
	_, _, err = Parse(f)
	require.ErrorIs(t, err, ErrBadCompression)
	// Unknown flag bits are carried, not rejected.
	m, _, err = Parse([]byte{0x80, byte(CmdGetAddr), 0})
	require.NoError(t, err)
	require.Equal(t, Flags(0x80), m.Flags)
}

func TestBadPayloadErrors(t *testing.T) {
	frame := func(cmd Command, p []byte) []byte {
		return append([]byte{0, byte(cmd), byte(len(p))}, p...)
	}
	cases := map[string][]byte{
		"inv type":      frame(CmdInv, []byte{0x2d, 0}),
		"getblocks 0":   frame(CmdGetBlocks, append(make([]byte, 32), 0, 0)),
		"getheaders -2": frame(CmdGetHeaders, []byte{0, 0, 0, 0, 0xfe, 0xff}),
		"addr empty":    frame(CmdAddr, []byte{0}),
		"headers empty": frame(CmdHeaders, []byte{0}),
		"bad tx":        frame(CmdTransaction, []byte{1, 2, 3}),
		"bad block":     frame(CmdBlock, []byte{1, 2, 3}),
	}
	for name, f := range cases {
		_, n, err := Parse(f)
		require.ErrorIs(t, err, ErrBadPayload, name)
		require.Equal(t, len(f), n)
	}
}

func TestFrameHeaderLengths(t *testing.T) {
	// The var-int length uses 1, 3 and 5 bytes (the reference's writer).
	for _, n := range []int{0, 0xfc, 0xfd, 0xffff, 0x10000} {
		m := mustNew(t, CmdFilterLoad, &payload.FilterLoad{Filter: lcg(5, max(0, n-6)), K: 1})
		if m.IsCompressed() {
			continue
		}
		f := m.Bytes(true)
		l := len(m.RawPayload())
		require.Equal(t, 2+io.GetVarSize(l)+l, len(f))
		switch io.GetVarSize(l) {
		case 3:
			require.Equal(t, byte(0xfd), f[2])
			require.Equal(t, uint16(l), binary.LittleEndian.Uint16(f[3:]))
		case 5:
			require.Equal(t, byte(0xfe), f[2])
			require.Equal(t, uint32(l), binary.LittleEndian.Uint32(f[3:]))
		}
	}
}
