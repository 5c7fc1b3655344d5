package consensus

import (
	"fmt"

	"github.com/nspcc-dev/dbft"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// nsPerMs converts the wire's millisecond timestamps to dBFT's nanoseconds.
const nsPerMs = 1_000_000

// PrepareRequest is the primary's block proposal.
//
//	u32 version | 32-byte previous hash | u64 timestamp (ms) | u64 nonce |
//	var-int n (≤ 65535) | n × 32-byte transaction hash (no duplicates) |
//	[32-byte state root after the previous block, StateRootInHeader only]
type PrepareRequest struct {
	Version     uint32
	PrevHash    util.Uint256
	TimestampMS uint64
	NonceValue  uint64
	Hashes      []util.Uint256
	// StateRootEnabled (neo-go's StateRootInHeader) adds StateRoot, the
	// state root after the previous block, at the end; set it before
	// decoding.
	StateRootEnabled bool
	StateRoot        util.Uint256
}

var _ dbft.PrepareRequest[util.Uint256] = (*PrepareRequest)(nil)

// Type implements Body.
func (*PrepareRequest) Type() MessageType { return PrepareRequestType }

// EncodeBinary implements io.Encodable.
func (p *PrepareRequest) EncodeBinary(w *io.BinWriter) {
	w.WriteU32LE(p.Version)
	w.WriteBytes(p.PrevHash[:])
	w.WriteU64LE(p.TimestampMS)
	w.WriteU64LE(p.NonceValue)
	writeHashes(w, p.Hashes)
	if p.StateRootEnabled {
		w.WriteBytes(p.StateRoot[:])
	}
}

// DecodeBinary implements io.Decodable; duplicate hashes are an error, as
// in the reference.
func (p *PrepareRequest) DecodeBinary(r *io.BinReader) {
	p.Version = r.ReadU32LE()
	r.ReadBytes(p.PrevHash[:])
	p.TimestampMS = r.ReadU64LE()
	p.NonceValue = r.ReadU64LE()
	p.Hashes = readHashes(r)
	if p.StateRootEnabled {
		r.ReadBytes(p.StateRoot[:])
	}
	if r.Err != nil {
		return
	}
	seen := make(map[util.Uint256]struct{}, len(p.Hashes))
	for _, h := range p.Hashes {
		if _, ok := seen[h]; ok {
			setErr(r, fmt.Errorf("%w: duplicate transaction hash %s", ErrInvalidMessage, h.StringLE()))
			return
		}
		seen[h] = struct{}{}
	}
}

// Timestamp implements dbft.PrepareRequest (nanoseconds).
func (p *PrepareRequest) Timestamp() uint64 { return p.TimestampMS * nsPerMs }

// Nonce implements dbft.PrepareRequest.
func (p *PrepareRequest) Nonce() uint64 { return p.NonceValue }

// TransactionHashes implements dbft.PrepareRequest. The slice is shared.
func (p *PrepareRequest) TransactionHashes() []util.Uint256 { return p.Hashes }

// PrepareResponse is a backup's acceptance of the proposal.
//
//	32-byte preparation hash (hash of the PrepareRequest payload)
type PrepareResponse struct {
	Preparation util.Uint256
}

var _ dbft.PrepareResponse[util.Uint256] = (*PrepareResponse)(nil)

// Type implements Body.
func (*PrepareResponse) Type() MessageType { return PrepareResponseType }

// EncodeBinary implements io.Encodable.
func (p *PrepareResponse) EncodeBinary(w *io.BinWriter) { w.WriteBytes(p.Preparation[:]) }

// DecodeBinary implements io.Decodable.
func (p *PrepareResponse) DecodeBinary(r *io.BinReader) { r.ReadBytes(p.Preparation[:]) }

// PreparationHash implements dbft.PrepareResponse.
func (p *PrepareResponse) PreparationHash() util.Uint256 { return p.Preparation }

// ChangeView asks to move to view ViewNumber+1.
//
//	u64 timestamp (ms) | u8 reason |
//	[reason TxRejectedByPolicy or TxInvalid: var-int n (≤ 65535) | n × 32-byte hash]
//
// The new view number is not on the wire: it is the header's view + 1; the
// service sets it when it wraps the message in a Payload.
type ChangeView struct {
	TimestampMS    uint64
	ChangeReason   dbft.ChangeViewReason
	RejectedHashes []util.Uint256

	newViewNumber byte
}

var _ dbft.ChangeView = (*ChangeView)(nil)

// Type implements Body.
func (*ChangeView) Type() MessageType { return ChangeViewType }

func hasRejected(r dbft.ChangeViewReason) bool {
	return r == dbft.CVTxRejectedByPolicy || r == dbft.CVTxInvalid
}

// EncodeBinary implements io.Encodable.
func (c *ChangeView) EncodeBinary(w *io.BinWriter) {
	w.WriteU64LE(c.TimestampMS)
	w.WriteU8(byte(c.ChangeReason))
	if hasRejected(c.ChangeReason) {
		writeHashes(w, c.RejectedHashes)
	}
}

// DecodeBinary implements io.Decodable.
func (c *ChangeView) DecodeBinary(r *io.BinReader) {
	c.TimestampMS = r.ReadU64LE()
	c.ChangeReason = dbft.ChangeViewReason(r.ReadU8())
	c.RejectedHashes = nil
	if hasRejected(c.ChangeReason) {
		c.RejectedHashes = readHashes(r)
	}
}

// NewViewNumber implements dbft.ChangeView.
func (c *ChangeView) NewViewNumber() byte { return c.newViewNumber }

// Reason implements dbft.ChangeView.
func (c *ChangeView) Reason() dbft.ChangeViewReason { return c.ChangeReason }

// Commit carries the validator's signature of the proposed header.
//
//	64-byte signature
type Commit struct {
	Sig [SignatureSize]byte
}

var _ dbft.Commit = (*Commit)(nil)

// Type implements Body.
func (*Commit) Type() MessageType { return CommitType }

// EncodeBinary implements io.Encodable.
func (c *Commit) EncodeBinary(w *io.BinWriter) { w.WriteBytes(c.Sig[:]) }

// DecodeBinary implements io.Decodable.
func (c *Commit) DecodeBinary(r *io.BinReader) { r.ReadBytes(c.Sig[:]) }

// Signature implements dbft.Commit. The slice aliases the message.
func (c *Commit) Signature() []byte { return c.Sig[:] }

// RecoveryRequest asks the others for a RecoveryMessage.
//
//	u64 timestamp (ms)
type RecoveryRequest struct {
	TimestampMS uint64
}

var _ dbft.RecoveryRequest = (*RecoveryRequest)(nil)

// Type implements Body.
func (*RecoveryRequest) Type() MessageType { return RecoveryRequestType }

// EncodeBinary implements io.Encodable.
func (m *RecoveryRequest) EncodeBinary(w *io.BinWriter) { w.WriteU64LE(m.TimestampMS) }

// DecodeBinary implements io.Decodable.
func (m *RecoveryRequest) DecodeBinary(r *io.BinReader) { m.TimestampMS = r.ReadU64LE() }

// Timestamp implements dbft.RecoveryRequest (nanoseconds).
func (m *RecoveryRequest) Timestamp() uint64 { return m.TimestampMS * nsPerMs }

func writeHashes(w *io.BinWriter, hs []util.Uint256) {
	w.WriteVarUint(uint64(len(hs)))
	for i := range hs {
		w.WriteBytes(hs[i][:])
	}
}

func readHashes(r *io.BinReader) []util.Uint256 {
	n := r.ReadVarLen(MaxTransactionHashes)
	if r.Err != nil {
		return nil
	}
	if l := r.Len(); l >= 0 && n*util.Uint256Size > l {
		setErr(r, fmt.Errorf("%w: %d hashes, %d bytes left", ErrInvalidMessage, n, l))
		return nil
	}
	hs := make([]util.Uint256, n)
	for i := range hs {
		r.ReadBytes(hs[i][:])
	}
	return hs
}
