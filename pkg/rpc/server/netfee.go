package server

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// dumpIterator replaces an iterator on a result stack by its first
// MaxIteratorResultItems values (sessions are not supported).
func (s *Server) dumpIterator(it stackitem.Item) any {
	in, ok := it.(*stackitem.Interop)
	if !ok {
		return it
	}
	iter, ok := in.Value().(interop.Iterator)
	if !ok {
		return it
	}
	out := result.Iterator{Values: []stackitem.Item{}}
	for iter.Next() {
		if len(out.Values) == s.cfg.MaxIteratorResultItems {
			out.Truncated = true
			break
		}
		v, err := iter.Value()
		if err != nil {
			break
		}
		out.Values = append(out.Values, v)
	}
	return out
}

// defaultInvocation is a dummy invocation script pushing a default value
// of each parameter type (neo-go's EncodeDefaultValue).
func defaultInvocation(ps []manifest.Parameter) ([]byte, error) {
	b := emit.NewBuilder()
	var zero [64]byte
	for _, p := range ps {
		switch p.Type {
		case smartcontract.AnyType, smartcontract.SignatureType, smartcontract.StringType, smartcontract.ByteArrayType:
			b.Bytes(zero[:])
		case smartcontract.BoolType:
			b.Bool(true)
		case smartcontract.IntegerType:
			b.Instruction(opcode.PUSHINT256, zero[:32])
		case smartcontract.Hash160Type:
			b.Bytes(zero[:20])
		case smartcontract.Hash256Type:
			b.Bytes(zero[:32])
		case smartcontract.PublicKeyType:
			b.Bytes(zero[:33])
		}
	}
	return b.Script()
}

// errVerifyFault is a verification run that did not HALT, worded as
// neo-go's.
var errVerifyFault = errors.New("signature check failed: vm execution has failed")

// verificationGas runs witness w of account h for tx and returns the GAS it
// consumed; a run that ends with false still counts (the signatures of a
// fee estimate are dummies), a FAULT is an error.
func (s *Server) verificationGas(d StateView, tx *transaction.Transaction, i int, w *transaction.Witness, gas int64) (int64, error) {
	ic, err := d.TestContext(trigger.Verification, tx, nil, gas)
	if err != nil {
		return 0, err
	}
	h := tx.Signers[i].Account
	if len(w.VerificationScript) == 0 {
		c, err := ic.GetContract(h)
		if err != nil {
			return 0, err
		}
		md := c.Manifest.ABI.GetMethod(methodVerify, -1)
		if md == nil {
			return 0, errors.New("no verify method")
		}
		if _, err := ic.LoadContract(c, md, callflag.ReadOnly); err != nil {
			return 0, err
		}
	} else {
		if w.ScriptHash() != h { // neo-go's words (its StringLE is our StringBE)
			return 0, fmt.Errorf("witness hash mismatch: expected %s, got %s", h.StringBE(), w.ScriptHash().StringBE())
		}
		if err := vm.ValidateScript(w.VerificationScript); err != nil {
			return 0, err
		}
		if _, err := ic.LoadScript(w.VerificationScript, callflag.ReadOnly, -1, 0); err != nil {
			return 0, err
		}
	}
	if len(w.InvocationScript) != 0 {
		if err := vm.ValidateScript(w.InvocationScript); err != nil {
			return 0, fmt.Errorf("invalid invocation script: %w", err)
		}
		if _, err := ic.LoadScript(w.InvocationScript, callflag.None, -1, 0); err != nil {
			return 0, err
		}
	}
	if err := ic.Run(); err != nil || ic.VM().State() != vm.HaltState {
		return 0, fmt.Errorf("%w: %v", errVerifyFault, err)
	}
	return ic.VM().GasConsumed(), nil
}

func (s *Server) calculateNetworkFee(ps params.Params) (any, *result.Error) {
	if len(ps) < 1 {
		return nil, result.ErrInvalidParams
	}
	raw, err := ps[0].GetBytesBase64()
	if err != nil {
		return nil, result.ErrInvalidParams.WithData(err.Error())
	}
	tx, err := transaction.NewTransactionFromBytes(raw)
	if err != nil {
		return nil, result.ErrInvalidParams.WithData(err.Error())
	}
	w := io.NewBufBinWriter()
	tx.EncodeUnsigned(w.BinWriter)
	if w.Err != nil {
		return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("failed to compute tx size: %s", w.Err))
	}
	size := w.Len() + io.GetVarSize(len(tx.Signers))
	d := s.chain.LatestView()
	gasLimit := min(MaxVerificationGas, int64(s.cfg.MaxGasInvoke))
	var fee int64
	for i, signer := range tx.Signers {
		wit := tx.Witnesses[i]
		if len(wit.InvocationScript) == 0 {
			inv, rerr := s.dummyInvocation(d, i, signer.Account, wit.VerificationScript)
			if rerr != nil {
				return nil, rerr
			}
			wit.InvocationScript = inv
		}
		g, err := s.verificationGas(d, tx, i, &wit, gasLimit)
		if err != nil {
			return nil, result.ErrInvalidSignature.WithData(fmt.Sprintf("witness %d: %s", i, err))
		}
		gasLimit -= g
		fee += g
		size += io.GetVarSize(len(wit.VerificationScript)) + len(wit.VerificationScript) +
			io.GetVarSize(len(wit.InvocationScript)) + len(wit.InvocationScript)
	}
	perByte, err := d.FeePerByte()
	if err != nil {
		return nil, internal("fee per byte", err)
	}
	fee += int64(size) * perByte
	for _, a := range tx.Attributes {
		af, err := d.AttributeFee(a.Type)
		if err != nil {
			return nil, internal("attribute fee", err)
		}
		fee += af
	}
	return result.NetworkFee{Value: fee}, nil
}

// dummyInvocation guesses the invocation script of signer i: default
// values for the verify parameters of a contract account, one signature
// per required key of a standard account.
func (s *Server) dummyInvocation(d StateView, i int, h util.Uint160, verification []byte) ([]byte, *result.Error) {
	var ps []manifest.Parameter
	switch {
	case len(verification) == 0:
		c, err := d.GetContract(h)
		if err != nil {
			return nil, result.ErrInvalidVerificationFn.WithData(fmt.Sprintf(
				"signer %d (%s) has no verification script and no deployed contract", i, address.Uint160ToString(h)))
		}
		md := c.Manifest.ABI.GetMethod(methodVerify, -1)
		if md == nil || md.ReturnType != smartcontract.BoolType {
			return nil, result.ErrInvalidVerificationFn.WithData(fmt.Sprintf("signer %d has no verify method in deployed contract", i))
		}
		ps = md.Parameters
	case scripts.IsSignatureContract(verification):
		ps = []manifest.Parameter{{Type: smartcontract.SignatureType}}
	default:
		if m, _, ok := scripts.MultiSigCounts(verification); ok {
			ps = make([]manifest.Parameter, m)
			for j := range ps {
				ps[j].Type = smartcontract.SignatureType
			}
		}
	}
	inv, err := defaultInvocation(ps)
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("failed to create dummy invocation script (signer %d): %s", i, err))
	}
	return inv, nil
}
