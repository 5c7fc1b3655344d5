package neostate

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// fastSeeds are records the fast decoders must take and forms they must
// leave to the generic path.
func fastSeeds() [][]byte {
	key := make([]byte, PublicKeyLen)
	key[0] = 3
	var big32 NEOBalance
	big32.Balance.Lsh(big.NewInt(1), 200)
	big32.LastGasPerVote.Neg(new(big.Int).Lsh(big.NewInt(1), 100))
	big32.BalanceHeight = 1<<32 - 1
	big32.VoteTo = key
	var neg NEP17Balance
	neg.Balance.SetInt64(-1 << 62)
	seeds := append(sampleRecords(), big32.Bytes(), neg.Bytes(), (&NEOBalance{}).Bytes(), (&NEP17Balance{}).Bytes(),
		// trailing bytes, ignored by both
		append((&NEP17Balance{}).Bytes(), 1, 2),
		// a length in the three-byte form: generic only
		[]byte{tStruct, 1, tInteger, 0xfd, 1, 0, 5},
		// a Struct of 2: generic only
		[]byte{tStruct, 2, tInteger, 1, 5, tInteger, 0},
		// an Array, a ByteString balance, a Bool vote, a bad key, a negative height
		[]byte{tArray, 1, tInteger, 1, 5},
		[]byte{tStruct, 1, tByteString, 1, 5},
		[]byte{tStruct, 4, tInteger, 0, tInteger, 0, tBool, 1, tInteger, 0},
		[]byte{tStruct, 4, tInteger, 0, tInteger, 0, tByteString, 1, 2, tInteger, 0},
		[]byte{tStruct, 4, tInteger, 0, tInteger, 1, 0xff, tNull, tInteger, 0},
		// an integer of 33 bytes, truncated records
		append([]byte{tStruct, 1, tInteger, 33}, make([]byte, 33)...),
		[]byte{tStruct, 4, tInteger, 0, tInteger, 0},
		[]byte{tStruct, 1, tInteger, 2, 1},
		[]byte{tStruct},
	)
	return seeds
}

// checkFastSame fails when a fast decoder accepts data and the generic path
// does not return the same record.
func checkFastSame(t *testing.T, data []byte) {
	if s, ok := fastNEP17Balance(data); ok {
		g, err := nep17BalanceFromItems(data)
		require.NoError(t, err, "%x", data)
		require.Zero(t, s.Balance.Cmp(&g.Balance), "%x", data)
	}
	if s, ok := fastNEOBalance(data); ok {
		g, err := neoBalanceFromItems(data)
		require.NoError(t, err, "%x", data)
		require.Zero(t, s.Balance.Cmp(&g.Balance), "%x", data)
		require.Equal(t, g.BalanceHeight, s.BalanceHeight, "%x", data)
		require.Equal(t, g.VoteTo, s.VoteTo, "%x", data)
		require.Zero(t, s.LastGasPerVote.Cmp(&g.LastGasPerVote), "%x", data)
	}
}

func TestFastRecordsMatchGeneric(t *testing.T) {
	for _, d := range fastSeeds() {
		checkFastSame(t, d)
	}
	// The records Bytes writes all take the fast path.
	var nb NEOBalance
	nb.Balance.SetInt64(1e15)
	nb.BalanceHeight = 123456
	nb.LastGasPerVote.SetInt64(-7)
	_, ok := fastNEOBalance(nb.Bytes())
	require.True(t, ok)
	nb.VoteTo = append([]byte{2}, make([]byte, PublicKeyLen-1)...)
	_, ok = fastNEOBalance(nb.Bytes())
	require.True(t, ok)
	var gb NEP17Balance
	gb.Balance.Lsh(big.NewInt(1), 250)
	_, ok = fastNEP17Balance(gb.Bytes())
	require.True(t, ok)
	// Forms the fast path leaves to the generic one are still decoded.
	g, err := NEP17BalanceFromBytes([]byte{tStruct, 1, tInteger, 0xfd, 1, 0, 5})
	require.NoError(t, err)
	require.EqualValues(t, 5, g.Balance.Int64())
	_, err = NEP17BalanceFromBytes([]byte{tStruct, 1, tInteger, 2, 1})
	require.ErrorIs(t, err, ErrInvalidRecord)
}

func FuzzFastRecords(f *testing.F) {
	for _, d := range fastSeeds() {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkFastSame(t, data) })
}
