// Package refdata loads the contract states the reference node reported
// for the conformance chains (contracts.json), for the tests of the
// smartcontract packages.
package refdata
