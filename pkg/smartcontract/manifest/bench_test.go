package manifest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/smartcontract/internal/refdata"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// largestManifest returns the longest manifest JSON of the reference data.
func largestManifest(b *testing.B) []byte {
	var best []byte
	for _, c := range refdata.Contracts(b) {
		if len(c.Manifest) > len(best) {
			best = c.Manifest
		}
	}
	m, err := Parse(best)
	require.NoError(b, err)
	out, err := m.AppendJSON(nil)
	require.NoError(b, err)
	return out
}

func BenchmarkParse(b *testing.B) {
	data := largestManifest(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	m, err := Parse(largestManifest(b))
	require.NoError(b, err)
	buf := make([]byte, 0, 8192)
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = m.AppendJSON(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromStackItem(b *testing.B) {
	m, err := Parse(largestManifest(b))
	require.NoError(b, err)
	data, err := stackitem.Serialize(m.ToStackItem())
	require.NoError(b, err)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		it, err := stackitem.Deserialize(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := FromStackItem(it); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromStackItemOnly(b *testing.B) {
	m, err := Parse(largestManifest(b))
	require.NoError(b, err)
	it := m.ToStackItem()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromStackItem(it); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToStackItemSerialize(b *testing.B) {
	m, err := Parse(largestManifest(b))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := stackitem.Serialize(m.ToStackItem()); err != nil {
			b.Fatal(err)
		}
	}
}
