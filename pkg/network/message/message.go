package message

import (
	"bytes"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/io"
)

// Framing constants of the reference's Message.
const (
	// PayloadMaxSize bounds a payload, both as framed and decompressed.
	PayloadMaxSize = 0x02000000
	// CompressionMinSize: only payloads longer than this are compressed.
	CompressionMinSize = 128
	// CompressionThreshold: compression is kept only when it saves more
	// than this many bytes.
	CompressionThreshold = 64
)

// Flags is the flags byte of a message.
type Flags byte

// Compressed marks an LZ4-compressed payload. Other bits are carried but
// have no meaning, as in the reference.
const Compressed Flags = 1 << 0

// Message is one P2P message:
//
//	u8 flags | u8 command | var-bytes payload (≤ PayloadMaxSize)
//
// where a compressed payload is u32 LE uncompressed length ‖ LZ4 block.
//
// A message keeps its serialized payload in both forms, so one message can
// be sent compressed to one peer and plain to another (a peer that
// announced DisableCompression) without serializing twice. Messages are
// immutable once built or decoded and safe to share between goroutines.
type Message struct {
	Flags   Flags
	Command Command
	// Payload is the decoded payload: *payload.Version, *payload.AddrList,
	// *payload.Ping, *payload.GetBlockByIndex, *payload.Headers,
	// *payload.GetBlocks, *payload.Inventory, *transaction.Transaction,
	// *block.Block, *payload.Extensible, *payload.FilterLoad,
	// *payload.FilterAdd or *payload.MerkleBlock according to Command; nil
	// for commands without a payload.
	Payload io.Serializable

	raw  []byte // serialized payload
	wire []byte // payload as framed: compressed if Flags has Compressed, else raw
}

// New builds a message for cmd. p is serialized once (p may be nil for
// commands without a payload) and compressed when the reference would
// compress it: a compressible command, more than CompressionMinSize bytes,
// and a gain of more than CompressionThreshold bytes.
func New(cmd Command, p io.Serializable) (*Message, error) {
	m := &Message{Command: cmd, Payload: p}
	if p != nil {
		raw, err := serialize(p)
		if err != nil {
			return nil, fmt.Errorf("message: encode %s: %w", cmd, err)
		}
		m.raw = raw
	}
	if len(m.raw) > PayloadMaxSize {
		return nil, fmt.Errorf("%w: %s payload of %d bytes", ErrPayloadTooLarge, cmd, len(m.raw))
	}
	m.wire = m.raw
	if cmd.Compressible() && len(m.raw) > CompressionMinSize {
		if c := compress(m.raw); len(c) < len(m.raw)-CompressionThreshold {
			m.wire = c
			m.Flags |= Compressed
		}
	}
	return m, nil
}

// IsCompressed reports whether the framed payload is compressed.
func (m *Message) IsCompressed() bool { return m.Flags&Compressed != 0 }

// RawPayload returns the uncompressed serialized payload. The slice is
// shared: do not modify it.
func (m *Message) RawPayload() []byte { return m.raw }

// Size returns the framed size of the message, as AppendBinary writes it.
func (m *Message) Size(allowCompression bool) int {
	p := m.framedPayload(allowCompression)
	return 2 + io.GetVarSize(len(p)) + len(p)
}

// framedPayload returns what goes on the wire, and the flags with it.
func (m *Message) framedPayload(allowCompression bool) []byte {
	if allowCompression || !m.IsCompressed() {
		return m.wire
	}
	return m.raw
}

// AppendBinary appends the framed message to dst and returns the extended
// slice. With allowCompression false a compressed message is written with
// its plain payload and the Compressed flag cleared (the reference's
// ToArray(false)), for peers that announced DisableCompression.
func (m *Message) AppendBinary(dst []byte, allowCompression bool) []byte {
	flags := m.Flags
	p := m.framedPayload(allowCompression)
	if !allowCompression {
		flags &^= Compressed
	}
	var vi [9]byte
	n := io.PutVarUint(vi[:], uint64(len(p)))
	dst = append(dst, byte(flags), byte(m.Command))
	dst = append(dst, vi[:n]...)
	return append(dst, p...)
}

// Bytes returns the framed message (see AppendBinary).
func (m *Message) Bytes(allowCompression bool) []byte {
	return m.AppendBinary(make([]byte, 0, m.Size(allowCompression)), allowCompression)
}

