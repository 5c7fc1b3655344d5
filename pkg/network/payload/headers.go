package payload

import (
	"fmt"
	stdio "io"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/io"
)

// MaxHeadersCount bounds a headers payload and a getheaders request
// (HeadersPayload.MaxHeadersCount).
const MaxHeadersCount = 2000

// Headers is the payload of headers: 1 to MaxHeadersCount block headers.
type Headers struct {
	Headers []*block.Header
	// StateRootInHeader: the headers carry the previous state root (set
	// before decoding; encoding follows each header's own setting).
	StateRootInHeader bool
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
	p.Headers = nil
	n := r.ReadVarLen(MaxHeadersCount)
	if r.Err != nil {
		return
	}
	if n == 0 {
		r.Err = fmt.Errorf("%w: headers", ErrEmpty)
		return
	}
	// A header takes well over one byte: never allocate beyond the input.
	if l := r.Len(); l >= 0 && n > l {
		r.Err = fmt.Errorf("%w: %d headers in %d bytes", stdio.ErrUnexpectedEOF, n, l)
		return
	}
	hs := make([]block.Header, n)
	for i := range hs {
		hs[i].StateRootEnabled = p.StateRootInHeader
		hs[i].DecodeBinary(r)
		if r.Err != nil {
			return
		}
	}
	p.Headers = make([]*block.Header, n)
	for i := range hs {
		p.Headers[i] = &hs[i]
	}
}

// SetStateRootInHeader makes DecodeBinary read headers of a network with
// StateRootInHeader.
func (p *Headers) SetStateRootInHeader(on bool) { p.StateRootInHeader = on }

// Size returns the encoded size.
func (p *Headers) Size() int {
	n := io.GetVarSize(len(p.Headers))
	for _, h := range p.Headers {
		n += h.Size()
	}
	return n
}
