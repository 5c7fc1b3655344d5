package native

import (
	"encoding/base64"
	"encoding/hex"
	"github.com/n3d-io/n3d/pkg/vm"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/encoding/base58"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Std is the StdLib native contract: conversions between stack items,
// binary/JSON serialization and text encodings. It has no storage.
type Std struct {
	md *ContractMD
}

var _ Contract = (*Std)(nil)

// NewStd returns the StdLib contract.
func NewStd() *Std {
	s := &Std{md: NewContractMD(StdLibName, StdLibID, protocol.HFDefault)}
	p := manifest.NewParameter
	const (
		anyT  = smartcontract.AnyType
		bytes = smartcontract.ByteArrayType
		str   = smartcontract.StringType
		intT  = smartcontract.IntegerType
		boolT = smartcontract.BoolType
	)
	add := func(name string, ret smartcontract.ParamType, fee int64, from protocol.Hardfork, h Handler, ps ...manifest.Parameter) {
		s.md.AddMethod(Method{Name: name, Params: ps, Return: ret, CPUFee: fee, From: from, Handler: h})
	}
	add("serialize", bytes, 1<<12, 0, stdSerialize, p("item", anyT))
	add("deserialize", anyT, 1<<14, 0, stdDeserialize, p("data", bytes))
	add("jsonSerialize", bytes, 1<<12, 0, stdJSONSerialize, p("item", anyT))
	add("jsonDeserialize", anyT, 1<<14, 0, stdJSONDeserialize, p("json", bytes))
	add("itoa", str, 1<<12, 0, stdItoa10, p("value", intT))
	add("itoa", str, 1<<12, 0, stdItoa, p("value", intT), p("base", intT))
	add("atoi", intT, 1<<6, 0, stdAtoi10, p("value", str))
	add("atoi", intT, 1<<6, 0, stdAtoi, p("value", str), p("base", intT))
	add("base64Encode", str, 1<<5, 0, stdBase64Encode, p("data", bytes))
	add("base64Decode", bytes, 1<<5, 0, stdBase64Decode, p("s", str))
	add("base64UrlEncode", str, 1<<5, protocol.HFEchidna, stdBase64URLEncode, p("data", str))
	add("base64UrlDecode", str, 1<<5, protocol.HFEchidna, stdBase64URLDecode, p("s", str))
	add("base58Encode", str, 1<<13, 0, stdBase58Encode, p("data", bytes))
	add("base58Decode", bytes, 1<<10, 0, stdBase58Decode, p("s", str))
	add("base58CheckEncode", str, 1<<16, 0, stdBase58CheckEncode, p("data", bytes))
	add("base58CheckDecode", bytes, 1<<16, 0, stdBase58CheckDecode, p("s", str))
	add("hexEncode", str, 1<<5, protocol.HFFaun, stdHexEncode, p("bytes", bytes))
	add("hexDecode", bytes, 1<<5, protocol.HFFaun, stdHexDecode, p("str", str))
	add("memoryCompare", intT, 1<<5, 0, stdMemoryCompare, p("str1", bytes), p("str2", bytes))
	add("memorySearch", intT, 1<<6, 0, stdMemorySearch, p("mem", bytes), p("value", bytes))
	add("memorySearch", intT, 1<<6, 0, stdMemorySearch, p("mem", bytes), p("value", bytes), p("start", intT))
	add("memorySearch", intT, 1<<6, 0, stdMemorySearch, p("mem", bytes), p("value", bytes), p("start", intT), p("backward", boolT))
	add("stringSplit", smartcontract.ArrayType, 1<<8, 0, stdStringSplit, p("str", str), p("separator", str))
	add("stringSplit", smartcontract.ArrayType, 1<<8, 0, stdStringSplit, p("str", str), p("separator", str), p("removeEmptyEntries", boolT))
	add("strLen", intT, 1<<8, 0, stdStrLen, p("str", str))
	s.md.Seal()
	return s
}

// Metadata implements Contract.
func (s *Std) Metadata() *ContractMD { return s.md }

// Initialize implements Contract: StdLib has no state.
func (s *Std) Initialize(*interop.Context, protocol.Hardfork) error { return nil }

// OnPersist implements Contract.
func (s *Std) OnPersist(*interop.Context) error { return nil }

// PostPersist implements Contract.
func (s *Std) PostPersist(*interop.Context) error { return nil }

func stdSerialize(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	l := ic.VM().Limits()
	b, err := stackitem.SerializeLimited(args[0], l.MaxItemSize, l.MaxStackSize)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(b), nil
}

func stdDeserialize(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := argBytes(args[0])
	if err != nil {
		return nil, err
	}
	l := ic.VM().Limits()
	return stackitem.DeserializeLimited(b, l.MaxItemSize, l.MaxStackSize)
}

func stdJSONSerialize(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := stackitem.ToJSONLimited(args[0], ic.VM().Limits().MaxItemSize)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(b), nil
}

func stdJSONDeserialize(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := argBytes(args[0])
	if err != nil {
		return nil, err
	}
	it, err := stackitem.FromJSON(b, !ic.IsHardforkEnabled(protocol.HFBasilisk))
	if text, ok := goJSONText(err, true); ok {
		return nil, vm.Fault(stackitem.ErrJSON, text, err)
	}
	return it, err
}

func stdItoa10(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	n, err := argBigInt(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(n.Text(10)), nil
}

func stdItoa(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	n, err := argBigInt(args[0])
	if err != nil {
		return nil, err
	}
	base, err := argBase(args[1])
	if err != nil {
		return nil, err
	}
	s, err := itoa(n, base)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(s), nil
}

func stdAtoi10(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	s, err := argLimitedString(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	return bigItem(atoi(s, 10))
}

func stdAtoi(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	s, err := argLimitedString(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	base, err := argBase(args[1])
	if err != nil {
		return nil, err
	}
	return bigItem(atoi(s, base))
}

// argBase converts an itoa/atoi base; one outside int64 is an invalid base
// (int32 ones are 10 or 16 or fail later the same way).
func argBase(it stackitem.Item) (int64, error) {
	b, err := argBigInt(it)
	if err != nil {
		return 0, err
	}
	if !b.IsInt64() {
		return 0, errInvalidBase
	}
	return b.Int64(), nil
}

// bigItem turns a computed integer into an item; results over 32 bytes
// FAULT when the VM pushes them in the reference, so they FAULT here.
func bigItem(n *big.Int, err error) (stackitem.Item, error) {
	if err != nil {
		return nil, err
	}
	return stackitem.NewBigIntegerChecked(n)
}

func stdBase64Encode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := argLimitedBytes(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(base64.StdEncoding.EncodeToString(b)), nil
}

func stdBase64Decode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return stringToBytes(args[0], base64Decode)
}

func stdBase64URLEncode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	s, err := argLimitedString(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(base64URLEncode(s)), nil
}

func stdBase64URLDecode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	s, err := argLimitedString(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	r, err := base64URLDecode(s)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(r), nil
}

func stdBase58Encode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := argLimitedBytes(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(base58.Encode(b)), nil
}

func stdBase58Decode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return stringToBytes(args[0], base58Decode)
}

func stdBase58CheckEncode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := argLimitedBytes(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(base58.CheckEncode(b)), nil
}

func stdBase58CheckDecode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return stringToBytes(args[0], base58CheckDecode)
}

func stdHexEncode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := argLimitedBytes(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(hex.EncodeToString(b)), nil
}

func stdHexDecode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return stringToBytes(args[0], hexDecode)
}

