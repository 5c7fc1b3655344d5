package consensus

import (
	"fmt"

	"github.com/nspcc-dev/dbft"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// RecoveryMessage carries what a node knows of the current round so that
// a node that missed messages (or restarted) can catch up: the change
// views, the proposal (or only its hash), the preparations and, once the
// sender committed, the commits, each as a compact form with the
// validator's invocation script, from which the original payloads are
// rebuilt and re-verified.
//
//	var-int n (≤ 255) | n × ChangeViewCompact |
//	bool has request | request ? PrepareRequest message (with header)
//	                           : var-int 0 or 32 [| 32-byte preparation hash] |
//	var-int n (≤ 255) | n × PreparationCompact |
//	var-int n (≤ 255) | n × CommitCompact
//
// Each list has at most one entry per validator index (the reference
// reads them into dictionaries).
type RecoveryMessage struct {
	ChangeViews []ChangeViewCompact
	// PrepareRequest is the proposal with its own header (block index,
	// primary index, view), or nil.
	PrepareRequest *Message
	// Preparation is the hash of the PrepareRequest payload; it is on the
	// wire only when PrepareRequest is nil.
	Preparation  *util.Uint256
	Preparations []PreparationCompact
	Commits      []CommitCompact

	stateRoot bool // decode the request of a StateRootInHeader network
}

var _ dbft.RecoveryMessage[util.Uint256] = (*RecoveryMessage)(nil)

// ChangeViewCompact is a ChangeView without header and reason.
//
//	u8 validator index | u8 original view | u64 timestamp (ms) | var-bytes invocation (≤ 1024)
type ChangeViewCompact struct {
	ValidatorIndex     byte
	OriginalViewNumber byte
	TimestampMS        uint64
	InvocationScript   []byte
}

// PreparationCompact is a PrepareRequest or PrepareResponse reduced to its
// signer.
//
//	u8 validator index | var-bytes invocation (≤ 1024)
type PreparationCompact struct {
	ValidatorIndex   byte
	InvocationScript []byte
}

// CommitCompact is a Commit without the block index.
//
//	u8 view | u8 validator index | 64-byte signature | var-bytes invocation (≤ 1024)
type CommitCompact struct {
	ViewNumber       byte
	ValidatorIndex   byte
	Signature        [SignatureSize]byte
	InvocationScript []byte
}

// EncodeBinary implements io.Encodable.
func (c *ChangeViewCompact) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(c.ValidatorIndex)
	w.WriteU8(c.OriginalViewNumber)
	w.WriteU64LE(c.TimestampMS)
	w.WriteVarBytes(c.InvocationScript)
}

// DecodeBinary implements io.Decodable.
func (c *ChangeViewCompact) DecodeBinary(r *io.BinReader) {
	c.ValidatorIndex = r.ReadU8()
	c.OriginalViewNumber = r.ReadU8()
	c.TimestampMS = r.ReadU64LE()
	c.InvocationScript = r.ReadVarBytes(MaxInvocationScript)
}

// EncodeBinary implements io.Encodable.
func (c *PreparationCompact) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(c.ValidatorIndex)
	w.WriteVarBytes(c.InvocationScript)
}

// DecodeBinary implements io.Decodable.
func (c *PreparationCompact) DecodeBinary(r *io.BinReader) {
	c.ValidatorIndex = r.ReadU8()
	c.InvocationScript = r.ReadVarBytes(MaxInvocationScript)
}

// EncodeBinary implements io.Encodable.
func (c *CommitCompact) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(c.ViewNumber)
	w.WriteU8(c.ValidatorIndex)
	w.WriteBytes(c.Signature[:])
	w.WriteVarBytes(c.InvocationScript)
}

// DecodeBinary implements io.Decodable.
func (c *CommitCompact) DecodeBinary(r *io.BinReader) {
	c.ViewNumber = r.ReadU8()
	c.ValidatorIndex = r.ReadU8()
	r.ReadBytes(c.Signature[:])
	c.InvocationScript = r.ReadVarBytes(MaxInvocationScript)
}

// Type implements Body.
func (*RecoveryMessage) Type() MessageType { return RecoveryMessageType }

// EncodeBinary implements io.Encodable.
func (m *RecoveryMessage) EncodeBinary(w *io.BinWriter) {
	writeCompacts(w, m.ChangeViews)
	w.WriteBool(m.PrepareRequest != nil)
	switch {
	case m.PrepareRequest != nil:
		m.PrepareRequest.EncodeBinary(w)
	case m.Preparation != nil:
		w.WriteVarBytes(m.Preparation[:])
	default:
		w.WriteVarUint(0)
	}
	writeCompacts(w, m.Preparations)
	writeCompacts(w, m.Commits)
}

