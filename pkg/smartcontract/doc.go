// Package smartcontract holds the contract-level types shared by the VM,
// the native contracts and RPC: the parameter types a manifest declares
// (ParamType, printed and parsed exactly as the C# reference does) and the
// computation of contract hashes from the deployer, the NEF checksum and the
// manifest name.
//
// Subpackages: nef (the NEF3 executable format), manifest (contract
// manifests, their JSON and stack-item forms and validation), callflag and
// trigger (small enums with the reference's text forms), neojson (the JSON
// dialect of the reference, used wherever its bytes matter).
package smartcontract
