package storage_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/n3d-io/n3d/pkg/storage"
)

// The chain's use of the package: a block cache over the disk store, one
// Snapshot per transaction, a background persist per block.
func Example() {
	dir, err := os.MkdirTemp("", "n3d-storage-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	disk, err := storage.New(storage.DBConfiguration{
		Type:           storage.LevelDB,
		LevelDBOptions: storage.LevelDBOptions{DataDirectoryPath: filepath.Join(dir, "chain")},
	})
	if err != nil {
		panic(err)
	}
	block := storage.NewMemCachedStore(disk)

	key := append(storage.STStorage.Bytes(), 0xfb, 0xff, 0xff, 0xff, 'k') // contract -5, key "k"
	ok := storage.NewSnapshot(block)
	_ = ok.Put(key, []byte("committed"))
	_ = ok.Commit() // the transaction succeeded

	failed := storage.NewSnapshot(block)
	_ = failed.Put(key, []byte("discarded"))
	failed.Discard() // the transaction faulted

	if _, err := block.Persist(); err != nil { // returns at once
		panic(err)
	}
	v, _ := block.Get(key) // readable while the disk write runs
	fmt.Printf("%s\n", v)
	if err := block.Close(); err != nil { // waits for the write, closes the disk store
		panic(err)
	}
	// Output: committed
}
