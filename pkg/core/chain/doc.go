// Package chain is n3d's blockchain: it builds the genesis block from the
// protocol configuration, verifies headers and blocks, executes them and
// keeps the ledger.
//
// Files by concern:
//
//	genesis.go        genesis block, standby validators, BFT/committee addresses
//	verify_header.go  header checks against the previous header, witness
//	witness.go        witness verification: standard-script fast path, VM fallback
//	errors.go         sentinel errors
//
// Data flow of a block: header checks (index, previous hash, strictly
// increasing timestamp, primary index, size and transaction limits, Merkle
// root) ─▶ header witness against the previous block's NextConsensus ─▶
// execution and persistence.
package chain
