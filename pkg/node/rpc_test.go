package node

import (
	"reflect"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"github.com/stretchr/testify/require"
)

// fillNonZero sets every exported field of the struct v points to (nested
// structs too) to a non-zero value.
func fillNonZero(v reflect.Value) {
	for i := range v.NumField() {
		f := v.Field(i)
		if !f.CanSet() {
			continue
		}
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64, reflect.Int32:
			f.SetInt(7)
		case reflect.Uint, reflect.Uint32, reflect.Uint16, reflect.Uint8:
			f.SetUint(7)
		case reflect.String:
			f.SetString("x")
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.Struct:
			fillNonZero(f)
		}
	}
}

// TestRPCConfigMapsEverySetting: every setting of the RPC section the
// server has a field for is carried over (a new one left out fails), and
// the Ledger settings it reads too.
func TestRPCConfigMapsEverySetting(t *testing.T) {
	var r config.RPC
	fillNonZero(reflect.ValueOf(&r).Elem())
	c := RPCConfig(r, config.Ledger{KeepOnlyLatestState: true, RemoveUntraceableBlocks: true})
	// Settings of the section the server does not take (the node decides
	// whether to start it; the others have no effect in n3d).
	notTaken := map[string]bool{"BasicService": true, "DirectRelay": true, "StartWhenSynchronized": true,
		"SessionBackedByMPT": true, "TLSConfig": true}
	cv := reflect.ValueOf(c)
	rt := reflect.TypeOf(r)
	for i := range rt.NumField() {
		name := rt.Field(i).Name
		if notTaken[name] {
			continue
		}
		f := cv.FieldByName(name)
		require.True(t, f.IsValid(), "server.Config has no %s", name)
		require.False(t, f.IsZero(), "%s not carried over", name)
	}
	require.Equal(t, r.Addresses, c.Addresses)
	require.Equal(t, server.TLSConfig{Enabled: true, Addresses: r.TLSConfig.Addresses, CertFile: "x", KeyFile: "x"}, c.TLS)
	require.True(t, c.KeepOnlyLatestState)
	require.True(t, c.RemoveUntraceableBlocks)
}
