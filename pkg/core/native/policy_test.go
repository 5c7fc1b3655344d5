package native

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// Defaults and limits are the reference PolicyContract's (C#
// PolicyContract.cs); the Echidna values come from the configuration.

func TestPolicyGettersAndSetters(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	h := e.core.Policy.Metadata().Hash
	get := func(m string) int64 { return itemInt(t, e.mustCall(h, m)) }
	require.Equal(t, int64(DefaultFeePerByte), get("getFeePerByte"))
	require.Equal(t, int64(DefaultExecFeeFactor), get("getExecFeeFactor"))
	require.Equal(t, int64(DefaultStoragePrice), get("getStoragePrice"))
	require.Equal(t, int64(15000), get("getMillisecondsPerBlock"))
	require.Equal(t, int64(5760), get("getMaxValidUntilBlockIncrement"))
	require.Equal(t, int64(2102400), get("getMaxTraceableBlocks"))
	require.Equal(t, int64(DefaultNotaryAssistedFee), itemInt(t, e.mustCall(h, "getAttributeFee", 0x22)))
	require.Equal(t, int64(0), itemInt(t, e.mustCall(h, "getAttributeFee", 0x01)))

	for _, c := range []struct {
		set, get string
		ok       []int64
		bad      []int64
	}{
		{"setFeePerByte", "getFeePerByte", []int64{0, MaxFeePerByte}, []int64{-1, MaxFeePerByte + 1}},
		{"setExecFeeFactor", "getExecFeeFactor", []int64{1, MaxExecFeeFactor}, []int64{0, MaxExecFeeFactor + 1}},
		{"setStoragePrice", "getStoragePrice", []int64{1, MaxStoragePrice}, []int64{0, MaxStoragePrice + 1}},
		{"setMillisecondsPerBlock", "getMillisecondsPerBlock", []int64{1, MaxMillisecondsPerBlock}, []int64{0, MaxMillisecondsPerBlock + 1}},
		{"setMaxValidUntilBlockIncrement", "getMaxValidUntilBlockIncrement", []int64{1, MaxMaxValidUntilBlockIncr}, []int64{0, MaxMaxValidUntilBlockIncr + 1}},
	} {
		for _, v := range c.ok {
			require.Equal(t, stackitem.Null{}, e.mustCall(h, c.set, v), c.set)
			require.Equal(t, v, get(c.get), c.set)
		}
		for _, v := range c.bad {
			_, err := e.call(h, c.set, v)
			require.Error(t, err, "%s(%d)", c.set, v)
		}
	}
	// MaxTraceableBlocks may only decrease and must stay above the VUB increment.
	_, err := e.call(h, "setMaxTraceableBlocks", 2102401)
	require.Error(t, err)
	_, err = e.call(h, "setMaxTraceableBlocks", MaxMaxValidUntilBlockIncr)
	require.Error(t, err)
	e.mustCall(h, "setMaxTraceableBlocks", MaxMaxValidUntilBlockIncr+1)
	require.Equal(t, int64(MaxMaxValidUntilBlockIncr+1), get("getMaxTraceableBlocks"))

	e.mustCall(h, "setAttributeFee", 0x20, MaxAttributeFee)
	require.Equal(t, int64(MaxAttributeFee), itemInt(t, e.mustCall(h, "getAttributeFee", 0x20)))
	for _, bad := range [][]any{{0x20, MaxAttributeFee + 1}, {0x02, 1}, {0xe0, 1}, {256, 1}} {
		_, err := e.call(h, "setAttributeFee", bad...)
		require.Error(t, err, bad)
	}
}

func TestPolicyCommitteeAndBlocking(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	h := e.core.Policy.Metadata().Hash
	acc := util.Uint160{1, 2, 3}
	require.Equal(t, stackitem.Bool(false), e.mustCall(h, "isBlocked", acc))
	require.Equal(t, stackitem.Bool(true), e.mustCall(h, "blockAccount", acc))
	require.Equal(t, stackitem.Bool(false), e.mustCall(h, "blockAccount", acc))
	require.Equal(t, stackitem.Bool(true), e.mustCall(h, "isBlocked", acc))
	blocked, err := e.core.Policy.IsBlocked(e.d, acc)
	require.NoError(t, err)
	require.True(t, blocked)
	require.Equal(t, stackitem.Bool(true), e.mustCall(h, "unblockAccount", acc))
	require.Equal(t, stackitem.Bool(false), e.mustCall(h, "unblockAccount", acc))
	_, err = e.call(h, "blockAccount", e.core.Std.Metadata().Hash)
	require.Error(t, err, "natives cannot be blocked")
	_, err = e.call(h, "isBlocked", []byte{1, 2})
	require.Error(t, err, "a hash must be 20 bytes")

	e.core.Policy.NEO = fakeCommittee(false)
	for _, c := range [][]any{{"setFeePerByte", 1}, {"blockAccount", acc}, {"unblockAccount", acc}, {"setAttributeFee", 1, 1}} {
		_, err := e.call(h, c[0].(string), c[1:]...)
		require.ErrorIs(t, err, ErrNoCommittee, c[0])
	}
}

func TestPolicyBeforeEchidna(t *testing.T) {
	e := newEnv(t, protocol.HFDomovoi)
	h := e.core.Policy.Metadata().Hash
	_, err := e.call(h, "getMillisecondsPerBlock")
	require.Error(t, err, "exists from Echidna")
	_, err = e.call(h, "getAttributeFee", 0x22)
	require.Error(t, err, "NotaryAssisted is valid from Echidna")
	require.Equal(t, int64(0), itemInt(t, e.mustCall(h, "getAttributeFee", 0x20)))
}
