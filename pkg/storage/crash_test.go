package storage

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The crash test re-executes the test binary as a child that persists
// generation after generation of a large changeset through a
// MemCachedStore, kills it with SIGKILL while it persists, reopens the
// database and checks that it holds exactly one complete generation.

const (
	crashEnv     = "N3D_STORAGE_CRASH_CHILD" // "<type>\t<path>" in the child
	crashKeys    = 20000                     // keys rewritten per generation
	crashValSize = 64
)

var crashGenKey = []byte("\xc0gen")

func crashKey(i int) []byte { return binary.BigEndian.AppendUint32([]byte{0x70}, uint32(i)) }

func crashTagKey(gen uint64) []byte { return binary.BigEndian.AppendUint64([]byte{0x71}, gen) }

// crashTables is LevelDB with a memtable far smaller than a generation
// (~1.7 MB), whose change sets go to level-0 tables in a transaction.
const crashTables = "leveldb-tables"

func crashConfig(typ, path string) DBConfiguration {
	switch typ {
	case LevelDB:
		return DBConfiguration{Type: LevelDB, LevelDBOptions: LevelDBOptions{DataDirectoryPath: path}}
	case crashTables:
		return DBConfiguration{Type: LevelDB, LevelDBOptions: LevelDBOptions{DataDirectoryPath: path, WriteBuffer: 256 << 10}}
	}
	return DBConfiguration{Type: BoltDB, BoltDBOptions: BoltDBOptions{FilePath: path}}
}

// TestCrashChild is the child process; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	spec := os.Getenv(crashEnv)
	if spec == "" {
		t.Skip("helper process of TestCrashDuringPersist")
	}
	typ, path, _ := strings.Cut(spec, "\t")
	store, err := New(crashConfig(typ, path))
	require.NoError(t, err)
	cache := NewMemCachedStore(store)
	gen := uint64(1)
	if v, err := cache.Get(crashGenKey); err == nil {
		gen = binary.LittleEndian.Uint64(v) + 1
	}
	for ; ; gen++ {
		val := binary.LittleEndian.AppendUint64(make([]byte, 0, crashValSize), gen)
		val = append(val, bytes.Repeat([]byte{byte(gen)}, crashValSize-8)...)
		for i := range crashKeys {
			require.NoError(t, cache.Put(crashKey(i), val))
		}
		require.NoError(t, cache.Delete(crashTagKey(gen-1)))
		require.NoError(t, cache.Put(crashTagKey(gen), nil))
		require.NoError(t, cache.Put(crashGenKey, val[:8]))
		fmt.Printf("begin %d\n", gen)
		_, err := cache.Persist()
		require.NoError(t, err)
		require.NoError(t, cache.WaitPersist())
		fmt.Printf("end %d\n", gen)
	}
}

// runCrashChild starts the child, kills it a random moment after it began
// persisting generation minGen or later, and returns the last generation
// it began and the last it finished.
func runCrashChild(t *testing.T, typ, path string, minGen uint64, r *rand.Rand) (begun, ended uint64) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+typ+"\t"+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		word, num, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		g, err := strconv.ParseUint(num, 10, 64)
		if err != nil {
			continue
		}
		switch word {
		case "begin":
			begun = g
		case "end":
			ended = g
		}
		if word == "begin" && g >= minGen && !killed {
			time.Sleep(time.Duration(r.IntN(40)) * time.Millisecond)
			require.NoError(t, cmd.Process.Kill()) // SIGKILL
			killed = true
		}
	}
	err = cmd.Wait()
	require.True(t, killed, "child exited on its own: %v\n%s", err, stderr.String())
	var exitErr *exec.ExitError
	require.True(t, errors.As(err, &exitErr), "child: %v", err)
	return begun, ended
}

// checkCrashState reopens the database and requires one whole generation.
func checkCrashState(t *testing.T, typ, path string) uint64 {
	s, err := New(crashConfig(typ, path))
	require.NoError(t, err, "reopen after SIGKILL")
	defer func() { require.NoError(t, s.Close()) }()
	v, err := s.Get(crashGenKey)
	require.NoError(t, err)
	gen := binary.LittleEndian.Uint64(v)
	n := 0
	require.NoError(t, s.Seek(SeekRange{Prefix: []byte{0x70}}, func(k, v []byte) bool {
		require.Equal(t, gen, binary.LittleEndian.Uint64(v), "key %x is from another generation", k)
		n++
		return true
	}))
	require.Equal(t, crashKeys, n)
	var tags []string
	require.NoError(t, s.Seek(SeekRange{Prefix: []byte{0x71}}, func(k, _ []byte) bool {
		tags = append(tags, fmt.Sprintf("%x", k))
		return true
	}))
	require.Equal(t, []string{fmt.Sprintf("%x", crashTagKey(gen))}, tags, "deletions of the generation applied too")
	return gen
}

func TestCrashDuringPersist(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	r := rand.New(rand.NewPCG(7, uint64(time.Now().UnixNano())))
	for _, typ := range []string{LevelDB, crashTables, BoltDB} {
		t.Run(typ, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "db")
			var last uint64
			midPersist := 0
			for trial := range 3 {
				begun, ended := runCrashChild(t, typ, path, last+2, r)
				gen := checkCrashState(t, typ, path)
				require.True(t, gen >= ended && gen <= begun,
					"trial %d: generation %d, child finished %d and began %d", trial, gen, ended, begun)
				if begun > ended {
					midPersist++
				}
				last = gen
			}
			t.Logf("%s: %d of 3 kills landed while a persist was running", typ, midPersist)
		})
	}
}
