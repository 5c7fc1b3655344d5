package chain

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
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
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// referenceNatives builds the full native contract set for the acceptance
// test; nil while pkg/core/native does not offer one (see natives_test.go).
var referenceNatives func(p *config.ProtocolConfiguration) (*NativeSet, error)

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
// states at genesis and at the tip, token balances (balanceOf/ownerOf of
// every NEP-17 and NEP-11 contract) and NeoToken governance at the tip.
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
	checkBalances(t, c, filepath.Join(dir, "balances.json"))
	checkGovernance(t, c, filepath.Join(dir, "governance.json"))
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
// notifications and the FAULT exception text, word for word (the
// reference chains come from neo-go, see internal/conformance/testdata).
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
		cs, err := c.dao.GetContract(h)
		require.NoError(t, err, "contract %s", h.String())
		ours, err := json.Marshal(cs)
		require.NoError(t, err)
		var got map[string]any
		require.NoError(t, json.Unmarshal(ours, &got))
		require.Equal(t, want, got, "contract %s", h.String())
	}
}

// testInvoke runs script read-only on a throw-away layer of the chain's
// state as the reference's RPC invocations do (Application trigger, a
// dummy next block one block time after the tip) and returns its single
// result.
func testInvoke(t *testing.T, c *Chain, script []byte) stackitem.Item {
	t.Helper()
	d := c.view()
	defer func() { require.NoError(t, d.Discard()) }()
	tip, err := c.GetHeader(c.CurrentBlockHash())
	require.NoError(t, err)
	pico, err := c.cfg.Natives.ExecFeeFactor(d, tip.Index+1, trigger.Application)
	require.NoError(t, err)
	sp, err := c.cfg.Natives.StoragePrice(d)
	require.NoError(t, err)
	next := &block.Block{Header: block.Header{Index: tip.Index + 1, PrevHash: tip.Hash(),
		Timestamp: tip.Timestamp + uint64(c.proto.TimePerBlock.Milliseconds())}}
	ic := interop.NewContext(interop.Config{Trigger: trigger.Application, Block: next, Network: uint32(c.proto.Magic),
		AddressVersion: address.NEO3Prefix, HardforkEnabled: c.proto.Enabled, ExecFeeFactor: pico,
		StoragePrice: sp, GasLimit: 20_0000_0000, Natives: c.cfg.Natives}, d)
	_, err = ic.LoadScript(script, callflag.ReadOnly, -1, 0)
	require.NoError(t, err)
	require.NoError(t, ic.Run())
	require.Equal(t, vm.HaltState, ic.VM().State())
	require.Equal(t, 1, ic.VM().ResultStack().Len())
	it, err := ic.VM().ResultStack().Peek(0)
	require.NoError(t, err)
	return it
}

func invokeInt(t *testing.T, c *Chain, h util.Uint160, method string, args ...any) *big.Int {
	t.Helper()
	s, err := emit.NewBuilder().AppCall(h, method, byte(callflag.ReadOnly), args...).Script()
	require.NoError(t, err)
	n, err := testInvoke(t, c, s).BigInt()
	require.NoError(t, err)
	return n
}

type refBalances struct {
	NEP17 map[string]struct {
		Balance []struct {
			AssetHash string `json:"assethash"`
			Amount    string `json:"amount"`
		} `json:"balance"`
	} `json:"nep17"`
	NEP11 map[string]struct {
		Balance []struct {
			AssetHash string `json:"assethash"`
			Decimals  string `json:"decimals"`
			Tokens    []struct {
				Amount  string `json:"amount"`
				TokenID string `json:"tokenid"`
			} `json:"tokens"`
		} `json:"balance"`
	} `json:"nep11"`
}

