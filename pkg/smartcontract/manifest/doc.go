// Package manifest implements contract manifests: the name, ABI (methods
// with offsets, events), groups (public keys signing the contract hash),
// supported standards, permissions (which contracts and methods the
// contract may call) and trusts of a contract, plus free-form extra data.
//
// Three forms exist and all follow the C# reference exactly:
//
//   - JSON in (Parse, UnmarshalJSON): the reference's JSON dialect (see
//     neojson) and every field rule of ContractManifest.FromJson: required
//     and optional members, empty features, non-empty names, parameter
//     types parsed like C# Enum.Parse, unique groups, standards,
//     permissions, trusts, permission methods and parameter names.
//   - JSON out (MarshalJSON, AppendJSON): the reference's key order and
//     escaping, "*" for wildcards, null for no extra.
//   - Stack item (ToStackItem, FromStackItem): the Struct ContractManagement
//     serializes into storage; extra is kept as its compact JSON bytes.
//
// Deployment adds IsValid (the stack item serializes within the VM limits,
// every group signs the contract hash) and ABI.Check (each method offset
// starts an instruction of the script, asked to the VM's parsed script
// through InstructionChecker; no method name/parameter-count pair and no
// event name twice).
package manifest
