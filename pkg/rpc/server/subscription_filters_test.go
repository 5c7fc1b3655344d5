package server

import (
	"encoding/base64"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// filterCase is a subscription with a filter and the reference events it
// must let through.
type filterCase struct {
	name   string
	stream string
	filter string
	want   func(e refEvent) bool
}

// stateItem is state.value[i] of a notification payload (nil when absent).
func stateItem(e refEvent, i int) map[string]any {
	st, ok := e.payload["state"].(map[string]any)
	if !ok {
		return nil
	}
	vals := st["value"].([]any)
	if i >= len(vals) {
		return nil
	}
	return vals[i].(map[string]any)
}

// filterCases builds cases whose values are taken from the reference data
// of testblocks; their expectations are plain predicates on its JSON.
func filterCases(t *testing.T, ref *refChain) []filterCase {
	var sender, signer, gas, to, amount, block5 string
	for _, e := range ref.all() {
		switch {
		case e.method == "transaction_added" && e.index == 2:
			h, err := address.StringToUint160(e.payload["sender"].(string))
			require.NoError(t, err)
			sender = h.StringBE() // the bare display form
		case e.method == "transaction_added" && e.index == 1:
			signer = e.payload["signers"].([]any)[0].(map[string]any)["account"].(string)
		case e.method == "block_added" && e.index == 5:
			block5 = e.payload["hash"].(string)
		case e.method == "notification_from_execution" && e.payload["eventname"] == "Transfer" && to == "" && e.index > 1:
			it := stateItem(e, 1)
			if it["type"] != "ByteString" {
				continue
			}
			b, err := base64.StdEncoding.DecodeString(it["value"].(string))
			require.NoError(t, err)
			h, err := util.Uint160DecodeBytesLE(b)
			require.NoError(t, err)
			gas, to, amount = e.payload["contract"].(string), h.String(), stateItem(e, 2)["value"].(string)
		}
	}
	require.NotEmpty(t, sender+signer+gas+to+amount+block5)
	is := func(method string) func(refEvent) bool {
		return func(e refEvent) bool { return e.method == method }
	}
	return []filterCase{
		{"block range", "block_added", `{"since":3,"till":5}`,
			func(e refEvent) bool { return is("block_added")(e) && e.index >= 3 && e.index <= 5 }},
		{"other primary", "header_of_added_block", `{"primary":1}`, func(refEvent) bool { return false }},
		{"primary till", "header_of_added_block", `{"primary":0,"till":2}`,
			func(e refEvent) bool { return is("header_of_added_block")(e) && e.index <= 2 }},
		{"empty", "header_of_added_block", `{}`, is("header_of_added_block")},
		{"null", "transaction_executed", `null`, is("transaction_executed")},
		{"sender", "transaction_added", `{"sender":"` + sender + `"}`, func(e refEvent) bool {
			h, _ := util.Uint160DecodeStringBE(sender)
			return is("transaction_added")(e) && e.payload["sender"] == address.Uint160ToString(h)
		}},
		{"signer", "transaction_added", `{"signer":"` + signer + `"}`, func(e refEvent) bool {
			if !is("transaction_added")(e) {
				return false
			}
			for _, s := range e.payload["signers"].([]any) {
				if s.(map[string]any)["account"] == signer {
					return true
				}
			}
			return false
		}},
		{"contract and name", "notification_from_execution", `{"contract":"` + gas + `","name":"Transfer"}`,
			func(e refEvent) bool {
				return is("notification_from_execution")(e) && e.payload["contract"] == gas && e.payload["eventname"] == "Transfer"
			}},
		{"hash160 parameter", "notification_from_execution",
			`{"name":"Transfer","parameters":[{"type":"Any"},{"type":"Hash160","value":"` + to + `"}]}`,
			func(e refEvent) bool {
				it := stateItem(e, 1)
				return is("notification_from_execution")(e) && e.payload["eventname"] == "Transfer" && it != nil &&
					it["type"] == "ByteString" && it["value"] == base64.StdEncoding.EncodeToString(mustUint160(t, to).BytesLE())
			}},
		{"integer parameter", "notification_from_execution",
			`{"parameters":[{"type":"Any"},{"type":"Integer"},{"type":"Integer","value":"` + amount + `"}]}`,
			func(e refEvent) bool {
				it := stateItem(e, 2)
				return is("notification_from_execution")(e) && it != nil && it["type"] == "Integer" && it["value"] == amount
			}},
		{"fault", "transaction_executed", `{"state":"FAULT"}`,
			func(e refEvent) bool { return is("transaction_executed")(e) && e.payload["vmstate"] == "FAULT" }},
		{"container", "transaction_executed", `{"state":"HALT","container":"` + block5 + `"}`,
			func(e refEvent) bool { return is("transaction_executed")(e) && e.payload["container"] == block5 }},
	}
}

func mustUint160(t *testing.T, s string) util.Uint160 {
	h, err := util.Uint160DecodeStringBE(s)
	require.NoError(t, err)
	return h
}

func TestWSFilters(t *testing.T) {
	n := newWSNode(t, "testblocks", nil)
	ref := referenceEvents(t, n.dir)
	last := len(n.blocks)
	cases := filterCases(t, ref)
	clients := make([]*wsClientConn, len(cases))
	for i, fc := range cases {
		clients[i] = n.dial(t)
		clients[i].subscribe(fc.stream, json.RawMessage(fc.filter))
		// The last block's block_added ends every client's stream.
		clients[i].subscribe("block_added", map[string]any{"since": last})
	}
	n.addBlocks(t, 1, last)
	for i, fc := range cases {
		t.Run(fc.name, func(t *testing.T) {
			var want []refEvent
			for _, e := range ref.all() {
				if fc.want(e) {
					want = append(want, e)
				}
			}
			require.Equal(t, fc.name == "other primary", len(want) == 0, "cases select some events")
			var got []wsMessage
			for {
				m := clients[i].next()
				got = append(got, m)
				if m.Method == "block_added" && decode(t, m.Params[0]).(map[string]any)["index"] == json.Number(strconv.Itoa(last)) {
					break
				}
			}
			if len(want) == 0 || want[len(want)-1].method != "block_added" || want[len(want)-1].index != last {
				got = got[:len(got)-1] // the end marker only
			}
			requireEvents(t, want, got)
		})
	}
}

// filterJSON writes a parsed filter back in its JSON form.
func filterJSON(f filter) ([]byte, error) {
	if nf, ok := f.(*notificationFilter); ok {
		return json.Marshal(nf.NotificationFilter)
	}
	return json.Marshal(f)
}

// filterStreams are the streams with a filter.
var filterStreams = []eventID{eventBlock, eventHeader, eventTransaction, eventNotification, eventExecution, eventMempool}

func TestParseFilterRoundTrip(t *testing.T) {
	h160, h256 := "0x"+strings.Repeat("12", 20), "0x"+strings.Repeat("ab", 32)
	cases := map[eventID][]string{
		eventBlock:       {`{"primary":3,"since":1,"till":9}`, `{}`},
		eventHeader:      {`{"since":0}`},
		eventTransaction: {`{"sender":"` + h160 + `","signer":"` + h160 + `"}`},
		eventNotification: {`{"contract":"` + h160 + `","name":"Transfer","parameters":[{"type":"Any"},` +
			`{"type":"Boolean","value":true},{"type":"Integer","value":"-5"},{"type":"ByteArray","value":"AQI="},` +
			`{"type":"String","value":"x"},{"type":"Hash160","value":"` + h160 + `"},{"type":"Hash256","value":"` + h256 + `"},` +
			`{"type":"PublicKey","value":"02ab"},{"type":"Signature","value":"AAA="},{"type":"Integer"}]}`},
		eventExecution: {`{"state":"FAULT","container":"` + h256 + `"}`},
		eventMempool:   {`{"sender":"` + h160 + `","signer":"` + h160 + `","type":"removed"}`},
	}
	for id, inputs := range cases {
		for _, in := range inputs {
			f, err := parseFilter(id, []byte(in))
			require.NoError(t, err, in)
			out, err := filterJSON(f)
			require.NoError(t, err)
			require.JSONEq(t, in, string(out))
		}
	}
}

func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{`{"primary":1,"since":2,"till":3}`, `{"sender":"0x` + strings.Repeat("00", 20) + `"}`,
		`{"name":"Transfer","parameters":[{"type":"Any"},{"type":"Integer","value":"1"}]}`,
		`{"state":"HALT"}`, `{"type":"added"}`, `null`, `{"x":1}`} {
		for _, id := range filterStreams {
			f.Add(byte(id), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, id byte, data []byte) {
		flt, err := parseFilter(eventID(id), data)
		if err != nil {
			return
		}
		out, err := filterJSON(flt)
		require.NoError(t, err)
		again, err := parseFilter(eventID(id), out)
		require.NoError(t, err, string(out))
		out2, err := filterJSON(again)
		require.NoError(t, err)
		require.Equal(t, string(out), string(out2))
	})
}

// TestNotificationParameters checks neo-go's parameter semantics: typed
// values become stack items compared with Equals (so a Boolean never
// equals an Integer), Any and missing values match anything, and a filter
// with more parameters than the state has never matches.
func TestNotificationParameters(t *testing.T) {
	h := util.Uint160{1, 2, 3}
	ne := &state.NotificationEvent{ScriptHash: h, Name: "E", Item: stackitem.NewArray([]stackitem.Item{
		stackitem.NewInt(1), stackitem.ByteString("abc"), stackitem.ByteString(h.BytesLE()),
		stackitem.Bool(true), stackitem.ByteString([]byte{0x02, 0xab}), stackitem.NewBigInteger(new(big.Int).Lsh(big.NewInt(1), 200)),
	})}
	ev := &subEvent{id: eventNotification, notification: ne}
	match := func(params string) bool {
		f, err := parseFilter(eventNotification, []byte(`{"parameters":[`+params+`]}`))
		require.NoError(t, err, params)
		return f.matches(ev)
	}
	require.True(t, match(`{"type":"Integer","value":1}`))
	require.True(t, match(`{"type":"Integer","value":"1"}`))
	require.False(t, match(`{"type":"Boolean","value":true}`), "Boolean is not Integer 1")
	require.False(t, match(`{"type":"Integer","value":2}`))
	require.True(t, match(`{"type":"Any"},{"type":"String","value":"abc"}`))
	require.True(t, match(`{"type":"Any"},{"type":"ByteArray","value":"YWJj"}`))
	require.True(t, match(`{"type":"Any"},{"type":"Any"},{"type":"Hash160","value":"`+h.String()+`"}`))
	require.False(t, match(`{"type":"Any"},{"type":"Any"},{"type":"Hash160","value":"`+h.StringLE()+`"}`), "display form, not wire order")
	require.True(t, match(`{"type":"Any"},{"type":"Any"},{"type":"Any"},{"type":"Boolean","value":true}`))
	require.True(t, match(`{"type":"Integer"},{"type":"String"},{"type":"Any"},{"type":"Any"},{"type":"PublicKey","value":"02ab"}`))
	require.True(t, match(`{"type":"Any"},{"type":"Any"},{"type":"Any"},{"type":"Any"},{"type":"Any"},{"type":"Integer","value":"`+
		new(big.Int).Lsh(big.NewInt(1), 200).String()+`"}`))
	require.False(t, match(strings.Repeat(`{"type":"Any"},`, 6)+`{"type":"Integer","value":1}`), "more parameters than items")

	_, err := parseFilter(eventNotification, []byte(`{"parameters":[{"type":"Integer","value":"`+
		new(big.Int).Lsh(big.NewInt(1), 256).String()+`"}]}`))
	require.Error(t, err, "over 32 bytes")
}
