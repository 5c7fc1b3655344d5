package node_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"math/rand"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/testwallet"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
)

// What the process-level soaks (soak_kill_test.go, soak_kill4_test.go,
// soak_diskfull_test.go) share: `n3d node` processes, their RPC client,
// the record of what a client was served, and the transfer load.

// soakRPC is a JSON-RPC client of one node.
type soakRPC struct {
	url    string
	client *http.Client
}

// call sends one request; an RPC error is returned as an error.
func (c *soakRPC) call(method string, out any, params ...any) error {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return fmt.Errorf("%s: marshal: %w", method, err)
	}
	resp, err := c.client.Post(c.url, "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: read: %w", method, err)
	}
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Data    string `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%s: %w (%s)", method, err, raw)
	}
	if r.Error != nil {
		return fmt.Errorf("%s: rpc error %d %s %s", method, r.Error.Code, r.Error.Message, r.Error.Data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(r.Result, out); err != nil {
		return fmt.Errorf("%s: result: %w (%s)", method, err, r.Result)
	}
	return nil
}

// soakSeen is what the RPC client was served: per height the block hash
// and state root, and every accepted transaction with its expiry.
type soakSeen struct {
	blocks map[uint32]string
	roots  map[uint32]string
	txs    map[string]uint32 // hash (0x-LE string form) -> ValidUntilBlock
	// confirmed counts the accepted transactions found in a served block:
	// they are no longer tracked one by one, the block hash check (done
	// after every restart) covers them.
	confirmed int
	expired   int
}

func newSoakSeen() *soakSeen {
	return &soakSeen{blocks: map[uint32]string{}, roots: map[uint32]string{}, txs: map[string]uint32{}}
}

// soakNode is one `n3d node` process.
type soakNode struct {
	bin, cfgFile, logFile string
	cmd                   *exec.Cmd
	rpc                   *soakRPC
}

func (n *soakNode) start(t *testing.T) {
	t.Helper()
	logf, err := os.OpenFile(n.logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	require.NoError(t, err)
	defer logf.Close()
	cmd := exec.Command(n.bin, "node", "--config-file", n.cfgFile)
	cmd.Stdout, cmd.Stderr = logf, logf
	require.NoError(t, cmd.Start())
	n.cmd = cmd
}

// kill SIGKILLs the process and reaps it.
func (n *soakNode) kill(t *testing.T) {
	t.Helper()
	if n.cmd == nil {
		return
	}
	require.NoError(t, n.cmd.Process.Signal(syscall.SIGKILL))
	_ = n.cmd.Wait() // killed: the exit error is expected
	n.cmd = nil
}

// signal sends sig (SIGSTOP, SIGCONT) to the running process.
func (n *soakNode) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	require.NotNil(t, n.cmd)
	require.NoError(t, n.cmd.Process.Signal(sig))
}

// height waits for the RPC server and returns the block count - 1.
func (n *soakNode) waitHeight(t *testing.T, atLeast uint32) uint32 {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var count uint32
		err := n.rpc.call("getblockcount", &count)
		if err == nil && count > 0 && count-1 >= atLeast {
			return count - 1
		}
		if time.Now().After(deadline) {
			tail, _ := os.ReadFile(n.logFile)
			if len(tail) > 4000 {
				tail = tail[len(tail)-4000:]
			}
			t.Fatalf("node not at height %d within 60s: %v\nlog tail:\n%s", atLeast, err, tail)
		}
		time.Sleep(50 * time.Millisecond) // polling a process, not a timed assertion
	}
}

// buildN3d builds cmd/n3d of this tree, or returns N3D_SOAK_BIN when set
// (a binary built elsewhere, e.g. from another branch, run by this soak).
func buildN3d(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("N3D_SOAK_BIN"); bin != "" {
		t.Logf("running %s (N3D_SOAK_BIN)", bin)
		return bin
	}
	bin := filepath.Join(t.TempDir(), "n3d")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/n3d")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

// soakSingleConfig writes the single-validator privnet config with a
// LevelDB in dir and the given ports.
func soakSingleConfig(t *testing.T, dir string, p2p, rpcPort int) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "config", "protocol.privnet.single.yml"))
	require.NoError(t, err)
	walletPath, err := filepath.Abs(filepath.Join("..", "..", "config", "wallet.privnet.single.json"))
	require.NoError(t, err)
	s := string(raw)
	for old, new := range map[string]string{
		`"./chains/privnet-single"`:             strconv.Quote(filepath.Join(dir, "db")),
		`"127.0.0.1:20333"`:                     strconv.Quote("127.0.0.1:" + strconv.Itoa(p2p)),
		`"127.0.0.1:30333"`:                     strconv.Quote("127.0.0.1:" + strconv.Itoa(rpcPort)),
		`"./config/wallet.privnet.single.json"`: strconv.Quote(walletPath),
	} {
		require.Contains(t, s, old)
		s = strings.Replace(s, old, new, 1)
	}
	p := filepath.Join(dir, "config.yml")
	require.NoError(t, os.WriteFile(p, []byte(s), 0o600))
	return p
}

// soakSigner decrypts the validators' 1-of-1 multisig account.
func soakSigner(t *testing.T) txbuild.Signer {
	t.Helper()
	a := testwallet.Account(t, filepath.Join("..", "..", "config", "wallet.privnet.single.json"), soakMultiAddr, "one")
	s, err := txbuild.AccountSigner(a, transaction.CalledByEntry)
	require.NoError(t, err)
	return s
}

// soakTransfer makes a signed 1-datoshi GAS transfer with generous fixed
// fees, valid for vub.
func soakTransfer(t *testing.T, rng *rand.Rand, s txbuild.Signer, vub uint32) *transaction.Transaction {
	t.Helper()
	var to util.Uint160
	rng.Read(to[:])
	script, err := txbuild.TransferScript([]txbuild.Transfer{{
		Token: txbuild.GasHash, From: s.Account, To: to, Amount: big.NewInt(1)}})
	require.NoError(t, err)
	tx := &transaction.Transaction{
		Nonce: rng.Uint32(), SystemFee: 100_000_000, NetworkFee: 10_000_000,
		ValidUntilBlock: vub, Signers: []transaction.Signer{s.Signer}, Script: script,
	}
	require.NoError(t, txbuild.Sign(tx, 56753, []txbuild.Signer{s}))
	return tx
}

// soakVUB picks a transfer's ValidUntilBlock: a quarter expire within
// 2-21 blocks (the expiry path across kills), the others stay valid for
// 60-159 blocks, long enough that each one is found in a block or a pool
// at the next restart's check (a lost one cannot hide as expired).
func soakVUB(rng *rand.Rand, height uint32) uint32 {
	if rng.Intn(4) == 0 {
		return height + 2 + uint32(rng.Intn(20))
	}
	return height + 60 + uint32(rng.Intn(100))
}

// observe records every block from `from` up to the node's height.
func (seen *soakSeen) observe(c *soakRPC, from uint32) (uint32, error) {
	var count uint32
	if err := c.call("getblockcount", &count); err != nil {
		return from, err
	}
	for h := from; h < count; h++ {
		var hash string
		if err := c.call("getblockhash", &hash, h); err != nil {
			return h, err
		}
		var root struct {
			Root string `json:"roothash"`
		}
		if err := c.call("getstateroot", &root, h); err != nil {
			return h, err
		}
		if old, ok := seen.blocks[h]; ok && old != hash {
			return h, fmt.Errorf("height %d: block %s served, earlier %s", h, hash, old)
		}
		if old, ok := seen.roots[h]; ok && old != root.Root {
			return h, fmt.Errorf("height %d: state root %s served, earlier %s", h, root.Root, old)
		}
		seen.blocks[h], seen.roots[h] = hash, root.Root
	}
	return count, nil
}

// verify checks after a restart what the issue asks: every served block
// and root unchanged, every accepted transaction in a block, pooled or
// expired. It returns the number of transactions found in blocks.
func (seen *soakSeen) verify(t *testing.T, c *soakRPC, kill int) int {
	t.Helper()
	var count uint32
	require.NoError(t, c.call("getblockcount", &count))
	for h, want := range seen.blocks {
		require.Less(t, h, count, "kill %d: served height %d lost (count %d)", kill, h, count)
		var hash string
		require.NoError(t, c.call("getblockhash", &hash, h))
		require.Equal(t, want, hash, "kill %d: block at %d changed", kill, h)
		var root struct {
			Root string `json:"roothash"`
		}
		require.NoError(t, c.call("getstateroot", &root, h))
		require.Equal(t, seen.roots[h], root.Root, "kill %d: state root at %d changed", kill, h)
	}
	var pool []string
	require.NoError(t, c.call("getrawmempool", &pool))
	pooled := make(map[string]bool, len(pool))
	for _, p := range pool {
		pooled[p] = true
	}
	inBlocks := 0
	for tx, vub := range seen.txs {
		var height uint32
		err := c.call("gettransactionheight", &height, tx)
		switch {
		case err == nil:
			inBlocks++
			if _, served := seen.blocks[height]; served {
				delete(seen.txs, tx)
				seen.confirmed++
			}
		case pooled[tx]:
		case vub < count || vub < soakCount(t, c): // expired: ValidUntilBlock passed
			// (the node keeps making blocks while this runs, so the
			// count is read again before calling it lost)
			delete(seen.txs, tx)
			seen.expired++
		default:
			t.Fatalf("kill %d: accepted tx %s (vub %d) neither in a block nor pooled at count %d: %v",
				kill, tx, vub, count, err)
		}
	}
	return inBlocks
}

// countReplays is how many starts in a node log replayed blocks from the
// block log (the chain's INFO line at Open).
func countReplays(t *testing.T, logFile string) int {
	t.Helper()
	data, err := os.ReadFile(logFile)
	require.NoError(t, err)
	return bytes.Count(data, []byte("replayed logged blocks above the persisted state"))
}

// keepLog copies a node log to N3D_SOAK_LOGDIR, if set, as
// <test>-<tag>-<file>.
func keepLog(t *testing.T, path, tag string) {
	dir := os.Getenv("N3D_SOAK_LOGDIR")
	if dir == "" {
		if t.Failed() {
			t.Logf("node log lost with the temporary directory: set N3D_SOAK_LOGDIR to keep it")
		}
		return
	}
	data, err := os.ReadFile(path)
	if err == nil {
		dst := filepath.Join(dir, t.Name()+"-"+tag+"-"+filepath.Base(path))
		err = os.WriteFile(dst, data, 0o600)
		t.Logf("node log kept in %s", dst)
	}
	if err != nil {
		t.Logf("keeping the node log: %v", err)
	}
}

func soakCount(t *testing.T, c *soakRPC) uint32 {
	t.Helper()
	var count uint32
	require.NoError(t, c.call("getblockcount", &count))
	return count
}

// verify4 checks every accepted transaction against all nodes: pooled
// on some node, in a block on some node, or expired. Those in a block
// already served are no longer tracked (the block checks cover them).
func (seen *soakSeen) verify4(t *testing.T, nodes []*soakNode, kill int) {
	t.Helper()
	pooled := map[string]bool{}
	for _, n := range nodes {
		var pool []string
		require.NoError(t, n.rpc.call("getrawmempool", &pool))
		for _, p := range pool {
			pooled[p] = true
		}
	}
	maxCount := func() uint32 {
		var c uint32
		for _, n := range nodes {
			c = max(c, soakCount(t, n.rpc))
		}
		return c
	}
	count := maxCount()
	for tx, vub := range seen.txs {
		if pooled[tx] {
			continue
		}
		found, h := false, uint32(0)
		var lastErr error
		for _, n := range nodes {
			if lastErr = n.rpc.call("gettransactionheight", &h, tx); lastErr == nil {
				found = true
				break
			}
		}
		switch {
		case found:
			if _, served := seen.blocks[h]; served {
				delete(seen.txs, tx)
				seen.confirmed++
			}
		case vub < count || vub < maxCount():
			delete(seen.txs, tx)
			seen.expired++
		default:
			t.Fatalf("kill %d: accepted tx %s (vub %d) neither in a block nor pooled on any node at count %d: %v",
				kill, tx, vub, count, lastErr)
		}
	}
}

// exited reports whether the node process has ended (and reaps it).
func (n *soakNode) exited() (bool, error) {
	if n.cmd == nil {
		return true, nil
	}
	if n.cmd.ProcessState != nil {
		return true, nil
	}
	// Signal 0 only checks the process exists; a zombie still does, so
	// look at its state in /proc.
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", n.cmd.Process.Pid))
	if err != nil {
		return false, err
	}
	if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
		err := n.cmd.Wait()
		return true, err
	}
	return false, nil
}

// logCount counts the occurrences of line in a node log.
func logCount(t *testing.T, path, line string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return bytes.Count(data, []byte(line))
}

// soakSeed is N3D_SOAK_SEED or the time; it is logged so a failed run can
// be repeated.
func soakSeed(t *testing.T) (int64, *rand.Rand) {
	t.Helper()
	seed := time.Now().UnixNano()
	if s := os.Getenv("N3D_SOAK_SEED"); s != "" {
		var err error
		seed, err = strconv.ParseInt(s, 10, 64)
		require.NoError(t, err)
	}
	t.Logf("seed %d", seed)
	return seed, rand.New(rand.NewSource(seed))
}

// soakPort is N3D_SOAK_PORT (default 22800) + offset: each soak keeps its
// ports in its own range above it.
func soakPort(t *testing.T, offset int) int {
	t.Helper()
	base := 22800
	if s := os.Getenv("N3D_SOAK_PORT"); s != "" {
		var err error
		base, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	return base + offset
}

// newSoakNode describes a node process (not started) whose RPC server
// listens on rpcPort; every request uses a new connection, so a killed
// node leaves no stale one behind.
func newSoakNode(bin, cfgFile, logFile string, rpcPort int) *soakNode {
	return &soakNode{bin: bin, cfgFile: cfgFile, logFile: logFile,
		rpc: &soakRPC{url: "http://127.0.0.1:" + strconv.Itoa(rpcPort),
			client: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}}}
}

// send submits tx to c and reports whether it was accepted; an accepted
// one is tracked until it is found in a served block or expires.
func (seen *soakSeen) send(t *testing.T, c *soakRPC, tx *transaction.Transaction) bool {
	t.Helper()
	raw, err := tx.Bytes()
	require.NoError(t, err)
	var res struct {
		Hash string `json:"hash"`
	}
	if err := c.call("sendrawtransaction", &res, base64.StdEncoding.EncodeToString(raw)); err != nil {
		return false
	}
	seen.txs[res.Hash] = tx.ValidUntilBlock
	return true
}
