package dotnetenum

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

type color uint8

var errColor = errors.New("test: invalid color")

func (c color) valid() bool { return c&^7 == 0 }

func parseColor(s string) (color, error) { return ParseValid(colors, s, color.valid, errColor) }

func TestParseValid(t *testing.T) {
	c, err := parseColor("Red, Blue")
	require.NoError(t, err)
	require.Equal(t, color(5), c)
	_, err = parseColor("Purple")
	require.ErrorIs(t, err, errColor)
	require.ErrorIs(t, err, ErrInvalid)
	_, err = parseColor("8") // parses, refused by valid
	require.ErrorIs(t, err, errColor)
	require.NotErrorIs(t, err, ErrInvalid)
}

func TestUnmarshalJSON(t *testing.T) {
	c := color(1)
	require.NoError(t, UnmarshalJSON([]byte(`"Yellow"`), &c, parseColor, errColor))
	require.Equal(t, color(3), c)
	require.ErrorIs(t, UnmarshalJSON([]byte(`3`), &c, parseColor, errColor), errColor)
	require.ErrorIs(t, UnmarshalJSON([]byte(`"9"`), &c, parseColor, errColor), errColor)
	require.Equal(t, color(3), c, "a failed unmarshal leaves the value")
}
