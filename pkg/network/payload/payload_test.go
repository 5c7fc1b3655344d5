package payload

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/capability"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

type sized interface {
	io.Serializable
	Size() int
}

// roundTrip encodes p, checks Size, decodes into fresh and re-encodes to the
// same bytes.
func roundTrip(t *testing.T, p, fresh sized) []byte {
	t.Helper()
	b := encode(t, p)
	require.Len(t, b, p.Size())
	r := io.NewBinReaderFromBuf(b)
	fresh.DecodeBinary(r)
	require.NoError(t, r.Err)
	require.Zero(t, r.Len())
	require.Equal(t, b, encode(t, fresh))
	return b
}

func encode(t testing.TB, p io.Encodable) []byte {
	t.Helper()
	w := io.NewBufBinWriter()
	p.EncodeBinary(w.BinWriter)
	require.NoError(t, w.Err)
	return bytes.Clone(w.Bytes())
}

func decodeErr(b []byte, p io.Decodable) error {
	r := io.NewBinReaderFromBuf(b)
	p.DecodeBinary(r)
	return r.Err
}

func testWitness() transaction.Witness {
	return transaction.Witness{InvocationScript: []byte{0x11, 0x12, 0x13}, VerificationScript: []byte{}}
}

func testHeader() block.Header {
	return block.Header{PrevHash: util.Uint256{1}, MerkleRoot: util.Uint256{2}, Timestamp: 3, Nonce: 4,
		Index: 5, PrimaryIndex: 6, NextConsensus: util.Uint160{7}, Witness: testWitness()}
}

// TestVersionLayout checks the byte layout of VersionPayload.Serialize:
// Network, Version, Timestamp, Nonce as u32 LE, the user agent as a
// var-string, then the capability array.
func TestVersionLayout(t *testing.T) {
	v := &Version{Network: 0x334F454E, Version: 0, Timestamp: 0x01020304, Nonce: 0xa1b2c3d4,
		UserAgent: "/n3d:0.1.0/", Capabilities: capability.Capabilities{
			capability.NewTCPServer(10333), capability.NewFullNode(123456)}}
	var want []byte
	want = binary.LittleEndian.AppendUint32(want, 0x334F454E)
	want = binary.LittleEndian.AppendUint32(want, 0)
	want = binary.LittleEndian.AppendUint32(want, 0x01020304)
	want = binary.LittleEndian.AppendUint32(want, 0xa1b2c3d4)
	want = append(want, byte(len(v.UserAgent)))
	want = append(want, v.UserAgent...)
	want = append(want, 2, 0x01)
	want = binary.LittleEndian.AppendUint16(want, 10333)
	want = append(want, 0x10)
	want = binary.LittleEndian.AppendUint32(want, 123456)
	got := roundTrip(t, v, new(Version))
	require.Equal(t, want, got)
	require.True(t, v.AllowCompression())

	// Sizes from the reference's unit tests: "neo3" without capabilities
	// is 22 bytes, with one TcpServer 25.
	require.Equal(t, 22, (&Version{UserAgent: "neo3"}).Size())
	require.Equal(t, 25, (&Version{UserAgent: "neo3", Capabilities: capability.Capabilities{capability.NewTCPServer(22)}}).Size())

	v.Capabilities = append(v.Capabilities, capability.NewDisableCompression())
	roundTrip(t, v, new(Version))
	require.False(t, v.AllowCompression())
}

func TestVersionErrors(t *testing.T) {
	base := encode(t, &Version{UserAgent: "neo3", Capabilities: capability.Capabilities{capability.NewTCPServer(22)}})
	// Duplicate known capability.
	dup := append(bytes.Clone(base[:len(base)-4]), 2, 1, 22, 0, 1, 22, 0)
	require.ErrorIs(t, decodeErr(dup, new(Version)), capability.ErrDuplicate)
	// Unknown capabilities (also duplicated) are kept, as in the reference.
	unk := append(bytes.Clone(base[:len(base)-4]), 4, 1, 22, 0, 0xfe, 0, 0xfd, 2, 0, 0, 0xfe, 0)
	var v Version
	require.NoError(t, decodeErr(unk, &v))
	require.Len(t, v.Capabilities, 4)
	require.Equal(t, uint16(22), v.Capabilities.TCPPort())
	// User agent: 1024 bytes is the limit, and it must be UTF-8.
	ua := func(s string) []byte { return encode(t, &Version{UserAgent: s}) }
	require.NoError(t, decodeErr(ua(string(bytes.Repeat([]byte{'a'}, 1024))), new(Version)))
	require.ErrorIs(t, decodeErr(ua(string(bytes.Repeat([]byte{'a'}, 1025))), new(Version)), io.ErrTooLarge)
	require.ErrorIs(t, decodeErr(ua("\xff\xfe"), new(Version)), ErrInvalidUTF8)
	require.ErrorIs(t, decodeErr(ua("\xed\xa0\x80"), new(Version)), ErrInvalidUTF8) // surrogate
	// Too many capabilities.
	caps := make(capability.Capabilities, capability.MaxCapabilities+1)
	for i := range caps {
		caps[i] = capability.Capability{Type: capability.Extension0}
	}
	require.ErrorIs(t, decodeErr(encode(t, &Version{Capabilities: caps}), new(Version)), io.ErrTooLarge)
	require.NoError(t, decodeErr(encode(t, &Version{Capabilities: caps[1:]}), new(Version)))
	// Truncated anywhere.
	for i := range base {
		require.Error(t, decodeErr(base[:i], new(Version)), i)
	}
}

