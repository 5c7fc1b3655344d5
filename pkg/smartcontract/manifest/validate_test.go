package manifest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
	"github.com/n3d-io/n3d/pkg/util"
)

// base returns a valid manifest as a generic JSON map to mutate.
func base(t *testing.T) map[string]any {
	const js = `{"name":"T","groups":[],"features":{},"supportedstandards":["NEP-17"],
	"abi":{"methods":[{"name":"m","parameters":[{"name":"a","type":"Integer"}],"returntype":"Void","offset":0,"safe":false}],
	"events":[{"name":"E","parameters":[{"name":"x","type":"String"}]}]},
	"permissions":[{"contract":"*","methods":["transfer"]}],"trusts":[],"extra":null}`
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(js), &m))
	return m
}

func abiOf(m map[string]any) map[string]any { return m["abi"].(map[string]any) }
func method0(m map[string]any) map[string]any {
	return abiOf(m)["methods"].([]any)[0].(map[string]any)
}
func param0(m map[string]any) map[string]any {
	return method0(m)["parameters"].([]any)[0].(map[string]any)
}
func perm0(m map[string]any) map[string]any {
	return m["permissions"].([]any)[0].(map[string]any)
}

func parseMap(t *testing.T, m map[string]any) (*Manifest, error) {
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return Parse(b)
}

const (
	hashStr = "0x0102030405060708090a0b0c0d0e0f1011121314"
	// A compressed secp256r1 key (the curve's generator).
	groupKey = "036b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
)

