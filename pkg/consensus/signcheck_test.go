package consensus

import (
	"bytes"
	"sync"
	"testing"
)

// signChecker watches every payload the services of a test network
// broadcast and fails the test when a validator equivocates: two
// different Commits for one height, two different PrepareRequests or
// PrepareResponses for one height and view, or a new proposal, response
// or change view at a height after its Commit there.
type signChecker struct {
	t  *testing.T
	mu sync.Mutex
	// first is the first message (Data) a validator sent per key.
	first     map[signKey][]byte
	committed map[signKey]bool // key with type Commit and view 0
}

type signKey struct {
	validator byte
	height    uint32
	view      byte
	typ       MessageType
}

func (c *signChecker) check(node string, p *Payload) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.first == nil {
		c.first, c.committed = map[signKey][]byte{}, map[signKey]bool{}
	}
	m := p.Msg
	switch m.Type {
	case CommitType, PrepareRequestType, PrepareResponseType, ChangeViewType:
	default:
		return
	}
	k := signKey{validator: m.ValidatorIndex, height: m.BlockIndex, view: m.ViewNumber, typ: m.Type}
	if m.Type == CommitType {
		k.view = 0
	}
	ck := signKey{validator: m.ValidatorIndex, height: m.BlockIndex, typ: CommitType}
	prev, seen := c.first[k]
	switch {
	case seen && m.Type != ChangeViewType && !bytes.Equal(prev, p.Data):
		c.t.Errorf("%s (validator %d) signed two different %s at height %d view %d", node, m.ValidatorIndex,
			m.Type, m.BlockIndex, m.ViewNumber)
	case !seen && m.Type != CommitType && c.committed[ck]:
		c.t.Errorf("%s (validator %d) sent a new %s at height %d view %d after its Commit", node,
			m.ValidatorIndex, m.Type, m.BlockIndex, m.ViewNumber)
	}
	if !seen {
		c.first[k] = bytes.Clone(p.Data)
	}
	if m.Type == CommitType {
		c.committed[ck] = true
	}
}
