package message

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/pierrec/lz4/v4"
)

// The reference compresses with K4os.Compression.LZ4 (LZ4Codec.Encode at
// level L00_FAST), a port of the LZ4 C library's LZ4_compress_default. To
// send the very bytes a C# node sends (and so make the same compress-or-not
// decision), compressBlock below is our implementation of that algorithm:
// acceleration 1, a zeroed 16 KiB hash table, 16-bit positions with a
// 13-bit 4-byte hash below 64 KiB + 11 bytes of input, 32-bit positions
// with a 12-bit 5-byte hash (the 64-bit build) above. Its output is checked
// byte for byte against liblz4 in the tests. Any valid LZ4 block decodes
// the same way, so decompression uses github.com/pierrec/lz4/v4.
const (
	lz4MinMatch      = 4
	lz4MFLimit       = 12
	lz4LastLiterals  = 5
	lz4MinLength     = lz4MFLimit + 1
	lz4SkipTrigger   = 6
	lz4HashLog       = 12 // LZ4_MEMORY_USAGE 14 - 2
	lz4Limit64K      = 65536 + lz4MFLimit - 1
	lz4DistanceMax   = 65535
	lz4RunMask       = 15
	lz4MLMask        = 15
	lz4MLBits        = 4
	lz4Prime4Bytes   = 2654435761
	lz4Prime5Bytes   = 889523592379
	lz4TableU16Size  = 1 << (lz4HashLog + 1)
	lz4TableU32Size  = 1 << lz4HashLog
	lz4SizePrefixLen = 4
)

// compressBound is LZ4_compressBound: the largest block n bytes can become.
func compressBound(n int) int { return n + n/255 + 16 }

// compress returns the reference's compressed form of src: the source
// length as a u32 LE followed by an LZ4 block.
func compress(src []byte) []byte {
	dst := make([]byte, lz4SizePrefixLen+compressBound(len(src)))
	binary.LittleEndian.PutUint32(dst, uint32(len(src)))
	n := compressBlock(src, dst[lz4SizePrefixLen:])
	return dst[:lz4SizePrefixLen+n]
}

// decompress reverses compress. The announced length is checked against
// maxOut before anything is allocated, and the block must decode to exactly
// that many bytes.
func decompress(src []byte, maxOut int) ([]byte, error) {
	if len(src) < lz4SizePrefixLen {
		return nil, fmt.Errorf("%w: %d bytes", ErrBadCompression, len(src))
	}
	n := int32(binary.LittleEndian.Uint32(src))
	if n < 0 || int(n) > maxOut {
		return nil, fmt.Errorf("%w: uncompressed length %d out of [0, %d]", ErrBadCompression, n, maxOut)
	}
	block := src[lz4SizePrefixLen:]
	if n == 0 {
		// LZ4_decompress_safe into an empty buffer accepts only the
		// one-token empty block.
		if len(block) != 1 || block[0] != 0 {
			return nil, fmt.Errorf("%w: bad empty block", ErrBadCompression)
		}
		return []byte{}, nil
	}
	out := make([]byte, n)
	m, err := lz4.UncompressBlock(block, out)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadCompression, err)
	}
	if m != int(n) {
		return nil, fmt.Errorf("%w: decoded %d bytes, header says %d", ErrBadCompression, m, n)
	}
	return out, nil
}

// lz4Table is the compressor's hash table: positions of earlier 4-byte
// sequences, indexed by hash. Small inputs use u16 entries, large ones u32,
// as the C library does.
type lz4Table struct {
	small bool
	u16   []uint16
	u32   []uint32
}

func (t *lz4Table) hash(src []byte, p int) uint32 {
	if t.small {
		seq := binary.LittleEndian.Uint32(src[p:])
		return (seq * lz4Prime4Bytes) >> (lz4MinMatch*8 - (lz4HashLog + 1))
	}
	seq := binary.LittleEndian.Uint64(src[p:])
	return uint32(((seq << 24) * lz4Prime5Bytes) >> (64 - lz4HashLog))
}

func (t *lz4Table) get(h uint32) int {
	if t.small {
		return int(t.u16[h])
	}
	return int(t.u32[h])
}

func (t *lz4Table) put(h uint32, p int) {
	if t.small {
		t.u16[h] = uint16(p)
	} else {
		t.u32[h] = uint32(p)
	}
}

// tooFar reports whether a candidate at m is out of reach from p. With u16
// positions every candidate is within 64 KiB by construction.
func (t *lz4Table) tooFar(m, p int) bool { return !t.small && m+lz4DistanceMax < p }

