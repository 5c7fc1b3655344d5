package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	ojson "github.com/nspcc-dev/go-ordered-json"
	"github.com/nspcc-dev/neo-go/pkg/services/oracle/jsonpath"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var in struct{ Doc, Path string }
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			panic(err)
		}
		d := ojson.NewDecoder(bytes.NewBufferString(in.Doc))
		d.UseOrderedObject()
		var v any
		out := map[string]any{"doc": in.Doc, "path": in.Path}
		if err := d.Decode(&v); err != nil {
			out["err"] = "decode"
		} else {
			func() {
				defer func() {
					if r := recover(); r != nil {
						out["err"] = fmt.Sprint("panic")
					}
				}()
				res, ok := jsonpath.Get(in.Path, v)
				if !ok {
					out["err"] = "invalid"
					return
				}
				b, err := ojson.Marshal(res)
				if err != nil {
					out["err"] = "marshal"
					return
				}
				out["want"] = string(b)
			}()
		}
		b, _ := json.Marshal(out)
		fmt.Println(string(b))
	}
}
