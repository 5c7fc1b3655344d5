package neostate

import (
	"math"
	"math/big"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// The account records are read and written once or twice per transfer (the
// sender's GAS burn, both sides of a transfer). Their stored form is the
// one Bytes writes; the fast decoders below read exactly that form without
// building stack items and give up (ok false) on anything else, which the
// generic deserializer then decodes or rejects. For every input they accept
// they return what the generic path returns (FuzzFastRecords checks it).

// fastReader walks the canonical serialized form; a failed read sets bad.
type fastReader struct {
	b   []byte
	bad bool
}

func (r *fastReader) byte() byte {
	if len(r.b) == 0 {
		r.bad = true
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// header reads a one-byte type and a one-byte length (under 0xfd, the
// form every record field of ours has) and fails on another type.
func (r *fastReader) header(typ byte) int {
	if r.byte() != typ {
		r.bad = true
	}
	n := r.byte()
	if n >= 0xfd {
		r.bad = true
	}
	return int(n)
}

// bytes returns the next n bytes (not copied).
func (r *fastReader) bytes(n int) []byte {
	if r.bad || len(r.b) < n {
		r.bad = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

// integer reads an Integer field into z.
func (r *fastReader) integer(z *big.Int) {
	n := r.header(tInteger)
	if n > stackitem.MaxIntegerSize {
		r.bad = true
	}
	v := r.bytes(n)
	if r.bad {
		return
	}
	if x, ok := bigint.FromInt64Bytes(v); ok {
		z.SetInt64(x)
		return
	}
	z.Set(bigint.FromBytes(v))
}

// fastNEP17Balance decodes Struct[Integer] (trailing bytes ignored, as the
// deserializer does).
func fastNEP17Balance(data []byte) (*NEP17Balance, bool) {
	r := fastReader{b: data}
	if r.header(tStruct) != 1 || r.bad {
		return nil, false
	}
	s := new(NEP17Balance)
	r.integer(&s.Balance)
	if r.bad {
		return nil, false
	}
	return s, true
}

// fastNEOBalance decodes Struct[Integer, Integer in uint32, Null or a
// compressed key, Integer] (trailing bytes ignored).
func fastNEOBalance(data []byte) (*NEOBalance, bool) {
	r := fastReader{b: data}
	if r.header(tStruct) != 4 || r.bad {
		return nil, false
	}
	s := new(NEOBalance)
	r.integer(&s.Balance)
	var h big.Int
	r.integer(&h)
	if r.bad || h.Sign() < 0 || !h.IsUint64() || h.Uint64() > math.MaxUint32 {
		return nil, false
	}
	s.BalanceHeight = uint32(h.Uint64())
	if len(r.b) > 0 && r.b[0] == tNull {
		r.b = r.b[1:]
	} else {
		key := r.bytes(r.header(tByteString))
		if r.bad || len(key) != PublicKeyLen || (key[0] != 2 && key[0] != 3) {
			return nil, false
		}
		s.VoteTo = append([]byte(nil), key...)
	}
	r.integer(&s.LastGasPerVote)
	if r.bad {
		return nil, false
	}
	return s, true
}
