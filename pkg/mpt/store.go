package mpt

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/util"
)

// Store is the key-value store the trie reads its nodes from and writes them
// to. It is declared here, where it is used; any storage layer (typically a
// per-block write cache over the node database) satisfies it directly or
// through a few lines of adapter.
//
// Contract:
//   - Get returns the value stored at key. A missing key is reported either
//     as (nil, nil) or as an error for which Config.IsNotFound returns true;
//     any other error is a storage failure and is passed on. The trie does not
//     modify the returned slice and does not keep it after Get returns.
//   - Put stores value at key. The store may keep both slices: the trie never
//     touches them again after the call.
//   - Delete removes key; deleting a missing key is not an error.
type Store interface {
	Get(key []byte) ([]byte, error)
	Put(key, value []byte) error
	Delete(key []byte) error
}

// Mode selects how nodes are kept in the store. The values and the stored
// layout are those of neo-go's TrieMode, so a node database is readable by
// either implementation.
type Mode byte

const (
	// ModeAll keeps every node ever written: the stored value is the node's
	// encoding. Any past root stays readable; nothing is ever deleted.
	ModeAll Mode = 0x00
	// ModeLatest counts references: the stored value is the encoding followed
	// by a flag byte 0x01 and the reference count as uint32 LE. A node whose
	// count drops to zero is deleted, so only the latest root stays complete
	// (neo-go's KeepOnlyLatestState).
	ModeLatest Mode = 0x01
	// ModeGC counts references like ModeLatest, but a node whose count drops
	// to zero is kept, marked inactive: flag byte 0x00 followed by the block
	// index (uint32 LE) at which it became unreferenced. A sweep removes the
	// inactive nodes older than some index (see Collectible), so recent roots
	// stay readable (neo-go's RemoveUntraceableBlocks). Reads through a trie
	// in ModeGC treat inactive nodes as missing; open a trie in ModeLatest to
	// read an older root of a ModeGC database.
	ModeGC Mode = 0x03
)

const (
	modeRefCounted Mode = 0x01
	modeGCFlag     Mode = 0x02
	// rcSuffixLen is the length of the flag byte and the uint32 that follow
	// the node encoding in the reference-counted modes.
	rcSuffixLen = 5
)

func (m Mode) refCounted() bool { return m&modeRefCounted != 0 }
func (m Mode) gc() bool         { return m&modeGCFlag != 0 }

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case ModeAll:
		return "all"
	case ModeLatest:
		return "latest"
	case ModeGC:
		return "gc"
	default:
		return fmt.Sprintf("Mode(%#x)", byte(m))
	}
}

// Config says where and how a trie keeps its nodes.
type Config struct {
	// Store holds the nodes; required.
	Store Store
	// Prefix is the first byte of every node key: a node is stored at
	// Prefix ‖ hash (32 bytes, serialized order). neo-go uses 0x03 (DataMPT)
	// for the live state and 0x04 (DataMPTAux) for state being synchronised.
	Prefix byte
	// Mode selects the stored layout and reference counting.
	Mode Mode
	// IsNotFound recognises the store's "missing key" error. It may be nil
	// when the store reports a missing key as (nil, nil).
	IsNotFound func(error) bool
}

// Validate checks the configuration.
func (c *Config) Validate() error {
	if c.Store == nil {
		return fmt.Errorf("%w: no store", ErrBadConfig)
	}
	switch c.Mode {
	case ModeAll, ModeLatest, ModeGC:
	default:
		return fmt.Errorf("%w: unknown mode %s", ErrBadConfig, c.Mode)
	}
	return nil
}

// nodeKey returns a fresh store key for the node with hash h.
func (c *Config) nodeKey(h util.Uint256) []byte {
	k := make([]byte, 1+util.Uint256Size)
	k[0] = c.Prefix
	copy(k[1:], h[:])
	return k
}

