package transaction

import (
	"crypto/elliptic"
	"testing"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

var keySeed byte

// newKey returns a fresh, deterministic secp256r1 key (k·G for a counter
// k) in compressed and uncompressed form.
func newKey(t testing.TB) (ECPoint, []byte) {
	keySeed++
	x, y := elliptic.P256().ScalarBaseMult([]byte{keySeed, 0x5a})
	require.NotNil(t, x)
	//nolint:staticcheck // only used to build test vectors
	unc := elliptic.Marshal(elliptic.P256(), x, y)
	var p ECPoint
	copy(p[:], elliptic.MarshalCompressed(elliptic.P256(), x, y))
	return p, unc
}

func u160(b byte) util.Uint160 {
	var u util.Uint160
	for i := range u {
		u[i] = b + byte(i)
	}
	return u
}

func u256(b byte) util.Uint256 {
	var u util.Uint256
	for i := range u {
		u[i] = b ^ byte(i)
	}
	return u
}

// allConditions returns a condition tree using every type at the maximum
// nesting depth.
func allConditions(t testing.TB) WitnessCondition {
	g, _ := newKey(t)
	return WitnessCondition{Type: ConditionOr, Expressions: []WitnessCondition{
		{Type: ConditionAnd, Expressions: []WitnessCondition{
			{Type: ConditionBoolean, Bool: true},
			{Type: ConditionScriptHash, Hash: u160(7)},
			{Type: ConditionGroup, Group: g},
		}},
		{Type: ConditionNot, Expressions: []WitnessCondition{{Type: ConditionCalledByEntry}}},
		{Type: ConditionCalledByContract, Hash: u160(9)},
		{Type: ConditionCalledByGroup, Group: g},
		{Type: ConditionBoolean, Bool: false},
	}}
}

// fullTx builds a transaction using every scope, condition and attribute.
func fullTx(t testing.TB) *Transaction {
	g1, _ := newKey(t)
	g2, _ := newKey(t)
	return &Transaction{
		Version: 0, Nonce: 0xdeadbeef, SystemFee: 123456789, NetworkFee: 987654321,
		ValidUntilBlock: 424242,
		Signers: []Signer{
			{Account: u160(1), Scopes: None},
			{Account: u160(2), Scopes: CalledByEntry | CustomContracts | CustomGroups | WitnessRules,
				AllowedContracts: []util.Uint160{u160(3), u160(4)},
				AllowedGroups:    []ECPoint{g1, g2},
				Rules: []WitnessRule{
					{Action: WitnessAllow, Condition: allConditions(t)},
					{Action: WitnessDeny, Condition: WitnessCondition{Type: ConditionCalledByEntry}},
				}},
			{Account: u160(5), Scopes: Global},
		},
		Attributes: []Attribute{
			{Type: AttrHighPriority},
			{Type: AttrOracleResponse, Value: &OracleResponse{ID: 1 << 40, Code: OracleSuccess, Result: []byte("result")}},
			{Type: AttrNotValidBefore, Value: &NotValidBefore{Height: 77}},
			{Type: AttrConflicts, Value: &Conflicts{Hash: u256(1)}},
			{Type: AttrConflicts, Value: &Conflicts{Hash: u256(2)}},
			{Type: AttrNotaryAssisted, Value: &NotaryAssisted{NKeys: 3}},
		},
		Script: []byte{0x11, 0x40},
		Witnesses: []Witness{
			{InvocationScript: []byte{0x0c, 0x40}, VerificationScript: []byte{0x41}},
			{InvocationScript: []byte{}, VerificationScript: []byte{0x51}},
			{InvocationScript: []byte{1, 2, 3}, VerificationScript: []byte{}},
		},
	}
}

func encode(t testing.TB, s io.Encodable) []byte {
	w := io.NewBufBinWriter()
	s.EncodeBinary(w.BinWriter)
	require.NoError(t, w.Err)
	return append([]byte(nil), w.Bytes()...)
}

// decodeStrict decodes b into d and requires every byte to be used.
func decodeStrict(b []byte, d io.Decodable) error {
	r := io.NewBinReaderFromBuf(b)
	d.DecodeBinary(r)
	if r.Err != nil {
		return r.Err
	}
	if r.Len() != 0 {
		return ErrTrailingData
	}
	return nil
}