// stringToBytes applies a decoder to a limited string argument.
func stringToBytes(arg stackitem.Item, dec func(string) ([]byte, error)) (stackitem.Item, error) {
	s, err := argLimitedString(arg, StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	b, err := dec(s)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(b), nil
}

func stdMemoryCompare(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	a, err := argLimitedBytes(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	b, err := argLimitedBytes(args[1], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(int64(compareBytes(a, b))), nil
}

func compareBytes(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// stdMemorySearch serves the 2-, 3- and 4-parameter overloads.
func stdMemorySearch(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	mem, err := argLimitedBytes(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	val, err := argBytes(args[1])
	if err != nil {
		return nil, err
	}
	var (
		start    int32
		backward bool
	)
	if len(args) > 2 {
		if start, err = argInt32(args[2]); err != nil {
			return nil, err
		}
	}
	if len(args) > 3 {
		if backward, err = argBool(args[3]); err != nil {
			return nil, err
		}
	}
	i, err := memorySearch(mem, val, int(start), backward)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(int64(i)), nil
}

// stdStringSplit serves both overloads.
func stdStringSplit(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	s, err := argLimitedString(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	sep, err := argString(args[1])
	if err != nil {
		return nil, err
	}
	removeEmpty := false
	if len(args) > 2 {
		if removeEmpty, err = argBool(args[2]); err != nil {
			return nil, err
		}
	}
	parts := stringSplit(s, sep, removeEmpty)
	items := make([]stackitem.Item, len(parts))
	for i, p := range parts {
		items[i] = stackitem.ByteString(p)
	}
	return stackitem.NewArray(items), nil
}

func stdStrLen(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	s, err := argLimitedString(args[0], StdMaxInputLength)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(int64(strLen(s))), nil
}
