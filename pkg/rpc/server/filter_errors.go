package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/n3d-io/n3d/pkg/util"
)

// serverPkg is this package's import path, which the filter types' JSON
// errors name.
var serverPkg = reflect.TypeOf(NotificationFilter{}).PkgPath()

// filterErrText words a filter decoding error as neo-go does, whose filter
// types live in its neorpc package and whose hashes' JSON decoder says
// "expected string size of N got M"; other errors keep their text.
func filterErrText(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field == "" && te.Type != nil && te.Type.PkgPath() == serverPkg {
		return fmt.Sprintf("json: cannot unmarshal %s into Go value of type neorpc.%s", te.Value, te.Type.Name())
	}
	var le *util.HexLengthError
	if errors.As(err, &le) {
		return fmt.Sprintf("expected string size of %d got %d", le.Want, le.Got)
	}
	return err.Error()
}
