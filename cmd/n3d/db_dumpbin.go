package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/io"
	"go.uber.org/zap"
)

// DumpBinOptions are the `db dump-bin` flags.
type DumpBinOptions struct {
	// Dir receives one file per block, block-<index>.bin; it is created
	// when missing.
	Dir string
	// Start is the first block; Count the number of blocks (0: up to the tip).
	Start, Count uint32
}

// dumpBinDB writes blocks of the configured chain to o.Dir, each in its
// own file block-<index>.bin holding the block's wire encoding (as neo-go's
// db dump-bin). Each file is written under a temporary name and renamed
// into place, so a failure never leaves a truncated block file.
func dumpBinDB(cfg config.Config, log *zap.Logger, o DumpBinOptions) (err error) {
	if o.Dir == "" {
		return errors.New("db dump-bin: no output directory (-o)")
	}
	c, err := openChain(cfg, log, nil)
	if err != nil {
		return fmt.Errorf("db dump-bin: %w", err)
	}
	defer func() { err = errors.Join(err, c.Close()) }()
	h := c.BlockHeight()
	if o.Start > h || uint64(o.Start)+uint64(o.Count) > uint64(h)+1 {
		return fmt.Errorf("db dump-bin: %w: chain height %d, cannot dump %d blocks from %d",
			chain.ErrNotFound, h, o.Count, o.Start)
	}
	count := o.Count
	if count == 0 {
		count = h - o.Start + 1
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return fmt.Errorf("db dump-bin: %w", err)
	}
	for i := o.Start; i < o.Start+count; i++ {
		b, err := c.GetBlockByIndex(i)
		if err != nil {
			return fmt.Errorf("db dump-bin: block %d: %w", i, err)
		}
		if err := writeBlockFile(filepath.Join(o.Dir, fmt.Sprintf("block-%d.bin", i)), b); err != nil {
			return fmt.Errorf("db dump-bin: block %d: %w", i, err)
		}
	}
	log.Info("blocks written", zap.String("dir", o.Dir), zap.Uint32("start", o.Start), zap.Uint32("count", count))
	return nil
}

// writeBlockFile writes b's wire encoding to path.
func writeBlockFile(path string, b *block.Block) error {
	w := io.NewBufBinWriter()
	b.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return w.Err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, w.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
