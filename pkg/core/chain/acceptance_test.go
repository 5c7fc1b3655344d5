package chain

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// referenceNatives builds the full native contract set for the acceptance
// test; nil while pkg/core/native does not offer one (see natives_test.go).
var referenceNatives func(p *config.ProtocolConfiguration) (Natives, error)

type refStateRoot struct {
	Index    uint32 `json:"index"`
	RootHash string `json:"roothash"`
}

type refDiff struct {
	Block   uint32 `json:"block"`
	Storage []struct {
		State string `json:"state"`
		Key   []byte `json:"key"`
		Value []byte `json:"value"`
	} `json:"storage"`
}

type refAppLog struct {
	Hash   string `json:"hash"`
	Height uint32 `json:"height"`
	Kind   string `json:"kind"`
	Result struct {
		Executions []json.RawMessage `json:"executions"`
	} `json:"result"`
}

// TestConformanceChains is the acceptance test: both reference chains
// restored with full verification, every state root, storage diff and
// application log equal to the reference's, and the storage and contract
// states at genesis and at the tip.
func TestConformanceChains(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) { checkConformanceChain(t, name) })
	}
}

func checkConformanceChain(t *testing.T, name string) {
	if referenceNatives == nil {
		t.Skip("needs the complete native contract set of pkg/core/native (NEO, GAS, Management, Oracle, Role, Notary)")
	}
	dir := conformance.Dir(t, "chains", name)
	cfg := loadProtocol(t, name)
	natives, err := referenceNatives(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	roots := readJSONL[refStateRoot](t, filepath.Join(dir, "stateroots.jsonl"))
	diffs := map[uint32]refDiff{}
	for _, d := range readJSONL[refDiff](t, filepath.Join(dir, "storagediff.jsonl")) {
		diffs[d.Block] = d
	}
	logs := map[uint32][]refAppLog{}
	for _, l := range readJSONL[refAppLog](t, filepath.Join(dir, "applogs.jsonl")) {
		logs[l.Height] = append(logs[l.Height], l)
	}
	changes := map[uint32][]StorageChange{}
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000,
		OnStorageChanges: func(i uint32, ch []StorageChange) { changes[i] = ch }})
	require.NoError(t, err)
	defer c.Close()

	var diffErr error
	checkBlock := func(i uint32) error {
		if err := checkAppLogs(c, logs[i]); err != nil {
			return err
		}
		if got := c.CurrentStateRoot().String(); got != roots[i].RootHash {
			return fmt.Errorf("block %d: state root %s, reference %s; %s", i, got, roots[i].RootHash,
				firstDiff(changes[i], diffs[i]))
		}
		if d, ok := diffs[i]; ok && diffErr == nil {
			if msg := firstDiff(changes[i], d); msg != "" {
				// Reported at the end: state roots and logs go on.
				diffErr = fmt.Errorf("block %d storage diff: %s", i, msg)
			}
		}
		return nil
	}
	require.NoError(t, checkBlock(0))
	checkStorage(t, c, filepath.Join(dir, "storage", "genesis.json"))
	acc, err := os.ReadFile(filepath.Join(dir, name+".acc"))
	require.NoError(t, err)
	_, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{OnBlock: func(b *block.Block) error {
		return checkBlock(b.Index)
	}})
	require.NoError(t, err)
	require.EqualValues(t, len(roots)-1, c.BlockHeight())
	checkStorage(t, c, filepath.Join(dir, "storage", "final.json"))
	checkContracts(t, c, filepath.Join(dir, "contracts.json"))
	t.Logf("%d blocks: state roots, application logs, final storage and contracts equal the reference", c.BlockHeight())
	require.NoError(t, diffErr)
}

