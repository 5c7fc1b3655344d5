package payload

import "github.com/n3d-io/n3d/pkg/io"

// PingSize is the encoded size of a Ping.
const PingSize = 12

// Ping is the payload of ping and pong: the sender's height, the time and
// a nonce the pong echoes.
type Ping struct {
	LastBlockIndex uint32
	Timestamp      uint32 // seconds since the Unix epoch
	Nonce          uint32
}

// EncodeBinary writes the payload.
func (p *Ping) EncodeBinary(w *io.BinWriter) {
	w.WriteU32LE(p.LastBlockIndex)
	w.WriteU32LE(p.Timestamp)
	w.WriteU32LE(p.Nonce)
}

// DecodeBinary reads the payload.
func (p *Ping) DecodeBinary(r *io.BinReader) {
	p.LastBlockIndex = r.ReadU32LE()
	p.Timestamp = r.ReadU32LE()
	p.Nonce = r.ReadU32LE()
}

// Size returns the encoded size.
func (p *Ping) Size() int { return PingSize }
