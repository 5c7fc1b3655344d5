package chaindump_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"github.com/n3d-io/n3d/internal/conformance"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/stretchr/testify/require"
)

// conformanceDir returns the reference data root holding chains/ (see
// internal/conformance).
func conformanceDir(t testing.TB) string {
	t.Helper()
	return conformance.Dir(t)
}

type chain struct {
	name string
	acc  []byte
	// byIndex maps a height to the reference's raw block and hash.
	raw  map[uint32][]byte
	hash map[uint32]string
}

func loadChains(t testing.TB) []chain {
	accs, err := filepath.Glob(filepath.Join(conformanceDir(t), "chains", "*", "*.acc"))
	require.NoError(t, err)
	require.NotEmpty(t, accs)
	var res []chain
	for _, acc := range accs {
		c := chain{name: filepath.Base(acc), raw: map[uint32][]byte{}, hash: map[uint32]string{}}
		c.acc, err = os.ReadFile(acc)
		require.NoError(t, err)
		f, err := os.Open(filepath.Join(filepath.Dir(acc), "blocks.jsonl"))
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var l struct {
				Index uint32 `json:"index"`
				Hash  string `json:"hash"`
				Raw   string `json:"raw"`
			}
			require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
			c.raw[l.Index], err = base64.StdEncoding.DecodeString(l.Raw)
			require.NoError(t, err)
			c.hash[l.Index] = l.Hash
		}
		require.NoError(t, sc.Err())
		require.NoError(t, f.Close())
		res = append(res, c)
	}
	return res
}

// readAll reads every block of a dump, returning the reader and the raw
// records.
func readAll(t testing.TB, data []byte) (*chaindump.Reader, [][]byte, []*block.Block) {
	r, err := chaindump.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	var raws [][]byte
	var blocks []*block.Block
	for {
		b, raw, err := r.NextBlock()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		raws = append(raws, bytes.Clone(raw))
		blocks = append(blocks, b)
	}
	require.Len(t, blocks, int(r.Count()))
	return r, raws, blocks
}

func TestConformanceDumps(t *testing.T) {
	for _, c := range loadChains(t) {
		t.Run(c.name, func(t *testing.T) {
			r, raws, blocks := readAll(t, c.acc)
			for i, b := range blocks {
				require.Equal(t, c.raw[b.Index], raws[i], "block %d bytes", b.Index)
				require.Equal(t, c.hash[b.Index], b.Hash().String(), "block %d hash", b.Index)
				if i > 0 {
					require.Equal(t, blocks[i-1].Index+1, b.Index)
					require.Equal(t, blocks[i-1].Hash(), b.PrevHash)
				}
			}

			// Re-writing in the detected format gives the same file, from
			// raw records and from decoded blocks.
			for _, fromBlocks := range []bool{false, true} {
				var out bytes.Buffer
				w, err := chaindump.NewWriter(&out, r.Format(), r.Start(), r.Count())
				require.NoError(t, err)
				for i := range raws {
					if fromBlocks {
						require.NoError(t, w.WriteBlock(blocks[i]))
					} else {
						require.NoError(t, w.WriteRaw(raws[i]))
					}
				}
				require.NoError(t, w.Close())
				require.Equal(t, c.acc, out.Bytes())
			}
		})
	}
}

func TestFormatConversion(t *testing.T) {
	for _, c := range loadChains(t) {
		r, raws, blocks := readAll(t, c.acc)
		other := chaindump.Incremental
		if r.Format() == chaindump.Incremental {
			other = chaindump.Plain
		}
		var out bytes.Buffer
		w, err := chaindump.NewWriter(&out, other, blocks[0].Index, r.Count())
		require.NoError(t, err)
		for _, raw := range raws {
			require.NoError(t, w.WriteRaw(raw))
		}
		require.NoError(t, w.Close())

		r2, raws2, _ := readAll(t, out.Bytes())
		require.Equal(t, other, r2.Format())
		require.Equal(t, raws, raws2)
		if other == chaindump.Incremental {
			require.Equal(t, blocks[0].Index, r2.Start())
		}
	}
}

