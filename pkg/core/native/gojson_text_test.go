package native

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
)

// goDecoderErr is the error the reference Go node's jsonDeserialize meets
// on data: the first error of reading every token with a json.Decoder.
func goDecoderErr(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := d.Token(); err != nil {
			return err
		}
	}
}

// TestGoJSONTextTruncated checks truncated inputs read as Go's
// encoding/json words them, for json.Unmarshal and a json.Decoder.
func TestGoJSONTextTruncated(t *testing.T) {
	for _, in := range []string{`{`, `[`, `[1,`, `{"a"`, `{"a":`, `{"ab`, `[tru`, `[-`, `[1.`, `["\`, `["\u00`, ` `} {
		_, err := neojson.Parse([]byte(in), neojson.DefaultMaxDepth)
		require.Error(t, err, in)
		if text, ok := goJSONText(err, false); ok {
			require.EqualError(t, json.Unmarshal([]byte(in), new(any)), text, in)
		}
		text, ok := goJSONText(err, true)
		require.True(t, ok, in)
		require.EqualError(t, goDecoderErr([]byte(in)), text, in)
	}
	for _, in := range []string{`{`, `[1,`, `{"a":`, `{"ab`} {
		_, err := neojson.Parse([]byte(in), neojson.DefaultMaxDepth)
		_, ok := goJSONText(err, false)
		require.True(t, ok, in)
	}
	// Other errors keep n3d's text.
	for _, in := range []string{`{1}`, `[1]]`, `nul!`} {
		_, err := neojson.Parse([]byte(in), neojson.DefaultMaxDepth)
		require.Error(t, err, in)
		_, ok := goJSONText(err, true)
		require.False(t, ok, in)
	}
	_, ok := goJSONText(errors.New("x"), true)
	require.False(t, ok)
	require.ErrorIs(t, goDecoderErr(nil), io.EOF)
}
