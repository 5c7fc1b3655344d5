// Package probe is a contract that exercises storage, iterators,
// notifications, runtime syscalls and the StdLib/CryptoLib natives so that
// their results end up in application logs and storage, where a
// differential test can compare two nodes.
package probe

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/contract"
	"github.com/nspcc-dev/neo-go/pkg/interop/iterator"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/crypto"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/management"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/std"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
	"github.com/nspcc-dev/neo-go/pkg/interop/util"
)

func _deploy(data any, isUpdate bool) {
	ctx := storage.GetContext()
	if isUpdate {
		storage.Put(ctx, "updated", 1)
		return
	}
	storage.Put(ctx, "deployed", data)
	for i := 0; i < 5; i++ {
		storage.Put(ctx, "item"+std.Itoa10(i), std.Serialize([]any{i, "v" + std.Itoa10(i)}))
	}
}

// Put stores v under k and notifies it.
func Put(k, v []byte) {
	storage.Put(storage.GetContext(), k, v)
	runtime.Notify("Put", k, v)
}

// Get returns the value under k.
func Get(k []byte) any {
	return storage.Get(storage.GetReadOnlyContext(), k)
}

// Delete removes k.
func Delete(k []byte) {
	storage.Delete(storage.GetContext(), k)
}

// Find collects what an iterator over prefix with the given FindOptions yields.
func Find(prefix []byte, opts int) []any {
	it := storage.Find(storage.GetReadOnlyContext(), prefix, storage.FindFlags(opts))
	var out []any
	for iterator.Next(it) {
		out = append(out, iterator.Value(it))
	}
	return out
}

// FindIter returns the iterator itself (an InteropInterface on the stack).
func FindIter(prefix []byte) iterator.Iterator {
	return storage.Find(storage.GetReadOnlyContext(), prefix, storage.ValuesOnly)
}

// Runtime notifies and returns what the runtime syscalls report.
func Runtime() []any {
	res := []any{runtime.GetTime(), runtime.GetNetwork(), runtime.GetAddressVersion(),
		runtime.GetRandom(), runtime.GetRandom(), contract.GetCallFlags(), runtime.GetTrigger(),
		runtime.GetInvocationCounter(), runtime.Platform(), runtime.GasLeft()}
	runtime.Notify("Runtime", res)
	return res
}

// Witness checks a witness of a hash or a key.
func Witness(h []byte) bool {
	return runtime.CheckWitness(h)
}

// Signers returns the transaction's signers.
func Signers() any {
	return runtime.CurrentSigners()
}

// Burn burns n datoshi of GAS.
func Burn(n int) {
	runtime.BurnGas(n)
}

// Load runs script in a new context with ReadOnly flags.
func Load(script []byte) any {
	return runtime.LoadScript(script, contract.ReadOnly, 7, "x")
}

// Notifications emits two events and returns all notifications so far.
func Notifications() [][]any {
	runtime.Notify("First", 1, []byte{1, 2}, true)
	runtime.Notify("Second", map[string]int{"a": 1}, nil)
	return runtime.GetNotifications(nil)
}

// Std calls StdLib methods known since genesis.
func Std(n int, s string) []any {
	ser := std.Serialize([]any{n, s, true, []byte{0xff}})
	js := std.JSONSerialize(map[string]any{"n": n, "s": s, "l": []any{1, "x"}})
	return []any{ser, std.Deserialize(ser), js, std.JSONDeserialize(js),
		std.Base58Encode([]byte(s)), std.Base58Decode([]byte(std.Base58Encode([]byte(s)))),
		std.Base58CheckEncode([]byte(s)), std.Base64Encode([]byte(s)), std.Base64Decode([]byte(std.Base64Encode([]byte(s)))),
		std.Itoa(n, 16), std.Itoa10(-n), std.Atoi("ff", 16), std.Atoi10("12345"),
		std.MemoryCompare([]byte(s), []byte("abc")), std.MemorySearch([]byte(s), []byte("b")),
		std.MemorySearchIndex([]byte(s), []byte("b"), 1), std.MemorySearchLastIndex([]byte(s), []byte("b"), len(s)),
		std.StringSplit(s, "b"), std.StringSplitNonEmpty(s, "b"), std.StrLen(s)}
}

// Hex calls StdLib hex methods (added by a later hardfork).
func Hex(b []byte) []any {
	h := std.HexEncode(b)
	return []any{h, std.HexDecode(h)}
}

// Crypto calls CryptoLib hash and signature methods.
func Crypto(msg []byte, pub interop.PublicKey, sig interop.Signature) []any {
	return []any{crypto.Sha256(msg), crypto.Ripemd160(msg), crypto.Murmur32(msg, 42),
		crypto.VerifyWithECDsa(msg, pub, sig, crypto.Secp256r1Sha256)}
}

// Keccak calls CryptoLib.keccak256.
func Keccak(msg []byte) interop.Hash256 {
	return crypto.Keccak256(msg)
}

// Bls adds, multiplies and pairs BLS12-381 points given serialized.
func Bls(g1, g2 []byte, mul []byte) []any {
	p1 := crypto.Bls12381Deserialize(g1)
	p2 := crypto.Bls12381Deserialize(g2)
	sum := crypto.Bls12381Add(p1, p1)
	m := crypto.Bls12381Mul(p1, mul, false)
	neg := crypto.Bls12381Mul(p1, mul, true)
	pair := crypto.Bls12381Pairing(p1, p2)
	return []any{crypto.Bls12381Serialize(sum), crypto.Bls12381Serialize(m), crypto.Bls12381Serialize(neg),
		crypto.Bls12381Equal(sum, m), crypto.Bls12381Serialize(pair)}
}

// CallOther calls method of contract h with one argument and notifies the result.
func CallOther(h interop.Hash160, method string, arg any) any {
	r := contract.Call(h, method, contract.All, arg)
	runtime.Notify("Called", r)
	return r
}

// Fail throws (the transaction FAULTs).
func Fail(msg string) {
	storage.Put(storage.GetContext(), "never", 1)
	panic(msg)
}

// Abort executes ABORT.
func Abort() {
	util.Abort()
}

// Update replaces this contract's code and manifest.
func Update(nef, manifest []byte) {
	management.Update(nef, manifest)
}

// Destroy removes this contract.
func Destroy() {
	management.Destroy()
}
