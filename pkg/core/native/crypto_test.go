package native

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// Expected values: the C# reference's unit tests (UT_CryptoLib.cs,
// UT_Murmur32.cs) and, for the BLS values, the vectors pkg/crypto/bls12381
// took from them.

func TestCryptoHashes(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	h := e.core.Crypto.Metadata().Hash
	got := e.mustCall(h, "keccak256", []byte("Hello, World!"))
	require.Equal(t, "acaf3289d7b601cbd114fb36c4d29c85bbfd5e133f14cb355c3fd8d99367964f", hex.EncodeToString([]byte(itemString(t, got))))

	got = e.mustCall(h, "murmur32", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1}, 10)
	require.Equal(t, binary.LittleEndian.AppendUint32(nil, 378574820), []byte(itemString(t, got)))

	data := []byte("n3d")
	sha := hash.Sha256(data)
	require.Equal(t, sha[:], []byte(itemString(t, e.mustCall(h, "sha256", data))))
	rmd := hash.RipeMD160(data)
	require.Equal(t, rmd[:], []byte(itemString(t, e.mustCall(h, "ripemd160", data))))

	// The seed is a uint and the curve hash a byte: out of range FAULTs.
	_, err := e.call(h, "murmur32", data, -1)
	require.Error(t, err)
	_, err = e.call(h, "verifyWithECDsa", data, []byte{2}, make([]byte, 64), 256)
	require.Error(t, err)
	// recoverSecp256K1 answers Null for malformed input.
	require.Equal(t, stackitem.Null{}, e.mustCall(h, "recoverSecp256K1", make([]byte, 32), make([]byte, 10)))
}

func TestCryptoHardforkMethods(t *testing.T) {
	e := newEnv(t, protocol.HFBasilisk)
	h := e.core.Crypto.Metadata().Hash
	_, err := e.call(h, "keccak256", []byte{1})
	require.Error(t, err, "keccak256 exists from Cockatrice")
	_, err = e.call(h, "recoverSecp256K1", make([]byte, 32), make([]byte, 65))
	require.Error(t, err, "recoverSecp256K1 exists from Echidna")
}

func TestCryptoBLS(t *testing.T) {
	var raw map[string]any
	b, err := os.ReadFile(filepath.Join("..", "..", "crypto", "bls12381", "testdata", "reference_vectors.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &raw))
	vec := map[string]string{}
	for k, v := range raw {
		if s, ok := v.(string); ok {
			vec[k] = s
		}
	}
	e := newEnv(t, protocol.HFEchidna)
	h := e.core.Crypto.Metadata().Hash
	g1, _ := hex.DecodeString(vec["g1"])
	g2, _ := hex.DecodeString(vec["g2"])

	// pairing(deserialize(g1), deserialize(g2)) serialized, in one script
	// (interop values cannot leave the VM).
	sb := emit.NewBuilder()
	sb.AppCall(h, "bls12381Deserialize", byte(callflag.All), g2)
	sb.AppCall(h, "bls12381Deserialize", byte(callflag.All), g1)
	sb.Int(2).Opcodes(0xC0) // PACK
	sb.Int(15).Bytes([]byte("bls12381Pairing")).Bytes(h[:])
	sb.Syscall("System.Contract.Call")
	sb.Int(1).Opcodes(0xC0)
	sb.Int(15).Bytes([]byte("bls12381Serialize")).Bytes(h[:])
	sb.Syscall("System.Contract.Call")
	ic := e.run(trigger.Application, &block.Block{Header: block.Header{Index: 1}}, mustScript(t, sb))
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
	items := ic.VM().ResultStack().Items()
	require.Len(t, items, 1)
	require.Equal(t, vec["pairing_g1_g2"], hex.EncodeToString([]byte(itemString(t, items[0]))))

	_, err = e.call(h, "bls12381Deserialize", []byte{1, 2, 3})
	require.Error(t, err)
	_, err = e.call(h, "bls12381Serialize", []byte{1})
	require.Error(t, err, "a byte string is not a point")
}

// TestCryptoGorgonStrictInputs: from Gorgon verifyWithECDsa and
// verifyWithEd25519 reject malformed sizes with an exception instead of
// returning false (reference CryptoLib V2/V1 methods: Crypto.VerifySignature
// throws on a signature that is not 64 bytes, Ed25519 on a signature
// not of 64 or a key not of 32 bytes).
func TestCryptoGorgonStrictInputs(t *testing.T) {
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	pub := k.PublicKey().Bytes()
	const secp256r1SHA256 = 23
	for _, c := range []struct {
		upTo   protocol.Hardfork
		strict bool
	}{{protocol.HFFaun, false}, {protocol.HFGorgon, true}} {
		e := newEnv(t, c.upTo)
		h := e.core.Crypto.Metadata().Hash
		for _, args := range [][]any{
			{"verifyWithECDsa", []byte("m"), pub, make([]byte, 63), secp256r1SHA256},
			{"verifyWithEd25519", []byte("m"), make([]byte, 32), make([]byte, 63)},
			{"verifyWithEd25519", []byte("m"), make([]byte, 31), make([]byte, 64)},
		} {
			res, err := e.call(h, args[0].(string), args[1:]...)
			if c.strict {
				require.Error(t, err, "%s %v", c.upTo, args[0])
			} else {
				require.NoError(t, err, "%s %v", c.upTo, args[0])
				require.Equal(t, stackitem.Bool(false), res)
			}
		}
	}
}
