package payload

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/io"
)

// MaxHeadersCount bounds a headers payload and a getheaders request
// (HeadersPayload.MaxHeadersCount).
const MaxHeadersCount = 2000

// Headers is the payload of headers: 1 to MaxHeadersCount block headers.
type Headers struct {
	Headers []*block.Header
}

// EncodeBinary writes the payload.
func (p *Headers) EncodeBinary(w *io.BinWriter) {
	w.WriteVarUint(uint64(len(p.Headers)))
	for _, h := range p.Headers {
		h.EncodeBinary(w)
	}
}

// DecodeBinary reads the payload; an empty list is an error.
func (p *Headers) DecodeBinary(r *io.BinReader) {
	hs := io.ReadArray[block.Header](r, MaxHeadersCount)
	if r.Err != nil {
		p.Headers = nil
		return
	}
	if len(hs) == 0 {
		r.Err = fmt.Errorf("%w: headers", ErrEmpty)
		return
	}
	p.Headers = make([]*block.Header, len(hs))
	for i := range hs {
		p.Headers[i] = &hs[i]
	}
}

// Size returns the encoded size.
func (p *Headers) Size() int {
	n := io.GetVarSize(len(p.Headers))
	for _, h := range p.Headers {
		n += h.Size()
	}
	return n
}
