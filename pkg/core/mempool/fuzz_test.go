package mempool

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// FuzzPoolOps reads the input as a sequence of pool operations (adds with
// fees, signers, HighPriority, oracle responses and Conflicts naming
// earlier transactions; removals; re-checks after a block) on a small pool
// with small balances, and checks every index after each one.
func FuzzPoolOps(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{0x10, 0x55, 0x21, 0x99, 0x32, 0x10, 0xf3, 0x07, 0x44, 0x80, 0x0c, 0xff})
	f.Fuzz(func(t *testing.T, ops []byte) {
		p, l := newPool(t, 8)
		for i := range 4 {
			l.setBalance(acc(i), 3000)
		}
		var seen []*transaction.Transaction
		for i := 0; i+1 < len(ops); i += 2 {
			op, arg := ops[i], ops[i+1]
			switch op % 8 {
			case 6:
				if len(seen) > 0 {
					p.Remove(seen[int(arg)%len(seen)].Hash())
				}
			case 7:
				l.height.Add(1)
				var block []*transaction.Transaction
				if len(seen) > 0 && arg&1 == 1 {
					block = append(block, seen[int(arg>>1)%len(seen)])
				}
				p.UpdateForBlock(block, func(tx *transaction.Transaction) bool { return tx.Nonce%5 != uint32(arg%5) })
			default:
				s := txSpec{nonce: uint32(i), signers: []util.Uint160{acc(int(op>>3) % 4)}, netFee: int64(arg) * 10,
					sysFee: int64(op >> 5), high: op&0x40 != 0}
				if arg&0x80 != 0 {
					s.signers = append(s.signers, acc(int(op>>3)%4+1))
				}
				if op&0x20 != 0 {
					id := uint64(arg % 3)
					s.oracle = &id
				}
				if len(seen) > 0 && op%8 >= 4 {
					s.confl = []util.Uint256{seen[int(arg)%len(seen)].Hash()}
				}
				tx := s.build()
				seen = append(seen, tx)
				_ = p.Add(tx, l.BlockHeight())
			}
			checkInvariants(t, p)
			for a, fee := range p.fees.fees {
				if bal, _ := l.GASBalance(a); fee.cmp(amountOf(bal)) > 0 {
					t.Fatalf("%s pooled %s with %s GAS", a.String(), fee, bal)
				}
			}
			if p.Count() > p.Capacity() {
				t.Fatalf("%d transactions in a pool of %d", p.Count(), p.Capacity())
			}
		}
	})
}
