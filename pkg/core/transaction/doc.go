// Package transaction holds the Neo N3 transaction wire types: Transaction,
// Signer (with its WitnessScope, WitnessRule and WitnessCondition tree),
// the transaction attributes and Witness.
//
// Data flow: bytes from the network, the RPC server or a chain dump are
// decoded with DecodeBinary (or NewTransactionFromBytes, which also rejects
// trailing bytes); decoding enforces every structural limit and canonical
// rule the C# reference enforces in its deserializer (version 0, fee
// ranges, 1..16 signers without duplicates, attributes within the remaining
// budget of 16 with no duplicate single-use types, a non-empty script of at
// most 65535 bytes, exactly one witness per signer, witness scripts of at
// most 1024 bytes, witness condition nesting of at most 3 levels and 16
// sub-items). The hash (single SHA-256 of the unsigned part) and the
// serialized size are computed once at decode time and cached; both feed
// fee computation and indexing later.
//
// State-dependent checks (MaxTransactionSize, fees, witness verification,
// attribute validity against the chain) belong to the chain package; the
// helpers here only expose the figures those checks need.
//
// JSON forms follow the reference RPC (getrawtransaction verbose): field
// names and order, fees as decimal strings, hashes as 0x-prefixed
// big-endian hex, scripts as base64, scopes as "CalledByEntry, CustomContracts".
package transaction
