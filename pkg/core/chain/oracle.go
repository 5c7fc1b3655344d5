package chain

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/vm"
)

// Read APIs for an oracle node (pkg/services/oracle): the values its
// response transactions are built from, read from a private view of the
// current state like the other service APIs of pool.go.

// OracleParams are the current state's values an oracle response
// transaction is built with.
type OracleParams struct {
	// Height is the chain height the values were read at.
	Height uint32
	// FeePerByte is Policy's network fee per transaction byte (datoshi).
	FeePerByte int64
	// BaseExecFee is the opcode price factor in picoGAS as neo-go's
	// GetBaseExecFee gives it: Policy's stored factor once Faun is active,
	// the stored datoshi factor × vm.FeeFactor before.
	BaseExecFee int64
	// MaxValidUntilBlockIncrement is Policy's value from Echidna on, the
	// protocol configuration's before.
	MaxValidUntilBlockIncrement uint32
	// OracleNodes are the keys designated for the Oracle role for the next
	// block (the ones a response transaction must be signed by).
	OracleNodes keys.PublicKeys
}

// OracleRequests lists the pending oracle requests of the state d by id.
func (n *NativeSet) OracleRequests(d *dao.DAO) (map[uint64]*neostate.OracleRequest, error) {
	return n.Governance.Oracle.Requests(d)
}

// OracleParams reads the oracle's building values from the current state.
func (c *Chain) OracleParams() (OracleParams, error) {
	if c.closed.Load() {
		return OracleParams{}, ErrClosed
	}
	n, err := c.ledgerNativeSet()
	if err != nil {
		return OracleParams{}, err
	}
	d := c.view()
	p, err := c.oracleParams(n, d)
	return p, errors.Join(err, d.Discard())
}

func (c *Chain) oracleParams(n ledgerNatives, d *dao.DAO) (OracleParams, error) {
	p := OracleParams{Height: c.BlockHeight(), MaxValidUntilBlockIncrement: c.proto.MaxValidUntilBlockIncrement}
	var err error
	if p.FeePerByte, err = n.FeePerByte(d); err != nil {
		return p, fmt.Errorf("fee per byte: %w", err)
	}
	if p.BaseExecFee, err = c.baseExecFee(n, d, p.Height); err != nil {
		return p, err
	}
	if c.proto.Enabled(protocol.HFEchidna, p.Height) {
		if p.MaxValidUntilBlockIncrement, err = n.MaxValidUntilBlockIncrement(d); err != nil {
			return p, fmt.Errorf("MaxValidUntilBlockIncrement: %w", err)
		}
	}
	if p.OracleNodes, err = n.OracleNodes(d, p.Height+1); err != nil {
		return p, fmt.Errorf("oracle nodes: %w", err)
	}
	return p, nil
}

// baseExecFee is neo-go's GetBaseExecFee at height: Policy's stored
// factor in picoGAS (once Faun is active, the stored value; before, the
// stored datoshi value × vm.FeeFactor).
func (c *Chain) baseExecFee(n ledgerNatives, d *dao.DAO, height uint32) (int64, error) {
	f, err := n.StoredExecFeeFactor(d)
	if err != nil {
		return 0, fmt.Errorf("exec fee factor: %w", err)
	}
	if !c.proto.Enabled(protocol.HFFaun, height) {
		f *= vm.FeeFactor
	}
	return f, nil
}

// OracleVerifyGas runs OracleContract's verify method for the response
// transaction tx as neo-go's oracle service does to price it: a
// Verification run on the current state with the picoGAS fee factor
// baseExecFee (OracleParams.BaseExecFee of the state the oracle answers
// on; not the chain's verification factor, which differs before Faun on a
// chain that schedules Faun), within MaxVerificationGas. It returns the
// GAS consumed.
func (c *Chain) OracleVerifyGas(tx *transaction.Transaction, baseExecFee int64) (int64, error) {
	if c.closed.Load() {
		return 0, ErrClosed
	}
	if baseExecFee < 0 {
		return 0, fmt.Errorf("%w: negative fee factor %d", ErrBadConfig, baseExecFee)
	}
	gas, err := c.runWitnessFee(c.dao, tx, oracleHash, &transaction.Witness{}, MaxVerificationGas, baseExecFee)
	if err != nil {
		return 0, fmt.Errorf("%w: OracleContract verify: %w", ErrWitness, err)
	}
	return gas, nil
}

// OracleRequests returns the pending oracle requests of the current state
// by id.
func (c *Chain) OracleRequests() (map[uint64]*neostate.OracleRequest, error) {
	if c.closed.Load() {
		return nil, ErrClosed
	}
	n, err := c.ledgerNativeSet()
	if err != nil {
		return nil, err
	}
	d := c.view()
	r, err := n.OracleRequests(d)
	return r, errors.Join(err, d.Discard())
}
