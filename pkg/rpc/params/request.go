package params

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the only JSON-RPC version accepted.
const Version = "2.0"

// DefaultMaxBatchSize is the largest batch accepted by default (neo-go's
// limit).
const DefaultMaxBatchSize = 100

// Errors returned by Decode (the server answers them with -32700).
var (
	// ErrEmptyRequest is an empty body or an empty batch.
	ErrEmptyRequest = errors.New("params: empty request")
	// ErrBatchTooLarge is a batch over the limit.
	ErrBatchTooLarge = errors.New("params: too many requests in batch")
	// ErrNotRequest is JSON that is neither an object nor an array.
	ErrNotRequest = errors.New("params: request is neither an object nor an array")
)

// In is one JSON-RPC 2.0 request object. ID is kept raw and echoed back;
// it is nil when the request had none.
type In struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	Params  Params          `json:"params,omitzero"`
	ID      json.RawMessage `json:"id,omitzero"`
}

// Request is a decoded HTTP body: one request (In) or a batch.
type Request struct {
	In    *In
	Batch []In
}

// Decode parses a JSON-RPC body: an object is one request, an array a
// batch of at most maxBatch requests. Trailing data after the JSON value
// is an error.
func Decode(data []byte, maxBatch int) (*Request, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, ErrEmptyRequest
	}
	switch data[0] {
	case '{':
		in := new(In)
		if err := decodeStrict(data, in); err != nil {
			return nil, err
		}
		return &Request{In: in}, nil
	case '[':
		return decodeBatch(data, maxBatch)
	}
	return nil, ErrNotRequest
}

func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("error parsing JSON payload: %w", err)
	}
	if dec.More() {
		return errors.New("error parsing JSON payload: trailing data")
	}
	return nil
}

func decodeBatch(data []byte, maxBatch int) (*Request, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // [
		return nil, fmt.Errorf("error parsing JSON payload: %w", err)
	}
	var batch []In
	for dec.More() {
		if len(batch) >= maxBatch {
			return nil, fmt.Errorf("%w: more than %d", ErrBatchTooLarge, maxBatch)
		}
		var in In
		if err := dec.Decode(&in); err != nil {
			return nil, fmt.Errorf("error parsing JSON payload: %w", err)
		}
		batch = append(batch, in)
	}
	if _, err := dec.Token(); err != nil { // ]
		return nil, fmt.Errorf("error parsing JSON payload: %w", err)
	}
	if dec.More() {
		return nil, errors.New("error parsing JSON payload: trailing data")
	}
	if len(batch) == 0 {
		return nil, ErrEmptyRequest
	}
	return &Request{Batch: batch}, nil
}
