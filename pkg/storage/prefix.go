package storage

import "github.com/n3d-io/n3d/pkg/storage/internal/kv"

// KeyPrefix is the first byte of every stored key; it names the table the
// key belongs to. The byte values are neo-go's, so the database layout is
// the same; docs/storage-format.md describes what follows each prefix and
// which package owns it.
type KeyPrefix byte

// Key prefixes.
const (
	// DataExecutable holds blocks and transactions by hash (followed by
	// ExecBlock or ExecTransaction in the value).
	DataExecutable KeyPrefix = 0x01
	// DataMPT holds MPT nodes by hash.
	DataMPT KeyPrefix = 0x03
	// DataMPTAux holds MPT metadata: height to state root, local and
	// validated state heights.
	DataMPTAux KeyPrefix = 0x04
	// STStorage holds contract storage items: contract ID (int32 LE) then
	// the item key.
	STStorage KeyPrefix = 0x70
	// STTempStorage holds contract storage items received during state
	// sync, swapped for STStorage once the sync is complete.
	STTempStorage KeyPrefix = 0x71
	// STNEP11Transfers holds NEP-11 transfer logs.
	STNEP11Transfers KeyPrefix = 0x72
	// STNEP17Transfers holds NEP-17 transfer logs.
	STNEP17Transfers KeyPrefix = 0x73
	// STTokenTransferInfo holds per-account token transfer bookkeeping.
	STTokenTransferInfo KeyPrefix = 0x74
	// IXHeaderHashList holds batches of header hashes by height.
	IXHeaderHashList KeyPrefix = 0x80
	// SYSCurrentBlock holds the hash and height of the last persisted block.
	SYSCurrentBlock KeyPrefix = 0xc0
	// SYSCurrentHeader holds the hash and height of the last stored header.
	SYSCurrentHeader KeyPrefix = 0xc1
	// SYSStateSyncCurrentBlockHeight holds the state sync block height.
	SYSStateSyncCurrentBlockHeight KeyPrefix = 0xc2
	// SYSStateSyncPoint holds the state sync point.
	SYSStateSyncPoint KeyPrefix = 0xc3
	// SYSStateChangeStage holds the stage of an unfinished state jump or
	// state reset (neo-go also calls it SYSStateJumpStage).
	SYSStateChangeStage KeyPrefix = 0xc4
	// SYSStateJumpStage is the older name of SYSStateChangeStage.
	SYSStateJumpStage = SYSStateChangeStage
	// SYSStateSyncCheckpoint holds the state sync module checkpoint.
	SYSStateSyncCheckpoint KeyPrefix = 0xc5
	// SYSBlockLog holds the block log: blocks made visible whose state may
	// not be persisted yet, by index (u32 BE), each written durably before
	// the block is announced and deleted in the change set that persists
	// its state (pkg/core/chain, blocklog.go). neo-go has no such key.
	SYSBlockLog KeyPrefix = 0xc6
	// SYSVersion holds the chain (DAO) version record, written by the
	// chain: version string, storage prefix, flags, network magic.
	SYSVersion KeyPrefix = 0xf0
	// SYSStorageFormat holds the n3d storage format marker (format
	// version and backend name), written and checked by pkg/storage
	// itself. neo-go has no such key.
	SYSStorageFormat KeyPrefix = KeyPrefix(kv.MarkerPrefix)
)

// Executable record types: the first byte of a DataExecutable value.
const (
	ExecBlock       byte = 1
	ExecTransaction byte = 2
)

// Bytes returns the prefix as a one-byte key, e.g. for SeekRange.Prefix.
func (p KeyPrefix) Bytes() []byte { return []byte{byte(p)} }
