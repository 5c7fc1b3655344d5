package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// TestReadBody: the pooled read gives what io.ReadAll over MaxBytesReader
// gives (body or error) whatever the declared length says.
func TestReadBody(t *testing.T) {
	const limit = 64
	body := strings.Repeat("x", 40)
	for _, c := range []struct {
		name     string
		body     io.Reader
		declared int64
		want     string
		tooLarge bool
		fails    bool
	}{
		{name: "declared", body: strings.NewReader(body), declared: 40, want: body},
		{name: "empty", body: strings.NewReader(""), declared: 0, want: ""},
		{name: "chunked", body: strings.NewReader(body), declared: -1, want: body},
		{name: "longer than declared", body: strings.NewReader(body), declared: 10, want: body},
		{name: "over the limit", body: strings.NewReader(strings.Repeat("x", 100)), declared: 100, tooLarge: true},
		{name: "undeclared over the limit", body: strings.NewReader(strings.Repeat("x", 100)), declared: -1, tooLarge: true},
		{name: "longer than declared, over the limit", body: strings.NewReader(strings.Repeat("x", 100)),
			declared: 10, tooLarge: true},
		{name: "shorter than declared", body: strings.NewReader(body[:5]), declared: 40, fails: true},
		{name: "read error", body: iotest.ErrReader(errors.New("boom")), declared: 40, fails: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", c.body)
			r.ContentLength = c.declared
			b := getBuffers()
			defer b.put()
			got, err := b.readBody(httptest.NewRecorder(), r, limit)
			var tooLarge *http.MaxBytesError
			switch {
			case c.tooLarge:
				require.ErrorAs(t, err, &tooLarge)
			case c.fails:
				require.Error(t, err)
			default:
				require.NoError(t, err)
				require.Equal(t, c.want, string(got))
			}
		})
	}
}

// TestBuffersPoolBound: a buffer that grew past maxPooledBuffer is not
// kept.
func TestBuffersPoolBound(t *testing.T) {
	b := &buffers{body: make([]byte, 10), out: make([]byte, maxPooledBuffer+1)}
	b.put()
	require.NotNil(t, b.body)
	require.Nil(t, b.out)
}

// TestRelayResultAppendJSON: the answer of sendrawtransaction is written
// as json.Marshal writes it.
func TestRelayResultAppendJSON(t *testing.T) {
	for _, h := range []util.Uint256{{}, {1, 2, 3}, {0: 0xff, 31: 0xab}} {
		r := &relayResult{Hash: h}
		want, err := json.Marshal(r)
		require.NoError(t, err)
		require.Equal(t, string(want), string(r.appendJSON([]byte("prefix")))[len("prefix"):])
	}
}

// TestSharedDeadline: every context handed out ends no sooner than the
// timeout after it was taken and no later than a step after that.
func TestSharedDeadline(t *testing.T) {
	const timeout = time.Hour
	d := sharedDeadline{timeout: timeout}
	var first context.Context
	for range 100 {
		before := time.Now()
		ctx := d.context()
		after := time.Now()
		if first == nil {
			first = ctx
		}
		dl, ok := ctx.Deadline()
		require.True(t, ok)
		require.False(t, dl.Before(before.Add(timeout)), "deadline %v, taken at %v", dl, before)
		require.False(t, dl.After(after.Add(timeout+deadlineStep)), "deadline %v, taken by %v", dl, after)
		require.NoError(t, ctx.Err())
	}
	d.cur.Load().until = time.Time{} // the step is over
	require.NotSame(t, first, d.context())
}

// TestBase64ResultAppendJSON: binary results are written as json.Marshal
// writes a []byte.
func TestBase64ResultAppendJSON(t *testing.T) {
	for _, b := range [][]byte{nil, {}, {0}, []byte("\xff\xfe<>&"), make([]byte, 5000)} {
		want, err := json.Marshal(b)
		require.NoError(t, err)
		require.Equal(t, string(want), string(base64Result(b).appendJSON(nil)))
	}
}

// TestTxRelayResult: an accepted transaction's answer is relayResult's.
func TestTxRelayResult(t *testing.T) {
	tx := &transaction.Transaction{Script: []byte{1}, Signers: []transaction.Signer{{}},
		Witnesses: []transaction.Witness{{}}}
	want, err := json.Marshal(relayResult{Hash: tx.Hash()})
	require.NoError(t, err)
	got, err := json.Marshal(txRelayResult{tx})
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	require.Equal(t, string(want), string(txRelayResult{tx}.appendJSON(nil)))
}
