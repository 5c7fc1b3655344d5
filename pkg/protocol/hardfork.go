package protocol

import "fmt"

// Hardfork identifies a protocol upgrade. Values are ordered by activation:
// a later hardfork always has a larger value.
type Hardfork byte

// HFDefault is not a hardfork: it stands for behaviour enabled from genesis.
const HFDefault Hardfork = 0

// The hardforks of Neo N3, in order.
const (
	HFAspidochelone Hardfork = iota + 1
	HFBasilisk
	HFCockatrice
	HFDomovoi
	HFEchidna
	HFFaun
	HFGorgon
	// HFHuyao is known to the reference Go node but not stable: it is only
	// enabled when a config lists it.
	HFHuyao
	hfEnd
)

// HFLatestStable is the last hardfork an absent or empty Hardforks config
// map enables.
const HFLatestStable = HFGorgon

var hardforkNames = [...]string{
	HFDefault:       "Default",
	HFAspidochelone: "Aspidochelone",
	HFBasilisk:      "Basilisk",
	HFCockatrice:    "Cockatrice",
	HFDomovoi:       "Domovoi",
	HFEchidna:       "Echidna",
	HFFaun:          "Faun",
	HFGorgon:        "Gorgon",
	HFHuyao:         "Huyao",
}

// String returns the name used in configs ("Aspidochelone", ...).
func (hf Hardfork) String() string {
	if int(hf) < len(hardforkNames) {
		return hardforkNames[hf]
	}
	return fmt.Sprintf("Hardfork(%d)", byte(hf))
}

// Hardforks returns every known hardfork in activation order.
func Hardforks() []Hardfork {
	out := make([]Hardfork, 0, hfEnd-1)
	for hf := HFAspidochelone; hf < hfEnd; hf++ {
		out = append(out, hf)
	}
	return out
}

// StableHardforks returns the hardforks up to HFLatestStable in order.
func StableHardforks() []Hardfork {
	return Hardforks()[:HFLatestStable]
}

// HardforkFromString parses a config name; the C# "HF_" prefix is accepted.
func HardforkFromString(s string) (Hardfork, error) {
	if len(s) > 3 && s[:3] == "HF_" {
		s = s[3:]
	}
	for hf := HFAspidochelone; hf < hfEnd; hf++ {
		if hardforkNames[hf] == s {
			return hf, nil
		}
	}
	return 0, fmt.Errorf("protocol: unknown hardfork %q", s)
}
