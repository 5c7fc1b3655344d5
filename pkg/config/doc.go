/*
Package config is the node's YAML configuration: the schema, its defaults and
its validation.

The schema is neo-go's, field for field, so an operator's existing neo-go
files load unchanged. A file has two sections:

  - ProtocolConfiguration: the network's rules (magic, committee, hardfork
    heights, block limits, genesis values). It must be identical on every
    node of a network; most of it changes state roots.
  - ApplicationConfiguration: this node's local settings (database, P2P
    listeners, RPC, services, logging).

Data flow:

	bytes ──Decode (strict: unknown field = error naming it)──▶ Config as written
	      ──relative paths (optional --relative-path prefix)
	      ──ApplyDefaults (the reference's values for unset fields)
	      ──Validate (clear errors, wrapping the sentinels below)──▶ Config

Load and LoadFile run the whole chain; the result can be trusted by every
other package. Load resolves a network name to protocol.<name>.yml in a
config directory and falls back to the copies embedded in the binary (package
github.com/n3d-io/n3d/config) for the default directory.

ProtocolConfiguration (with its defaults, validation and sentinel errors)
lives in pkg/config/netconfig, the layer-L0 package the chain and the
services import; the names here are aliases of it. It answers the questions
the chain asks of it:
Enabled(hf, height) and ActiveHardforks(height) for hardforks (an absent or
empty Hardforks map enables every stable hardfork at 0; a listed map enables
the leading unlisted ones at 0 and disables every hardfork after the last one
listed), CommitteeSize, ValidatorsCountAt and ShouldUpdateCommitteeAt for
the committee.

Every field is documented in docs/configuration.md.
*/
package config
