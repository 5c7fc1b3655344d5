package chain

import (
	"bufio"
	"bytes"
	"encoding/hex"
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

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// The chain crash test re-executes the test binary as a child that runs a
// chain on LevelDB producing blocks of transfers and storage writes: each
// transaction is saved in the pool journal and reported ("tx <hash>")
// before it goes into a block, each block reported ("block <index> <hash>
// <state root>") once AddBlock returned, i.e. once it is visible. The
// parent SIGKILLs the child at a random moment, reopens the database and
// checks that every reported block and state root is there unchanged and
// every reported transaction is on chain or back from the saved pool and
// still valid; then it starts the child again on the same database.
//
// make test runs a few kills; make soak-crash (N3D_CHAIN_CRASH_KILLS=300)
// runs hundreds.

const (
	chainCrashEnv  = "N3D_CHAIN_CRASH_CHILD" // "<dir>\t<hex key>,<hex key>,..." in the child
	chainCrashKill = "N3D_CHAIN_CRASH_KILLS" // number of kills (default 3)
	crashTxPerBlk  = 8
	crashPoolMax   = 1000
)

func crashPaths(dir string) (db, pool string) {
	return filepath.Join(dir, "db"), filepath.Join(dir, "mempool")
}

// openCrashChain opens the unit_testnet chain of the crash test in dir.
func openCrashChain(t testing.TB, cfg config.Config, dir string, interval time.Duration) *Chain {
	db, _ := crashPaths(dir)
	st, err := storage.New(storage.DBConfiguration{Type: storage.LevelDB,
		LevelDBOptions: storage.LevelDBOptions{DataDirectoryPath: db}})
	require.NoError(t, err)
	n, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: st, Natives: n, BloomCapacity: 100000, PersistInterval: interval})
	require.NoError(t, err)
	return c
}

// TestChainCrashChild is the child process; it does nothing in a normal run.
func TestChainCrashChild(t *testing.T) {
	spec := os.Getenv(chainCrashEnv)
	if spec == "" {
		t.Skip("helper process of TestChainCrash")
	}
	dir, hexKeys, _ := strings.Cut(spec, "\t")
	var vals []*keys.PrivateKey
	for _, h := range strings.Split(hexKeys, ",") {
		raw, err := hex.DecodeString(h)
		require.NoError(t, err)
		k, err := keys.NewPrivateKeyFromBytes(raw)
		require.NoError(t, err)
		vals = append(vals, k)
	}
	cfg := unitTestnet(t)
	// A short persist interval: kills land before, during and after the
	// state writes.
	c := openCrashChain(t, cfg, dir, 30*time.Millisecond)
	_, poolPath := crashPaths(dir)
	j, saved, err := mempool.OpenJournal(mempool.JournalConfig{Path: poolPath, MaxTransactions: crashPoolMax})
	require.NoError(t, err)
	pool := stillValid(c, saved)
	var g *generator
	if c.BlockHeight() == 0 {
		g, err = newGenerator(c, GenerateOptions{TxPerBlock: crashTxPerBlk, Validators: vals})
	} else {
		g, err = makeGenerator(c, GenerateOptions{TxPerBlock: crashTxPerBlk, Validators: vals})
	}
	require.NoError(t, err)
	fmt.Printf("start %d\n", c.BlockHeight())
	for {
		b, err := g.buildBlock()
		require.NoError(t, err)
		for _, tx := range b.Transactions {
			require.NoError(t, j.Append(tx))
			fmt.Printf("tx %s\n", tx.Hash().StringLE())
		}
		require.NoError(t, c.AddBlock(b))
		fmt.Printf("block %d %s %s\n", b.Index, b.Hash().StringLE(), c.CurrentStateRoot().StringLE())
		if b.Index%5 == 0 {
			pool = stillValid(c, pool)
			require.NoError(t, j.Compact(pool))
		}
	}
}

// stillValid returns the transactions of txs the chain would still pool.
func stillValid(c *Chain, txs []*transaction.Transaction) []*transaction.Transaction {
	var out []*transaction.Transaction
	for _, tx := range txs {
		if c.VerifyTx(tx) == nil {
			out = append(out, tx)
		}
	}
	return out
}

// crashReport is what the child reported before it was killed.
type crashReport struct {
	blocks map[uint32][2]util.Uint256 // hash, state root
	txs    []util.Uint256
	start  uint32
}

