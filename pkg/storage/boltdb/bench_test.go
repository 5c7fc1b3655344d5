package boltdb

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/n3d-io/n3d/internal/cputime"
	bolt "go.etcd.io/bbolt"
)

// BenchmarkNodeCycle models what a single node under neo-bench load asks
// of BoltDB in one persist interval (one second at ~7k transfers/s): one
// change set of perCycle fresh records under random 33-byte keys (the
// transactions with their execution results) and a few rewritten hot keys
// (balances), committed by the write cache's flush; meanwhile the block
// log's durable write of the next block (perCycle × 250 bytes, one key)
// and the verification reads of the incoming transactions (random Gets
// of existing records). One op is one cycle; every variant starts from
// the same prefilled file. Run it with a few cycles, e.g.
//
//	go test -run '^$' -bench NodeCycle -benchtime 20x ./pkg/storage/boltdb
//
// cpu-ms/op is the process CPU time (user+system) per cycle, commit-ms
// the change set's commit, logput-ms how long the block log write took
// (it waits for bbolt's single writer), get-ns a read (wall time, so it
// includes waiting for a CPU), file-MB the file size at the end,
// written-MB/op the bytes handed to write(2)/pwrite(2) per cycle,
// minflt/op the minor page faults per cycle.
// Variants: current (Open's options), statistics (bbolt's counters on),
// nofreelistsync (the free-page list not written at commit), fill90 (split
// pages filled to 90%), every3 (the records of three cycles committed at
// once: a three times longer persist interval).
func BenchmarkNodeCycle(b *testing.B) {
	const (
		prefill  = 100_000
		perCycle = 7_000
		getsPer  = 20_000
	)
	variants := []struct {
		name string
		tune func(*bolt.Options)
		span int // cycles per commit
		fill float64
	}{
		{"current", nil, 1, 0},
		{"statistics", func(o *bolt.Options) { o.NoStatistics = false }, 1, 0},
		{"nofreelistsync", func(o *bolt.Options) { o.NoFreelistSync = true }, 1, 0},
		{"fill90", nil, 1, 0.9},
		{"every3", nil, 3, 0},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			s := openTuned(b, v.tune)
			s.fillPercent = v.fill
			r := rand.New(rand.NewPCG(1, 2))
			var keys [][]byte
			for i := 0; i < prefill; i += 10_000 {
				puts := make(map[string][]byte, 10_000)
				for range 10_000 {
					k := randKey(r)
					keys = append(keys, k)
					puts[string(k)] = make([]byte, 700)
				}
				if err := s.PutChangeSet(puts, nil); err != nil {
					b.Fatal(err)
				}
			}
			var st cycleStats
			b.ResetTimer()
			cpu0, w0, f0 := cputime.Process(), writtenBytes(), minorFaults()
			for i := range b.N {
				keys = nodeCycle(b, s, r, keys, i, perCycle, getsPer, v.span, &st)
			}
			cpu, written, faults := cputime.Process()-cpu0, writtenBytes()-w0, minorFaults()-f0
			b.StopTimer()
			fi, err := os.Stat(s.db.Path())
			if err != nil {
				b.Fatal(err)
			}
			n := float64(b.N)
			b.ReportMetric(float64(cpu.Microseconds())/1000/n, "cpu-ms/op")
			b.ReportMetric(float64(st.commit.Microseconds())/1000/n, "commit-ms")
			b.ReportMetric(float64(st.logPut.Microseconds())/1000/n, "logput-ms")
			b.ReportMetric(float64(st.gets.Nanoseconds())/float64(st.nGets), "get-ns")
			b.ReportMetric(float64(fi.Size())/(1<<20), "file-MB")
			b.ReportMetric(float64(written)/(1<<20)/n, "written-MB/op")
			b.ReportMetric(float64(faults)/n, "minflt/op")
		})
	}
}

// openTuned opens a store in a temporary directory with Open's bbolt
// options changed by tune (if set); it is closed with the benchmark.
func openTuned(b *testing.B, tune func(*bolt.Options)) *Store {
	o := Options{FilePath: filepath.Join(b.TempDir(), "db.bolt")}
	opts := boltOptions(o)
	if tune != nil {
		tune(opts)
	}
	s, err := openWith(o, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

type cycleStats struct {
	commit, logPut, gets time.Duration
	nGets                int
}

func randKey(r *rand.Rand) []byte {
	k := make([]byte, 33)
	k[0] = 0x01
	for j := 1; j < 33; j += 8 {
		binary.LittleEndian.PutUint64(k[j:], r.Uint64())
	}
	return k
}

// nodeCycle runs one cycle (see BenchmarkNodeCycle) and returns keys with
// the new records. With span > 1 the records of span cycles are committed
// together every span-th cycle.
func nodeCycle(b *testing.B, s *Store, r *rand.Rand, keys [][]byte, i, perCycle, gets, span int,
	st *cycleStats) [][]byte {
	var wg sync.WaitGroup
	old := keys[:len(keys):len(keys)] // committed: the readers' keys
	logKey := binary.BigEndian.AppendUint32([]byte{0xf0}, uint32(i))
	commit := i%span == span-1
	if commit {
		puts := make(map[string][]byte, span*perCycle+4)
		for range span * perCycle {
			k := randKey(r)
			keys = append(keys, k)
			puts[string(k)] = make([]byte, 700)
		}
		for h := range 4 {
			puts[string([]byte{0x70, byte(h)})] = make([]byte, 60)
		}
		dels := map[string]struct{}{}
		for j := i - span; j < i; j++ {
			dels[string(binary.BigEndian.AppendUint32([]byte{0xf0}, uint32(j)))] = struct{}{}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			if err := s.PutChangeSet(puts, dels); err != nil {
				b.Error(err)
			}
			st.commit += time.Since(t0)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(time.Millisecond) // the flush started first
		t0 := time.Now()
		if err := s.PutSync(logKey, make([]byte, perCycle*250)); err != nil {
			b.Error(err)
		}
		st.logPut += time.Since(t0)
	}()
	var mu sync.Mutex
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rr := rand.New(rand.NewPCG(uint64(i), uint64(g)))
			t0 := time.Now()
			for range gets / 2 {
				if _, err := s.Get(old[rr.IntN(len(old))]); err != nil {
					b.Error(fmt.Errorf("get: %w", err))
					return
				}
			}
			d := time.Since(t0)
			mu.Lock()
			st.gets += d
			st.nGets += gets / 2
			mu.Unlock()
		}()
	}
	wg.Wait()
	return keys
}

// minorFaults is the process's count of minor page faults (0 where
// getrusage does not give it).
func minorFaults() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return int64(ru.Minflt)
}

