package manifest

import (
	"fmt"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// ToStackItem returns the form ContractManagement stores: a Struct of name,
// groups, features (empty Map), supported standards, ABI, permissions,
// trusts (Null for the wildcard) and extra (its compact JSON bytes, "null"
// when absent).
func (m *Manifest) ToStackItem() stackitem.Item {
	groups := make([]stackitem.Item, len(m.Groups))
	for i := range m.Groups {
		g := &m.Groups[i]
		groups[i] = stackitem.NewStruct([]stackitem.Item{
			stackitem.ByteString(g.PublicKey.Bytes()), stackitem.ByteString(g.Signature),
		})
	}
	perms := make([]stackitem.Item, len(m.Permissions))
	for i := range m.Permissions {
		p := &m.Permissions[i]
		var methods stackitem.Item = stackitem.Null{}
		if !p.Methods.Wildcard {
			methods = stringsItem(p.Methods.Value)
		}
		perms[i] = stackitem.NewStruct([]stackitem.Item{descItem(p.Contract), methods})
	}
	var trusts stackitem.Item = stackitem.Null{}
	if !m.Trusts.Wildcard {
		ts := make([]stackitem.Item, len(m.Trusts.Value))
		for i, d := range m.Trusts.Value {
			ts[i] = descItem(d)
		}
		trusts = stackitem.NewArray(ts)
	}
	extra := []byte("null")
	if m.Extra != nil {
		// A manifest that cannot be written has no stack item form; the
		// JSON decoder never produces one.
		var err error
		if extra, err = neojson.Marshal(m.Extra); err != nil {
			extra = []byte("null")
		}
	}
	return stackitem.NewStruct([]stackitem.Item{
		stackitem.ByteString(m.Name),
		stackitem.NewArray(groups),
		stackitem.NewMap(),
		stringsItem(m.SupportedStandards),
		m.ABI.toStackItem(),
		stackitem.NewArray(perms),
		trusts,
		stackitem.ByteString(extra),
	})
}

func stringsItem(ss []string) *stackitem.Array {
	items := make([]stackitem.Item, len(ss))
	for i, s := range ss {
		items[i] = stackitem.ByteString(s)
	}
	return stackitem.NewArray(items)
}

func descItem(d PermissionDesc) stackitem.Item {
	if d.Type == PermissionWildcard {
		return stackitem.Null{}
	}
	return stackitem.ByteString(d.bytes())
}

func paramsItem(ps []Parameter) *stackitem.Array {
	items := make([]stackitem.Item, len(ps))
	for i := range ps {
		items[i] = stackitem.NewStruct([]stackitem.Item{
			stackitem.ByteString(ps[i].Name), stackitem.NewInt(int64(ps[i].Type)),
		})
	}
	return stackitem.NewArray(items)
}

func (a *ABI) toStackItem() stackitem.Item {
	methods := make([]stackitem.Item, len(a.Methods))
	for i := range a.Methods {
		m := &a.Methods[i]
		methods[i] = stackitem.NewStruct([]stackitem.Item{
			stackitem.ByteString(m.Name), paramsItem(m.Parameters),
			stackitem.NewInt(int64(m.ReturnType)), stackitem.NewInt(int64(m.Offset)), stackitem.Bool(m.Safe),
		})
	}
	events := make([]stackitem.Item, len(a.Events))
	for i := range a.Events {
		events[i] = stackitem.NewStruct([]stackitem.Item{
			stackitem.ByteString(a.Events[i].Name), paramsItem(a.Events[i].Parameters),
		})
	}
	return stackitem.NewStruct([]stackitem.Item{stackitem.NewArray(methods), stackitem.NewArray(events)})
}

func siErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidStackItem, fmt.Sprintf(format, args...))
}

// asStruct returns the elements of a Struct with at least n of them.
func asStruct(it stackitem.Item, n int, what string) ([]stackitem.Item, error) {
	a, ok := it.(*stackitem.Array)
	if !ok || !a.IsStruct() || a.Len() < n {
		return nil, siErr("%s is not a struct of %d items", what, n)
	}
	return a.Items(), nil
}