// checkBalances asks every token contract for the balances of every
// address of balances.json through balanceOf (and ownerOf for
// non-divisible NEP-11): listed amounts must match, unlisted NEP-17
// balances must be zero.
func checkBalances(t *testing.T, c *Chain, path string) {
	var ref refBalances
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &ref))
	assets := map[string]bool{}
	for _, acc := range ref.NEP17 {
		for _, bal := range acc.Balance {
			assets[bal.AssetHash] = true
		}
	}
	checked := 0
	for addr, acc := range ref.NEP17 {
		owner, err := address.StringToUint160(addr)
		require.NoError(t, err)
		for asset := range assets {
			want := "0"
			for _, bal := range acc.Balance {
				if bal.AssetHash == asset {
					want = bal.Amount
				}
			}
			got := invokeInt(t, c, mustHash(asset), "balanceOf", owner)
			require.Equal(t, want, got.String(), "%s balance of %s", asset, addr)
			checked++
		}
	}
	for addr, acc := range ref.NEP11 {
		owner, err := address.StringToUint160(addr)
		require.NoError(t, err)
		for _, bal := range acc.Balance {
			h := mustHash(bal.AssetHash)
			for _, tok := range bal.Tokens {
				id, err := hex.DecodeString(tok.TokenID)
				require.NoError(t, err)
				if bal.Decimals != "0" {
					require.Equal(t, tok.Amount, invokeInt(t, c, h, "balanceOf", owner, id).String(), "%s token %s of %s", bal.AssetHash, tok.TokenID, addr)
				} else {
					s, err := emit.NewBuilder().AppCall(h, "ownerOf", byte(callflag.ReadOnly), id).Script()
					require.NoError(t, err)
					got, err := testInvoke(t, c, s).Bytes()
					require.NoError(t, err)
					require.Equal(t, owner.BytesLE(), got, "owner of %s token %s", bal.AssetHash, tok.TokenID)
				}
				checked++
			}
			if bal.Decimals == "0" {
				require.EqualValues(t, len(bal.Tokens), invokeInt(t, c, h, "balanceOf", owner).Int64())
			}
		}
	}
	t.Logf("%d token balances equal balances.json", checked)
}

// checkGovernance compares NeoToken's committee, next block validators and
// candidates with governance.json.
func checkGovernance(t *testing.T, c *Chain, path string) {
	var ref struct {
		Committee  []string `json:"getcommittee"`
		Validators []struct {
			PublicKey string `json:"publickey"`
		} `json:"getnextblockvalidators"`
		Candidates []struct {
			PublicKey string `json:"publickey"`
			Votes     string `json:"votes"`
		} `json:"getcandidates"`
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &ref))
	neo := c.cfg.Natives.Governance.NEO.Metadata().Hash
	keysOf := func(method string) []string {
		s, err := emit.NewBuilder().AppCall(neo, method, byte(callflag.ReadOnly)).Script()
		require.NoError(t, err)
		arr, ok := testInvoke(t, c, s).(*stackitem.Array)
		require.True(t, ok, method)
		out := []string{}
		for _, it := range arr.Items() {
			suffix := ""
			if st, ok := it.(*stackitem.Array); ok { // candidates: [key, votes]
				votes, err := st.At(1).BigInt()
				require.NoError(t, err)
				it, suffix = st.At(0), ":"+votes.String()
			}
			k, err := it.Bytes()
			require.NoError(t, err)
			out = append(out, hex.EncodeToString(k)+suffix)
		}
		return out
	}
	require.Equal(t, ref.Committee, keysOf("getCommittee"))
	var validators []string
	for _, v := range ref.Validators {
		validators = append(validators, v.PublicKey)
	}
	require.Equal(t, validators, keysOf("getNextBlockValidators"))
	candidates := []string{}
	for _, v := range ref.Candidates {
		candidates = append(candidates, v.PublicKey+":"+v.Votes)
	}
	require.Equal(t, candidates, keysOf("getCandidates"))
	t.Logf("governance: %d committee members, %d next validators, %d candidates equal governance.json",
		len(ref.Committee), len(validators), len(candidates))
}
