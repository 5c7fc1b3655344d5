package server

import (
	"encoding/json"
	"fmt"

	"github.com/gorilla/websocket"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"go.uber.org/zap"
)

// ChainEvents is the chain's event feed (*chain.Chain).
type ChainEvents interface {
	Subscribe(kinds chain.EventKind, maxPending int) *chain.Subscription
}

// PoolEvents is the memory pool's event feed (*mempool.Pool).
type PoolEvents interface {
	Subscribe(capacity int) *mempool.Subscription
}

var (
	_ ChainEvents = (*chain.Chain)(nil)
	_ PoolEvents  = (*mempool.Pool)(nil)
)

// poolEventsCapacity is the mempool subscription's channel size; the
// dispatcher never blocks, so it only absorbs bursts.
const poolEventsCapacity = 4096

// subEvent is one event for the clients: the field of its stream is set
// (block for block_added and header_of_added_block; tx and poolType for
// mempool_event).
type subEvent struct {
	id           eventID
	block        *block.Block
	tx           *transaction.Transaction
	exec         *state.AppExecResult
	notification *state.NotificationEvent
	container    util.Uint256 // of the notification
	poolType     string
}

// payload is the event's "params".
func (e *subEvent) payload() any {
	switch e.id {
	case eventBlock:
		return result.BlockEvent{Block: e.block}
	case eventHeader:
		return result.HeaderEvent{Header: &e.block.Header}
	case eventTransaction:
		return result.TxEvent{Transaction: e.tx}
	case eventExecution:
		return result.ExecutionEvent{AppExecResult: e.exec}
	case eventNotification:
		return result.NotificationEvent{Container: e.container, NotificationEvent: e.notification}
	case eventMempool:
		return result.MempoolEvent{Type: e.poolType, Tx: result.TxEvent{Transaction: e.tx}}
	}
	return nil
}

// message is the event's notification, encoded once for every client.
func (e *subEvent) message() (*websocket.PreparedMessage, error) {
	b, err := json.Marshal(result.Notification{JSONRPC: params.Version, Method: e.id.String(), Params: []any{e.payload()}})
	if err != nil {
		return nil, fmt.Errorf("rpc: %s event: %w", e.id, err)
	}
	return websocket.NewPreparedMessage(websocket.TextMessage, b)
}

// wants reports whether one of c's feeds takes e (REQUIRES: hub's mu).
func (c *wsClient) wants(e *subEvent) bool {
	for i := range c.feeds {
		f := &c.feeds[i]
		if f.event == e.id && (f.filter == nil || f.filter.matches(e)) {
			return true
		}
	}
	return false
}

// dispatcher is the state of the hub's dispatch goroutine: the chain and
// mempool subscriptions it holds while some feed needs them, and the
// transaction held back until its execution is out (neo-go announces a
// transaction after its execution and notifications).
type dispatcher struct {
	h         *wsHub
	chainSub  *chain.Subscription
	poolSub   *mempool.Subscription
	pendingTx *transaction.Transaction
	targets   []*wsClient // publish's scratch list
}

// dispatch runs until the hub closes.
func (h *wsHub) dispatch() {
	d := &dispatcher{h: h}
	defer d.leave()
	for {
		var chainC <-chan chain.Event
		if d.chainSub != nil {
			chainC = d.chainSub.C
		}
		var poolC <-chan mempool.Event
		if d.poolSub != nil {
			poolC = d.poolSub.C
		}
		select {
		case <-h.done:
			return
		case ack := <-h.reconf:
			d.apply()
			close(ack)
		case ev, ok := <-chainC:
			if !ok {
				d.chainLost()
				continue
			}
			d.onChain(&ev)
		case ev, ok := <-poolC:
			if !ok {
				d.poolLost()
				continue
			}
			d.onPool(&ev)
		}
	}
}