// DecodeBinary implements io.Decodable. Like the reference, a preparation
// hash length other than 32 (and at most 32) means "no hash" and reads
// nothing more.
func (m *RecoveryMessage) DecodeBinary(r *io.BinReader) {
	m.ChangeViews = readCompacts[ChangeViewCompact](r, func(c *ChangeViewCompact) byte { return c.ValidatorIndex })
	m.PrepareRequest, m.Preparation = nil, nil
	if r.ReadBool() {
		req := new(Message)
		req.decodeHeader(r)
		if r.Err == nil && req.Type != PrepareRequestType {
			setErr(r, fmt.Errorf("%w: recovery request of type %s", ErrInvalidMessage, req.Type))
			return
		}
		body := &PrepareRequest{StateRootEnabled: m.stateRoot}
		body.DecodeBinary(r)
		req.Body = body
		m.PrepareRequest = req
	} else if n := r.ReadVarLen(util.Uint256Size); r.Err == nil && n == util.Uint256Size {
		m.Preparation = new(util.Uint256)
		r.ReadBytes(m.Preparation[:])
	}
	m.Preparations = readCompacts[PreparationCompact](r, func(c *PreparationCompact) byte { return c.ValidatorIndex })
	m.Commits = readCompacts[CommitCompact](r, func(c *CommitCompact) byte { return c.ValidatorIndex })
}

func writeCompacts[T any, P interface {
	*T
	io.Encodable
}](w *io.BinWriter, cs []T) {
	w.WriteVarUint(uint64(len(cs)))
	for i := range cs {
		P(&cs[i]).EncodeBinary(w)
	}
}

// readCompacts reads at most MaxCompactPayloads compacts with distinct
// validator indexes.
func readCompacts[T any, P interface {
	*T
	io.Decodable
}](r *io.BinReader, index func(P) byte) []T {
	cs := io.ReadArray[T, P](r, MaxCompactPayloads)
	if r.Err != nil {
		return nil
	}
	var seen [256]bool
	for i := range cs {
		v := index(P(&cs[i]))
		if seen[v] {
			setErr(r, fmt.Errorf("%w: two recovery entries of validator %d", ErrInvalidMessage, v))
			return nil
		}
		seen[v] = true
	}
	return cs
}

// AddPayload implements dbft.RecoveryMessage.
// A payload without a witness (one of ours the node refused to sign,
// see Service.broadcast) is left out.
func (m *RecoveryMessage) AddPayload(cp dbft.ConsensusPayload[util.Uint256]) {
	p := cp.(*Payload)
	idx := p.Msg.ValidatorIndex
	inv := p.Witness.InvocationScript
	if len(inv) == 0 {
		return
	}
	switch b := p.Msg.Body.(type) {
	case *PrepareRequest:
		req := p.Msg
		m.PrepareRequest = &req
		h := p.Hash()
		m.Preparation = &h
		m.Preparations = append(m.Preparations, PreparationCompact{ValidatorIndex: idx, InvocationScript: inv})
	case *PrepareResponse:
		m.Preparations = append(m.Preparations, PreparationCompact{ValidatorIndex: idx, InvocationScript: inv})
		if m.Preparation == nil {
			h := b.Preparation
			m.Preparation = &h
		}
	case *ChangeView:
		m.ChangeViews = append(m.ChangeViews, ChangeViewCompact{ValidatorIndex: idx,
			OriginalViewNumber: p.Msg.ViewNumber, TimestampMS: b.TimestampMS, InvocationScript: inv})
	case *Commit:
		m.Commits = append(m.Commits, CommitCompact{ViewNumber: p.Msg.ViewNumber, ValidatorIndex: idx,
			Signature: b.Sig, InvocationScript: inv})
	}
}

// rebuild makes the payload of msg as its validator signed it, with the
// given invocation script, and returns it if the signature verifies.
func rebuild(rec *Payload, msg Message, inv []byte, validators []dbft.PublicKey) *Payload {
	if int(msg.ValidatorIndex) >= len(validators) {
		return nil
	}
	pub, ok := validators[msg.ValidatorIndex].(*keys.PublicKey)
	if !ok {
		return nil
	}
	p := NewPayload(rec.magic, msg)
	p.Sender = pub.ScriptHash()
	p.Witness.InvocationScript = inv
	p.Witness.VerificationScript = pub.VerificationScript()
	if !p.verifyFrom(pub) {
		return nil
	}
	return p
}

