package stackitem

import (
	"encoding/base64"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
)

// TestSerializeReferenceStorage re-serializes the native contract storage
// values the reference node wrote (BinarySerializer output) and expects
// the same bytes.
func TestSerializeReferenceStorage(t *testing.T) {
	checked := 0
	for _, rel := range []string{"chains/testblocks/storage/final.json", "chains/chain50x2/storage/final.json",
		"chains/testblocks/storage/genesis.json"} {
		raw, err := os.ReadFile(conformance.Dir(t, filepath.FromSlash(rel)))
		require.NoError(t, err)
		var st struct {
			Contracts map[string][]struct {
				Value string `json:"value"`
			} `json:"contracts"`
		}
		require.NoError(t, json.Unmarshal(raw, &st))
		for _, kvs := range st.Contracts {
			for _, kv := range kvs {
				b, err := base64.StdEncoding.DecodeString(kv.Value)
				require.NoError(t, err)
				if len(b) == 0 || (b[0] != byte(ArrayT) && b[0] != byte(StructT) && b[0] != byte(MapT)) {
					continue
				}
				it, err := Deserialize(b)
				if err != nil {
					continue // raw bytes that only look like a compound
				}
				out, err := Serialize(it)
				require.NoError(t, err)
				if len(out) != len(b) {
					continue // trailing bytes: not a serialized item
				}
				require.Equal(t, b, out)
				checked++
			}
		}
	}
	require.Greater(t, checked, 20)
}

func TestSerializeRoundTrip(t *testing.T) {
	m := NewMap()
	require.NoError(t, m.Add(ByteString("k"), NewInt(-5)))
	require.NoError(t, m.Add(NewInt(7), Bool(true)))
	it := NewArray([]Item{Null{}, Bool(false), NewInt(0), NewBigInteger(new(big.Int).Lsh(big.NewInt(1), 200)),
		ByteString("abc"), NewBuffer([]byte{1, 2}), NewStruct([]Item{NewInt(1)}), m})
	b, err := Serialize(it)
	require.NoError(t, err)
	back, err := Deserialize(b)
	require.NoError(t, err)
	b2, err := Serialize(back)
	require.NoError(t, err)
	require.Equal(t, b, b2)
	require.Equal(t, StructT, back.(*Array).At(6).Type())
	require.Equal(t, BufferT, back.(*Array).At(5).Type())
}

func TestSerializeErrors(t *testing.T) {
	a := NewArray(nil)
	require.NoError(t, a.Append(a))
	_, err := Serialize(a)
	require.ErrorIs(t, err, ErrNotSerializable)

	shared := NewArray(nil)
	_, err = Serialize(NewArray([]Item{shared, shared}))
	require.ErrorIs(t, err, ErrNotSerializable)

	_, err = Serialize(NewInterop(1))
	require.ErrorIs(t, err, ErrNotSerializable)

	_, err = SerializeLimited(ByteString(make([]byte, 100)), 50, 10)
	require.ErrorIs(t, err, ErrTooLarge)

	_, err = Deserialize([]byte{byte(BooleanT), 2})
	require.ErrorIs(t, err, ErrFormat)
	_, err = Deserialize([]byte{byte(IntegerT), 33})
	require.ErrorIs(t, err, ErrFormat)
	_, err = Deserialize([]byte{byte(MapT), 1, byte(ArrayT), 0, 0})
	require.Error(t, err)
	_, err = Deserialize([]byte{0x99})
	require.ErrorIs(t, err, ErrFormat)
}

func FuzzDeserialize(f *testing.F) {
	f.Add([]byte{byte(ArrayT), 2, byte(IntegerT), 1, 5, byte(AnyT)})
	f.Add([]byte{byte(MapT), 1, byte(ByteArrayT), 1, 'a', byte(BooleanT), 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := Deserialize(data)
		if err != nil {
			return
		}
		out, err := Serialize(it)
		require.NoError(t, err)
		back, err := Deserialize(out)
		require.NoError(t, err)
		out2, err := Serialize(back)
		require.NoError(t, err)
		require.Equal(t, out, out2)
		checkSerializedSize(t, it)
	})
}

// checkSerializedSize: SerializedSize agrees with SerializeLimited on the
// length and on every limit.
func checkSerializedSize(t *testing.T, it Item) {
	out, err := Serialize(it)
	require.NoError(t, err)
	for _, lim := range []struct{ size, items int }{{MaxSize, MaxClonableItems}, {len(out), MaxClonableItems},
		{len(out) - 1, MaxClonableItems}, {len(out) / 2, MaxClonableItems}, {MaxSize, 3}, {MaxSize, 1}} {
		b, err1 := SerializeLimited(it, lim.size, lim.items)
		n, err2 := SerializedSize(it, lim.size, lim.items)
		require.Equal(t, err1 == nil, err2 == nil, "limits %v", lim)
		if err1 == nil {
			require.Equal(t, len(b), n)
		} else {
			require.Equal(t, err1.Error(), err2.Error())
		}
	}
}

func TestSerializedSize(t *testing.T) {
	m := NewMap()
	require.NoError(t, m.Add(ByteString("k"), NewInt(-5)))
	require.NoError(t, m.Add(NewInt(1000), Bool(true)))
	items := []Item{Null{}, Bool(true), NewInt(0), NewInt(-129), NewInt(1 << 40),
		NewBigInteger(new(big.Int).Lsh(big.NewInt(1), 200)), ByteString(make([]byte, 300)),
		NewBuffer(make([]byte, 70000)), m, NewStruct([]Item{NewInt(1), ByteString("x")})}
	items = append(items, NewArray(append([]Item{}, items...)))
	for _, it := range items {
		checkSerializedSize(t, it)
	}
	shared := NewArray(nil)
	_, err := SerializedSize(NewArray([]Item{shared, shared}), MaxSize, MaxClonableItems)
	require.ErrorIs(t, err, ErrNotSerializable)
	// Many compounds: the seen set moves to its map.
	var many []Item
	for range 20 {
		many = append(many, NewArray(nil))
	}
	checkSerializedSize(t, NewArray(many))
	_, err = SerializedSize(NewArray(append(many, many[15])), MaxSize, MaxClonableItems)
	require.ErrorIs(t, err, ErrNotSerializable)
}
