package transaction

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
)

// MaxOracleResultSize is the reference's bound of an oracle response body.
const MaxOracleResultSize = 0xffff

// OracleResponseCode is the outcome of an oracle request.
type OracleResponseCode byte

// Oracle response codes, as in the reference.
const (
	OracleSuccess                 OracleResponseCode = 0x00
	OracleProtocolNotSupported    OracleResponseCode = 0x10
	OracleConsensusUnreachable    OracleResponseCode = 0x12
	OracleNotFound                OracleResponseCode = 0x14
	OracleTimeout                 OracleResponseCode = 0x16
	OracleForbidden               OracleResponseCode = 0x18
	OracleResponseTooLarge        OracleResponseCode = 0x1a
	OracleInsufficientFunds       OracleResponseCode = 0x1c
	OracleContentTypeNotSupported OracleResponseCode = 0x1f
	OracleError                   OracleResponseCode = 0xff
)

var oracleCodeNames = map[OracleResponseCode]string{
	OracleSuccess:                 "Success",
	OracleProtocolNotSupported:    "ProtocolNotSupported",
	OracleConsensusUnreachable:    "ConsensusUnreachable",
	OracleNotFound:                "NotFound",
	OracleTimeout:                 "Timeout",
	OracleForbidden:               "Forbidden",
	OracleResponseTooLarge:        "ResponseTooLarge",
	OracleInsufficientFunds:       "InsufficientFunds",
	OracleContentTypeNotSupported: "ContentTypeNotSupported",
	OracleError:                   "Error",
}

// IsValid reports whether c is a defined code.
func (c OracleResponseCode) IsValid() bool {
	_, ok := oracleCodeNames[c]
	return ok
}

// String returns the reference's name of the code.
func (c OracleResponseCode) String() string {
	if s, ok := oracleCodeNames[c]; ok {
		return s
	}
	return fmt.Sprintf("%d", byte(c))
}

// OracleResponseCodeFromString parses a code name.
func OracleResponseCodeFromString(s string) (OracleResponseCode, error) {
	for c, n := range oracleCodeNames {
		if n == s {
			return c, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown oracle response code %q", ErrInvalidAttribute, s)
}

// OracleResponse carries the answer to oracle request ID.
type OracleResponse struct {
	ID     uint64
	Code   OracleResponseCode
	Result []byte
}

func (o *OracleResponse) validate() error {
	if !o.Code.IsValid() {
		return fmt.Errorf("%w: oracle response code 0x%02x", ErrInvalidAttribute, byte(o.Code))
	}
	if len(o.Result) > MaxOracleResultSize {
		return fmt.Errorf("%w: oracle result of %d bytes", ErrInvalidAttribute, len(o.Result))
	}
	if o.Code != OracleSuccess && len(o.Result) > 0 {
		return fmt.Errorf("%w: non-empty result with code %s", ErrInvalidAttribute, o.Code)
	}
	return nil
}

// DecodeBinary reads id, code and result; the code must be defined and a
// non-success response must have an empty result.
func (o *OracleResponse) DecodeBinary(r *io.BinReader) {
	o.ID = r.ReadU64LE()
	o.Code = OracleResponseCode(r.ReadU8())
	if r.Err == nil && !o.Code.IsValid() {
		setErr(r, fmt.Errorf("%w: oracle response code 0x%02x", ErrInvalidAttribute, byte(o.Code)))
		return
	}
	o.Result = r.ReadVarBytes(MaxOracleResultSize)
	if r.Err == nil {
		if err := o.validate(); err != nil {
			setErr(r, err)
		}
	}
}

// EncodeBinary writes id, code and result.
func (o *OracleResponse) EncodeBinary(w *io.BinWriter) {
	w.WriteU64LE(o.ID)
	w.WriteU8(byte(o.Code))
	w.WriteVarBytes(o.Result)
}

func (o *OracleResponse) size() int { return 8 + 1 + varBytesSize(len(o.Result)) }
