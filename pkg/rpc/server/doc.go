// Package server is n3d's JSON-RPC 2.0 server: the Neo N3 RPC API (blocks,
// transactions, application logs, contracts, storage, state roots and
// proofs, governance, NEP-17 and NEP-11 balances and transfers, test
// invocations (also at past heights, with iterator sessions),
// network fee estimation, peers, and the relay methods sendrawtransaction,
// submitblock and getrawmempool) with answers in the reference's form (see
// docs/rpc.md for the list, the limits and the differences from neo-go).
//
// # Data flow
//
//	HTTP POST ─▶ the plain listeners' front (front*.go): a kept-alive
//	             HTTP/1.1 POST with a Content-Length is parsed and answered
//	             in the connection's own buffers; any other request, and
//	             TLS, goes to Run's http.Server ─▶ ServeHTTP: body bounded
//	             by MaxRequestBodyBytes (headers by MaxRequestHeaderBytes),
//	             read into a pooled buffer (buffers.go)
//	          ─▶ params.Decode: one request or a batch of ≤ MaxBatchSize
//	             (the common request object scanned without reflection)
//	          ─▶ handle: version check, method table (handlers.go), metrics
//	          ─▶ handler: reads the chain through Ledger and its views,
//	             wraps the records in pkg/rpc/result types
//	          ─▶ response {"id","jsonrpc","result"|"error"} (a batch: an array);
//	             a plain answer appended into a pooled buffer, a result
//	             that writes its own JSON (jsonAppender) without
//	             encoding/json (response_fast.go)
//
// The server reads the chain's state only through read-only views the
// chain hands out (Ledger.LatestView, ViewAt, ViewAtRoot, TrieAt: the
// StateView and TrieView interfaces of ledger.go, safe to read while
// blocks are added), one per request, and runs test invocations in
// private layers over a view (StateView.TestContext), never persisted. It
// knows no storage key layout.
// NEP-17 transfers are indexed in memory from the application logs, brought
// up to the chain's height on each token request. Writes leave through
// Config's func fields (SubmitTx to the ingress pipeline, SubmitBlock to
// the chain), wired in pkg/node; handlers_relay.go maps their verdicts to the
// reference's error codes.
//
// Iterators of test invocations are kept in sessions (SessionEnabled,
// sessions.go) for traverseiterator; historic invocations and storage reads
// run on a view of the state trie at a past root (historic*.go,
// chain.ViewAt); invokecontainedscript runs a given container in a mocked
// block (invoke_contained.go).
// WebSocket clients (GET /ws, ws.go) use the same dispatch plus
// subscribe/unsubscribe: one dispatcher per server subscribes to the chain
// and the mempool while some client needs them and queues each event,
// encoded once, to every subscribed client (subscription*.go), a full queue
// losing events that event_missed then reports.
//
// # Errors
//
// Every error answer (code, message and data) is neo-go v0.122.0's:
// missing records without data or with its storage layer's "key not
// found", parameter errors quoting its parser's texts (pkg/rpc/params),
// and sendrawtransaction's refusals reclassified in neo-go's order of
// checks with its verification texts (relay_errors.go). TestNeoGoErrors
// replays neo-go's recorded answers (testdata/neogo-errors.json, made by
// scripts/neogo-rpcerrors.sh) against the server, TestNeoGoContained
// those of invokecontainedscript (testdata/neogo-contained.json).
//
// Files: server.go (Config, Run, HTTP, dispatch), handlers*.go (methods by
// concern), invoke.go and netfee.go (test runs), sessions*.go (iterator
// sessions), historic*.go (past states), tokens.go and nep11.go (NEP-17 and
// NEP-11 balances and transfers), notifications.go (getblocknotifications),
// ws.go and subscription*.go (WebSocket), relay_errors.go
// (sendrawtransaction's refusals), ledger.go (the interfaces the
// server needs of the chain and its views), metrics.go
// (Prometheus).
package server
