package transaction

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/stretchr/testify/require"
)

// fuzzRoundTrip decodes data with newT(); whatever decodes must re-encode
// to something that decodes to the same encoding.
func fuzzRoundTrip[T any, P interface {
	*T
	io.Serializable
}](t *testing.T, data []byte) {
	var v T
	if decodeStrict(data, P(&v)) != nil {
		return
	}
	b := encode(t, P(&v))
	var w T
	require.NoError(t, decodeStrict(b, P(&w)))
	require.Equal(t, b, encode(t, P(&w)))
}

func FuzzTransaction(f *testing.F) {
	b, err := fullTx(f).Bytes()
	require.NoError(f, err)
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		tx, err := NewTransactionFromBytes(data)
		if err != nil {
			return
		}
		b, err := tx.Bytes()
		require.NoError(t, err)
		tx2, err := NewTransactionFromBytes(b)
		require.NoError(t, err)
		require.Equal(t, tx.Hash(), tx2.Hash())
		require.Equal(t, len(b), tx2.Size())
		_, err = tx.MarshalJSON()
		require.NoError(t, err)
	})
}

func FuzzSigner(f *testing.F) {
	tx := fullTx(f)
	for i := range tx.Signers {
		f.Add(encode(f, &tx.Signers[i]))
	}
	f.Fuzz(fuzzRoundTrip[Signer])
}

func FuzzWitnessRule(f *testing.F) {
	tx := fullTx(f)
	for i := range tx.Signers[1].Rules {
		f.Add(encode(f, &tx.Signers[1].Rules[i]))
	}
	f.Fuzz(fuzzRoundTrip[WitnessRule])
}

func FuzzWitnessCondition(f *testing.F) {
	c := allConditions(f)
	f.Add(encode(f, &c))
	f.Fuzz(fuzzRoundTrip[WitnessCondition])
}

func FuzzAttribute(f *testing.F) {
	tx := fullTx(f)
	for i := range tx.Attributes {
		f.Add(encode(f, &tx.Attributes[i]))
	}
	f.Fuzz(fuzzRoundTrip[Attribute])
}

func FuzzWitness(f *testing.F) {
	tx := fullTx(f)
	f.Add(encode(f, &tx.Witnesses[0]))
	f.Fuzz(fuzzRoundTrip[Witness])
}

// FuzzEncodedLen checks EncodedLen against the decoder: the same verdict
// and the same length on any input, followed by anything.
func FuzzEncodedLen(f *testing.F) {
	b, err := fullTx(f).Bytes()
	require.NoError(f, err)
	f.Add(b)
	f.Add(append(b, 1, 2, 3))
	f.Add(b[:len(b)-1])
	f.Fuzz(func(t *testing.T, data []byte) {
		r := io.NewBinReaderFromBuf(data)
		new(Transaction).DecodeBinary(r)
		n, err := EncodedLen(data)
		if r.Err != nil {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		require.Equal(t, len(data)-r.Len(), n)
	})
}