func TestParseRejects(t *testing.T) {
	sig64 := b64(make([]byte, 64))
	for name, edit := range map[string]func(m map[string]any){
		"name missing":       func(m map[string]any) { delete(m, "name") },
		"name null":          func(m map[string]any) { m["name"] = nil },
		"name number":        func(m map[string]any) { m["name"] = 1 },
		"name empty":         func(m map[string]any) { m["name"] = "" },
		"features missing":   func(m map[string]any) { delete(m, "features") },
		"features array":     func(m map[string]any) { m["features"] = []any{} },
		"features non-empty": func(m map[string]any) { m["features"] = map[string]any{"a": 1} },
		"groups object":      func(m map[string]any) { m["groups"] = map[string]any{} },
		"group null":         func(m map[string]any) { m["groups"] = []any{nil} },
		"group bad key": func(m map[string]any) {
			m["groups"] = []any{map[string]any{"pubkey": "04" + strings.Repeat("00", 32), "signature": sig64}}
		},
		"group short sig": func(m map[string]any) {
			m["groups"] = []any{map[string]any{"pubkey": groupKey, "signature": b64(make([]byte, 63))}}
		},
		"group bad base64": func(m map[string]any) {
			m["groups"] = []any{map[string]any{"pubkey": groupKey, "signature": "!!"}}
		},
		"group duplicate": func(m map[string]any) {
			g := map[string]any{"pubkey": groupKey, "signature": sig64}
			m["groups"] = []any{g, g}
		},
		"standard empty":     func(m map[string]any) { m["supportedstandards"] = []any{""} },
		"standard duplicate": func(m map[string]any) { m["supportedstandards"] = []any{"A", "A"} },
		"standard number":    func(m map[string]any) { m["supportedstandards"] = []any{1} },
		"abi missing":        func(m map[string]any) { delete(m, "abi") },
		"methods empty":      func(m map[string]any) { abiOf(m)["methods"] = []any{} },
		"methods missing":    func(m map[string]any) { delete(abiOf(m), "methods") },
		"method name empty":  func(m map[string]any) { method0(m)["name"] = "" },
		"method params null": func(m map[string]any) { method0(m)["parameters"] = nil },
		"param name empty":   func(m map[string]any) { param0(m)["name"] = "" },
		"param void":         func(m map[string]any) { param0(m)["type"] = "Void" },
		"param bad type":     func(m map[string]any) { param0(m)["type"] = "Foo" },
		"param lower case":   func(m map[string]any) { param0(m)["type"] = "integer" },
		"param dup name": func(m map[string]any) {
			method0(m)["parameters"] = []any{param0(m), param0(m)}
		},
		"returntype undefined": func(m map[string]any) { method0(m)["returntype"] = "5" },
		"returntype overflow":  func(m map[string]any) { method0(m)["returntype"] = "256" },
		"returntype trailing":  func(m map[string]any) { method0(m)["returntype"] = "Integer," },
		"offset negative":      func(m map[string]any) { method0(m)["offset"] = -1 },
		"offset fraction":      func(m map[string]any) { method0(m)["offset"] = 1.5 },
		"offset string":        func(m map[string]any) { method0(m)["offset"] = "1" },
		"offset too large":     func(m map[string]any) { method0(m)["offset"] = 2147483648 },
		"safe string":          func(m map[string]any) { method0(m)["safe"] = "true" },
		"event name empty": func(m map[string]any) {
			abiOf(m)["events"].([]any)[0].(map[string]any)["name"] = ""
		},
		"event params missing": func(m map[string]any) {
			delete(abiOf(m)["events"].([]any)[0].(map[string]any), "parameters")
		},
		"contract short":       func(m map[string]any) { perm0(m)["contract"] = "0x1234" },
		"contract no prefix":   func(m map[string]any) { perm0(m)["contract"] = "ab" + hashStr[2:] },
		"contract bad group":   func(m map[string]any) { perm0(m)["contract"] = "04" + strings.Repeat("00", 32) },
		"contract number":      func(m map[string]any) { perm0(m)["contract"] = 5 },
		"methods bad wild":     func(m map[string]any) { perm0(m)["methods"] = "all" },
		"methods empty name":   func(m map[string]any) { perm0(m)["methods"] = []any{""} },
		"methods duplicate":    func(m map[string]any) { perm0(m)["methods"] = []any{"a", "a"} },
		"perm methods missing": func(m map[string]any) { delete(perm0(m), "methods") },
		"permission dup":       func(m map[string]any) { m["permissions"] = []any{perm0(m), perm0(m)} },
		"trusts missing":       func(m map[string]any) { delete(m, "trusts") },
		"trusts bad wildcard":  func(m map[string]any) { m["trusts"] = "x" },
		"trusts number":        func(m map[string]any) { m["trusts"] = []any{1} },
		"trusts null element":  func(m map[string]any) { m["trusts"] = []any{nil} },
		"trusts duplicate":     func(m map[string]any) { m["trusts"] = []any{hashStr, hashStr} },
		"extra array":          func(m map[string]any) { m["extra"] = []any{} },
		"extra string":         func(m map[string]any) { m["extra"] = "x" },
	} {
		m := base(t)
		edit(m)
		_, err := parseMap(t, m)
		require.Error(t, err, name)
	}
}

