package txbuild

import (
	"errors"
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
