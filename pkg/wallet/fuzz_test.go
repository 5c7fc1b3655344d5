package wallet_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/wallet"
)

func FuzzWalletJSON(f *testing.F) {
	for _, nw := range neoGoWallets {
		b, err := os.ReadFile(filepath.Join("testdata", nw.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"name":"x","version":"1.0","accounts":[{"address":"NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq","key":null,"contract":null,"extra":[1]}],"scrypt":{"n":2,"r":1,"p":1},"extra":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := wallet.FromBytes(data)
		if err != nil {
			return
		}
		out, err := w.JSON()
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		back, err := wallet.FromBytes(out)
		if err != nil {
			t.Fatalf("re-read of\n%s\n: %v", out, err)
		}
		again, err := back.JSON()
		if err != nil || !bytes.Equal(out, again) {
			t.Fatalf("not stable:\n%s\n%s", out, again)
		}
	})
}