func TestParseAccepts(t *testing.T) {
	m := base(t)
	delete(m, "groups")
	m["supportedstandards"] = nil
	delete(abiOf(m), "events")
	m["permissions"] = nil
	m["unknown"] = 1
	got, err := parseMap(t, m)
	require.NoError(t, err)
	require.Empty(t, got.Groups)
	require.Empty(t, got.SupportedStandards)
	require.Empty(t, got.ABI.Events)
	require.Empty(t, got.Permissions)

	// Type texts are read as C# Enum.Parse does.
	for text, want := range map[string]smartcontract.ParamType{
		"17": smartcontract.IntegerType, " Integer ": smartcontract.IntegerType,
		"Boolean, Integer": smartcontract.IntegerType, "255": smartcontract.VoidType,
	} {
		m = base(t)
		method0(m)["returntype"] = text
		got, err = parseMap(t, m)
		require.NoError(t, err, text)
		require.Equal(t, want, got.ABI.Methods[0].ReturnType, text)
	}

	m = base(t)
	perm0(m)["contract"] = "0X" + hashStr[2:]
	m["trusts"] = []any{"*", groupKey}
	m["extra"] = map[string]any{"a": []any{1, "x"}}
	got, err = parseMap(t, m)
	require.NoError(t, err)
	require.Equal(t, PermissionHash, got.Permissions[0].Contract.Type)
	require.Equal(t, hashStr, got.Permissions[0].Contract.Hash.String())
	require.False(t, got.Trusts.Wildcard)
	require.Equal(t, PermissionWildcard, got.Trusts.Value[0].Type)
	require.Equal(t, groupKey, got.Trusts.Value[1].String())
	out, err := json.Marshal(got)
	require.NoError(t, err)
	require.Contains(t, string(out), `"trusts":["*","`+groupKey+`"],"extra":{"a":[1,"x"]}}`)

	m = base(t)
	m["trusts"] = "*"
	perm0(m)["methods"] = "*"
	got, err = parseMap(t, m)
	require.NoError(t, err)
	require.True(t, got.Trusts.Wildcard)
	require.True(t, got.Permissions[0].Methods.Wildcard)

	withComments := "/* c */" + `{"name":"T","features":{},"abi":{"methods":[{"name":"m","parameters":[],` +
		`"returntype":"Void","offset":0,"safe":true}]} // x` + "\n" + `,"trusts":[]}`
	_, err = Parse([]byte(withComments))
	require.NoError(t, err)
}

func TestParseJSONErrors(t *testing.T) {
	for _, in := range []string{
		`[]`, `null`, `{"name":"a","name":"b"}`, `{"name":"T",}`, ``,
	} {
		_, err := Parse([]byte(in))
		require.Error(t, err, in)
	}
	big := `{"name":"` + strings.Repeat("a", MaxManifestSize) + `"}`
	_, err := Parse([]byte(big))
	require.ErrorIs(t, err, ErrTooLarge)
}

func TestCheckUnique(t *testing.T) {
	m := base(t)
	mm := method0(m)
	other := map[string]any{"name": "m", "parameters": []any{}, "returntype": "Void", "offset": 0, "safe": false}
	abiOf(m)["methods"] = []any{mm, other}
	got, err := parseMap(t, m)
	require.NoError(t, err)
	require.NoError(t, got.ABI.CheckUnique(), "same name, other parameter count")
	require.Equal(t, 1, len(got.ABI.GetMethod("m", 1).Parameters))
	require.Equal(t, 0, len(got.ABI.GetMethod("m", 0).Parameters))
	require.Equal(t, 1, len(got.ABI.GetMethod("m", -1).Parameters))
	require.Nil(t, got.ABI.GetMethod("m", 2))

	abiOf(m)["methods"] = []any{mm, mm}
	got, err = parseMap(t, m)
	require.NoError(t, err, "duplicates are only checked on deployment")
	require.ErrorIs(t, got.ABI.CheckUnique(), ErrDuplicate)

	m = base(t)
	ev := abiOf(m)["events"].([]any)[0]
	abiOf(m)["events"] = []any{ev, ev}
	got, err = parseMap(t, m)
	require.NoError(t, err)
	require.ErrorIs(t, got.ABI.CheckUnique(), ErrDuplicate)
	require.NotNil(t, got.ABI.GetEvent("E"))
	require.Nil(t, got.ABI.GetEvent("F"))
}

func TestGroups(t *testing.T) {
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	h := util.Uint160{1, 2, 3}
	m := base(t)
	m["groups"] = []any{map[string]any{
		"pubkey": priv.PublicKey().String(), "signature": b64(priv.Sign(h[:])),
	}}
	got, err := parseMap(t, m)
	require.NoError(t, err)
	require.NoError(t, got.IsValid(h))
	require.ErrorIs(t, got.IsValid(util.Uint160{9}), ErrInvalidGroup)

	// Group permissions match the target's groups.
	perm := NewPermission(NewGroupDesc(priv.PublicKey()), "m")
	require.True(t, perm.IsAllowed(util.Uint160{7}, got, "m"))
	require.False(t, perm.IsAllowed(util.Uint160{7}, got, "n"))
	require.False(t, perm.IsAllowed(util.Uint160{7}, NewManifest("x"), "m"))

	item := got.ToStackItem()
	back, err := FromStackItem(item)
	require.NoError(t, err)
	require.Equal(t, got, back)
}

