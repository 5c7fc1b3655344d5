package transaction

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func TestTransactionRoundTrip(t *testing.T) {
	tx := fullTx(t)
	b, err := tx.Bytes()
	require.NoError(t, err)
	require.Equal(t, len(b), tx.Size())

	unsigned := encodeUnsigned(t, tx)
	require.Equal(t, hash.Sha256(unsigned), tx.Hash())

	dec, err := NewTransactionFromBytes(b)
	require.NoError(t, err)
	require.Equal(t, tx.Hash(), dec.Hash())
	require.Equal(t, len(b), dec.Size())
	again, err := dec.Bytes()
	require.NoError(t, err)
	require.Equal(t, b, again)

	// The generic (stream) decoder agrees with the buffer one.
	var s Transaction
	require.NoError(t, decodeStrict(b, &s))
	require.Equal(t, dec.Hash(), s.Hash())
	require.Equal(t, dec.Size(), s.Size())

	// JSON round trip keeps the bytes.
	js, err := json.Marshal(dec)
	require.NoError(t, err)
	var fromJSON Transaction
	require.NoError(t, json.Unmarshal(js, &fromJSON))
	again, err = fromJSON.Bytes()
	require.NoError(t, err)
	require.Equal(t, b, again)

	// A copy is deep and hashes the same.
	cp := dec.Copy()
	require.Equal(t, dec.Hash(), cp.Hash())
	cp.Script[0] = 0x12
	require.NotEqual(t, dec.Script[0], cp.Script[0])
}

func encodeUnsigned(t testing.TB, tx *Transaction) []byte {
	w := io.NewBufBinWriter()
	tx.EncodeUnsigned(w.BinWriter)
	require.NoError(t, w.Err)
	return w.Bytes()
}

func TestTransactionCachesAndHelpers(t *testing.T) {
	tx := fullTx(t)
	h := tx.Hash()
	tx.Nonce++
	require.Equal(t, h, tx.Hash(), "hash is cached")
	tx.InvalidateCache()
	require.NotEqual(t, h, tx.Hash())

	require.Equal(t, u160(1), tx.Sender())
	require.True(t, tx.HasSigner(u160(5)))
	require.False(t, tx.HasSigner(u160(6)))
	require.True(t, tx.HasAttribute(AttrNotaryAssisted))
	require.Len(t, tx.GetAttributes(AttrConflicts), 2)
	require.Equal(t, tx.NetworkFee/int64(tx.Size()), tx.FeePerByte())
	require.NoError(t, tx.CheckSize())

	sd := tx.SignData(0x334f454e)
	require.Len(t, sd, SignDataSize)
	require.Equal(t, []byte{0x4e, 0x45, 0x4f, 0x33}, sd[:4])
	hh := tx.Hash()
	require.Equal(t, hh[:], sd[4:])

	big := &Transaction{Signers: []Signer{{}}, Script: make([]byte, MaxTransactionSize), Witnesses: []Witness{{}}}
	require.ErrorIs(t, big.CheckSize(), ErrOversized)
}

// mutate encodes tx after f changed it, bypassing validation.
func mutate(t testing.TB, f func(*Transaction)) []byte {
	tx := fullTx(t)
	f(tx)
	b, err := tx.Bytes()
	require.NoError(t, err)
	return b
}

func TestTransactionDecodeRejects(t *testing.T) {
	many := func(n int) []Signer {
		s := make([]Signer, n)
		for i := range s {
			s[i] = Signer{Account: u160(byte(i * 3))}
		}
		return s
	}
	wits := func(n int) []Witness { return make([]Witness, n) }
	cases := map[string]struct {
		f   func(*Transaction)
		err error
	}{
		"version":        {func(tx *Transaction) { tx.Version = 1 }, ErrInvalidVersion},
		"negative sys":   {func(tx *Transaction) { tx.SystemFee = -1 }, ErrNegativeFee},
		"negative net":   {func(tx *Transaction) { tx.NetworkFee = -1 }, ErrNegativeFee},
		"fee overflow":   {func(tx *Transaction) { tx.SystemFee, tx.NetworkFee = 1<<62, 1<<62 }, ErrFeeOverflow},
		"no signers":     {func(tx *Transaction) { tx.Signers, tx.Witnesses = nil, nil }, ErrNoSigners},
		"17 signers":     {func(tx *Transaction) { tx.Signers, tx.Attributes, tx.Witnesses = many(17), nil, wits(17) }, ErrTooManySigners},
		"dup signer":     {func(tx *Transaction) { tx.Signers[2].Account = tx.Signers[0].Account }, ErrDuplicateSigner},
		"attr budget":    {func(tx *Transaction) { tx.Signers, tx.Witnesses = many(11), wits(11) }, ErrTooManyAttributes},
		"dup attr":       {func(tx *Transaction) { tx.Attributes = append(tx.Attributes, Attribute{Type: AttrHighPriority}) }, ErrDuplicateAttribute},
		"dup nvb":        {func(tx *Transaction) { tx.Attributes = append(tx.Attributes, tx.Attributes[2]) }, ErrDuplicateAttribute},
		"empty script":   {func(tx *Transaction) { tx.Script = nil }, ErrEmptyScript},
		"long script":    {func(tx *Transaction) { tx.Script = make([]byte, MaxScriptLength+1) }, io.ErrTooLarge},
		"few witnesses":  {func(tx *Transaction) { tx.Witnesses = tx.Witnesses[:2] }, ErrWitnessCount},
		"many witnesses": {func(tx *Transaction) { tx.Witnesses = append(tx.Witnesses, Witness{}) }, ErrWitnessCount},
		"long invocation": {func(tx *Transaction) {
			tx.Witnesses[0].InvocationScript = make([]byte, MaxInvocationScript+1)
		}, io.ErrTooLarge},
		"long verification": {func(tx *Transaction) {
			tx.Witnesses[0].VerificationScript = make([]byte, MaxVerificationScript+1)
		}, io.ErrTooLarge},
		"bad scope":     {func(tx *Transaction) { tx.Signers[0].Scopes = 0x02 }, ErrInvalidScope},
		"global+entry":  {func(tx *Transaction) { tx.Signers[0].Scopes = Global | CalledByEntry }, ErrInvalidScope},
		"17 contracts":  {func(tx *Transaction) { tx.Signers[1].AllowedContracts = make([]util.Uint160, 17) }, io.ErrTooLarge},
		"17 rules":      {func(tx *Transaction) { tx.Signers[1].Rules = make([]WitnessRule, 17) }, io.ErrTooLarge},
		"bad action":    {func(tx *Transaction) { tx.Signers[1].Rules[1].Action = 2 }, ErrInvalidAction},
		"unknown attr":  {func(tx *Transaction) { tx.Attributes[0].Type = 0x02 }, ErrInvalidAttribute},
		"oracle code":   {func(tx *Transaction) { tx.Attributes[1].Value.(*OracleResponse).Code = 0x11 }, ErrInvalidAttribute},
		"oracle result": {func(tx *Transaction) { tx.Attributes[1].Value.(*OracleResponse).Code = OracleError }, ErrInvalidAttribute},
		"deep rule": {func(tx *Transaction) {
			leaf := WitnessCondition{Type: ConditionBoolean}
			not := func(c WitnessCondition) WitnessCondition {
				return WitnessCondition{Type: ConditionNot, Expressions: []WitnessCondition{c}}
			}
			tx.Signers[1].Rules[0].Condition = not(not(not(leaf)))
		}, ErrNestingTooDeep},
		"empty and": {func(tx *Transaction) {
			tx.Signers[1].Rules[0].Condition = WitnessCondition{Type: ConditionAnd}
		}, ErrInvalidCondition},
		"unknown condition": {func(tx *Transaction) {
			tx.Signers[1].Rules[0].Condition = WitnessCondition{Type: 0x30}
		}, ErrInvalidCondition},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := NewTransactionFromBytes(mutate(t, c.f))
			require.ErrorIs(t, err, c.err)
		})
	}
}