// prepareRequestPayload rebuilds the proposal payload of the round.
func (m *RecoveryMessage) prepareRequestPayload(rec *Payload, validators []dbft.PublicKey, primary byte) *Payload {
	if m.PrepareRequest == nil || m.PrepareRequest.BlockIndex != rec.Msg.BlockIndex ||
		m.PrepareRequest.ValidatorIndex != primary {
		return nil
	}
	for _, c := range m.Preparations {
		if c.ValidatorIndex == primary {
			return rebuild(rec, *m.PrepareRequest, c.InvocationScript, validators)
		}
	}
	return nil
}

// GetPrepareRequest implements dbft.RecoveryMessage.
func (m *RecoveryMessage) GetPrepareRequest(cp dbft.ConsensusPayload[util.Uint256], validators []dbft.PublicKey, primary uint16) dbft.ConsensusPayload[util.Uint256] {
	if p := m.prepareRequestPayload(cp.(*Payload), validators, byte(primary)); p != nil {
		return p
	}
	return nil
}

// GetPrepareResponses implements dbft.RecoveryMessage: the responses of
// every validator but the primary, for the preparation hash carried (or
// that of the carried proposal).
func (m *RecoveryMessage) GetPrepareResponses(cp dbft.ConsensusPayload[util.Uint256], validators []dbft.PublicKey) []dbft.ConsensusPayload[util.Uint256] {
	rec := cp.(*Payload)
	if len(validators) == 0 {
		return nil
	}
	primary := primaryIndex(rec.Msg.BlockIndex, rec.Msg.ViewNumber, len(validators))
	h := m.Preparation
	if m.PrepareRequest != nil {
		req := m.prepareRequestPayload(rec, validators, primary)
		if req == nil {
			return nil
		}
		rh := req.Hash()
		h = &rh
	}
	if h == nil {
		return nil
	}
	var ps []dbft.ConsensusPayload[util.Uint256]
	for _, c := range m.Preparations {
		if c.ValidatorIndex == primary {
			continue
		}
		msg := Message{Type: PrepareResponseType, BlockIndex: rec.Msg.BlockIndex, ValidatorIndex: c.ValidatorIndex,
			ViewNumber: rec.Msg.ViewNumber, Body: &PrepareResponse{Preparation: *h}}
		if p := rebuild(rec, msg, c.InvocationScript, validators); p != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// GetChangeViews implements dbft.RecoveryMessage. The reason is not in the
// compact form: a change view is rebuilt with reason Timeout, so only
// those verify (as in the reference).
func (m *RecoveryMessage) GetChangeViews(cp dbft.ConsensusPayload[util.Uint256], validators []dbft.PublicKey) []dbft.ConsensusPayload[util.Uint256] {
	rec := cp.(*Payload)
	var ps []dbft.ConsensusPayload[util.Uint256]
	for _, c := range m.ChangeViews {
		msg := Message{Type: ChangeViewType, BlockIndex: rec.Msg.BlockIndex, ValidatorIndex: c.ValidatorIndex,
			ViewNumber: c.OriginalViewNumber, Body: &ChangeView{TimestampMS: c.TimestampMS}}
		if p := rebuild(rec, msg, c.InvocationScript, validators); p != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// GetPreCommits implements dbft.RecoveryMessage; N3 has no PreCommit.
func (m *RecoveryMessage) GetPreCommits(dbft.ConsensusPayload[util.Uint256], []dbft.PublicKey) []dbft.ConsensusPayload[util.Uint256] {
	return nil
}

// GetCommits implements dbft.RecoveryMessage.
func (m *RecoveryMessage) GetCommits(cp dbft.ConsensusPayload[util.Uint256], validators []dbft.PublicKey) []dbft.ConsensusPayload[util.Uint256] {
	rec := cp.(*Payload)
	var ps []dbft.ConsensusPayload[util.Uint256]
	for _, c := range m.Commits {
		msg := Message{Type: CommitType, BlockIndex: rec.Msg.BlockIndex, ValidatorIndex: c.ValidatorIndex,
			ViewNumber: c.ViewNumber, Body: &Commit{Sig: c.Signature}}
		if p := rebuild(rec, msg, c.InvocationScript, validators); p != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// PreparationHash implements dbft.RecoveryMessage.
func (m *RecoveryMessage) PreparationHash() *util.Uint256 { return m.Preparation }

// primaryIndex is the primary of a height and view among n validators.
func primaryIndex(height uint32, view byte, n int) byte {
	p := (int64(height) - int64(view)) % int64(n)
	if p < 0 {
		p += int64(n)
	}
	return byte(p)
}