// storedNode is a node record as read from the store.
type storedNode struct {
	enc    []byte // the node encoding; aliases the store's slice
	count  uint32 // reference count (reference-counted modes, active records)
	active bool   // false for ModeGC records marked unreferenced
}

// getStored reads the record of hash h. found is false when the store has no
// record or (in ModeGC) only an inactive one and skipInactive is set.
func (c *Config) getStored(h util.Uint256, skipInactive bool) (storedNode, bool, error) {
	return c.getStoredAt(c.nodeKey(h), h, skipInactive)
}

// getStoredAt is getStored with the node key already built.
func (c *Config) getStoredAt(key []byte, h util.Uint256, skipInactive bool) (storedNode, bool, error) {
	v, err := c.Store.Get(key)
	if err != nil {
		if c.IsNotFound != nil && c.IsNotFound(err) {
			return storedNode{}, false, nil
		}
		return storedNode{}, false, fmt.Errorf("mpt: reading node %s: %w", h, err)
	}
	if v == nil {
		return storedNode{}, false, nil
	}
	if !c.Mode.refCounted() {
		return storedNode{enc: v, active: true}, true, nil
	}
	if len(v) <= rcSuffixLen {
		return storedNode{}, false, fmt.Errorf("%w: node %s record of %d bytes", ErrCorrupted, h, len(v))
	}
	s := storedNode{
		enc:    v[:len(v)-rcSuffixLen],
		active: v[len(v)-rcSuffixLen] == 1,
	}
	if s.active {
		s.count = binary.LittleEndian.Uint32(v[len(v)-4:])
	} else if skipInactive && c.Mode.gc() {
		return storedNode{}, false, nil
	}
	return s, true, nil
}

// rcRecord builds a reference-counted record: enc ‖ flag ‖ uint32 LE n.
// enc is copied unless it has spare capacity for the suffix and owned is set.
func rcRecord(enc []byte, owned bool, active bool, n uint32) []byte {
	var v []byte
	if owned && cap(enc)-len(enc) >= rcSuffixLen {
		v = enc
	} else {
		v = make([]byte, len(enc), len(enc)+rcSuffixLen)
		copy(v, enc)
	}
	flag := byte(0)
	if active {
		flag = 1
	}
	v = append(v, flag, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(v[len(v)-4:], n)
	return v
}

// Collectible reports whether a record stored in ModeGC is an unreferenced
// node that became unreferenced at or before block index upTo, so a garbage
// collection sweep over the Prefix range may delete it.
func Collectible(record []byte, upTo uint32) bool {
	if len(record) <= rcSuffixLen || record[len(record)-rcSuffixLen] != 0 {
		return false
	}
	return binary.LittleEndian.Uint32(record[len(record)-4:]) <= upTo
}

// Errors of this package.
var (
	// ErrNotFound means the key has no value in the trie.
	ErrNotFound = errors.New("mpt: key not found")
	// ErrMissingNode means a node referenced by hash is not in the store.
	ErrMissingNode = errors.New("mpt: node missing from store")
	// ErrInvalidNode means a node encoding is malformed or out of bounds.
	ErrInvalidNode = errors.New("mpt: invalid node encoding")
	// ErrCorrupted means the store holds records the trie cannot have
	// written (bad record length, negative reference count, wrong hash).
	ErrCorrupted = errors.New("mpt: corrupted node store")
	// ErrInvalidProof means a proof does not lead from the root to the key.
	ErrInvalidProof = errors.New("mpt: invalid proof")
	// ErrBadKey means a key is empty or longer than MaxKeyLength.
	ErrBadKey = errors.New("mpt: bad key")
	// ErrBadValue means a value is longer than MaxValueLength.
	ErrBadValue = errors.New("mpt: bad value")
	// ErrBadConfig means a Config failed validation.
	ErrBadConfig = errors.New("mpt: bad config")
	// ErrRestore means a node offered to a Restorer does not fit the trie.
	ErrRestore = errors.New("mpt: restore failed")
)
