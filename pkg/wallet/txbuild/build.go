package txbuild

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/wallet"
)

// Errors of the builder.
var (
	// ErrNoSigners is a transaction without signers.
	ErrNoSigners = errors.New("txbuild: no signers")
	// ErrNotEnoughSignatures is a multisig witness that lacks keys.
	ErrNotEnoughSignatures = errors.New("txbuild: not enough signatures")
	// ErrCannotSign is an account without a usable key or contract.
	ErrCannotSign = errors.New("txbuild: account cannot sign")
	// ErrBadFee is a negative extra fee.
	ErrBadFee = errors.New("txbuild: negative fee")
)

// Node is what the builder asks of an RPC node.
type Node interface {
	// GetBlockCount returns the chain height + 1.
	GetBlockCount(ctx context.Context) (uint32, error)
	// SystemFee test-runs script with signers and returns the GAS it
	// consumed; a run that does not HALT is an error.
	SystemFee(ctx context.Context, script []byte, signers []transaction.Signer) (int64, error)
	// CalculateNetworkFee returns the network fee of tx, whose witnesses
	// carry the verification scripts only.
	CalculateNetworkFee(ctx context.Context, tx *transaction.Transaction) (int64, error)
}

// Signer is a transaction signer and the wallet account that witnesses it.
type Signer struct {
	transaction.Signer
	// WalletAccount holds the verification contract and, once decrypted,
	// the key.
	WalletAccount *wallet.Account
	// Keys are further decrypted keys of a multisig account's members
	// (other accounts of the wallet).
	Keys []*keys.PrivateKey
}

// Builder makes unsigned transactions.
type Builder struct {
	Node Node
	// MaxValidUntilBlockIncrement is the protocol's limit (getversion).
	MaxValidUntilBlockIncrement uint32
}

// Fees are the amounts added on top of what the node computes.
type Fees struct {
	ExtraSystem  int64
	ExtraNetwork int64
	// TestScript, when set, is run instead of the transaction's script to
	// measure the system fee (a script whose own test run cannot succeed,
	// such as registerCandidate whose price exceeds the test GAS limit).
	TestScript []byte
}

// Make returns an unsigned transaction of script for the signers (the
// first pays): fees as the package doc says, witnesses holding the
// verification scripts.
func (b *Builder) Make(ctx context.Context, script []byte, signers []Signer, fees Fees) (*transaction.Transaction, error) {
	if len(signers) == 0 {
		return nil, ErrNoSigners
	}
	if fees.ExtraSystem < 0 || fees.ExtraNetwork < 0 {
		return nil, ErrBadFee
	}
	txSigners := make([]transaction.Signer, len(signers))
	for i := range signers {
		txSigners[i] = signers[i].Signer
	}
	test := script
	if fees.TestScript != nil {
		test = fees.TestScript
	}
	sys, err := b.Node.SystemFee(ctx, test, txSigners)
	if err != nil {
		return nil, err
	}
	count, err := b.Node.GetBlockCount(ctx)
	if err != nil {
		return nil, fmt.Errorf("can't get block count: %w", err)
	}
	if count == 0 {
		return nil, errors.New("txbuild: node has no blocks")
	}
	nonce, err := randomNonce()
	if err != nil {
		return nil, err
	}
	tx := &transaction.Transaction{
		Nonce:           nonce,
		SystemFee:       sys + fees.ExtraSystem,
		ValidUntilBlock: count - 1 + b.MaxValidUntilBlockIncrement,
		Signers:         txSigners,
		Script:          script,
		Witnesses:       make([]transaction.Witness, len(signers)),
	}
	for i, s := range signers {
		if s.WalletAccount == nil || s.WalletAccount.Contract == nil {
			return nil, fmt.Errorf("%w: signer %d has no contract", ErrCannotSign, i)
		}
		if !s.WalletAccount.Contract.Deployed {
			tx.Witnesses[i].VerificationScript = s.WalletAccount.Contract.Script
		}
	}
	net, err := b.Node.CalculateNetworkFee(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("calculating network fee: %w", err)
	}
	tx.NetworkFee = net + fees.ExtraNetwork
	tx.InvalidateCache()
	return tx, nil
}

func randomNonce() (uint32, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("txbuild: nonce: %w", err)
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

// Sign sets the witness of every signer of tx (in signer order) from the
// signers' keys for network magic.
func Sign(tx *transaction.Transaction, magic uint32, signers []Signer) error {
	if len(signers) != len(tx.Signers) {
		return fmt.Errorf("txbuild: %d signers for %d transaction signers", len(signers), len(tx.Signers))
	}
	data := tx.SignData(magic)
	ws := make([]transaction.Witness, len(signers))
	for i, s := range signers {
		if s.WalletAccount == nil || s.WalletAccount.Contract == nil || s.WalletAccount.Address == "" {
			return fmt.Errorf("%w: signer %d has no contract", ErrCannotSign, i)
		}
		inv, err := invocation(s, data)
		if err != nil {
			return fmt.Errorf("signer %d (%s): %w", i, s.WalletAccount.Address, err)
		}
		ws[i].InvocationScript = inv
		if !s.WalletAccount.Contract.Deployed {
			ws[i].VerificationScript = s.WalletAccount.Contract.Script
		}
	}
	tx.Witnesses = ws
	tx.InvalidateCache()
	return nil
}

// invocation returns the invocation script of one signer.
func invocation(s Signer, data []byte) ([]byte, error) {
	c := s.WalletAccount.Contract
	if c.Deployed {
		if len(c.Parameters) != 0 {
			return nil, fmt.Errorf("%w: deployed contract with parameters", ErrCannotSign)
		}
		return []byte{}, nil
	}
	avail := s.Keys
	if k := s.WalletAccount.PrivateKey(); k != nil && s.WalletAccount.CanSign() {
		avail = append([]*keys.PrivateKey{k}, avail...)
	}
	if pub, ok := scripts.ParseSignatureContract(c.Script); ok {
		for _, k := range avail {
			if string(k.PublicKey().Bytes()) == string(pub) {
				return pushSigs([][]byte{k.Sign(data)})
			}
		}
		return nil, fmt.Errorf("%w: no key (need to decrypt?)", ErrCannotSign)
	}
	m, pubs, ok := scripts.ParseMultiSigContract(c.Script)
	if !ok {
		return nil, fmt.Errorf("%w: not a standard contract", ErrCannotSign)
	}
	var sigs [][]byte
	for _, p := range pubs {
		if len(sigs) == m {
			break
		}
		for _, k := range avail {
			if k.PublicKey().Equal(p) {
				sigs = append(sigs, k.Sign(data))
				break
			}
		}
	}
	if len(sigs) < m {
		return nil, fmt.Errorf("%w: %d of %d (save the context with --out and use `wallet sign`)",
			ErrNotEnoughSignatures, len(sigs), m)
	}
	return pushSigs(sigs)
}

func pushSigs(sigs [][]byte) ([]byte, error) {
	b := emit.NewBuilder()
	for _, s := range sigs {
		b.Bytes(s)
	}
	return b.Script()
}

// AccountSigner returns the signer of acc with scope.
func AccountSigner(acc *wallet.Account, scope transaction.WitnessScope) (Signer, error) {
	h, err := acc.ScriptHash()
	if err != nil {
		return Signer{}, err
	}
	return Signer{Signer: transaction.Signer{Account: h, Scopes: scope}, WalletAccount: acc}, nil
}
