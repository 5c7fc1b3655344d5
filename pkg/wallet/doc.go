// Package wallet reads and writes NEP-6 wallets: a JSON file holding
// accounts whose private keys are NEP-2 encrypted.
//
//	file ──Open/FromBytes──▶ *Wallet{Name, Version, Accounts, Scrypt, Extra}
//	     ◀──Save/JSON──────  (field order of neo-go's files, "name" first
//	                          when set, unknown "extra" kept verbatim)
//	*Account ──Decrypt(passphrase, w.Scrypt)──▶ *keys.PrivateKey
//	NewAccount / CreateAccount ──▶ fresh secp256r1 key, single-sig contract
//	Account.MultisigAccount(m, keys) ──▶ m-of-n contract signed by the
//	                                      same key (a consensus node's
//	                                      wallet holds both)
//
// A wallet is not safe for concurrent modification; callers that share one
// (consensus, RPC) serialise access themselves. Decrypted keys live only in
// memory and are wiped by Close.
package wallet
