package netconfig

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/protocol"
)

// Hardfork semantics (the reference's, C# and neo-go alike):
//
//   - An absent or empty Hardforks map enables every stable hardfork
//     (protocol.StableHardforks) at height 0; unstable ones stay off.
//   - A listed map enables each listed hardfork at its height, enables the
//     hardforks before the first listed one at 0, and disables every
//     hardfork after the last listed one.
//   - The listed hardforks must be contiguous (no gap) and their heights
//     must not decrease.

// validateHardforks checks names, contiguity and height order.
func (p *ProtocolConfiguration) validateHardforks() error {
	for name := range p.Hardforks {
		hf, err := protocol.HardforkFromString(name)
		if err != nil || hf.String() != name {
			return fmt.Errorf("%w: unknown hardfork %q in Hardforks (known: %v)", ErrHardfork, name, protocol.Hardforks())
		}
	}
	var (
		prev      protocol.Hardfork
		prevH     uint32
		listed    bool
		gapBefore protocol.Hardfork
	)
	for _, hf := range protocol.Hardforks() {
		h, ok := p.Hardforks[hf.String()]
		if !ok {
			if listed && gapBefore == 0 {
				gapBefore = hf
			}
			continue
		}
		if gapBefore != 0 {
			return fmt.Errorf("%w: %s is listed but %s before it is not (list hardforks without gaps)",
				ErrHardfork, hf, gapBefore)
		}
		if listed && h < prevH {
			return fmt.Errorf("%w: %s activates at %d, before %s at %d (heights must not decrease)",
				ErrHardfork, hf, h, prev, prevH)
		}
		prev, prevH, listed = hf, h, true
	}
	return nil
}

// HardforkHeight returns the height a hardfork activates at and whether it
// is enabled at all. protocol.HFDefault is always enabled at 0. It reads the
// Hardforks map as written or as resolved by ApplyDefaults alike.
func (p *ProtocolConfiguration) HardforkHeight(hf protocol.Hardfork) (uint32, bool) {
	if hf == protocol.HFDefault {
		return 0, true
	}
	if len(p.Hardforks) == 0 {
		return 0, hf <= protocol.HFLatestStable
	}
	if h, ok := p.Hardforks[hf.String()]; ok {
		return h, true
	}
	for _, earlier := range protocol.Hardforks() {
		if earlier >= hf {
			break
		}
		if _, ok := p.Hardforks[earlier.String()]; ok {
			return 0, false // a listed one precedes hf: hf comes after the list
		}
	}
	return 0, true // hf precedes the first listed hardfork
}

// Enabled reports whether the hardfork is active in the block at height.
func (p *ProtocolConfiguration) Enabled(hf protocol.Hardfork, height uint32) bool {
	h, ok := p.HardforkHeight(hf)
	return ok && height >= h
}

// ActiveHardforks returns the hardforks active in the block at height, in
// activation order.
func (p *ProtocolConfiguration) ActiveHardforks(height uint32) []protocol.Hardfork {
	var out []protocol.Hardfork
	for _, hf := range protocol.Hardforks() {
		if p.Enabled(hf, height) {
			out = append(out, hf)
		}
	}
	return out
}

// HardforksActivatingAt returns the hardforks whose activation height is
// exactly height (natives are updated in that block's OnPersist), in
// activation order.
func (p *ProtocolConfiguration) HardforksActivatingAt(height uint32) []protocol.Hardfork {
	var out []protocol.Hardfork
	for _, hf := range protocol.Hardforks() {
		if h, ok := p.HardforkHeight(hf); ok && h == height {
			out = append(out, hf)
		}
	}
	return out
}

// HardforkHeights returns every enabled hardfork with its height, a snapshot
// for hot paths that should not look names up.
func (p *ProtocolConfiguration) HardforkHeights() map[protocol.Hardfork]uint32 {
	out := make(map[protocol.Hardfork]uint32)
	for _, hf := range protocol.Hardforks() {
		if h, ok := p.HardforkHeight(hf); ok {
			out[hf] = h
		}
	}
	return out
}

// resolvedHardforks returns the Hardforks map with every enabled hardfork
// written out, the form ApplyDefaults stores (unknown names are kept for
// Validate to report).
func (p *ProtocolConfiguration) resolvedHardforks() map[string]uint32 {
	out := make(map[string]uint32, len(protocol.Hardforks()))
	for name, h := range p.Hardforks {
		out[name] = h
	}
	for hf, h := range p.HardforkHeights() {
		out[hf.String()] = h
	}
	return out
}
