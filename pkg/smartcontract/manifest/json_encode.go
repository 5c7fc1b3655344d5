package manifest

import (
	"encoding/base64"
	"fmt"

	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
)

// MarshalJSON writes the manifest as the reference does, byte for byte:
// keys in the reference's order, "*" for wildcards, null for no extra.
func (m Manifest) MarshalJSON() ([]byte, error) {
	return m.AppendJSON(make([]byte, 0, 512))
}

// AppendJSON appends the reference's JSON form of the manifest to buf.
func (m *Manifest) AppendJSON(buf []byte) ([]byte, error) {
	buf = append(buf, `{"name":`...)
	buf = neojson.AppendString(buf, m.Name)
	buf = append(buf, `,"groups":`...)
	buf, err := appendGroups(buf, m.Groups)
	if err != nil {
		return nil, err
	}
	buf = append(buf, `,"features":{},"supportedstandards":`...)
	buf = appendStrings(buf, m.SupportedStandards)
	buf = append(buf, `,"abi":{"methods":[`...)
	for i := range m.ABI.Methods {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = m.ABI.Methods[i].appendJSON(buf)
	}
	buf = append(buf, `],"events":[`...)
	for i := range m.ABI.Events {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendEventJSON(buf, m.ABI.Events[i].Name, m.ABI.Events[i].Parameters)
		buf = append(buf, '}')
	}
	buf = append(buf, `]},"permissions":`...)
	buf = appendPermissions(buf, m.Permissions)
	buf = append(buf, `,"trusts":`...)
	buf = appendTrusts(buf, &m.Trusts)
	buf = append(buf, `,"extra":`...)
	if m.Extra == nil {
		buf = append(buf, "null"...)
	} else if buf, err = neojson.Append(buf, m.Extra); err != nil {
		return nil, fmt.Errorf("%w: extra: %w", ErrInvalidField, err)
	}
	return append(buf, '}'), nil
}

func appendGroups(buf []byte, gs []Group) ([]byte, error) {
	buf = append(buf, '[')
	for i := range gs {
		if i > 0 {
			buf = append(buf, ',')
		}
		if gs[i].PublicKey == nil {
			return nil, fmt.Errorf("%w: group without a key", ErrInvalidField)
		}
		buf = append(buf, `{"pubkey":`...)
		buf = neojson.AppendString(buf, gs[i].PublicKey.String())
		buf = append(buf, `,"signature":`...)
		buf = neojson.AppendString(buf, base64.StdEncoding.EncodeToString(gs[i].Signature))
		buf = append(buf, '}')
	}
	return append(buf, ']'), nil
}

func appendPermissions(buf []byte, ps []Permission) []byte {
	buf = append(buf, '[')
	for i := range ps {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"contract":`...)
		buf = neojson.AppendString(buf, ps[i].Contract.String())
		buf = append(buf, `,"methods":`...)
		if ps[i].Methods.Wildcard {
			buf = append(buf, `"*"`...)
		} else {
			buf = appendStrings(buf, ps[i].Methods.Value)
		}
		buf = append(buf, '}')
	}
	return append(buf, ']')
}

func appendTrusts(buf []byte, t *WildPermissionDescs) []byte {
	if t.Wildcard {
		return append(buf, `"*"`...)
	}
	buf = append(buf, '[')
	for i, d := range t.Value {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = neojson.AppendString(buf, d.String())
	}
	return append(buf, ']')
}

func appendStrings(buf []byte, ss []string) []byte {
	buf = append(buf, '[')
	for i, s := range ss {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = neojson.AppendString(buf, s)
	}
	return append(buf, ']')
}

// appendEventJSON writes {"name":…,"parameters":[…] without the closing
// brace, which methods follow with their own members.
func appendEventJSON(buf []byte, name string, ps []Parameter) []byte {
	buf = append(buf, `{"name":`...)
	buf = neojson.AppendString(buf, name)
	buf = append(buf, `,"parameters":[`...)
	for i := range ps {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"name":`...)
		buf = neojson.AppendString(buf, ps[i].Name)
		buf = append(buf, `,"type":`...)
		buf = neojson.AppendString(buf, ps[i].Type.String())
		buf = append(buf, '}')
	}
	return append(buf, ']')
}

func (m *Method) appendJSON(buf []byte) []byte {
	buf = appendEventJSON(buf, m.Name, m.Parameters)
	buf = append(buf, `,"returntype":`...)
	buf = neojson.AppendString(buf, m.ReturnType.String())
	buf = append(buf, `,"offset":`...)
	buf = neojson.AppendNumber(buf, float64(m.Offset))
	buf = append(buf, `,"safe":`...)
	if m.Safe {
		buf = append(buf, "true"...)
	} else {
		buf = append(buf, "false"...)
	}
	return append(buf, '}')
}
