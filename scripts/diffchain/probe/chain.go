package probe

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/contract"
	icrypto "github.com/nspcc-dev/neo-go/pkg/interop/crypto"
	"github.com/nspcc-dev/neo-go/pkg/interop/iterator"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/crypto"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/gas"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/ledger"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/management"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/neo"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/notary"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/oracle"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/policy"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/roles"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

// Ledger returns what LedgerContract says about the previous block and
// this transaction.
func Ledger() []any {
	idx := ledger.CurrentIndex()
	b := ledger.GetBlock(idx)
	tx := runtime.GetScriptContainer()
	first := ledger.GetTransactionFromBlock(idx, 0)
	var firstHash any
	if first != nil {
		firstHash = first.Hash
	}
	return []any{idx, ledger.CurrentHash(), b.Hash, b.Version, b.PrevHash, b.MerkleRoot, b.Timestamp,
		b.Nonce, b.Index, b.PrimaryIndex, b.NextConsensus, b.TransactionsLength,
		tx.Hash, tx.Nonce, tx.Sender, tx.SysFee, tx.NetFee, tx.ValidUntilBlock, tx.Script,
		ledger.GetTransaction(tx.Hash) == nil, firstHash,
		runtime.GetExecutingScriptHash(), runtime.GetCallingScriptHash(), runtime.GetEntryScriptHash()}
}

// Gov returns NEO, GAS, Policy, RoleManagement and Notary views of acc.
func Gov(acc interop.Hash160) []any {
	next := ledger.CurrentIndex() + 1
	return []any{neo.GetCommittee(), neo.GetCandidates(), neo.GetNextBlockValidators(),
		neo.GetGASPerBlock(), neo.GetRegisterPrice(), neo.UnclaimedGAS(acc, next), neo.GetAccountState(acc),
		neo.BalanceOf(acc), neo.TotalSupply(), gas.BalanceOf(acc), gas.TotalSupply(), neo.GetCommitteeAddress(),
		policy.GetFeePerByte(), policy.GetExecFeeFactor(), policy.GetStoragePrice(), policy.IsBlocked(acc),
		roles.GetDesignatedByRole(roles.StateValidator, uint32(next)), roles.GetDesignatedByRole(roles.Oracle, uint32(next)),
		notary.BalanceOf(acc), notary.ExpirationOf(acc), oracle.GetPrice()}
}

// Contracts returns ContractManagement's view of this contract and of the
// contract with id 1.
func Contracts() []any {
	self := management.GetContract(runtime.GetExecutingScriptHash())
	first := management.GetContractByID(1)
	return []any{self.ID, self.UpdateCounter, self.Hash, self.NEF, self.Manifest, first.Hash,
		management.HasMethod(self.Hash, "put", 2), management.HasMethod(self.Hash, "put", 3),
		management.GetMinimumDeploymentFee(), management.IsContract(first.Hash)}
}

// Accounts builds the standard and a 1-of-1 multisig account of pub.
func Accounts(pub interop.PublicKey) []any {
	return []any{contract.CreateStandardAccount(pub), contract.CreateMultisigAccount(1, []interop.PublicKey{pub})}
}

// OracleReq asks the Oracle for url; the answer (if a node ever gives one)
// goes to OracleCallback.
func OracleReq(url string) {
	oracle.Request(url, nil, "oracleCallback", []any{"ud", 7}, oracle.MinimumResponseGas)
}

// OracleCallback stores the Oracle's answer.
func OracleCallback(url string, data any, code int, result []byte) {
	storage.Put(storage.GetContext(), "oracle:"+url, result)
}

// ReadOnlyPut writes through a read-only storage context (it FAULTs).
func ReadOnlyPut() {
	storage.Put(storage.GetReadOnlyContext(), "ro", 1)
}

// Shift shifts by a run-time amount (SHL/SHR by 0 changed with Gorgon).
func Shift(n int) []any {
	a, b := 5, -1000
	return []any{a << n, b >> n}
}

// CheckSig runs System.Crypto.CheckSig (Gorgon rejects a signature of the
// wrong length).
func CheckSig(pub interop.PublicKey, sig interop.Signature) bool {
	return icrypto.CheckSig(pub, sig)
}

// Ed25519 calls CryptoLib.verifyWithEd25519 (Echidna).
func Ed25519(msg, pub, sig []byte) bool {
	return crypto.VerifyWithEd25519(msg, pub, sig)
}

// Blocked lists Policy's blocked accounts (an iterator of hashes).
func Blocked() []any {
	it := policy.GetBlockedAccounts()
	var out []any
	for iterator.Next(it) {
		out = append(out, iterator.Value(it))
	}
	return out
}

// PutQuiet stores v under k without a notification (values too large for
// one).
func PutQuiet(k, v []byte) {
	storage.Put(storage.GetContext(), k, v)
}
