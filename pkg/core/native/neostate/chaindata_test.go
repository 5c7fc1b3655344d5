package neostate

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// chainState is contract storage keyed by "int32 LE id ‖ key" (the form of
// storagediff.jsonl), replayed block by block.
type chainState map[string][]byte

func storageKey(id int32, key []byte) string {
	return string(binary.LittleEndian.AppendUint32(nil, uint32(id))) + string(key)
}

func (s chainState) get(id int32, key []byte) ([]byte, bool) {
	v, ok := s[storageKey(id, key)]
	return v, ok
}

// seek returns the keys (without id and prefix) and values of id's items
// starting with prefix, in key order.
func (s chainState) seek(id int32, prefix []byte) (ks []string, vs [][]byte) {
	p := storageKey(id, prefix)
	for k := range s {
		if strings.HasPrefix(k, p) {
			ks = append(ks, k)
		}
	}
	sortStrings(ks)
	for i, k := range ks {
		vs = append(vs, s[k])
		ks[i] = k[len(p):]
	}
	return ks, vs
}

func sortStrings(a []string) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

type genesisFile struct {
	Contracts map[string][]struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	} `json:"contracts"`
}

func mustB64(t testing.TB, s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	require.NoError(t, err)
	return b
}

// loadStorage reads storage/<name>.json into a chainState.
func loadStorage(t testing.TB, chain, name string) chainState {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", chain, "storage"), name+".json"))
	require.NoError(t, err)
	var g genesisFile
	require.NoError(t, json.Unmarshal(raw, &g))
	st := chainState{}
	for name, items := range g.Contracts {
		id, err := strconv.ParseInt(strings.SplitN(name, ":", 2)[0], 10, 32)
		require.NoError(t, err)
		for _, it := range items {
			st[storageKey(int32(id), mustB64(t, it.Key))] = mustB64(t, it.Value)
		}
	}
	return st
}

type diffBlock struct {
	Block   uint32 `json:"block"`
	Storage []struct {
		Key   string `json:"key"`
		State string `json:"state"`
		Value string `json:"value"`
	} `json:"storage"`
}

// loadDiffs reads storagediff.jsonl.
func loadDiffs(t testing.TB, chain string) []diffBlock {
	t.Helper()
	return conformance.ReadJSONL[diffBlock](t, filepath.Join(conformance.Dir(t, "chains", chain), "storagediff.jsonl"))
}

func (s chainState) apply(t testing.TB, d diffBlock) {
	for _, e := range d.Storage {
		k := string(mustB64(t, e.Key))
		if e.State == "Deleted" {
			delete(s, k)
		} else {
			s[k] = mustB64(t, e.Value)
		}
	}
}

type notification struct {
	Contract  string `json:"contract"`
	EventName string `json:"eventname"`
	State     struct {
		Value []struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"value"`
	} `json:"state"`
}

type appLog struct {
	Height uint32 `json:"height"`
	Kind   string `json:"kind"`
	Result struct {
		Executions []struct {
			Trigger       string         `json:"trigger"`
			VMState       string         `json:"vmstate"`
			Notifications []notification `json:"notifications"`
		} `json:"executions"`
	} `json:"result"`
}

// mint is a Transfer from null seen in a block's executions.
type mint struct {
	Contract string
	Trigger  string
	To       string // raw account bytes (LE)
	Amount   string
}

// loadMints returns, per height, every Transfer notification from null of
// every HALTed execution.
func loadMints(t testing.TB, chain string) map[uint32][]mint {
	t.Helper()
	out := map[uint32][]mint{}
	for _, l := range conformance.ReadJSONL[appLog](t, filepath.Join(conformance.Dir(t, "chains", chain), "applogs.jsonl")) {
		for _, e := range l.Result.Executions {
			if e.VMState != "HALT" {
				continue
			}
			for _, n := range e.Notifications {
				v := n.State.Value
				if n.EventName != "Transfer" || len(v) != 3 || v[0].Type != "Any" {
					continue
				}
				var to, amount string
				require.NoError(t, json.Unmarshal(v[1].Value, &to))
				require.NoError(t, json.Unmarshal(v[2].Value, &amount))
				out[l.Height] = append(out[l.Height], mint{n.Contract, e.Trigger, string(mustB64(t, to)), amount})
			}
		}
	}
	return out
}

// bigItem wraps stored integer bytes as a stack item.
func bigItem(b []byte) stackitem.Item { return stackitem.ByteString(b) }
