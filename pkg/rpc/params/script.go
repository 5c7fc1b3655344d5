package params

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/encoding/base58"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// MaxParamDepth bounds the nesting of Array and Map function parameters.
const MaxParamDepth = 32

// Errors of the script builders.
var (
	ErrParamType   = fmt.Errorf("%w: parameter type", errors.ErrUnsupported) // neo-go's text
	ErrParamDepth  = errors.New("params: parameters nested too deep")
	ErrTooManySigs = errors.New("too many signers") // neo-go's text
)

// FuncParam is a typed function argument: {"type":"Integer","value":"1"}.
type FuncParam struct {
	Type  smartcontract.ParamType `json:"type"`
	Value Param                   `json:"value"`
}

// FuncParamKV is one entry of a Map argument.
type FuncParamKV struct {
	Key   FuncParam `json:"key"`
	Value FuncParam `json:"value"`
}

// GetFuncParam parses a typed function argument.
func (p *Param) GetFuncParam() (FuncParam, error) {
	if p == nil {
		return FuncParam{}, ErrMissing
	}
	var fp FuncParam
	err := json.Unmarshal(p.RawMessage, &fp)
	return fp, err
}

// emitParam pushes one typed argument as the reference's RPC server does.
func emitParam(b *emit.Builder, fp FuncParam, depth int) error {
	if depth > MaxParamDepth {
		return ErrParamDepth
	}
	v := &fp.Value
	switch fp.Type {
	case smartcontract.ByteArrayType, smartcontract.SignatureType:
		data, err := v.GetBytesBase64()
		if err != nil {
			return err
		}
		b.Bytes(data)
	case smartcontract.StringType:
		s, err := v.GetString()
		if err != nil {
			return err
		}
		b.String(s)
	case smartcontract.Hash160Type:
		h, err := v.GetUint160FromHex()
		if err != nil {
			return err
		}
		b.Bytes(h.BytesLE())
	case smartcontract.Hash256Type:
		h, err := v.GetUint256()
		if err != nil {
			return err
		}
		b.Bytes(h.BytesLE())
	case smartcontract.PublicKeyType:
		s, err := v.GetString()
		if err != nil {
			return err
		}
		k, err := keys.NewPublicKeyFromString(s)
		if err != nil {
			return err
		}
		b.Bytes(k.Bytes())
	case smartcontract.IntegerType:
		n, err := v.GetBigInt()
		if err != nil {
			return err
		}
		b.BigInt(n)
	case smartcontract.BoolType:
		t, err := v.GetBoolean()
		if err != nil {
			return err
		}
		b.Bool(t)
	case smartcontract.ArrayType:
		a, err := v.GetArray()
		if err != nil {
			return err
		}
		return emitArray(b, a, depth+1)
	case smartcontract.MapType:
		a, err := v.GetArray()
		if err != nil {
			return err
		}
		return emitMap(b, a, depth+1)
	case smartcontract.AnyType:
		if len(v.RawMessage) == 0 || v.IsNull() {
			b.Null()
		}
	default:
		return fmt.Errorf("%w %s", ErrParamType, fp.Type)
	}
	return b.Err()
}

// emitArgs pushes the arguments last first, so the first ends on top.
func emitArgs(b *emit.Builder, args []Param, depth int) error {
	for i := len(args) - 1; i >= 0; i-- {
		fp, err := args[i].GetFuncParam()
		if err != nil {
			return fmt.Errorf("param %d: %w", i, err)
		}
		if err := emitParam(b, fp, depth); err != nil {
			return fmt.Errorf("param %d: %w", i, err)
		}
	}
	return b.Err()
}

func emitArray(b *emit.Builder, args []Param, depth int) error {
	if len(args) == 0 {
		b.Opcodes(opcode.NEWARRAY0)
		return b.Err()
	}
	if err := emitArgs(b, args, depth); err != nil {
		return err
	}
	b.Int(int64(len(args))).Opcodes(opcode.PACK)
	return b.Err()
}

func emitMap(b *emit.Builder, kvs []Param, depth int) error {
	if len(kvs) == 0 {
		b.Opcodes(opcode.NEWMAP)
		return b.Err()
	}
	for i := len(kvs) - 1; i >= 0; i-- {
		var kv FuncParamKV
		if err := json.Unmarshal(kvs[i].RawMessage, &kv); err != nil {
			return fmt.Errorf("map entry %d: %w", i, err)
		}
		if err := emitParam(b, kv.Value, depth); err != nil {
			return fmt.Errorf("map value %d: %w", i, err)
		}
		if err := emitParam(b, kv.Key, depth); err != nil {
			return fmt.Errorf("map key %d: %w", i, err)
		}
	}
	b.Int(int64(len(kvs))).Opcodes(opcode.PACKMAP)
	return b.Err()
}

// FunctionScript builds the invokefunction script: the arguments packed
// in an array (NEWARRAY0 without args), CallFlags All, the method, the
// contract, System.Contract.Call.
func FunctionScript(contract util.Uint160, method string, args *Param) ([]byte, error) {
	b := emit.NewBuilder()
	if args == nil {
		b.Opcodes(opcode.NEWARRAY0)
	} else {
		a, err := args.GetArray()
		if err != nil {
			return nil, wording(fmt.Sprintf("failed to convert %s to script parameter", args.text()), err)
		}
		if err := emitArray(b, a, 0); err != nil {
			return nil, err
		}
	}
	b.Int(int64(callflag.All)).String(method).Bytes(contract.BytesLE()).Syscall("System.Contract.Call")
	return b.Script()
}

