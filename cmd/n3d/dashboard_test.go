package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// dashboardPath is the Grafana dashboard of docs/monitoring.md.
var dashboardPath = filepath.Join("..", "..", "docs", "grafana", "n3d-dashboard.json")

// grafanaPanel is the part of a Grafana panel the test reads.
type grafanaPanel struct {
	ID         int    `json:"id"`
	Type       string `json:"type"`
	Title      string `json:"title"`
	Datasource *struct {
		UID string `json:"uid"`
	} `json:"datasource"`
	GridPos struct {
		X, Y, W, H int
	} `json:"gridPos"`
	Targets []struct {
		Expr string `json:"expr"`
	} `json:"targets"`
}

type grafanaDashboard struct {
	UID    string         `json:"uid"`
	Panels []grafanaPanel `json:"panels"`
	Inputs []struct {
		Name string `json:"name"`
	} `json:"__inputs"`
	Templating struct {
		List []struct {
			Name  string `json:"name"`
			Query struct {
				Query string `json:"query"`
			} `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

// readDashboard parses the dashboard and checks its shape: an importable
// datasource input, unique panel ids, panels within the 24-column grid,
// every graph querying something.
func readDashboard(t *testing.T) (grafanaDashboard, []string) {
	t.Helper()
	raw, err := os.ReadFile(dashboardPath)
	require.NoError(t, err)
	var d grafanaDashboard
	require.NoError(t, json.Unmarshal(raw, &d))
	require.NotEmpty(t, d.UID)
	require.Len(t, d.Inputs, 1)
	require.Equal(t, "DS_PROMETHEUS", d.Inputs[0].Name)
	var exprs []string
	ids := map[int]bool{}
	for _, p := range d.Panels {
		require.False(t, ids[p.ID], "panel id %d twice", p.ID)
		ids[p.ID] = true
		require.LessOrEqual(t, p.GridPos.X+p.GridPos.W, 24, p.Title)
		if p.Type == "row" {
			continue
		}
		require.NotNil(t, p.Datasource, p.Title)
		require.Equal(t, "${DS_PROMETHEUS}", p.Datasource.UID, p.Title)
		require.NotEmpty(t, p.Targets, p.Title)
		for _, tg := range p.Targets {
			require.NotEmpty(t, tg.Expr, p.Title)
			exprs = append(exprs, tg.Expr)
		}
	}
	for _, v := range d.Templating.List {
		exprs = append(exprs, v.Query.Query)
	}
	return d, exprs
}

var (
	promLabels    = regexp.MustCompile(`\{[^}]*\}`)
	promRanges    = regexp.MustCompile(`\[[^\]]*\]`)
	promNumbers   = regexp.MustCompile(`\b[0-9][0-9.e+]*[a-z]*\b`) // numbers and durations
	promGrouping  = regexp.MustCompile(`\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	promIdent     = regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*(\s*\()?`)
	promLabelVals = regexp.MustCompile(`^label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*,`)
	promKeywords  = map[string]bool{"by": true, "without": true, "on": true, "ignoring": true, "bool": true,
		"and": true, "or": true, "unless": true, "offset": true, "group_left": true, "group_right": true}
)

// promMetrics returns the metric names a PromQL expression (or a Grafana
// label_values query) selects: identifiers once label matchers, ranges and
// grouping clauses are removed, functions and keywords left out.
func promMetrics(expr string) []string {
	if m := promLabelVals.FindStringSubmatch(expr); m != nil {
		return []string{m[1]}
	}
	e := promLabels.ReplaceAllString(expr, "")
	e = promRanges.ReplaceAllString(e, "")
	e = promGrouping.ReplaceAllString(e, "")
	e = promNumbers.ReplaceAllString(e, "")
	var out []string
	for _, m := range promIdent.FindAllStringSubmatch(e, -1) {
		if m[1] != "" || promKeywords[m[0]] {
			continue // a function or an aggregation, or a keyword
		}
		out = append(out, m[0])
	}
	return out
}

func TestPromMetrics(t *testing.T) {
	for expr, want := range map[string][]string{
		`n3d_chain_block_height{instance=~"$instance"}`: {"n3d_chain_block_height"},
		`histogram_quantile(0.99, sum by (method, le) (rate(n3d_rpc_request_duration_seconds_bucket{instance=~"$instance"}[$__rate_interval])))`: {
			"n3d_rpc_request_duration_seconds_bucket"},
		`n3d_a - n3d_b offset 5m`:             {"n3d_a", "n3d_b"},
		`time() - n3d_x{a="b"}`:               {"n3d_x"},
		`label_values(n3d_y, instance)`:       {"n3d_y"},
		`sum without (job) (rate(up[1m]))`:    {"up"},
		`a_total / on (instance) b_total`:     {"a_total", "b_total"},
		`increase(c_total[$__rate_interval])`: {"c_total"},
	} {
		require.Equal(t, want, promMetrics(expr), expr)
	}
}

// exportedSamples parses the Prometheus text format: the sample names and
// the value of each unlabelled sample.
func exportedSamples(t *testing.T, body string) (names map[string]bool, values map[string]float64) {
	t.Helper()
	names, values = map[string]bool{}, map[string]float64{}
	for _, line := range strings.Split(body, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		end := strings.IndexAny(line, "{ ")
		require.Positive(t, end, line)
		names[line[:end]] = true
		if line[end] == ' ' {
			v, err := strconv.ParseFloat(strings.Fields(line[end:])[0], 64)
			require.NoError(t, err, line)
			values[line[:end]] = v
		}
	}
	return names, values
}

// dashView is what the dashboard test reads of a running node. It is the
// one place that knows the in-process node's accessors (with pkg/node:
// r.n.Chain(), r.n.Pool(), r.n.MonitoringAddrs(), r.n.Consensus() != nil).
type dashView struct {
	chain     *chain.Chain
	pool      *mempool.Pool
	monitor   []net.Addr
	consensus bool
}

func viewOf(r *runningNode) dashView {
	return dashView{chain: r.n.Chain(), pool: r.n.Pool(), monitor: r.n.MonitoringAddrs(), consensus: r.n.Consensus() != nil}
}

// dashRPC posts one JSON-RPC request to url and returns the raw answer.
func dashRPC(t *testing.T, url, method string, params ...any) []byte {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	require.NoError(t, err)
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return raw
}

// dashTx is a transaction of the validator's 1-of-1 multisignature
// account (it holds the genesis GAS) running PUSH1, valid for the next
// blocks.
func dashTx(t *testing.T, c *chain.Chain, key *keys.PrivateKey) *transaction.Transaction {
	t.Helper()
	verif, err := scripts.MultiSigContract(1, keys.PublicKeys{key.PublicKey()})
	require.NoError(t, err)
	tx := &transaction.Transaction{Nonce: 1, SystemFee: 1_0000_0000, NetworkFee: 1_0000_0000,
		ValidUntilBlock: c.BlockHeight() + 100, Script: []byte{byte(opcode.PUSH1)},
		Signers: []transaction.Signer{{Account: scripts.ScriptHash(verif), Scopes: transaction.CalledByEntry}}}
	sig := key.Sign(tx.SignData(uint32(c.Config().Magic)))
	tx.Witnesses = []transaction.Witness{{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), 64}, sig...),
		VerificationScript: verif}}
	tx.InvalidateCache()
	return tx
}

// TestDashboardMetricsExported starts a single-validator node with its
// monitoring endpoint, lets it make blocks, pool and include a transaction
// and answer RPC requests, and checks that every metric the Grafana
// dashboard queries is exported, and that the chain metrics tell the
// chain's height.
func TestDashboardMetricsExported(t *testing.T) {
	_, exprs := readDashboard(t)
	want := map[string]bool{}
	for _, e := range exprs {
		ms := promMetrics(e)
		require.NotEmpty(t, ms, "no metric in %q", e)
		for _, m := range ms {
			want[m] = true
		}
	}

	cfg := singleConfig(t, true, 100*time.Millisecond)
	cfg.ApplicationConfiguration.Prometheus = config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0"}}
	key := validatorKey(t, cfg)
	r := startNode(t, cfg)
	v := viewOf(r)
	require.True(t, v.consensus)
	c := v.chain
	require.Eventually(t, func() bool { return c.BlockHeight() >= 2 }, 20*time.Second, 10*time.Millisecond)
	// A transaction through the pool into a block (transactions, pool
	// removals), an RPC answer and an RPC error (latency, errors).
	tx := dashTx(t, c, key)
	raw, err := tx.Bytes()
	require.NoError(t, err)
	require.Contains(t, string(dashRPC(t, r.url, "sendrawtransaction", raw)), tx.Hash().String())
	require.Eventually(t, func() bool {
		_, _, err := c.GetTransaction(tx.Hash())
		return err == nil && v.pool.Count() == 0
	}, 20*time.Second, 10*time.Millisecond, "the transaction was not included")
	require.Contains(t, string(dashRPC(t, r.url, "getblockhash", -1)), `"error"`)

	require.Len(t, v.monitor, 1)
	resp, err := http.Get("http://" + v.monitor[0].String() + "/metrics")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	names, values := exportedSamples(t, string(body))
	var missing []string
	for m := range want {
		if !names[m] {
			missing = append(missing, m)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "queried by %s, not exported by the node", dashboardPath)

	// The values come from this node's chain: it made at least two blocks
	// by the time of the scrape and has handed them to the store or holds
	// them in its write cache.
	require.GreaterOrEqual(t, values["n3d_chain_block_height"], 2.0)
	require.LessOrEqual(t, values["n3d_chain_block_height"], float64(c.BlockHeight()))
	require.LessOrEqual(t, values["n3d_chain_persisted_height"], values["n3d_chain_block_height"])
	require.Positive(t, values["n3d_chain_block_interval_seconds_count"])
	require.Positive(t, values["n3d_chain_transactions_total"])
	require.Zero(t, values["n3d_p2p_peers"], "a lone node")
}
