package result

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

func TestAppendObject(t *testing.T) {
	got, err := appendObject([]byte(`{"a":1}`), struct {
		B int `json:"b"`
	}{2})
	require.NoError(t, err)
	require.Equal(t, `{"a":1,"b":2}`, string(got))
	got, err = appendObject([]byte(`{}`), struct {
		B int `json:"b"`
	}{2})
	require.NoError(t, err)
	require.Equal(t, `{"b":2}`, string(got))
	got, err = appendObject([]byte(`{"a":1}`), struct{}{})
	require.NoError(t, err)
	require.Equal(t, `{"a":1}`, string(got))
	_, err = appendObject([]byte(`[1]`), struct{}{})
	require.ErrorIs(t, err, errMerge)
	_, err = appendObject([]byte(`{"a":1}`), 5)
	require.ErrorIs(t, err, errMerge)
}

func TestErrorJSON(t *testing.T) {
	b, err := json.Marshal(ErrUnknownBlock)
	require.NoError(t, err)
	require.Equal(t, `{"code":-101,"message":"Unknown block"}`, string(b))
	e := ErrUnknownBlock.WithData("x")
	b, err = json.Marshal(e)
	require.NoError(t, err)
	require.Equal(t, `{"code":-101,"message":"Unknown block","data":"x"}`, string(b))
	require.ErrorIs(t, e, ErrUnknownBlock)
	require.NotErrorIs(t, e, ErrUnknownContract)
	require.Equal(t, "Unknown block (-101) - x", e.Error())
	require.Equal(t, "Unknown block (-101)", ErrUnknownBlock.Error())
}

func TestInvokeJSON(t *testing.T) {
	r := Invoke{State: "HALT", GasConsumed: 12, Script: []byte{1},
		Stack: []any{stackitem.Make(5), Iterator{Values: []stackitem.Item{stackitem.Make(true)}, Truncated: true}}}
	b, err := json.Marshal(r)
	require.NoError(t, err)
	require.JSONEq(t, `{"state":"HALT","gasconsumed":"12","script":"AQ==","stack":[{"type":"Integer","value":"5"},
		{"type":"InteropInterface","iterator":[{"type":"Boolean","value":true}],"truncated":true}],
		"exception":null,"notifications":[]}`, string(b))
	// A circular item: null stack and the reason in the exception.
	a := stackitem.NewArray(nil)
	require.NoError(t, a.Append(a))
	b, err = json.Marshal(Invoke{State: "HALT", Stack: []any{a}})
	require.NoError(t, err)
	var aux map[string]any
	require.NoError(t, json.Unmarshal(b, &aux))
	require.Nil(t, aux["stack"])
	require.Contains(t, aux["exception"], "json error")
}

func TestMiscJSON(t *testing.T) {
	b, err := json.Marshal(UnclaimedGas{Address: util.Uint160{}, Unclaimed: big.NewInt(7)})
	require.NoError(t, err)
	require.JSONEq(t, `{"address":"NKuyBkoGdZZSLyPbJEetheRhMjeznFZszf","unclaimed":"7"}`, string(b))
	b, err = json.Marshal(NetworkFee{Value: 10})
	require.NoError(t, err)
	require.Equal(t, `{"networkfee":"10"}`, string(b))
}
