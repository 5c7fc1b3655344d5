package params

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/stretchr/testify/require"
)

func TestDecode(t *testing.T) {
	r, err := Decode([]byte(` {"jsonrpc":"2.0","id":[1],"method":"m","params":[1,"a",null]} `), 10)
	require.NoError(t, err)
	require.NotNil(t, r.In)
	require.Equal(t, "m", r.In.Method)
	require.JSONEq(t, "[1]", string(r.In.ID))
	require.Len(t, r.In.Params, 3)

	r, err = Decode([]byte(`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b","id":2}]`), 2)
	require.NoError(t, err)
	require.Nil(t, r.In)
	require.Len(t, r.Batch, 2)
	require.Nil(t, r.Batch[0].ID)

	for _, bad := range []string{"", " ", "[]", "[", "{", "1", `"x"`, "[1]",
		`{"params":{"a":1}}`, `{"method":1}`} {
		_, err := Decode([]byte(bad), 2)
		require.Error(t, err, bad)
	}
	// neo-go's texts (pkg/services/rpcsrv/params/types.go), and like
	// neo-go only the first JSON value is read.
	for body, want := range map[string]string{
		"":                   "error parsing JSON payload: EOF",
		`{"a":`:              "error parsing JSON payload: unexpected EOF",
		`"getblockcount"`:    "`[` expected, got getblockcount",
		`{"params":{"a":1}}`: "`[` expected, got {",
		`[1]`:                "json: cannot unmarshal number into Go value of type params.In",
		`[]`:                 "empty request",
		`[{},{},{},{}]`:      "the number of requests in batch shouldn't exceed 2",
	} {
		_, err := Decode([]byte(body), 2)
		require.EqualError(t, err, want, body)
	}
	for _, ok := range []string{"null", `{} x`, `[{}] x`, `[{},{},{}]`} {
		_, err := Decode([]byte(ok), 2)
		require.NoError(t, err, ok)
	}
	_, err = Decode([]byte(`[{},{},{},{}]`), 2)
	require.ErrorIs(t, err, ErrBatchTooLarge)
	_, err = Decode([]byte(`[]`), 2)
	require.ErrorIs(t, err, ErrEmptyRequest)
}

func p(s string) *Param { return &Param{RawMessage: json.RawMessage(s)} }

func TestParamGetters(t *testing.T) {
	for raw, want := range map[string]int64{`1`: 1, `"-7"`: -7, `true`: 1, `false`: 0} {
		v, err := p(raw).GetInt()
		require.NoError(t, err, raw)
		require.Equal(t, want, v)
	}
	for _, raw := range []string{`null`, `1.5`, `"x"`, `[]`, `{}`, `"99999999999999999999"`} {
		_, err := p(raw).GetInt()
		require.Error(t, err, raw)
	}
	var missing *Param
	_, err := missing.GetInt()
	require.ErrorIs(t, err, ErrMissing)
	_, err = p(`"1"`).GetIntStrict()
	require.Error(t, err)

	n, err := p(`"123456789012345678901234567890"`).GetBigInt()
	require.NoError(t, err)
	want, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	require.Equal(t, want, n)
	n, err = p(`123456789012345678901234567890`).GetBigInt()
	require.NoError(t, err)
	require.Equal(t, want, n)

	for raw, want := range map[string]string{`"a"`: "a", `12`: "12", `true`: "true"} {
		s, err := p(raw).GetString()
		require.NoError(t, err)
		require.Equal(t, want, s)
	}
	_, err = p(`null`).GetString()
	require.Error(t, err)
	_, err = p(`null`).GetStringStrict()
	require.Error(t, err)
	_, err = p(`1`).GetStringStrict()
	require.Error(t, err)

	for raw, want := range map[string]bool{`true`: true, `""`: false, `"x"`: true, `0`: false, `2`: true} {
		b, err := p(raw).GetBoolean()
		require.NoError(t, err, raw)
		require.Equal(t, want, b, raw)
	}
	_, err = p(`"true"`).GetBooleanStrict()
	require.Error(t, err)

	a, err := p(`[1,"x"]`).GetArray()
	require.NoError(t, err)
	require.Len(t, a, 2)
	_, err = p(`null`).GetArray()
	require.Error(t, err)

	h := util.Uint160{1, 2, 3}
	for _, s := range []string{h.String(), strings.TrimPrefix(h.String(), "0x"), address.Uint160ToString(h)} {
		got, err := p(`"` + s + `"`).GetUint160FromAddressOrHex()
		require.NoError(t, err, s)
		require.Equal(t, h, got)
	}
	u := util.Uint256{9, 8}
	got, err := p(`"` + u.String() + `"`).GetUint256()
	require.NoError(t, err)
	require.Equal(t, u, got)
}

