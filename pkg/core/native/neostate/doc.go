// Package neostate holds the storage records and the pure economics of the
// governance natives (NeoToken, GasToken, RoleManagement, OracleContract,
// Notary): the values they keep in contract storage, encoded exactly as the
// reference's binary-serialized stack items, and the arithmetic of GAS
// distribution and committee election, free of any VM or storage access.
//
// # Records (value = BinarySerializer form of the stack item)
//
//	NEP17Balance  Struct[balance]                       GAS  20 ‖ account
//	NEOBalance    Struct[balance, height, voteTo|Null,   NEO  20 ‖ account
//	                     lastGasPerVote]
//	Candidate     Struct[registered, votes]             NEO  33 ‖ pubkey
//	Committee     Array[Struct[pubkey, votes]…]         NEO  14
//	GAS per block Integer                               NEO  29 ‖ u32 BE height
//	NodeList      Array[pubkey…] (sorted)               Role role ‖ u32 BE height
//	OracleRequest Array[txid, gas, url, filter|Null,     Oracle 7 ‖ u64 BE id
//	                    callback contract, method, userdata]
//	IDList        Array[Integer…]                       Oracle 6 ‖ hash160(url)
//	Deposit       Struct[amount, till]                  Notary 1 ‖ account
//
// Integers (total supply, voters count, prices, GAS per vote) are stored as
// bare little-endian two's complement (pkg/encoding/bigint).
//
// # Data flow
//
// The natives in pkg/core/native read a value through pkg/core/dao, decode
// it with the matching ...FromBytes function, change it and store Bytes().
// Decoders are bounded by the stack-item deserializer's limits and reject
// anything the reference's FromStackItem would reject. The reward functions
// (reward.go) and the election (election.go) take plain values so that they
// can be tested against the reference's rules directly.
package neostate
