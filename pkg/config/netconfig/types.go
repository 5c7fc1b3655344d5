package netconfig

import (
	"encoding/base64"
	"fmt"
	"strconv"

	"github.com/n3d-io/n3d/pkg/util"
	"gopkg.in/yaml.v3"
)

// GAS is an amount of GAS written in a config as a decimal number of whole
// GAS ("15", "0.5"). It holds the amount in Fixed8 units (10^-8 GAS).
type GAS util.Fixed8

// Fixed8 returns the amount in 10^-8 GAS units.
func (g GAS) Fixed8() util.Fixed8 { return util.Fixed8(g) }

// String formats the amount in whole GAS, as it is written in a config.
func (g GAS) String() string { return util.Fixed8(g).String() }

// UnmarshalYAML parses a decimal GAS amount.
func (g *GAS) UnmarshalYAML(node *yaml.Node) error {
	var s string
	if err := node.Decode(&s); err != nil {
		return err
	}
	v, err := util.Fixed8FromString(s)
	if err != nil {
		return fmt.Errorf("line %d: %w", node.Line, err)
	}
	*g = GAS(v)
	return nil
}

// MarshalYAML writes the amount as a decimal number of whole GAS.
func (g GAS) MarshalYAML() (any, error) {
	return g.String(), nil
}

// Base64Bytes is a byte string written in a config in standard base64.
type Base64Bytes []byte

// UnmarshalYAML decodes standard base64.
func (b *Base64Bytes) UnmarshalYAML(node *yaml.Node) error {
	var s string
	if err := node.Decode(&s); err != nil {
		return err
	}
	v, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return fmt.Errorf("line %d: bad base64: %w", node.Line, err)
	}
	*b = v
	return nil
}

// MarshalYAML encodes the bytes in standard base64.
func (b Base64Bytes) MarshalYAML() (any, error) {
	return base64.StdEncoding.EncodeToString(b), nil
}

// HashIndex is a block index with its hash. In a config it is written as a
// one-entry map "index: hash", the hash in little-endian hex (the form
// neo-go prints), with an optional 0x prefix; an empty map is the zero value.
type HashIndex struct {
	Hash  util.Uint256
	Index uint32
}

// UnmarshalYAML reads the "index: hash" map.
func (h *HashIndex) UnmarshalYAML(node *yaml.Node) error {
	var m map[uint32]string
	if err := node.Decode(&m); err != nil {
		return err
	}
	if len(m) > 1 {
		return fmt.Errorf("line %d: only one trusted header is supported, got %d", node.Line, len(m))
	}
	*h = HashIndex{}
	for idx, s := range m {
		if len(s) > 2 && s[:2] == "0x" {
			s = s[2:]
		}
		u, err := util.Uint256DecodeStringLE(s)
		if err != nil {
			return fmt.Errorf("line %d: bad hash for index %d: %w", node.Line, idx, err)
		}
		*h = HashIndex{Hash: u, Index: idx}
	}
	return nil
}

// MarshalYAML writes the "index: hash" map (empty for the zero index).
func (h HashIndex) MarshalYAML() (any, error) {
	m := map[string]string{}
	if h.Index != 0 {
		m[strconv.FormatUint(uint64(h.Index), 10)] = h.Hash.StringLE()
	}
	return m, nil
}
