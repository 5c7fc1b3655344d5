package result

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInvalidParamsForm: the generic invalid-params error is neo-go's
// (pkg/neorpc: NewInvalidParamsError("Invalid params")), data included;
// WithData replaces the data only.
func TestInvalidParamsForm(t *testing.T) {
	b, err := json.Marshal(ErrInvalidParams)
	require.NoError(t, err)
	require.JSONEq(t, `{"code":-32602,"message":"Invalid params","data":"Invalid params"}`, string(b))
	b, err = json.Marshal(ErrInvalidParams.WithData("bad height"))
	require.NoError(t, err)
	require.JSONEq(t, `{"code":-32602,"message":"Invalid params","data":"bad height"}`, string(b))
	b, err = json.Marshal(ErrUnknownBlock)
	require.NoError(t, err)
	require.JSONEq(t, `{"code":-101,"message":"Unknown block"}`, string(b))
}
