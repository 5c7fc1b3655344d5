package hash

import (
	"crypto/sha256"

	"github.com/n3d-io/n3d/pkg/util"
)

// MerkleRoot computes the root of the Merkle tree over hashes as the
// reference does: leaves are paired left to right, an odd node is paired
// with itself, and a parent is the double SHA-256 of its children's bytes.
// The root of no hashes is the zero hash; of one hash, the hash itself.
func MerkleRoot(hashes []util.Uint256) util.Uint256 {
	switch len(hashes) {
	case 0:
		return util.Uint256{}
	case 1:
		return hashes[0]
	}
	level := make([]util.Uint256, len(hashes))
	copy(level, hashes)
	var buf [64]byte
	for len(level) > 1 {
		next := level[:(len(level)+1)/2]
		for i := range next {
			l := level[2*i]
			r := l
			if 2*i+1 < len(level) {
				r = level[2*i+1]
			}
			copy(buf[:32], l[:])
			copy(buf[32:], r[:])
			h := sha256.Sum256(buf[:])
			next[i] = sha256.Sum256(h[:])
		}
		level = next
	}
	return level[0]
}