// firstDiff describes the first key where our storage changes differ from
// the reference diff ("" when equal).
func firstDiff(ours []StorageChange, ref refDiff) string {
	want := map[string]string{}
	for _, e := range ref.Storage {
		want[string(e.Key)] = e.State + ":" + base64.StdEncoding.EncodeToString(e.Value)
	}
	got := map[string]string{}
	for _, e := range ours {
		got[string(e.Key)] = e.State.String() + ":" + base64.StdEncoding.EncodeToString(e.Value)
	}
	var msgs []string
	for k, w := range want {
		if g := got[k]; g != w {
			msgs = append(msgs, fmt.Sprintf("key %s: ours %q, reference %q", base64.StdEncoding.EncodeToString([]byte(k)), g, w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			msgs = append(msgs, fmt.Sprintf("key %s: ours %q, reference has no change", base64.StdEncoding.EncodeToString([]byte(k)), g))
		}
	}
	if len(msgs) == 0 {
		return ""
	}
	slices.Sort(msgs)
	if len(msgs) > 6 {
		msgs = msgs[:6]
	}
	return fmt.Sprintf("%d differing keys: %s", len(msgs), strings.Join(msgs, "; "))
}

// checkAppLogs compares our application logs of a block and its
// transactions with the reference's: trigger, VM state, GAS, stack and
// notifications; FAULT exception texts only for presence.
func checkAppLogs(c *Chain, refs []refAppLog) error {
	for _, ref := range refs {
		h, err := util.Uint256DecodeStringBE(ref.Hash)
		if err != nil {
			return err
		}
		ours, err := c.GetAppExecResults(h, trigger.All)
		if err != nil {
			return fmt.Errorf("%s %s: %w", ref.Kind, ref.Hash, err)
		}
		if len(ours) != len(ref.Result.Executions) {
			return fmt.Errorf("%s %s: %d executions, reference %d", ref.Kind, ref.Hash, len(ours), len(ref.Result.Executions))
		}
		for i := range ours {
			b, err := json.Marshal(ours[i].Execution)
			if err != nil {
				return err
			}
			want, got := normExec(ref.Result.Executions[i]), normExec(b)
			if !reflect.DeepEqual(want, got) {
				return fmt.Errorf("height %d %s %s execution %d: ours %v, reference %v (our exception: %q)",
					ref.Height, ref.Kind, ref.Hash, i, got, want, ours[i].FaultException)
			}
		}
	}
	return nil
}

func normExec(raw []byte) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return map[string]any{"undecodable": err.Error()}
	}
	if m["exception"] != nil {
		m["exception"] = "<fault>"
	}
	delete(m, "invocations") // neo-go's SaveInvocations extension
	return m
}

type refStorage struct {
	Contracts map[string][]struct {
		Key   []byte `json:"key"`
		Value []byte `json:"value"`
	} `json:"contracts"`
}

// checkStorage compares the whole contract storage with a reference
// snapshot (keys "id:hash:name").
func checkStorage(t *testing.T, c *Chain, path string) {
	t.Helper()
	var ref refStorage
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &ref))
	want := map[string]string{}
	for k, items := range ref.Contracts {
		id, err := strconv.ParseInt(strings.SplitN(k, ":", 2)[0], 10, 32)
		require.NoError(t, err)
		for _, it := range items {
			want[string(StorageKeyOf(int32(id), it.Key))] = string(it.Value)
		}
	}
	got := map[string]string{}
	require.NoError(t, c.cache.Seek(storage.SeekRange{Prefix: storage.STStorage.Bytes()}, func(k, v []byte) bool {
		if isTrieKey(string(k)) {
			got[string(k[1:])] = string(v)
		}
		return true
	}))
	for k, w := range want {
		require.Equal(t, w, got[k], "%s: key %x", filepath.Base(path), k)
	}
	require.Len(t, got, len(want), filepath.Base(path))
}

// checkContracts compares every native and deployed contract state with
// getcontractstate's answers.
func checkContracts(t *testing.T, c *Chain, path string) {
	t.Helper()
	var ref struct {
		Native   []json.RawMessage          `json:"native"`
		Deployed map[string]json.RawMessage `json:"deployed"`
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &ref))
	all := append([]json.RawMessage(nil), ref.Native...)
	for _, d := range ref.Deployed {
		all = append(all, d)
	}
	for _, raw := range all {
		var want map[string]any
		require.NoError(t, json.Unmarshal(raw, &want))
		h, err := util.Uint160DecodeStringBE(want["hash"].(string))
		require.NoError(t, err)
		cs, err := c.DAO().GetContract(h)
		require.NoError(t, err, "contract %s", h.String())
		ours, err := json.Marshal(cs)
		require.NoError(t, err)
		var got map[string]any
		require.NoError(t, json.Unmarshal(ours, &got))
		require.Equal(t, want, got, "contract %s", h.String())
	}
}