// writtenBytes is the process's wchar from /proc/self/io: the bytes handed
// to write and pwrite (0 where there is no such file).
func writtenBytes() int64 {
	raw, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	var n int64
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	return n
}

// BenchmarkGet reads random existing keys of a 100k-record file, one
// goroutine; one op is one Get.
func BenchmarkGet(b *testing.B) {
	for _, v := range []struct {
		name string
		tune func(*bolt.Options)
	}{
		{"current", nil},
		{"statistics", func(o *bolt.Options) { o.NoStatistics = false }},
	} {
		b.Run(v.name, func(b *testing.B) {
			s := openTuned(b, v.tune)
			r := rand.New(rand.NewPCG(1, 2))
			var keys [][]byte
			for range 10 {
				puts := make(map[string][]byte, 10_000)
				for range 10_000 {
					k := randKey(r)
					keys = append(keys, k)
					puts[string(k)] = make([]byte, 700)
				}
				if err := s.PutChangeSet(puts, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; b.Loop(); i++ {
				if _, err := s.Get(keys[(i*7919)%len(keys)]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkCommitMemory measures what one change set of random keys costs
// the heap while bbolt commits it: bbolt materializes every leaf page the
// keys touch as a node and writes each dirty page from a heap buffer, so a
// commit's transient grows with the pages touched times the page size.
// One op is one change set of perSet keys (values of 80–600 bytes, like
// transactions, MPT nodes and execution results) into a prefilled file.
// alloc-MB/op is what the op allocated, peak-MB the highest heap (objects)
// seen above the level before the op (sampled every 200 µs), cpu-ms/op the
// process CPU time. Variants: the page size of a new file; "onetx" commits
// the change set in one transaction, as before range commits (commit.go).
func BenchmarkCommitMemory(b *testing.B) {
	const (
		prefill = 200_000
		perSet  = 30_000
	)
	for _, v := range []struct {
		name    string
		ps      int
		entries int
	}{{"page4096", 4096, 0}, {"page4096-onetx", 4096, 1 << 30}, {"page2048", 2048, 0}, {"page8192", 8192, 0}} {
		ps := v.ps
		b.Run(v.name, func(b *testing.B) {
			s := openTuned(b, func(o *bolt.Options) { o.PageSize = ps })
			if v.entries != 0 {
				s.rangeEntries, s.rangeBytes = v.entries, 1<<40
			}
			r := rand.New(rand.NewPCG(1, 2))
			set := func(n int) map[string][]byte {
				puts := make(map[string][]byte, n)
				for range n {
					puts[string(randKey(r))] = make([]byte, 80+r.IntN(520))
				}
				return puts
			}
			for i := 0; i < prefill; i += 20_000 {
				if err := s.PutChangeSet(set(20_000), nil); err != nil {
					b.Fatal(err)
				}
			}
			var peak, alloc uint64
			b.ResetTimer()
			cpu0 := cputime.Process()
			for range b.N {
				b.StopTimer()
				puts := set(perSet)
				runtime.GC()
				b.StartTimer()
				p, a, err := heapDuring(func() error { return s.PutChangeSet(puts, nil) })
				if err != nil {
					b.Fatal(err)
				}
				peak, alloc = peak+p, alloc+a
			}
			cpu := cputime.Process() - cpu0
			n := float64(b.N)
			b.ReportMetric(float64(cpu.Microseconds())/1000/n, "cpu-ms/op")
			b.ReportMetric(float64(alloc)/(1<<20)/n, "alloc-MB/op")
			b.ReportMetric(float64(peak)/(1<<20)/n, "peak-MB")
		})
	}
}

// heapDuring runs fn and returns the highest heap (objects) seen above the
// level at the start, sampled every 200 µs, and the bytes fn's process
// allocated meanwhile.
func heapDuring(fn func() error) (peak, alloc uint64, err error) {
	read := func() (live, total uint64) {
		ss := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
		metrics.Read(ss)
		return ss[0].Value.Uint64(), ss[1].Value.Uint64()
	}
	base, total0 := read()
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		var hi uint64
		for {
			if live, _ := read(); live > hi {
				hi = live
			}
			select {
			case <-stop:
				done <- hi
				return
			case <-t.C:
			}
		}
	}()
	err = fn()
	close(stop)
	hi := <-done
	_, total := read()
	if hi > base {
		peak = hi - base
	}
	return peak, total - total0, err
}
