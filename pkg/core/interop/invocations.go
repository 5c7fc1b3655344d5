package interop

import "github.com/n3d-io/n3d/pkg/util"

// InvocationCounter returns how many times the contract h has been called
// in this execution so far (0 if never). Natives such as Oracle.finish
// check it the way the reference checks its invocation counter.
func (ic *Context) InvocationCounter(h util.Uint160) int {
	return ic.invocations[h]
}
