package oracle

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// OracleHash is the OracleContract's hash, the response transaction's
// first signer.
var OracleHash = smartcontract.CreateContractHash(util.Uint160{}, 0, native.OracleName)

// responseScript is the only script a response transaction may carry: a
// call of OracleContract.finish with every call flag.
var responseScript = func() []byte {
	s, err := emit.NewBuilder().AppCall(OracleHash, "finish", byte(callflag.All)).Script()
	if err != nil {
		panic(err)
	}
	return s
}()

// ecdsaVerifyPrice is the price units of one signature check.
const ecdsaVerifyPrice = 1 << 15

// sigInvocationSize is the size of one signature push (PUSHDATA1 64 sig).
const sigInvocationSize = 66

// oracleAccount is the oracle nodes' m-of-n account.
type oracleAccount struct {
	nodes  keys.PublicKeys // sorted as in the script
	script []byte
	hash   util.Uint160
	m      int
}

func newOracleAccount(nodes keys.PublicKeys) (*oracleAccount, error) {
	s, err := scripts.DefaultMultiSigContract(nodes)
	if err != nil {
		return nil, fmt.Errorf("oracle: multisig of %d oracle nodes: %w", len(nodes), err)
	}
	sorted := nodes.Copy()
	sorted.Sort()
	return &oracleAccount{nodes: sorted, script: s, hash: scripts.ScriptHash(s),
		m: scripts.BFTThreshold(len(nodes))}, nil
}

// buildResponseTx makes the unsigned response transaction of resp as the
// reference does: nonce = request id, the fixed script, the response
// attribute, OracleContract and the oracle account as scope-less signers,
// the network fee of the size, the contract's verify and the multisig
// witness, and the rest of gasForResponse as system fee. When the fees
// do not fit, the response becomes InsufficientFunds without a result
// (resp is changed).
func (s *Service) buildResponseTx(p chain.OracleParams, acc *oracleAccount, gasForResponse int64, vub uint32,
	resp *transaction.OracleResponse) (*transaction.Transaction, error) {
	tx := &transaction.Transaction{
		Nonce:           uint32(resp.ID),
		ValidUntilBlock: vub,
		Script:          responseScript,
		Attributes:      []transaction.Attribute{{Type: transaction.AttrOracleResponse, Value: resp}},
		Signers: []transaction.Signer{
			{Account: OracleHash, Scopes: transaction.None},
			{Account: acc.hash, Scopes: transaction.None},
		},
		Witnesses: []transaction.Witness{{}},
	}
	size := tx.Size() // with the contract's empty witness only
	tx.Witnesses = append(tx.Witnesses, transaction.Witness{VerificationScript: acc.script})
	tx.InvalidateCache()

	verifyGas, err := s.cfg.Ledger.OracleVerifyGas(tx, p.BaseExecFee)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	tx.NetworkFee = verifyGas + multisigFee(p.BaseExecFee, acc.m, len(acc.nodes))
	invSize := acc.m * sigInvocationSize
	size += io.GetVarSize(invSize) + invSize + io.GetVarSize(len(acc.script)) + len(acc.script)

	if tx.NetworkFee+int64(size)*p.FeePerByte > gasForResponse {
		before := attrSize(tx.Attributes)
		resp.Code = transaction.OracleInsufficientFunds
		resp.Result = nil
		size += attrSize(tx.Attributes) - before
	}
	tx.NetworkFee += int64(size) * p.FeePerByte
	tx.SystemFee = gasForResponse - tx.NetworkFee
	tx.InvalidateCache()
	return tx, nil
}

// multisigFee is the reference's network fee of an m-of-n multisig
// witness with the picoGAS base fee, in datoshi (rounded up).
func multisigFee(basePico int64, m, n int) int64 {
	units := int64(m+n)*vm.OpcodePrice(opcode.PUSHDATA1) + pushPrice(m) + pushPrice(n) +
		int64(n)*ecdsaVerifyPrice
	pico := units * basePico
	return (pico + vm.FeeFactor - 1) / vm.FeeFactor
}

// pushPrice is the price of the instruction pushing n.
func pushPrice(n int) int64 {
	s, _ := emit.NewBuilder().Int(int64(n)).Script() // an int64 always encodes
	return vm.OpcodePrice(opcode.Opcode(s[0]))
}

// attrSize is the serialized size of the attribute list.
func attrSize(attrs []transaction.Attribute) int {
	t := transaction.Transaction{Attributes: attrs}
	empty := transaction.Transaction{}
	return t.Size() - empty.Size() + 1 // both count a 1-byte empty list
}

// finalize returns a copy of tx whose multisig witness holds the first m
// valid signatures in key order, or false if there are fewer.
func finalize(acc *oracleAccount, tx *transaction.Transaction, sigs map[string]*txSig) (*transaction.Transaction, bool) {
	if tx == nil || acc == nil {
		return nil, false
	}
	b := emit.NewBuilder()
	n := 0
	for _, k := range acc.nodes {
		sig, ok := sigs[string(k.Bytes())]
		if !ok || !sig.ok {
			continue
		}
		b.Bytes(sig.sig)
		if n++; n == acc.m {
			break
		}
	}
	if n != acc.m {
		return nil, false
	}
	inv, err := b.Script()
	if err != nil {
		return nil, false
	}
	out := *tx
	out.Witnesses = []transaction.Witness{{}, {InvocationScript: inv, VerificationScript: acc.script}}
	out.InvalidateCache()
	out.Hash() // cached now: the copy is shared read-only from here on
	_ = out.Size()
	return &out, true
}
