package opcode

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNamesRoundTrip(t *testing.T) {
	n := 0
	for i := range 256 {
		op := Opcode(i)
		if !op.IsValid() {
			_, err := FromString(op.String())
			require.ErrorIs(t, err, ErrUnknown)
			continue
		}
		n++
		got, err := FromString(op.String())
		require.NoError(t, err)
		require.Equal(t, op, got)
	}
	require.Equal(t, 196, n) // neo-vm OpCode.cs defines 196 opcodes
}

func TestOperandSize(t *testing.T) {
	s, p := OperandSize(PUSHDATA2)
	require.Equal(t, [2]int{0, 2}, [2]int{s, p})
	s, p = OperandSize(TRY_L)
	require.Equal(t, [2]int{8, 0}, [2]int{s, p})
	s, p = OperandSize(ADD)
	require.Equal(t, [2]int{0, 0}, [2]int{s, p})
}
