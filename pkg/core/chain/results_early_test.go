package chain

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// TestTransactionsRecordedAsTheyRun: with nobody subscribed to executions
// or notifications a block's transactions are recorded as each one runs
// (its result is not kept for the block's end); with such a subscriber
// they are recorded after the block, their results published. The stored
// data after restoring a reference chain is the same byte for byte.
func TestTransactionsRecordedAsTheyRun(t *testing.T) {
	if referenceNatives == nil {
		t.Skip("needs the complete native contract set of pkg/core/native")
	}
	name := conformance.Chains(t)[0]
	acc, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", name), name+".acc"))
	require.NoError(t, err)
	restore := func(subscribed bool) (map[string][]byte, int) {
		c := openRefChain(t, name)
		execs := 0
		var s *Subscription
		done := make(chan struct{})
		if subscribed {
			s = c.Subscribe(EventExecution, 1<<20)
			go func() {
				defer close(done)
				for range s.C {
					execs++
				}
			}()
		}
		require.Equal(t, !subscribed, c.recordTxsAsTheyRun(), "the path under test")
		_, err := Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{})
		require.NoError(t, err)
		if s != nil {
			s.Close()
			<-done
		}
		got := map[string][]byte{}
		require.NoError(t, c.store.Seek(storage.SeekRange{}, func(k, v []byte) bool {
			got[string(k)] = bytes.Clone(v)
			return true
		}))
		require.NotEmpty(t, got)
		return got, execs
	}
	early, _ := restore(false)
	late, execs := restore(true)
	require.Positive(t, execs, "the subscriber got the executions")
	require.Equal(t, len(late), len(early))
	for k, v := range late {
		require.Equal(t, v, early[k], "key %x", k)
	}
}
