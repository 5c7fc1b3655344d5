package interop

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

const triggerApplication = trigger.Application

func checkWitness(ic *Context) error {
	b, err := ic.popBytes()
	if err != nil {
		return err
	}
	var h util.Uint160
	switch len(b) {
	case util.Uint160Size:
		h, _ = util.Uint160DecodeBytesLE(b) // length checked
	case 33:
		k, err := keys.NewPublicKeyFromBytes(b)
		if err != nil {
			return vm.Fault(ErrInvalidArgument, "parameter given is neither a key nor a hash", err)
		}
		h = k.ScriptHash()
	default:
		return Fault(ErrInvalidArgument, "parameter given is neither a key nor a hash")
	}
	if ic.tx != nil && len(ic.tx.Signers) == 0 {
		// Only a test run's made-up container (RPC invokecontainedscript)
		// has no signer; neo-go FAULTs there where the reference's answer
		// would be false, and a test run answers as neo-go.
		return Fault(ErrNotAllowed, "failed to check witness: no valid signers")
	}
	ok, err := ic.CheckWitness(h)
	if err != nil {
		return err
	}
	ic.push(stackitem.Bool(ok))
	return nil
}

// CheckWitness reports whether account h witnessed the current call (the
// reference CheckWitnessInternal): the calling contract always does; for a
// transaction, h's signer rules (scopes, then witness rules) decide; for a
// block, h must be the NextConsensus of the previous block.
func (ic *Context) CheckWitness(h util.Uint160) (bool, error) {
	if c, ok := ic.CallingScriptHash(); ok && c == h {
		return true, nil
	}
	if ic.tx != nil {
		signers, err := ic.witnessSigners()
		if err != nil {
			return false, err
		}
		for i := range signers {
			if signers[i].Account == h {
				return ic.signerAllows(&signers[i])
			}
		}
		return false, nil
	}
	if ic.cfg.Container == nil {
		return false, nil
	}
	if err := ic.checkFlags(callflag.ReadStates); err != nil {
		return false, err
	}
	return ic.containerVerifies(h)
}

// witnessSigners are the transaction's signers, or those of the request an
// OracleResponse answers.
func (ic *Context) witnessSigners() ([]transaction.Signer, error) {
	attrs := ic.tx.GetAttributes(transaction.AttrOracleResponse)
	if len(attrs) == 0 {
		return ic.tx.Signers, nil
	}
	resp, ok := attrs[0].Value.(*transaction.OracleResponse)
	if !ok || ic.cfg.OracleRequestSigners == nil {
		return nil, fmt.Errorf("%w: oracle request signers unavailable", ErrNotAllowed)
	}
	s, err := ic.cfg.OracleRequestSigners(ic.dao, resp.ID)
	if err != nil {
		return nil, fmt.Errorf("interop: oracle request %d: %w", resp.ID, err)
	}
	return s, nil
}

// containerVerifies is GetScriptHashesForVerifying of a block container.
func (ic *Context) containerVerifies(h util.Uint160) (bool, error) {
	b, ok := ic.cfg.Container.(*block.Block)
	if !ok {
		return false, nil
	}
	if b.PrevHash.IsZero() {
		return scripts.ScriptHash(b.Witness.VerificationScript) == h, nil
	}
	prev, err := ic.dao.GetTrimmedBlock(b.PrevHash)
	if err != nil {
		return false, fmt.Errorf("interop: previous block: %w", err)
	}
	return prev.NextConsensus == h, nil
}

// signerAllows applies the signer's rules in the reference order: Global,
// CalledByEntry, each allowed contract, each allowed group, then the
// witness rules; the first matching rule decides, no match denies.
func (ic *Context) signerAllows(s *transaction.Signer) (bool, error) {
	if s.Scopes == transaction.Global {
		return true, nil
	}
	if s.Scopes&transaction.CalledByEntry != 0 && ic.calledByEntry() {
		return true, nil
	}
	if s.Scopes&transaction.CustomContracts != 0 {
		cur := ic.CurrentScriptHash()
		for _, h := range s.AllowedContracts {
			if h == cur {
				return true, nil
			}
		}
	}
	if s.Scopes&transaction.CustomGroups != 0 {
		for _, g := range s.AllowedGroups {
			ok, err := ic.matchGroup(g, ic.CurrentScriptHash(), true)
			if err != nil || ok {
				return ok, err
			}
		}
	}
	if s.Scopes&transaction.WitnessRules != 0 {
		for i := range s.Rules {
			ok, err := ic.MatchCondition(&s.Rules[i].Condition)
			if err != nil {
				return false, err
			}
			if ok {
				return s.Rules[i].Action == transaction.WitnessAllow, nil
			}
		}
	}
	return false, nil
}

// calledByEntry: the current context is the entry or was called by it.
func (ic *Context) calledByEntry() bool {
	st := ic.current()
	if st.Calling == nil {
		return true
	}
	return StateOf(st.Calling).Calling == nil
}

// matchGroup reports whether contract h's manifest has group g (after
// checking ReadStates, as the reference does).
func (ic *Context) matchGroup(g transaction.ECPoint, h util.Uint160, have bool) (bool, error) {
	if err := ic.checkFlags(callflag.ReadStates); err != nil {
		return false, err
	}
	if !have {
		return false, nil
	}
	c, err := ic.dao.GetContract(h)
	if err != nil {
		if isNotFound(err) {
			return false, nil
		}
		return false, err
	}
	for i := range c.Manifest.Groups {
		if pk := c.Manifest.Groups[i].PublicKey; pk != nil && pk.Compressed() == g {
			return true, nil
		}
	}
	return false, nil
}

// MatchCondition evaluates a witness condition in the current context (the
// reference WitnessCondition.Match).
func (ic *Context) MatchCondition(c *transaction.WitnessCondition) (bool, error) {
	switch c.Type {
	case transaction.ConditionBoolean:
		return c.Bool, nil
	case transaction.ConditionNot:
		if len(c.Expressions) != 1 {
			return false, fmt.Errorf("%w: Not with %d operands", ErrInvalidArgument, len(c.Expressions))
		}
		ok, err := ic.MatchCondition(&c.Expressions[0])
		return !ok, err
	case transaction.ConditionAnd, transaction.ConditionOr:
		want := c.Type == transaction.ConditionOr
		for i := range c.Expressions {
			ok, err := ic.MatchCondition(&c.Expressions[i])
			if err != nil || ok == want {
				return ok, err
			}
		}
		return !want, nil
	case transaction.ConditionScriptHash:
		return ic.CurrentScriptHash() == c.Hash, nil
	case transaction.ConditionGroup:
		return ic.matchGroup(c.Group, ic.CurrentScriptHash(), true)
	case transaction.ConditionCalledByEntry:
		return ic.calledByEntry(), nil
	case transaction.ConditionCalledByContract:
		h, ok := ic.CallingScriptHash()
		return ok && h == c.Hash, nil
	case transaction.ConditionCalledByGroup:
		h, ok := ic.CallingScriptHash()
		return ic.matchGroup(c.Group, h, ok)
	}
	return false, fmt.Errorf("%w: condition type %d", ErrInvalidArgument, c.Type)
}
