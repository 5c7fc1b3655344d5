package payload

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// InvP2PNotaryRequest is the inventory type (and command) of a
// P2PNotaryRequest; it is only valid on networks with P2PSigExtensions.
const InvP2PNotaryRequest InventoryType = 0x50

// ValidWith reports whether t is a known inventory type given whether the
// P2PSigExtensions are enabled (they add InvP2PNotaryRequest).
func (t InventoryType) ValidWith(p2pSigExtensions bool) bool {
	return t.Valid() || (p2pSigExtensions && t == InvP2PNotaryRequest)
}

// ErrInvalidNotaryRequest is returned for a notary request whose main and
// fallback transactions do not follow the reference's shape rules.
var ErrInvalidNotaryRequest = errors.New("payload: invalid notary request")

// dummyNotarySigPrefix starts the fallback's placeholder notary witness:
// PUSHDATA1 followed by the 64-byte signature length.
var dummyNotarySigPrefix = []byte{0x0c, 64}

// P2PNotaryRequest is the payload of the P2PNotaryRequest message: a main
// transaction awaiting signatures from NKeys parties, the fallback
// transaction that replaces it if it is not completed, and the witness of
// the fallback's second signer (the request sender) over the payload.
//
//	main transaction | fallback transaction | witness
//
// The hash is the SHA-256 of the two transactions' encodings (the witness
// is excluded); it is computed on decode and cached, call InvalidateCache
// after changing a field.
type P2PNotaryRequest struct {
	MainTransaction     *transaction.Transaction
	FallbackTransaction *transaction.Transaction
	Witness             transaction.Witness

	hash   util.Uint256
	hashed bool
}

// NewP2PNotaryRequestFromBytes decodes a request that must fill b exactly.
func NewP2PNotaryRequestFromBytes(b []byte) (*P2PNotaryRequest, error) {
	p := new(P2PNotaryRequest)
	r := io.NewBinReaderFromBuf(b)
	p.DecodeBinary(r)
	if r.Err != nil {
		return nil, r.Err
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the notary request", transaction.ErrTrailingData, r.Len())
	}
	return p, nil
}

// EncodeHashable writes the hashed part: both transactions.
func (p *P2PNotaryRequest) EncodeHashable(w *io.BinWriter) {
	p.MainTransaction.EncodeBinary(w)
	p.FallbackTransaction.EncodeBinary(w)
}

// EncodeBinary writes the payload.
func (p *P2PNotaryRequest) EncodeBinary(w *io.BinWriter) {
	p.EncodeHashable(w)
	p.Witness.EncodeBinary(w)
}

// DecodeBinary reads the payload, checks the shape rules (see Check) and
// caches the hash. Each transaction and the witness are bounded by their
// own decoders' limits.
func (p *P2PNotaryRequest) DecodeBinary(r *io.BinReader) {
	p.hashed = false
	p.MainTransaction = new(transaction.Transaction)
	p.FallbackTransaction = new(transaction.Transaction)
	p.MainTransaction.DecodeBinary(r)
	p.FallbackTransaction.DecodeBinary(r)
	if r.Err != nil {
		return
	}
	if err := p.Check(); err != nil {
		r.Err = err
		return
	}
	p.Witness.DecodeBinary(r)
	if r.Err == nil {
		p.Hash()
	}
}

// Bytes returns the encoded payload.
func (p *P2PNotaryRequest) Bytes() ([]byte, error) {
	w := io.NewBufBinWriter()
	p.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return nil, fmt.Errorf("encode notary request: %w", w.Err)
	}
	return w.Bytes(), nil
}

// Hash returns the SHA-256 of both transactions' encodings (cached).
func (p *P2PNotaryRequest) Hash() util.Uint256 {
	if !p.hashed {
		w := io.NewBufBinWriter()
		p.EncodeHashable(w.BinWriter)
		p.hash = hash.Sha256(w.Bytes())
		p.hashed = true
	}
	return p.hash
}

// SignData is what the payload's witness signs: the network magic (u32
// LE) followed by Hash, as for transactions (keys.PrivateKey.Sign hashes
// it once more).
func (p *P2PNotaryRequest) SignData(magic uint32) []byte {
	h := p.Hash()
	return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(h)), magic), h[:]...)
}

