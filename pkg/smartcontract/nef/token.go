package nef

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
	"github.com/n3d-io/n3d/pkg/util"
)

// MaxMethodLength is the longest method name of a MethodToken, in bytes.
const MaxMethodLength = 32

// MethodToken names a method of another contract that the script calls
// statically (CALLT).
type MethodToken struct {
	Hash       util.Uint160
	Method     string
	ParamCount uint16
	HasReturn  bool
	CallFlag   callflag.CallFlag
}

// Validate applies the reference's checks: method name of valid UTF-8, at
// most 32 bytes, not starting with '_'; call flags within All.
func (t *MethodToken) Validate() error {
	switch {
	case len(t.Method) > MaxMethodLength:
		return fmt.Errorf("%w: method name of %d bytes", ErrInvalidMethod, len(t.Method))
	case !utf8.ValidString(t.Method):
		return fmt.Errorf("%w: method name is not UTF-8", ErrInvalidMethod)
	case strings.HasPrefix(t.Method, "_"):
		return fmt.Errorf("%w: method %q starts with '_'", ErrInvalidMethod, t.Method)
	case !t.CallFlag.IsValid():
		return fmt.Errorf("%w: call flags %d", ErrInvalidMethod, t.CallFlag)
	}
	return nil
}

// EncodeBinary implements io.Encodable.
func (t *MethodToken) EncodeBinary(w *io.BinWriter) {
	w.WriteBytes(t.Hash[:])
	w.WriteString(t.Method)
	w.WriteU16LE(t.ParamCount)
	w.WriteBool(t.HasReturn)
	w.WriteU8(byte(t.CallFlag))
}

// DecodeBinary implements io.Decodable with the reference's checks.
func (t *MethodToken) DecodeBinary(r *io.BinReader) {
	r.ReadBytes(t.Hash[:])
	t.Method = r.ReadString(MaxMethodLength)
	t.ParamCount = r.ReadU16LE()
	t.HasReturn = readStrictBool(r)
	t.CallFlag = callflag.CallFlag(r.ReadU8())
	if r.Err == nil {
		r.Err = t.Validate()
	}
}

// readStrictBool reads a byte that must be 0 or 1.
func readStrictBool(r *io.BinReader) bool {
	b := r.ReadU8()
	if b > 1 && r.Err == nil {
		r.Err = fmt.Errorf("%w: boolean byte %d", ErrInvalidMethod, b)
	}
	return b == 1
}

// size returns the encoded size of the token.
func (t *MethodToken) size() int {
	return util.Uint160Size + io.GetVarSize(len(t.Method)) + len(t.Method) + 2 + 1 + 1
}

// appendJSON writes the token as the reference prints it.
func (t *MethodToken) appendJSON(buf []byte) []byte {
	buf = append(buf, `{"hash":`...)
	buf = neojson.AppendString(buf, t.Hash.String())
	buf = append(buf, `,"method":`...)
	buf = neojson.AppendString(buf, t.Method)
	buf = append(buf, `,"paramcount":`...)
	buf = neojson.AppendNumber(buf, float64(t.ParamCount))
	buf = append(buf, `,"hasreturnvalue":`...)
	if t.HasReturn {
		buf = append(buf, "true"...)
	} else {
		buf = append(buf, "false"...)
	}
	buf = append(buf, `,"callflags":`...)
	buf = neojson.AppendString(buf, t.CallFlag.String())
	return append(buf, '}')
}

// MarshalJSON implements json.Marshaler.
func (t MethodToken) MarshalJSON() ([]byte, error) { return t.appendJSON(nil), nil }

type tokenJSON struct {
	Hash       util.Uint160      `json:"hash"`
	Method     string            `json:"method"`
	ParamCount uint16            `json:"paramcount"`
	HasReturn  bool              `json:"hasreturnvalue"`
	CallFlag   callflag.CallFlag `json:"callflags"`
}

// UnmarshalJSON implements json.Unmarshaler and validates the token.
func (t *MethodToken) UnmarshalJSON(data []byte) error {
	var aux tokenJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	*t = MethodToken(aux)
	return t.Validate()
}
