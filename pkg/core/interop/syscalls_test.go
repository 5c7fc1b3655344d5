package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/stretchr/testify/require"
)

// referenceTable transcribes the Register(...) calls of the C# reference
// (src/Neo/SmartContract/ApplicationEngine.*.cs): name, fixed price,
// required call flags, activating hardfork.
var referenceTable = []struct {
	name  string
	price int64
	flags callflag.CallFlag
	hf    protocol.Hardfork
}{
	{"System.Contract.Call", 1 << 15, callflag.ReadStates | callflag.AllowCall, 0},
	{"System.Contract.CallNative", 0, callflag.None, 0},
	{"System.Contract.GetCallFlags", 1 << 10, callflag.None, 0},
	{"System.Contract.CreateStandardAccount", 0, callflag.None, 0},
	{"System.Contract.CreateMultisigAccount", 0, callflag.None, 0},
	{"System.Contract.NativeOnPersist", 0, callflag.States, 0},
	{"System.Contract.NativePostPersist", 0, callflag.States, 0},
	{"System.Crypto.CheckSig", 1 << 15, callflag.None, 0},
	{"System.Crypto.CheckMultisig", 0, callflag.None, 0},
	{"System.Iterator.Next", 1 << 15, callflag.None, 0},
	{"System.Iterator.Value", 1 << 4, callflag.None, 0},
	{"System.Runtime.Platform", 1 << 3, callflag.None, 0},
	{"System.Runtime.GetNetwork", 1 << 3, callflag.None, 0},
	{"System.Runtime.GetAddressVersion", 1 << 3, callflag.None, 0},
	{"System.Runtime.GetTrigger", 1 << 3, callflag.None, 0},
	{"System.Runtime.GetTime", 1 << 3, callflag.None, 0},
	{"System.Runtime.GetScriptContainer", 1 << 3, callflag.None, 0},
	{"System.Runtime.GetExecutingScriptHash", 1 << 4, callflag.None, 0},
	{"System.Runtime.GetCallingScriptHash", 1 << 4, callflag.None, 0},
	{"System.Runtime.GetEntryScriptHash", 1 << 4, callflag.None, 0},
	{"System.Runtime.LoadScript", 1 << 15, callflag.AllowCall, 0},
	{"System.Runtime.CheckWitness", 1 << 10, callflag.None, 0},
	{"System.Runtime.GetInvocationCounter", 1 << 4, callflag.None, 0},
	{"System.Runtime.GetRandom", 0, callflag.None, 0},
	{"System.Runtime.Log", 1 << 15, callflag.AllowNotify, 0},
	{"System.Runtime.Notify", 1 << 15, callflag.AllowNotify, 0},
	{"System.Runtime.GetNotifications", 1 << 12, callflag.None, 0},
	{"System.Runtime.GasLeft", 1 << 4, callflag.None, 0},
	{"System.Runtime.BurnGas", 1 << 4, callflag.None, 0},
	{"System.Runtime.CurrentSigners", 1 << 4, callflag.None, 0},
	{"System.Storage.GetContext", 1 << 4, callflag.ReadStates, 0},
	{"System.Storage.GetReadOnlyContext", 1 << 4, callflag.ReadStates, 0},
	{"System.Storage.AsReadOnly", 1 << 4, callflag.ReadStates, 0},
	{"System.Storage.Get", 1 << 15, callflag.ReadStates, 0},
	{"System.Storage.Find", 1 << 15, callflag.ReadStates, 0},
	{"System.Storage.Put", 1 << 15, callflag.WriteStates, 0},
	{"System.Storage.Delete", 1 << 15, callflag.WriteStates, 0},
	{"System.Storage.Local.Get", 1 << 15, callflag.ReadStates, protocol.HFFaun},
	{"System.Storage.Local.Find", 1 << 15, callflag.ReadStates, protocol.HFFaun},
	{"System.Storage.Local.Put", 1 << 15, callflag.WriteStates, protocol.HFFaun},
	{"System.Storage.Local.Delete", 1 << 15, callflag.WriteStates, protocol.HFFaun},
}

func TestSyscallTable(t *testing.T) {
	fs := interop.Functions()
	require.Len(t, fs, len(referenceTable))
	byName := map[string]interop.Function{}
	for i, f := range fs {
		if i > 0 {
			require.Less(t, fs[i-1].ID, f.ID, "sorted by id")
		}
		byName[f.Name] = f
	}
	for _, r := range referenceTable {
		f, ok := byName[r.name]
		require.True(t, ok, r.name)
		// Independent implementations of the id derivation agree.
		require.Equal(t, emit.InteropID(r.name), f.ID, r.name)
		require.Equal(t, keys.InteropID(r.name), f.ID, r.name)
		require.Equal(t, r.price, f.Price, r.name)
		require.Equal(t, r.flags, f.RequiredFlags, r.name)
		require.Equal(t, r.hf, f.ActiveFrom, r.name)
	}
	require.Equal(t, keys.CheckSigID, interop.ID(interop.CryptoCheckSig))
}
