// Package trigger defines why a script runs: OnPersist and PostPersist of
// native contracts around a block, Verification of a witness, Application
// for transactions. Application logs and the interop
// System.Runtime.GetTrigger expose it; its text is the C# reference's enum
// name.
package trigger
