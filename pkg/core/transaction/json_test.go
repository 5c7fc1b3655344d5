package transaction

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func TestScopeStrings(t *testing.T) {
	// The reference prints flag enums as names in ascending value order.
	cases := map[WitnessScope]string{
		None:                            "None",
		CalledByEntry:                   "CalledByEntry",
		Global:                          "Global",
		CalledByEntry | CustomContracts: "CalledByEntry, CustomContracts",
		CustomGroups | WitnessRules:     "CustomGroups, WitnessRules",
		CalledByEntry | CustomContracts | CustomGroups | WitnessRules: "CalledByEntry, CustomContracts, CustomGroups, WitnessRules",
	}
	for s, str := range cases {
		require.Equal(t, str, s.String())
		p, err := ScopesFromString(str)
		require.NoError(t, err)
		require.Equal(t, s, p)
	}
	p, err := ScopesFromString("CustomContracts,CalledByEntry")
	require.NoError(t, err)
	require.Equal(t, CalledByEntry|CustomContracts, p)
	for _, bad := range []string{"", "Foo", "Global, CalledByEntry", "CalledByEntry,"} {
		_, err := ScopesFromString(bad)
		require.ErrorIs(t, err, ErrInvalidScope, bad)
	}
}

func TestConditionJSON(t *testing.T) {
	g, _ := newKey(t)
	h := u160(1)
	cases := []struct {
		c    WitnessCondition
		json string
	}{
		{WitnessCondition{Type: ConditionBoolean, Bool: true}, `{"type":"Boolean","expression":true}`},
		{WitnessCondition{Type: ConditionBoolean}, `{"type":"Boolean","expression":false}`},
		{WitnessCondition{Type: ConditionNot, Expressions: []WitnessCondition{{Type: ConditionCalledByEntry}}},
			`{"type":"Not","expression":{"type":"CalledByEntry"}}`},
		{WitnessCondition{Type: ConditionAnd, Expressions: []WitnessCondition{{Type: ConditionCalledByEntry}, {Type: ConditionBoolean, Bool: true}}},
			`{"type":"And","expressions":[{"type":"CalledByEntry"},{"type":"Boolean","expression":true}]}`},
		{WitnessCondition{Type: ConditionOr, Expressions: []WitnessCondition{{Type: ConditionCalledByEntry}}},
			`{"type":"Or","expressions":[{"type":"CalledByEntry"}]}`},
		{WitnessCondition{Type: ConditionScriptHash, Hash: h}, fmt.Sprintf(`{"type":"ScriptHash","hash":"%s"}`, h)},
		{WitnessCondition{Type: ConditionCalledByContract, Hash: h}, fmt.Sprintf(`{"type":"CalledByContract","hash":"%s"}`, h)},
		{WitnessCondition{Type: ConditionGroup, Group: g}, fmt.Sprintf(`{"type":"Group","group":"%s"}`, g)},
		{WitnessCondition{Type: ConditionCalledByGroup, Group: g}, fmt.Sprintf(`{"type":"CalledByGroup","group":"%s"}`, g)},
		{WitnessCondition{Type: ConditionCalledByEntry}, `{"type":"CalledByEntry"}`},
	}
	for _, c := range cases {
		js, err := json.Marshal(c.c)
		require.NoError(t, err)
		require.Equal(t, c.json, string(js))
		var back WitnessCondition
		require.NoError(t, json.Unmarshal(js, &back))
		require.Equal(t, c.c, back)
		// Binary round trip too.
		var bin WitnessCondition
		require.NoError(t, decodeStrict(encode(t, &c.c), &bin))
		require.Equal(t, c.c, bin)
		require.Equal(t, len(encode(t, &c.c)), c.c.Size())
	}
}

func TestConditionJSONRejects(t *testing.T) {
	ops := func(n int) string {
		s := `{"type":"And","expressions":[`
		for i := range n {
			if i > 0 {
				s += ","
			}
			s += `{"type":"CalledByEntry"}`
		}
		return s + "]}"
	}
	cases := map[string]error{
		`{"type":"Not","expression":{"type":"Not","expression":{"type":"Not","expression":{"type":"CalledByEntry"}}}}`: ErrNestingTooDeep,
		ops(17):                             ErrTooManySubitems,
		ops(0):                              ErrInvalidCondition,
		`{"type":"Boolean"}`:                ErrInvalidCondition,
		`{"type":"Boolean","expression":1}`: ErrInvalidJSON,
		`{"type":"ScriptHash"}`:             ErrInvalidCondition,
		`{"type":"Group"}`:                  ErrInvalidCondition,
		`{"type":"Group","group":"05aa"}`:   ErrInvalidPublicKey,
		`{"type":"Nope"}`:                   ErrInvalidCondition,
	}
	for js, want := range cases {
		var c WitnessCondition
		require.ErrorIs(t, json.Unmarshal([]byte(js), &c), want, js)
	}
	// Depth 3 is fine.
	var c WitnessCondition
	require.NoError(t, json.Unmarshal([]byte(`{"type":"Not","expression":{"type":"Not","expression":{"type":"CalledByEntry"}}}`), &c))
	require.NoError(t, json.Unmarshal([]byte(ops(16)), &c))
}

