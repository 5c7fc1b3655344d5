package config

import (
	"crypto/elliptic"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
)

// parsePublicKey checks that s is a hex-encoded secp256r1 public key the
// reference accepts in a config: 33-byte compressed (02/03 prefix) or 65-byte
// uncompressed (04 prefix), lying on the curve. An optional 0x is allowed.
// It returns the key's compressed form in hex, its identity.
func parsePublicKey(s string) (string, error) {
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		return "", fmt.Errorf("%w: %q is not hex: %w", ErrPublicKey, s, err)
	}
	curve := elliptic.P256().Params()
	switch {
	case len(b) == 33 && (b[0] == 2 || b[0] == 3):
		x := new(big.Int).SetBytes(b[1:])
		if x.Cmp(curve.P) >= 0 || curveY(curve, x) == nil {
			return "", fmt.Errorf("%w: %q is not a point of secp256r1", ErrPublicKey, s)
		}
		return hex.EncodeToString(b), nil
	case len(b) == 65 && b[0] == 4:
		x := new(big.Int).SetBytes(b[1:33])
		y := new(big.Int).SetBytes(b[33:])
		if x.Cmp(curve.P) >= 0 || y.Cmp(curve.P) >= 0 || !onCurve(curve, x, y) {
			return "", fmt.Errorf("%w: %q is not a point of secp256r1", ErrPublicKey, s)
		}
		compressed := append([]byte{2 + b[64]&1}, b[1:33]...)
		return hex.EncodeToString(compressed), nil
	default:
		return "", fmt.Errorf("%w: %q must be 33 bytes with prefix 02/03 (or 65 with 04), got %d bytes",
			ErrPublicKey, s, len(b))
	}
}

// rhs returns x³ - 3x + b mod p, the right-hand side of the curve equation.
func rhs(c *elliptic.CurveParams, x *big.Int) *big.Int {
	x3 := new(big.Int).Exp(x, big.NewInt(3), c.P)
	threeX := new(big.Int).Mul(x, big.NewInt(3))
	x3.Sub(x3, threeX)
	x3.Add(x3, c.B)
	return x3.Mod(x3, c.P)
}

// curveY returns a y with (x, y) on the curve, or nil when there is none.
func curveY(c *elliptic.CurveParams, x *big.Int) *big.Int {
	return new(big.Int).ModSqrt(rhs(c, x), c.P)
}

func onCurve(c *elliptic.CurveParams, x, y *big.Int) bool {
	y2 := new(big.Int).Mul(y, y)
	y2.Mod(y2, c.P)
	return y2.Cmp(rhs(c, x)) == 0
}

// checkKeyList validates every key of a list and rejects duplicates (the
// same point written twice, compressed or not, counts once).
func checkKeyList(what string, keys []string) error {
	seen := make(map[string]int, len(keys))
	for i, k := range keys {
		id, err := parsePublicKey(k)
		if err != nil {
			return fmt.Errorf("%s[%d]: %w", what, i, err)
		}
		if j, dup := seen[id]; dup {
			return fmt.Errorf("%w: %s[%d] repeats %s[%d] (%s)", ErrPublicKey, what, i, what, j, k)
		}
		seen[id] = i
	}
	return nil
}
