package result

import (
	"errors"
	"fmt"
)

// Error is a JSON-RPC 2.0 error object as the reference servers print it:
// {"code":-101,"message":"Unknown block","data":"..."} (data omitted when
// empty).
type Error struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitzero"`
}

// JSON-RPC 2.0 codes.
const (
	ParseErrorCode     = -32700
	InvalidRequestCode = -32600
	MethodNotFoundCode = -32601
	InvalidParamsCode  = -32602
	InternalErrorCode  = -32603
)

// Neo extension codes (neo-go pkg/neorpc, C# RpcError).
const (
	UnknownBlockCode            = -101
	UnknownContractCode         = -102
	UnknownTransactionCode      = -103
	UnknownStorageItemCode      = -104
	UnknownScriptContainerCode  = -105
	UnknownStateRootCode        = -106
	UnknownSessionCode          = -107
	UnknownIteratorCode         = -108
	UnknownHeightCode           = -109
	VerificationFailedCode      = -500
	AlreadyExistsCode           = -501
	InvalidSignatureCode        = -508
	InvalidVerificationFuncCode = -512
	SessionsDisabledCode        = -601
	UnsupportedStateCode        = -606
	InvalidProofCode            = -607
	ExecutionFailedCode         = -608
)

// Errors with the reference messages; WithData adds the detail.
var (
	ErrInvalidParams          = &Error{Code: InvalidParamsCode, Message: "Invalid params", Data: "Invalid params"} // neo-go's generic form
	ErrUnknownBlock           = &Error{Code: UnknownBlockCode, Message: "Unknown block"}
	ErrUnknownContract        = &Error{Code: UnknownContractCode, Message: "Unknown contract"}
	ErrUnknownTransaction     = &Error{Code: UnknownTransactionCode, Message: "Unknown transaction"}
	ErrUnknownStorageItem     = &Error{Code: UnknownStorageItemCode, Message: "Unknown storage item"}
	ErrUnknownScriptContainer = &Error{Code: UnknownScriptContainerCode, Message: "Unknown script container"}
	ErrUnknownStateRoot       = &Error{Code: UnknownStateRootCode, Message: "Unknown state root"}
	ErrUnknownSession         = &Error{Code: UnknownSessionCode, Message: "Unknown session"}
	ErrUnknownIterator        = &Error{Code: UnknownIteratorCode, Message: "Unknown iterator"}
	ErrUnknownHeight          = &Error{Code: UnknownHeightCode, Message: "Unknown height"}
	ErrInvalidSignature       = &Error{Code: InvalidSignatureCode, Message: "Invalid signature"}
	ErrInvalidVerificationFn  = &Error{Code: InvalidVerificationFuncCode, Message: "Invalid verification function"}
	ErrSessionsDisabled       = &Error{Code: SessionsDisabledCode, Message: "Sessions disabled"}
	ErrUnsupportedState       = &Error{Code: UnsupportedStateCode, Message: "Old state requests are not supported"}
	ErrInvalidProof           = &Error{Code: InvalidProofCode, Message: "Invalid proof"}
	ErrExecutionFailed        = &Error{Code: ExecutionFailedCode, Message: "Execution failed"}
)

// NewParseError is -32700 "Parse error".
func NewParseError(data string) *Error {
	return &Error{Code: ParseErrorCode, Message: "Parse error", Data: data}
}

// NewInvalidRequestError is -32600 "Invalid request".
func NewInvalidRequestError(data string) *Error {
	return &Error{Code: InvalidRequestCode, Message: "Invalid request", Data: data}
}

// NewMethodNotFoundError is -32601 "Method not found".
func NewMethodNotFoundError(data string) *Error {
	return &Error{Code: MethodNotFoundCode, Message: "Method not found", Data: data}
}

// NewInvalidParamsError is -32602 "Invalid params".
func NewInvalidParamsError(data string) *Error {
	return &Error{Code: InvalidParamsCode, Message: "Invalid params", Data: data}
}

// NewInternalError is -32603 "Internal error".
func NewInternalError(data string) *Error {
	return &Error{Code: InternalErrorCode, Message: "Internal error", Data: data}
}

// WithData returns a copy of e with data set.
func (e *Error) WithData(data string) *Error {
	return &Error{Code: e.Code, Message: e.Message, Data: data}
}

// Error implements error.
func (e *Error) Error() string {
	if e.Data == "" {
		return fmt.Sprintf("%s (%d)", e.Message, e.Code)
	}
	return fmt.Sprintf("%s (%d) - %s", e.Message, e.Code, e.Data)
}

// Is matches errors by code.
func (e *Error) Is(target error) bool {
	var t *Error
	return errors.As(target, &t) && t.Code == e.Code
}
