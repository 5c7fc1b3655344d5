package mempool

import (
	"math"
	"math/big"
	"math/bits"
)

// amount is a non-negative 128-bit quantity of GAS fractions: the sum of
// the fees of many transactions (each below 2^63) or a balance, without
// the allocations of big.Int on the pool's hot path.
type amount struct{ hi, lo uint64 }

// add adds a non-negative fee.
func (a amount) add(v int64) amount {
	lo, c := bits.Add64(a.lo, uint64(v), 0)
	return amount{hi: a.hi + c, lo: lo}
}

// plus adds two amounts, saturating at the maximum.
func (a amount) plus(b amount) amount {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, o := bits.Add64(a.hi, b.hi, c)
	if o != 0 {
		return amount{hi: math.MaxUint64, lo: math.MaxUint64}
	}
	return amount{hi: hi, lo: lo}
}

// sub subtracts a non-negative fee that is at most a.
func (a amount) sub(v int64) amount {
	lo, b := bits.Sub64(a.lo, uint64(v), 0)
	return amount{hi: a.hi - b, lo: lo}
}

func (a amount) isZero() bool { return a.hi == 0 && a.lo == 0 }

func (a amount) cmp(b amount) int {
	switch {
	case a.hi != b.hi:
		if a.hi < b.hi {
			return -1
		}
		return 1
	case a.lo != b.lo:
		if a.lo < b.lo {
			return -1
		}
		return 1
	}
	return 0
}

// amountOf converts a balance: negative is zero, beyond 128 bits is the
// maximum.
func amountOf(b *big.Int) amount {
	switch {
	case b.Sign() <= 0:
		return amount{}
	case b.BitLen() > 128:
		return amount{hi: math.MaxUint64, lo: math.MaxUint64}
	}
	lo := new(big.Int).And(b, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	return amount{hi: new(big.Int).Rsh(b, 64).Uint64(), lo: lo}
}

func (a amount) big() *big.Int {
	r := new(big.Int).SetUint64(a.hi)
	return r.Lsh(r, 64).Or(r, new(big.Int).SetUint64(a.lo))
}

func (a amount) String() string { return a.big().String() }
