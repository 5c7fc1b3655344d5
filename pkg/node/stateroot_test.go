package node

import (
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"
)

// TestSingleValidatorSignsStateRoots: a single-validator node whose wallet
// key is also the state validator designated in Genesis.Roles, with the
// StateRoot section enabled on the same wallet, signs each block's state
// root and stores it validated: getstateheight's validatedrootindex
// follows the chain and getstateroot carries the witness.
func TestSingleValidatorSignsStateRoots(t *testing.T) {
	cfg := singleConfig(t, true, 100*time.Millisecond)
	key := validatorKey(t, cfg)
	cfg.ProtocolConfiguration.Genesis.Roles = map[string][]string{
		"StateValidator": {hex.EncodeToString(key.PublicKey().Bytes())},
	}
	sr := &cfg.ApplicationConfiguration.StateRoot
	sr.Enabled = true
	sr.UnlockWallet = cfg.ApplicationConfiguration.Consensus.UnlockWallet
	r := startNode(t, cfg)
	require.NotNil(t, r.n.StateRoot())

	type height struct {
		Local     uint32 `json:"localrootindex"`
		Validated uint32 `json:"validatedrootindex"`
	}
	var h height
	require.Eventually(t, func() bool {
		require.NoError(t, json.Unmarshal(r.result("getstateheight"), &h))
		return h.Validated >= 5
	}, 30*time.Second, 10*time.Millisecond, "no validated state root (last: %+v)", h)
	v, err := r.n.Chain().ValidatedStateHeight()
	require.NoError(t, err)
	require.GreaterOrEqual(t, v, uint32(5))

	var root struct {
		Index     uint32            `json:"index"`
		Witnesses []json.RawMessage `json:"witnesses"`
	}
	require.NoError(t, json.Unmarshal(r.result("getstateroot", 5), &root))
	require.Equal(t, uint32(5), root.Index)
	require.Len(t, root.Witnesses, 1, "the validated root of block 5 has no witness")

	// It keeps following the chain: a later block's root is validated too.
	next := r.n.Chain().BlockHeight() + 2
	require.Eventually(t, func() bool {
		require.NoError(t, json.Unmarshal(r.result("getstateheight"), &h))
		return h.Validated >= next
	}, 30*time.Second, 10*time.Millisecond, "validated index stuck at %d", h.Validated)

	r.stop()
	require.Zero(t, r.logs.FilterLevelExact(zapcore.ErrorLevel).Len(), "errors logged: %v",
		r.logs.FilterLevelExact(zapcore.ErrorLevel).All())
}

// TestNodeWarnsUnsupportedSettings: each setting config.Unsupported lists
// is one warning at start.
func TestNodeWarnsUnsupportedSettings(t *testing.T) {
	cfg := singleConfig(t, false, time.Second)
	cfg.ApplicationConfiguration.NeoFSBlockFetcher.Enabled = true
	want := cfg.Unsupported()
	require.NotEmpty(t, want)
	r := startNode(t, cfg)
	for _, u := range want {
		require.Equal(t, 1, r.logs.FilterLevelExact(zapcore.WarnLevel).FilterMessage(u.String()).Len(), u.String())
	}
	r.stop()
}
