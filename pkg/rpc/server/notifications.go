package server

import (
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
)

// getBlockNotifications answers neo-go's getblocknotifications [block
// (hash or index), filter?]: the notifications of the block's HALTed
// executions (OnPersist, the transactions in order, PostPersist), kept by
// the optional notification filter of the WebSocket subscriptions
// (contract, name, leading parameters; unknown fields are an error).
func (s *Server) getBlockNotifications(ps params.Params) (any, *result.Error) {
	h, rerr := s.blockHashFromParam(ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	var f filter
	if len(ps) > 1 {
		var err error
		if f, err = parseFilter(eventNotification, ps[1].RawMessage); err != nil {
			return nil, result.ErrInvalidParams.WithData("invalid filter: " + filterErrText(err))
		}
	}
	b, err := s.chain.GetBlock(h)
	if err != nil {
		return nil, result.ErrUnknownBlock
	}
	var out result.BlockNotifications
	if out.OnPersist, err = s.notificationsOf(h, trigger.OnPersist, f); err != nil {
		return nil, internal("failed to get app exec results for onpersist", err)
	}
	for _, tx := range b.Transactions {
		ns, err := s.notificationsOf(tx.Hash(), trigger.Application, f)
		if err != nil {
			return nil, internal("failed to get app exec results", err)
		}
		out.Application = append(out.Application, ns...)
	}
	if out.PostPersist, err = s.notificationsOf(h, trigger.PostPersist, f); err != nil {
		return nil, internal("failed to get app exec results for postpersist", err)
	}
	return out, nil
}

// notificationsOf lists the notifications of container's HALTed
// executions with trigger trig that f keeps (nil: all).
func (s *Server) notificationsOf(container util.Uint256, trig trigger.Type, f filter) ([]result.NotificationEvent, error) {
	aers, err := s.chain.GetAppExecResults(container, trig)
	if err != nil {
		return nil, err
	}
	var out []result.NotificationEvent
	for _, aer := range aers {
		if aer.VMState != vm.HaltState {
			continue
		}
		for i := range aer.Events {
			ev := &aer.Events[i]
			if f != nil && !f.matches(&subEvent{id: eventNotification, notification: ev, container: container}) {
				continue
			}
			out = append(out, result.NotificationEvent{Container: container, NotificationEvent: ev})
		}
	}
	return out, nil
}
