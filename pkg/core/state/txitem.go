package state

import (
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// TransactionToStackItem is the reference Transaction.ToStackItem: Array
// [hash, version, nonce, sender, system fee, network fee, valid until
// block, script]. The transaction must have a signer (the sender).
func TransactionToStackItem(tx *transaction.Transaction) stackitem.Item {
	var sender []byte
	if len(tx.Signers) > 0 {
		sender = tx.Signers[0].Account.BytesLE()
	}
	h := tx.Hash()
	return stackitem.NewArray([]stackitem.Item{
		stackitem.ByteString(h.BytesLE()),
		stackitem.NewInt(int64(tx.Version)),
		stackitem.NewInt(int64(tx.Nonce)),
		stackitem.ByteString(sender),
		stackitem.NewInt(tx.SystemFee),
		stackitem.NewInt(tx.NetworkFee),
		stackitem.NewInt(int64(tx.ValidUntilBlock)),
		stackitem.ByteString(tx.Script),
	})
}

// SignerToStackItem is the reference Signer.ToStackItem: Array [account,
// scopes, allowed contracts, allowed groups, rules]; the lists are empty
// arrays when their scope flag is not set.
func SignerToStackItem(s *transaction.Signer) stackitem.Item {
	contracts := make([]stackitem.Item, 0, len(s.AllowedContracts))
	groups := make([]stackitem.Item, 0, len(s.AllowedGroups))
	rules := make([]stackitem.Item, 0, len(s.Rules))
	if s.Scopes&transaction.CustomContracts != 0 {
		for _, h := range s.AllowedContracts {
			contracts = append(contracts, stackitem.ByteString(h.BytesLE()))
		}
	}
	if s.Scopes&transaction.CustomGroups != 0 {
		for _, g := range s.AllowedGroups {
			groups = append(groups, stackitem.ByteString(g[:]))
		}
	}
	if s.Scopes&transaction.WitnessRules != 0 {
		for i := range s.Rules {
			rules = append(rules, RuleToStackItem(&s.Rules[i]))
		}
	}
	return stackitem.NewArray([]stackitem.Item{
		stackitem.ByteString(s.Account.BytesLE()),
		stackitem.NewInt(int64(s.Scopes)),
		stackitem.NewArray(contracts),
		stackitem.NewArray(groups),
		stackitem.NewArray(rules),
	})
}

// RuleToStackItem is the reference WitnessRule.ToStackItem: Array [action,
// condition].
func RuleToStackItem(r *transaction.WitnessRule) stackitem.Item {
	return stackitem.NewArray([]stackitem.Item{
		stackitem.NewInt(int64(r.Action)),
		ConditionToStackItem(&r.Condition),
	})
}

// ConditionToStackItem is the reference WitnessCondition.ToStackItem: Array
// [type, operand...] where the operand is the boolean, the hash (20 bytes
// LE), the group key (33 bytes), the sub-condition (Not) or an array of
// sub-conditions (And, Or); CalledByEntry has none.
func ConditionToStackItem(c *transaction.WitnessCondition) stackitem.Item {
	items := []stackitem.Item{stackitem.NewInt(int64(c.Type))}
	switch c.Type {
	case transaction.ConditionBoolean:
		items = append(items, stackitem.Bool(c.Bool))
	case transaction.ConditionNot:
		if len(c.Expressions) > 0 {
			items = append(items, ConditionToStackItem(&c.Expressions[0]))
		}
	case transaction.ConditionAnd, transaction.ConditionOr:
		subs := make([]stackitem.Item, len(c.Expressions))
		for i := range c.Expressions {
			subs[i] = ConditionToStackItem(&c.Expressions[i])
		}
		items = append(items, stackitem.NewArray(subs))
	case transaction.ConditionScriptHash, transaction.ConditionCalledByContract:
		items = append(items, stackitem.ByteString(c.Hash.BytesLE()))
	case transaction.ConditionGroup, transaction.ConditionCalledByGroup:
		items = append(items, stackitem.ByteString(c.Group[:]))
	}
	return stackitem.NewArray(items)
}
