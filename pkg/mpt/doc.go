/*
Package mpt is the Merkle Patricia trie that gives Neo N3 its state root: a
16-ary trie over the contract storage, byte for byte the reference's nodes,
encodings and hashes.

# Keys and nodes

A trie key is the storage key without its store prefix: int32 LE contract id
‖ contract key (the LedgerContract, id -4, is left out of the trie by the
caller). Keys are walked as nibbles, high half first. Nodes:

	Branch     0x00 ‖ 17 children           slots 0..15 by nibble, 16 = key ends here
	Extension  0x01 ‖ varbytes(nibbles) ‖ child   shared path, never empty, never to an extension
	Leaf       0x02 ‖ varbytes(value)
	Hash       0x03 ‖ hash (32 bytes)       a node known by hash only (stored or to fetch)
	Empty      0x04                         (nil in memory)

Inside a branch or an extension a child is written as Hash (0x03 ‖ hash) or
Empty (0x04). A node's hash is DoubleSha256 of its encoding; the state root
is the root node's hash, zero for an empty trie. Branches with one child and
extension chains are always folded, so a key set has exactly one root.

	{0x12: a, 0x13: b}:   Extension[1] → Branch{2: Leaf a, 3: Leaf b}

# Data flow

The chain collects a block's storage changes into a Batch, applies it with
PutBatch (one pass down the trie, sorted, touching each changed node once),
then calls Flush(block index) with that block's store layer and reads
StateRoot. Hashes are computed lazily and only for changed nodes; unchanged
subtrees keep their cached hash and are never re-encoded. Nodes read from the
store replace hash nodes in memory until Collapse bounds the memory.

	Batch ─PutBatch→ in-memory nodes (changed = dirty) ─Flush→ Store
	                                     └─StateRoot (hashes dirty nodes)

# Store layout and modes

A node lives at Prefix ‖ hash. Mode picks the value layout (compatible with
neo-go): ModeAll stores the bare encoding and never deletes; ModeLatest and
ModeGC append a flag and a uint32 reference count (one per place the node
occupies in the current trie). A committed node that changes or goes away
loses a reference; each node written by Flush gains one. ModeLatest deletes a
node at zero, ModeGC marks it inactive with the block index and leaves it to
a sweep (Collectible), so recent old roots stay readable.

# Reading, proofs and state synchronisation

Get reads one key, Find lists a key range in order (the findstates RPC);
both work on a trie opened at any root still in the store. GetProof returns
the encodings from the root to the key's leaf; VerifyProof checks them
against a root. ReadNode serves a node by hash to a synchronising peer, Walk the
stored subtree under a hash depth first (a getmptdata answer). A Restorer rebuilds a trie of a known root from
nodes fetched by hash in any order: it reports the missing hashes, checks and
stores each node it is given (with the same reference counts Flush would
write), and hands every leaf to the caller to fill the contract storage.

Tries and restorers are not safe for concurrent use; the block persister owns
one trie. Errors from the store are returned wrapped; after such an error the
trie must be reopened at its last flushed root.
*/
package mpt
