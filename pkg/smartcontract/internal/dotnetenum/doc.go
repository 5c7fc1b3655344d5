// Package dotnetenum reproduces how the C# reference turns its enums into
// strings (Enum.ToString) and strings back into enums (Enum.Parse), because
// those texts are part of the protocol: manifests name parameter types, NEF
// method tokens and application logs print call flags and triggers.
//
// Only what the reference's byte-sized enums need is implemented: names are
// matched case-sensitively, numbers are parsed in the 0..max range.
package dotnetenum