func TestPermissions(t *testing.T) {
	target := util.Uint160{5}
	p := NewPermission(NewHashDesc(target))
	require.True(t, p.IsAllowed(target, NewManifest("x"), "any"))
	require.False(t, p.IsAllowed(util.Uint160{6}, NewManifest("x"), "any"))
	caller := NewManifest("c")
	caller.Permissions = []Permission{NewPermission(NewWildcardDesc(), "transfer")}
	require.True(t, caller.CanCall(target, NewManifest("x"), "transfer"))
	require.False(t, caller.CanCall(target, NewManifest("x"), "burn"))
	tr := WildPermissionDescs{Value: []PermissionDesc{NewHashDesc(target)}}
	require.True(t, tr.Contains(NewHashDesc(target)))
	require.False(t, tr.Contains(NewHashDesc(util.Uint160{6})))
	require.True(t, (&WildPermissionDescs{Wildcard: true}).Contains(NewHashDesc(util.Uint160{6})))
}

// TestIsValidLimits builds a manifest whose stack item has more items than
// the VM may serialize (MaxStackSize, 2048).
func TestIsValidLimits(t *testing.T) {
	m := NewManifest("big")
	// The manifest itself is 11 items (its struct, name, groups, features,
	// standards, ABI struct, methods, events, permissions, trusts, extra);
	// each parameterless method 6: struct, name, parameters, return type,
	// offset, safe.
	for i := range (2048 - 11) / 6 {
		m.ABI.Methods = append(m.ABI.Methods, Method{Name: fmt.Sprint("m", i), Parameters: []Parameter{}})
	}
	require.NoError(t, m.IsValid(util.Uint160{}))
	m.ABI.Methods = append(m.ABI.Methods, Method{Name: "last", Parameters: []Parameter{}})
	require.ErrorIs(t, m.IsValid(util.Uint160{}), ErrNotSerializable)
}

func TestStackItemRoundTrip(t *testing.T) {
	m := base(t)
	m["trusts"] = []any{"*", hashStr, groupKey}
	m["permissions"] = []any{
		map[string]any{"contract": hashStr, "methods": "*"},
		map[string]any{"contract": groupKey, "methods": []any{"a", "b"}},
		map[string]any{"contract": "*", "methods": []any{}},
	}
	m["extra"] = map[string]any{"k": "é<+>", "n": 1.5}
	got, err := parseMap(t, m)
	require.NoError(t, err)
	back, err := FromStackItem(got.ToStackItem())
	require.NoError(t, err)
	require.Equal(t, got, back)

	m["trusts"] = "*"
	got, err = parseMap(t, m)
	require.NoError(t, err)
	back, err = FromStackItem(got.ToStackItem())
	require.NoError(t, err)
	require.Equal(t, got, back)
	extra, err := neojson.Marshal(back.Extra)
	require.NoError(t, err)
	require.Equal(t, `{"k":"\u00E9\u003C\u002B\u003E","n":1.5}`, string(extra))
}

// boundaries accepts the offsets of a fixed set of instruction starts.
type boundaries map[int]bool

func (b boundaries) CheckInstruction(off int) error {
	if !b[off] {
		return fmt.Errorf("no instruction at %d", off)
	}
	return nil
}

func TestABICheck(t *testing.T) {
	got, err := parseMap(t, base(t))
	require.NoError(t, err)
	require.NoError(t, got.ABI.Check(boundaries{0: true}))
	require.ErrorIs(t, got.ABI.Check(boundaries{1: true}), ErrInvalidField)
	got.ABI.Methods = append(got.ABI.Methods, got.ABI.Methods[0])
	require.ErrorIs(t, got.ABI.Check(boundaries{0: true}), ErrDuplicate)
}
