package nef

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/smartcontract/internal/refdata"
)

func largestNEF(b *testing.B) []byte {
	var best []byte
	for _, c := range refdata.Contracts(b) {
		var f File
		require.NoError(b, json.Unmarshal(c.NEF, &f))
		data, err := f.Bytes()
		require.NoError(b, err)
		if len(data) > len(best) {
			best = data
		}
	}
	return best
}

func BenchmarkFileFromBytes(b *testing.B) {
	data := largestNEF(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FileFromBytes(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseNoVerify(b *testing.B) {
	data := largestNEF(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data, false); err != nil {
			b.Fatal(err)
		}
	}
}
