package txpipe

import (
	"encoding/binary"
	"fmt"
	"sync"

	bloomfilter "github.com/holiman/bloomfilter/v2"
	"github.com/n3d-io/n3d/pkg/util"
)

// seenFalsePositive is the false positive rate of each generation: the
// chance that a transaction never seen is taken for a processed one (and
// ignored until the generation rotates out).
const seenFalsePositive = 1e-6

// seenSet remembers the hashes processed recently (accepted or rejected)
// in two Bloom filter generations of window hashes each: when the current
// one is full it becomes the previous one and a fresh one starts, so a
// hash is remembered for between window and 2·window later hashes. Each
// filter has its own random keys, so peers cannot aim collisions at it.
type seenSet struct {
	mu        sync.Mutex
	cur, prev *bloomfilter.Filter
	n, window uint64
	m, k      uint64
}

func newSeenSet(window int) (*seenSet, error) {
	w := uint64(window)
	s := &seenSet{window: w, m: bloomfilter.OptimalM(w, seenFalsePositive)}
	s.k = bloomfilter.OptimalK(s.m, w)
	var err error
	if s.cur, err = bloomfilter.New(s.m, s.k); err != nil {
		return nil, fmt.Errorf("txpipe: bloom filter: %w", err)
	}
	if s.prev, err = bloomfilter.New(s.m, s.k); err != nil {
		return nil, fmt.Errorf("txpipe: bloom filter: %w", err)
	}
	return s, nil
}

// key is the 64-bit hash the filter takes: the first 8 bytes of the
// (SHA-256, hence uniform) transaction hash.
func key(h util.Uint256) uint64 { return binary.LittleEndian.Uint64(h[:8]) }

// add records h. The error (a filter that could not be made; the current
// one then keeps growing) is practically impossible: the parameters were
// accepted once, and only colliding random keys could fail.
func (s *seenSet) add(h util.Uint256) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur.AddHash(key(h))
	if s.n++; s.n < s.window {
		return nil
	}
	f, err := bloomfilter.New(s.m, s.k)
	if err != nil {
		return fmt.Errorf("txpipe: bloom filter: %w", err)
	}
	s.prev, s.cur, s.n = s.cur, f, 0
	return nil
}

// maybe reports whether h may have been processed recently (false: it
// certainly was not).
func (s *seenSet) maybe(h util.Uint256) bool {
	k := key(h)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur.ContainsHash(k) || s.prev.ContainsHash(k)
}