// ArgsScript pushes the arguments without packing them (the invocation
// script of invokecontractverify).
func ArgsScript(args []Param) ([]byte, error) {
	b := emit.NewBuilder()
	if err := emitArgs(b, args, 0); err != nil {
		return nil, err
	}
	return b.Script()
}

// signerJSON is a signer with an optional witness, as RPC calls take it.
type signerJSON struct {
	Account          string                    `json:"account"`
	Scopes           json.RawMessage           `json:"scopes"`
	AllowedContracts []util.Uint160            `json:"allowedcontracts"`
	AllowedGroups    []transaction.ECPoint     `json:"allowedgroups"`
	Rules            []transaction.WitnessRule `json:"rules"`
	Invocation       []byte                    `json:"invocation"`
	Verification     []byte                    `json:"verification"`
}

func (p *Param) signerWithWitness() (transaction.Signer, transaction.Witness, error) {
	var aux signerJSON
	if err := json.Unmarshal(p.RawMessage, &aux); err != nil {
		return transaction.Signer{}, transaction.Witness{}, fmt.Errorf("not a signer: not a signer: %w", err)
	}
	if len(aux.AllowedContracts) > transaction.MaxSubitems || len(aux.AllowedGroups) > transaction.MaxSubitems ||
		len(aux.Rules) > transaction.MaxSubitems {
		return transaction.Signer{}, transaction.Witness{}, errors.New("not a signer: too many subitems")
	}
	acc, err := util.Uint160DecodeStringBE(strings.TrimPrefix(aux.Account, "0x"))
	if err != nil {
		if acc, err = address.StringToUint160(aux.Account); err != nil {
			return transaction.Signer{}, transaction.Witness{}, wording(
				"not a signer: not a signer: "+addressErrorText(aux.Account, err), err)
		}
	}
	s := transaction.Signer{Account: acc, AllowedContracts: aux.AllowedContracts,
		AllowedGroups: aux.AllowedGroups, Rules: aux.Rules}
	if len(aux.Scopes) != 0 {
		var str string
		var num byte
		switch {
		case json.Unmarshal(aux.Scopes, &str) == nil:
			if s.Scopes, err = transaction.ScopesFromString(str); err != nil {
				return transaction.Signer{}, transaction.Witness{}, wording(
					"not a signer: failed to retrieve scopes from string: invalid witness scope: "+str, err)
			}
		case json.Unmarshal(aux.Scopes, &num) == nil:
			s.Scopes = transaction.WitnessScope(num)
			if err := s.Scopes.Validate(); err != nil {
				return transaction.Signer{}, transaction.Witness{}, fmt.Errorf("not a signer: %w", err)
			}
		default:
			return transaction.Signer{}, transaction.Witness{}, errors.New("not a signer: bad scopes")
		}
	}
	return s, transaction.Witness{InvocationScript: aux.Invocation, VerificationScript: aux.Verification}, nil
}

// GetSignersWithWitnesses parses the signers of a test invocation: an
// array of script hashes (CalledByEntry each) or of signer objects
// ({"account","scopes","allowedcontracts","allowedgroups","rules",
// "invocation","verification"}).
func (p *Param) GetSignersWithWitnesses() ([]transaction.Signer, []transaction.Witness, error) {
	items, err := p.GetArray()
	if err != nil {
		return nil, nil, err
	}
	if len(items) > transaction.MaxAttributes {
		return nil, nil, ErrTooManySigs
	}
	signers := make([]transaction.Signer, len(items))
	witnesses := make([]transaction.Witness, len(items))
	allHashes := true
	for i := range items {
		u, err := items[i].GetUint160FromHex()
		if err != nil {
			allHashes = false
			break
		}
		signers[i] = transaction.Signer{Account: u, Scopes: transaction.CalledByEntry}
	}
	if allHashes {
		return signers, witnesses, nil
	}
	for i := range items {
		if signers[i], witnesses[i], err = items[i].signerWithWitness(); err != nil {
			return nil, nil, err
		}
	}
	return signers, witnesses, nil
}

// wordedError is an error worded as neo-go's answer, the cause kept for
// errors.Is.
type wordedError struct {
	text string
	err  error
}

func wording(text string, err error) error { return &wordedError{text: text, err: err} }

func (e *wordedError) Error() string { return e.text }

func (e *wordedError) Unwrap() error { return e.err }

// text is the parameter as neo-go prints it in errors: its string form,
// empty when it has none.
func (p *Param) text() string {
	s, _ := p.GetString()
	return s
}

// addressErrorText words a failed address decoding as neo-go's decoder
// (its base58 package over the same base58 library) does.
func addressErrorText(s string, err error) string {
	switch {
	case errors.Is(err, base58.ErrTooShort):
		return "invalid base-58 check string: missing checksum"
	case errors.Is(err, base58.ErrChecksum):
		return "invalid base-58 check string: invalid checksum"
	}
	b, derr := base58.CheckDecode(s)
	switch {
	case derr != nil: // the base58 library's own error, unwrapped
		for u := errors.Unwrap(derr); u != nil; u = errors.Unwrap(u) {
			derr = u
		}
		return derr.Error()
	case len(b) > 0 && b[0] != address.NEO3Prefix:
		return "wrong address prefix"
	}
	return err.Error()
}
