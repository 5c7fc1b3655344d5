// Package opcode defines the NeoVM instruction bytes, their reference names
// and operand layouts. It is the lowest layer of pkg/vm: the interpreter
// decodes instructions with OperandSize and the script builder (pkg/vm/emit)
// encodes them.
package opcode
