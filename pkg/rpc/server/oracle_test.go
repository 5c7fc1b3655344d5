package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/services/oracle"
)

// oracleRecorder records AddResponse calls.
type oracleRecorder struct {
	mu    sync.Mutex
	calls []oracle.Response
	got   chan struct{}
}

// VerifyResponse checks the message signature as the service does.
func (o *oracleRecorder) VerifyResponse(pub *keys.PublicKey, reqID uint64, txSig, msgSig []byte) bool {
	return oracle.VerifyResponse(pub, reqID, txSig, msgSig)
}

func (o *oracleRecorder) AddResponse(pub *keys.PublicKey, reqID uint64, txSig []byte) {
	o.mu.Lock()
	o.calls = append(o.calls, oracle.Response{PublicKey: pub, RequestID: reqID, TxSignature: txSig})
	o.mu.Unlock()
	o.got <- struct{}{}
}

func oracleKey(t *testing.T, seed string) *keys.PrivateKey {
	s := sha256.Sum256([]byte(seed))
	k, err := keys.NewPrivateKeyFromBytes(s[:])
	require.NoError(t, err)
	return k
}

// TestSubmitOracleResponse: the message signature is checked before the
// signature reaches the service; the answer is {}; parameter and
// signature errors are neo-go's codes; without the service, -602.
func TestSubmitOracleResponse(t *testing.T) {
	base := node(t, conformance.Chains(t)[0])
	rec := &oracleRecorder{got: make(chan struct{}, 8)}
	n := withServices(t, base, Config{Oracle: rec})
	key := oracleKey(t, "n3d rpc oracle test")
	pub := key.PublicKey()
	txSig := key.Sign([]byte("some transaction"))
	msgSig := key.Sign(oracle.ResponseMessage(pub, 42, txSig))
	b64 := base64.StdEncoding.EncodeToString

	res := n.result(t, "submitoracleresponse", b64(pub.Bytes()), 42, b64(txSig), b64(msgSig))
	require.JSONEq(t, `{}`, string(res))
	require.Len(t, rec.calls, 1)
	require.True(t, rec.calls[0].PublicKey.Equal(pub))
	require.Equal(t, uint64(42), rec.calls[0].RequestID)
	require.Equal(t, txSig, rec.calls[0].TxSignature)

	// Another request id, another key or another tx signature: the message
	// signature does not match.
	n.fail(t, result.InvalidSignatureCode, "submitoracleresponse", b64(pub.Bytes()), 43, b64(txSig), b64(msgSig))
	other := oracleKey(t, "another oracle")
	n.fail(t, result.InvalidSignatureCode, "submitoracleresponse", b64(other.PublicKey().Bytes()), 42, b64(txSig), b64(msgSig))
	n.fail(t, result.InvalidSignatureCode, "submitoracleresponse", b64(pub.Bytes()), 42, b64(msgSig), b64(msgSig))
	require.Len(t, rec.calls, 1)

	bad := int64(result.InvalidParamsCode)
	for _, ps := range [][]any{
		nil,
		{"!!", 42, b64(txSig), b64(msgSig)},
		{b64([]byte{2, 1}), 42, b64(txSig), b64(msgSig)},
		{b64(pub.Bytes())},
		{b64(pub.Bytes()), "x", b64(txSig), b64(msgSig)},
		{b64(pub.Bytes()), 42},
		{b64(pub.Bytes()), 42, "!!", b64(msgSig)},
		{b64(pub.Bytes()), 42, b64(txSig)},
		{b64(pub.Bytes()), 42, b64(txSig), "!!"},
	} {
		n.fail(t, bad, "submitoracleresponse", ps...)
	}
	e := base.fail(t, OracleDisabledCode, "submitoracleresponse", b64(pub.Bytes()), 42, b64(txSig), b64(msgSig))
	require.Equal(t, "Oracle service is not running", e.Message)
}

// TestOracleSenderToServer: the oracle service's sender posts a response
// that this server accepts and hands to its oracle handler.
func TestOracleSenderToServer(t *testing.T) {
	base := node(t, conformance.Chains(t)[0])
	rec := &oracleRecorder{got: make(chan struct{}, 8)}
	n := withServices(t, base, Config{Oracle: rec})
	key := oracleKey(t, "n3d rpc oracle test")
	txSig := key.Sign([]byte("tx"))
	s := oracle.NewRPCSender([]string{n.http.URL}, 10*time.Second, zap.NewNop())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		s.Run(ctx)
		close(done)
	}()
	s.Send(oracle.Response{PublicKey: key.PublicKey(), RequestID: 7, TxSignature: txSig,
		MsgSignature: key.Sign(oracle.ResponseMessage(key.PublicKey(), 7, txSig))})
	select {
	case <-rec.got:
	case <-time.After(time.Minute):
		t.Fatal("the response did not arrive")
	}
	cancel()
	<-done
	require.Len(t, rec.calls, 1)
	require.Equal(t, uint64(7), rec.calls[0].RequestID)
	require.Equal(t, txSig, rec.calls[0].TxSignature)
}
