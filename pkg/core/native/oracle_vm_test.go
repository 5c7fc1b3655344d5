package native_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/internal/nativetest"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

// Expected behaviour: the reference OracleContract.Request, Finish,
// PostPersistAsync, Verify, GetPrice and SetPrice (neo
// src/Neo/SmartContract/Native/OracleContract.cs).

var oracleH = nativetest.OracleHash

// oracleClient deploys a contract that forwards calls (call) and whose
// callback cb(url, userData, code, result) notifies them.
func oracleClient(t *testing.T, c *nativetest.Chain, h util.Uint160, id int32) {
	proxy := c.Proxy(h, id)
	forward := proxy.NEF.Script[:len(proxy.NEF.Script)-len(nativetest.NotifyArgs(t, "Payment", 3))]
	c.Deploy(h, id, []nativetest.Method{
		{Name: "call", Params: 3, Return: smartcontract.AnyType, Code: forward},
		{Name: "cb", Params: 4, Return: smartcontract.VoidType, Code: nativetest.NotifyArgs(t, "Callback", 4)},
		{Name: "cbValue", Params: 4, Return: smartcontract.IntegerType,
			Code: nativetest.Script(t, emit.NewBuilder().Opcodes(opcode.DROP, opcode.DROP, opcode.DROP, opcode.DROP, opcode.PUSH1, opcode.RET))},
	}, map[string]int{"Callback": 4})
}

func request(t *testing.T, client util.Uint160, url string, filter any, cb string, data any, gas int64) []byte {
	return nativetest.ProxyCall(t, client, oracleH, "request", url, filter, cb, data, gas)
}

func responseTx(c *nativetest.Chain, id uint64, code transaction.OracleResponseCode, result []byte, script []byte) *transaction.Transaction {
	tx := c.Tx(script, nativetest.CalledByEntry(oracleH))
	tx.Attributes = []transaction.Attribute{{Type: transaction.AttrOracleResponse,
		Value: &transaction.OracleResponse{ID: id, Code: code, Result: result}}}
	return tx
}

func TestOracleRequestAndFinish(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	client := acc(0x0c)
	oracleClient(t, c, client, 1)
	price := nativetest.Int(t, call(t, c, oracleH, "getPrice"))
	require.Equal(t, int64(native.DefaultOraclePrice), price)
	const gasForResponse = 1_0000_0000

	tx := c.Tx(request(t, client, "https://example.org", "$.x", "cb", []any{int64(7), "u"}, gasForResponse), nil)
	br := c.AddBlock(tx)
	r := br.Txs[0]
	r.Halt(t)
	// Price and gasForResponse are charged on top of the execution.
	require.GreaterOrEqual(t, r.GasConsumed, price+gasForResponse)
	require.Len(t, r.Events, 2)
	transferEvent(t, r.Events[0].Item, nil, &oracleH, gasForResponse)
	require.Equal(t, "OracleRequest", r.Events[1].Name)
	st := r.Events[1].Item.Items()
	require.Equal(t, int64(0), nativetest.Int(t, st[0]))
	require.Equal(t, client.BytesLE(), nativetest.Bytes(t, st[1]))
	require.Equal(t, "https://example.org", string(nativetest.Bytes(t, st[2])))
	require.Equal(t, "$.x", string(nativetest.Bytes(t, st[3])))
	req, err := c.Gov.Oracle.Request(c.DAO, 0)
	require.NoError(t, err)
	require.NotNil(t, req)
	require.Equal(t, tx.Hash(), req.OriginalTxID)
	require.Equal(t, int64(gasForResponse), req.GasForResponse)
	require.Equal(t, client, req.CallbackContract)
	require.Equal(t, "cb", req.CallbackMethod)
	require.Equal(t, int64(gasForResponse), balance(t, c, gasH, oracleH))

	// A second request with a Null filter gets id 1.
	r = c.Invoke(nil, request(t, client, "https://example.org", nil, "cb", nil, gasForResponse))
	r.Halt(t)
	require.Equal(t, int64(1), nativetest.Int(t, r.Events[1].Item.At(0)))
	require.Equal(t, "Any", r.Events[1].Item.At(3).Type().String())

	// Designate two oracle nodes; each response pays the price to node
	// id % 2 in PostPersist.
	_, nodes := keyArgs(t, 2, "oracle node")
	nodeArgs := []any{nodes[0], nodes[1]}
	c.Invoke(nativetest.CalledByEntry(c.CommitteeAddress()), nativetest.CallScript(t, nativetest.DesignHash, "designateAsRole", int64(native.RoleOracle), nodeArgs)).Halt(t)
	sorted := sortedByPoint(t, nodes)

	finish := nativetest.CallScript(t, oracleH, "finish")
	br = c.AddBlock(responseTx(c, 1, transaction.OracleSuccess, []byte("42"), finish))
	r = br.Txs[0]
	require.Equal(t, "HALT", r.State.String(), "%v", r.Fault)
	require.Len(t, r.Events, 2)
	require.Equal(t, "OracleResponse", r.Events[0].Name)
	require.Equal(t, int64(1), nativetest.Int(t, r.Events[0].Item.At(0)))
	require.Equal(t, "Callback", r.Events[1].Name)
	cb := r.Events[1].Item.Items()
	require.Equal(t, "https://example.org", string(nativetest.Bytes(t, cb[0])))
	require.Equal(t, "Any", cb[1].Type().String()) // the Null user data
	require.Equal(t, int64(transaction.OracleSuccess), nativetest.Int(t, cb[2]))
	require.Equal(t, "42", string(nativetest.Bytes(t, cb[3])))
	// PostPersist: request 1 removed, node 1 % 2 paid the price.
	req, err = c.Gov.Oracle.Request(c.DAO, 1)
	require.NoError(t, err)
	require.Nil(t, req)
	ev := br.PostPersist.EventsNamed(gasH, "Transfer")
	require.Len(t, ev, 2) // committee reward, then the oracle node
	paid := keyHash(t, sorted[1])
	transferEvent(t, ev[1].Item, nil, &paid, price)
	req, err = c.Gov.Oracle.Request(c.DAO, 0)
	require.NoError(t, err)
	require.NotNil(t, req, "request 0 is still pending")

	t.Run("finish errors", func(t *testing.T) {
		c.Invoke(nil, finish).Faults(t, "oracle response")
		c.AddBlock(responseTx(c, 99, transaction.OracleSuccess, nil, finish)).Txs[0].Faults(t, "not found")
		twice := nativetest.Script(t, emit.NewBuilder().AppCall(oracleH, "finish", 15).Opcodes(opcode.DROP).AppCall(oracleH, "finish", 15))
		c.AddBlock(responseTx(c, 0, transaction.OracleSuccess, nil, twice)).Txs[0].Faults(t, "called multiple times")
		nested := nativetest.ProxyCall(t, client, oracleH, "finish")
		c.AddBlock(responseTx(c, 0, transaction.OracleSuccess, nil, nested)).Txs[0].Faults(t, "called from non-entry script")
	})
	t.Run("callback with a return value", func(t *testing.T) {
		c.Invoke(nil, request(t, client, "u2", nil, "cbValue", nil, gasForResponse)).Halt(t) // id 2
		c.AddBlock(responseTx(c, 2, transaction.OracleSuccess, nil, finish)).Txs[0].Faults(t, "")
	})
	t.Run("verify", func(t *testing.T) {
		require.False(t, nativetest.Bool(t, c.Call(nil, nativetest.CallScript(t, oracleH, "verify")).Halt(t)))
		tx := responseTx(c, 0, transaction.OracleSuccess, nil, nativetest.CallScript(t, oracleH, "verify"))
		require.True(t, nativetest.Bool(t, c.AddBlock(tx).Txs[0].Halt(t)))
	})
}

