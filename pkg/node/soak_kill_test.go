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

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
)

// Process-level crash soak (issue 16): `n3d node` is built, run as a
// single validator on LevelDB with 1 s blocks and SIGKILLed at seeded
// random moments while transfers are sent over RPC. After every restart
// each block hash and state root an RPC client was served must be
// unchanged at its height, and each accepted transaction must be in a
// block, back in the memory pool, or expired. Skipped unless
// N3D_SOAK_KILLS is set (the number of kills); N3D_SOAK_SEED fixes the
// seed and N3D_SOAK_PORT the first of the two loopback ports used
// (default 22800). Run by `make soak-kill`, never by `make test`.

const soakMultiAddr = "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP" // 1-of-1 validators multisig

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
	w, err := wallet.Open(filepath.Join("..", "..", "config", "wallet.privnet.single.json"))
	require.NoError(t, err)
	for _, a := range w.Accounts {
		if a.Address == soakMultiAddr {
			require.NoError(t, a.Decrypt("one", w.Scrypt))
			s, err := txbuild.AccountSigner(a, transaction.CalledByEntry)
			require.NoError(t, err)
			return s
		}
	}
	t.Fatalf("no account %s in the wallet", soakMultiAddr)
	return txbuild.Signer{}
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

func TestSoakKillSingle(t *testing.T) {
	kills, _ := strconv.Atoi(os.Getenv("N3D_SOAK_KILLS"))
	if kills <= 0 {
		t.Skip("process crash soak: set N3D_SOAK_KILLS (make soak-kill KILLS=50)")
	}
	seed := time.Now().UnixNano()
	if s := os.Getenv("N3D_SOAK_SEED"); s != "" {
		var err error
		seed, err = strconv.ParseInt(s, 10, 64)
		require.NoError(t, err)
	}
	port := 22800
	if s := os.Getenv("N3D_SOAK_PORT"); s != "" {
		var err error
		port, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	dir := t.TempDir()
	n := &soakNode{bin: buildN3d(t), cfgFile: soakSingleConfig(t, dir, port, port+1),
		logFile: filepath.Join(dir, "node.log"),
		rpc: &soakRPC{url: "http://127.0.0.1:" + strconv.Itoa(port+1),
			client: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}}}
	t.Cleanup(func() {
		n.kill(t)
		keepLog(t, n.logFile, fmt.Sprintf("seed%d", seed))
	})
	signer := soakSigner(t)
	seen := newSoakSeen()
	var sent, accepted int
	for k := 0; k < kills; k++ {
		n.start(t)
		height := n.waitHeight(t, 0)
		if k > 0 {
			seen.verify(t, n.rpc, k)
		}
		from, err := seen.observe(n.rpc, 0)
		require.NoError(t, err)
		// Load for a random 0.2-3 s, then SIGKILL without warning.
		end := time.Now().Add(200*time.Millisecond + time.Duration(rng.Int63n(int64(2800*time.Millisecond))))
		for time.Now().Before(end) {
			// Short validity, so some expire across kills too.
			tx := soakTransfer(t, rng, signer, soakVUB(rng, height))
			sent++
			var res struct {
				Hash string `json:"hash"`
			}
			raw, err := tx.Bytes()
			require.NoError(t, err)
			if err := n.rpc.call("sendrawtransaction", &res, base64.StdEncoding.EncodeToString(raw)); err == nil {
				seen.txs[res.Hash] = tx.ValidUntilBlock
				accepted++
			}
			if rng.Intn(8) == 0 {
				from, err = seen.observe(n.rpc, from)
				require.NoError(t, err, "kill %d", k)
				if from > 0 {
					height = from - 1
				}
			}
		}
		n.kill(t)
	}
	n.start(t)
	n.waitHeight(t, 0)
	seen.verify(t, n.rpc, kills)
	t.Logf("SUMMARY single seed %d: kills %d, restarts that replayed the block log %d, blocks checked %d "+
		"(height %d), txs sent %d accepted %d: in served blocks %d, expired %d, still pooled %d",
		seed, kills, countReplays(t, n.logFile), len(seen.blocks), len(seen.blocks)-1, sent, accepted,
		seen.confirmed, seen.expired, len(seen.txs))
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

// soak4Config writes node i's (0-3) copy of the four-validator privnet:
// P2P on base+i, RPC on base+10+i, its wallet from pkg/wallet/testdata.
func soak4Config(t *testing.T, dir string, i, base int) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "config", "protocol.privnet.yml"))
	require.NoError(t, err)
	walletPath, err := filepath.Abs(filepath.Join("..", "..", "pkg", "wallet", "testdata",
		fmt.Sprintf("neogo_wallet%d.json", i+1)))
	require.NoError(t, err)
	s := string(raw)
	for j := 0; j < 4; j++ {
		s = strings.Replace(s, fmt.Sprintf("localhost:%d", 20333+j), fmt.Sprintf("127.0.0.1:%d", base+j), 1)
	}
	for _, r := range [][2]string{
		{`"./chains/privnet"`, strconv.Quote(filepath.Join(dir, "db"))},
		{`":20333"`, strconv.Quote(fmt.Sprintf("127.0.0.1:%d", base+i))},
		{`":20331"`, strconv.Quote(fmt.Sprintf("127.0.0.1:%d", base+10+i))},
		{"  Consensus:\n    Enabled: false", "  Consensus:\n    Enabled: true"},
		{`"/cn_wallet.json"`, strconv.Quote(walletPath)},
		{`Password: "pass"`, `Password: "` + []string{"one", "two", "three", "four"}[i] + `"`},
		{"  Prometheus:\n    Enabled: true", "  Prometheus:\n    Enabled: false"},
	} {
		require.Contains(t, s, r[0])
		s = strings.Replace(s, r[0], r[1], 1)
	}
	p := filepath.Join(dir, "config.yml")
	require.NoError(t, os.WriteFile(p, []byte(s), 0o600))
	return p
}

