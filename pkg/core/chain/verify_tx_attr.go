package chain

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
)

// Native contract hashes: the hash of a native is that of the zero sender,
// checksum 0 and its name.
var (
	oracleHash = smartcontract.CreateContractHash(util.Uint160{}, 0, "OracleContract")
	notaryHash = smartcontract.CreateContractHash(util.Uint160{}, 0, "Notary")
)

// oracleResponseScript is the only script an OracleResponse transaction
// may carry: a dynamic call of OracleContract.finish (the reference's
// OracleResponse.FixedScript).
var oracleResponseScript = func() []byte {
	s, err := emit.NewBuilder().AppCall(oracleHash, "finish", byte(callflag.All)).Script()
	if err != nil {
		panic(err)
	}
	return s
}()

// verifyAttributes checks every attribute as the reference's attribute
// Verify methods do and returns their network fees (Policy attribute fee;
// Conflicts × signers, NotaryAssisted × (keys + 1)).
func (tc *txCheck) verifyAttributes(tx *transaction.Transaction) (int64, error) {
	var total int64
	for i := range tx.Attributes {
		a := &tx.Attributes[i]
		if a.Type == transaction.AttrNotaryAssisted && !tc.c.proto.Enabled(protocol.HFEchidna, tc.height) {
			return 0, fmt.Errorf("%w: NotaryAssisted before Echidna", ErrTxInvalidAttribute)
		}
		if err := tc.verifyAttribute(tx, a); err != nil {
			return 0, fmt.Errorf("%w: %s: %w", ErrTxInvalidAttribute, a.Type, err)
		}
		fee, err := tc.attributeFee(tx, a)
		if err != nil {
			return 0, err
		}
		total += fee
	}
	return total, nil
}

// attributeFee is the Policy fee of one attribute of tx (Conflicts ×
// signers, NotaryAssisted × (keys + 1)).
func (tc *txCheck) attributeFee(tx *transaction.Transaction, a *transaction.Attribute) (int64, error) {
	base, err := tc.n.AttributeFee(tc.d, a.Type)
	if err != nil {
		return 0, fmt.Errorf("attribute fee: %w", err)
	}
	switch v := a.Value.(type) {
	case *transaction.Conflicts:
		base *= int64(len(tx.Signers))
	case *transaction.NotaryAssisted:
		base *= int64(v.NKeys) + 1
	}
	return base, nil
}

func (tc *txCheck) verifyAttribute(tx *transaction.Transaction, a *transaction.Attribute) error {
	switch v := a.Value.(type) {
	case *transaction.OracleResponse:
		return tc.verifyOracleResponse(tx, v)
	case *transaction.NotValidBefore:
		if tc.height < v.Height {
			return fmt.Errorf("not valid before %d, height %d", v.Height, tc.height)
		}
	case *transaction.Conflicts:
		if _, ok := tc.seen[v.Hash]; ok {
			return fmt.Errorf("conflicting transaction %s is earlier in this block", v.Hash.String())
		}
		if errors.Is(tc.d.HasTransaction(v.Hash, nil, 0, 0), dao.ErrAlreadyExists) {
			return fmt.Errorf("conflicting transaction %s is on chain", v.Hash.String())
		}
	case *transaction.NotaryAssisted:
		if tx.Sender() == notaryHash {
			if len(tx.Signers) != 2 {
				return fmt.Errorf("Notary pays: %d signers, expected 2", len(tx.Signers))
			}
		} else if !tx.HasSigner(notaryHash) {
			return errors.New("not signed by the Notary contract")
		}
	default:
		if a.Type == transaction.AttrHighPriority {
			committee, err := tc.n.CommitteeAddress(tc.d)
			if err != nil {
				return err
			}
			if !tx.HasSigner(committee) {
				return fmt.Errorf("committee %s is not a signer", committee.String())
			}
		}
	}
	return nil
}

// verifyOracleResponse is OracleResponse.Verify: signers without scope,
// the fixed script, a pending request whose GasForResponse the fees equal
// exactly, and the BFT address of the oracle nodes designated for the next
// block among the signers.
func (tc *txCheck) verifyOracleResponse(tx *transaction.Transaction, r *transaction.OracleResponse) error {
	for _, s := range tx.Signers {
		if s.Scopes != transaction.None {
			return fmt.Errorf("signer %s has scope %s", s.Account.String(), s.Scopes)
		}
	}
	if !bytes.Equal(tx.Script, oracleResponseScript) {
		return errors.New("script is not the oracle response script")
	}
	req, err := tc.n.OracleRequest(tc.d, r.ID)
	if err != nil {
		return err
	}
	if req == nil {
		return fmt.Errorf("no oracle request %d", r.ID)
	}
	if tx.NetworkFee+tx.SystemFee != req.GasForResponse {
		return fmt.Errorf("fees %d, the request pays %d", tx.NetworkFee+tx.SystemFee, req.GasForResponse)
	}
	nodes, err := tc.n.OracleNodes(tc.d, tc.height+1)
	if err != nil {
		return err
	}
	if len(nodes) == 0 {
		return errors.New("no oracle nodes designated")
	}
	s, err := scripts.DefaultMultiSigContract(nodes)
	if err != nil {
		return err
	}
	if oracles := scripts.ScriptHash(s); !tx.HasSigner(oracles) {
		return fmt.Errorf("oracle nodes' account %s is not a signer", oracles.String())
	}
	return nil
}
