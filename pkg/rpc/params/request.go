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

// Errors returned by Decode (the server answers them with -32700). Their
// texts are neo-go's, without a package prefix: they are the answer's data.
var (
	// ErrEmptyRequest is an empty batch.
	ErrEmptyRequest = errors.New("empty request")
	// ErrBatchTooLarge is a batch over the limit.
	ErrBatchTooLarge = errors.New("the number of requests in batch shouldn't exceed")
	// ErrNotRequest is JSON that is neither a request object nor an array.
	ErrNotRequest = errors.New("`[` expected")
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
// batch of requests. Like neo-go, only the first JSON value of the body is
// read, and the errors are worded as neo-go's (they are the data of the
// -32700 answer): a body that is not JSON is "error parsing JSON payload:
// …", anything but an object or an array "`[` expected, got …", an empty
// batch ErrEmptyRequest. A batch may hold maxBatch+1 requests, as neo-go's
// check comes before the element it counts. The request's ID and
// parameters may alias data (scanObject): data must not be modified while
// the request is in use.
func Decode(data []byte, maxBatch int) (*Request, error) {
	if in, ok := scanObject(data); ok {
		return &Request{In: in}, nil
	}
	if r := decodeObject(data); r != nil {
		return r, nil
	}
	var raw json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&raw); err != nil {
		return nil, fmt.Errorf("error parsing JSON payload: %w", err)
	}
	in := new(In)
	if err := json.Unmarshal(raw, in); err == nil {
		return &Request{In: in}, nil
	}
	return decodeBatch(raw, maxBatch)
}

// decodeObject is Decode's path for a single request object, scanning
// the body once instead of twice (RawMessage, then Unmarshal): a Decoder
// reads the first JSON value and decodes it into In, which succeeds
// exactly when Decode's RawMessage read and Unmarshal into In both do. nil
// means the body is something else; Decode then goes the general way,
// which words the error.
func decodeObject(data []byte) *Request {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			in := new(In)
			if err := json.NewDecoder(bytes.NewReader(data)).Decode(in); err != nil {
				return nil
			}
			return &Request{In: in}
		}
		return nil
	}
	return nil
}

func decodeBatch(data []byte, maxBatch int) (*Request, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	t, err := dec.Token() // [
	if err != nil {
		return nil, err
	}
	if t != json.Delim('[') {
		return nil, fmt.Errorf("%w, got %v", ErrNotRequest, t)
	}
	var batch []In
	for dec.More() {
		if len(batch) > maxBatch {
			return nil, fmt.Errorf("%w %d", ErrBatchTooLarge, maxBatch)
		}
		var in In
		if err := dec.Decode(&in); err != nil {
			return nil, err
		}
		batch = append(batch, in)
	}
	if len(batch) == 0 {
		return nil, ErrEmptyRequest
	}
	return &Request{Batch: batch}, nil
}
