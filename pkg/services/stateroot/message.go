package stateroot

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/io"
)

// Category is the extensible payload category of the service's messages.
const Category = "StateService"

// SignatureLen is the length of a vote's signature.
const SignatureLen = 64

// MessageType is the first byte of a message.
type MessageType byte

// Message types (the reference's values).
const (
	VoteT MessageType = 0
	RootT MessageType = 1
)

// Vote is a state validator's signature of a block's state root.
type Vote struct {
	// ValidatorIndex is the sender's position among the state validators
	// designated for Height.
	ValidatorIndex int32
	Height         uint32
	Signature      []byte
}

// Message is a decoded StateService payload: exactly one of Vote and Root
// is set, as Type says.
type Message struct {
	Type MessageType
	Vote *Vote
	Root *chain.StateRoot
}

// EncodeBinary writes the message.
func (m *Message) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(byte(m.Type))
	switch m.Type {
	case VoteT:
		w.WriteU32LE(uint32(m.Vote.ValidatorIndex))
		w.WriteU32LE(m.Vote.Height)
		w.WriteVarBytes(m.Vote.Signature)
	case RootT:
		m.Root.EncodeBinary(w)
	default:
		w.Err = fmt.Errorf("%w: message type %d", ErrInvalidMessage, m.Type)
	}
}

// DecodeBinary reads a message: a known type, a signature of at most 64
// bytes, a root with at most one witness.
func (m *Message) DecodeBinary(r *io.BinReader) {
	m.Type = MessageType(r.ReadU8())
	m.Vote, m.Root = nil, nil
	if r.Err != nil {
		return
	}
	switch m.Type {
	case VoteT:
		v := new(Vote)
		v.ValidatorIndex = int32(r.ReadU32LE())
		v.Height = r.ReadU32LE()
		v.Signature = r.ReadVarBytes(SignatureLen)
		m.Vote = v
	case RootT:
		m.Root = new(chain.StateRoot)
		m.Root.DecodeBinary(r)
	default:
		r.Err = fmt.Errorf("%w: message type %d", ErrInvalidMessage, m.Type)
	}
}

// Bytes returns the encoded message.
func (m *Message) Bytes() ([]byte, error) {
	w := io.NewBufBinWriter()
	m.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

// DecodeMessage decodes a payload's Data; trailing bytes are an error.
func DecodeMessage(data []byte) (*Message, error) {
	m := new(Message)
	r := io.NewBinReaderFromBuf(data)
	m.DecodeBinary(r)
	if r.Err == nil && r.Len() != 0 {
		r.Err = fmt.Errorf("%d trailing bytes", r.Len())
	}
	if r.Err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidMessage, r.Err)
	}
	return m, nil
}
