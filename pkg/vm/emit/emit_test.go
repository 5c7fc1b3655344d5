package emit

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

func TestIntForms(t *testing.T) {
	for _, n := range []int64{-1, 0, 16, 17, -2, 127, 128, -129, 1 << 20, 1 << 40, -1 << 62} {
		s, err := NewBuilder().Int(n).Script()
		require.NoError(t, err)
		if n >= -1 && n <= 16 {
			require.Equal(t, []byte{byte(int64(opcode.PUSH0) + n)}, s)
			continue
		}
		size, _ := opcode.OperandSize(opcode.Opcode(s[0]))
		require.Len(t, s, 1+size)
		require.Equal(t, n, bigint.FromBytes(s[1:]).Int64())
	}
	big256 := new(big.Int).Lsh(big.NewInt(1), 254)
	s, err := NewBuilder().BigInt(big256).Script()
	require.NoError(t, err)
	require.Equal(t, byte(opcode.PUSHINT256), s[0])
	_, err = NewBuilder().BigInt(new(big.Int).Lsh(big.NewInt(1), 256)).Script()
	require.ErrorIs(t, err, ErrTooBig)
}

func TestBytesAndSyscall(t *testing.T) {
	s, err := NewBuilder().Bytes(make([]byte, 300)).Script()
	require.NoError(t, err)
	require.Equal(t, []byte{byte(opcode.PUSHDATA2), 0x2c, 0x01}, s[:3])
	// Transactions of the reference chain (conformance/chains/testblocks)
	// call contracts with the bytes 41 62 7d 5b 52.
	s, err = NewBuilder().Syscall("System.Contract.Call").Script()
	require.NoError(t, err)
	require.Equal(t, []byte{0x41, 0x62, 0x7d, 0x5b, 0x52}, s)
	_, err = NewBuilder().Jump(opcode.JMP, 200).Script()
	require.ErrorIs(t, err, ErrOperand)
}
