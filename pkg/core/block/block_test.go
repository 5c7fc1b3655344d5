package block_test

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func newTx(nonce uint32) *transaction.Transaction {
	return &transaction.Transaction{
		Nonce: nonce, SystemFee: 100, NetworkFee: 200, ValidUntilBlock: 1000,
		Signers:   []transaction.Signer{{Account: util.Uint160{1, 2, 3}, Scopes: transaction.CalledByEntry}},
		Script:    []byte{0x11, 0x40},
		Witnesses: []transaction.Witness{{InvocationScript: []byte{0x0c, 0x40}, VerificationScript: []byte{0x41}}},
	}
}

func newBlock(ntx int) *block.Block {
	b := &block.Block{Header: block.Header{
		PrevHash: util.Uint256{9}, Timestamp: 1468595301001, Nonce: 0xfeedface12345678,
		Index: 12, PrimaryIndex: 1, NextConsensus: util.Uint160{7},
		Witness: transaction.Witness{InvocationScript: []byte{1}, VerificationScript: []byte{2}},
	}}
	for i := range ntx {
		b.Transactions = append(b.Transactions, newTx(uint32(i)))
	}
	b.RebuildMerkleRoot()
	return b
}

func mustBytes(t testing.TB, b *block.Block) []byte {
	raw, err := b.Bytes()
	require.NoError(t, err)
	return raw
}

func TestBlockRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 3, 20} {
		b := newBlock(n)
		raw := mustBytes(t, b)
		require.Equal(t, len(raw), b.Size())
		unsigned := raw[:block.UnsignedHeaderSize]
		require.Equal(t, hash.Sha256(unsigned), b.Hash())

		dec, err := block.NewBlockFromBytes(raw)
		require.NoError(t, err)
		require.Equal(t, b.Hash(), dec.Hash())
		require.Equal(t, raw, mustBytes(t, dec))
		require.Equal(t, len(raw), dec.Size())

		// Stream decoder agrees.
		var s block.Block
		r := io.NewBinReaderFromBuf(raw)
		s.DecodeBinary(r)
		require.NoError(t, r.Err)
		require.Equal(t, b.Hash(), s.Hash())
		for i := range s.Transactions {
			require.Equal(t, b.Transactions[i].Hash(), s.Transactions[i].Hash())
		}

		js, err := json.Marshal(dec)
		require.NoError(t, err)
		checkKeyOrder(t, js)
		var fromJSON block.Block
		require.NoError(t, json.Unmarshal(js, &fromJSON))
		require.Equal(t, raw, mustBytes(t, &fromJSON))

		h, err := block.NewHeaderFromBytes(raw[:dec.Header.Size()])
		require.NoError(t, err)
		require.Equal(t, b.Hash(), h.Hash())
	}
}

func TestHeaderCacheAndSignData(t *testing.T) {
	b := newBlock(1)
	h := b.Hash()
	b.Index++
	require.Equal(t, h, b.Hash())
	b.InvalidateCache()
	require.NotEqual(t, h, b.Hash())
	sd := b.SignData(42)
	require.Equal(t, uint32(42), binary.LittleEndian.Uint32(sd))
	hh := b.Hash()
	require.Equal(t, hh[:], sd[4:])
}

func TestBlockDecodeRejects(t *testing.T) {
	b := newBlock(3)
	raw := mustBytes(t, b)
	hsize := b.Header.Size()

	bad := append([]byte(nil), raw...)
	bad[0] = 1 // version
	_, err := block.NewBlockFromBytes(bad)
	require.ErrorIs(t, err, block.ErrInvalidVersion)

	for _, n := range []byte{0, 2} {
		bad = append([]byte(nil), raw...)
		bad[block.UnsignedHeaderSize] = n // witness count
		_, err = block.NewBlockFromBytes(bad)
		require.ErrorIs(t, err, block.ErrWitnessCount)
	}

	bad = append([]byte(nil), raw...)
	bad[40] ^= 1 // Merkle root
	_, err = block.NewBlockFromBytes(bad)
	require.ErrorIs(t, err, block.ErrMerkleRoot)

	_, err = block.NewBlockFromBytes(append(append([]byte(nil), raw...), 0))
	require.ErrorIs(t, err, block.ErrTrailingData)

	// A transaction count above the reference's ushort bound.
	over := append(append([]byte(nil), raw[:hsize]...), 0xfe, 0, 0, 1, 0)
	_, err = block.NewBlockFromBytes(over)
	require.ErrorIs(t, err, block.ErrTooManyTxs)

	// Duplicate transactions.
	dup := newBlock(0)
	dup.Transactions = []*transaction.Transaction{newTx(1), newTx(1)}
	dup.RebuildMerkleRoot()
	_, err = block.NewBlockFromBytes(mustBytes(t, dup))
	require.ErrorIs(t, err, block.ErrDuplicateTx)

	// A bad transaction is reported with its position.
	bad = append([]byte(nil), raw...)
	bad[hsize+1] = 1 // first transaction's version
	_, err = block.NewBlockFromBytes(bad)
	require.ErrorIs(t, err, transaction.ErrInvalidVersion)
	require.Contains(t, err.Error(), "transaction 0")

	for n := range len(raw) {
		_, err := block.NewBlockFromBytes(raw[:n])
		require.Error(t, err, "cut at %d", n)
	}
}

