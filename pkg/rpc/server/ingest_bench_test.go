package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/internal/cputime"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/node"
	"github.com/n3d-io/n3d/pkg/node/nodetest"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// benchWorkers is neo-bench's default number of workers, each with its
// own kept-alive connection.
const benchWorkers = 10

// BenchmarkSendRawTransactionHTTP is the whole sendrawtransaction path as
// neo-bench drives it: ten workers, each on its own kept-alive HTTP/1.1
// connection, post signed GAS transfers to the real server (Server.Start
// on 127.0.0.1) of a single node that makes no blocks.
//
//   - path=node: the node's own server; every transaction goes through the
//     ingress pipeline's verification into the pool (the pool must accept
//     each one).
//   - path=rpc: a second server over the same chain whose SubmitTx accepts
//     at once: HTTP, JSON, base64, transaction decoding and the answer,
//     without verification.
//
// cpu-ns/op is the process's CPU time (all threads, GC included) per
// transaction; the client side is a lean raw-socket writer and reader
// (a few hundred ns a request). B/op and allocs/op are the process's.
// The pool holds b.N transactions: use -benchtime=Nx with N of a few
// thousand to some tens of thousands.
func BenchmarkSendRawTransactionHTTP(b *testing.B) {
	env := newIngestEnv(b)
	b.Run("path=rpc", func(b *testing.B) {
		srv, err := server.New(server.Config{Addresses: []string{"127.0.0.1:0"}, Log: zap.NewNop(),
			SubmitTx: func(context.Context, *transaction.Transaction) error { return nil }}, env.n.Chain())
		require.NoError(b, err)
		ctx, cancel := context.WithCancel(context.Background())
		wait, err := srv.Start(ctx)
		require.NoError(b, err)
		defer func() { cancel(); require.NoError(b, wait()) }()
		env.run(b, srv.Addrs()[0].String(), 0)
	})
	b.Run("path=node", func(b *testing.B) {
		env.run(b, env.n.RPCAddrs()[0].String(), 1)
	})
}

// ingestEnv is the node and the signer the sub-benchmarks share.
type ingestEnv struct {
	n     *node.Node
	key   *keys.PrivateKey
	nonce uint32 // last nonce used: every transaction is new to the pool
}

func newIngestEnv(b *testing.B) *ingestEnv {
	cfg := nodetest.SingleConfig(b, true, time.Second)
	cfg.ApplicationConfiguration.MempoolPersistence.Disabled = true
	cfg.ProtocolConfiguration.MemPoolSize = 200_000
	ks, err := node.ConsensusKeys(cfg.ApplicationConfiguration.Consensus)
	require.NoError(b, err)
	require.Len(b, ks, 1)
	cfg.ApplicationConfiguration.Consensus.Enabled = false // no blocks: every transaction stays valid
	n, err := node.New(cfg, node.WithLogger(zap.NewNop()),
		node.WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	require.NoError(b, err)
	require.NoError(b, n.Start(context.Background()))
	b.Cleanup(func() { require.NoError(b, n.Stop()) })
	return &ingestEnv{n: n, key: ks[0]}
}

// run posts b.N new transfers to addr over benchWorkers connections and
// checks that the pool grew by b.N*poolShare.
func (e *ingestEnv) run(b *testing.B, addr string, poolShare int) {
	bodies := make([][]byte, b.N)
	for i := range bodies {
		e.nonce++
		bodies[i] = e.request(b, addr, e.transfer(b, e.nonce))
	}
	conns := make([]*benchConn, benchWorkers)
	for i := range conns {
		c, err := dialBench(addr)
		require.NoError(b, err)
		defer c.Close()
		conns[i] = c
	}
	before := e.n.Pool().Count()
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		failed atomic.Value
	)
	b.ReportAllocs()
	cpu := cputime.Process()
	b.ResetTimer()
	for _, c := range conns {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				if err := c.roundTrip(bodies[i]); err != nil {
					failed.Store(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
	if err, ok := failed.Load().(error); ok {
		b.Fatal(err)
	}
	require.Equal(b, before+b.N*poolShare, e.n.Pool().Count())
}

// transfer is a 1-datoshi GAS transfer from the validators' 1-of-1
// account (which holds the genesis GAS), signed with the validator's key.
func (e *ingestEnv) transfer(b *testing.B, nonce uint32) *transaction.Transaction {
	verif, err := scripts.MultiSigContract(1, keys.PublicKeys{e.key.PublicKey()})
	require.NoError(b, err)
	from := scripts.ScriptHash(verif)
	gas := e.n.Natives().Governance.GAS.Metadata().Hash
	script, err := emit.NewBuilder().AppCall(gas, "transfer", byte(callflag.All), from, util.Uint160{1}, int64(1), nil).
		Opcodes(opcode.ASSERT).Script()
	require.NoError(b, err)
	tx := &transaction.Transaction{Nonce: nonce, SystemFee: 1_0000_0000, NetworkFee: 1_0000_0000,
		ValidUntilBlock: e.n.Chain().BlockHeight() + 100, Script: script,
		Signers: []transaction.Signer{{Account: from, Scopes: transaction.CalledByEntry}}}
	sig := e.key.Sign(tx.SignData(uint32(e.n.Chain().Config().Magic)))
	tx.Witnesses = []transaction.Witness{{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), 64}, sig...),
		VerificationScript: verif}}
	tx.InvalidateCache()
	return tx
}

// request is the whole HTTP request neo-bench's client (fasthttp) sends
// for tx: its headers and its JSON body, spaces included.
func (e *ingestEnv) request(b *testing.B, addr string, tx *transaction.Transaction) []byte {
	raw, err := tx.Bytes()
	require.NoError(b, err)
	body := fmt.Sprintf(`{"jsonrpc": "2.0", "id": 1, "method": "sendrawtransaction", "params": ["%s"]}`,
		base64.StdEncoding.EncodeToString(raw))
	return fmt.Appendf(nil, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json; charset=utf-8\r\n"+
		"User-Agent: fasthttp\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
}

// benchConn is one kept-alive client connection that writes prepared
// requests and reads the answers with as little work as it can.
type benchConn struct {
	net.Conn
	r    *bufio.Reader
	body []byte
}

func dialBench(addr string) (*benchConn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &benchConn{Conn: c, r: bufio.NewReaderSize(c, 4096), body: make([]byte, 0, 512)}, nil
}

// roundTrip sends one request and checks that its answer is a 200 with
// a result.
func (c *benchConn) roundTrip(req []byte) error {
	if _, err := c.Write(req); err != nil {
		return err
	}
	status, err := c.r.ReadSlice('\n')
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(status, []byte("HTTP/1.1 200 ")) {
		return fmt.Errorf("status %q", status)
	}
	n := -1
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(line) <= 2 {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte("Content-Length: ")); ok {
			if n, err = strconv.Atoi(string(bytes.TrimSpace(v))); err != nil {
				return err
			}
		}
	}
	if n < 0 || n > 4096 {
		return fmt.Errorf("answer of %d bytes", n)
	}
	c.body = c.body[:n]
	if _, err := io.ReadFull(c.r, c.body); err != nil {
		return err
	}
	if !bytes.Contains(c.body, []byte(`"result":{"hash":`)) {
		var r json.RawMessage = c.body
		return fmt.Errorf("not accepted: %s", r)
	}
	return nil
}
