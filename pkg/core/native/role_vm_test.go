package native_test

import (
	"fmt"
	"testing"

	"github.com/n3d-io/n3d/internal/nativetest"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/stretchr/testify/require"
)

// Expected behaviour: the reference RoleManagement.DesignateAsRole and
// GetDesignatedByRole (neo src/Neo/SmartContract/Native/RoleManagement.cs).

func keyArgs(t *testing.T, n int, seed string) ([]any, [][]byte) {
	var args []any
	var raw [][]byte
	for i := range n {
		k := nativetest.Key(t, fmt.Sprintf("%s %d", seed, i)).PublicKey().Bytes()
		args = append(args, k)
		raw = append(raw, k)
	}
	return args, raw
}

func TestRoleManagement(t *testing.T) {
	for _, hf := range []protocol.Hardfork{protocol.HFDomovoi, protocol.HFEchidna} {
		t.Run(hf.String(), func(t *testing.T) {
			c := nativetest.New(t, nativetest.Options{Hardforks: nativetest.Hardfork(hf, 0)})
			h := nativetest.DesignHash
			com := nativetest.CalledByEntry(c.CommitteeAddress())
			role := int64(native.RoleOracle)
			nodes, raw := keyArgs(t, 3, "oracle")

			// Nothing designated yet.
			require.Empty(t, nativetest.Items(t, call(t, c, h, "getDesignatedByRole", role, 1)))
			br := c.AddBlock(c.Tx(nativetest.CallScript(t, h, "designateAsRole", role, nodes), com)) // block 1
			require.Len(t, br.Txs[0].Stack, 1)
			require.Equal(t, "HALT", br.Txs[0].State.String())
			ev := br.Txs[0].EventsNamed(h, "Designation")
			require.Len(t, ev, 1)
			require.Equal(t, role, nativetest.Int(t, ev[0].Item.At(0)))
			require.Equal(t, int64(1), nativetest.Int(t, ev[0].Item.At(1)), "the persisting block's index")
			if hf >= protocol.HFEchidna {
				require.Equal(t, 4, ev[0].Item.Len())
				require.Empty(t, nativetest.Items(t, ev[0].Item.At(2)))
				// Sorted as stored: neo-go 0.120.0 notifies them so (C# neo
				// in call order); see testdata/neogo-diff in pkg/core/chain.
				require.Equal(t, sortedByPoint(t, raw), itemKeys(t, ev[0].Item.At(3)), "new nodes sorted")
			} else {
				require.Equal(t, 2, ev[0].Item.Len())
			}
			// Stored from the next block on, sorted.
			require.Empty(t, nativetest.Items(t, call(t, c, h, "getDesignatedByRole", role, 1)))
			require.Equal(t, sortedByPoint(t, raw), itemKeys(t, call(t, c, h, "getDesignatedByRole", role, 2)))
			// Future index beyond current + 1.
			c.Call(nil, nativetest.CallScript(t, h, "getDesignatedByRole", role, 3)).Faults(t, "index")
			// Other roles are separate.
			require.Empty(t, nativetest.Items(t, call(t, c, h, "getDesignatedByRole", int64(native.RoleStateValidator), 2)))

			// A second designation; the old list is in the event (Echidna).
			nodes2, raw2 := keyArgs(t, 1, "oracle2")
			br = c.AddBlock(c.Tx(nativetest.CallScript(t, h, "designateAsRole", role, nodes2), com)) // block 2
			ev = br.Txs[0].EventsNamed(h, "Designation")
			require.Len(t, ev, 1)
			if hf >= protocol.HFEchidna {
				require.Equal(t, sortedByPoint(t, raw), itemKeys(t, ev[0].Item.At(2)))
			}
			require.Equal(t, raw2, itemKeys(t, call(t, c, h, "getDesignatedByRole", role, 3)))
			require.Equal(t, sortedByPoint(t, raw), itemKeys(t, call(t, c, h, "getDesignatedByRole", role, 2)))

			// Errors.
			tooMany, _ := keyArgs(t, 33, "many")
			max32, _ := keyArgs(t, 32, "many")
			for name, args := range map[string][]any{
				"empty":     {role, []any{}},
				"33 nodes":  {role, tooMany},
				"bad role":  {int64(3), nodes},
				"role 256":  {int64(256) + int64(native.RoleOracle), nodes},
				"bad key":   {role, []any{[]byte{2, 3}}},
				"duplicate": {role, []any{nodes[0], nodes[1], nodes[0]}},
				"not array": {role, nodes[0]},
			} {
				c.Invoke(com, nativetest.CallScript(t, h, "designateAsRole", args...)).Faults(t, "")
				_ = name
			}
			c.Invoke(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, h, "designateAsRole", role, nodes)).Faults(t, "witness check failed")
			c.Call(nil, nativetest.CallScript(t, h, "getDesignatedByRole", int64(5), 1)).Faults(t, "role")
			// Twice in one block: the second fails.
			br = c.AddBlock(
				c.Tx(nativetest.CallScript(t, h, "designateAsRole", role, max32), com),
				c.Tx(nativetest.CallScript(t, h, "designateAsRole", role, nodes), com))
			require.Equal(t, "HALT", br.Txs[0].State.String())
			br.Txs[1].Faults(t, "already designated")
			require.Len(t, nativetest.Items(t, call(t, c, h, "getDesignatedByRole", role, c.Height()+1)), 32)
		})
	}
}
