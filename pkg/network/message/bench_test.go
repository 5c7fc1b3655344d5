package message

import (
	"bytes"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"
)

// benchBlock builds a block of about size bytes made of NEP-17-transfer-
// like transactions with random accounts and signatures (about 1 KiB each),
// which compresses roughly as real mainnet blocks do.
func benchBlock(t testing.TB, size int) *block.Block {
	rnd := lcg(42, size)
	take := func(n int) []byte {
		b := rnd[:n:n]
		rnd = rnd[n:]
		if len(rnd) < 256 {
			rnd = lcg(uint64(len(rnd))+7, size)
		}
		return b
	}
	blk := &block.Block{Header: *sampleHeader()}
	for nonce := uint32(0); blk.Size() < size; nonce++ {
		var script []byte
		for range 8 {
			script = append(script, 0x0c, 0x14)
			script = append(script, take(20)...)
			script = append(script, 0x0c, 0x14)
			script = append(script, take(20)...)
			script = append(script, 0x13, 0xc0, 0x1f, 0x0c, 0x08)
			script = append(script, "transfer"...)
			script = append(script, 0x0c, 0x14)
			script = append(script, "\xcf\x76\xe2\x8b\xd0\x06\x2c\x4a\x47\x8e\xe3\x55\x61\x01\x13\x19\xf3\xcf\xa4\xd2"...)
			script = append(script, 0x41, 0x62, 0x7d, 0x5b, 0x52)
		}
		var acc util.Uint160
		copy(acc[:], take(20))
		tx := &transaction.Transaction{
			Nonce: nonce, SystemFee: 997775, NetworkFee: 1234567, ValidUntilBlock: 5000,
			Signers: []transaction.Signer{{Account: acc, Scopes: transaction.CalledByEntry}},
			Script:  script,
			Witnesses: []transaction.Witness{{
				InvocationScript:   append([]byte{0x0c, 0x40}, take(64)...),
				VerificationScript: append(append([]byte{0x0c, 0x21}, take(33)...), 0x41, 0x56, 0xe7, 0xb3, 0x27),
			}},
		}
		blk.Transactions = append(blk.Transactions, tx)
		blk.InvalidateCache()
	}
	blk.RebuildMerkleRoot()
	raw, err := blk.Bytes()
	require.NoError(t, err)
	dec, err := block.NewBlockFromBytes(raw)
	require.NoError(t, err)
	return dec
}

// BenchmarkBlockMessage1MiB measures building and framing (encode) and
// reading and decoding (decode) a block message of 1 MiB, with the
// reference's compression and without it.
func BenchmarkBlockMessage1MiB(b *testing.B) {
	blk := benchBlock(b, 1<<20)
	for _, compressed := range []bool{true, false} {
		name := "plain"
		if compressed {
			name = "lz4"
		}
		m := mustNew(b, CmdBlock, blk)
		require.True(b, m.IsCompressed())
		frame := m.Bytes(compressed)
		b.Run("encode/"+name, func(b *testing.B) {
			b.SetBytes(int64(blk.Size()))
			buf := make([]byte, 0, len(frame))
			for b.Loop() {
				m, err := New(CmdBlock, blk)
				if err != nil {
					b.Fatal(err)
				}
				buf = m.AppendBinary(buf[:0], compressed)
			}
			b.ReportMetric(float64(len(frame)), "frame-bytes")
		})
		b.Run("decode/"+name, func(b *testing.B) {
			b.SetBytes(int64(blk.Size()))
			for b.Loop() {
				if _, err := Read(bytes.NewReader(frame)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLZ4 compares our reference-exact compressor with decompression
// on the same 1 MiB block.
func BenchmarkLZ4(b *testing.B) {
	raw, err := benchBlock(b, 1<<20).Bytes()
	require.NoError(b, err)
	c := compress(raw)
	b.Run("compress", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			compress(raw)
		}
		b.ReportMetric(float64(len(c))/float64(len(raw)), "ratio")
	})
	b.Run("decompress", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := decompress(c, PayloadMaxSize); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLZ4Pierrec is pierrec/lz4's block compressor on the same input,
// for comparison (its output is valid LZ4 but not the reference's bytes).
func BenchmarkLZ4Pierrec(b *testing.B) {
	raw, err := benchBlock(b, 1<<20).Bytes()
	require.NoError(b, err)
	dst := make([]byte, lz4.CompressBlockBound(len(raw)))
	var c lz4.Compressor
	var n int
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		n, err = c.CompressBlock(raw, dst)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/float64(len(raw)), "ratio")
}
