package oracle

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// Response is one node's signature of the response to a request, as
// submitoracleresponse carries it: the node's key, the request id, the
// transaction signature and the signature of ResponseMessage by the key.
type Response struct {
	PublicKey    *keys.PublicKey
	RequestID    uint64
	TxSignature  []byte
	MsgSignature []byte
}

// ResponseMessage is what a node signs to send its transaction signature:
// the compressed key, the request id (8 bytes little-endian) and the
// signature.
func ResponseMessage(pub *keys.PublicKey, reqID uint64, txSig []byte) []byte {
	pb := pub.Bytes()
	msg := make([]byte, 0, len(pb)+8+len(txSig))
	msg = append(msg, pb...)
	msg = binary.LittleEndian.AppendUint64(msg, reqID)
	return append(msg, txSig...)
}

// VerifyResponse checks the message signature of a submitted response.
func VerifyResponse(pub *keys.PublicKey, reqID uint64, txSig, msgSig []byte) bool {
	return pub.VerifyMessage(msgSig, ResponseMessage(pub, reqID, txSig))
}

// VerifyResponse is the package's VerifyResponse, as the RPC server's
// OracleHandler asks for it.
func (s *Service) VerifyResponse(pub *keys.PublicKey, reqID uint64, txSig, msgSig []byte) bool {
	return VerifyResponse(pub, reqID, txSig, msgSig)
}

// senderQueue is the number of responses waiting for one node; more are
// dropped (the reference's queue size).
const senderQueue = 16

// RPCSender posts responses to the other oracle nodes' RPC servers
// (submitoracleresponse), one goroutine and queue per node: a slow or
// dead node delays no other, and its queue drops what it cannot take.
type RPCSender struct {
	log    *zap.Logger
	client *http.Client
	queues map[string]chan Response
}

// NewRPCSender returns a sender to the RPC addresses (http(s)://host:port)
// with a per-request timeout. Run it.
func NewRPCSender(nodes []string, timeout time.Duration, log *zap.Logger) *RPCSender {
	s := &RPCSender{log: log, client: &http.Client{Timeout: timeout}, queues: make(map[string]chan Response, len(nodes))}
	for _, n := range nodes {
		s.queues[n] = make(chan Response, senderQueue)
	}
	return s
}

// Send queues r for every node; it never blocks.
func (s *RPCSender) Send(r Response) {
	for node, q := range s.queues {
		select {
		case q <- r:
		default:
			s.log.Warn("oracle response dropped: node queue full", zap.String("node", node),
				zap.Uint64("request", r.RequestID))
		}
	}
}

// Run posts the queued responses until ctx ends.
func (s *RPCSender) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for node, q := range s.queues {
		wg.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case r := <-q:
					if err := s.post(ctx, node, r); err != nil {
						s.log.Warn("cannot send oracle response", zap.String("node", node),
							zap.Uint64("request", r.RequestID), zap.Error(err))
					}
				}
			}
		})
	}
	wg.Wait()
}

// post sends one submitoracleresponse call and checks its answer.
func (s *RPCSender) post(ctx context.Context, node string, r Response) error {
	enc := base64.StdEncoding.EncodeToString
	body, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": 1, "method": "submitoracleresponse",
		"params": []any{enc(r.PublicKey.Bytes()), r.RequestID, enc(r.TxSignature), enc(r.MsgSignature)},
	})
	if err != nil {
		return fmt.Errorf("oracle: encoding the call: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, node, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("oracle: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("oracle: %w", err)
	}
	defer func() { _ = resp.Body.Close() }() // a read body's close error changes nothing
	var out struct {
		Error *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
			Data    string `json:"data"`
		} `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&out); err != nil {
		return fmt.Errorf("oracle: answer of %s (HTTP %d): %w", node, resp.StatusCode, err)
	}
	if out.Error != nil {
		return fmt.Errorf("oracle: %s answered %d %s %s", node, out.Error.Code, out.Error.Message, out.Error.Data)
	}
	return nil
}
