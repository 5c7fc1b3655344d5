package txbuild

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// Hashes of the native tokens.
var (
	NeoHash = smartcontract.CreateNativeContractHash(native.NeoName)
	GasHash = smartcontract.CreateNativeContractHash(native.GasName)
)

// ErrNoTransfers is a transfer script without transfers.
var ErrNoTransfers = errors.New("txbuild: no transfers")

// Transfer is one NEP-17 transfer; a nil Amount is 0.
type Transfer struct {
	Token  util.Uint160
	From   util.Uint160
	To     util.Uint160
	Amount *big.Int
	Data   any
}

// CallScript calls method of contract with args (all call flags) and
// ASSERTs that it returned true, as neo-go's wallet does.
func CallScript(contract util.Uint160, method string, args ...any) ([]byte, error) {
	return emit.NewBuilder().AppCall(contract, method, byte(callflag.All), args...).
		Opcodes(opcode.ASSERT).Script()
}

// TransferScript makes the NEP-17 transfers one after another, each
// ASSERTed.
func TransferScript(ts []Transfer) ([]byte, error) {
	if len(ts) == 0 {
		return nil, ErrNoTransfers
	}
	b := emit.NewBuilder()
	for _, t := range ts {
		amount := t.Amount
		if amount == nil {
			amount = new(big.Int)
		}
		b.AppCall(t.Token, "transfer", byte(callflag.All), t.From, t.To, amount, t.Data).Opcodes(opcode.ASSERT)
	}
	return b.Script()
}

// NFTTransferScript transfers a non-divisible NEP-11 token (to, id, data).
func NFTTransferScript(token, to util.Uint160, id []byte, data any) ([]byte, error) {
	return CallScript(token, "transfer", to, id, data)
}

// DivisibleNFTTransferScript transfers amount of a divisible NEP-11 token
// (from, to, amount, id, data).
func DivisibleNFTTransferScript(token, from, to util.Uint160, amount *big.Int, id []byte, data any) ([]byte, error) {
	return CallScript(token, "transfer", from, to, amount, id, data)
}

// DefaultMaxIteratorItems bounds what IteratorScript collects (neo-go's
// default for its expanding readers).
const DefaultMaxIteratorItems = 100

// IteratorScript calls method of contract (read-only) with args, which
// returns an iterator, and leaves an Array of its first maxItems values
// instead: the answer of a test run without iterator sessions.
//
//	call                        [iter]
//	NEWARRAY0 SWAP              [arr iter]
//	loop: OVER SIZE max GE JMPIF end
//	      DUP Iterator.Next JMPIFNOT end
//	      DUP Iterator.Value PUSH2 PICK SWAP APPEND
//	      JMP loop
//	end:  DROP                  [arr]
func IteratorScript(contract util.Uint160, method string, maxItems int, args ...any) ([]byte, error) {
	if maxItems <= 0 {
		return nil, fmt.Errorf("txbuild: iterator items limit %d", maxItems)
	}
	head := func(b *emit.Builder) *emit.Builder {
		return b.Opcodes(opcode.OVER, opcode.SIZE).Int(int64(maxItems)).Opcodes(opcode.GE)
	}
	check := func(b *emit.Builder) *emit.Builder {
		return b.Opcodes(opcode.DUP).Syscall("System.Iterator.Next")
	}
	body := func(b *emit.Builder) *emit.Builder {
		return b.Opcodes(opcode.DUP).Syscall("System.Iterator.Value").
			Opcodes(opcode.PUSH2, opcode.PICK, opcode.SWAP, opcode.APPEND)
	}
	const jumpLen = 5 // a _L jump: opcode and a 4-byte offset
	hl, cl, bl := head(emit.NewBuilder()).Len(), check(emit.NewBuilder()).Len(), body(emit.NewBuilder()).Len()
	loopLen := hl + jumpLen + cl + jumpLen + bl + jumpLen
	b := emit.NewBuilder().AppCall(contract, method, byte(callflag.ReadOnly), args...).
		Opcodes(opcode.NEWARRAY0, opcode.SWAP)
	head(b).Jump(opcode.JMPIF_L, loopLen-hl)
	check(b).Jump(opcode.JMPIFNOT_L, loopLen-(hl+jumpLen+cl))
	body(b).Jump(opcode.JMP_L, -(loopLen - jumpLen))
	return b.Opcodes(opcode.DROP).Script()
}
