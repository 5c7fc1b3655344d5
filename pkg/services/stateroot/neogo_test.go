package stateroot

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/testwallet"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// neogoDir holds a chain neo-go v0.122.0 made with one designated state
// validator whose StateRoot service signed heights 1.. (recorded by
// scripts/neogo-genesisroles.sh).
var neogoDir = filepath.Join("..", "..", "core", "chain", "testdata", "neogo-genesisroles")

// neogoRoot is one line of that run's stateroots.jsonl (getstateroot).
type neogoRoot struct {
	Version   byte         `json:"version"`
	Index     uint32       `json:"index"`
	Root      util.Uint256 `json:"roothash"`
	Witnesses []struct {
		Invocation   []byte `json:"invocation"`
		Verification []byte `json:"verification"`
	} `json:"witnesses"`
}

func (r neogoRoot) stateRoot() *chain.StateRoot {
	sr := &chain.StateRoot{Version: r.Version, Index: r.Index, Root: r.Root, Witnesses: []transaction.Witness{}}
	for _, w := range r.Witnesses {
		sr.Witnesses = append(sr.Witnesses, transaction.Witness{InvocationScript: w.Invocation, VerificationScript: w.Verification})
	}
	return sr
}

func neogoRoots(t *testing.T) []neogoRoot {
	f, err := os.Open(filepath.Join(neogoDir, "stateroots.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var out []neogoRoot
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r neogoRoot
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		out = append(out, r)
	}
	require.NoError(t, sc.Err())
	require.Len(t, out, 7)
	return out
}

// neogoChain restores the run's chain into memory.
func neogoChain(t *testing.T) (*chain.Chain, chain.StateRootReader, uint32) {
	cfg, err := config.LoadFile(filepath.Join(neogoDir, "protocol.yml"), "")
	require.NoError(t, err)
	natives, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Store: storage.NewMemoryStore(),
		Natives: natives, BloomCapacity: 100})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	f, err := os.Open(filepath.Join(neogoDir, "chain.acc"))
	require.NoError(t, err)
	defer f.Close()
	_, err = chain.Restore(context.Background(), c, f, chain.RestoreOptions{})
	require.NoError(t, err)
	return c, chain.StateRootReader{Chain: c, Natives: natives}, uint32(cfg.ProtocolConfiguration.Magic)
}

// validatorKey is the run's state validator: the key of neo-go's privnet
// single-node wallet.
func validatorKey(t *testing.T) *keys.PrivateKey {
	return testwallet.Key(t, filepath.Join("..", "..", "..", "config", "wallet.privnet.single.json"), "one")
}

// TestNeoGoRootsVerify: the witnesses neo-go's state validator made verify
// under our rules, and a witness of another root does not.
func TestNeoGoRootsVerify(t *testing.T) {
	_, ledger, magic := neogoChain(t)
	svs, err := ledger.StateValidators(1)
	require.NoError(t, err)
	require.Len(t, svs, 1)
	roots := neogoRoots(t)
	for _, r := range roots[1:] {
		require.NoError(t, verifyRoot(magic, r.stateRoot(), svs), "root %d", r.Index)
	}
	other := roots[2].stateRoot()
	other.Witnesses = roots[3].stateRoot().Witnesses
	require.ErrorIs(t, verifyRoot(magic, other, svs), ErrInvalidPayload)
	require.ErrorIs(t, verifyRoot(magic+1, roots[2].stateRoot(), svs), ErrInvalidPayload)
}

// TestNeoGoObserver: n3d, not a state validator, receives neo-go's
// validated roots in StateService payloads and answers getstateroot and
// getstateheight with them.
func TestNeoGoObserver(t *testing.T) {
	c, ledger, magic := neogoChain(t)
	s, err := New(Config{Magic: magic, Ledger: ledger})
	require.NoError(t, err)
	key := validatorKey(t)
	h, err := c.ValidatedStateHeight()
	require.NoError(t, err)
	require.Zero(t, h)
	for _, r := range neogoRoots(t)[1:] {
		e, err := newExtensible(magic, key, r.Index, r.Index+RootValidBlocks, &Message{Type: RootT, Root: r.stateRoot()})
		require.NoError(t, err)
		require.NoError(t, s.OnPayload(e))
		got, err := c.StateRoot(r.Index)
		require.NoError(t, err)
		require.Equal(t, r.stateRoot(), got)
		h, err := c.ValidatedStateHeight()
		require.NoError(t, err)
		require.Equal(t, r.Index, h)
	}
}

// TestNeoGoSigner: n3d as the designated state validator signs the root
// of the current block exactly as neo-go did (deterministic signatures):
// the stored validated root and the StateRoot message equal neo-go's.
func TestNeoGoSigner(t *testing.T) {
	c, ledger, magic := neogoChain(t)
	var sent []*payload.Extensible
	s, err := New(Config{Magic: magic, Ledger: ledger, Keys: []*keys.PrivateKey{validatorKey(t)},
		Broadcast: func(e *payload.Extensible) { sent = append(sent, e) }, Clock: newFakeClock()})
	require.NoError(t, err)
	s.onBlocks()
	ref := neogoRoots(t)[6]
	got, err := c.StateRoot(6)
	require.NoError(t, err)
	require.Equal(t, ref.stateRoot(), got)
	// The one validator completes the root at once and, as neo-go, sends
	// no vote for a root already out.
	require.Len(t, sent, 1)
	m, err := DecodeMessage(sent[0].Data)
	require.NoError(t, err)
	require.Equal(t, RootT, m.Type)
	require.Equal(t, ref.stateRoot(), m.Root)
	require.Equal(t, uint32(6), sent[0].ValidBlockStart)
	require.Equal(t, uint32(6+RootValidBlocks), sent[0].ValidBlockEnd)
	// Another node takes it.
	obs, err := New(Config{Magic: magic, Ledger: ledger})
	require.NoError(t, err)
	for _, e := range sent {
		require.NoError(t, obs.OnPayload(e))
	}
}
