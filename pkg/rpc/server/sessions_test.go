package server

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/stretchr/testify/require"
)

// Native hashes of the reference chains (contracts.json).
const (
	managementHash = "0xfffdc93764dbaddd97c48f252a53ea4643faa3fd"
	nnsHash        = "0xc17da07ba65ba62a07134c171cf8c50d02f17995"
	nfsoHash       = "0x5635edb13674bb6f09d18b09fce6b69aee206931"
)

// variant is n's chain behind a new server with RPC settings edited.
func (n *testNode) variant(t *testing.T, edit func(r *config.RPC)) *testNode {
	t.Helper()
	rpc := n.cfg.ApplicationConfiguration.RPC
	edit(&rpc)
	srv, err := New(yamlSettings(Config{TCPPort: 41333}, rpc, n.cfg.ApplicationConfiguration.Ledger), n.chain)
	require.NoError(t, err)
	v := *n
	v.srv, v.http = srv, httptest.NewServer(srv)
	t.Cleanup(v.http.Close)
	return &v
}

// refContractHashes is what ContractManagement.getContractHashes must
// iterate over, from the reference's final storage: Struct[id BE, hash]
// for the records 0x0c ‖ id of deployed (id ≥ 0) contracts, in key order.
func refContractHashes(t *testing.T, n *testNode) []json.RawMessage {
	st := readJSON[refStorage](t, filepath.Join(n.dir, "storage", "final.json"))
	var out []json.RawMessage
	for name, items := range st.Contracts {
		if !strings.HasPrefix(name, "-1:") {
			continue
		}
		for _, it := range items {
			if len(it.Key) != 5 || it.Key[0] != 0x0c || binary.BigEndian.Uint32(it.Key[1:]) >= 1<<31 {
				continue
			}
			out = append(out, mustJSON(t, map[string]any{"type": "Struct", "value": []any{
				map[string]string{"type": "ByteString", "value": base64.StdEncoding.EncodeToString(it.Key[1:])},
				map[string]string{"type": "ByteString", "value": base64.StdEncoding.EncodeToString(it.Value)},
			}}))
		}
	}
	return out
}

type sessionInvoke struct {
	Stack   []json.RawMessage `json:"stack"`
	Session string            `json:"session"`
}

type iteratorJSON struct {
	Type      string            `json:"type"`
	Interface string            `json:"interface"`
	ID        string            `json:"id"`
	Values    []json.RawMessage `json:"iterator"`
	Truncated bool              `json:"truncated"`
}

func (n *testNode) iteratorCall(t *testing.T, contract, method string, args ...any) (sessionInvoke, iteratorJSON) {
	t.Helper()
	var r sessionInvoke
	require.NoError(t, json.Unmarshal(n.result(t, "invokefunction", contract, method, append([]any{}, args...)), &r))
	require.Len(t, r.Stack, 1)
	var it iteratorJSON
	require.NoError(t, json.Unmarshal(r.Stack[0], &it))
	require.Equal(t, "InteropInterface", it.Type)
	return r, it
}

// traverseAll reads an iterator in pages of count until it is empty.
func (n *testNode) traverseAll(t *testing.T, session, iter string, count int) []json.RawMessage {
	var all []json.RawMessage
	for {
		var page []json.RawMessage
		require.NoError(t, json.Unmarshal(n.result(t, "traverseiterator", session, iter, count), &page))
		require.LessOrEqual(t, len(page), count)
		if len(page) == 0 {
			return all
		}
		all = append(all, page...)
	}
}

