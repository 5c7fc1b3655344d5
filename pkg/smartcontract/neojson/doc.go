// Package neojson is the JSON dialect of the C# reference node (Neo.Json
// over System.Text.Json), reproduced where its exact behaviour is part of
// the protocol: contract manifests are parsed from JSON when deployed, and
// their "extra" object is stored re-serialized, so what is accepted and the
// bytes written back both decide state roots.
//
// Parsing (Parse) accepts what Utf8JsonReader accepts with comments skipped,
// no trailing commas and a nesting limit; numbers become float64 and must be
// finite; strings must be valid UTF-8 with well-formed surrogate escapes;
// duplicate keys in an object are an error; member order is kept.
//
// Writing (Append, AppendString, AppendNumber) is compact and escapes as
// Utf8JsonWriter with the default encoder: '"' as \u0022, the HTML-sensitive
// characters & ' + < > ` and every non-ASCII character as \uXXXX (upper-case
// hex, UTF-16 surrogate pairs), control characters with their short escapes
// where they exist; numbers as .NET prints a double (shortest round-trip
// digits, exponent form "1E+21" outside the fixed range).
//
// Values are nil (null), bool, float64, string, []any and *Object.
package neojson
