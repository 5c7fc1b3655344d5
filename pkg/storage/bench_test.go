package storage

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Benchmarks. Keep runs short, e.g.
//
//	go test -run XXX -bench . -benchtime 3x ./pkg/storage/
//
// docs/benchmarks-storage.md records figures as ratios against the
// baselines measured in the same run.

// benchKey is shaped like a contract storage key: STStorage, contract ID,
// a 20-byte item key.
func benchKey(i int) []byte {
	k := make([]byte, 0, 25)
	k = append(k, byte(STStorage), 1, 0, 0, 0)
	k = binary.BigEndian.AppendUint64(k, uint64(i)*0x9e3779b97f4a7c15) // spread
	return append(k, make([]byte, 12)...)
}

var benchValue = make([]byte, 40)

func benchChangeSet(from, n int) map[string][]byte {
	m := make(map[string][]byte, n)
	for i := from; i < from+n; i++ {
		m[string(benchKey(i))] = benchValue
	}
	return m
}

type benchBackend struct {
	name string
	open func(b *testing.B) Store
}

func benchBackends() []benchBackend {
	return []benchBackend{
		{"memory", func(b *testing.B) Store { return NewMemoryStore() }},
		{"leveldb", func(b *testing.B) Store { return openLevel(b, b.TempDir()) }},
		{"boltdb", func(b *testing.B) Store { return openBolt(b, filepath.Join(b.TempDir(), "db.bolt")) }},
	}
}

// BenchmarkPutChangeSet writes changesets of fresh keys; one op is one
// changeset.
func BenchmarkPutChangeSet(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, be := range benchBackends() {
			b.Run(fmt.Sprintf("%s/%dk", be.name, n/1000), func(b *testing.B) {
				s := be.open(b)
				defer s.Close()
				sets := make([]map[string][]byte, b.N)
				for i := range sets {
					sets[i] = benchChangeSet(i*n, n)
				}
				b.ResetTimer()
				for i := range b.N {
					if err := s.PutChangeSet(sets[i], nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
			})
		}
	}
}

// BenchmarkSeek walks a 100k-key prefix; one op is one full walk.
func BenchmarkSeek(b *testing.B) {
	const n = 100_000
	run := func(b *testing.B, s Store) {
		b.ResetTimer()
		for range b.N {
			cnt := 0
			if err := s.Seek(SeekRange{Prefix: STStorage.Bytes()}, func(_, _ []byte) bool {
				cnt++
				return true
			}); err != nil {
				b.Fatal(err)
			}
			if cnt != n {
				b.Fatalf("%d keys", cnt)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
	}
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			s := be.open(b)
			defer s.Close()
			if err := s.PutChangeSet(benchChangeSet(0, n), nil); err != nil {
				b.Fatal(err)
			}
			run(b, s)
		})
	}
	// Half the keys on disk, half in a cached live layer.
	b.Run("memcached-half/leveldb", func(b *testing.B) {
		s := NewMemCachedStore(openLevel(b, b.TempDir()))
		defer s.Close()
		if err := s.lower.PutChangeSet(benchChangeSet(0, n/2), nil); err != nil {
			b.Fatal(err)
		}
		if err := s.PutChangeSet(benchChangeSet(n/2, n/2), nil); err != nil {
			b.Fatal(err)
		}
		run(b, s)
	})
}

// latencies collects per-operation wait times from several goroutines.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d []time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d...)
	l.mu.Unlock()
}

func (l *latencies) report(b *testing.B) {
	slices.Sort(l.d)
	if len(l.d) == 0 {
		return
	}
	q := func(p float64) float64 { return float64(l.d[int(p*float64(len(l.d)-1))].Nanoseconds()) }
	b.ReportMetric(q(0.50), "p50-ns")
	b.ReportMetric(q(0.99), "p99-ns")
	b.ReportMetric(q(0.999), "p99.9-ns")
	b.ReportMetric(q(1), "max-ns")
	b.ReportMetric(float64(len(l.d))/float64(b.N), "worker-ops/op")
}

// BenchmarkPersistWait measures how long concurrent readers and writers
// wait while a 100k-key layer is persisted, asynchronously (Persist) or
// synchronously (PersistSync). One op is one persist of 100k keys; the
// latency metrics cover every Get/Put issued while it ran.
func BenchmarkPersistWait(b *testing.B) {
	const n = 100_000
	for _, mode := range []string{"async", "sync"} {
		for _, be := range benchBackends()[1:] {
			b.Run(mode+"/"+be.name, func(b *testing.B) {
				s := NewMemCachedStore(be.open(b))
				defer s.Close()
				var lat latencies
				b.ResetTimer()
				for i := range b.N {
					b.StopTimer()
					if err := s.PutChangeSet(benchChangeSet(i*n, n), nil); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					persistUnderLoad(b, s, mode == "async", i*n, n, &lat)
				}
				lat.report(b)
			})
		}
	}
}