func TestRuleSignerJSON(t *testing.T) {
	r := WitnessRule{Action: WitnessDeny, Condition: WitnessCondition{Type: ConditionCalledByEntry}}
	js, err := json.Marshal(r)
	require.NoError(t, err)
	require.Equal(t, `{"action":"Deny","condition":{"type":"CalledByEntry"}}`, string(js))
	var back WitnessRule
	require.Error(t, json.Unmarshal([]byte(`{"action":"Maybe","condition":{"type":"CalledByEntry"}}`), &back))
	require.Error(t, json.Unmarshal([]byte(`{"action":"Allow"}`), &back))

	// Lists are printed when their flag is set, even empty, in the
	// reference's order.
	s := Signer{Account: u160(1), Scopes: CustomContracts | CustomGroups | WitnessRules}
	js, err = json.Marshal(s)
	require.NoError(t, err)
	require.Equal(t, fmt.Sprintf(`{"account":"%s","scopes":"CustomContracts, CustomGroups, WitnessRules","allowedcontracts":[],"allowedgroups":[],"rules":[]}`, u160(1)), string(js))
	s = Signer{Account: u160(1), Scopes: CalledByEntry, AllowedContracts: []util.Uint160{u160(2)}}
	js, err = json.Marshal(s)
	require.NoError(t, err)
	require.Equal(t, fmt.Sprintf(`{"account":"%s","scopes":"CalledByEntry"}`, u160(1)), string(js))

	var sg Signer
	require.Error(t, json.Unmarshal([]byte(fmt.Sprintf(`{"account":"%s","scopes":"CustomContracts"}`, u160(1))), &sg))
	require.Error(t, json.Unmarshal([]byte(`{"scopes":"None"}`), &sg))
}

func TestAttributeJSON(t *testing.T) {
	h := u256(3)
	cases := []struct {
		a    Attribute
		json string
	}{
		{Attribute{Type: AttrHighPriority}, `{"type":"HighPriority"}`},
		{Attribute{Type: AttrOracleResponse, Value: &OracleResponse{ID: 5, Code: OracleSuccess, Result: []byte{1, 2, 3}}},
			`{"type":"OracleResponse","id":5,"code":"Success","result":"AQID"}`},
		{Attribute{Type: AttrOracleResponse, Value: &OracleResponse{ID: 0, Code: OracleTimeout, Result: []byte{}}},
			`{"type":"OracleResponse","id":0,"code":"Timeout","result":""}`},
		{Attribute{Type: AttrNotValidBefore, Value: &NotValidBefore{Height: 0}}, `{"type":"NotValidBefore","height":0}`},
		{Attribute{Type: AttrConflicts, Value: &Conflicts{Hash: h}}, fmt.Sprintf(`{"type":"Conflicts","hash":"%s"}`, h)},
		{Attribute{Type: AttrNotaryAssisted, Value: &NotaryAssisted{NKeys: 0}}, `{"type":"NotaryAssisted","nkeys":0}`},
	}
	for _, c := range cases {
		js, err := json.Marshal(c.a)
		require.NoError(t, err)
		require.Equal(t, c.json, string(js))
		var back Attribute
		require.NoError(t, json.Unmarshal(js, &back))
		require.Equal(t, c.a, back)
		var bin Attribute
		require.NoError(t, decodeStrict(encode(t, &c.a), &bin))
		require.Equal(t, c.a, bin)
		require.Equal(t, len(encode(t, &c.a)), c.a.Size())
	}
	for _, bad := range []string{`{"type":"Reserved"}`, `{"type":"NotValidBefore"}`,
		`{"type":"OracleResponse","id":1,"code":"Error","result":"AQ=="}`, `{"type":"Conflicts"}`} {
		var a Attribute
		require.Error(t, json.Unmarshal([]byte(bad), &a), bad)
	}
}

func TestTransactionJSON(t *testing.T) {
	tx := fullTx(t)
	js, err := json.Marshal(tx)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(js, &m))
	require.Equal(t, tx.Hash().String(), m["hash"])
	require.Equal(t, "123456789", m["sysfee"])
	require.Equal(t, "987654321", m["netfee"])
	require.EqualValues(t, tx.Size(), m["size"])

	// Inconsistent hash, size or sender is refused.
	for _, f := range []string{"hash", "size", "sender"} {
		var bad map[string]any
		require.NoError(t, json.Unmarshal(js, &bad))
		switch f {
		case "hash":
			bad[f] = util.Uint256{}.String()
		case "size":
			bad[f] = 1
		case "sender":
			bad[f] = "NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq"
		}
		b, err := json.Marshal(bad)
		require.NoError(t, err)
		var back Transaction
		require.Error(t, json.Unmarshal(b, &back), f)
	}
	// Decoding rules apply to JSON too.
	var back Transaction
	require.ErrorIs(t, json.Unmarshal([]byte(`{"version":0,"sysfee":"0","netfee":"0","signers":[],"attributes":[],"script":"QA==","witnesses":[]}`), &back), ErrNoSigners)
}

func TestECPoint(t *testing.T) {
	g, unc := newKey(t)
	p, err := DecodeECPoint(g[:])
	require.NoError(t, err)
	require.Equal(t, g, p)
	p, err = DecodeECPoint(unc)
	require.NoError(t, err)
	require.Equal(t, g, p)

	bad := g
	bad[0] = 0x05
	_, err = DecodeECPoint(bad[:])
	require.ErrorIs(t, err, ErrInvalidPublicKey)
	_, err = DecodeECPoint(g[:32])
	require.ErrorIs(t, err, ErrInvalidPublicKey)
	_, err = DecodeECPoint(nil)
	require.ErrorIs(t, err, ErrInvalidPublicKey)
	// X = p (out of the field) is not a point.
	offCurve := ECPoint{0x02}
	for i := 1; i < ECPointSize; i++ {
		offCurve[i] = 0xff
	}
	_, err = DecodeECPoint(offCurve[:])
	require.ErrorIs(t, err, ErrInvalidPublicKey)
}
