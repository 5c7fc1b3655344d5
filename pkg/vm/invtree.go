package vm

import "github.com/n3d-io/n3d/pkg/util"

// InvocationTree is the tree of the scripts a run loaded (neo-go's
// invocation tree, the "invokedcontracts" of its invoke diagnostics):
// each loaded script is a child of the script that was running when it
// was loaded; calls inside a script (CALL, _initialize) add no node.
type InvocationTree struct {
	Hash  util.Uint160      `json:"hash"`
	Calls []*InvocationTree `json:"call,omitempty"`

	sh *shared // the script, whose hash may be set after it is loaded
}

// EnableInvocationTree makes the VM collect the invocation tree of the
// scripts loaded from now on.
func (v *VM) EnableInvocationTree() { v.invTree = &InvocationTree{} }

// InvocationTree returns the root of the collected tree (its Calls are the
// scripts loaded with an empty invocation stack), nil when not enabled.
func (v *VM) InvocationTree() *InvocationTree {
	if v.invTree != nil {
		v.invTree.fillHashes()
	}
	return v.invTree
}

// addTreeNode adds ctx's script under the running script's node.
func (v *VM) addTreeNode(ctx *Context) {
	parent := v.invTree
	if n := len(v.istack); n > 0 && v.istack[n-1].sh.tree != nil {
		parent = v.istack[n-1].sh.tree
	}
	node := &InvocationTree{sh: ctx.sh}
	parent.Calls = append(parent.Calls, node)
	ctx.sh.tree = node
}

func (t *InvocationTree) fillHashes() {
	for _, c := range t.Calls {
		c.Hash = (&Context{sh: c.sh}).ScriptHash()
		c.fillHashes()
	}
}
