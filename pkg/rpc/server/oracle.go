package server

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
)

// OracleHandler is the oracle service as submitoracleresponse feeds it
// (pkg/services/oracle's Service, wired by pkg/node): VerifyResponse
// checks the message signature of a submitted response, AddResponse takes
// another oracle node's signature of the response to a request once the
// server has checked it.
type OracleHandler interface {
	VerifyResponse(pub *keys.PublicKey, reqID uint64, txSig, msgSig []byte) bool
	AddResponse(pub *keys.PublicKey, reqID uint64, txSig []byte)
}

// OracleDisabledCode is neo-go's code for an oracle method on a node
// without the oracle service.
const OracleDisabledCode = -602

// errOracleDisabled is neo-go's answer when the oracle service is off.
var errOracleDisabled = &result.Error{Code: OracleDisabledCode, Message: "Oracle service is not running"}

// submitOracleResponse is submitoracleresponse(public key, request id, tx
// signature, message signature), keys and signatures in base64: the
// message signature must be the key's over the oracle's response message; the
// answer is an empty object.
func (s *Server) submitOracleResponse(ps params.Params) (any, *result.Error) {
	if s.cfg.Oracle == nil {
		return nil, errOracleDisabled
	}
	var pub *keys.PublicKey
	pubBytes, err := ps.Value(0).GetBytesBase64()
	if err == nil {
		pub, err = keys.NewPublicKeyFromBytes(pubBytes)
	}
	if err != nil {
		return nil, result.NewInvalidParamsError(fmt.Sprintf("public key is missing: %s", err))
	}
	reqID, err := ps.Value(1).GetInt()
	if err != nil {
		return nil, result.NewInvalidParamsError(fmt.Sprintf("request ID is missing: %s", err))
	}
	txSig, err := ps.Value(2).GetBytesBase64()
	if err != nil {
		return nil, result.NewInvalidParamsError(fmt.Sprintf("tx signature is missing: %s", err))
	}
	msgSig, err := ps.Value(3).GetBytesBase64()
	if err != nil {
		return nil, result.NewInvalidParamsError(fmt.Sprintf("msg signature is missing: %s", err))
	}
	if !s.cfg.Oracle.VerifyResponse(pub, uint64(reqID), txSig, msgSig) {
		return nil, result.ErrInvalidSignature
	}
	s.cfg.Oracle.AddResponse(pub, uint64(reqID), txSig)
	return json.RawMessage("{}"), nil
}
