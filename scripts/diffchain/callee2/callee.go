// Package callee is the second version of the callee contract (same name):
// deployed by an update, it answers differently and has a new method.
package callee

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/native/management"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

func _deploy(data any, isUpdate bool) {
	if isUpdate {
		storage.Put(storage.GetContext(), "v2", data)
	}
}

// Echo now returns its argument and the version.
func Echo(arg any) []any {
	runtime.Notify("Echo2", arg)
	return []any{arg, 2}
}

// Version is new in the second version.
func Version() int {
	return 2
}

// Destroy removes this contract.
func Destroy() {
	management.Destroy()
}
