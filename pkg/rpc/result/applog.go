package result

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
)

// ApplicationLog is a getapplicationlog answer: the container hash (as
// "txid" for a transaction, "blockhash" for a block) and the executions
// whose trigger passed the filter.
type ApplicationLog struct {
	Container     util.Uint256
	IsTransaction bool
	Executions    []state.Execution
}

type applicationLogJSON struct {
	TxHash     *util.Uint256     `json:"txid,omitzero"`
	BlockHash  *util.Uint256     `json:"blockhash,omitzero"`
	Executions []json.RawMessage `json:"executions"`
}

// invocationsNull is the execution field neo-go prints when it does not
// save invocation trees (SaveInvocations off, the default).
type invocationsNull struct {
	Invocations []struct{} `json:"invocations"`
}

// NewApplicationLog builds the answer for container h from its results,
// keeping the executions whose trigger is in trig.
func NewApplicationLog(h util.Uint256, aers []state.AppExecResult, trig trigger.Type) ApplicationLog {
	l := ApplicationLog{Container: h, Executions: []state.Execution{}}
	if len(aers) > 0 {
		l.IsTransaction = aers[0].Trigger == trigger.Application
	}
	for i := range aers {
		if aers[i].Trigger&trig != 0 {
			l.Executions = append(l.Executions, aers[i].Execution)
		}
	}
	return l
}

// MarshalJSON implements json.Marshaler.
func (l ApplicationLog) MarshalJSON() ([]byte, error) {
	aux := applicationLogJSON{Executions: make([]json.RawMessage, len(l.Executions))}
	if l.IsTransaction {
		aux.TxHash = &l.Container
	} else {
		aux.BlockHash = &l.Container
	}
	for i := range l.Executions {
		b, err := json.Marshal(l.Executions[i])
		if err != nil {
			return nil, fmt.Errorf("execution %d: %w", i, err)
		}
		if aux.Executions[i], err = appendObject(b, invocationsNull{}); err != nil {
			return nil, err
		}
	}
	return json.Marshal(aux)
}