func TestTruncatedDumps(t *testing.T) {
	for _, c := range loadChains(t) {
		t.Run(c.name, func(t *testing.T) {
			// Cut at every record boundary and a little inside each record.
			r, raws, _ := readAll(t, c.acc)
			cut := 4
			if r.Format() == chaindump.Incremental {
				cut = 8
			}
			var cuts []int
			for _, raw := range raws {
				cuts = append(cuts, cut+2, cut+4, cut+4+len(raw)/2)
				cut += 4 + len(raw)
			}
			for _, n := range cuts {
				err := readUntilError(c.acc[:n])
				require.Error(t, err, "cut at %d", n)
				require.ErrorIs(t, err, chaindump.ErrTruncated, "cut at %d", n)
				require.Contains(t, err.Error(), "record ")
				require.Contains(t, err.Error(), "offset ")
			}
		})
	}
}

func readUntilError(data []byte) error {
	r, err := chaindump.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	for {
		if _, _, err := r.NextBlock(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func TestCorruptRecord(t *testing.T) {
	c := loadChains(t)[0]
	data := bytes.Clone(c.acc)
	r, _, _ := readAll(t, data)
	off := 4
	if r.Format() == chaindump.Incremental {
		off = 8
	}
	// Flip a byte of the first block's Merkle root: decoding must fail
	// and name the record.
	data[off+4+4+32] ^= 0xff
	err := readUntilError(data)
	require.ErrorIs(t, err, chaindump.ErrInvalidBlock)
	require.ErrorIs(t, err, block.ErrMerkleRoot)
	require.Contains(t, err.Error(), "record 0")
}

func TestEmptyAndOversized(t *testing.T) {
	// A plain dump of no blocks.
	r, err := chaindump.NewReader(bytes.NewReader([]byte{0, 0, 0, 0}))
	require.NoError(t, err)
	require.Equal(t, chaindump.Plain, r.Format())
	_, err = r.Next()
	require.ErrorIs(t, err, io.EOF)

	// An incremental dump of no blocks from 7.
	var out bytes.Buffer
	w, err := chaindump.NewWriter(&out, chaindump.Incremental, 7, 0)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	r, err = chaindump.NewReader(bytes.NewReader(out.Bytes()))
	require.NoError(t, err)
	require.Equal(t, chaindump.Incremental, r.Format())
	require.Equal(t, uint32(7), r.Start())
	_, err = r.Next()
	require.ErrorIs(t, err, io.EOF)

	// A record larger than the bound is refused before allocation.
	huge := []byte{1, 0, 0, 0, 0, 0, 0, 0xff, 0, 0, 0, 0}
	r, err = chaindump.NewReader(bytes.NewReader(huge))
	require.NoError(t, err)
	_, err = r.Next()
	require.ErrorIs(t, err, chaindump.ErrRecordSize)

	// Too short for a header.
	_, err = chaindump.NewReader(bytes.NewReader([]byte{1, 2}))
	require.ErrorIs(t, err, chaindump.ErrBadHeader)

	// Writers refuse a wrong number of blocks.
	out.Reset()
	w, err = chaindump.NewWriter(&out, chaindump.Plain, 0, 1)
	require.NoError(t, err)
	require.ErrorIs(t, w.Close(), chaindump.ErrCountMismatch)
	w, err = chaindump.NewWriter(&out, chaindump.Plain, 0, 0)
	require.NoError(t, err)
	require.ErrorIs(t, w.WriteRaw([]byte{1}), chaindump.ErrCountMismatch)
}

func FuzzReader(f *testing.F) {
	for _, c := range loadChains(f) {
		f.Add(c.acc[:min(len(c.acc), 4096)])
	}
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := chaindump.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		r.SetMaxRecordSize(1 << 20)
		for range 64 {
			if _, _, err := r.NextBlock(); err != nil {
				return
			}
		}
	})
}