func TestNetworkAddress(t *testing.T) {
	// Sizes from the reference's unit tests.
	a := NewNetworkAddress(netip.IPv4Unspecified(), 1, nil)
	require.Equal(t, 21, a.Size())
	require.Equal(t, uint16(0), a.AddrPort().Port())
	a = NewNetworkAddress(netip.IPv4Unspecified(), 1, capability.Capabilities{capability.NewTCPServer(22)})
	require.Equal(t, 24, a.Size())
	require.Equal(t, uint16(22), a.AddrPort().Port())

	// IPv4 travels mapped into IPv6 (::ffff:a.b.c.d) and comes back as IPv4.
	ip := netip.MustParseAddr("192.0.2.7")
	a = NewNetworkAddress(ip, 77, capability.Capabilities{capability.NewTCPServer(10333),
		{Type: capability.Extension0}, {Type: capability.Extension0}})
	b := roundTrip(t, &a, new(NetworkAddress))
	require.Equal(t, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 7}, b[4:20])
	var got NetworkAddress
	require.NoError(t, decodeErr(b, &got))
	require.Equal(t, netip.AddrPortFrom(ip, 10333), got.AddrPort())
	ip6 := netip.MustParseAddr("2001:db8::1")
	a6 := NewNetworkAddress(ip6, 1, nil)
	roundTrip(t, &a6, new(NetworkAddress))
	require.Equal(t, ip6, a6.Addr())

	dup := NewNetworkAddress(ip, 1, capability.Capabilities{capability.NewTCPServer(1), capability.NewTCPServer(1)})
	require.ErrorIs(t, decodeErr(encode(t, &dup), new(NetworkAddress)), capability.ErrDuplicate)
}

func TestAddrList(t *testing.T) {
	addrs := make([]NetworkAddress, MaxAddrCount)
	for i := range addrs {
		addrs[i] = NewNetworkAddress(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), uint32(i),
			capability.Capabilities{capability.NewTCPServer(uint16(i))})
	}
	roundTrip(t, &AddrList{Addrs: addrs}, new(AddrList))
	over := append(addrs, addrs[0])
	require.ErrorIs(t, decodeErr(encode(t, &AddrList{Addrs: over}), new(AddrList)), io.ErrTooLarge)
	require.ErrorIs(t, decodeErr([]byte{0}, new(AddrList)), ErrEmpty)
}

func TestPing(t *testing.T) {
	b := roundTrip(t, &Ping{LastBlockIndex: 0x01020304, Timestamp: 5, Nonce: 6}, new(Ping))
	require.Equal(t, []byte{4, 3, 2, 1, 5, 0, 0, 0, 6, 0, 0, 0}, b)
	require.Error(t, decodeErr(b[:11], new(Ping)))
}

func TestInventory(t *testing.T) {
	hs := make([]util.Uint256, MaxHashesCount)
	for i := range hs {
		hs[i] = hash.Sha256([]byte{byte(i), byte(i >> 8)})
	}
	for _, typ := range []InventoryType{InvTX, InvBlock, InvExtensible} {
		b := roundTrip(t, &Inventory{Type: typ, Hashes: hs}, new(Inventory))
		require.Equal(t, byte(typ), b[0])
		require.Equal(t, []byte{0xfd, 0xf4, 0x01}, b[1:4])
		require.Equal(t, hs[0][:], b[4:36])
	}
	roundTrip(t, &Inventory{Type: InvTX}, new(Inventory))
	over := encode(t, &Inventory{Type: InvTX, Hashes: append(hs, hs[0])})
	require.ErrorIs(t, decodeErr(over, new(Inventory)), io.ErrTooLarge)
	for _, bad := range []byte{0, 0x2a, 0x2d, 0x2f, 0xff} {
		require.ErrorIs(t, decodeErr([]byte{bad, 0}, new(Inventory)), ErrInvalidInventoryType)
	}
	// A count the input cannot hold fails before allocating.
	require.Error(t, decodeErr([]byte{byte(InvTX), 0xfd, 0xf4, 0x01, 1, 2}, new(Inventory)))
}

