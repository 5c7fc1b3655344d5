package neostate

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func sampleRecords() [][]byte {
	key := make([]byte, PublicKeyLen)
	key[0] = 2
	key[5] = 9
	filter := "$.x"
	var nb NEOBalance
	nb.Balance.SetInt64(100)
	nb.BalanceHeight = 7
	nb.VoteTo = key
	nb.LastGasPerVote.SetInt64(-3)
	var c Candidate
	c.Registered = true
	c.Votes.SetInt64(1 << 40)
	var d Deposit
	d.Amount.SetInt64(12345)
	d.Till = 99
	var gb NEP17Balance
	gb.Balance.SetInt64(5200000000000000)
	cm := Committee{{Key: key}}
	cm[0].Votes.SetInt64(42)
	return [][]byte{
		nb.Bytes(), c.Bytes(), d.Bytes(), gb.Bytes(), cm.Bytes(),
		NodeList{key, key}.Bytes(), IDList{0, 1, 1 << 63}.Bytes(),
		(&OracleRequest{GasForResponse: 10, URL: "https://x", Filter: &filter, CallbackMethod: "cb", UserData: []byte{0}}).Bytes(),
		(&OracleRequest{URL: "u"}).Bytes(),
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	for _, b := range sampleRecords() {
		checkAll(t, b)
	}
}

// checkAll decodes data as every record type; whatever decodes must encode
// back to a value that decodes to the same record.
func checkAll(t *testing.T, data []byte) {
	if r, err := NEOBalanceFromBytes(data); err == nil {
		r2, err := NEOBalanceFromBytes(r.Bytes())
		require.NoError(t, err)
		require.Equal(t, r, r2)
	}
	if r, err := CandidateFromBytes(data); err == nil {
		r2, err := CandidateFromBytes(r.Bytes())
		require.NoError(t, err)
		require.Equal(t, r, r2)
	}
	if r, err := DepositFromBytes(data); err == nil {
		r2, err := DepositFromBytes(r.Bytes())
		require.NoError(t, err)
		require.Equal(t, r, r2)
	}
	if r, err := NEP17BalanceFromBytes(data); err == nil {
		r2, err := NEP17BalanceFromBytes(r.Bytes())
		require.NoError(t, err)
		require.Equal(t, r, r2)
	}
	if r, err := CommitteeFromBytes(data); err == nil {
		r2, err := CommitteeFromBytes(r.Bytes())
		require.NoError(t, err)
		require.Equal(t, r, r2)
	}
	if r, err := NodeListFromBytes(data); err == nil {
		r2, err := NodeListFromBytes(r.Bytes())
		require.NoError(t, err)
		require.Equal(t, r, r2)
	}
	if r, err := IDListFromBytes(data); err == nil {
		r2, err := IDListFromBytes(r.Bytes())
		require.NoError(t, err)
		require.Equal(t, r, r2)
	}
	if r, err := OracleRequestFromBytes(data); err == nil {
		r2, err := OracleRequestFromBytes(r.Bytes())
		require.NoError(t, err)
		require.Equal(t, r, r2)
	}
}

func TestRecordDecodeErrors(t *testing.T) {
	bad := [][]byte{
		nil,
		{0x41},             // truncated
		{0x40, 1, 0x21, 0}, // array where a struct is wanted
		{0x41, 1, 0x21, 0}, // too few fields
		{0x21, 1, 5},       // not a compound
	}
	for _, b := range bad {
		_, err := NEOBalanceFromBytes(b)
		require.ErrorIs(t, err, ErrInvalidRecord)
		_, err = CandidateFromBytes(b)
		require.ErrorIs(t, err, ErrInvalidRecord)
		_, err = DepositFromBytes(b)
		require.ErrorIs(t, err, ErrInvalidRecord)
		_, err = OracleRequestFromBytes(b)
		require.ErrorIs(t, err, ErrInvalidRecord)
	}
	// NEO balance with a negative height, and with a vote that is no key.
	var nb NEOBalance
	enc := nb.Bytes()
	_, err := NEOBalanceFromBytes([]byte{0x41, 4, 0x21, 0, 0x21, 1, 0xff, 0, 0x21, 0})
	require.ErrorIs(t, err, ErrInvalidRecord)
	_, err = NEOBalanceFromBytes([]byte{0x41, 4, 0x21, 0, 0x21, 0, 0x28, 1, 2, 0x21, 0})
	require.ErrorIs(t, err, ErrInvalidRecord)
	_, err = NEOBalanceFromBytes(enc)
	require.NoError(t, err)
	// Committee member that is not a struct; node that is not a key.
	_, err = CommitteeFromBytes([]byte{0x40, 1, 0x21, 0})
	require.ErrorIs(t, err, ErrInvalidRecord)
	_, err = NodeListFromBytes([]byte{0x40, 1, 0x21, 0})
	require.ErrorIs(t, err, ErrInvalidRecord)
	_, err = IDListFromBytes([]byte{0x40, 1, 0x21, 1, 0xff})
	require.ErrorIs(t, err, ErrInvalidRecord)
	// Deposit till over uint32.
	_, err = DepositFromBytes([]byte{0x41, 2, 0x21, 0, 0x21, 5, 0, 0, 0, 0, 1})
	require.ErrorIs(t, err, ErrInvalidRecord)
}

func FuzzRecords(f *testing.F) {
	for _, b := range sampleRecords() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAll(t, data)
	})
}
