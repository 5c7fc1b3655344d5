package manifest

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"name":"T","groups":[],"features":{},"supportedstandards":["NEP-17"],` +
		`"abi":{"methods":[{"name":"m","parameters":[{"name":"a","type":"Integer"}],"returntype":"Void","offset":0,"safe":false}],` +
		`"events":[{"name":"E","parameters":[]}]},"permissions":[{"contract":"*","methods":["a"]}],"trusts":"*","extra":{"a":1}}`))
	f.Add([]byte(`{"name":"x","features":{},"abi":{"methods":[{"name":"m","parameters":[],"returntype":"17","offset":3,"safe":true}]},` +
		`"permissions":[{"contract":"0x0102030405060708090a0b0c0d0e0f1011121314","methods":"*"}],"trusts":["*"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(m)
		require.NoError(t, err)
		m2, err := Parse(out)
		require.NoError(t, err)
		require.Equal(t, m, m2)
		out2, err := json.Marshal(m2)
		require.NoError(t, err)
		require.Equal(t, out, out2)

		b, err := stackitem.Serialize(m.ToStackItem())
		if err != nil {
			return // too large for the VM: IsValid rejects it
		}
		it, err := stackitem.Deserialize(b)
		require.NoError(t, err)
		m3, err := FromStackItem(it)
		require.NoError(t, err)
		require.Equal(t, m, m3)
	})
}
