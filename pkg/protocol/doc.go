// Package protocol holds the protocol-wide enumerations every layer shares:
// the hardfork list in activation order and the magics of the known
// networks. It has no behaviour; configuration decides at which height each
// hardfork activates and the VM, natives and chain ask through injected
// predicates.
package protocol
