package native

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/stretchr/testify/require"
)

// genesisWith runs the genesis OnPersist of the core natives with the
// hardforks up to upTo enabled at 0.
func genesisWith(t *testing.T, upTo protocol.Hardfork) (*Core, *dao.DAO) {
	t.Helper()
	cfg := config.ProtocolConfiguration{Hardforks: map[string]uint32{protocol.HFAspidochelone.String(): 1_000_000}}
	for _, hf := range protocol.Hardforks() {
		if hf <= upTo {
			cfg.Hardforks[hf.String()] = 0
		}
	}
	core := NewCore(&cfg)
	reg := NewRegistry(&cfg, core.Contracts()...)
	d := dao.New(storage.NewMemoryStore())
	script, err := emit.NewBuilder().Syscall("System.Contract.NativeOnPersist").Script()
	require.NoError(t, err)
	ic := interop.NewContext(interop.Config{Trigger: trigger.OnPersist, Block: &block.Block{},
		HardforkEnabled: cfg.Enabled, Natives: reg, GasLimit: -1}, d)
	_, err = ic.LoadScript(script, callflag.All, -1, 0)
	require.NoError(t, err)
	require.NoError(t, ic.Run())
	return core, d
}

// TestNativeStatesPerHardforkNeoGo compares the NEF, manifest, id, hash
// and update counter of the core natives deployed at genesis with every
// hardfork up to each one enabled against neo-go's expectations (the
// reference chains only reach Echidna; this covers Faun and Gorgon).
func TestNativeStatesPerHardforkNeoGo(t *testing.T) {
	want := neoGoStates(t)
	for _, c := range []struct {
		upTo protocol.Hardfork
		css  string
	}{
		{protocol.HFDefault, "default"}, {protocol.HFAspidochelone, "default"}, {protocol.HFBasilisk, "default"},
		{protocol.HFCockatrice, "cockatrice"}, {protocol.HFDomovoi, "cockatrice"}, {protocol.HFEchidna, "echidna"},
		{protocol.HFFaun, "faun"}, {protocol.HFGorgon, "gorgon"}, {protocol.HFHuyao, "gorgon"},
	} {
		t.Run(c.upTo.String(), func(t *testing.T) {
			core, d := genesisWith(t, c.upTo)
			for _, n := range core.Contracts() {
				md := n.Metadata()
				got, err := d.GetContract(md.Hash)
				require.NoError(t, err, md.Name)
				b, err := got.MarshalJSON()
				require.NoError(t, err)
				exp, ok := want[c.css][md.Name]
				require.True(t, ok, md.Name)
				jsonEqual(t, []byte(exp), b, md.Name)
			}
		})
	}
}

// TestNativeUpdatesAtFaunAndGorgon activates Faun at 2 and Gorgon at 3:
// each native whose methods or events change there is updated in that
// block's OnPersist (update counter + 1, Update notification) and ends
// with neo-go's Gorgon state.
func TestNativeUpdatesAtFaunAndGorgon(t *testing.T) {
	want := neoGoStates(t)
	heights := map[protocol.Hardfork]uint32{protocol.HFFaun: 2, protocol.HFGorgon: 3}
	for _, hf := range protocol.Hardforks() {
		if hf < protocol.HFFaun {
			heights[hf] = 0
		}
	}
	e := newEnvAt(t, heights)
	updated := map[uint32][]string{}
	for i := uint32(1); i <= 3; i++ {
		ic := e.run(trigger.OnPersist, &block.Block{Header: block.Header{Index: i}},
			mustScript(t, emit.NewBuilder().Syscall("System.Contract.NativeOnPersist")))
		require.NoError(t, ic.VM().FaultException())
		for _, n := range ic.Notifications() {
			require.Equal(t, EventUpdate, n.Name)
			b, err := n.Item.At(0).Bytes()
			require.NoError(t, err)
			for _, c := range e.core.Contracts() {
				if md := c.Metadata(); string(md.Hash[:]) == string(b) {
					updated[i] = append(updated[i], md.Name)
				}
			}
		}
	}
	require.Equal(t, map[uint32][]string{2: {StdLibName, PolicyName}, 3: {ManagementName, CryptoLibName}}, updated)
	counters := map[string]int{ManagementName: 1, StdLibName: 1, CryptoLibName: 1, LedgerName: 0, PolicyName: 1}
	for _, c := range e.core.Contracts() {
		md := c.Metadata()
		got, err := e.d.GetContract(md.Hash)
		require.NoError(t, err)
		require.Equal(t, counters[md.Name], int(got.UpdateCounter), md.Name)
		cs := *got
		cs.UpdateCounter = 0
		b, err := cs.MarshalJSON()
		require.NoError(t, err)
		jsonEqual(t, []byte(want["gorgon"][md.Name]), b, md.Name)
	}
}
