package dotnetenum

import (
	"testing"

	"github.com/stretchr/testify/require"
)

var colors = New([]Member{
	{"None", 0}, {"Red", 1}, {"Green", 2}, {"Blue", 4}, {"Yellow", 3},
}, true, 0xff)

func TestFormat(t *testing.T) {
	for v, want := range map[uint64]string{
		0: "None", 1: "Red", 3: "Yellow", 5: "Red, Blue", 7: "Yellow, Blue", 8: "8", 9: "9",
	} {
		require.Equal(t, want, colors.Format(v))
	}
	plain := New([]Member{{"A", 1}, {"B", 2}}, false, 0xff)
	require.Equal(t, "3", plain.Format(3))
	require.Equal(t, "0", plain.Format(0))
}

func TestParse(t *testing.T) {
	for s, want := range map[string]uint64{
		"Red": 1, " Red": 1, "Red ": 1, "Red,Blue": 5, "Red , Blue": 5, "Blue, Red, Red": 5,
		"7": 7, " 7 ": 7, "+7": 7, "-0": 0, "007": 7, "255": 255, "7 \x00\x00": 7, "\u00a0Green": 2,
	} {
		got, err := colors.Parse(s)
		require.NoError(t, err, s)
		require.Equal(t, want, got, s)
	}
	for _, s := range []string{"", " ", "red", "Red,", ",Red", "Red,,Blue", "256", "-1", "1a", "- 1", "Purple", "7\x00 ", "\x007", "Red\x00"} {
		_, err := colors.Parse(s)
		require.ErrorIs(t, err, ErrInvalid, s)
	}
	require.True(t, colors.IsDefined(3))
	require.False(t, colors.IsDefined(5))
}
