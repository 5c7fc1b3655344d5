package native

import (
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Treasury is the Treasury native (Faun+): a committee-controlled account
// that accepts NEP-17 and NEP-11 payments.
type Treasury struct {
	md *ContractMD
	// NEO checks committee witnesses; set by NewGovernance.
	NEO *NEO
}

var _ Contract = (*Treasury)(nil)

func newTreasury() *Treasury {
	t := &Treasury{md: NewContractMD(TreasuryName, TreasuryID, protocol.HFFaun)}
	t.md.Standards = func(protocol.Hardfork) []string { return []string{"NEP-26", "NEP-27", "NEP-30"} }
	p := manifest.NewParameter
	h160, intT, anyT := smartcontract.Hash160Type, smartcontract.IntegerType, smartcontract.AnyType
	accept := func(*interop.Context, []stackitem.Item) (stackitem.Item, error) { return nil, nil }
	t.md.AddMethod(Method{Name: "verify", Return: smartcontract.BoolType, CPUFee: 1 << 5, Flags: callflag.ReadStates,
		Handler: t.verifyMethod})
	t.md.AddMethod(Method{Name: "onNEP11Payment", Return: smartcontract.VoidType, CPUFee: 1 << 5, Flags: callflag.None,
		Handler: accept, Params: []manifest.Parameter{p("from", h160), p("amount", intT),
			p("tokenId", smartcontract.ByteArrayType), p("data", anyT)}})
	t.md.AddMethod(Method{Name: "onNEP17Payment", Return: smartcontract.VoidType, CPUFee: 1 << 5, Flags: callflag.None,
		Handler: accept, Params: []manifest.Parameter{p("from", h160), p("amount", intT), p("data", anyT)}})
	t.md.Seal()
	return t
}

// Metadata implements Contract.
func (t *Treasury) Metadata() *ContractMD { return t.md }

// Initialize implements Contract (no storage).
func (t *Treasury) Initialize(*interop.Context, protocol.Hardfork) error { return nil }

// OnPersist implements Contract.
func (t *Treasury) OnPersist(*interop.Context) error { return nil }

// PostPersist implements Contract.
func (t *Treasury) PostPersist(*interop.Context) error { return nil }

func (t *Treasury) verifyMethod(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	ok, err := t.NEO.CheckCommittee(ic)
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(ok), nil
}
