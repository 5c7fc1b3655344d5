package protocol

import "strconv"

// Magic identifies a network; it is part of every signed payload.
type Magic uint32

// Magics of the well-known networks.
const (
	MainNet     Magic = 0x334f454e // "NEO3"
	TestNet     Magic = 0x3554334e // "N3T5"
	PrivNet     Magic = 56753
	UnitTestNet Magic = 42
)

// String names the well-known networks and prints others as a number.
func (m Magic) String() string {
	switch m {
	case MainNet:
		return "mainnet"
	case TestNet:
		return "testnet"
	case PrivNet:
		return "privnet"
	case UnitTestNet:
		return "unit_testnet"
	}
	return "net" + strconv.FormatUint(uint64(m), 10)
}
