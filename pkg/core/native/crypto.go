package native

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/crypto/bls12381"
	"github.com/n3d-io/n3d/pkg/crypto/ecdsa"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/murmur"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Crypto is the CryptoLib native contract: hashes, signature checks and
// BLS12-381 arithmetic, thin adapters over pkg/crypto. It has no storage.
type Crypto struct {
	md *ContractMD
}

var _ Contract = (*Crypto)(nil)

// NewCrypto returns the CryptoLib contract.
func NewCrypto() *Crypto {
	c := &Crypto{md: NewContractMD(CryptoLibName, CryptoLibID, protocol.HFDefault)}
	p := manifest.NewParameter
	const (
		bytes = smartcontract.ByteArrayType
		intT  = smartcontract.IntegerType
		boolT = smartcontract.BoolType
		iface = smartcontract.InteropInterfaceType
	)
	add := func(name string, ret smartcontract.ParamType, fee int64, from, till protocol.Hardfork, h Handler, ps ...manifest.Parameter) {
		c.md.AddMethod(Method{Name: name, Params: ps, Return: ret, CPUFee: fee, From: from, Till: till, Handler: h})
	}
	add("sha256", bytes, 1<<15, 0, 0, hashMethod(sha256Sum), p("data", bytes))
	add("ripemd160", bytes, 1<<15, 0, 0, hashMethod(ripemd160Sum), p("data", bytes))
	add("murmur32", bytes, 1<<13, 0, 0, cryptoMurmur32, p("data", bytes), p("seed", intT))
	add("keccak256", bytes, 1<<15, protocol.HFCockatrice, 0, hashMethod(keccak256Sum), p("data", bytes))
	ecdsaParams := func(last string) []manifest.Parameter {
		return []manifest.Parameter{p("message", bytes), p("pubkey", bytes), p("signature", bytes), p(last, intT)}
	}
	add("verifyWithECDsa", boolT, 1<<15, 0, protocol.HFCockatrice, verifyECDsa(ecdsa.VariantPreCockatrice), ecdsaParams("curve")...)
	add("verifyWithECDsa", boolT, 1<<15, protocol.HFCockatrice, protocol.HFGorgon, verifyECDsa(ecdsa.VariantCockatrice), ecdsaParams("curveHash")...)
	add("verifyWithECDsa", boolT, 1<<15, protocol.HFGorgon, 0, verifyECDsa(ecdsa.VariantGorgon), ecdsaParams("curveHash")...)
	edParams := []manifest.Parameter{p("message", bytes), p("pubkey", bytes), p("signature", bytes)}
	add("verifyWithEd25519", boolT, 1<<15, protocol.HFEchidna, protocol.HFGorgon, verifyEd25519(ecdsa.VariantCockatrice), edParams...)
	add("verifyWithEd25519", boolT, 1<<15, protocol.HFGorgon, 0, verifyEd25519(ecdsa.VariantGorgon), edParams...)
	add("recoverSecp256K1", bytes, 1<<15, protocol.HFEchidna, 0, cryptoRecoverSecp256k1, p("messageHash", bytes), p("signature", bytes))
	add("bls12381Serialize", bytes, 1<<19, 0, 0, blsSerialize, p("g", iface))
	add("bls12381Deserialize", iface, 1<<19, 0, 0, blsDeserialize, p("data", bytes))
	add("bls12381Equal", boolT, 1<<5, 0, 0, blsEqual, p("x", iface), p("y", iface))
	add("bls12381Add", iface, 1<<19, 0, 0, blsAdd, p("x", iface), p("y", iface))
	add("bls12381Mul", iface, 1<<21, 0, 0, blsMul, p("x", iface), p("mul", bytes), p("neg", boolT))
	add("bls12381Pairing", iface, 1<<23, 0, 0, blsPairing, p("g1", iface), p("g2", iface))
	c.md.Seal()
	return c
}

// Metadata implements Contract.
func (c *Crypto) Metadata() *ContractMD { return c.md }

// Initialize implements Contract: CryptoLib has no state.
func (c *Crypto) Initialize(*interop.Context, protocol.Hardfork) error { return nil }

// OnPersist implements Contract.
func (c *Crypto) OnPersist(*interop.Context) error { return nil }

// PostPersist implements Contract.
func (c *Crypto) PostPersist(*interop.Context) error { return nil }

// hashMethod adapts a one-argument hash function to a native handler.
func hashMethod(sum func([]byte) []byte) Handler {
	return func(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
		b, err := argBytes(args[0])
		if err != nil {
			return nil, err
		}
		return stackitem.ByteString(sum(b)), nil
	}
}

func sha256Sum(b []byte) []byte    { return hash.Sha256(b).BytesLE() }
func ripemd160Sum(b []byte) []byte { return hash.RipeMD160(b).BytesLE() }

func keccak256Sum(b []byte) []byte {
	h := ecdsa.KeccakSum256(b)
	return h[:]
}

func cryptoMurmur32(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := argBytes(args[0])
	if err != nil {
		return nil, err
	}
	seed, err := argUint32(args[1])
	if err != nil {
		return nil, err
	}
	h := murmur.Sum32LE(b, seed)
	return stackitem.ByteString(h[:]), nil
}