func TestTransactionDecodeByteLevel(t *testing.T) {
	tx := &Transaction{Signers: []Signer{{Account: u160(1), Scopes: WitnessRules,
		Rules: []WitnessRule{{Action: WitnessAllow, Condition: WitnessCondition{Type: ConditionBoolean, Bool: true}}}}},
		Script: []byte{0x40}, Witnesses: []Witness{{}}}
	b, err := tx.Bytes()
	require.NoError(t, err)

	// The Boolean byte must be 0 or 1.
	i := strings.Index(string(b), string([]byte{byte(WitnessAllow), byte(ConditionBoolean), 1}))
	require.Positive(t, i)
	bad := append([]byte(nil), b...)
	bad[i+2] = 2
	_, err = NewTransactionFromBytes(bad)
	require.ErrorIs(t, err, ErrInvalidBool)

	// Trailing data.
	_, err = NewTransactionFromBytes(append(append([]byte(nil), b...), 0))
	require.ErrorIs(t, err, ErrTrailingData)

	// Every truncation fails cleanly.
	for n := range len(b) {
		_, err := NewTransactionFromBytes(b[:n])
		require.Error(t, err, "cut at %d", n)
	}
}

func TestTransactionNonCanonicalInput(t *testing.T) {
	// The reference hashes its own serialization: a non-minimal var-int in
	// the input does not change the hash, but the size is what was read.
	tx := &Transaction{Signers: []Signer{{Account: u160(1)}}, Script: []byte{0x40}, Witnesses: []Witness{{}}}
	b, err := tx.Bytes()
	require.NoError(t, err)
	u := len(encodeUnsigned(t, tx))
	// The script var-int (0x01) is the byte before the last byte of the
	// unsigned part; re-encode it as 0xfd 0x01 0x00.
	nc := append([]byte(nil), b[:u-2]...)
	nc = append(nc, 0xfd, 0x01, 0x00)
	nc = append(nc, b[u-1:]...)
	dec, err := NewTransactionFromBytes(nc)
	require.NoError(t, err)
	require.Equal(t, tx.Hash(), dec.Hash())
	require.Equal(t, len(nc), dec.Size())

	// An uncompressed group key is accepted and stored compressed.
	g, unc := newKey(t)
	tx = &Transaction{Signers: []Signer{{Account: u160(1), Scopes: CustomGroups, AllowedGroups: []ECPoint{g}}},
		Script: []byte{0x40}, Witnesses: []Witness{{}}}
	b, err = tx.Bytes()
	require.NoError(t, err)
	i := strings.Index(string(b), string(g[:]))
	nc = append(append(append([]byte(nil), b[:i]...), unc...), b[i+ECPointSize:]...)
	dec, err = NewTransactionFromBytes(nc)
	require.NoError(t, err)
	require.Equal(t, g, dec.Signers[0].AllowedGroups[0])
	require.Equal(t, tx.Hash(), dec.Hash())
}

func TestEncodedLen(t *testing.T) {
	b, err := fullTx(t).Bytes()
	require.NoError(t, err)
	tail := append(append([]byte{}, b...), 0xde, 0xad)
	for _, in := range [][]byte{b, tail} {
		n, err := EncodedLen(in)
		require.NoError(t, err)
		require.Equal(t, len(b), n)
	}
	for i := range len(b) {
		_, err := EncodedLen(b[:i])
		require.Error(t, err, "truncated to %d bytes", i)
	}
}
