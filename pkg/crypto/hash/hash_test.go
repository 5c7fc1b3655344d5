package hash_test

import (
	"encoding/base64"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	. "github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

type refBlock struct {
	Block struct {
		MerkleRoot util.Uint256 `json:"merkleroot"`
		Tx         []struct {
			Hash    util.Uint256 `json:"hash"`
			Sender  string       `json:"sender"`
			Signers []struct {
				Account util.Uint160 `json:"account"`
			} `json:"signers"`
			Witnesses []struct {
				Verification string `json:"verification"`
			} `json:"witnesses"`
		} `json:"tx"`
	} `json:"block"`
}

// TestAgainstReferenceBlocks checks MerkleRoot, Hash160 and addresses with
// the blocks the reference node produced.
func TestAgainstReferenceBlocks(t *testing.T) {
	var checkedTx int
	for _, chain := range conformance.Chains(t) {
		path := filepath.Join(conformance.Dir(t, "chains", chain), "blocks.jsonl")
		for _, b := range conformance.ReadJSONL[refBlock](t, path) {
			hashes := make([]util.Uint256, len(b.Block.Tx))
			for i, tx := range b.Block.Tx {
				hashes[i] = tx.Hash
				script, err := base64.StdEncoding.DecodeString(tx.Witnesses[0].Verification)
				require.NoError(t, err)
				require.Equal(t, tx.Signers[0].Account, Hash160(script), "witness script hash of %s", tx.Hash)
				require.Equal(t, tx.Sender, address.Uint160ToString(tx.Signers[0].Account))
				checkedTx++
			}
			require.Equal(t, b.Block.MerkleRoot, MerkleRoot(hashes))
		}
	}
	require.NotZero(t, checkedTx)
}

func TestKnownDigests(t *testing.T) {
	// Digests of "abc" from the SHA-256 and RIPEMD-160 specifications.
	require.Equal(t, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Sha256([]byte("abc")).StringLE())
	require.Equal(t, "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc", RipeMD160([]byte("abc")).StringLE())
	d := Sha256([]byte("abc"))
	require.Equal(t, Sha256(d[:]), DoubleSha256([]byte("abc")))
	require.Len(t, Checksum([]byte("abc")), 4)
}

func TestMerkleRootShapes(t *testing.T) {
	require.Equal(t, util.Uint256{}, MerkleRoot(nil))
	a, b, c := Sha256([]byte{1}), Sha256([]byte{2}), Sha256([]byte{3})
	require.Equal(t, a, MerkleRoot([]util.Uint256{a}))
	pair := func(l, r util.Uint256) util.Uint256 { return DoubleSha256(append(l[:], r[:]...)) }
	require.Equal(t, pair(a, b), MerkleRoot([]util.Uint256{a, b}))
	require.Equal(t, pair(pair(a, b), pair(c, c)), MerkleRoot([]util.Uint256{a, b, c}))
	in := []util.Uint256{a, b, c}
	MerkleRoot(in)
	require.Equal(t, []util.Uint256{a, b, c}, in, "input must not be modified")
}