// persistUnderLoad persists s while one reader and one writer goroutine
// time each of their operations. The workers pause 50µs after every 8
// operations: block execution does other work between storage calls, and
// unpaced busy loops on a 2-core machine would mostly measure CPU
// starvation of the flush goroutine.
func persistUnderLoad(b *testing.B, s *MemCachedStore, async bool, from, n int, lat *latencies) {
	var (
		stop atomic.Bool
		wg   sync.WaitGroup
	)
	worker := func(write bool, seed uint64) {
		defer wg.Done()
		r := rand.New(rand.NewPCG(seed, 1))
		var d []time.Duration
		for i := 0; !stop.Load(); i++ {
			if i%8 == 7 {
				time.Sleep(50 * time.Microsecond)
			}
			k := benchKey(from + r.IntN(n))
			t0 := time.Now()
			var err error
			if write {
				err = s.Put(k, benchValue)
			} else {
				_, err = s.Get(k)
			}
			d = append(d, time.Since(t0))
			if err != nil {
				b.Error(err)
				return
			}
		}
		lat.add(d)
	}
	wg.Add(2)
	go worker(false, uint64(from))
	go worker(true, uint64(from)+1)
	var err error
	if async {
		if _, err = s.Persist(); err == nil {
			err = s.WaitPersist()
		}
	} else {
		_, err = s.PersistSync()
	}
	stop.Store(true)
	wg.Wait()
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkTxSnapshot models a transaction on the block cache: a Snapshot,
// 8 reads (half cached, half on disk), 4 writes, commit. The baseline
// "map" does the same work on a plain Go map.
func BenchmarkTxSnapshot(b *testing.B) {
	const n = 10_000
	keys := make([][]byte, 2*n)
	for i := range keys {
		keys[i] = benchKey(i)
	}
	b.Run("map", func(b *testing.B) {
		m := benchChangeSet(0, 2*n)
		b.ReportAllocs()
		for i := range b.N {
			tx := make(map[string][]byte, 4)
			for j := range 8 {
				_ = m[string(keys[(i*8+j)%(2*n)])]
			}
			for j := range 4 {
				tx[string(keys[(i*4+j)%n])] = benchValue
			}
			for k, v := range tx {
				m[k] = v
			}
		}
	})
	for _, diskHalf := range []bool{false, true} {
		name := "snapshot/memcached-all-cached"
		if diskHalf {
			name = "snapshot/memcached-half-leveldb"
		}
		b.Run(name, func(b *testing.B) {
			s := NewMemCachedStore(openLevel(b, b.TempDir()))
			defer s.Close()
			var err error
			if diskHalf {
				err = s.lower.PutChangeSet(benchChangeSet(n, n), nil)
			} else {
				err = s.PutChangeSet(benchChangeSet(n, n), nil)
			}
			if err != nil {
				b.Fatal(err)
			}
			if err := s.PutChangeSet(benchChangeSet(0, n), nil); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				runBenchTx(b, s, keys, i)
			}
		})
	}
}

func runBenchTx(b *testing.B, s Store, keys [][]byte, i int) {
	tx := NewSnapshot(s)
	for j := range 8 {
		if _, err := tx.Get(keys[(i*8+j)%len(keys)]); err != nil {
			b.Fatal(err)
		}
	}
	for j := range 4 {
		if err := tx.Put(keys[(i*4+j)%(len(keys)/2)], benchValue); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSeekCachedLayer seeks a narrow range (about 390 of 100k keys)
// in a MemCachedStore's live layer, scanning the maps ("scan", the
// baseline) or through the sorted layer index ("indexed", built by the
// first Seek and amortised over the run).
func BenchmarkSeekCachedLayer(b *testing.B) {
	const n = 100_000
	defer func(v int) { indexMinKeys = v }(indexMinKeys)
	for _, mode := range []string{"scan", "indexed"} {
		b.Run(mode, func(b *testing.B) {
			indexMinKeys = 512
			if mode == "scan" {
				indexMinKeys = 1 << 62
			}
			s := NewMemCachedStore(NewMemoryStore())
			defer s.Close()
			if err := s.PutChangeSet(benchChangeSet(0, n), nil); err != nil {
				b.Fatal(err)
			}
			prefix := append(STStorage.Bytes(), 1, 0, 0, 0, 0x42)
			b.ResetTimer()
			for range b.N {
				cnt := 0
				if err := s.Seek(SeekRange{Prefix: prefix}, func(_, _ []byte) bool {
					cnt++
					return true
				}); err != nil {
					b.Fatal(err)
				}
				if cnt == 0 {
					b.Fatal("empty range")
				}
			}
		})
	}
}

// BenchmarkSeekAfterPuts is a write cache holding a second of blocks
// (200k keys): each op puts 50 new keys, then seeks a narrow range, as
// native contracts do while a block executes. With one sorted index the
// Seek merged the whole index each time (linear in the layer); with
// geometric runs it is logarithmic.
func BenchmarkSeekAfterPuts(b *testing.B) {
	const n = 200_000
	s := NewMemCachedStore(NewMemoryStore())
	defer s.Close()
	if err := s.PutChangeSet(benchChangeSet(0, n), nil); err != nil {
		b.Fatal(err)
	}
	prefix := append(STStorage.Bytes(), 1, 0, 0, 0, 0x42)
	seek := func() {
		if err := s.Seek(SeekRange{Prefix: prefix}, func(_, _ []byte) bool { return true }); err != nil {
			b.Fatal(err)
		}
	}
	seek()
	next := n
	b.ResetTimer()
	for range b.N {
		if err := s.PutChangeSet(benchChangeSet(next, 50), nil); err != nil {
			b.Fatal(err)
		}
		next += 50
		seek()
	}
}
