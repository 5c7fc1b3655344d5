package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/rpc/result"
)

// Defaults of Options.
const (
	// DefaultTimeout bounds one call when Options.Timeout is 0.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxResponseSize bounds an answer's body when
	// Options.MaxResponseSize is 0.
	DefaultMaxResponseSize = 16 << 20
)

// Errors of the client (server errors are *result.Error).
var (
	// ErrEndpoint is an endpoint that is not an http(s) URL.
	ErrEndpoint = errors.New("client: bad endpoint")
	// ErrResponseTooLarge is an answer above Options.MaxResponseSize.
	ErrResponseTooLarge = errors.New("client: response too large")
	// ErrBadResponse is an answer that is not a JSON-RPC 2.0 response to
	// the request.
	ErrBadResponse = errors.New("client: bad response")
)

// HTTPError is a non-200 HTTP answer without a JSON-RPC error in it.
type HTTPError struct {
	Status int
	Body   string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("client: HTTP %d: %s", e.Status, e.Body)
}

// Options tunes a Client; the zero value is usable.
type Options struct {
	// Timeout bounds one call on top of the context's deadline
	// (DefaultTimeout when 0, none when negative).
	Timeout time.Duration
	// MaxResponseSize bounds an answer's body (DefaultMaxResponseSize
	// when 0).
	MaxResponseSize int64
	// HTTPClient sends the requests (a fresh http.Client when nil).
	HTTPClient *http.Client
}

// Client calls one JSON-RPC endpoint.
type Client struct {
	endpoint string
	opts     Options
	http     *http.Client
	id       atomic.Uint64
}

// New returns a client of endpoint, an http or https URL. A bare
// host:port gets "http://".
func New(endpoint string, opts Options) (*Client, error) {
	if endpoint == "" {
		return nil, fmt.Errorf("%w: empty", ErrEndpoint)
	}
	if !strings.Contains(endpoint, "://") {
		endpoint = "http://" + endpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrEndpoint, endpoint, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: %q is not an http(s) URL", ErrEndpoint, endpoint)
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxResponseSize <= 0 {
		opts.MaxResponseSize = DefaultMaxResponseSize
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{endpoint: u.String(), opts: opts, http: hc}, nil
}

// Endpoint returns the URL the client calls.
func (c *Client) Endpoint() string { return c.endpoint }

type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      uint64 `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *result.Error   `json:"error"`
}

// Call sends method with params and decodes the result into out (which
// may be nil to drop it). A server error is returned as a *result.Error
// wrapped with the method's name.
func (c *Client) Call(ctx context.Context, method string, params []any, out any) error {
	if params == nil {
		params = []any{}
	}
	id := c.id.Add(1)
	body, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("%s: encode request: %w", method, err)
	}
	raw, err := c.post(ctx, body)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	res, err := decodeResponse(raw.body, id)
	if err != nil {
		if raw.status != http.StatusOK {
			return fmt.Errorf("%s: %w", method, &HTTPError{Status: raw.status, Body: snippet(raw.body)})
		}
		return fmt.Errorf("%s: %w", method, err)
	}
	if res.Error != nil {
		return fmt.Errorf("%s: %w", method, res.Error)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(res.Result, out); err != nil {
		return fmt.Errorf("%s: %w: result: %w", method, ErrBadResponse, err)
	}
	return nil
}

type rawAnswer struct {
	status int
	body   []byte
}

// post sends one request body and reads the bounded answer.
func (c *Client) post(ctx context.Context, body []byte) (rawAnswer, error) {
	if c.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return rawAnswer{}, fmt.Errorf("request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return rawAnswer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxResponseSize+1))
	if err != nil {
		return rawAnswer{}, fmt.Errorf("read response: %w", err)
	}
	if int64(len(data)) > c.opts.MaxResponseSize {
		return rawAnswer{}, fmt.Errorf("%w: more than %d bytes", ErrResponseTooLarge, c.opts.MaxResponseSize)
	}
	return rawAnswer{status: resp.StatusCode, body: data}, nil
}

// decodeResponse parses one JSON-RPC 2.0 response to request id.
func decodeResponse(data []byte, id uint64) (*response, error) {
	var r response
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	if r.JSONRPC != "2.0" {
		return nil, fmt.Errorf("%w: jsonrpc %q", ErrBadResponse, r.JSONRPC)
	}
	var got uint64
	if err := json.Unmarshal(r.ID, &got); err != nil || got != id {
		return nil, fmt.Errorf("%w: id %s, want %d", ErrBadResponse, r.ID, id)
	}
	if r.Error == nil && (len(r.Result) == 0 || string(r.Result) == "null") {
		return nil, fmt.Errorf("%w: neither result nor error", ErrBadResponse)
	}
	return &r, nil
}

// snippet returns the start of a body for an error message.
func snippet(b []byte) string {
	const n = 200
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}