func TestOracleRequestLimits(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	client := acc(0x0c)
	oracleClient(t, c, client, 1)
	const g = 1_0000_0000
	long := func(n int) string { return strings.Repeat("a", n) }
	ok := func(script []byte) { c.Invoke(nil, script).Halt(t) }
	fail := func(script []byte, msg string) { c.Invoke(nil, script).Faults(t, msg) }

	ok(request(t, client, long(256), long(128), long(32), []byte(long(500)), 10_000_000))
	fail(request(t, client, long(257), nil, "cb", nil, g), "some of the arguments are invalid")
	fail(request(t, client, "u", long(129), "cb", nil, g), "some of the arguments are invalid")
	fail(request(t, client, "u", nil, long(33), "cb", g), "some of the arguments are invalid")
	fail(request(t, client, "u", nil, "_cb", nil, g), "disallowed callback method (starts with '_')")
	fail(request(t, client, "u", nil, "cb", nil, 10_000_000-1), "not enough gas for response")
	fail(request(t, client, "u", nil, "cb", []byte(long(510)), g), "user data")
	fail(request(t, client, string([]byte{0xff}), nil, "cb", nil, g), "invalid value: not UTF-8")
	// Only contracts may ask.
	fail(nativetest.CallScript(t, oracleH, "request", "u", nil, "cb", nil, g), "key not found")
	// At most 256 pending requests per URL.
	b := emit.NewBuilder()
	for range 256 {
		b.AppCall(client, "call", 15, oracleH, "request", []any{"same", nil, "cb", nil, int64(g)}).Opcodes(opcode.DROP)
	}
	ok(nativetest.Script(t, b.Opcodes(opcode.PUSH1)))
	fail(request(t, client, "same", nil, "cb", nil, g), "too many")
	ok(request(t, client, "other", nil, "cb", nil, g))
}

func TestOraclePrice(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	com := nativetest.CalledByEntry(c.CommitteeAddress())
	for _, bad := range []int64{0, -1} {
		c.Invoke(com, nativetest.CallScript(t, oracleH, "setPrice", bad)).Faults(t, "price")
	}
	c.Invoke(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, oracleH, "setPrice", 5)).Faults(t, "committee")
	c.Invoke(com, nativetest.CallScript(t, oracleH, "setPrice", 123)).Halt(t)
	require.Equal(t, int64(123), nativetest.Int(t, call(t, c, oracleH, "getPrice")))
	client := acc(0x0c)
	oracleClient(t, c, client, 1)
	r := c.Invoke(nil, request(t, client, "u", nil, "cb", nil, 10_000_000))
	r.Halt(t)
	require.Less(t, r.GasConsumed, int64(native.DefaultOraclePrice), fmt.Sprint(r.GasConsumed))
}