// TestFunctionScript checks the invokefunction script against the emit
// builder's System.Contract.Call form.
func TestFunctionScript(t *testing.T) {
	h := util.Uint160{7}
	args := p(`[{"type":"Integer","value":"5"},{"type":"String","value":"s"},{"type":"Boolean","value":true},
		{"type":"ByteArray","value":"AQI="},{"type":"Hash160","value":"` + h.String() + `"},
		{"type":"Array","value":[{"type":"Integer","value":1}]},{"type":"Any"},
		{"type":"Map","value":[{"key":{"type":"String","value":"k"},"value":{"type":"Integer","value":2}}]}]`)
	got, err := FunctionScript(h, "m", args)
	require.NoError(t, err)
	b := emit.NewBuilder()
	// Map {k: 2}: value, key, count, PACKMAP.
	b.Int(2).String("k").Int(1).Opcodes(0xbe)
	b.Null()
	b.Int(1).Int(1).Opcodes(0xc0)
	b.Bytes(h.BytesLE()).Bytes([]byte{1, 2}).Bool(true).String("s").Int(5)
	b.Int(8).Opcodes(0xc0)
	b.Int(0x0f).String("m").Bytes(h.BytesLE()).Syscall("System.Contract.Call")
	want, err := b.Script()
	require.NoError(t, err)
	require.Equal(t, want, got)

	noArgs, err := FunctionScript(h, "m", nil)
	require.NoError(t, err)
	want, err = emit.NewBuilder().AppCall(h, "m", 0x0f).Script()
	require.NoError(t, err)
	require.Equal(t, want, noArgs)

	for _, bad := range []string{`1`, `[{"type":"Integer","value":"x"}]`, `[{"type":"Void"}]`, `[{"type":"Nope"}]`,
		`[{"type":"PublicKey","value":"00"}]`, `[{"type":"Hash160","value":"x"}]`} {
		_, err := FunctionScript(h, "m", p(bad))
		require.Error(t, err, bad)
	}
	deep := strings.Repeat(`{"type":"Array","value":[`, MaxParamDepth+2) + strings.Repeat(`]}`, MaxParamDepth+2)
	_, err = FunctionScript(h, "m", p("["+deep+"]"))
	require.ErrorIs(t, err, ErrParamDepth)
}

func TestSigners(t *testing.T) {
	h := util.Uint160{1}
	ss, ws, err := p(`["` + h.String() + `"]`).GetSignersWithWitnesses()
	require.NoError(t, err)
	require.Equal(t, []transaction.Signer{{Account: h, Scopes: transaction.CalledByEntry}}, ss)
	require.Len(t, ws, 1)

	ss, ws, err = p(`[{"account":"` + address.Uint160ToString(h) + `","scopes":"Global","invocation":"AQ==","verification":"Ag=="},
		{"account":"` + h.String() + `","scopes":16,"allowedcontracts":["` + h.String() + `"]}]`).GetSignersWithWitnesses()
	require.NoError(t, err)
	require.Equal(t, transaction.Global, ss[0].Scopes)
	require.Equal(t, []byte{1}, ws[0].InvocationScript)
	require.Equal(t, []byte{2}, ws[0].VerificationScript)
	require.Equal(t, transaction.CustomContracts, ss[1].Scopes)
	require.Equal(t, []util.Uint160{h}, ss[1].AllowedContracts)

	for _, bad := range []string{`1`, `[1]`, `[{"account":"x"}]`, `[{"account":"` + h.String() + `","scopes":"Nope"}]`,
		`[{"account":"` + h.String() + `","scopes":[]}]`, `[` + strings.Repeat(`"`+h.String()+`",`, 16) + `"` + h.String() + `"]`} {
		_, _, err := p(bad).GetSignersWithWitnesses()
		require.Error(t, err, bad)
	}
}

// TestSignerAddressErrors: a signer account that is neither a hash nor an
// address is worded as neo-go's decoder words it.
func TestSignerAddressErrors(t *testing.T) {
	good := address.Uint160ToString(util.Uint160{1, 2, 3})
	bad := []byte(good)
	bad[len(bad)-1] ^= 1 // checksum broken (still base58)
	if bad[len(bad)-1] == '0' || bad[len(bad)-1] == 'O' || bad[len(bad)-1] == 'I' || bad[len(bad)-1] == 'l' {
		bad[len(bad)-1] = '2'
	}
	for acc, want := range map[string]string{
		"x":         "not a signer: not a signer: invalid base-58 check string: missing checksum",
		"0OIl":      `not a signer: not a signer: invalid base58 digit ('0')`,
		string(bad): "not a signer: not a signer: invalid base-58 check string: invalid checksum",
	} {
		_, _, err := p(`{"account":"` + acc + `"}`).signerWithWitness()
		require.EqualError(t, err, want, acc)
	}
}

// TestScanObject: the shapes clients send under load take the shortcut
// (their IDs and parameters aliasing the body), the others are left to
// encoding/json.
func TestScanObject(t *testing.T) {
	for _, s := range []string{
		`{"jsonrpc": "2.0", "id": 1, "method": "sendrawtransaction", "params": ["AAEC+/=="]}`,
		`{"jsonrpc":"2.0","method":"getblock","params":[12,1],"id":"x-1"}`,
		` {"jsonrpc":"2.0","id":7,"method":"getblockcount","params":[]}` + "\n",
		`{"jsonrpc":"2.0","id":-3,"method":"getblock","params":[-1.5e3,true,false,null]}`,
	} {
		in, ok := scanObject([]byte(s))
		require.True(t, ok, s)
		require.Equal(t, Version, in.JSONRPC)
		require.NotEmpty(t, in.Method)
		require.NotNil(t, in.Params)
	}
	in, ok := scanObject([]byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":["ab"]}`))
	require.True(t, ok)
	require.Equal(t, json.RawMessage("1"), in.ID)
	require.Equal(t, Params{{json.RawMessage(`"ab"`)}}, in.Params)
	require.Equal(t, len(in.Params[0].RawMessage), cap(in.Params[0].RawMessage), "capped: an append never writes into the body")
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":null,"method":"m"}`, `{"jsonrpc":"2.0","id":1.5,"method":"m"}`,
		`{"jsonrpc":"2.0","method":"m\u0041"}`, `{"Method":"m"}`, `{"method":"m","extra":1}`,
		`{"method":"m","method":"n"}`, `{"params":[[1]]}`, `{"params":[{}]}`, `{"params":null}`,
		`{"params":[1 2]}`, `[{"method":"m"}]`, `{"method":"m"`, `{"id":01}`, `{"params":[-]}`,
	} {
		_, ok := scanObject([]byte(s))
		require.False(t, ok, s)
	}
}
