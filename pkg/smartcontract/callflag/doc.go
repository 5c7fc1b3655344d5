// Package callflag defines the call flags of Neo N3: the rights a called
// contract receives (reading or writing state, calling further contracts,
// sending notifications). They travel as one byte in NEF method tokens and
// System.Contract.Call, and are printed in JSON the way the C# reference
// prints its [Flags] enum ("States, AllowNotify").
package callflag