// InvalidateCache drops the cached hash after a field changed.
func (p *P2PNotaryRequest) InvalidateCache() { p.hashed = false }

// Size returns the encoded size.
func (p *P2PNotaryRequest) Size() int {
	return p.MainTransaction.Size() + p.FallbackTransaction.Size() + p.Witness.Size()
}

// Check applies the reference's stateless rules, also applied on decode:
// the main transaction is NotaryAssisted with NKeys > 0; the fallback has
// two signers, a first witness that is a bare 64-byte signature push (the
// notary's placeholder) without verification script, a NotValidBefore
// attribute, exactly one Conflicts attribute naming the main transaction,
// a NotaryAssisted attribute with NKeys = 0, and the main transaction's
// ValidUntilBlock.
func (p *P2PNotaryRequest) Check() error {
	main, fb := p.MainTransaction, p.FallbackTransaction
	if main == nil || fb == nil {
		return fmt.Errorf("%w: missing transaction", ErrInvalidNotaryRequest)
	}
	na := main.GetAttributes(transaction.AttrNotaryAssisted)
	if len(na) == 0 {
		return fmt.Errorf("%w: main transaction has no NotaryAssisted attribute", ErrInvalidNotaryRequest)
	}
	if na[0].Value.(*transaction.NotaryAssisted).NKeys == 0 {
		return fmt.Errorf("%w: main transaction has NKeys = 0", ErrInvalidNotaryRequest)
	}
	if len(fb.Signers) != 2 {
		return fmt.Errorf("%w: fallback has %d signers, want 2", ErrInvalidNotaryRequest, len(fb.Signers))
	}
	if len(fb.Witnesses) == 0 {
		return fmt.Errorf("%w: fallback has no witnesses", ErrInvalidNotaryRequest)
	}
	if w := fb.Witnesses[0]; len(w.InvocationScript) != 2+64 || len(w.VerificationScript) != 0 ||
		!bytes.HasPrefix(w.InvocationScript, dummyNotarySigPrefix) {
		return fmt.Errorf("%w: fallback's notary placeholder witness is malformed", ErrInvalidNotaryRequest)
	}
	if !fb.HasAttribute(transaction.AttrNotValidBefore) {
		return fmt.Errorf("%w: fallback has no NotValidBefore attribute", ErrInvalidNotaryRequest)
	}
	conflicts := fb.GetAttributes(transaction.AttrConflicts)
	if len(conflicts) != 1 {
		return fmt.Errorf("%w: fallback has %d Conflicts attributes, want 1", ErrInvalidNotaryRequest, len(conflicts))
	}
	if h := conflicts[0].Value.(*transaction.Conflicts).Hash; h != main.Hash() {
		return fmt.Errorf("%w: fallback conflicts with %s, not with the main transaction %s",
			ErrInvalidNotaryRequest, h, main.Hash())
	}
	fna := fb.GetAttributes(transaction.AttrNotaryAssisted)
	if len(fna) == 0 {
		return fmt.Errorf("%w: fallback has no NotaryAssisted attribute", ErrInvalidNotaryRequest)
	}
	if n := fna[0].Value.(*transaction.NotaryAssisted).NKeys; n != 0 {
		return fmt.Errorf("%w: fallback has NKeys = %d, want 0", ErrInvalidNotaryRequest, n)
	}
	if main.ValidUntilBlock != fb.ValidUntilBlock {
		return fmt.Errorf("%w: ValidUntilBlock differs: main %d, fallback %d",
			ErrInvalidNotaryRequest, main.ValidUntilBlock, fb.ValidUntilBlock)
	}
	return nil
}

// Copy returns a deep copy (with no cached values).
func (p *P2PNotaryRequest) Copy() *P2PNotaryRequest {
	return &P2PNotaryRequest{
		MainTransaction:     p.MainTransaction.Copy(),
		FallbackTransaction: p.FallbackTransaction.Copy(),
		Witness:             p.Witness.Copy(),
	}
}