func TestSplitInventory(t *testing.T) {
	hs := make([]util.Uint256, 1001)
	for i := range hs {
		hs[i] = util.Uint256{byte(i), byte(i >> 8)}
	}
	for _, tc := range []struct{ n, per, batches, last int }{
		{0, RelayBatchSize, 0, 0},
		{1, RelayBatchSize, 1, 1},
		{42, RelayBatchSize, 1, 42},
		{43, RelayBatchSize, 2, 1},
		{1001, RelayBatchSize, 24, 1001 - 23*42},
		{1001, 0, 3, 1},
		{1001, 10000, 3, 1},
	} {
		invs := SplitInventory(InvTX, hs[:tc.n], tc.per)
		require.Len(t, invs, tc.batches, tc)
		per := tc.per
		if per <= 0 || per > MaxHashesCount {
			per = MaxHashesCount
		}
		var all []util.Uint256
		for i, inv := range invs {
			require.Equal(t, InvTX, inv.Type)
			if i < len(invs)-1 {
				require.Equal(t, per, len(inv.Hashes), tc)
			} else {
				require.Equal(t, tc.last, len(inv.Hashes), tc)
			}
			all = append(all, inv.Hashes...)
		}
		require.Len(t, all, tc.n)
		for i := range all {
			require.Equal(t, hs[i], all[i])
		}
	}
	// A relay batch framed as a message (flags, command, var-int length)
	// fits one 1500-byte Ethernet MTU even after IPv6 (40) and TCP with
	// timestamps (32) headers.
	inv := Inventory{Type: InvTX, Hashes: make([]util.Uint256, RelayBatchSize)}
	require.LessOrEqual(t, 2+io.GetVarSize(inv.Size())+inv.Size(), 1500-40-32)
}

func TestGetBlocks(t *testing.T) {
	b := roundTrip(t, &GetBlocks{HashStart: util.Uint256{0xaa}, Count: -1}, new(GetBlocks))
	require.Equal(t, []byte{0xff, 0xff}, b[32:])
	roundTrip(t, &GetBlocks{Count: 1}, new(GetBlocks))
	roundTrip(t, &GetBlocks{Count: 32767}, new(GetBlocks)) // capped when served, not decoded
	for _, c := range []int16{0, -2, -32768} {
		require.ErrorIs(t, decodeErr(encode(t, &GetBlocks{Count: c}), new(GetBlocks)), ErrInvalidCount, c)
	}
}

func TestGetBlockByIndex(t *testing.T) {
	b := roundTrip(t, &GetBlockByIndex{IndexStart: 0x01020304, Count: 2000}, new(GetBlockByIndex))
	require.Equal(t, []byte{4, 3, 2, 1, 0xd0, 0x07}, b)
	roundTrip(t, &GetBlockByIndex{Count: -1}, new(GetBlockByIndex))
	for _, c := range []int16{0, -2, 2001, 32767} {
		require.ErrorIs(t, decodeErr(encode(t, &GetBlockByIndex{Count: c}), new(GetBlockByIndex)), ErrInvalidCount, c)
	}
}

func TestHeaders(t *testing.T) {
	h := testHeader()
	hs := make([]*block.Header, MaxHeadersCount)
	for i := range hs {
		hh := h
		hh.Index = uint32(i)
		hs[i] = &hh
	}
	var got Headers
	roundTrip(t, &Headers{Headers: hs}, &got)
	require.Equal(t, hs[7].Hash(), got.Headers[7].Hash())
	over := encode(t, &Headers{Headers: append(hs, hs[0])})
	require.ErrorIs(t, decodeErr(over, new(Headers)), io.ErrTooLarge)
	require.ErrorIs(t, decodeErr([]byte{0}, new(Headers)), ErrEmpty)
	one := encode(t, &Headers{Headers: hs[:1]})
	require.Error(t, decodeErr(one[:len(one)-1], new(Headers)))
}

