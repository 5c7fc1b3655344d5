package node_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/testwallet"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
)

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
	const multisig = "NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq"
	var s txbuild.Signer
	for i, pass := range []string{"one", "two", "three"} {
		path := filepath.Join("..", "..", "pkg", "wallet", "testdata", fmt.Sprintf("neogo_wallet%d.json", i+1))
		a := testwallet.Account(t, path, multisig, pass)
		if i == 0 {
			var err error
			s, err = txbuild.AccountSigner(a, transaction.CalledByEntry)
			require.NoError(t, err)
		} else {
			s.Keys = append(s.Keys, a.PrivateKey())
		}
	}
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
	s := newSoak4(t)
	start := time.Now()
	for k := 0; k < kills; k++ {
		s.load(s.all, time.Duration(s.rng.Int63n(int64(3*time.Second))), nil)
		if s.freezeAll || s.rng.Intn(4) == 0 {
			s.freezes++
			if s.freezeKill(k) {
				s.frozeHits++
			}
		} else {
			s.plainKill(k)
		}
		s.seen.verify4(t, s.nodes, k)
		s.checkSigns(fmt.Sprintf("kill %d", k))
		if (k+1)%10 == 0 {
			t.Logf("kill %d of %d, %s, height %d, %s", k+1, kills, time.Since(start).Round(time.Second), s.height,
				s.obs.Summary())
		}
	}
	for i, n := range s.nodes {
		n.waitHeight(t, s.height)
		f, err := s.seen.observe(n.rpc, 0)
		require.NoError(t, err, "final check of node %d", i)
		s.from[i] = f
	}
	s.seen.verify4(t, s.nodes, kills)
	s.checkSigns("end")
	replays := 0
	for _, n := range s.nodes {
		replays += countReplays(t, n.logFile)
	}
	t.Logf("SUMMARY four seed %d: kills %d (+%d pair kills; targeted %d, %d just after the victim's PrepareRequest/Commit; "+
		"frozen-quorum kills %d, %d of them after the victim's proposal), "+
		"restarts that replayed the block log %d, heights checked on all nodes %d, txs sent %d accepted %d: "+
		"in served blocks %d, expired %d, still pooled %d; %s",
		s.seed, kills, s.pairs, s.targeted, s.hit, s.freezes, s.frozeHits, replays, len(s.seen.blocks), s.sent,
		s.accepted, s.seen.confirmed, s.seen.expired, len(s.seen.txs), s.obs.Summary())
}

// soak4 is the state of a four-validator soak: the processes, the
// observer of their dBFT messages and what the clients were served.
type soak4 struct {
	t        *testing.T
	seed     int64
	rng      *rand.Rand
	nodes    []*soakNode
	valIndex []byte // node -> validator index
	nodeOf   []int  // validator index -> node
	obs      *dbftObserver
	signer   txbuild.Signer
	seen     *soakSeen
	from     []uint32 // per node: the next height to observe
	height   uint32   // the highest height seen so far
	// dropSignLog: N3D_SOAK_DROP_SIGNLOG=1 deletes a victim's sign log
	// before it is restarted: what a validator without one would do. The
	// observer must then catch a double signature (the run is expected to
	// fail). freezeAll (N3D_SOAK_FREEZE=1, or the sign log dropping) makes
	// every kill a frozen-quorum kill; else a quarter are.
	dropSignLog, freezeAll                                   bool
	sent, accepted, targeted, hit, pairs, freezes, frozeHits int
}

// newSoak4 starts the four validators (P2P on N3D_SOAK_PORT+10…+13, RPC
// on +20…+23) and the observer, and waits for block 1.
func newSoak4(t *testing.T) *soak4 {
	t.Helper()
	s := &soak4{t: t, seen: newSoakSeen(), from: make([]uint32, 4), nodes: make([]*soakNode, 4)}
	s.seed, s.rng = soakSeed(t)
	base := soakPort(t, 10)
	bin := buildN3d(t)
	for i := range s.nodes {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i))
		require.NoError(t, os.MkdirAll(dir, 0o700))
		s.nodes[i] = newSoakNode(bin, soak4Config(t, dir, i, base), filepath.Join(dir, "node.log"), base+10+i)
	}
	t.Cleanup(func() {
		for i, n := range s.nodes {
			n.kill(t)
			keepLog(t, n.logFile, fmt.Sprintf("seed%d-node%d", s.seed, i))
		}
	})
	for _, n := range s.nodes {
		n.start(t)
	}
	s.signer = soak4Signer(t)
	vals, valIndex := soak4Validators(t)
	s.valIndex = valIndex
	s.obs = newDbftObserver(56753, vals)
	seeds := make([]string, 4)
	for i := range seeds {
		seeds[i] = fmt.Sprintf("127.0.0.1:%d", base+i)
	}
	startObserver(t, s.obs, seeds)
	s.dropSignLog = os.Getenv("N3D_SOAK_DROP_SIGNLOG") == "1"
	if s.dropSignLog {
		t.Logf("N3D_SOAK_DROP_SIGNLOG=1: every restarted validator loses its sign log")
	}
	s.freezeAll = s.dropSignLog || os.Getenv("N3D_SOAK_FREEZE") == "1"
	s.nodeOf = make([]int, 4)
	for i, v := range valIndex {
		s.nodeOf[v] = i
	}
	s.height = s.nodes[0].waitHeight(t, 1)
	return s
}

