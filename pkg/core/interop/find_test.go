package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

func TestFindOptionsValidate(t *testing.T) {
	for o := 0; o < 256; o++ {
		opts := interop.FindOptions(o)
		has := func(f interop.FindOptions) bool { return opts&f != 0 }
		// The reference's rules, written out independently.
		ok := opts&^interop.FindAll == 0 &&
			!(has(interop.FindKeysOnly) && (has(interop.FindValuesOnly) || has(interop.FindDeserializeValues) || has(interop.FindPickField0) || has(interop.FindPickField1))) &&
			!(has(interop.FindValuesOnly) && has(interop.FindRemovePrefix)) &&
			!(has(interop.FindPickField0) && has(interop.FindPickField1)) &&
			!((has(interop.FindPickField0) || has(interop.FindPickField1)) && !has(interop.FindDeserializeValues))
		err := opts.Validate()
		require.Equal(t, ok, err == nil, "options %#x: %v", o, err)
	}
}

func collect(t *testing.T, it interop.Iterator) []stackitem.Item {
	var out []stackitem.Item
	for it.Next() {
		v, err := it.Value()
		require.NoError(t, err)
		out = append(out, v)
	}
	require.False(t, it.Next())
	_, err := it.Value()
	require.Error(t, err)
	return out
}

func TestStorageIteratorOptions(t *testing.T) {
	d := dao.New(storage.NewMemoryStore())
	s1, _ := stackitem.Serialize(stackitem.NewStruct([]stackitem.Item{stackitem.NewInt(1), stackitem.ByteString("one")}))
	s2, _ := stackitem.Serialize(stackitem.NewStruct([]stackitem.Item{stackitem.NewInt(2), stackitem.ByteString("two")}))
	require.NoError(t, d.PutStorageItem(3, []byte("ab1"), s1))
	require.NoError(t, d.PutStorageItem(3, []byte("ab2"), s2))
	require.NoError(t, d.PutStorageItem(3, []byte("ac"), []byte("x")))
	require.NoError(t, d.PutStorageItem(4, []byte("ab3"), []byte("other contract")))
	find := func(o interop.FindOptions) []stackitem.Item {
		it, err := interop.NewStorageIterator(d, 3, []byte("ab"), o)
		require.NoError(t, err)
		return collect(t, it)
	}
	bs := func(s string) stackitem.Item { return stackitem.ByteString(s) }
	pair := func(k string, v stackitem.Item) stackitem.Item {
		return stackitem.NewStruct([]stackitem.Item{bs(k), v})
	}
	eq := func(want, got []stackitem.Item) {
		t.Helper()
		require.Len(t, got, len(want))
		for i := range want {
			require.True(t, want[i].Equals(got[i]) || want[i].String() == got[i].String(), "%d: %s vs %s", i, want[i], got[i])
		}
	}
	eq([]stackitem.Item{pair("ab1", bs(string(s1))), pair("ab2", bs(string(s2)))}, find(interop.FindDefault))
	eq([]stackitem.Item{bs("ab1"), bs("ab2")}, find(interop.FindKeysOnly))
	eq([]stackitem.Item{bs("1"), bs("2")}, find(interop.FindKeysOnly|interop.FindRemovePrefix))
	eq([]stackitem.Item{bs(string(s1)), bs(string(s2))}, find(interop.FindValuesOnly))
	eq([]stackitem.Item{bs("ab2"), bs("ab1")}, find(interop.FindKeysOnly|interop.FindBackwards))
	eq([]stackitem.Item{stackitem.NewInt(1), stackitem.NewInt(2)}, find(interop.FindValuesOnly|interop.FindDeserializeValues|interop.FindPickField0))
	eq([]stackitem.Item{pair("1", bs("one")), pair("2", bs("two"))}, find(interop.FindRemovePrefix|interop.FindDeserializeValues|interop.FindPickField1))
	// Items written after Find are not seen.
	it, err := interop.NewStorageIterator(d, 3, nil, interop.FindKeysOnly)
	require.NoError(t, err)
	require.NoError(t, d.PutStorageItem(3, []byte("zz"), []byte("late")))
	require.Len(t, collect(t, it), 3)
	// Deserializing a non-serialized value fails.
	it, err = interop.NewStorageIterator(d, 3, []byte("ac"), interop.FindDeserializeValues)
	require.NoError(t, err)
	require.True(t, it.Next())
	_, err = it.Value()
	require.Error(t, err)
}

// TestFindScript drives Find, Next and Value from a contract.
func TestFindScript(t *testing.T) {
	e := newEnv()
	c := testContract(t, e.d, 7, "st", []method{{name: "count", params: nil, ret: smartcontract_Int, code: func(b *emit.Builder) {
		// it = Find(ctx, "", KeysOnly); n = 0; while Next(it) { Value(it); DROP; n++ }; return n
		b.Int(int64(interop.FindKeysOnly)).Bytes(nil).Syscall(interop.StorageGetContext).Syscall(interop.StorageFind)
		b.Int(0) // [it, n]
		loop := b.Len()
		b.Opcodes(opcode.OVER).Syscall(interop.IteratorNext) // [it, n, more]
		jmp := b.Len()
		b.Instruction(opcode.JMPIFNOT, []byte{0})
		b.Opcodes(opcode.OVER).Syscall(interop.IteratorValue).Opcodes(opcode.DROP, opcode.INC)
		back := b.Len()
		b.Instruction(opcode.JMP, []byte{byte(int8(loop - back))})
		end := b.Len()
		b.Opcodes(opcode.NIP, opcode.RET)
		_ = jmp
		_ = end
	}}})
	// Patch the forward jump now that the script exists.
	sc := c.NEF.Script
	for i := 0; i+1 < len(sc); i++ {
		if sc[i] == byte(opcode.JMPIFNOT) && sc[i+1] == 0 {
			sc[i+1] = byte(len(sc) - 2 - i)
			break
		}
	}
	require.NoError(t, e.d.PutContract(c))
	require.NoError(t, e.d.PutStorageItem(7, []byte{1}, []byte{1}))
	require.NoError(t, e.d.PutStorageItem(7, []byte{2}, []byte{2}))
	ic := e.run(t, script(t, func(b *emit.Builder) { b.AppCall(c.Hash, "count", byte(callflag.All)) }))
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
	require.True(t, stackitem.NewInt(2).Equals(ic.VM().ResultStack().Items()[0]))
}
