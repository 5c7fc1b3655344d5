package network

import (
	"sync"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/util"
)

// txMsgCacheSize is how many recently served transaction messages are
// kept: the peers that ask for a new transaction do so within moments of
// each other (every validator of 4+1 asks the RPC node for each one).
const txMsgCacheSize = 1024

// txMsgCache keeps the encoded messages of the transactions served
// last, so a transaction asked for by several peers is encoded (and its
// compression tried, as the reference does from 128 bytes) once: a 4+1
// RPC node under neo-bench load spent ~5% of its CPU in message.New for
// the ~3.7 answers it sends per transaction (pprof). Oldest first out.
type txMsgCache struct {
	mu    sync.Mutex
	m     map[util.Uint256]*message.Message
	order [txMsgCacheSize]util.Uint256
	next  int
}

// get returns the message of tx (hash h), built and kept on first use.
func (c *txMsgCache) get(h util.Uint256, tx *transaction.Transaction) (*message.Message, error) {
	c.mu.Lock()
	m, ok := c.m[h]
	c.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := message.New(message.CmdTransaction, tx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[util.Uint256]*message.Message, txMsgCacheSize)
	}
	if _, ok := c.m[h]; !ok {
		if len(c.m) == txMsgCacheSize {
			delete(c.m, c.order[c.next])
		}
		c.m[h] = m
		c.order[c.next] = h
		c.next = (c.next + 1) % txMsgCacheSize
	}
	return m, nil
}
