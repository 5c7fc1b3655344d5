package consensus

import (
	"fmt"

	"github.com/nspcc-dev/dbft"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// MessageType is the first byte of a consensus message (the reference's
// ConsensusMessageType; the values are dBFT's).
type MessageType byte

// Message types of dBFT 2.0 on Neo N3. PreCommit (0x31) belongs to the
// anti-MEV extension N3 does not run and is rejected by the decoder.
const (
	ChangeViewType      = MessageType(dbft.ChangeViewType)
	PrepareRequestType  = MessageType(dbft.PrepareRequestType)
	PrepareResponseType = MessageType(dbft.PrepareResponseType)
	CommitType          = MessageType(dbft.CommitType)
	RecoveryRequestType = MessageType(dbft.RecoveryRequestType)
	RecoveryMessageType = MessageType(dbft.RecoveryMessageType)
)

// String returns the reference's name of the type.
func (t MessageType) String() string { return dbft.MessageType(t).String() }

// Reference decoding limits.
const (
	// MaxTransactionHashes bounds the hashes of a PrepareRequest and the
	// rejected hashes of a ChangeView (ushort.MaxValue); the protocol's
	// MaxTransactionsPerBlock is checked by the service.
	MaxTransactionHashes = 0xffff
	// MaxCompactPayloads bounds each list of a RecoveryMessage (byte.MaxValue).
	MaxCompactPayloads = 0xff
	// MaxInvocationScript bounds a compact payload's invocation script.
	MaxInvocationScript = 1024
	// SignatureSize is the size of a Commit signature (r‖s).
	SignatureSize = 64
	// headerSize is the encoded size of the common message header.
	headerSize = 1 + 4 + 1 + 1
)

// Body is the type-specific part of a consensus message.
type Body interface {
	io.Serializable
	// Type is the message type the body belongs to.
	Type() MessageType
}

// Message is a consensus message: the header common to every type and
// the body of its type. It is what an ExtensiblePayload of category
// "dBFT" carries in its Data.
//
//	u8 type | u32 block index | u8 validator index | u8 view number | body
type Message struct {
	Type           MessageType
	BlockIndex     uint32
	ValidatorIndex byte
	ViewNumber     byte
	Body           Body

	// stateRoot: decode a PrepareRequest (also inside a recovery
	// message) of a StateRootInHeader network.
	stateRoot bool
}

// EncodeBinary writes the header and the body. Type is taken from the
// body, so a message can never be written with a mismatching header.
func (m *Message) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(byte(m.Body.Type()))
	w.WriteU32LE(m.BlockIndex)
	w.WriteU8(m.ValidatorIndex)
	w.WriteU8(m.ViewNumber)
	m.Body.EncodeBinary(w)
}

// DecodeBinary reads a message of any dBFT 2.0 type.
func (m *Message) DecodeBinary(r *io.BinReader) {
	m.decodeHeader(r)
	if r.Err != nil {
		return
	}
	m.Body = newBody(m.Type, m.stateRoot)
	if m.Body == nil {
		setErr(r, fmt.Errorf("%w: unknown type 0x%02x", ErrInvalidMessage, byte(m.Type)))
		return
	}
	m.Body.DecodeBinary(r)
}

func (m *Message) decodeHeader(r *io.BinReader) {
	m.Type = MessageType(r.ReadU8())
	m.BlockIndex = r.ReadU32LE()
	m.ValidatorIndex = r.ReadU8()
	m.ViewNumber = r.ReadU8()
}

// Bytes returns the encoded message.
func (m *Message) Bytes() ([]byte, error) {
	w := io.NewBufBinWriter()
	w.Grow(m.sizeHint())
	m.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

// sizeHint is about the encoded size of a message carrying transaction
// hashes (a PrepareRequest, alone or in a RecoveryMessage): the buffer is
// made for it at once rather than grown by doubling, which left a
// proposal's payload holding up to twice its bytes. Other messages are
// small: 0.
func (m *Message) sizeHint() int {
	var req *PrepareRequest
	switch b := m.Body.(type) {
	case *PrepareRequest:
		req = b
	case *RecoveryMessage:
		if b.PrepareRequest != nil {
			req, _ = b.PrepareRequest.Body.(*PrepareRequest)
		}
	}
	if req == nil {
		return 0
	}
	return len(req.Hashes)*util.Uint256Size + 1024 // header, var-int, state root; a recovery's other parts grow it
}

// DecodeMessage decodes a message from b (the Data of a dBFT payload).
// Like the reference it ignores bytes after the message.
func DecodeMessage(b []byte) (*Message, error) { return DecodeMessageSR(b, false) }

// DecodeMessageSR is DecodeMessage on a network where StateRootInHeader
// is stateRoot (a PrepareRequest then carries the previous state root).
func DecodeMessageSR(b []byte, stateRoot bool) (*Message, error) {
	m := &Message{stateRoot: stateRoot}
	r := io.NewBinReaderFromBuf(b)
	m.DecodeBinary(r)
	if r.Err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidMessage, r.Err)
	}
	return m, nil
}

func newBody(t MessageType, stateRoot bool) Body {
	switch t {
	case ChangeViewType:
		return new(ChangeView)
	case PrepareRequestType:
		return &PrepareRequest{StateRootEnabled: stateRoot}
	case PrepareResponseType:
		return new(PrepareResponse)
	case CommitType:
		return new(Commit)
	case RecoveryRequestType:
		return new(RecoveryRequest)
	case RecoveryMessageType:
		return &RecoveryMessage{stateRoot: stateRoot}
	default:
		return nil
	}
}

func setErr(r *io.BinReader, err error) {
	if r.Err == nil {
		r.Err = err
	}
}
