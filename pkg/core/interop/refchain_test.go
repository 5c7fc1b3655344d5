package interop_test

import (
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/stretchr/testify/require"
)

// refChain is one reference chain of the conformance data: its protocol
// settings and blocks (decoded from the raw bytes the reference served).
type refChain struct {
	name   string
	proto  config.ProtocolConfiguration
	blocks []*block.Block
}

func loadRefChains(t *testing.T) []refChain {
	t.Helper()
	var out []refChain
	for _, name := range conformance.Chains(t) {
		dir := conformance.Dir(t, "chains", name)
		cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), dir)
		require.NoError(t, err)
		c := refChain{name: name, proto: cfg.ProtocolConfiguration}
		for _, raw := range conformance.RawBlocks(t, name) {
			b, err := block.NewBlockFromBytes(raw)
			require.NoError(t, err)
			c.blocks = append(c.blocks, b)
		}
		out = append(out, c)
	}
	return out
}

// witnessed is one verifiable of a reference chain with one of its
// witnesses.
type witnessed struct {
	container interop.Container
	w         transaction.Witness
}

// witnesses lists every transaction and block witness of the chain whose
// verification script satisfies keep.
func (c *refChain) witnesses(keep func(verification []byte) bool) []witnessed {
	var out []witnessed
	for _, b := range c.blocks {
		if keep(b.Witness.VerificationScript) {
			out = append(out, witnessed{b, b.Witness})
		}
		for _, tx := range b.Transactions {
			for _, w := range tx.Witnesses {
				if keep(w.VerificationScript) {
					out = append(out, witnessed{tx, w})
				}
			}
		}
	}
	return out
}

// verifyWitness runs a witness the way the reference Helper.VerifyWitness
// does: the verification script with ReadOnly flags, then the invocation
// script with none, under the Verification trigger without a block.
func verifyWitness(t *testing.T, magic uint32, hf func(protocol.Hardfork, uint32) bool, container interop.Container, inv, verif []byte) *interop.Context {
	t.Helper()
	ic := interop.NewContext(interop.Config{
		Trigger: trigger.Verification, Container: container, Network: magic,
		HardforkEnabled: hf, ExecFeeFactor: 30 * vm.FeeFactor, GasLimit: -1,
	}, dao.New(storage.NewMemoryStore()))
	_, err := ic.LoadScript(verif, callflag.ReadOnly, -1, 0)
	require.NoError(t, err)
	_, err = ic.LoadScript(inv, callflag.None, -1, 0)
	require.NoError(t, err)
	_ = ic.Run()
	return ic
}

// verified runs the witness and reports its result: HALT with exactly
// one true item is success (reference rule), FAULT is an error.
func verified(t *testing.T, ic *interop.Context) (bool, error) {
	t.Helper()
	if ic.VM().State() == vm.FaultState {
		return false, ic.VM().FaultException()
	}
	require.Equal(t, vm.HaltState, ic.VM().State())
	st := ic.VM().ResultStack().Items()
	require.Len(t, st, 1)
	ok, err := st[0].Bool()
	require.NoError(t, err)
	return ok, nil
}

// allHF enables every hardfork, Gorgon included.
func allHF(protocol.Hardfork, uint32) bool { return true }