// soak4Signer is the validators' 3-of-4 multisig with keys of wallets 1-3.
func soak4Signer(t *testing.T) txbuild.Signer {
	t.Helper()
	var s txbuild.Signer
	for i, pass := range []string{"one", "two", "three"} {
		w, err := wallet.Open(filepath.Join("..", "..", "pkg", "wallet", "testdata", fmt.Sprintf("neogo_wallet%d.json", i+1)))
		require.NoError(t, err)
		for _, a := range w.Accounts {
			if a.Address != "NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq" {
				continue
			}
			require.NoError(t, a.Decrypt(pass, w.Scrypt))
			if i == 0 {
				s, err = txbuild.AccountSigner(a, transaction.CalledByEntry)
				require.NoError(t, err)
			} else {
				s.Keys = append(s.Keys, a.PrivateKey())
			}
		}
	}
	require.NotNil(t, s.WalletAccount)
	require.Len(t, s.Keys, 2)
	return s
}

// TestSoakKill4: four validators, one SIGKILLed at a time at random
// moments under a transfer load and restarted; every height served by any
// node must be the same block and state root on all of them, before and
// after restarts, and every accepted transaction must end in a block, a
// pool or expired.
func TestSoakKill4(t *testing.T) {
	kills, _ := strconv.Atoi(os.Getenv("N3D_SOAK_KILLS4"))
	if kills <= 0 {
		t.Skip("four-validator crash soak: set N3D_SOAK_KILLS4 (make soak-kill KILLS4=20)")
	}
	seed := time.Now().UnixNano()
	if s := os.Getenv("N3D_SOAK_SEED"); s != "" {
		var err error
		seed, err = strconv.ParseInt(s, 10, 64)
		require.NoError(t, err)
	}
	base := 22810
	if s := os.Getenv("N3D_SOAK_PORT"); s != "" {
		p, err := strconv.Atoi(s)
		require.NoError(t, err)
		base = p + 10
	}
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	bin := buildN3d(t)
	nodes := make([]*soakNode, 4)
	for i := range nodes {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i))
		require.NoError(t, os.MkdirAll(dir, 0o700))
		nodes[i] = &soakNode{bin: bin, cfgFile: soak4Config(t, dir, i, base), logFile: filepath.Join(dir, "node.log"),
			rpc: &soakRPC{url: fmt.Sprintf("http://127.0.0.1:%d", base+10+i),
				client: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}}}
	}
	t.Cleanup(func() {
		for i, n := range nodes {
			n.kill(t)
			keepLog(t, n.logFile, fmt.Sprintf("seed%d-node%d", seed, i))
		}
	})
	for _, n := range nodes {
		n.start(t)
	}
	signer := soak4Signer(t)
	seen := newSoakSeen()
	from := make([]uint32, 4)
	validators, valIndex := soak4Validators(t)
	obs := newDbftObserver(56753, validators)
	seeds := make([]string, 4)
	for i := range seeds {
		seeds[i] = fmt.Sprintf("127.0.0.1:%d", base+i)
	}
	startObserver(t, obs, seeds)
	// N3D_SOAK_DROP_SIGNLOG=1 deletes a victim's sign log before it is
	// restarted: what a validator without one would do. The observer must
	// then catch a double signature (the run is expected to fail).
	dropSignLog := os.Getenv("N3D_SOAK_DROP_SIGNLOG") == "1"
	if dropSignLog {
		t.Logf("N3D_SOAK_DROP_SIGNLOG=1: every restarted validator loses its sign log")
	}
	// N3D_SOAK_FREEZE=1 (and the sign log dropping) makes every kill a
	// frozen-quorum kill (soakFreezeKill); else a quarter are.
	freezeAll := dropSignLog || os.Getenv("N3D_SOAK_FREEZE") == "1"
	checkSigns := func(when string) {
		if v := obs.Violations(); len(v) > 0 {
			t.Fatalf("%s: double signing seen by the observer (%s):\n%s", when, obs.Summary(), strings.Join(v, "\n"))
		}
	}
	height := nodes[0].waitHeight(t, 1)
	var sent, accepted, targeted, hit int
	// load sends transfers to the alive nodes for d, or until stop is
	// closed (nil: never).
	load := func(alive func(int) bool, d time.Duration, stop <-chan struct{}) bool {
		end := time.Now().Add(d)
		for time.Now().Before(end) {
			select {
			case <-stop:
				return true
			default:
			}
			i := rng.Intn(4)
			if !alive(i) {
				continue
			}
			tx := soakTransfer(t, rng, signer, soakVUB(rng, height))
			sent++
			raw, err := tx.Bytes()
			require.NoError(t, err)
			var res struct {
				Hash string `json:"hash"`
			}
			if err := nodes[i].rpc.call("sendrawtransaction", &res, base64.StdEncoding.EncodeToString(raw)); err == nil {
				seen.txs[res.Hash] = tx.ValidUntilBlock
				accepted++
			}
			if rng.Intn(8) == 0 {
				f, err := seen.observe(nodes[i].rpc, from[i])
				require.NoError(t, err, "node %d", i)
				from[i] = f
				if f > 0 && f-1 > height {
					height = f - 1
				}
			}
		}
		return false
	}
	all := func(int) bool { return true }
	restart := func(i, k int) {
		if dropSignLog {
			require.NoError(t, os.Remove(filepath.Join(filepath.Dir(nodes[i].cfgFile), "db.signlog")))
		}
		nodes[i].start(t)
		nodes[i].waitHeight(t, height)
		from[i] = 0 // its whole chain is compared again
		f, err := seen.observe(nodes[i].rpc, 0)
		require.NoError(t, err, "kill %d: restarted node %d", k, i)
		from[i] = f
	}
	nodeOf := make([]int, 4) // validator index -> node
	for i, v := range valIndex {
		nodeOf[v] = i
	}
	start := time.Now()
	var pairs, freezes, frozeHits int
	for k := 0; k < kills; k++ {
		load(all, time.Duration(rng.Int63n(int64(3*time.Second))), nil)
		if freezeAll || rng.Intn(4) == 0 {
			freezes++
			if soakFreezeKill(t, rng, nodes, nodeOf, obs, restart, load, k) {
				frozeHits++
			}
		} else {
			victim := rng.Intn(4)
			if rng.Intn(2) == 0 {
				// Targeted: killed just after it signed a proposal or a
				// Commit (the window the sign log is for), or after 5 s.
				targeted++
				if load(all, 5*time.Second, obs.next(valIndex[victim], false, 0)) {
					hit++
				}
			}
			nodes[victim].kill(t)
			// A pair kill: a second validator goes down with it, so the
			// other two cannot finish the height and the victim has to
			// take the round up again from what it signed before.
			second := -1
			if rng.Intn(3) == 0 {
				pairs++
				second = (victim + 1 + rng.Intn(3)) % 4
				nodes[second].kill(t)
			}
			load(func(i int) bool { return i != victim && i != second },
				500*time.Millisecond+time.Duration(rng.Int63n(int64(3*time.Second))), nil)
			restart(victim, k)
			if second >= 0 {
				load(func(i int) bool { return i != second }, time.Duration(rng.Int63n(int64(2*time.Second))), nil)
				restart(second, k)
			}
		}
		seen.verify4(t, nodes, k)
		checkSigns(fmt.Sprintf("kill %d", k))
		if (k+1)%10 == 0 {
			t.Logf("kill %d of %d, %s, height %d, %s", k+1, kills, time.Since(start).Round(time.Second), height, obs.Summary())
		}
	}
	for i, n := range nodes {
		n.waitHeight(t, height)
		f, err := seen.observe(n.rpc, 0)
		require.NoError(t, err, "final check of node %d", i)
		from[i] = f
	}
	seen.verify4(t, nodes, kills)
	checkSigns("end")
	replays := 0
	for _, n := range nodes {
		replays += countReplays(t, n.logFile)
	}
	t.Logf("SUMMARY four seed %d: kills %d (+%d pair kills; targeted %d, %d just after the victim's PrepareRequest/Commit; "+
		"frozen-quorum kills %d, %d of them after the victim's proposal), "+
		"restarts that replayed the block log %d, heights checked on all nodes %d, txs sent %d accepted %d: "+
		"in served blocks %d, expired %d, still pooled %d; %s",
		seed, kills, pairs, targeted, hit, freezes, frozeHits, replays, len(seen.blocks), sent, accepted, seen.confirmed, seen.expired,
		len(seen.txs), obs.Summary())
}

