package scripts_test

import (
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
)

func FuzzMultiSig(f *testing.F) {
	for _, n := range []int{1, 4, 17} {
		s, err := scripts.MultiSigContract(n-n/3, genKeys(f, n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(s)
	}
	f.Add(scripts.SignatureContract(genKeys(f, 1)[0]))
	f.Fuzz(func(t *testing.T, s []byte) {
		m, pubs, ok := scripts.ParseMultiSigContract(s)
		cm, cn, cok := scripts.MultiSigCounts(s)
		if cok != scripts.IsMultiSigContract(s) {
			t.Fatal("IsMultiSigContract disagrees with MultiSigCounts")
		}
		if scripts.IsSignatureContract(s) && cok {
			t.Fatal("both signature and multisig")
		}
		if !ok {
			return
		}
		if !cok || cm != m || cn != len(pubs) {
			t.Fatalf("parse %d/%d vs counts %d/%d", m, len(pubs), cm, cn)
		}
		// Rebuilding from the parsed keys gives a script with the same m and
		// the keys in sorted order.
		rebuilt, err := scripts.MultiSigContract(m, pubs)
		if err != nil {
			t.Fatal(err)
		}
		m2, pubs2, ok := scripts.ParseMultiSigContract(rebuilt)
		sorted := pubs.Copy()
		sorted.Sort()
		if !ok || m2 != m || strings.Join(pubs2.Strings(), ",") != strings.Join(sorted.Strings(), ",") {
			t.Fatalf("rebuilt script %x does not parse back", rebuilt)
		}
	})
}
