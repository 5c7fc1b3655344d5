package server

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// MaxVerificationGas caps the GAS of a verification run (Policy's
// reference value, 1.5 GAS).
const MaxVerificationGas int64 = 1_50000000

const methodVerify = "verify"

// limits are the chain's limits at the current height (chain.LimitsAt:
// Policy's values from Echidna on, the configuration's before).
func (s *Server) limits() (chain.Limits, error) {
	return s.chain.LimitsAt(s.chain.BlockHeight())
}

// fakeNextBlock is the persisting block of a test invocation on the state
// after block height: the next index, that block's time plus the block
// time (neo-go's GetFakeNextBlock, which takes the block time of the
// current state even for historic calls).
func (s *Server) fakeNextBlock(height uint32) (*block.Block, error) {
	h, ok := s.chain.GetHeaderHash(height)
	if !ok {
		return nil, fmt.Errorf("no header %d", height)
	}
	hdr, err := s.chain.GetHeader(h)
	if err != nil {
		return nil, err
	}
	l, err := s.limits()
	if err != nil {
		return nil, err
	}
	ms := uint64(l.TimePerBlock.Milliseconds())
	return &block.Block{Header: block.Header{Index: height + 1, Timestamp: hdr.Timestamp + ms}}, nil
}

// mockTx is the container of a test invocation on the state after block
// height: a random nonce, the script, the given signers (or the zero
// account with scope None) and witnesses, ValidUntilBlock = height + the
// current MaxValidUntilBlockIncrement.
func (s *Server) mockTx(height uint32, script []byte, signers *params.Param) (*transaction.Transaction, *result.Error) {
	var nonce [4]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, internal("nonce", err)
	}
	tx := &transaction.Transaction{Nonce: binary.LittleEndian.Uint32(nonce[:]), Script: script,
		Attributes: []transaction.Attribute{}, Witnesses: []transaction.Witness{}}
	if signers != nil {
		ss, ws, err := signers.GetSignersWithWitnesses()
		if err != nil {
			return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("failed to get signers or witnesses: %s", err))
		}
		tx.Signers, tx.Witnesses = ss, ws
	}
	if len(tx.Signers) == 0 {
		tx.Signers = []transaction.Signer{{Account: util.Uint160{}, Scopes: transaction.None}}
	}
	l, err := s.limits()
	if err != nil {
		return nil, internal("policy", err)
	}
	tx.ValidUntilBlock = height + l.MaxValidUntilBlockIncrement
	return tx, nil
}

// execState is the state a test invocation reads: a DAO (the run writes
// to a private layer of it) and the index of the last block of that state.
type execState struct {
	d      StateView
	height uint32
}

// latest is the chain's current state.
func (s *Server) latest() execState {
	d := s.chain.LatestView()
	return execState{height: d.Height(), d: d}
}

func (s *Server) invokeFunction(ps params.Params) (any, *result.Error) {
	return s.invokeFunctionAt(s.latest(), ps)
}

func (s *Server) invokeFunctionAt(st execState, ps params.Params) (any, *result.Error) {
	if len(ps) < 2 {
		return nil, result.ErrInvalidParams
	}
	h, rerr := s.contractHashFromParam(s.chain.LatestView(), ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	method, err := ps[1].GetString()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	script, err := params.FunctionScript(h, method, ps.Value(2))
	if err != nil {
		return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("can't create invocation script: %s", err))
	}
	tx, rerr := s.mockTx(st.height, script, ps.Value(3))
	if rerr != nil {
		return nil, rerr
	}
	verbose, rerr := verboseParam(ps.Value(4))
	if rerr != nil {
		return nil, rerr
	}
	return s.runScript(st, tx, script, verbose)
}

func (s *Server) invokeScript(ps params.Params) (any, *result.Error) {
	return s.invokeScriptAt(s.latest(), ps)
}

func (s *Server) invokeScriptAt(st execState, ps params.Params) (any, *result.Error) {
	if len(ps) < 1 {
		return nil, result.ErrInvalidParams
	}
	script, err := ps[0].GetBytesBase64()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	tx, rerr := s.mockTx(st.height, script, ps.Value(1))
	if rerr != nil {
		return nil, rerr
	}
	verbose, rerr := verboseParam(ps.Value(2))
	if rerr != nil {
		return nil, rerr
	}
	return s.runScript(st, tx, script, verbose)
}

// verboseParam reads the optional verbose flag of invokefunction and
// invokescript (neo-go's: it asks for the invocation diagnostics).
func verboseParam(p *params.Param) (bool, *result.Error) {
	if p == nil {
		return false, nil
	}
	v, err := p.GetBoolean()
	if err != nil {
		return false, result.ErrInvalidParams
	}
	return v, nil
}

// runScript runs an Application script in a test context.
func (s *Server) runScript(st execState, tx *transaction.Transaction, script []byte, verbose bool) (any, *result.Error) {
	b, err := s.fakeNextBlock(st.height)
	if err != nil {
		return nil, internal("fake block", err)
	}
	return s.runScriptIn(st.d, trigger.Application, tx, b, script, int64(s.cfg.MaxGasInvoke), verbose)
}