func newLZ4Table(n int) *lz4Table {
	if n < lz4Limit64K {
		return &lz4Table{small: true, u16: make([]uint16, lz4TableU16Size)}
	}
	return &lz4Table{u32: make([]uint32, lz4TableU32Size)}
}

// compressBlock writes the LZ4 block of src into dst (at least
// compressBound(len(src)) long) exactly as LZ4_compress_default does and
// returns its length.
func compressBlock(src, dst []byte) int {
	n := len(src)
	if n < lz4MinLength {
		return lz4LastRun(src, dst, 0, n)
	}
	t := newLZ4Table(n)
	mfLimitPlusOne := n - lz4MFLimit + 1
	matchLimit := n - lz4LastLiterals
	op, anchor := 0, 0

	t.put(t.hash(src, 0), 0)
	ip := 1
	forwardH := t.hash(src, ip)
	for {
		// Find a match, skipping faster through incompressible input.
		var match int
		fwd, step, searchNb := ip, 1, 1<<lz4SkipTrigger
		for {
			h, cur := forwardH, fwd
			match = t.get(h)
			ip = fwd
			fwd += step
			step = searchNb >> lz4SkipTrigger
			searchNb++
			if fwd > mfLimitPlusOne {
				return op + lz4LastRun(src, dst[op:], anchor, n)
			}
			forwardH = t.hash(src, fwd)
			t.put(h, cur)
			if !t.tooFar(match, cur) && read32(src, match) == read32(src, ip) {
				break
			}
		}
		// Extend the match backwards over pending literals.
		for ip > anchor && match > 0 && src[ip-1] == src[match-1] {
			ip--
			match--
		}
		token := op
		op = lz4Literals(src[anchor:ip], dst, op)
		for {
			var done bool
			ip, op, done = lz4Match(src, dst, ip, match, token, op, matchLimit, mfLimitPlusOne)
			anchor = ip
			if done {
				return op + lz4LastRun(src, dst[op:], anchor, n)
			}
			t.put(t.hash(src, ip-2), ip-2)
			// A match right at the end of the previous one needs no literals.
			h := t.hash(src, ip)
			match = t.get(h)
			t.put(h, ip)
			if t.tooFar(match, ip) || read32(src, match) != read32(src, ip) {
				break
			}
			token = op
			dst[op] = 0
			op++
		}
		ip++
		forwardH = t.hash(src, ip)
	}
}

// lz4Literals writes the token's literal length, its extension bytes and
// the literals; it returns the new output position.
func lz4Literals(lit, dst []byte, op int) int {
	token := op
	op++
	if l := len(lit); l >= lz4RunMask {
		dst[token] = lz4RunMask << lz4MLBits
		for l -= lz4RunMask; l >= 255; l -= 255 {
			dst[op] = 255
			op++
		}
		dst[op] = byte(l)
		op++
	} else {
		dst[token] = byte(l << lz4MLBits)
	}
	return op + copy(dst[op:], lit)
}

// lz4Match writes the offset and match length of the match of ip against
// match and reports the new input and output positions, and whether the
// end of the compressible part is reached.
func lz4Match(src, dst []byte, ip, match, token, op, matchLimit, mfLimitPlusOne int) (int, int, bool) {
	binary.LittleEndian.PutUint16(dst[op:], uint16(ip-match))
	op += 2
	ml := lz4Count(src, ip+lz4MinMatch, match+lz4MinMatch, matchLimit)
	ip += ml + lz4MinMatch
	if ml >= lz4MLMask {
		dst[token] += lz4MLMask
		for ml -= lz4MLMask; ml >= 255; ml -= 255 {
			dst[op] = 255
			op++
		}
		dst[op] = byte(ml)
		op++
	} else {
		dst[token] += byte(ml)
	}
	return ip, op, ip >= mfLimitPlusOne
}

// lz4LastRun writes src[anchor:end] as the final literal-only sequence at
// the start of dst and returns its length.
func lz4LastRun(src, dst []byte, anchor, end int) int {
	return lz4Literals(src[anchor:end], dst, 0)
}

// lz4Count returns how many bytes from in equal those from m, stopping at
// limit.
func lz4Count(src []byte, in, m, limit int) int {
	start := in
	for in+8 <= limit {
		if d := binary.LittleEndian.Uint64(src[in:]) ^ binary.LittleEndian.Uint64(src[m:]); d != 0 {
			return in - start + bits.TrailingZeros64(d)/8
		}
		in += 8
		m += 8
	}
	for in < limit && src[in] == src[m] {
		in++
		m++
	}
	return in - start
}

func read32(b []byte, p int) uint32 { return binary.LittleEndian.Uint32(b[p:]) }