// runChainCrashChild starts the child and kills it after a random number
// of reported lines.
func runChainCrashChild(t *testing.T, dir, keysArg string, r *rand.Rand) crashReport {
	cmd := exec.Command(os.Args[0], "-test.run=^TestChainCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), chainCrashEnv+"="+dir+"\t"+keysArg)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	rep := crashReport{blocks: map[uint32][2]util.Uint256{}}
	killAfter := 20 + r.IntN(300)
	lines, killed := 0, false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "start":
			n, err := strconv.ParseUint(f[1], 10, 32)
			require.NoError(t, err)
			rep.start = uint32(n)
		case len(f) == 2 && f[0] == "tx":
			h, err := util.Uint256DecodeStringLE(f[1])
			require.NoError(t, err)
			rep.txs = append(rep.txs, h)
		case len(f) == 4 && f[0] == "block":
			n, err := strconv.ParseUint(f[1], 10, 32)
			require.NoError(t, err)
			h, err := util.Uint256DecodeStringLE(f[2])
			require.NoError(t, err)
			root, err := util.Uint256DecodeStringLE(f[3])
			require.NoError(t, err)
			rep.blocks[uint32(n)] = [2]util.Uint256{h, root}
		default:
			continue
		}
		if lines++; lines == killAfter && !killed {
			require.NoError(t, cmd.Process.Kill()) // SIGKILL
			killed = true
		}
	}
	err = cmd.Wait()
	require.True(t, killed, "child exited on its own: %v\n%s", err, stderr.String())
	var exitErr *exec.ExitError
	require.True(t, errors.As(err, &exitErr), "child: %v", err)
	return rep
}

// checkAfterCrash reopens the database and the saved pool and checks them
// against what the child reported; it returns the number of block log
// records found (blocks replayed or dropped at open).
func checkAfterCrash(t *testing.T, cfg config.Config, dir string, rep crashReport) int {
	db, poolPath := crashPaths(dir)
	st, err := storage.New(storage.DBConfiguration{Type: storage.LevelDB,
		LevelDBOptions: storage.LevelDBOptions{DataDirectoryPath: db}})
	require.NoError(t, err)
	logged := 0
	require.NoError(t, st.Seek(storage.SeekRange{Prefix: storage.SYSBlockLog.Bytes()}, func(_, _ []byte) bool {
		logged++
		return true
	}))
	require.NoError(t, st.Close())

	c := openCrashChain(t, cfg, dir, time.Second)
	defer func() { require.NoError(t, c.Close()) }()
	for i, want := range rep.blocks {
		h, ok := c.GetHeaderHash(i)
		require.True(t, ok, "reported block %d is gone (height %d)", i, c.BlockHeight())
		require.Equal(t, want[0], h, "block %d changed", i)
		sr, err := c.StateRoot(i)
		require.NoError(t, err, "state root %d", i)
		require.Equal(t, want[1], sr.Root, "state root %d changed", i)
	}
	j, saved, err := mempool.OpenJournal(mempool.JournalConfig{Path: poolPath, MaxTransactions: crashPoolMax})
	require.NoError(t, err)
	require.NoError(t, j.Close(saved))
	inPool := map[util.Uint256]*transaction.Transaction{}
	for _, tx := range saved {
		inPool[tx.Hash()] = tx
	}
	for _, h := range rep.txs {
		if _, _, err := c.GetTransaction(h); err == nil {
			continue
		}
		tx, ok := inPool[h]
		require.True(t, ok, "accepted transaction %s neither on chain nor in the saved pool", h.StringLE())
		require.NoError(t, c.VerifyTx(tx), "saved transaction %s no longer valid", h.StringLE())
	}
	return logged
}

func TestChainCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	kills := 3
	if s := os.Getenv(chainCrashKill); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(t, err, chainCrashKill)
		kills = n
	}
	vals := validatorKeys(t, 3)
	hexKeys := make([]string, len(vals))
	for i, k := range vals {
		hexKeys[i] = hex.EncodeToString(k.Bytes())
	}
	cfg := unitTestnet(t)
	dir := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(16, seed))
	replays, blocks, txs := 0, 0, 0
	for i := range kills {
		rep := runChainCrashChild(t, dir, strings.Join(hexKeys, ","), r)
		if n := checkAfterCrash(t, cfg, dir, rep); n != 0 {
			replays++
		}
		blocks += len(rep.blocks)
		txs += len(rep.txs)
		if (i+1)%50 == 0 {
			t.Logf("%d kills so far", i+1)
		}
	}
	t.Logf("seed %d: %d kills, %d reported blocks and %d accepted transactions checked, "+
		"%d restarts replayed the block log", seed, kills, blocks, txs, replays)
}
