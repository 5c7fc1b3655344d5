package keys_test

import (
	"bytes"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
)

func FuzzPublicKeyDecode(f *testing.F) {
	for _, v := range loadVectors(f).Keys {
		k, _ := keys.NewPublicKeyFromString(v.PublicKey)
		f.Add(k.Bytes(), false)
		f.Add(k.UncompressedBytes(), true)
	}
	f.Add([]byte{0}, false)
	f.Add([]byte{0x02}, true)
	f.Fuzz(func(t *testing.T, b []byte, k1 bool) {
		c := keys.Secp256r1
		if k1 {
			c = keys.Secp256k1
		}
		k, err := keys.NewPublicKeyFromBytesOnCurve(b, c)
		if err != nil {
			return
		}
		// A decoded key re-encodes to what was decoded.
		if len(b) == keys.CompressedLen && !bytes.Equal(k.Bytes(), b) {
			t.Fatalf("compressed %x re-encodes as %x", b, k.Bytes())
		}
		if len(b) == keys.UncompressedLen && !bytes.Equal(k.UncompressedBytes(), b) {
			t.Fatalf("uncompressed %x re-encodes as %x", b, k.UncompressedBytes())
		}
		back, err := keys.NewPublicKeyFromBytesOnCurve(k.Bytes(), c)
		if err != nil || !back.Equal(k) {
			t.Fatalf("round trip of %x: %v", b, err)
		}
		if c == keys.Secp256r1 {
			var viaReader keys.PublicKey
			r := io.NewBinReaderFromBuf(b)
			viaReader.DecodeBinary(r)
			if r.Err != nil || !viaReader.Equal(k) {
				t.Fatalf("DecodeBinary of %x: %v", b, r.Err)
			}
		}
	})
}

func FuzzWIF(f *testing.F) {
	for _, v := range loadVectors(f).Keys {
		f.Add(v.WIF)
	}
	f.Add("")
	f.Add("5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ")
	f.Fuzz(func(t *testing.T, s string) {
		k, err := keys.NewPrivateKeyFromWIF(s)
		if err != nil {
			return
		}
		if k.WIF() != s {
			t.Fatalf("WIF %q re-encodes as %q", s, k.WIF())
		}
	})
}

func FuzzNEP2(f *testing.F) {
	priv, err := keys.NewPrivateKey()
	if err != nil {
		f.Fatal(err)
	}
	enc, err := keys.NEP2Encrypt(priv, "pass", cheap)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc, "pass")
	for _, v := range loadVectors(f).Keys {
		f.Add(v.NEP2, v.Passphrase)
	}
	f.Fuzz(func(t *testing.T, s, pass string) {
		k, err := keys.NEP2Decrypt(s, pass, cheap)
		if err != nil {
			return
		}
		again, err := keys.NEP2Encrypt(k, pass, cheap)
		if err != nil || again != s {
			t.Fatalf("NEP-2 %q re-encrypts as %q (%v)", s, again, err)
		}
	})
}
