package hash

import (
	"crypto/sha256"

	"github.com/n3d-io/n3d/pkg/util"
	"golang.org/x/crypto/ripemd160" //nolint:staticcheck // RIPEMD-160 is part of the Neo protocol.
)

// Sha256 returns the SHA-256 digest of data.
func Sha256(data []byte) util.Uint256 {
	return sha256.Sum256(data)
}

// DoubleSha256 returns SHA-256 applied twice to data.
func DoubleSha256(data []byte) util.Uint256 {
	h := sha256.Sum256(data)
	return sha256.Sum256(h[:])
}

// RipeMD160 returns the RIPEMD-160 digest of data.
func RipeMD160(data []byte) util.Uint160 {
	var u util.Uint160
	h := ripemd160.New()
	_, _ = h.Write(data) // hash.Hash writes never fail
	h.Sum(u[:0])
	return u
}

// Hash160 returns RIPEMD-160 of SHA-256 of data: the script hash of a
// contract or account verification script.
func Hash160(data []byte) util.Uint160 {
	h := sha256.Sum256(data)
	return RipeMD160(h[:])
}

// Checksum returns the first four bytes of the double SHA-256 of data.
func Checksum(data []byte) []byte {
	h := DoubleSha256(data)
	return h[:4]
}
