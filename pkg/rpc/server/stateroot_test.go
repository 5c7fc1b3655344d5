package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// TestValidatedStateRoots: once the validated roots neo-go v0.122.0's state
// validator signed are stored (pkg/services/stateroot does it from the
// network), getstateroot answers exactly as that neo-go did, witnesses
// included, and getstateheight reports the validated index.
func TestValidatedStateRoots(t *testing.T) {
	dir := filepath.Join("..", "..", "core", "chain", "testdata", "neogo-genesisroles")
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	ns, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Store: storage.NewMemoryStore(),
		Natives: ns, BloomCapacity: 100})
	require.NoError(t, err)
	defer c.Close()
	f, err := os.Open(filepath.Join(dir, "chain.acc"))
	require.NoError(t, err)
	defer f.Close()
	_, err = chain.Restore(context.Background(), c, f, chain.RestoreOptions{})
	require.NoError(t, err)
	srv, err := New(yamlSettings(Config{}, cfg.ApplicationConfiguration.RPC, config.Ledger{}), c)
	require.NoError(t, err)
	n := &testNode{chain: c, srv: srv, http: httptest.NewServer(srv)}
	defer n.http.Close()

	requireJSON(t, []byte(`{"localrootindex":6,"validatedrootindex":0}`), n.result(t, "getstateheight"))
	type refRoot struct {
		Version   byte         `json:"version"`
		Index     uint32       `json:"index"`
		Root      util.Uint256 `json:"roothash"`
		Witnesses []struct {
			Invocation   []byte `json:"invocation"`
			Verification []byte `json:"verification"`
		} `json:"witnesses"`
	}
	lines := conformance.ReadJSONL[json.RawMessage](t, filepath.Join(dir, "stateroots.jsonl"))
	for i, line := range lines {
		var r refRoot
		require.NoError(t, json.Unmarshal(line, &r))
		if len(r.Witnesses) == 0 {
			requireJSON(t, line, n.result(t, "getstateroot", i))
			continue
		}
		w := transaction.Witness{InvocationScript: r.Witnesses[0].Invocation, VerificationScript: r.Witnesses[0].Verification}
		require.NoError(t, c.AddValidatedStateRoot(&chain.StateRoot{Version: r.Version, Index: r.Index, Root: r.Root,
			Witnesses: []transaction.Witness{w}}))
		requireJSON(t, line, n.result(t, "getstateroot", i))
		requireJSON(t, fmt.Appendf(nil, `{"localrootindex":6,"validatedrootindex":%d}`, r.Index),
			n.result(t, "getstateheight"))
	}
}
