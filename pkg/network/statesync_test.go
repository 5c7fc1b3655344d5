package network

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// stateNode serves the restored reference chain's state trie.
func stateNode(t *testing.T) *node {
	var n *node
	n = newNode(t, nodeOpts{restore: true, cfg: func(c *Config) {
		c.StateExchange = &StateExchangeConfig{
			WalkNodes: func(h util.Uint256, visit func(util.Uint256, []byte) mpt.WalkAction) error {
				return n.chain.WalkStateNodes(h, visit)
			},
		}
	}})
	return n
}

// TestGetMPTDataRebuildsState: a peer that knows only a state root asks
// for the missing nodes (32 hashes per getmptdata) until its trie is
// whole; the leaves it gets are exactly the node's storage at that root,
// for an old root and the current one.
func TestGetMPTDataRebuildsState(t *testing.T) {
	n := stateNode(t)
	p := dialRaw(t, n, 11)
	for _, height := range []uint32{10, n.chain.BlockHeight()} {
		sr, err := n.chain.StateRoot(height)
		require.NoError(t, err)
		src, err := n.chain.TrieAt(sr.Root)
		require.NoError(t, err)
		dst := storage.NewMemoryStore()
		leaves := map[string][]byte{}
		r, err := mpt.NewRestorer(sr.Root, mpt.Config{Store: dst, Prefix: byte(storage.DataMPTAux),
			IsNotFound: func(err error) bool { return errors.Is(err, storage.ErrKeyNotFound) }},
			func(k, v []byte) error { leaves[string(k)] = append([]byte(nil), v...); return nil })
		require.NoError(t, err)
		requests := 0
		for !r.Done() {
			requests++
			require.Less(t, requests, 10000)
			p.send(message.CmdGetMPTData, &payload.MPTInventory{Hashes: r.Missing(payload.MaxMPTHashesCount)})
			d := p.expect(message.CmdMPTData).Payload.(*payload.MPTData)
			added := 0
			for _, enc := range d.Nodes {
				ok, err := r.AddNode(enc)
				require.NoError(t, err)
				if ok {
					added++
				}
			}
			require.NotZero(t, added, "a reply brought no missing node")
		}
		require.NotEmpty(t, leaves)
		all, err := src.Leaves(len(leaves) + 1)
		require.NoError(t, err)
		require.Len(t, all, len(leaves), "height %d", height)
		for _, kv := range all {
			v, ok := leaves[string(kv.Key)]
			require.True(t, ok, "height %d key %x", height, kv.Key)
			require.True(t, bytes.Equal(kv.Value, v), "height %d key %x", height, kv.Key)
		}
	}
}

// TestStateExchangeOffDropsPeer: without the extension either message
// drops the sender (neo-go's answer).
func TestStateExchangeOffDropsPeer(t *testing.T) {
	off := newNode(t, nodeOpts{})
	cases := map[string]func(t *testing.T) *rawPeer{
		"getmptdata off": func(t *testing.T) *rawPeer {
			p := dialRaw(t, off, 21)
			p.send(message.CmdGetMPTData, &payload.MPTInventory{Hashes: []util.Uint256{{1}}})
			return p
		},
		"mptdata off": func(t *testing.T) *rawPeer {
			p := dialRaw(t, off, 22)
			p.send(message.CmdMPTData, &payload.MPTData{Nodes: [][]byte{{0x04}}})
			return p
		},
	}
	for name, run := range cases {
		t.Run(name, func(t *testing.T) { run(t).expectGone() })
	}
}
