package chain

import "github.com/n3d-io/n3d/pkg/config"

func init() {
	referenceNatives = func(p *config.ProtocolConfiguration) (*NativeSet, error) { return NewNativeSet(p) }
}
