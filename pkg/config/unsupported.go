package config

// Unsupported is a setting the configuration accepts (so that neo-go's
// files load unchanged) but that n3d does not implement, with what the
// node does instead.
type Unsupported struct {
	// Setting is the YAML path of the setting, e.g.
	// "ApplicationConfiguration.NeoFSBlockFetcher.Enabled".
	Setting string
	// Effect says what the node does instead.
	Effect string
}

// String is the warning as one line.
func (u Unsupported) String() string {
	return u.Setting + " is not supported: " + u.Effect
}

// Unsupported lists the settings of c that are on but not implemented, in
// a fixed order. The node logs each one as a warning when it starts; an
// empty list means everything configured is honoured.
func (c *Config) Unsupported() []Unsupported {
	a := &c.ApplicationConfiguration
	var out []Unsupported
	add := func(on bool, setting, effect string) {
		if on {
			out = append(out, Unsupported{Setting: "ApplicationConfiguration." + setting, Effect: effect})
		}
	}
	add(a.NeoFSBlockFetcher.Enabled, "NeoFSBlockFetcher.Enabled",
		"blocks are not fetched from NeoFS, initial sync uses P2P")
	add(a.NeoFSStateFetcher.Enabled, "NeoFSStateFetcher.Enabled",
		"state is not fetched from NeoFS, it is built by executing every block")
	add(a.ArchivalNodesSync, "ArchivalNodesSync",
		"blocks are requested from any peer")
	return out
}
