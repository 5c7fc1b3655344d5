package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/n3d-io/n3d/pkg/core/chain"
)

// storageDump writes per-block storage changes in neo-go's `db restore
// --dump` layout: DIR/BlockStorage_<index/100000×100000>/dump-block-
// <index/1000×1000>.dump, one JSON object per block and line:
//
//	{"block":N,"size":S,"storage":[{"state":"Added|Changed|Deleted","key":base64,"value":base64}]}
//
// where key is int32 LE contract id ‖ item key and Deleted entries have no
// value. Blocks are buffered and appended to their file every 1000 blocks
// and at Close.
type storageDump struct {
	dir     string
	pending []blockDump
	err     error
}

type blockDump struct {
	Block   uint32        `json:"block"`
	Size    int           `json:"size"`
	Storage []dumpOpEntry `json:"storage"`
}

type dumpOpEntry struct {
	State string `json:"state"`
	Key   []byte `json:"key"`
	Value []byte `json:"value,omitzero"`
}

// add records a block's changes (chain.Config.OnStorageChanges).
func (s *storageDump) add(index uint32, changes []chain.StorageChange) {
	ops := make([]dumpOpEntry, len(changes))
	for i, c := range changes {
		ops[i] = dumpOpEntry{State: c.State.String(), Key: c.Key, Value: c.Value}
		if c.State != chain.Deleted && c.Value == nil {
			ops[i].Value = []byte{}
		}
	}
	s.pending = append(s.pending, blockDump{Block: index, Size: len(ops), Storage: ops})
	if (index+1)%1000 == 0 && s.err == nil {
		s.err = s.flush()
	}
}

// flush appends the buffered blocks to their files.
func (s *storageDump) flush() error {
	for len(s.pending) != 0 {
		first := s.pending[0].Block
		n := 0
		for n < len(s.pending) && s.pending[n].Block/1000 == first/1000 {
			n++
		}
		if err := appendDump(s.path(first), s.pending[:n]); err != nil {
			return err
		}
		s.pending = s.pending[n:]
	}
	return nil
}

func (s *storageDump) path(index uint32) string {
	return filepath.Join(s.dir, fmt.Sprintf("BlockStorage_%d", index/100000*100000),
		fmt.Sprintf("dump-block-%d.dump", index/1000*1000))
}

func appendDump(path string, blocks []blockDump) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("storage dump: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("storage dump: %w", err)
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	enc := json.NewEncoder(f)
	for i := range blocks {
		if err := enc.Encode(&blocks[i]); err != nil {
			return fmt.Errorf("storage dump of block %d: %w", blocks[i].Block, err)
		}
	}
	return nil
}

// Close writes what is buffered and returns the first error met.
func (s *storageDump) Close() error {
	if s.err != nil {
		return s.err
	}
	return s.flush()
}
