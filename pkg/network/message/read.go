package message

import (
	"encoding/binary"
	"errors"
	"fmt"
	stdio "io"
)

// maxHeaderSize is the largest frame header: flags, command, 0xff and a
// u64 length.
const maxHeaderSize = 2 + 9

// parseHeader reads the frame header at the start of b. It returns the
// header length and the payload length, or hdr == 0 when b is too short to
// tell. A length above PayloadMaxSize is an error as soon as it is read.
func parseHeader(b []byte) (hdr int, n uint64, err error) {
	if len(b) < 3 {
		return 0, 0, nil
	}
	switch b[2] {
	case 0xfd:
		hdr = 5
	case 0xfe:
		hdr = 7
	case 0xff:
		hdr = 11
	default:
		return 3, uint64(b[2]), nil
	}
	if len(b) < hdr {
		return 0, 0, nil
	}
	switch hdr {
	case 5:
		n = uint64(binary.LittleEndian.Uint16(b[3:]))
	case 7:
		n = uint64(binary.LittleEndian.Uint32(b[3:]))
	default:
		n = binary.LittleEndian.Uint64(b[3:])
	}
	if n > PayloadMaxSize {
		return 0, 0, fmt.Errorf("%w: %d bytes", ErrPayloadTooLarge, n)
	}
	return hdr, n, nil
}

// Parse decodes the first message framed in b, as the reference's
// TryDeserialize does on its receive buffer. It returns the message and the
// number of bytes the frame took. When b holds no complete frame yet it
// returns (nil, 0, nil): read more and call again. A payload length over
// PayloadMaxSize is an error before the payload arrives (the connection
// cannot be resynchronised: drop it). For errors from the payload itself
// (ErrUnknownCommand, ErrEmptyPayload, ErrBadCompression, ErrBadPayload)
// n is the frame length and the message holds its flags and command. The
// message does not alias b.
func Parse(b []byte) (*Message, int, error) { return ParseWith(b, Options{}) }

// ParseWith is Parse with the network's decoding options.
func ParseWith(b []byte, opts Options) (*Message, int, error) {
	hdr, n, err := parseHeader(b)
	if err != nil || hdr == 0 {
		return nil, 0, err
	}
	end := hdr + int(n)
	if len(b) < end {
		return nil, 0, nil
	}
	m := new(Message)
	wire := append([]byte(nil), b[hdr:end]...)
	return m, end, m.decode(Flags(b[0]), Command(b[1]), wire, opts)
}

// Read reads one message from r. It reads exactly one frame: the header,
// then a payload whose announced length has already been checked against
// PayloadMaxSize, so a peer cannot make it allocate more than that. Payload
// errors are reported as by Parse (the stream stays in step: the caller may
// ignore ErrUnknownCommand and read on); an I/O error or an oversized
// length leaves the stream unusable. An error wrapping stdio.EOF or
// stdio.ErrUnexpectedEOF means the connection ended.
func Read(r stdio.Reader) (*Message, error) { return ReadWith(r, Options{}) }

// ReadWith is Read with the network's decoding options.
func ReadWith(r stdio.Reader, opts Options) (*Message, error) {
	var h [maxHeaderSize]byte
	if _, err := stdio.ReadFull(r, h[:3]); err != nil {
		return nil, fmt.Errorf("message: read header: %w", err)
	}
	hdr := 3
	switch h[2] {
	case 0xfd:
		hdr = 5
	case 0xfe:
		hdr = 7
	case 0xff:
		hdr = 11
	}
	if _, err := stdio.ReadFull(r, h[3:hdr]); err != nil {
		return nil, fmt.Errorf("message: read header: %w", noEOF(err))
	}
	_, n, err := parseHeader(h[:hdr])
	if err != nil {
		return nil, err
	}
	wire := make([]byte, n)
	if _, err := stdio.ReadFull(r, wire); err != nil {
		return nil, fmt.Errorf("message: read %d-byte payload: %w", n, noEOF(err))
	}
	m := new(Message)
	return m, m.decode(Flags(h[0]), Command(h[1]), wire, opts)
}

// noEOF turns an EOF in the middle of a frame into ErrUnexpectedEOF.
func noEOF(err error) error {
	if errors.Is(err, stdio.EOF) {
		return stdio.ErrUnexpectedEOF
	}
	return err
}
