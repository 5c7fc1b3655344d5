package native_test

import (
	"fmt"
	"testing"

	"github.com/n3d-io/n3d/internal/nativetest"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/stretchr/testify/require"
)

// The committee cache is validated by the stored record: a committee
// written in a private layer is seen there only, and never again once the
// layer is discarded, whatever was looked up in between.
func TestNEOCommitteeCacheLayers(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	neo := c.Gov.NEO
	base := c.DAO
	addr0, err := neo.CommitteeAddress(base)
	require.NoError(t, err)
	require.Equal(t, c.CommitteeAddress(), addr0)

	var other neostate.Committee
	var raw [][]byte
	for i := range 7 {
		k := nativetest.Key(t, fmt.Sprintf("other %d", i)).PublicKey().Bytes()
		other = append(other, neostate.KeyWithVotes{Key: k})
		raw = append(raw, k)
	}
	want := multisig(t, sortedByPoint(t, raw), true)
	p := base.Private()
	require.NoError(t, p.PutStorageItem(-5, []byte{14}, other.Bytes()))
	for range 2 {
		got, err := neo.CommitteeAddress(p)
		require.NoError(t, err)
		require.Equal(t, want, got)
		got, err = neo.CommitteeAddress(base)
		require.NoError(t, err)
		require.Equal(t, addr0, got)
	}
	ks, err := neo.CommitteeKeys(p)
	require.NoError(t, err)
	require.Equal(t, sortedByPoint(t, raw), ks)
	vals, err := neo.NextBlockValidators(p)
	require.NoError(t, err)
	require.Equal(t, sortedByPoint(t, raw[:4]), vals)
	// A caller changing the returned keys does not change the cache.
	ks[0] = nil
	ks, err = neo.CommitteeKeys(p)
	require.NoError(t, err)
	require.NotNil(t, ks[0])
	require.NoError(t, p.Discard())
	got, err := neo.CommitteeAddress(base)
	require.NoError(t, err)
	require.Equal(t, addr0, got)
	// A corrupt record is an error, not a stale answer.
	p = base.Private()
	require.NoError(t, p.PutStorageItem(-5, []byte{14}, []byte{1, 2, 3}))
	_, err = neo.CommitteeAddress(p)
	require.ErrorContains(t, err, "invalid stored state")
}

func BenchmarkNEOCommitteeAddress(b *testing.B) {
	c := nativetest.New(b, nativetest.Options{Committee: 21, Validators: 7})
	for b.Loop() {
		if _, err := c.Gov.NEO.CommitteeAddress(c.DAO); err != nil {
			b.Fatal(err)
		}
	}
}