// EncodeBinary writes the framed message as built (compressed if it is).
func (m *Message) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(byte(m.Flags))
	w.WriteU8(byte(m.Command))
	w.WriteVarBytes(m.wire)
}

// DecodeBinary reads a framed message and decodes its payload (see Read).
func (m *Message) DecodeBinary(r *io.BinReader) {
	flags := Flags(r.ReadU8())
	cmd := Command(r.ReadU8())
	wire := r.ReadVarBytes(PayloadMaxSize)
	if r.Err != nil {
		return
	}
	if err := m.decode(flags, cmd, wire, Options{}); err != nil {
		r.Err = err
	}
}

// decode fills m from a frame's parts: it decompresses (bounded) and
// decodes the payload by command. On ErrUnknownCommand and payload errors m
// still holds the flags, the command and the payload bytes.
func (m *Message) decode(flags Flags, cmd Command, wire []byte, opts Options) error {
	if len(wire) == 0 {
		wire = nil
	}
	*m = Message{Flags: flags, Command: cmd, raw: wire, wire: wire}
	if len(wire) != 0 && flags&Compressed != 0 {
		raw, err := decompress(wire, PayloadMaxSize)
		if err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		m.raw = raw
	}
	if !cmd.Known() {
		return fmt.Errorf("%w: 0x%02x", ErrUnknownCommand, byte(cmd))
	}
	newPayload := commands[cmd].newPayload
	if newPayload == nil {
		return nil
	}
	if len(m.raw) == 0 {
		return fmt.Errorf("%w: %s", ErrEmptyPayload, cmd)
	}
	if cmd == CmdBlock && opts.KnownBlock != nil {
		if h := knownBlockHeader(m.raw, opts); h != nil {
			m.Payload = h
			return nil
		}
	}
	p := newPayload()
	if sr, ok := p.(stateRootSetter); ok && opts.StateRootInHeader {
		sr.SetStateRootInHeader(true)
	}
	r := io.NewBinReaderFromBuf(m.raw)
	if bd, ok := p.(bufDecoder); ok {
		bd.DecodeBinaryBuf(r, m.raw)
	} else {
		p.DecodeBinary(r)
	}
	if r.Err != nil {
		return fmt.Errorf("%w: %s: %w", ErrBadPayload, cmd, r.Err)
	}
	m.Payload = p
	return nil
}

// Options are the network settings payload decoding depends on.
type Options struct {
	// StateRootInHeader: block headers carry the previous state root
	// (neo-go's extension); applies to block, headers and merkleblock.
	StateRootInHeader bool
	// KnownBlock, when set, is asked for the index of each block message:
	// for true, only the block's header is decoded (the payload is then a
	// *block.Header, the command still CmdBlock). A node gets each new
	// block from most of its peers as they relay it, after it has the
	// block itself: decoding thousands of transactions (and hashing each)
	// to drop them costs memory and CPU for nothing.
	KnownBlock func(index uint32) bool
}

// knownBlockHeader returns the header of the block in raw when
// opts.KnownBlock says the node has a block at its index, nil otherwise
// (a header that does not decode too: the full decoding reports it).
func knownBlockHeader(raw []byte, opts Options) *block.Header {
	h := &block.Header{StateRootEnabled: opts.StateRootInHeader}
	r := io.NewBinReaderFromBuf(raw)
	h.DecodeBinary(r)
	if r.Err != nil || !opts.KnownBlock(h.Index) {
		return nil
	}
	return h
}

// stateRootSetter is implemented by the payloads holding block headers.
type stateRootSetter interface{ SetStateRootInHeader(on bool) }

// bufDecoder is implemented by blocks and transactions, which hash their
// parts straight from the input buffer.
type bufDecoder interface {
	DecodeBinaryBuf(r *io.BinReader, buf []byte)
}

// sizer is implemented by payloads that know their encoded size.
type sizer interface{ Size() int }

// serialize encodes p into a buffer sized up front when p knows its size.
func serialize(p io.Encodable) ([]byte, error) {
	var buf *bytes.Buffer
	if s, ok := p.(sizer); ok {
		buf = bytes.NewBuffer(make([]byte, 0, s.Size()))
	} else {
		buf = new(bytes.Buffer)
	}
	w := io.NewBinWriterFromIO(buf)
	p.EncodeBinary(w)
	if w.Err != nil {
		return nil, w.Err
	}
	return buf.Bytes(), nil
}