// runScriptIn runs script with trigger trig in a test context over d with
// container tx, persisting block b and gas datoshi.
func (s *Server) runScriptIn(d StateView, trig trigger.Type, tx *transaction.Transaction, b *block.Block, script []byte,
	gas int64, verbose bool) (any, *result.Error) {
	ic, err := d.TestContext(trig, tx, b, gas)
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("failed to create test VM: %s", err))
	}
	if verbose {
		ic.VM().EnableInvocationTree()
	}
	if _, err := ic.LoadScript(script, callflag.All, -1, 0); err != nil {
		return s.invokeResult(ic, script, err)
	}
	runErr := ic.Run()
	if !verbose {
		return s.invokeResult(ic, script, runErr)
	}
	changes, err := ic.DAO().StorageChanges()
	if err != nil {
		return nil, internal("storage changes", err)
	}
	res, rerr := s.invokeResult(ic, script, runErr)
	if r, ok := res.(result.Invoke); ok && rerr == nil {
		d := &result.InvokeDiag{Changes: changes, Invocations: ic.VM().InvocationTree().Calls}
		if d.Changes == nil {
			d.Changes = []dao.StorageChange{}
		}
		if d.Invocations == nil {
			d.Invocations = []*vm.InvocationTree{}
		}
		r.Diagnostics = d
		return r, nil
	}
	return res, rerr
}

// invokeResult packs the outcome of a test run; iterators left on the
// stack are dumped or kept in a new session (sessions.go).
func (s *Server) invokeResult(ic *interop.Context, script []byte, runErr error) (any, *result.Error) {
	v := ic.VM()
	st := v.State()
	res := result.Invoke{GasConsumed: v.GasConsumed(), Script: script, Notifications: ic.Notifications()}
	if runErr != nil {
		res.FaultException = runErr.Error()
		st = vm.FaultState
	}
	res.State = st.String()
	stack, iters, err := s.packStack(v.Estack().Items())
	if err != nil {
		return nil, internal("result stack", err)
	}
	res.Stack = stack
	if len(iters) != 0 {
		if res.Session, err = s.sessions.add(iters); err != nil {
			return nil, result.NewInternalError(err.Error())
		}
	}
	return res, nil
}

func (s *Server) invokeContractVerify(ps params.Params) (any, *result.Error) {
	return s.invokeContractVerifyAt(s.latest(), ps)
}

// verifyParams reads the contract, the invocation script of verify's
// arguments and the container of invokecontractverify.
func (s *Server) verifyParams(height uint32, ps params.Params) (util.Uint160, []byte, *transaction.Transaction, *result.Error) {
	h, rerr := s.contractHashFromParam(s.chain.LatestView(), ps.Value(0))
	if rerr != nil {
		return util.Uint160{}, nil, nil, rerr
	}
	var inv []byte
	if len(ps) > 1 {
		args, err := ps[1].GetArray()
		if err != nil {
			return util.Uint160{}, nil, nil, result.ErrInvalidParams.WithData(err.Error())
		}
		if inv, err = params.ArgsScript(args); err != nil {
			return util.Uint160{}, nil, nil, result.NewInternalError(fmt.Sprintf("can't create witness invocation script: %s", err))
		}
	}
	if len(inv) == 0 {
		inv = nil // printed as "script":null, as neo-go
	}
	tx, rerr := s.mockTx(height, []byte{byte(opcode.RET)}, ps.Value(2))
	if rerr != nil {
		return util.Uint160{}, nil, nil, rerr
	}
	if ps.Value(2) == nil {
		tx.Signers = []transaction.Signer{{Account: h}}
		tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: []byte{}}}
	}
	return h, inv, tx, nil
}

func (s *Server) invokeContractVerifyAt(st execState, ps params.Params) (any, *result.Error) {
	h, inv, tx, rerr := s.verifyParams(st.height, ps)
	if rerr != nil {
		return nil, rerr
	}
	b, err := s.fakeNextBlock(st.height)
	if err != nil {
		return nil, internal("fake block", err)
	}
	ic, err := st.d.TestContext(trigger.Verification, tx, b, min(int64(s.cfg.MaxGasInvoke), MaxVerificationGas))
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("failed to create test VM: %s", err))
	}
	c, err := ic.GetContract(h)
	if err != nil {
		return nil, result.ErrUnknownContract.WithData("unknown verification contract") // neo-go's words
	}
	md := c.Manifest.ABI.GetMethod(methodVerify, -1)
	if md == nil || md.ReturnType != smartcontract.BoolType {
		return nil, result.ErrInvalidVerificationFn.WithData(
			"verification contract is missing `verify` method or `verify` method has unexpected return value")
	}
	if _, err := ic.LoadContract(c, md, callflag.ReadOnly); err != nil {
		return s.invokeResult(ic, inv, err)
	}
	if len(inv) != 0 {
		if err := vm.ValidateScript(inv); err != nil {
			return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("invalid invocation script: %s", err))
		}
		if _, err := ic.LoadScript(inv, callflag.None, -1, 0); err != nil {
			return s.invokeResult(ic, inv, err)
		}
	}
	return s.invokeResult(ic, inv, ic.Run())
}
