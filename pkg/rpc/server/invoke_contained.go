package server

import (
	"errors"
	"fmt"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
)

// invokecontainedscript [tx, header?, trigger?, verbose?] (a neo-go
// extension): runs the script of the given transaction (verbose JSON,
// whose "hash" and "size" are taken as given) on the latest state with
// that transaction as the container, in a persisting block mocked from
// the next block's (index, time) and the fields the given header sets.
// The trigger is Application (default) or Verification (GAS limited as a
// verification run); verbose adds the invocation diagnostics. The answers
// and their errors are neo-go v0.122.0's.
func (s *Server) invokeContainedScript(ps params.Params) (any, *result.Error) {
	if len(ps) < 1 {
		return nil, result.ErrInvalidParams
	}
	tx, rerr := fakeTxParam(ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	d := s.chain.LatestView()
	b, rerr := s.fakeBlockParam(d.Height(), ps.Value(1))
	if rerr != nil {
		return nil, rerr
	}
	if b.Index != d.Height()+1 {
		// As neo-go, the Ledger contract takes the block before the
		// mocked one as the current one.
		v, err := s.chain.LatestViewAsOf(b.Index - 1)
		if err != nil {
			return nil, result.NewInternalError(fmt.Sprintf("failed to create test VM: %s", err))
		}
		d = v
	}
	trig := trigger.Application
	if len(ps) > 2 {
		str, err := ps[2].GetString()
		if err != nil {
			return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("invalid trigger parameter: %s", err))
		}
		if trig, err = containedTrigger(str); err != nil {
			return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("failed to parse trigger: %s", err))
		}
		if trig != trigger.Application && trig != trigger.Verification {
			return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("unsupported trigger: expected %s or %s, got %s",
				trigger.Application, trigger.Verification, trig))
		}
	}
	var verbose bool
	if len(ps) > 3 {
		var err error
		if verbose, err = ps[3].GetBoolean(); err != nil {
			return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("invalid verbose parameter: %s", err))
		}
	}
	gas := int64(s.cfg.MaxGasInvoke)
	if trig == trigger.Verification {
		gas = min(gas, MaxVerificationGas)
	}
	return s.runScriptIn(d, trig, tx, b, tx.Script, gas, verbose)
}

// fakeTxParam reads the container of invokecontainedscript.
func fakeTxParam(p *params.Param) (*transaction.Transaction, *result.Error) {
	var (
		tx  *transaction.Transaction
		err error
	)
	switch {
	case p == nil:
		err = params.ErrMissing
	case p.IsNull():
		err = errNullParam
	default:
		if tx, err = transaction.NewFakeFromJSON(p.RawMessage); err != nil {
			err = fmt.Errorf("failed to unmarshal fake transaction: %w", err)
		}
	}
	if err != nil {
		return nil, result.ErrInvalidParams.WithData(fmt.Sprintf("failed to unmarshal fake transaction: %s", err))
	}
	if len(tx.Script) == 0 {
		return nil, result.ErrInvalidParams.WithData("transaction script is mandatory")
	}
	return tx, nil
}

// errNullParam is neo-go's word for a null where a value is needed.
var errNullParam = errors.New("parameter is null")

// fakeBlockParam is the persisting block of invokecontainedscript: the
// next block after height as test invocations mock it, with the fields
// the header parameter sets (non-zero ones; the primary index always).
func (s *Server) fakeBlockParam(height uint32, p *params.Param) (*block.Block, *result.Error) {
	b, err := s.fakeNextBlock(height)
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("failed to mock block execution container: %s", err))
	}
	if p == nil || p.IsNull() {
		return b, nil
	}
	h, err := block.NewFakeHeaderFromJSON(p.RawMessage)
	if err != nil {
		return nil, result.ErrInvalidParams.WithData(
			fmt.Sprintf("failed to unmarshal fake block: failed to unmarshal fake header: %s", err))
	}
	base := &b.Header
	if h.Version != 0 {
		base.Version = h.Version
	}
	if h.PrevHash != (util.Uint256{}) {
		base.PrevHash = h.PrevHash
	}
	if h.MerkleRoot != (util.Uint256{}) {
		base.MerkleRoot = h.MerkleRoot
	}
	if h.Timestamp != 0 {
		base.Timestamp = h.Timestamp
	}
	if h.Nonce != 0 {
		base.Nonce = h.Nonce
	}
	if h.Index != 0 {
		base.Index = h.Index
	}
	base.PrimaryIndex = h.PrimaryIndex
	if h.NextConsensus != (util.Uint160{}) {
		base.NextConsensus = h.NextConsensus
	}
	base.InvalidateCache()
	return b, nil
}

// containedTrigger parses a trigger name as neo-go's trigger.FromString:
// any case, the five names of its list.
func containedTrigger(str string) (trigger.Type, error) {
	str = strings.ToLower(str)
	for _, t := range []trigger.Type{trigger.OnPersist, trigger.PostPersist, trigger.Verification,
		trigger.Application, trigger.All} {
		if strings.ToLower(t.String()) == str {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown trigger type: %s", str)
}