// apply holds the subscriptions the feed counts need, and no more.
func (d *dispatcher) apply() {
	d.h.mu.RLock()
	chainFeeds, poolFeeds := d.h.mu.chainFeeds, d.h.mu.poolFeeds
	d.h.mu.RUnlock()
	src := d.h.srv.cfg
	switch {
	case chainFeeds > 0 && d.chainSub == nil && src.ChainEvents != nil:
		d.chainSub = src.ChainEvents.Subscribe(chain.EventBlock|chain.EventTransaction|chain.EventExecution, d.h.opts.chainPending)
	case chainFeeds == 0 && d.chainSub != nil:
		d.chainSub.Close()
		d.chainSub, d.pendingTx = nil, nil
	}
	switch {
	case poolFeeds > 0 && d.poolSub == nil && src.PoolEvents != nil:
		d.poolSub = src.PoolEvents.Subscribe(poolEventsCapacity)
	case poolFeeds == 0 && d.poolSub != nil:
		d.poolSub.Close()
		d.poolSub = nil
	}
}

func (d *dispatcher) leave() {
	if d.chainSub != nil {
		d.chainSub.Close()
	}
	if d.poolSub != nil {
		d.poolSub.Close()
	}
}

// chainLost handles a chain subscription that ended: dropped for being
// slow (events are lost: resubscribe and tell the clients), or the chain
// closed.
func (d *dispatcher) chainLost() {
	err := d.chainSub.Err()
	d.chainSub, d.pendingTx = nil, nil
	if err == nil {
		return
	}
	d.h.log.Warn("websocket events: chain subscription dropped", zap.Error(err))
	d.apply()
	d.h.missedAll(eventID.fromChain)
}

// poolLost is chainLost for the mempool subscription.
func (d *dispatcher) poolLost() {
	err := d.poolSub.Err()
	d.poolSub = nil
	if err == nil {
		return
	}
	d.h.log.Warn("websocket events: mempool subscription dropped", zap.Error(err))
	d.apply()
	d.h.missedAll(func(id eventID) bool { return id == eventMempool })
}

// onChain publishes a chain event in neo-go's order: per execution the
// execution, its notifications (a transaction's only when it HALTed), then
// its transaction; per block the header, then the block.
func (d *dispatcher) onChain(ev *chain.Event) {
	switch ev.Kind {
	case chain.EventTransaction:
		d.flushTx()
		d.pendingTx = ev.Tx
	case chain.EventExecution:
		r := ev.Execution
		isTx := d.pendingTx != nil && d.pendingTx.Hash() == r.Container
		d.publish(&subEvent{id: eventExecution, exec: r})
		if !isTx || r.VMState == vm.HaltState {
			for i := range r.Events {
				d.publish(&subEvent{id: eventNotification, notification: &r.Events[i], container: r.Container})
			}
		}
		if isTx {
			d.flushTx()
		}
	case chain.EventBlock:
		d.flushTx()
		d.publish(&subEvent{id: eventHeader, block: ev.Block})
		d.publish(&subEvent{id: eventBlock, block: ev.Block})
	}
}

func (d *dispatcher) flushTx() {
	if d.pendingTx != nil {
		d.publish(&subEvent{id: eventTransaction, tx: d.pendingTx})
		d.pendingTx = nil
	}
}

func (d *dispatcher) onPool(ev *mempool.Event) {
	typ := result.MempoolAdded
	if ev.Kind == mempool.TransactionRemoved {
		typ = result.MempoolRemoved
	}
	d.publish(&subEvent{id: eventMempool, tx: ev.Tx, poolType: typ})
}

// publish queues e for every client with a matching feed; the message is
// encoded once, outside the lock, and only when some client takes it.
func (d *dispatcher) publish(e *subEvent) {
	h := d.h
	d.targets = d.targets[:0]
	h.mu.RLock()
	for c := range h.mu.clients {
		if !c.overflown.Load() && c.wants(e) {
			d.targets = append(d.targets, c)
		}
	}
	h.mu.RUnlock()
	if len(d.targets) == 0 {
		return
	}
	msg, err := e.message()
	if err != nil {
		h.log.Error("websocket event not sent", zap.Error(err))
		return
	}
	for _, c := range d.targets {
		c.send(msg) // a client gone meanwhile has nobody reading its queue: harmless
	}
	clear(d.targets)
}

// missedAll tells the clients with a feed of a stream in which that
// events were lost.
func (h *wsHub) missedAll(in func(eventID) bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for c := range h.mu.clients {
		for i := range c.feeds {
			if c.feeds[i].event != eventNone && in(c.feeds[i].event) {
				c.send(h.missed)
				break
			}
		}
	}
}
