package mpt

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/util"
)

// WalkAction tells Walk how to go on after a node.
type WalkAction int

// Walk actions.
const (
	// WalkOn descends into the node's children.
	WalkOn WalkAction = iota
	// WalkSkip leaves the node's children out.
	WalkSkip
	// WalkStop ends the walk.
	WalkStop
)

// Walk visits the stored subtree under the node with hash h depth first,
// a node before its children and the children in slot order (a branch's
// value slot last): what a synchronising peer asking for h gets first.
// visit receives each node's hash and encoding (valid during the call
// only). Inactive nodes of ModeGC (old states kept for a while) are
// visited too. A node missing from the store fails with ErrMissingNode.
func Walk(cfg Config, h util.Uint256, visit func(h util.Uint256, enc []byte) WalkAction) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	_, err := walk(&cfg, h, visit, 0)
	return err
}

// walk returns true when the walk must stop.
func walk(cfg *Config, h util.Uint256, visit func(util.Uint256, []byte) WalkAction, depth int) (bool, error) {
	if depth > maxPathLength+1 {
		return false, fmt.Errorf("%w: node %s deeper than %d", ErrCorrupted, h, maxPathLength)
	}
	s, ok, err := cfg.getStored(h, false)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, fmt.Errorf("%w: %s", ErrMissingNode, h)
	}
	switch visit(h, s.enc) {
	case WalkStop:
		return true, nil
	case WalkSkip:
		return false, nil
	}
	n, err := DecodeNode(s.enc)
	if err != nil {
		return false, fmt.Errorf("%w: node %s: %w", ErrCorrupted, h, err)
	}
	var children []util.Uint256
	switch n := n.(type) {
	case *BranchNode:
		for _, c := range n.children {
			if c != nil {
				children = append(children, c.Hash())
			}
		}
	case *ExtensionNode:
		children = append(children, n.next.Hash())
	}
	for _, c := range children {
		if stop, err := walk(cfg, c, visit, depth+1); stop || err != nil {
			return stop, err
		}
	}
	return false, nil
}
