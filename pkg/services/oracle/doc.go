// Package oracle is n3d's oracle node: while one of its keys is designated
// for the Oracle role (RoleManagement), it answers the OracleContract's
// requests by fetching their URLs, co-signs the response transactions with
// the other oracle nodes and relays them, with neo-go's rules and results
// so that n3d and neo-go oracle nodes sign the same transactions.
//
// # Data flow
//
//	chain block ─▶ OnBlock: finished ids (OracleResponse attributes) ─▶ RemoveRequests
//	            └▶ LoadPending: pending requests not seen yet ─────────▶ AddRequests
//	AddRequests ─▶ Run loop ─▶ work queue ─▶ MaxConcurrentRequests workers:
//	  fetch (https only; neofs: Error) ─▶ status/size/type ─▶ JSONPath filter
//	  ─▶ main response tx (VUB = request block + MaxValidUntilBlockIncrement)
//	     + backup tx (ConsensusUnreachable, VUB stepped past the height)
//	  ─▶ sign both ─▶ Broadcast(main tx signature) ─▶ other nodes' RPC
//	other nodes ─▶ RPC submitoracleresponse (message signature checked)
//	  ─▶ AddResponse ─▶ the signature counts for the main or the backup tx
//	m-of-n signatures (m = n-(n-1)/3, key order) ─▶ witness ─▶ Relay (once)
//	every RefreshInterval: a request processed more than RefreshInterval ago
//	  is retried (the relayed tx again, or the backup signature and tx);
//	  one older than MaxTaskTimeout is dropped.
//
// # Response transaction
//
// Built as the reference does: version 0, nonce = request id (low 32
// bits), the fixed script calling OracleContract.finish, one
// OracleResponse attribute, signers OracleContract and the oracle nodes'
// BFT multisig account (both scope None), witnesses: OracleContract's
// empty one (its verify method runs) and the multisig one. The network fee
// is size × FeePerByte + the verify run's GAS + the multisig check (the
// picoGAS base fee, rounded up); the system fee is the rest of the
// request's GasForResponse. When the fees exceed it, the response becomes
// InsufficientFunds without result.
//
// neo-go starts answering while it stores the request's block and reads
// the chain after the fetch. An answer that needed no server (a refused
// connection, an unsupported scheme) is built on the state before the
// block with the request's transaction still in its pool (ValidUntilBlock
// = MaxValidUntilBlockIncrement-1, the 32-bit wrap of 2^32-1 + increment);
// one that waited for a server's response sees the block stored (state
// after it, ValidUntilBlock = request block + increment). OnBlock
// reproduces both (see Config.PooledTx): the replay of neo-go's chains in
// reference_test.go gives their response transactions byte for byte, and
// the interop test (build tag interop) completes one with a neo-go oracle
// node.
//
// # Response codes
//
// A malformed URL or a scheme other than https and neofs:
// ProtocolNotSupported. neofs: Error (this node has no NeoFS client, as a
// reference node without NeoFS nodes). A refused address (reserved range
// without AllowPrivateHost), more than two redirections or one from https
// to http: Forbidden. Other request failures, the request timeout
// included: Error. HTTP 403 Forbidden, 404 NotFound, 408 Timeout, other
// non-200 Error. A Content-Type outside AllowedContentTypes (when set):
// ContentTypeNotSupported. A body above 65535 bytes: ResponseTooLarge; an
// empty or non-UTF-8 one: Error. A filter that fails: Error.
//
// # Concurrency
//
// Run owns the loop goroutine, the workers and the default RPC sender, and
// returns after they stop. AddRequests, RemoveRequests, OnBlock,
// LoadPending and AddResponse are safe from any goroutine and never block
// on the network. Service.mu guards the request maps; each request's
// incompleteTx has its own lock; neither is held across I/O.
package oracle
