// Package jsonpath is the JSONPath subset of the Neo oracle filter, with
// the reference node's (neo-go's) results byte for byte, so that n3d and
// neo-go oracle nodes sign the same response transaction.
//
// A JSON document is parsed with the keys of every object kept in their
// order (duplicates included): Parse turns it into Value trees of
// Object, []any, string, float64, bool and nil. Get applies a path and
// returns the selected values; Marshal prints them as the reference does
// (its C#-compatible string escaping, encoding/json's number format).
//
// # Grammar
//
//	path     = "$" { step }
//	step     = "." ident | ".*" | ".." ident | "[" sel "]"
//	sel      = "*" | index | index "," index {"," index}
//	         | str {"," str} | [index] ":" [index]
//	index    = ["-"] digits            (int32; negative counts from the end)
//	str      = "'" chars "'"           (JSON escapes allowed, no "'")
//	ident    = [A-Za-z_][A-Za-z0-9_]*
//
// The empty path selects the whole document. Every step that goes down a
// level uses one of 6 levels (a recursive descent ".." uses the levels it
// goes down; its name lookups are free), and no step may select more than
// 1024 values: a path that breaks either limit is invalid, as in the
// reference.
package jsonpath
