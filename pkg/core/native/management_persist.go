package native

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/protocol"
)

// methodDeploy is the method a contract runs when deployed or updated.
const methodDeploy = "_deploy"

// OnPersist implements Contract: it deploys the natives whose activation
// block is being persisted and updates those that change at a hardfork
// activating in it (new NEF and manifest, update counter + 1), runs their
// Initialize and sends Deploy/Update, in registry order (reference
// ContractManagement.OnPersist).
func (m *Management) OnPersist(ic *interop.Context) error {
	b := ic.Block()
	if b == nil || m.reg == nil {
		return fmt.Errorf("%w: ContractManagement.OnPersist needs a block and a registry", ErrInvalidState)
	}
	activating := m.reg.hfs.HardforksActivatingAt(b.Index)
	latest := m.reg.LatestHardfork(b.Index)
	for _, e := range m.reg.entries {
		if err := m.persistNative(ic, e, b.Index, activating, latest); err != nil {
			return fmt.Errorf("native %s: %w", e.md.Name, err)
		}
	}
	return nil
}

// initHardforks returns the hardforks among activating (in order) at which
// md must be initialised: its activation hardfork and its update ones.
func initHardforks(md *ContractMD, activating []protocol.Hardfork) []protocol.Hardfork {
	var out []protocol.Hardfork
	for _, hf := range activating {
		if (hf == md.ActiveIn && hf != protocol.HFDefault) || md.IsUpdateHardfork(hf) {
			out = append(out, hf)
		}
	}
	return out
}

func (m *Management) persistNative(ic *interop.Context, e *entry, index uint32, activating []protocol.Hardfork, latest protocol.Hardfork) error {
	md := e.md
	hfs := initHardforks(md, activating)
	genesisDeploy := index == 0 && md.ActiveIn == protocol.HFDefault
	if !genesisDeploy && len(hfs) == 0 {
		return nil
	}
	snap := md.Snapshot(latest)
	if snap == nil {
		return fmt.Errorf("%w: no snapshot at %s", ErrInvalidState, latest)
	}
	old, err := getContractOrNil(ic.DAO(), md.Hash)
	if err != nil {
		return err
	}
	event := EventUpdate
	if old == nil {
		event = EventDeploy
		if err := ic.DAO().PutContract(snap.ContractState(md, 0)); err != nil {
			return err
		}
		if md.ActiveIn == protocol.HFDefault {
			if err := e.c.Initialize(ic, protocol.HFDefault); err != nil {
				return err
			}
		}
	} else {
		cs := *old
		cs.NEF, cs.Manifest = snap.NEF, snap.Manifest
		cs.UpdateCounter++
		if err := ic.DAO().UpdateContract(&cs); err != nil {
			return err
		}
	}
	for _, hf := range hfs {
		if err := e.c.Initialize(ic, hf); err != nil {
			return fmt.Errorf("initialize at %s: %w", hf, err)
		}
	}
	return m.notifyHash(ic, event, md.Hash)
}
