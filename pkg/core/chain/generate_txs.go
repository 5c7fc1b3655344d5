package chain

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// Amounts the setup block gives every workload account.
const (
	setupNEO = 1_000_000
	setupGAS = 100_000 * 1_0000_0000 // datoshi
)

// overwriteKeys is the number of keys the overwriting storage writes
// cycle through.
const overwriteKeys = 64

var (
	neoHash        = smartcontract.CreateNativeContractHash(native.NeoName)
	gasHash        = smartcontract.CreateNativeContractHash(native.GasName)
	managementHash = smartcontract.CreateNativeContractHash(native.ManagementName)
)

// transferCall emits token.transfer(from, to, amount, null) followed by
// ASSERT (the transfer must succeed).
func transferCall(b *emit.Builder, token, from, to util.Uint160, amount *big.Int) {
	b.AppCall(token, "transfer", byte(callflag.All), from, to, amount, nil).Opcodes(opcode.ASSERT)
}

// setupScript moves NEO and GAS from the validators' account to every
// workload account.
func (g *generator) setupScript() ([]byte, error) {
	b := emit.NewBuilder()
	for _, u := range g.users {
		transferCall(b, neoHash, g.bft.hash, u.hash, big.NewInt(setupNEO))
		transferCall(b, gasHash, g.bft.hash, u.hash, big.NewInt(setupGAS))
	}
	return b.Script()
}

// storageContract is the workload's contract: put(key, value) writes an
// item of its storage, get(key) reads one. Arguments arrive on the
// evaluation stack with the first on top, as Storage.Put and Storage.Get
// take them after the context.
func storageContract() (*nef.File, *manifest.Manifest, error) {
	b := emit.NewBuilder()
	b.Syscall(interop.StorageGetContext).Syscall(interop.StoragePut).Opcodes(opcode.RET)
	getOffset := b.Len()
	b.Syscall(interop.StorageGetReadOnlyContext).Syscall(interop.StorageGet).Opcodes(opcode.RET)
	script, err := b.Script()
	if err != nil {
		return nil, nil, err
	}
	f, err := nef.NewFile("n3d-generate", "", nil, script)
	if err != nil {
		return nil, nil, err
	}
	m := manifest.NewManifest("N3dGenerateStorage")
	bytesT := smartcontract.ByteArrayType
	m.ABI.Methods = []manifest.Method{
		{Name: "put", Parameters: []manifest.Parameter{manifest.NewParameter("key", bytesT),
			manifest.NewParameter("value", bytesT)}, ReturnType: smartcontract.VoidType, Offset: 0},
		{Name: "get", Parameters: []manifest.Parameter{manifest.NewParameter("key", bytesT)},
			ReturnType: bytesT, Offset: getOffset, Safe: true},
	}
	return f, m, nil
}

// deployScript deploys the storage contract from sender and returns its
// hash.
func (g *generator) deployScript(sender util.Uint160) ([]byte, util.Uint160, error) {
	f, m, err := storageContract()
	if err != nil {
		return nil, util.Uint160{}, err
	}
	raw, err := f.Bytes()
	if err != nil {
		return nil, util.Uint160{}, err
	}
	js, err := m.MarshalJSON()
	if err != nil {
		return nil, util.Uint160{}, err
	}
	script, err := emit.NewBuilder().AppCall(managementHash, "deploy", byte(callflag.All), raw, js).
		Opcodes(opcode.DROP).Script()
	return script, smartcontract.CreateContractHash(sender, f.Checksum, m.Name), err
}

// workload returns the next workload transaction's sender and script,
// cycling through a NEO transfer, a GAS transfer, a write of a new storage
// key and an overwrite of one of overwriteKeys keys (before the contract
// is deployed, transfers only).
func (g *generator) workload() (*account, []byte, error) {
	n := g.txCount
	g.txCount++
	k := uint64(len(g.users))
	from := g.users[n%k]
	to := g.users[(n+1+n/k%(k-1))%k] // never from: the offset is 1..k-1
	kind := n % 4
	if g.contract.Equals(util.Uint160{}) {
		kind %= 2
	}
	b := emit.NewBuilder()
	switch kind {
	case 0:
		transferCall(b, neoHash, from.hash, to.hash, big.NewInt(int64(1+n%10)))
	case 1:
		transferCall(b, gasHash, from.hash, to.hash, big.NewInt(int64(1_0000_0000+n)))
	default:
		var key []byte
		if kind == 2 {
			key = binary.BigEndian.AppendUint64([]byte("n"), n)
		} else {
			key = binary.BigEndian.AppendUint64([]byte("o"), n%overwriteKeys)
		}
		value := sha256.Sum256(fmt.Appendf(nil, "value %d", n))
		b.AppCall(g.contract, "put", byte(callflag.All), key, value[:8+n%24])
	}
	script, err := b.Script()
	return from, script, err
}
