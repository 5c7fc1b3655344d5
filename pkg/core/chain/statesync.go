package chain

import (
	"errors"

	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// WalkStateNodes walks the stored state trie nodes under the node with
// hash h depth first (mpt.Walk): what the node serves to a peer
// synchronising state (getmptdata). Nodes of older states are found as
// long as the trie mode keeps them: always in the default mode, for a
// while with RemoveUntraceableBlocks, not with KeepOnlyLatestState
// (which keeps only the current state).
func (c *Chain) WalkStateNodes(h util.Uint256, visit func(h util.Uint256, enc []byte) mpt.WalkAction) error {
	return mpt.Walk(mpt.Config{Store: c.cache, Prefix: byte(storage.DataMPT), Mode: c.trieMode(),
		IsNotFound: func(err error) bool { return errors.Is(err, storage.ErrKeyNotFound) }}, h, visit)
}
