package result

import (
	"encoding/json"
	"testing"

	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// TestIteratorJSON checks the four forms neo-go 0.120.0 prints.
func TestIteratorJSON(t *testing.T) {
	const id = "de9e6b83-430b-4cac-b41d-f32be41f169f"
	one := []stackitem.Item{stackitem.Make(1)}
	for _, c := range []struct {
		it   Iterator
		want string
	}{
		// Sessions: the ID only.
		{Iterator{ID: id}, `{"type":"InteropInterface","interface":"IIterator","id":"` + id + `"}`},
		// No sessions: the values, "truncated" when some were left.
		{Iterator{Values: one}, `{"type":"InteropInterface","iterator":[{"type":"Integer","value":"1"}]}`},
		{Iterator{Values: one, Truncated: true},
			`{"type":"InteropInterface","iterator":[{"type":"Integer","value":"1"}],"truncated":true}`},
		// An empty iterator: the type alone.
		{Iterator{}, `{"type":"InteropInterface"}`},
		{Iterator{Values: []stackitem.Item{}}, `{"type":"InteropInterface"}`},
		// Sessions with expansion: both.
		{Iterator{ID: id, Values: one},
			`{"type":"InteropInterface","interface":"IIterator","id":"` + id + `","iterator":[{"type":"Integer","value":"1"}]}`},
	} {
		b, err := json.Marshal(c.it)
		require.NoError(t, err)
		require.Equal(t, c.want, string(b))
	}
	b, err := json.Marshal(Invoke{State: "HALT", Stack: []any{Iterator{ID: id}}, Session: id})
	require.NoError(t, err)
	require.JSONEq(t, `{"state":"HALT","gasconsumed":"0","script":null,"stack":[{"type":"InteropInterface","interface":"IIterator","id":"`+
		id+`"}],"exception":null,"notifications":[],"session":"`+id+`"}`, string(b))
}
