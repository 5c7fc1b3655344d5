package manifest

import (
	"encoding/base64"
	"fmt"
	"math"
	"strings"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
)

// Parse reads a manifest as the reference's deployment does: at most
// MaxManifestSize bytes of JSON in the reference's dialect (see neojson),
// with every field rule of the reference applied.
func Parse(data []byte) (*Manifest, error) {
	if len(data) > MaxManifestSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, len(data))
	}
	return parseJSON(data)
}

func parseJSON(data []byte) (*Manifest, error) {
	v, err := neojson.Parse(data, neojson.DefaultMaxDepth)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	o, ok := v.(*neojson.Object)
	if !ok {
		return nil, fmt.Errorf("%w: not an object", ErrInvalidJSON)
	}
	m, err := manifestFromObject(o)
	if err != nil {
		return nil, err
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// UnmarshalJSON implements json.Unmarshaler with the rules of Parse but no
// size limit.
func (m *Manifest) UnmarshalJSON(data []byte) error {
	r, err := parseJSON(data)
	if err != nil {
		return err
	}
	*m = *r
	return nil
}

func fieldErr(key, want string) error {
	return fmt.Errorf("%w: %q must be %s", ErrInvalidJSON, key, want)
}

// str reads a required string member.
func str(o *neojson.Object, key string) (string, error) {
	v, _ := o.Get(key)
	s, ok := v.(string)
	if !ok {
		return "", fieldErr(key, "a string")
	}
	return s, nil
}

// arr reads an array member; a missing or null member is an empty array
// when optional, an error otherwise.
func arr(o *neojson.Object, key string, optional bool) ([]any, error) {
	v, _ := o.Get(key)
	if v == nil && optional {
		return nil, nil
	}
	a, ok := v.([]any)
	if !ok {
		return nil, fieldErr(key, "an array")
	}
	return a, nil
}

// obj reads a required object member.
func obj(o *neojson.Object, key string) (*neojson.Object, error) {
	v, _ := o.Get(key)
	r, ok := v.(*neojson.Object)
	if !ok {
		return nil, fieldErr(key, "an object")
	}
	return r, nil
}

// mapArray converts every element of an array, each of which must be an
// object.
func mapObjects[T any](key string, vals []any, fn func(*neojson.Object) (T, error)) ([]T, error) {
	out := make([]T, 0, len(vals))
	for _, v := range vals {
		o, ok := v.(*neojson.Object)
		if !ok {
			return nil, fieldErr(key, "an array of objects")
		}
		t, err := fn(o)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func mapStrings[T any](key string, vals []any, fn func(string) (T, error)) ([]T, error) {
	out := make([]T, 0, len(vals))
	for _, v := range vals {
		s, ok := v.(string)
		if !ok {
			return nil, fieldErr(key, "an array of strings")
		}
		t, err := fn(s)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func identity(s string) (string, error) { return s, nil }

func manifestFromObject(o *neojson.Object) (*Manifest, error) {
	m := new(Manifest)
	var err error
	if m.Name, err = str(o, "name"); err != nil {
		return nil, err
	}
	groups, err := arr(o, "groups", true)
	if err != nil {
		return nil, err
	}
	if m.Groups, err = mapObjects("groups", groups, groupFromObject); err != nil {
		return nil, err
	}
	if f, err := obj(o, "features"); err != nil || f.Len() != 0 {
		return nil, fmt.Errorf("%w: features must be an empty object", ErrInvalidField)
	}
	stds, err := arr(o, "supportedstandards", true)
	if err != nil {
		return nil, err
	}
	if m.SupportedStandards, err = mapStrings("supportedstandards", stds, identity); err != nil {
		return nil, err
	}
	abi, err := obj(o, "abi")
	if err != nil {
		return nil, err
	}
	if m.ABI, err = abiFromObject(abi); err != nil {
		return nil, err
	}
	perms, err := arr(o, "permissions", true)
	if err != nil {
		return nil, err
	}
	if m.Permissions, err = mapObjects("permissions", perms, permissionFromObject); err != nil {
		return nil, err
	}
	if m.Trusts, err = trustsFromJSON(o); err != nil {
		return nil, err
	}
	switch x, _ := o.Get("extra"); x := x.(type) {
	case nil:
	case *neojson.Object:
		m.Extra = x
	default:
		return nil, fieldErr("extra", "an object or null")
	}
	return m, nil
}

func trustsFromJSON(o *neojson.Object) (WildPermissionDescs, error) {
	v, _ := o.Get("trusts")
	switch x := v.(type) {
	case string:
		if x != "*" {
			return WildPermissionDescs{}, fmt.Errorf("%w: trusts %q", ErrInvalidField, x)
		}
		return WildPermissionDescs{Wildcard: true}, nil
	case []any:
		ds, err := mapStrings("trusts", x, ParsePermissionDesc)
		return WildPermissionDescs{Value: ds}, err
	}
	return WildPermissionDescs{}, fieldErr("trusts", `"*" or an array`)
}

func groupFromObject(o *neojson.Object) (Group, error) {
	pub, err := str(o, "pubkey")
	if err != nil {
		return Group{}, err
	}
	k, err := keys.NewPublicKeyFromString(pub)
	if err != nil {
		return Group{}, fmt.Errorf("%w: group key: %w", ErrInvalidField, err)
	}
	sig, err := str(o, "signature")
	if err != nil {
		return Group{}, err
	}
	// The reference's base64 decoder skips white space.
	b, err := base64.StdEncoding.DecodeString(strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, sig))
	if err != nil {
		return Group{}, fmt.Errorf("%w: group signature: %w", ErrInvalidField, err)
	}
	return Group{PublicKey: k, Signature: b}, nil
}

func abiFromObject(o *neojson.Object) (ABI, error) {
	var a ABI
	ms, err := arr(o, "methods", true)
	if err != nil {
		return a, err
	}
	if a.Methods, err = mapObjects("methods", ms, methodFromObject); err != nil {
		return a, err
	}
	es, err := arr(o, "events", true)
	if err != nil {
		return a, err
	}
	a.Events, err = mapObjects("events", es, eventFromObject)
	return a, err
}

func eventFromObject(o *neojson.Object) (Event, error) {
	var e Event
	var err error
	if e.Name, err = str(o, "name"); err != nil {
		return e, err
	}
	ps, err := arr(o, "parameters", false)
	if err != nil {
		return e, err
	}
	e.Parameters, err = mapObjects("parameters", ps, parameterFromObject)
	return e, err
}

func methodFromObject(o *neojson.Object) (Method, error) {
	e, err := eventFromObject(o)
	if err != nil {
		return Method{}, err
	}
	m := Method{Name: e.Name, Parameters: e.Parameters}
	rt, err := str(o, "returntype")
	if err != nil {
		return m, err
	}
	if m.ReturnType, err = smartcontract.ParseParamType(rt); err != nil {
		return m, fmt.Errorf("%w: %w", ErrInvalidField, err)
	}
	off, _ := o.Get("offset")
	f, ok := off.(float64)
	if !ok || f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
		return m, fieldErr("offset", "a 32-bit integer")
	}
	m.Offset = int(f)
	safe, _ := o.Get("safe")
	if m.Safe, ok = safe.(bool); !ok {
		return m, fieldErr("safe", "a boolean")
	}
	return m, nil
}

func parameterFromObject(o *neojson.Object) (Parameter, error) {
	var p Parameter
	var err error
	if p.Name, err = str(o, "name"); err != nil {
		return p, err
	}
	t, err := str(o, "type")
	if err != nil {
		return p, err
	}
	if p.Type, err = smartcontract.ParseParamType(t); err != nil {
		return p, fmt.Errorf("%w: %w", ErrInvalidField, err)
	}
	return p, nil
}

func permissionFromObject(o *neojson.Object) (Permission, error) {
	var p Permission
	c, err := str(o, "contract")
	if err != nil {
		return p, err
	}
	if p.Contract, err = ParsePermissionDesc(c); err != nil {
		return p, err
	}
	v, _ := o.Get("methods")
	switch x := v.(type) {
	case string:
		if x != "*" {
			return p, fmt.Errorf("%w: permission methods %q", ErrInvalidField, x)
		}
		p.Methods = WildStrings{Wildcard: true}
	case []any:
		ms, err := mapStrings("methods", x, identity)
		if err != nil {
			return p, err
		}
		p.Methods = WildStrings{Value: ms}
	default:
		return p, fieldErr("methods", `"*" or an array`)
	}
	return p, nil
}