// argSignedMessage extracts the message, public key and signature that
// lead the arguments of the verifyWith* methods.
func argSignedMessage(args []stackitem.Item) ([3][]byte, error) {
	var bs [3][]byte
	for i := range bs {
		b, err := argBytes(args[i])
		if err != nil {
			return bs, err
		}
		bs[i] = b
	}
	return bs, nil
}

func verifyECDsa(v ecdsa.Variant) Handler {
	return func(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
		bs, err := argSignedMessage(args)
		if err != nil {
			return nil, err
		}
		ch, err := argUint8(args[3])
		if err != nil {
			return nil, err
		}
		ok, err := ecdsa.Verify(v, bs[0], bs[1], bs[2], ecdsa.CurveHash(ch))
		if err != nil {
			return nil, ecdsaError(err, bs[1], bs[2])
		}
		return stackitem.Bool(ok), nil
	}
}

func verifyEd25519(v ecdsa.Variant) Handler {
	return func(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
		bs, err := argSignedMessage(args)
		if err != nil {
			return nil, err
		}
		ok, err := ecdsa.VerifyEd25519(v, bs[0], bs[1], bs[2])
		if err != nil {
			return nil, ecdsaError(err, bs[1], bs[2])
		}
		return stackitem.Bool(ok), nil
	}
}

func cryptoRecoverSecp256k1(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := argBytes(args[0])
	if err != nil {
		return nil, err
	}
	sig, err := argBytes(args[1])
	if err != nil {
		return nil, err
	}
	pub, ok := ecdsa.RecoverSecp256k1(h, sig)
	if !ok {
		return stackitem.Null{}, nil
	}
	return stackitem.ByteString(pub), nil
}

// argPoint extracts a BLS12-381 value from an interop item; notPoint
// words an interop that holds something else (as the reference Go node
// does for the method).
func argPoint(it stackitem.Item, notPoint string) (bls12381.Point, error) {
	in, ok := it.(*stackitem.Interop)
	if !ok {
		return nil, interop.Faultf(ErrInvalidArgument, "interface conversion: stackitem.Item is %s, not *stackitem.Interop", stackitem.GoType(it))
	}
	pt, ok := in.Value().(bls12381.Point)
	if !ok {
		return nil, interop.Fault(ErrInvalidArgument, notPoint)
	}
	return pt, nil
}

// argPointPair extracts the two BLS12-381 values that lead args.
func argPointPair(args []stackitem.Item) (x, y bls12381.Point, err error) {
	const notPoint = "some of the arguments are not a bls12381 point"
	if x, err = argPoint(args[0], notPoint); err != nil {
		return nil, nil, err
	}
	if y, err = argPoint(args[1], notPoint); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func pointItem(pt bls12381.Point, err error) (stackitem.Item, error) {
	if err != nil {
		return nil, err
	}
	return stackitem.NewInterop(pt), nil
}

func blsSerialize(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	pt, err := argPoint(args[0], "not a bls12381 point")
	if err != nil {
		return nil, err
	}
	b, err := bls12381.Serialize(pt)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(b), nil
}

func blsDeserialize(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := argBytes(args[0])
	if err != nil {
		return nil, err
	}
	pt, err := bls12381.Deserialize(b)
	if errors.Is(err, bls12381.ErrInvalidLength) {
		return nil, vm.Fault(err, "invalid bls12381 point length", nil)
	}
	return pointItem(pt, err)
}

func blsEqual(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	x, y, err := argPointPair(args)
	if err != nil {
		return nil, err
	}
	ok, err := bls12381.Equal(x, y)
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(ok), nil
}

func blsAdd(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	x, y, err := argPointPair(args)
	if err != nil {
		return nil, err
	}
	return pointItem(bls12381.Add(x, y))
}

func blsMul(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	x, err := argPoint(args[0], "multiplier is not a bls12381 point")
	if err != nil {
		return nil, err
	}
	mul, err := argBytes(args[1])
	if err != nil {
		return nil, err
	}
	neg, err := argBool(args[2])
	if err != nil {
		return nil, err
	}
	return pointItem(bls12381.Mul(x, mul, neg))
}

func blsPairing(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	g1, g2, err := argPointPair(args)
	if err != nil {
		return nil, err
	}
	return pointItem(bls12381.Pairing(g1, g2))
}

// ecdsaError words a signature check failure as the reference Go node's
// CryptoLib does.
func ecdsaError(err error, pub, sig []byte) error {
	var text string
	switch {
	case errors.Is(err, ecdsa.ErrUnsupportedCurveHash):
		text = "invalid curveHash stackitem: unsupported operation: unknown curve/hash"
	case errors.Is(err, ecdsa.ErrPublicKeyFormat), errors.Is(err, ecdsa.ErrPublicKeyRange),
		errors.Is(err, ecdsa.ErrPublicKeyNoPoint), errors.Is(err, ecdsa.ErrPublicKeyNotOnCurve):
		text = "failed to decode pubkey: " + interop.PublicKeyError(pub, err).Error()
	case errors.Is(err, ecdsa.ErrSignatureLength), errors.Is(err, ecdsa.ErrEd25519SignatureLength):
		text = fmt.Sprintf("invalid signature length: expected 64, got %d", len(sig))
	case errors.Is(err, ecdsa.ErrEd25519PublicKeyLength):
		text = fmt.Sprintf("invalid pubkey length: expected 32, got %d", len(pub))
	default:
		return err
	}
	return vm.Fault(err, text, nil)
}