func TestSessionTraverse(t *testing.T) {
	n := node(t, "testblocks").variant(t, func(r *config.RPC) {
		r.SessionEnabled, r.MaxIteratorResultItems = true, 4
	})
	want := refContractHashes(t, n)
	require.Len(t, want, 6)

	r, it := n.iteratorCall(t, managementHash, "getContractHashes")
	require.Equal(t, []string{"type", "interface", "id"}, keyOrder(t, r.Stack[0]))
	require.Equal(t, "IIterator", it.Interface)
	_, err := parseUUID(r.Session)
	require.NoError(t, err)
	_, err = parseUUID(it.ID)
	require.NoError(t, err)

	// Pages of 4 then 2, then nothing: the reference's storage in order.
	got := n.traverseAll(t, r.Session, it.ID, 4)
	require.Len(t, got, len(want))
	for i := range want {
		requireJSON(t, want[i], got[i], i)
	}
	// IDs are case-insensitive; 0 and negative counts give nothing.
	require.JSONEq(t, "[]", string(n.result(t, "traverseiterator", strings.ToUpper(r.Session), it.ID, 0)))
	require.JSONEq(t, "[]", string(n.result(t, "traverseiterator", r.Session, it.ID, -1)))

	// neo-go's errors.
	e := n.fail(t, result.InvalidParamsCode, "traverseiterator", r.Session, it.ID, 5)
	require.Equal(t, "iterator items count (5) is out of range (4 at max)", e.Data)
	e = n.fail(t, result.InvalidParamsCode, "traverseiterator", "abc", it.ID, 1)
	require.Equal(t, "invalid session ID: not a valid UUID: invalid UUID length: 3", e.Data)
	e = n.fail(t, result.InvalidParamsCode, "traverseiterator", r.Session, "x", 1)
	require.Equal(t, "invalid iterator ID: not a valid UUID: invalid UUID length: 1", e.Data)
	e = n.fail(t, result.InvalidParamsCode, "traverseiterator", r.Session, it.ID)
	require.Equal(t, "invalid iterator items count: parameter is missing", e.Data)
	n.fail(t, result.UnknownIteratorCode, "traverseiterator", r.Session, r.Session, 1)
	n.fail(t, result.UnknownSessionCode, "traverseiterator", it.ID, it.ID, 1)

	require.JSONEq(t, "true", string(n.result(t, "terminatesession", r.Session)))
	n.fail(t, result.UnknownSessionCode, "terminatesession", r.Session)
	n.fail(t, result.UnknownSessionCode, "traverseiterator", r.Session, it.ID, 1)
	e = n.fail(t, result.InvalidParamsCode, "terminatesession")
	require.Equal(t, "invalid session ID: parameter is missing", e.Data)
	require.Zero(t, n.srv.sessions.len())

	// No iterator, no session.
	var plain map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(n.result(t, "invokefunction", nnsHash, "symbol"), &plain))
	require.NotContains(t, plain, "session")
}

func TestSessionExpansion(t *testing.T) {
	n := node(t, "testblocks").variant(t, func(r *config.RPC) {
		r.SessionEnabled, r.SessionExpansionEnabled, r.MaxIteratorResultItems = true, true, 4
	})
	want := refContractHashes(t, n)
	// More than MaxIteratorResultItems: the first values and an ID for
	// the rest (the value read ahead comes first).
	r, it := n.iteratorCall(t, managementHash, "getContractHashes")
	require.Equal(t, []string{"type", "interface", "id", "iterator"}, keyOrder(t, r.Stack[0]))
	require.False(t, it.Truncated)
	require.NotEmpty(t, r.Session)
	got := append(it.Values, n.traverseAll(t, r.Session, it.ID, 1)...)
	require.Len(t, got, len(want))
	for i := range want {
		requireJSON(t, want[i], got[i], i)
	}
	// All values given: no ID, no session (NNS has one token).
	r, it = n.iteratorCall(t, nnsHash, "tokens")
	require.Empty(t, r.Session)
	require.Empty(t, it.ID)
	require.Len(t, it.Values, 1)
	requireJSON(t, []byte(`{"type":"ByteString","value":"`+base64.StdEncoding.EncodeToString([]byte("neo.com"))+`"}`), it.Values[0])
}

func TestSessionsDisabled(t *testing.T) {
	n := node(t, "testblocks").variant(t, func(r *config.RPC) {
		r.SessionEnabled, r.MaxIteratorResultItems = false, 4
	})
	want := refContractHashes(t, n)
	r, it := n.iteratorCall(t, managementHash, "getContractHashes")
	require.Empty(t, r.Session)
	require.Equal(t, []string{"type", "iterator", "truncated"}, keyOrder(t, r.Stack[0]))
	require.True(t, it.Truncated)
	require.Len(t, it.Values, 4)
	for i := range it.Values {
		requireJSON(t, want[i], it.Values[i], i)
	}
	// An empty iterator is just the type (neo-go 0.120.0's answer).
	r, _ = n.iteratorCall(t, nfsoHash, "tokensOf", map[string]any{"type": "Hash160", "value": "0x" + strings.Repeat("0", 39) + "1"})
	require.JSONEq(t, `{"type":"InteropInterface"}`, string(r.Stack[0]))
	n.fail(t, result.SessionsDisabledCode, "traverseiterator", "a", "b", 1)
	n.fail(t, result.SessionsDisabledCode, "terminatesession", "a")
}

func TestSessionPoolFull(t *testing.T) {
	n := node(t, "testblocks").variant(t, func(r *config.RPC) {
		r.SessionEnabled, r.SessionPoolSize = true, 2
	})
	for range 2 {
		n.iteratorCall(t, nnsHash, "tokens")
	}
	e := n.fail(t, result.InternalErrorCode, "invokefunction", nnsHash, "tokens")
	require.Equal(t, errSessionPoolFull, e.Data)
	n.result(t, "invokefunction", nnsHash, "symbol") // no session needed
	require.Equal(t, 2, n.srv.sessions.len())
}