// asArray returns the elements of an Array or Struct.
func asArray(it stackitem.Item, what string) ([]stackitem.Item, error) {
	a, ok := it.(*stackitem.Array)
	if !ok {
		return nil, siErr("%s is not an array", what)
	}
	return a.Items(), nil
}

// asString reads a primitive item as strict UTF-8.
func asString(it stackitem.Item, what string) (string, error) {
	b, err := it.Bytes()
	if err != nil || !utf8.Valid(b) {
		return "", siErr("%s is not a string", what)
	}
	return string(b), nil
}

// asInt reads an integer that must fit in [min, max].
func asInt(it stackitem.Item, min, max int64, what string) (int64, error) {
	v, err := it.BigInt()
	if err != nil || !v.IsInt64() || v.Int64() < min || v.Int64() > max {
		return 0, siErr("%s is not an integer in [%d, %d]", what, min, max)
	}
	return v.Int64(), nil
}

func asStrings(it stackitem.Item, what string) ([]string, error) {
	items, err := asArray(it, what)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, e := range items {
		if out[i], err = asString(e, what); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FromStackItem reads the stored form back with the reference's rules (which
// are looser than the JSON ones: stored manifests were validated on deploy).
func FromStackItem(it stackitem.Item) (*Manifest, error) {
	s, err := asStruct(it, 8, "manifest")
	if err != nil {
		return nil, err
	}
	m := new(Manifest)
	if m.Name, err = asString(s[0], "name"); err != nil {
		return nil, err
	}
	if m.Groups, err = groupsFromItem(s[1]); err != nil {
		return nil, err
	}
	if f, ok := s[2].(*stackitem.Map); !ok || f.Len() != 0 {
		return nil, siErr("features must be an empty map")
	}
	if m.SupportedStandards, err = asStrings(s[3], "supported standards"); err != nil {
		return nil, err
	}
	if m.ABI, err = abiFromItem(s[4]); err != nil {
		return nil, err
	}
	if m.Permissions, err = permissionsFromItem(s[5]); err != nil {
		return nil, err
	}
	if m.Trusts, err = trustsFromItem(s[6]); err != nil {
		return nil, err
	}
	if m.Extra, err = extraFromItem(s[7]); err != nil {
		return nil, err
	}
	return m, nil
}

func groupsFromItem(it stackitem.Item) ([]Group, error) {
	items, err := asArray(it, "groups")
	if err != nil {
		return nil, err
	}
	out := make([]Group, len(items))
	for i, e := range items {
		g, err := asStruct(e, 2, "group")
		if err != nil {
			return nil, err
		}
		pub, err1 := g[0].Bytes()
		sig, err2 := g[1].Bytes()
		if err1 != nil || err2 != nil {
			return nil, siErr("group fields are not byte strings")
		}
		k, err := keys.NewPublicKeyFromBytes(pub)
		if err != nil {
			return nil, fmt.Errorf("%w: group key: %w", ErrInvalidStackItem, err)
		}
		out[i] = Group{PublicKey: k, Signature: append([]byte(nil), sig...)}
	}
	return out, nil
}

func paramsFromItem(it stackitem.Item) ([]Parameter, error) {
	items, err := asArray(it, "parameters")
	if err != nil {
		return nil, err
	}
	out := make([]Parameter, len(items))
	for i, e := range items {
		p, err := asStruct(e, 2, "parameter")
		if err != nil {
			return nil, err
		}
		if out[i].Name, err = asString(p[0], "parameter name"); err != nil {
			return nil, err
		}
		t, err := asInt(p[1], 0, 255, "parameter type")
		if err != nil {
			return nil, err
		}
		out[i].Type = smartcontract.ParamType(t)
	}
	return out, nil
}

func abiFromItem(it stackitem.Item) (ABI, error) {
	var a ABI
	s, err := asStruct(it, 2, "abi")
	if err != nil {
		return a, err
	}
	methods, err := asArray(s[0], "methods")
	if err != nil {
		return a, err
	}
	a.Methods = make([]Method, len(methods))
	for i, e := range methods {
		if a.Methods[i], err = methodFromItem(e); err != nil {
			return a, err
		}
	}
	events, err := asArray(s[1], "events")
	if err != nil {
		return a, err
	}
	a.Events = make([]Event, len(events))
	for i, e := range events {
		ev, err := asStruct(e, 2, "event")
		if err != nil {
			return a, err
		}
		if a.Events[i].Name, err = asString(ev[0], "event name"); err != nil {
			return a, err
		}
		if a.Events[i].Parameters, err = paramsFromItem(ev[1]); err != nil {
			return a, err
		}
	}
	return a, nil
}

func methodFromItem(it stackitem.Item) (Method, error) {
	var m Method
	s, err := asStruct(it, 5, "method")
	if err != nil {
		return m, err
	}
	if m.Name, err = asString(s[0], "method name"); err != nil {
		return m, err
	}
	if m.Parameters, err = paramsFromItem(s[1]); err != nil {
		return m, err
	}
	rt, err := asInt(s[2], 0, 255, "return type")
	if err != nil {
		return m, err
	}
	m.ReturnType = smartcontract.ParamType(rt)
	off, err := asInt(s[3], -1<<31, 1<<31-1, "offset")
	if err != nil {
		return m, err
	}
	m.Offset = int(off)
	if m.Safe, err = s[4].Bool(); err != nil {
		return m, siErr("safe is not a boolean")
	}
	return m, nil
}

func descFromItem(it stackitem.Item) (PermissionDesc, error) {
	if _, ok := it.(stackitem.Null); ok {
		return NewWildcardDesc(), nil
	}
	b, err := it.Bytes()
	if err != nil {
		return PermissionDesc{}, siErr("descriptor is not a byte string")
	}
	return permissionDescFromBytes(b)
}

func permissionsFromItem(it stackitem.Item) ([]Permission, error) {
	items, err := asArray(it, "permissions")
	if err != nil {
		return nil, err
	}
	out := make([]Permission, len(items))
	for i, e := range items {
		p, err := asStruct(e, 2, "permission")
		if err != nil {
			return nil, err
		}
		if out[i].Contract, err = descFromItem(p[0]); err != nil {
			return nil, err
		}
		switch p[1].(type) {
		case stackitem.Null:
			out[i].Methods = WildStrings{Wildcard: true}
		case *stackitem.Array:
			ms, err := asStrings(p[1], "permission methods")
			if err != nil {
				return nil, err
			}
			out[i].Methods = WildStrings{Value: ms}
		default:
			return nil, siErr("permission methods must be null or an array")
		}
	}
	return out, nil
}

func trustsFromItem(it stackitem.Item) (WildPermissionDescs, error) {
	switch it.(type) {
	case stackitem.Null:
		return WildPermissionDescs{Wildcard: true}, nil
	case *stackitem.Array:
	default:
		return WildPermissionDescs{}, siErr("trusts must be null or an array")
	}
	items, _ := asArray(it, "trusts")
	out := make([]PermissionDesc, len(items))
	for i, e := range items {
		var err error
		if out[i], err = descFromItem(e); err != nil {
			return WildPermissionDescs{}, err
		}
	}
	return WildPermissionDescs{Value: out}, nil
}

func extraFromItem(it stackitem.Item) (*neojson.Object, error) {
	b, err := it.Bytes()
	if err != nil {
		return nil, siErr("extra is not a byte string")
	}
	v, err := neojson.Parse(b, neojson.DefaultMaxDepth)
	if err != nil {
		return nil, fmt.Errorf("%w: extra: %w", ErrInvalidStackItem, err)
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case *neojson.Object:
		return x, nil
	}
	return nil, siErr("extra is neither an object nor null")
}
