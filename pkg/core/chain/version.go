package chain

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/storage"
)

// dbVersion is the format of the chain records this code writes.
const dbVersion = "n3d-chain-1"

// version is the SYSVersion record: it binds a database to a network and a
// state trie mode.
type version struct {
	Value string
	Magic uint32
	Mode  byte
	// StateRootInHeader is written only when set (a trailing byte), so
	// the records of earlier databases read as false.
	StateRootInHeader bool
}

func (c *Chain) currentVersion() version {
	return version{Value: dbVersion, Magic: uint32(c.proto.Magic), Mode: byte(c.trieMode()),
		StateRootInHeader: c.proto.StateRootInHeader}
}

func (c *Chain) putVersion() error {
	v := c.currentVersion()
	w := io.NewBufBinWriter()
	w.WriteString(v.Value)
	w.WriteU32LE(v.Magic)
	w.WriteU8(v.Mode)
	if v.StateRootInHeader {
		w.WriteBool(true)
	}
	if w.Err != nil {
		return w.Err
	}
	return c.cache.Put(storage.SYSVersion.Bytes(), w.Bytes())
}

// checkVersion refuses a database of another format, network or trie mode.
// A database without the record must be empty (it gets one with genesis).
func (c *Chain) checkVersion() error {
	b, err := c.cache.Get(storage.SYSVersion.Bytes())
	if errors.Is(err, storage.ErrKeyNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("chain: version: %w", err)
	}
	r := io.NewBinReaderFromBuf(b)
	var got version
	got.Value = r.ReadString(64)
	got.Magic = r.ReadU32LE()
	got.Mode = r.ReadU8()
	if r.Err == nil && r.Len() > 0 {
		got.StateRootInHeader = r.ReadBool()
	}
	if r.Err != nil {
		return fmt.Errorf("%w: version record: %w", ErrVersion, r.Err)
	}
	if want := c.currentVersion(); got != want {
		return fmt.Errorf("%w: database %s magic %d mode %d StateRootInHeader %t, configured %s magic %d mode %d StateRootInHeader %t",
			ErrVersion, got.Value, got.Magic, got.Mode, got.StateRootInHeader,
			want.Value, want.Magic, want.Mode, want.StateRootInHeader)
	}
	return nil
}
