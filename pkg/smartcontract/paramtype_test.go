package smartcontract_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/internal/refdata"
)

// TestParamTypeConformance reads every type name of every manifest the
// reference printed.
func TestParamTypeConformance(t *testing.T) {
	seen := map[smartcontract.ParamType]bool{}
	check := func(s string) {
		pt, err := smartcontract.ParseParamType(s)
		require.NoError(t, err, s)
		require.Equal(t, s, pt.String())
		seen[pt] = true
	}
	for _, c := range refdata.Contracts(t) {
		type param struct {
			Type string `json:"type"`
		}
		var m struct {
			ABI struct {
				Methods []struct {
					Parameters []param `json:"parameters"`
					ReturnType string  `json:"returntype"`
				} `json:"methods"`
				Events []struct {
					Parameters []param `json:"parameters"`
				} `json:"events"`
			} `json:"abi"`
		}
		require.NoError(t, json.Unmarshal(c.Manifest, &m))
		for _, me := range m.ABI.Methods {
			check(me.ReturnType)
			for _, p := range me.Parameters {
				check(p.Type)
			}
		}
		for _, e := range m.ABI.Events {
			for _, p := range e.Parameters {
				check(p.Type)
			}
		}
	}
	require.Greater(t, len(seen), 8)
}

func TestParamTypeForms(t *testing.T) {
	all := map[smartcontract.ParamType]string{
		smartcontract.AnyType: "Any", smartcontract.BoolType: "Boolean", smartcontract.IntegerType: "Integer",
		smartcontract.ByteArrayType: "ByteArray", smartcontract.StringType: "String",
		smartcontract.Hash160Type: "Hash160", smartcontract.Hash256Type: "Hash256",
		smartcontract.PublicKeyType: "PublicKey", smartcontract.SignatureType: "Signature",
		smartcontract.ArrayType: "Array", smartcontract.MapType: "Map",
		smartcontract.InteropInterfaceType: "InteropInterface", smartcontract.VoidType: "Void",
	}
	for pt, name := range all {
		require.Equal(t, name, pt.String())
		require.True(t, pt.IsValid())
		b, err := json.Marshal(pt)
		require.NoError(t, err)
		var got smartcontract.ParamType
		require.NoError(t, json.Unmarshal(b, &got))
		require.Equal(t, pt, got)
	}
	valid := 0
	for v := range 256 {
		if smartcontract.ParamType(v).IsValid() {
			valid++
		}
	}
	require.Equal(t, len(all), valid)
	require.Equal(t, "5", smartcontract.ParamType(5).String())
	for _, s := range []string{"", "integer", "Int", "5", "256", "-1", "Integer,", "Any,Foo"} {
		_, err := smartcontract.ParseParamType(s)
		require.ErrorIs(t, err, smartcontract.ErrInvalidParamType, s)
	}
}
