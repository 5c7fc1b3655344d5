package transaction

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func BenchmarkDecodeFullTx(b *testing.B) {
	data, err := fullTx(b).Bytes()
	require.NoError(b, err)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := NewTransactionFromBytes(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeSimpleTx(b *testing.B) {
	tx := &Transaction{Nonce: 1, SystemFee: 1e7, NetworkFee: 1e6, ValidUntilBlock: 100,
		Signers:   []Signer{{Account: u160(1), Scopes: CalledByEntry}},
		Script:    make([]byte, 90),
		Witnesses: []Witness{{InvocationScript: make([]byte, 66), VerificationScript: make([]byte, 40)}}}
	data, err := tx.Bytes()
	require.NoError(b, err)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := NewTransactionFromBytes(data); err != nil {
			b.Fatal(err)
		}
	}
}