func TestCheckLimits(t *testing.T) {
	b := newBlock(3)
	require.NoError(t, b.CheckLimits(0, 0))
	require.NoError(t, b.CheckLimits(b.Size(), 3))
	require.ErrorIs(t, b.CheckLimits(b.Size()-1, 0), block.ErrTooBig)
	require.ErrorIs(t, b.CheckLimits(0, 2), block.ErrTooManyTxs)
}

func TestBlockJSONRejects(t *testing.T) {
	b := newBlock(2)
	js, err := json.Marshal(b)
	require.NoError(t, err)
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		require.NoError(t, json.Unmarshal(js, &m))
		f(m)
		out, err := json.Marshal(m)
		require.NoError(t, err)
		return out
	}
	cases := map[string][]byte{
		"hash":      edit(func(m map[string]any) { m["hash"] = util.Uint256{}.String() }),
		"size":      edit(func(m map[string]any) { m["size"] = 1 }),
		"merkle":    edit(func(m map[string]any) { m["merkleroot"] = util.Uint256{}.String() }),
		"nonce":     edit(func(m map[string]any) { m["nonce"] = "xyz" }),
		"witnesses": edit(func(m map[string]any) { m["witnesses"] = []any{} }),
		"version":   edit(func(m map[string]any) { m["version"] = 1 }),
		"address":   edit(func(m map[string]any) { m["nextconsensus"] = "NotAnAddress" }),
		"tx":        edit(func(m map[string]any) { m["tx"] = m["tx"].([]any)[:1] }),
	}
	for name, data := range cases {
		var back block.Block
		require.Error(t, json.Unmarshal(data, &back), name)
	}
}

// seedBlocks returns the conformance chains' raw blocks (none when the data
// is absent).
func seedBlocks(t testing.TB) [][]byte {
	var res [][]byte
	for _, dir := range chainDirs(t) {
		for _, l := range readJSONL(t, filepath.Join(dir, "blocks.jsonl")) {
			var bl blockLine
			require.NoError(t, json.Unmarshal(l, &bl))
			raw, err := base64.StdEncoding.DecodeString(bl.Raw)
			require.NoError(t, err)
			res = append(res, raw)
		}
	}
	return res
}

func FuzzBlock(f *testing.F) {
	f.Add(mustBytes(f, newBlock(2)))
	for i, raw := range seedBlocks(f) {
		if i%8 == 1 {
			f.Add(raw)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := block.NewBlockFromBytes(data)
		if err != nil {
			return
		}
		raw := mustBytes(t, b)
		b2, err := block.NewBlockFromBytes(raw)
		require.NoError(t, err)
		require.Equal(t, b.Hash(), b2.Hash())
		require.Equal(t, raw, mustBytes(t, b2))
		_, err = json.Marshal(b)
		require.NoError(t, err)
	})
}

func FuzzHeader(f *testing.F) {
	b := newBlock(0)
	f.Add(mustBytes(f, b)[:b.Header.Size()])
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := block.NewHeaderFromBytes(data)
		if err != nil {
			return
		}
		w := io.NewBufBinWriter()
		h.EncodeBinary(w.BinWriter)
		require.NoError(t, w.Err)
		h2, err := block.NewHeaderFromBytes(w.Bytes())
		require.NoError(t, err)
		require.Equal(t, h.Hash(), h2.Hash())
	})
}

func BenchmarkDecodeConformanceBlocks(b *testing.B) {
	blocks := seedBlocks(b)
	total := 0
	for _, raw := range blocks {
		total += len(raw)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, raw := range blocks {
			if _, err := block.NewBlockFromBytes(raw); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func TestTrimmedRoundTrip(t *testing.T) {
	b := newBlock(4)
	tr := b.Trim()
	w := io.NewBufBinWriter()
	tr.EncodeBinary(w.BinWriter)
	require.NoError(t, w.Err)
	raw := w.Bytes()
	require.Equal(t, len(raw), tr.Size())

	var back block.Trimmed
	r := io.NewBinReaderFromBuf(raw)
	back.DecodeBinary(r)
	require.NoError(t, r.Err)
	require.Zero(t, r.Len())
	require.Equal(t, b.Hash(), back.Hash())
	require.Len(t, back.Hashes, 4)
	for i, tx := range b.Transactions {
		require.Equal(t, tx.Hash(), back.Hashes[i])
	}
	for n := range len(raw) {
		var cut block.Trimmed
		r := io.NewBinReaderFromBuf(raw[:n])
		cut.DecodeBinary(r)
		require.Error(t, r.Err, "cut at %d", n)
	}
}

func FuzzTrimmed(f *testing.F) {
	w := io.NewBufBinWriter()
	newBlock(2).Trim().EncodeBinary(w.BinWriter)
	f.Add(w.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		var tr block.Trimmed
		r := io.NewBinReaderFromBuf(data)
		tr.DecodeBinary(r)
		if r.Err != nil {
			return
		}
		w := io.NewBufBinWriter()
		tr.EncodeBinary(w.BinWriter)
		require.NoError(t, w.Err)
		var again block.Trimmed
		r = io.NewBinReaderFromBuf(w.Bytes())
		again.DecodeBinary(r)
		require.NoError(t, r.Err)
		require.Equal(t, tr.Hash(), again.Hash())
		require.Equal(t, tr.Hashes, again.Hashes)
	})
}
