package mpt_test

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/storage"
)

// The node's use: one batch per block, flushed into that block's store
// layer, then the state root; proofs and reads against any kept root.
func Example() {
	db := storage.NewMemoryStore()
	cfg := mpt.Config{
		Store:      db,
		Prefix:     byte(storage.DataMPT),
		Mode:       mpt.ModeLatest,
		IsNotFound: func(err error) bool { return errors.Is(err, storage.ErrKeyNotFound) },
	}
	tr, err := mpt.New([32]byte{}, cfg) // empty state
	if err != nil {
		panic(err)
	}
	// Block 1: trie keys are int32 LE contract id ‖ storage key.
	layer := storage.NewMemCachedStore(db)
	tr.SetStore(layer)
	var b mpt.Batch
	_ = b.Put([]byte{0xfb, 0xff, 0xff, 0xff, 0x01}, []byte("total supply"))
	_ = b.Put([]byte{0xfb, 0xff, 0xff, 0xff, 0x14, 0xaa}, []byte("balance"))
	if err := tr.PutBatch(&b); err != nil {
		panic(err)
	}
	if err := tr.Flush(1); err != nil {
		panic(err)
	}
	root := tr.StateRoot()
	if _, err := layer.PersistSync(); err != nil {
		panic(err)
	}

	// Anyone holding the root can check a proof.
	key := []byte{0xfb, 0xff, 0xff, 0xff, 0x14, 0xaa}
	proof, _ := tr.GetProof(key)
	v, err := mpt.VerifyProof(root, key, proof)
	fmt.Println(string(v), err, len(proof), "nodes")

	// A trie reopened at the root reads from the database alone.
	cfg.Store = db
	again, _ := mpt.New(root, cfg)
	all, _ := again.Find([]byte{0xfb, 0xff, 0xff, 0xff}, nil, 10)
	for _, kv := range all {
		fmt.Printf("%x = %s\n", kv.Key, kv.Value)
	}
	// Output:
	// balance <nil> 4 nodes
	// fbffffff01 = total supply
	// fbffffff14aa = balance
}
