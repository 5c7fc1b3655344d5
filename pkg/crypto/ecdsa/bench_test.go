package ecdsa

import (
	stdecdsa "crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"math/big"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// BenchmarkVerify measures verifyWithECDsa end to end (compressed key
// decoding, SHA-256, verification) per curve, next to the shape neo-go uses:
// decode the key into big.Int coordinates, then crypto/ecdsa.Verify over an
// elliptic.Curve (secp256k1.S256() for k1).
func BenchmarkVerify(b *testing.B) {
	msg := []byte("benchmark message")
	for _, rk := range refKeys[:2] {
		key := newTestKey(b, rk.curve, unhex(b, rk.priv))
		ch := curveHashes(rk.curve)[0]
		h := sha256.Sum256(msg)
		sig := key.sign(b, h[:])
		pub := compress(key.pub)
		b.Run(rk.curve.String(), func(b *testing.B) {
			for b.Loop() {
				if ok, err := Verify(VariantGorgon, msg, pub, sig, ch); !ok || err != nil {
					b.Fatal(ok, err)
				}
			}
		})
		b.Run(rk.curve.String()+"/baseline-neo-go-crypto-ecdsa", func(b *testing.B) {
			for b.Loop() {
				std := baselineDecode(b, rk.curve, pub)
				d := sha256.Sum256(msg)
				r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
				if !stdecdsa.Verify(std, d[:], r, s) {
					b.Fatal("baseline failed")
				}
			}
		})
	}
}

func BenchmarkVerifyEd25519(b *testing.B) {
	v := rfc8032[2]
	msg, pub, sig := unhex(b, v.msg), unhex(b, v.pub), unhex(b, v.sig)
	b.Run("cofactored", func(b *testing.B) {
		for b.Loop() {
			if ok, err := VerifyEd25519(VariantGorgon, msg, pub, sig); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("baseline-crypto-ed25519", func(b *testing.B) {
		for b.Loop() {
			if !ed25519.Verify(pub, msg, sig) {
				b.Fatal("baseline failed")
			}
		}
	})
}

func BenchmarkRecoverSecp256k1(b *testing.B) {
	c := refRecover[0]
	hash, sig := unhex(b, c.hash), unhex(b, c.sig)
	b.Run("reference-rules", func(b *testing.B) {
		for b.Loop() {
			if _, ok := RecoverSecp256k1(hash, sig); !ok {
				b.Fatal("recover failed")
			}
		}
	})
	compact := append([]byte{sig[64] + 27}, sig[:64]...)
	b.Run("baseline-dcrd-RecoverCompact", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := k1ecdsa.RecoverCompact(compact, hash); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// baselineDecode decodes a compressed key into a crypto/ecdsa key the way a
// big.Int based node does (stdlib decompression for P-256, dcrd for k1).
func baselineDecode(b *testing.B, c Curve, pub []byte) *stdecdsa.PublicKey {
	if c == Secp256k1 {
		k, err := secp256k1.ParsePubKey(pub)
		if err != nil {
			b.Fatal(err)
		}
		return k.ToECDSA()
	}
	x, y := elliptic.UnmarshalCompressed(elliptic.P256(), pub)
	return &stdecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}
}
