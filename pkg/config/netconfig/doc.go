/*
Package netconfig is the protocol part of the configuration: the rules of a
network that every node of it must share (magic, hardfork heights, standby
committee and validators counts, block and transaction limits, genesis
values), with their defaults, validation and the derived queries (Enabled,
ValidatorsCountAt, ShouldUpdateCommitteeAt...).

It is layer L0 (docs/architecture.md): the chain, the native contracts and
the services that need protocol facts import it, not the application YAML
of pkg/config, which embeds ProtocolConfiguration and re-exports its names
(config.ProtocolConfiguration is an alias of
netconfig.ProtocolConfiguration).
*/
package netconfig
