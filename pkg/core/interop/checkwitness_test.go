package interop_test

import (
	"errors"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

func checkWitnessScript(t *testing.T, h util.Uint160) []byte {
	return script(t, func(b *emit.Builder) { b.Bytes(h.BytesLE()).Syscall(interop.RuntimeCheckWitness) })
}

// TestCheckWitnessBlockContainer uses the reference blocks as script
// containers: the only account that witnessed a block is the previous
// block's NextConsensus (the genesis block: its own witness script hash),
// read from the Ledger, and the check needs ReadStates — unlike the
// transaction case.
func TestCheckWitnessBlockContainer(t *testing.T) {
	c := loadRefChains(t)[0]
	require.GreaterOrEqual(t, len(c.blocks), 3)
	e := newEnv()
	for _, b := range c.blocks[:3] {
		require.NoError(t, e.d.StoreAsBlock(b))
	}
	run := func(container interop.Container, h util.Uint160, flags callflag.CallFlag) (bool, error) {
		e.cfg.Container = container
		ic := interop.NewContext(e.cfg, e.d)
		_, err := ic.LoadScript(checkWitnessScript(t, h), flags, -1, 0)
		require.NoError(t, err)
		if err := ic.Run(); err != nil {
			return false, err
		}
		st := ic.VM().ResultStack().Items()
		require.Len(t, st, 1)
		return st[0].Equals(stackitem.Bool(true)), nil
	}
	genesis := c.blocks[0]
	ok, err := run(genesis, genesis.Witness.ScriptHash(), callflag.ReadOnly)
	require.NoError(t, err)
	require.True(t, ok, "genesis: its own witness")
	for i := 1; i < 3; i++ {
		b := c.blocks[i]
		ok, err := run(b, c.blocks[i-1].NextConsensus, callflag.ReadOnly)
		require.NoError(t, err)
		require.True(t, ok, "block %d: previous NextConsensus", i)
		ok, err = run(b, util.Uint160{1}, callflag.ReadOnly)
		require.NoError(t, err)
		require.False(t, ok)
		_, err = run(b, c.blocks[i-1].NextConsensus, callflag.None)
		require.ErrorIs(t, err, interop.ErrMissingFlags)
	}
	// The previous block must be in the Ledger.
	_, err = run(c.blocks[4], c.blocks[3].NextConsensus, callflag.ReadOnly)
	require.Error(t, err)
	// A transaction container needs no flags.
	signer := transaction.Signer{Account: util.Uint160{7}, Scopes: transaction.CalledByEntry}
	ok, err = run(txWithSigners(signer), signer.Account, callflag.None)
	require.NoError(t, err)
	require.True(t, ok)
}

// TestCheckWitnessOracleSigners: for an OracleResponse transaction the
// signers of the original request decide (reference: the request's
// transaction signers from the Ledger), not the response's own.
func TestCheckWitnessOracleSigners(t *testing.T) {
	e := newEnv()
	oracleAcc, user := util.Uint160{0x0a}, util.Uint160{0x0b}
	tx := txWithSigners(transaction.Signer{Account: oracleAcc, Scopes: transaction.None})
	tx.Attributes = []transaction.Attribute{{Type: transaction.AttrOracleResponse,
		Value: &transaction.OracleResponse{ID: 7, Code: transaction.OracleSuccess, Result: []byte("r")}}}
	e.cfg.Container = tx
	var asked []uint64
	e.cfg.OracleRequestSigners = func(_ *dao.DAO, id uint64) ([]transaction.Signer, error) {
		asked = append(asked, id)
		if id != 7 {
			return nil, errors.New("no such request")
		}
		return []transaction.Signer{{Account: user, Scopes: transaction.CalledByEntry}}, nil
	}
	check := func(h util.Uint160) bool {
		st := e.halt(t, checkWitnessScript(t, h))
		return st[0].Equals(stackitem.Bool(true))
	}
	require.True(t, check(user))
	require.False(t, check(oracleAcc), "the response's own signer does not count")
	require.Equal(t, []uint64{7, 7}, asked)
	// A failing lookup FAULTs.
	tx.Attributes[0].Value = &transaction.OracleResponse{ID: 8, Code: transaction.OracleSuccess}
	require.Error(t, e.fault(t, checkWitnessScript(t, user)))
	e.cfg.OracleRequestSigners = nil
	require.ErrorIs(t, e.fault(t, checkWitnessScript(t, user)), interop.ErrNotAllowed)
}

// TestCheckWitnessNoSigners: a transaction container without signers
// (only a test run's made-up one, RPC invokecontainedscript) FAULTs the
// syscall with neo-go's text; one with signers answers false for others.
func TestCheckWitnessNoSigners(t *testing.T) {
	e := newEnv()
	run := func(tx *transaction.Transaction) error {
		e.cfg.Container = tx
		ic := interop.NewContext(e.cfg, e.d)
		_, err := ic.LoadScript(checkWitnessScript(t, util.Uint160{9}), callflag.All, -1, 0)
		require.NoError(t, err)
		return ic.Run()
	}
	err := run(txWithSigners())
	require.ErrorIs(t, err, interop.ErrNotAllowed)
	require.Contains(t, err.Error(), "System.Runtime.CheckWitness failed: failed to check witness: no valid signers")
	require.NoError(t, run(txWithSigners(transaction.Signer{Account: util.Uint160{7}, Scopes: transaction.CalledByEntry})))
}
