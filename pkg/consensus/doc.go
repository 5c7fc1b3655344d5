// Package consensus is n3d's dBFT 2.0 consensus service: the Neo N3
// consensus messages, byte for byte as the reference encodes them, and a
// Service that drives github.com/nspcc-dev/dbft to produce blocks.
//
// # Messages
//
// Every message travels as the Data of an ExtensiblePayload of category
// "dBFT", valid from block 0 up to the message's block index, sent by the
// validator's standard account and signed by it (see Payload):
//
//	Message:         u8 type | u32 block index | u8 validator | u8 view | body
//	ChangeView 0x00: u64 timestamp ms | u8 reason [| hashes if TxRejectedByPolicy/TxInvalid]
//	PrepareRequest 0x20: u32 version | prev hash | u64 timestamp ms | u64 nonce | tx hashes
//	PrepareResponse 0x21: preparation hash
//	Commit 0x30:     64-byte signature of the header
//	RecoveryRequest 0x40: u64 timestamp ms
//	RecoveryMessage 0x41: change views | request or preparation hash |
//	                 preparations | commits (compact forms, see RecoveryMessage)
//
// Decoders apply the reference's bounds (65535 hashes, 255 compact
// entries, 1024-byte invocation scripts, no duplicates).
//
// # Data flow
//
//	network ──OnPayload──▶ decode, check witness ─┐
//	network ──OnTransaction (only while needed)───┤
//	chain ────NotifyBlock──────────────────────────┼─▶ Run: one goroutine owns dBFT
//	mempool ──NotifyPoolTransaction (MaxTimePerBlock)┤      (timer, messages, txs,
//	dBFT timer ───────────────────────────────────┘       chain catch-up)
//	        ◀─ Broadcast(signed payload), RequestTx(hashes)
//	        ─▶ ProcessBlock(block signed M-of-N by the commits)
//
// The primary proposes the mempool's best transactions within
// MaxTransactionsPerBlock, MaxBlockSize and MaxBlockSystemFee; backups
// verify the proposal (pooled transactions were verified on entry, the
// others through Config.VerifyTx), sign the header (magic ‖ hash) in
// their Commit, and the block gets the M-of-N witness of the validators
// with NextConsensus set to the BFT address of the next validators.
// After every event the service checks whether the chain grew (its own
// block or one from the network) and resets dBFT to the next height.
//
// # Restarts and the start
//
// Every message the node signs is recorded in Config.SignLog (fsynced)
// before it is sent, and after a restart the service rebuilds the round
// from the records: it never signs a Commit for another block of a height
// it committed, nor a second proposal or response for a view (see
// journal.go, OpenSignLog). The first round waits for Config.MinPeers
// connected peers (Config.ConnectedPeers), so that the first proposal is
// not sent to nobody. Every timer comes from Config.Clock.
// Metrics (metrics.go, docs/monitoring.md), on Config.Registerer:
// n3d_consensus_height and n3d_consensus_view, the round after every
// event, and n3d_consensus_view_changes_total.
//
// Everything else (P2P, mempool, chain) is reached through Config's func
// fields and the Ledger interface, wired in pkg/node.
package consensus
