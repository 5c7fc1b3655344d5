package server

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
)

// eventID is a subscription stream; the values are neo-go's EventID.
type eventID byte

// The streams.
const (
	eventNone         eventID = 0
	eventBlock        eventID = 1
	eventTransaction  eventID = 2
	eventNotification eventID = 3
	eventExecution    eventID = 4
	eventNotary       eventID = 5
	eventHeader       eventID = 6
	eventMempool      eventID = 7
	eventMissed       eventID = 255
)

var eventNames = map[eventID]string{
	eventBlock:        "block_added",
	eventTransaction:  "transaction_added",
	eventNotification: "notification_from_execution",
	eventExecution:    "transaction_executed",
	eventNotary:       "notary_request_event",
	eventHeader:       "header_of_added_block",
	eventMempool:      "mempool_event",
	eventMissed:       "event_missed",
}

// String is the stream's name (its notifications' method).
func (id eventID) String() string {
	if n, ok := eventNames[id]; ok {
		return n
	}
	return "unknown"
}

// parseEventID reads a stream name.
func parseEventID(s string) (eventID, bool) {
	for id, n := range eventNames {
		if n == s {
			return id, true
		}
	}
	return eventNone, false
}

// fromChain reports whether the chain produces the stream's events (the
// mempool produces mempool_event).
func (id eventID) fromChain() bool {
	switch id {
	case eventBlock, eventHeader, eventTransaction, eventNotification, eventExecution:
		return true
	}
	return false
}

// feed is one subscription of a client: a stream and its filter (nil:
// every event). A zero feed is a free slot.
type feed struct {
	event  eventID
	filter filter
}

// wsHandlers are the methods only WebSocket clients have.
var wsHandlers = map[string]func(s *Server, ps params.Params, c *wsClient) (any, *result.Error){
	"subscribe":   (*Server).subscribe,
	"unsubscribe": (*Server).unsubscribe,
}

// handleWS runs one request of a WebSocket client: subscribe and
// unsubscribe here, the rest as over HTTP.
func (s *Server) handleWS(in *params.In, c *wsClient) response {
	h, ok := wsHandlers[in.Method]
	if !ok || in.JSONRPC != params.Version {
		return s.handle(in, nil)
	}
	start := time.Now()
	resp := response{ID: in.ID, JSONRPC: in.JSONRPC}
	res, rerr := h(s, in.Params, c)
	if rerr == nil {
		b, err := json.Marshal(res)
		if err != nil {
			rerr = internal("response can't be JSONized", err)
		}
		resp.Result = b
	}
	resp.Error = rerr
	s.metrics.observe(in.Method, start, rerr)
	if rerr != nil {
		s.logError(in, rerr)
	}
	return resp
}

// subscribe adds a feed: params are the stream name and an optional
// filter; the answer is the feed's id, a decimal string.
func (s *Server) subscribe(ps params.Params, c *wsClient) (any, *result.Error) {
	name, err := ps.Value(0).GetString()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	id, ok := parseEventID(name)
	if !ok || id == eventMissed {
		return nil, result.ErrInvalidParams
	}
	switch id {
	case eventNotary:
		if !s.chain.Config().P2PSigExtensions {
			return nil, result.ErrInvalidParams.WithData("P2PSigExtensions are disabled")
		}
		return nil, result.ErrInvalidParams.WithData("notary request events are not supported: the node keeps no P2P notary request pool")
	case eventMempool:
		if !s.cfg.MempoolSubscriptionsEnabled {
			return nil, result.NewInternalError("mempool subscriptions are disabled")
		}
	}
	var f filter
	if p := ps.Value(1); p != nil {
		if f, err = parseFilter(id, p.RawMessage); err != nil {
			return nil, result.ErrInvalidParams.WithData(err.Error())
		}
	}
	slot, rerr := s.hub().addFeed(c, feed{event: id, filter: f})
	if rerr != nil {
		return nil, rerr
	}
	return strconv.Itoa(slot), nil
}

// unsubscribe drops a feed by its id.
func (s *Server) unsubscribe(ps params.Params, c *wsClient) (any, *result.Error) {
	id, err := ps.Value(0).GetInt()
	if err != nil || !s.hub().dropFeed(c, id) {
		return nil, result.ErrInvalidParams
	}
	return true, nil
}
