// Package params parses JSON-RPC 2.0 requests for the n3d RPC server: a
// single request object or a bounded batch (Decode), and the positional
// parameters of a call (Param), with the reference's lenient conversions
// (an integer may be given as a string, a string as a number, a hash with
// or without 0x, an account as a hash or an address). It also builds the
// scripts of invokefunction and invokecontractverify from typed function
// parameters ({"type":"Integer","value":"1"}).
//
// Data flow: HTTP body (bounded by the server) → Decode → Request (one In
// or a Batch) → the server dispatches In.Method with In.Params → handlers
// call the Param getters, which parse the raw JSON of one parameter.
package params