func (s *soak4) all(int) bool { return true }

func (s *soak4) checkSigns(when string) {
	if v := s.obs.Violations(); len(v) > 0 {
		s.t.Fatalf("%s: double signing seen by the observer (%s):\n%s", when, s.obs.Summary(), strings.Join(v, "\n"))
	}
}

// load sends transfers to the alive nodes for d, or until stop is closed
// (nil: never); it reports whether stop was closed.
func (s *soak4) load(alive func(int) bool, d time.Duration, stop <-chan struct{}) bool {
	t := s.t
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		select {
		case <-stop:
			return true
		default:
		}
		i := s.rng.Intn(4)
		if !alive(i) {
			continue
		}
		s.sent++
		if s.seen.send(t, s.nodes[i].rpc, soakTransfer(t, s.rng, s.signer, soakVUB(s.rng, s.height))) {
			s.accepted++
		}
		if s.rng.Intn(8) == 0 {
			f, err := s.seen.observe(s.nodes[i].rpc, s.from[i])
			require.NoError(t, err, "node %d", i)
			s.from[i] = f
			if f > 0 && f-1 > s.height {
				s.height = f - 1
			}
		}
	}
	return false
}

// restart starts node i again after kill k and checks its whole chain
// against what was served.
func (s *soak4) restart(i, k int) {
	t := s.t
	if s.dropSignLog {
		require.NoError(t, os.Remove(filepath.Join(filepath.Dir(s.nodes[i].cfgFile), "db.signlog")))
	}
	s.nodes[i].start(t)
	s.nodes[i].waitHeight(t, s.height)
	f, err := s.seen.observe(s.nodes[i].rpc, 0)
	require.NoError(t, err, "kill %d: restarted node %d", k, i)
	s.from[i] = f
}

// plainKill SIGKILLs a random validator, half the time just after it
// signed a proposal or a Commit (the window the sign log is for; or after
// 5 s), and a third of the time a second one with it, so the other two
// cannot finish the height and the victim has to take the round up again
// from what it signed before.
func (s *soak4) plainKill(k int) {
	victim := s.rng.Intn(4)
	if s.rng.Intn(2) == 0 {
		s.targeted++
		if s.load(s.all, 5*time.Second, s.obs.next(s.valIndex[victim], false, 0)) {
			s.hit++
		}
	}
	s.nodes[victim].kill(s.t)
	second := -1
	if s.rng.Intn(3) == 0 {
		s.pairs++
		second = (victim + 1 + s.rng.Intn(3)) % 4
		s.nodes[second].kill(s.t)
	}
	s.load(func(i int) bool { return i != victim && i != second },
		500*time.Millisecond+time.Duration(s.rng.Int63n(int64(3*time.Second))), nil)
	s.restart(victim, k)
	if second >= 0 {
		s.load(func(i int) bool { return i != second }, time.Duration(s.rng.Int63n(int64(2*time.Second))), nil)
		s.restart(second, k)
	}
}

// freezeKill kills a primary that cannot have finished its height: just
// after a block is made, two validators other than the primary of the
// next height are stopped (SIGSTOP), so that round can gather no quorum;
// once the observer has seen the primary's PrepareRequest for it the
// primary is SIGKILLed and restarted, then the two are resumed. The
// restarted primary must send the same proposal again (from its sign
// log), not a new one. It returns whether the proposal was seen in time
// (else the primary is killed anyway, 5 s after the freeze). The load
// goes on meanwhile: a primary with an empty pool waits for transactions
// up to MaxTimePerBlock (20 s here).
func (s *soak4) freezeKill(k int) bool {
	t := s.t
	c := soakCount(t, s.nodes[0].rpc) // height c is being agreed on
	deadline := time.Now().Add(60 * time.Second)
	var target uint32 // the height agreed on once block c is made
	for {
		if target = soakCount(t, s.nodes[0].rpc); target > c {
			break
		}
		require.True(t, time.Now().Before(deadline), "kill %d: no block %d within 60 s", k, c)
		s.load(s.all, 50*time.Millisecond, nil)
	}
	victim := s.nodeOf[target%4] // primary of target at view 0
	others := make([]int, 0, 3)
	for i := range s.nodes {
		if i != victim {
			others = append(others, i)
		}
	}
	s.rng.Shuffle(len(others), func(a, b int) { others[a], others[b] = others[b], others[a] })
	frozen := others[:2]
	seenProposal := s.obs.next(byte(target%4), true, target)
	for _, i := range frozen {
		s.nodes[i].signal(t, syscall.SIGSTOP)
	}
	hit := s.load(func(i int) bool { return i != frozen[0] && i != frozen[1] }, 5*time.Second, seenProposal)
	s.nodes[victim].kill(t)
	s.restart(victim, k)
	for _, i := range frozen {
		s.nodes[i].signal(t, syscall.SIGCONT)
	}
	return hit
}
