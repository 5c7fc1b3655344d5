// Package callee is called by the probe contract: it stores, notifies and
// returns, and can be updated to a second version.
package callee

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/management"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/std"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

// Echo counts its calls in storage, notifies the caller and returns its
// argument with the count.
func Echo(arg any) []any {
	ctx := storage.GetContext()
	n := 0
	if v := storage.Get(ctx, "n"); v != nil {
		n = v.(int)
	}
	n++
	storage.Put(ctx, "n", n)
	runtime.Notify("Echo", runtime.GetCallingScriptHash(), std.Itoa10(n))
	return []any{arg, n}
}

// Update replaces this contract's code and manifest.
func Update(nef, manifest []byte, data any) {
	management.UpdateWithData(nef, manifest, data)
}

// Destroy removes this contract.
func Destroy() {
	management.Destroy()
}

// OnNEP17Payment accepts tokens, keeps a tally per token and notifies it;
// data "reject" aborts the transfer.
func OnNEP17Payment(from interop.Hash160, amount int, data any) {
	if data == "reject" {
		panic("rejected")
	}
	ctx := storage.GetContext()
	key := append([]byte("paid:"), runtime.GetCallingScriptHash()...)
	total := amount
	if v := storage.Get(ctx, key); v != nil {
		total += v.(int)
	}
	storage.Put(ctx, key, total)
	runtime.Notify("Paid", from, amount, total)
}
