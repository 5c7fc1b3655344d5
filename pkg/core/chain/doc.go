// Package chain is n3d's blockchain: it builds the genesis block from the
// protocol configuration, verifies, executes and persists blocks, keeps
// the state root, and answers questions about the ledger.
//
// Files by concern:
//
//	genesis.go        genesis block, standby validators, BFT/committee addresses
//	verify_header.go  header checks against the previous header, block limits
//	witness.go        witness verification: exact standard-script fast path, VM fallback (WitnessVM)
//	sigcheck.go       signature checks through the chain's cache of outcomes;
//	                  Restore's pre-verification of the blocks read ahead
//	chain.go          Config, Open (genesis or reload), Close
//	add_block.go      AddBlock: verify, execute, store, state root, announce
//	blocklog.go       the block log: a block is durable before it is visible;
//	                  replay at Open
//	recent.go         the newest block's bytes (its log record) for getblock
//	persist.go        the write cache to the store in the background; the
//	                  storage-failure state (pause, retry, resume), ErrBroken
//	exec.go           execution through pkg/core/interop (OnPersist, txs, PostPersist)
//	natives.go        NativeSet: pkg/core/native as the chain uses it
//	changes.go        the block's change set: trie batch, neo-go storage diff;
//	                  clean cache of contract storage reads
//	seekcache.go      clean cache of small contract storage seeks
//	bloom.go          the persisted "is this transaction (or conflict) stored?" filter
//	reset.go          db reset: roll back to the state after a block, resumable
//	stateroot.go      per-height state root records
//	query.go          blocks, headers, transactions (bloom filter), logs, roots
//	view*.go          read-only views for readers such as RPC: StateView (the
//	                  latest state, a past one read from the trie, the storage
//	                  under a root) and TrieView (trie reads with proofs), safe
//	                  while blocks are added; the historic store behind them
//	oracle.go         what an oracle node reads: OracleParams, OracleRequests,
//	                  OracleVerifyGas
//	subscribe.go      event subscriptions that never block block processing
//	restore.go        .acc restore (dump read and decoded ahead, signatures
//	                  pre-verified on a worker) and dump
//	version.go        the database version record (network, trie mode)
//	headers.go        the header chain ahead of the blocks (AddHeaders)
//	statesync*.go     state synchronisation: serving trie nodes
//	                  (WalkStateNodes), the StateSync module, the state jump
//	generate*.go      a valid chain of transfers and storage writes signed by
//	                  the validators, built through the chain (db generate)
//
// # Data flow of a block
//
//	AddBlock ─▶ header (index, previous hash, increasing timestamp, primary,
//	            witness against the previous NextConsensus), size, tx count
//	         ─▶ block DAO = private layer over the recorder over the write cache
//	            OnPersist │ each tx in its own private layer (FAULT: dropped) │ PostPersist
//	            meanwhile, in goroutines: every transaction verified on a
//	            private view of the state before the block (and, in Restore
//	            only, the header witness too); the block fails if they do
//	            meanwhile too: the block's bytes written durably to the block
//	            log (SYSBlockLog + index), skipped by Restore
//	         ─▶ ledger records (block, txs, logs, current block, header hashes)
//	         ─▶ wait for the log record; commit: the recorder keeps the
//	            block's change set
//	         ─▶ MPT batch (contract storage, LedgerContract excluded) → Flush → root
//	         ─▶ state root record; once a second (PersistInterval) the write
//	            cache goes to the store: MemCachedStore.Persist (async: the
//	            next blocks run while it is written, one atomic PutChangeSet
//	            that also deletes the log records of the blocks it holds)
//	         ─▶ bloom, header index, tip, height; events to subscribers
//
// A failure before the commit leaves nothing behind (a failed log write
// also puts the chain in the storage-failure state, see persist.go); one
// after it (a trie error) stops the chain (ErrBroken, Config.OnFatal) until
// it is reopened. A crash loses no announced block: reopening reads the
// current block, the header hash batches, the state root of that height,
// refills the bloom filter, then replays the block log above that height.
// Only blocks added by Restore, which are not logged, can be lost (at most
// the last PersistInterval of them; the restore can be run again).
//
// # State synchronisation (P2PStateExchangeExtensions)
//
// The network side drives Chain.StateSync() (never nil), as neo-go's
// network server drives its statesync module:
//
//	ss := c.StateSync()
//	if !ss.IsInitialized() { err = ss.Init(bestPeerHeight) }
//	ss.IsActive()            // gathering data: blocks go to ss, not c.AddBlock
//	ss.SyncPoint()           // P
//	ss.NeedHeaders()         // ask headers from ss.HeaderHeight()+1 (up to P+1 at least)
//	ss.AddHeaders(hdrs...)   // = c.AddHeaders, then moves on to the trie
//	ss.NeedMPTNodes()        // ask getmptdata for ss.UnknownMPTNodes(limit)
//	ss.AddMPTNodes(nodes)    // an mptdata payload, any order; unknown nodes ignored
//	ss.MissingMPTNodes()     // how many are known to be missing
//	ss.NeedBlocks()          // ask blocks from..to of ss.BlockRange()
//	ss.BlockHeight()         // where block requests continue from
//	ss.AddBlock(b)           // stored unexecuted, checked against its header;
//	                         // block P makes the jump, then IsActive() is false
//	                         // (IsActive is true before Init, as neo-go's)
//
// and, on the chain itself: AddHeaders(...*block.Header) error,
// HeaderHeight() uint32, HeaderHashAt(i) (hash, ok), GetHeaderByIndex(i),
// GetHeader(hash). While a sync point is stored Chain.AddBlock fails with
// ErrStateSyncActive; ErrStateSync marks sync errors (an outdated sync
// point: drop the database; data that was not asked for; an undecodable
// node); ErrHeaderMismatch a block or header that differs from the stored
// header at its index. The module is active only with
// RemoveUntraceableBlocks, as neo-go's: it keeps the blocks of the
// traceable window below P (P-MaxTraceableBlocks+1..P), every header, and
// the state from P on; the local state roots start at P.
//
// Metrics (metrics.go, docs/monitoring.md): n3d_chain_block_height,
// n3d_chain_header_height,
// n3d_chain_persisted_height (the last block handed to the store),
// n3d_chain_block_timestamp_seconds, n3d_chain_block_interval_seconds,
// n3d_chain_transactions_total and n3d_chain_unpersisted_keys (the write
// cache's backlog), on Config.Registerer.
package chain