func TestFilters(t *testing.T) {
	b := roundTrip(t, &FilterLoad{Filter: make([]byte, MaxFilterSize), K: MaxFilterK, Tweak: 9}, new(FilterLoad))
	require.Equal(t, []byte{0xfd, 0xa0, 0x8c}, b[:3])
	require.ErrorIs(t, decodeErr(encode(t, &FilterLoad{Filter: make([]byte, MaxFilterSize+1)}), new(FilterLoad)), io.ErrTooLarge)
	require.ErrorIs(t, decodeErr(encode(t, &FilterLoad{K: MaxFilterK + 1}), new(FilterLoad)), ErrInvalidK)
	roundTrip(t, &FilterAdd{Data: make([]byte, MaxFilterAddSize)}, new(FilterAdd))
	roundTrip(t, &FilterAdd{Data: []byte{}}, new(FilterAdd))
	require.ErrorIs(t, decodeErr(encode(t, &FilterAdd{Data: make([]byte, MaxFilterAddSize+1)}), new(FilterAdd)), io.ErrTooLarge)
}

func TestMerkleBlock(t *testing.T) {
	m := &MerkleBlock{Header: testHeader(), TxCount: 9, Hashes: []util.Uint256{{1}, {2}}, Flags: []byte{1, 2}}
	roundTrip(t, m, new(MerkleBlock))
	roundTrip(t, &MerkleBlock{Header: testHeader(), Flags: []byte{1}}, new(MerkleBlock))
	// Flags bound: ceil(max(TxCount, 1) / 8) bytes.
	m.Flags = []byte{1, 2, 3}
	require.ErrorIs(t, decodeErr(encode(t, m), new(MerkleBlock)), io.ErrTooLarge)
	// Hashes bound: TxCount.
	m = &MerkleBlock{Header: testHeader(), TxCount: 1, Hashes: []util.Uint256{{1}, {2}}}
	require.ErrorIs(t, decodeErr(encode(t, m), new(MerkleBlock)), io.ErrTooLarge)
	// TxCount bound: 65535.
	m = &MerkleBlock{Header: testHeader(), TxCount: 65536}
	require.ErrorIs(t, decodeErr(encode(t, m), new(MerkleBlock)), io.ErrTooLarge)
}

func TestExtensible(t *testing.T) {
	// The reference's unit test payload: 42 bytes.
	e := &Extensible{Category: "123", ValidBlockStart: 456, ValidBlockEnd: 789,
		Sender: hash.Hash160(nil), Data: []byte{1, 2, 3}, Witness: testWitness()}
	require.Equal(t, 42, e.Size())
	var got Extensible
	b := roundTrip(t, e, &got)
	// Hash: SHA-256 of everything before the witness count byte.
	unsigned := b[:len(b)-1-e.Witness.Size()]
	require.Equal(t, hash.Sha256(unsigned), got.Hash())
	require.Equal(t, e.Hash(), got.Hash())
	require.Equal(t, byte(1), b[len(unsigned)])
	// Sign data: magic u32 LE then the hash.
	h := got.Hash()
	require.Equal(t, append([]byte{0x4e, 0x45, 0x4f, 0x33}, h[:]...), got.SignData(0x334F454E))
	// Changing a field needs InvalidateCache.
	got.Data = []byte{4}
	require.Equal(t, h, got.Hash())
	got.InvalidateCache()
	require.NotEqual(t, h, got.Hash())

	bad := func(mod func(*Extensible)) []byte {
		c := *e
		mod(&c)
		return encode(t, &c)
	}
	require.ErrorIs(t, decodeErr(bad(func(c *Extensible) { c.ValidBlockEnd = c.ValidBlockStart }), new(Extensible)), ErrInvalidRange)
	require.ErrorIs(t, decodeErr(bad(func(c *Extensible) { c.Category = string(make([]byte, 33)) }), new(Extensible)), io.ErrTooLarge)
	require.NoError(t, decodeErr(bad(func(c *Extensible) { c.Category = string(make([]byte, 32)) }), new(Extensible)))
	require.ErrorIs(t, decodeErr(bad(func(c *Extensible) { c.Category = "\xc3" }), new(Extensible)), ErrInvalidUTF8)
	// The witness count is one byte that must be 1 (not a var-int).
	wc := bytes.Clone(b)
	wc[len(unsigned)] = 2
	require.ErrorIs(t, decodeErr(wc, new(Extensible)), ErrWitnessCount)
	wc[len(unsigned)] = 0
	require.ErrorIs(t, decodeErr(wc, new(Extensible)), ErrWitnessCount)
	// Witness scripts are bounded by the transaction witness limits.
	long := bad(func(c *Extensible) {
		c.Witness = transaction.Witness{InvocationScript: make([]byte, transaction.MaxInvocationScript+1)}
	})
	require.ErrorIs(t, decodeErr(long, new(Extensible)), io.ErrTooLarge)
	for i := range b {
		require.Error(t, decodeErr(b[:i], new(Extensible)), i)
	}
}