// soakFreezeKill kills a primary that cannot have finished its height:
// just after a block is made, two validators other than the primary of
// the next height are stopped (SIGSTOP), so that round can gather no
// quorum; once the observer has seen the primary's PrepareRequest for it
// the primary is SIGKILLed and restarted, then the two are resumed.
// The restarted primary must send the same proposal again (from its sign
// log), not a new one. It returns whether the proposal was seen in time
// (else the primary is killed anyway, 5 s after the freeze).
// load sends transfers to the running nodes meanwhile.
func soakFreezeKill(t *testing.T, rng *rand.Rand, nodes []*soakNode, nodeOf []int, obs *dbftObserver,
	restart func(i, k int), load func(alive func(int) bool, d time.Duration, stop <-chan struct{}) bool, k int) bool {
	t.Helper()
	c := soakCount(t, nodes[0].rpc) // height c is being agreed on
	// The load goes on while waiting: with an empty pool the primary
	// waits up to MaxTimePerBlock (20 s here) for a transaction.
	deadline := time.Now().Add(60 * time.Second)
	all := func(int) bool { return true }
	var target uint32 // the height agreed on once block c is made
	for {
		if target = soakCount(t, nodes[0].rpc); target > c {
			break
		}
		require.True(t, time.Now().Before(deadline), "kill %d: no block %d within 60 s", k, c)
		load(all, 50*time.Millisecond, nil)
	}
	victim := nodeOf[target%4] // primary of target at view 0
	others := make([]int, 0, 3)
	for i := range nodes {
		if i != victim {
			others = append(others, i)
		}
	}
	rng.Shuffle(len(others), func(a, b int) { others[a], others[b] = others[b], others[a] })
	frozen := others[:2]
	seenProposal := obs.next(byte(target%4), true, target)
	for _, i := range frozen {
		nodes[i].signal(t, syscall.SIGSTOP)
	}
	// The load goes on to the two running nodes (a primary with an empty
	// pool waits for transactions up to MaxTimePerBlock).
	hit := load(func(i int) bool { return i != frozen[0] && i != frozen[1] }, 5*time.Second, seenProposal)
	nodes[victim].kill(t)
	restart(victim, k)
	for _, i := range frozen {
		nodes[i].signal(t, syscall.SIGCONT)
	}
	return hit
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