func TestSessionExpiry(t *testing.T) {
	p := newSessionPool(Config{SessionLifetime: time.Hour, SessionPoolSize: 1}, 0)
	id, err := p.add(nil)
	require.NoError(t, err)
	// Used: its deadline moves on, so the timer re-arms instead.
	_, ok := p.touch(id)
	require.True(t, ok)
	p.expire(id)
	require.Equal(t, 1, p.len())
	p.mu.Lock()
	p.m[id].deadline = time.Now().Add(-time.Second)
	p.mu.Unlock()
	p.expire(id)
	require.Zero(t, p.len())
	_, ok = p.touch(id)
	require.False(t, ok)

	// A real timer.
	p = newSessionPool(Config{SessionLifetime: 10 * time.Millisecond}, 0)
	require.Equal(t, DefaultSessionPoolSize, p.size)
	_, err = p.add(nil)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return p.len() == 0 }, 5*time.Second, 5*time.Millisecond)

	// Defaults: the block time, at least 5 s.
	require.Equal(t, minSessionLifetime, newSessionPool(Config{}, time.Second).lifetime)
	require.Equal(t, 15*time.Second, newSessionPool(Config{}, 15*time.Second).lifetime)
}

// TestSessionShutdown: stopping the server drops the sessions and
// refuses new ones.
func TestSessionShutdown(t *testing.T) {
	n := node(t, "testblocks").variant(t, func(r *config.RPC) {
		r.SessionEnabled = true
		r.Addresses = []string{"127.0.0.1:0"}
		r.TLSConfig.Enabled = false
	})
	n.iteratorCall(t, nnsHash, "tokens")
	require.Equal(t, 1, n.srv.sessions.len())
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := n.srv.Start(ctx)
	require.NoError(t, err)
	cancel()
	require.NoError(t, wait())
	require.Zero(t, n.srv.sessions.len())
	e := n.fail(t, result.InternalErrorCode, "invokefunction", nnsHash, "tokens")
	require.Contains(t, e.Data, "shutting down")
}

func TestUUID(t *testing.T) {
	id, err := newUUID()
	require.NoError(t, err)
	require.Len(t, id, uuidLen)
	require.Equal(t, byte('4'), id[14])
	require.Contains(t, "89ab", string(id[19]))
	for _, in := range []string{id, strings.ToUpper(id), "urn:uuid:" + id, "{" + id + "}", strings.ReplaceAll(id, "-", "")} {
		got, err := parseUUID(in)
		require.NoError(t, err, in)
		require.Equal(t, id, got, in)
	}
	for in, msg := range map[string]string{
		"":                        "invalid UUID length: 0",
		"abc":                     "invalid UUID length: 3",
		strings.Repeat("x", 36):   "invalid UUID format",
		strings.Repeat("0", 32):   "",
		"urx:uuid:" + id:          "invalid urn prefix",
		"(" + id + ")":            "invalid UUID format",
		id[:8] + "+" + id[9:]:     "invalid UUID format",
		strings.Repeat("g", 32):   "invalid UUID format",
		id[:35] + "z":             "invalid UUID format",
		"00000000-0000-0000-0000": "invalid UUID length: 23",
	} {
		_, err := parseUUID(in)
		if msg == "" {
			require.NoError(t, err, in)
			continue
		}
		require.ErrorContains(t, err, msg, in)
	}
}

func FuzzParseUUID(f *testing.F) {
	id, err := newUUID()
	require.NoError(f, err)
	for _, s := range []string{id, "urn:uuid:" + id, "{" + id + "}", strings.ReplaceAll(id, "-", ""), "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseUUID(s)
		if err != nil {
			return
		}
		// The canonical form parses to itself.
		again, err := parseUUID(got)
		require.NoError(t, err)
		require.Equal(t, got, again)
		require.Equal(t, got, strings.ToLower(got))
	})
}

// TestSessionConcurrentTraverse: clients reading one iterator at once get
// every value exactly once.
func TestSessionConcurrentTraverse(t *testing.T) {
	n := node(t, "testblocks").variant(t, func(r *config.RPC) { r.SessionEnabled = true })
	want := refContractHashes(t, n)
	r, it := n.iteratorCall(t, managementHash, "getContractHashes")
	var (
		mu  sync.Mutex
		got = map[string]int{}
		wg  sync.WaitGroup
	)
	for range 4 {
		wg.Go(func() {
			for _, v := range n.traverseAll(t, r.Session, it.ID, 1) {
				mu.Lock()
				got[string(v)]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	require.Len(t, got, len(want))
	for _, w := range want {
		var v json.RawMessage
		for k := range got {
			if string(decodeCompact(t, []byte(k))) == string(decodeCompact(t, w)) {
				v = json.RawMessage(k)
			}
		}
		require.NotNil(t, v, string(w))
		require.Equal(t, 1, got[string(v)])
	}
}

func decodeCompact(t *testing.T, b []byte) []byte { return mustJSON(t, decode(t, b)) }
