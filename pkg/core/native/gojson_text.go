package native

import (
	"errors"

	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
)

// Go's encoding/json texts for truncated input, which the reference Go
// node's FAULT texts carry: json.Unmarshal's, and a json.Decoder's at a
// token boundary and inside a token.
const (
	goJSONUnexpectedEnd = "unexpected end of JSON input"
	goJSONStreamEOF     = "EOF"
	goJSONStreamMidEOF  = "unexpected EOF"
)

// goJSONText is the text the reference Go node gives err, a JSON parse
// error, when it is one it words differently from n3d (the input ended
// before the value): stream selects a json.Decoder's texts
// (jsonDeserialize) over json.Unmarshal's (manifests). ok is false for
// every other error, whose n3d text stays.
func goJSONText(err error, stream bool) (text string, ok bool) {
	var se *neojson.SyntaxError
	if !errors.As(err, &se) || !se.AtEnd {
		return "", false
	}
	switch {
	case !stream && se.InToken && se.Msg != "unterminated string":
		// json.Unmarshal names the character its scanner expected in a
		// cut literal, number or escape: not worded here.
		return "", false
	case !stream:
		return goJSONUnexpectedEnd, true
	case se.InToken:
		return goJSONStreamMidEOF, true
	default:
		return goJSONStreamEOF, true
	}
}
