package chain

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/stretchr/testify/require"
)

// TestViewsWhileBlocksAreAdded reads views from several goroutines while
// the reference chain is restored block by block: a latest view shared by
// the readers, fresh latest views, views of past states with test runs
// over them and trie views never fail (run it with -race to check the
// views' locking). Test runs go over past views only: the latest view
// reads each record as committed at that moment, so a run across a
// hardfork block may mix two states.
func TestViewsWhileBlocksAreAdded(t *testing.T) {
	const name = "testblocks"
	c := openMemChain(t, loadProtocol(t, name))
	acc, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", name), name+".acc"))
	require.NoError(t, err)
	var neo util.Uint160
	cs, err := c.LatestView().NativeContracts()
	require.NoError(t, err)
	for _, n := range cs {
		if n.Manifest.Name == "NeoToken" {
			neo = n.Hash
		}
	}
	require.False(t, neo.IsZero())
	b := emit.NewBuilder()
	b.AppCall(neo, "totalSupply", byte(callflag.ReadOnly))
	script, err := b.Script()
	require.NoError(t, err)

	shared := c.LatestView()
	var (
		done  atomic.Bool
		reads atomic.Int64
		wg    sync.WaitGroup
		errs  = make(chan error, 8)
	)
	read := func(v *StateView, run bool) error {
		if _, err := v.GetContract(neo); err != nil {
			return err
		}
		if _, err := v.NextBlockValidators(); err != nil {
			return err
		}
		if err := v.SeekStorage(native.ManagementID, nil, func(_, _ []byte) bool { return true }); err != nil {
			return err
		}
		if _, err := v.GetStorageItem(-100, []byte{1}); !errors.Is(err, ErrNotFound) {
			return errors.Join(errors.New("absent item"), err)
		}
		if !run {
			reads.Add(1)
			return nil
		}
		next := &block.Block{Header: block.Header{Index: v.Height() + 1}} // as RPC mocks it
		ic, err := v.TestContext(trigger.Application, nil, next, 1_00000000)
		if err != nil {
			return err
		}
		if _, err := ic.LoadScript(script, callflag.All, -1, 0); err != nil {
			return err
		}
		if err := ic.Run(); err != nil || ic.VM().State() != vm.HaltState {
			return errors.Join(errors.New("test run"), err)
		}
		reads.Add(1)
		return nil
	}
	for i := range 4 {
		wg.Go(func() {
			for !done.Load() {
				if err := readOnce(c, i, shared, neo, read); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	_, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{})
	done.Store(true)
	wg.Wait()
	require.NoError(t, err)
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Positive(t, reads.Load())
	require.NoError(t, read(c.LatestView(), true))
}

// readOnce is one read of reader i of TestViewsWhileBlocksAreAdded: 0 the
// shared latest view, 1 a fresh latest view, 2 a past view with a test
// run, 3 a trie view of the latest root.
func readOnce(c *Chain, i int, shared *StateView, neo util.Uint160, read func(*StateView, bool) error) error {
	switch i {
	case 1:
		return read(c.LatestView(), false)
	case 2:
		past, err := c.ViewAt(c.BlockHeight() / 2)
		if err != nil {
			return err
		}
		return read(past, true)
	case 3:
		sr, err := c.StateRoot(c.BlockHeight())
		if err != nil {
			return err
		}
		tv, err := c.TrieAt(sr.Root)
		if err != nil {
			return err
		}
		_, err = tv.Contract(neo)
		return err
	}
	return read(shared, false)
}
