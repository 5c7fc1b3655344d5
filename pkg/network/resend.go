package network

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"

	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// staleWarnEvery rate-limits the warning about stale pooled transactions.
const staleWarnEvery = time.Minute

// txAge is when a pooled transaction was first seen (Unix nanoseconds)
// and how many announcement periods it has been through: it is due next
// at the age threshold·2^k. It is kept small: there is one per pooled
// transaction (16 bytes, and 8 of key).
type txAge struct {
	first int64
	gen   uint32 // the last scan that saw it in the pool
	k     uint8
}

// txAges follows the age of pooled transactions, from one scan of the
// pool to the next. Only the resend loop uses it.
//
// A transaction is known by the first 8 bytes of its hash (SHA-256, so
// uniform): two pooled transactions sharing them would share an age,
// which only moves when they are announced again, and a peer would need
// ~2^64 tries to make one that shares them with a given transaction.
// The map is made again when it holds a quarter of the entries it once
// held (Go's maps keep their room after deletions): a burst that filled
// the pool does not keep its room for good.
type txAges struct {
	m       map[uint64]txAge
	gen     uint32
	peak    int // most entries since the map was made
	remakes int // times the map was made again (tests)
}

// remakeMin is the fewest entries a map must have held to be made again
// when it shrinks (smaller ones cost too little to bother).
const remakeMin = 4096

func newTxAges() *txAges { return &txAges{m: make(map[uint64]txAge)} }

// ageKey is the key of a transaction's age.
func ageKey(h util.Uint256) uint64 { return binary.LittleEndian.Uint64(h[:8]) }

// scanResult is what one scan of the pool found.
type scanResult struct {
	due    []util.Uint256 // to announce again now
	stale  int            // pending for threshold or longer
	oldest time.Duration  // age of the oldest pooled transaction
}

// maxBackoff bounds the doubling of the announcement period (2^62
// periods: never reached, no overflow).
const maxBackoff = 62

// scan takes the pooled hashes at now. A hash seen for the first time is
// due at the age threshold; one due (and announced, when send) is due
// next at the following power-of-two multiple of threshold above its
// age, so announcements happen at threshold, 2·threshold, 4·threshold…
// of age, as neo-go does. Without send (no peer to tell) nothing due is
// postponed. Hashes no longer pooled are forgotten.
func (a *txAges) scan(hashes []util.Uint256, now time.Time, threshold time.Duration, send bool) scanResult {
	a.gen++
	threshold = max(threshold, time.Millisecond)
	var r scanResult
	for _, h := range hashes {
		key := ageKey(h)
		e, ok := a.m[key]
		if !ok {
			a.m[key] = txAge{first: now.UnixNano(), gen: a.gen}
			continue
		}
		e.gen = a.gen
		age := now.Sub(time.Unix(0, e.first))
		r.oldest = max(r.oldest, age)
		if age >= threshold {
			r.stale++
		}
		if q := int64(age / threshold); send && q >= 1<<e.k {
			r.due = append(r.due, h)
			for e.k < maxBackoff && 1<<e.k <= q {
				e.k++
			}
		}
		a.m[key] = e
	}
	for key, e := range a.m {
		if e.gen != a.gen {
			delete(a.m, key)
		}
	}
	a.shrink()
	return r
}

// shrink makes the map again when it holds a quarter of its peak.
func (a *txAges) shrink() {
	a.peak = max(a.peak, len(a.m))
	if a.peak < remakeMin || len(a.m) > a.peak/4 {
		return
	}
	m := make(map[uint64]txAge, len(a.m))
	for key, e := range a.m {
		m[key] = e
	}
	a.m, a.peak = m, len(m)
	a.remakes++
}

// txResendLoop looks at the pool once a block time: transactions that
// stay in it are announced again to every peer (with a doubling
// back-off), counted in the stale-transactions metric and reported by a
// rate-limited warning. A transaction a peer dropped (full queue, lost
// getdata, busy node) is so offered again until a block includes it.
func (s *Server) txResendLoop(ctx context.Context, tick clock.Ticker) {
	defer tick.Stop()
	threshold := time.Duration(s.cfg.TxResendThreshold) * s.cfg.TimePerBlock
	var nextWarn time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C():
			now := s.clock.Now()
			_, peers := s.PeerCount()
			r := s.pending.scan(s.cfg.Pool.TxHashes(), now, threshold, peers > 0)
			s.metrics.staleTxs.Set(float64(r.stale))
			if len(r.due) > 0 {
				s.reannounce(r.due)
			}
			if r.stale > 0 && !now.Before(nextWarn) {
				nextWarn = now.Add(staleWarnEvery)
				s.log.Warn("transactions pending in the pool for several blocks",
					zap.Int("count", r.stale), zap.Int("blocks", s.cfg.TxResendThreshold),
					zap.Duration("oldest", r.oldest.Round(time.Second)), zap.Int("reannounced", len(r.due)),
					zap.Int("peers", peers))
			}
		}
	}
}

// reannounce announces pooled transactions again to every peer, in
// inventories of up to 500 hashes.
func (s *Server) reannounce(hashes []util.Uint256) {
	s.metrics.reannounced.Add(float64(len(hashes)))
	s.counters.reannounced.Add(uint64(len(hashes)))
	s.log.Debug("announcing pooled transactions again", zap.Int("count", len(hashes)))
	for _, inv := range payload.SplitInventory(payload.InvTX, hashes, payload.MaxHashesCount) {
		m, err := message.New(message.CmdInv, &inv)
		if err != nil {
			s.log.Error("building tx inv", zap.Error(err))
			return
		}
		s.broadcast(m, qBroadcast, true, nil)
	}
}
