// Opcode values, names and operand sizes of the NeoVM instruction set, as listed in neo-vm OpCode.cs.

package opcode

// Opcode values of the NeoVM instruction set.
const (
	PUSHINT8     Opcode = 0x00
	PUSHINT16    Opcode = 0x01
	PUSHINT32    Opcode = 0x02
	PUSHINT64    Opcode = 0x03
	PUSHINT128   Opcode = 0x04
	PUSHINT256   Opcode = 0x05
	PUSHT        Opcode = 0x08
	PUSHF        Opcode = 0x09
	PUSHA        Opcode = 0x0A
	PUSHNULL     Opcode = 0x0B
	PUSHDATA1    Opcode = 0x0C
	PUSHDATA2    Opcode = 0x0D
	PUSHDATA4    Opcode = 0x0E
	PUSHM1       Opcode = 0x0F
	PUSH0        Opcode = 0x10
	PUSH1        Opcode = 0x11
	PUSH2        Opcode = 0x12
	PUSH3        Opcode = 0x13
	PUSH4        Opcode = 0x14
	PUSH5        Opcode = 0x15
	PUSH6        Opcode = 0x16
	PUSH7        Opcode = 0x17
	PUSH8        Opcode = 0x18
	PUSH9        Opcode = 0x19
	PUSH10       Opcode = 0x1A
	PUSH11       Opcode = 0x1B
	PUSH12       Opcode = 0x1C
	PUSH13       Opcode = 0x1D
	PUSH14       Opcode = 0x1E
	PUSH15       Opcode = 0x1F
	PUSH16       Opcode = 0x20
	NOP          Opcode = 0x21
	JMP          Opcode = 0x22
	JMP_L        Opcode = 0x23
	JMPIF        Opcode = 0x24
	JMPIF_L      Opcode = 0x25
	JMPIFNOT     Opcode = 0x26
	JMPIFNOT_L   Opcode = 0x27
	JMPEQ        Opcode = 0x28
	JMPEQ_L      Opcode = 0x29
	JMPNE        Opcode = 0x2A
	JMPNE_L      Opcode = 0x2B
	JMPGT        Opcode = 0x2C
	JMPGT_L      Opcode = 0x2D
	JMPGE        Opcode = 0x2E
	JMPGE_L      Opcode = 0x2F
	JMPLT        Opcode = 0x30
	JMPLT_L      Opcode = 0x31
	JMPLE        Opcode = 0x32
	JMPLE_L      Opcode = 0x33
	CALL         Opcode = 0x34
	CALL_L       Opcode = 0x35
	CALLA        Opcode = 0x36
	CALLT        Opcode = 0x37
	ABORT        Opcode = 0x38
	ASSERT       Opcode = 0x39
	THROW        Opcode = 0x3A
	TRY          Opcode = 0x3B
	TRY_L        Opcode = 0x3C
	ENDTRY       Opcode = 0x3D
	ENDTRY_L     Opcode = 0x3E
	ENDFINALLY   Opcode = 0x3F
	RET          Opcode = 0x40
	SYSCALL      Opcode = 0x41
	DEPTH        Opcode = 0x43
	DROP         Opcode = 0x45
	NIP          Opcode = 0x46
	XDROP        Opcode = 0x48
	CLEAR        Opcode = 0x49
	DUP          Opcode = 0x4A
	OVER         Opcode = 0x4B
	PICK         Opcode = 0x4D
	TUCK         Opcode = 0x4E
	SWAP         Opcode = 0x50
	ROT          Opcode = 0x51
	ROLL         Opcode = 0x52
	REVERSE3     Opcode = 0x53
	REVERSE4     Opcode = 0x54
	REVERSEN     Opcode = 0x55
	INITSSLOT    Opcode = 0x56
	INITSLOT     Opcode = 0x57
	LDSFLD0      Opcode = 0x58
	LDSFLD1      Opcode = 0x59
	LDSFLD2      Opcode = 0x5A
	LDSFLD3      Opcode = 0x5B
	LDSFLD4      Opcode = 0x5C
	LDSFLD5      Opcode = 0x5D
	LDSFLD6      Opcode = 0x5E
	LDSFLD       Opcode = 0x5F
	STSFLD0      Opcode = 0x60
	STSFLD1      Opcode = 0x61
	STSFLD2      Opcode = 0x62
	STSFLD3      Opcode = 0x63
	STSFLD4      Opcode = 0x64
	STSFLD5      Opcode = 0x65
	STSFLD6      Opcode = 0x66
	STSFLD       Opcode = 0x67
	LDLOC0       Opcode = 0x68
	LDLOC1       Opcode = 0x69
	LDLOC2       Opcode = 0x6A
	LDLOC3       Opcode = 0x6B
	LDLOC4       Opcode = 0x6C
	LDLOC5       Opcode = 0x6D
	LDLOC6       Opcode = 0x6E
	LDLOC        Opcode = 0x6F
	STLOC0       Opcode = 0x70
	STLOC1       Opcode = 0x71
	STLOC2       Opcode = 0x72
	STLOC3       Opcode = 0x73
	STLOC4       Opcode = 0x74
	STLOC5       Opcode = 0x75
	STLOC6       Opcode = 0x76
	STLOC        Opcode = 0x77
	LDARG0       Opcode = 0x78
	LDARG1       Opcode = 0x79
	LDARG2       Opcode = 0x7A
	LDARG3       Opcode = 0x7B
	LDARG4       Opcode = 0x7C
	LDARG5       Opcode = 0x7D
	LDARG6       Opcode = 0x7E
	LDARG        Opcode = 0x7F
	STARG0       Opcode = 0x80
	STARG1       Opcode = 0x81
	STARG2       Opcode = 0x82
	STARG3       Opcode = 0x83
	STARG4       Opcode = 0x84
	STARG5       Opcode = 0x85
	STARG6       Opcode = 0x86
	STARG        Opcode = 0x87
	NEWBUFFER    Opcode = 0x88
	MEMCPY       Opcode = 0x89
	CAT          Opcode = 0x8B
	SUBSTR       Opcode = 0x8C
	LEFT         Opcode = 0x8D
	RIGHT        Opcode = 0x8E
	INVERT       Opcode = 0x90
	AND          Opcode = 0x91
	OR           Opcode = 0x92
	XOR          Opcode = 0x93
	EQUAL        Opcode = 0x97
	NOTEQUAL     Opcode = 0x98
	SIGN         Opcode = 0x99
	ABS          Opcode = 0x9A
	NEGATE       Opcode = 0x9B
	INC          Opcode = 0x9C
	DEC          Opcode = 0x9D
	ADD          Opcode = 0x9E
	SUB          Opcode = 0x9F
	MUL          Opcode = 0xA0
	DIV          Opcode = 0xA1
	MOD          Opcode = 0xA2
	POW          Opcode = 0xA3
	SQRT         Opcode = 0xA4
	MODMUL       Opcode = 0xA5
	MODPOW       Opcode = 0xA6
	SHL          Opcode = 0xA8
	SHR          Opcode = 0xA9
	NOT          Opcode = 0xAA
	BOOLAND      Opcode = 0xAB
	BOOLOR       Opcode = 0xAC
	NZ           Opcode = 0xB1
	NUMEQUAL     Opcode = 0xB3
	NUMNOTEQUAL  Opcode = 0xB4
	LT           Opcode = 0xB5
	LE           Opcode = 0xB6
	GT           Opcode = 0xB7
	GE           Opcode = 0xB8
	MIN          Opcode = 0xB9
	MAX          Opcode = 0xBA
	WITHIN       Opcode = 0xBB
	PACKMAP      Opcode = 0xBE
	PACKSTRUCT   Opcode = 0xBF
	PACK         Opcode = 0xC0
	UNPACK       Opcode = 0xC1
	NEWARRAY0    Opcode = 0xC2
	NEWARRAY     Opcode = 0xC3
	NEWARRAY_T   Opcode = 0xC4
	NEWSTRUCT0   Opcode = 0xC5
	NEWSTRUCT    Opcode = 0xC6
	NEWMAP       Opcode = 0xC8
	SIZE         Opcode = 0xCA
	HASKEY       Opcode = 0xCB
	KEYS         Opcode = 0xCC
	VALUES       Opcode = 0xCD
	PICKITEM     Opcode = 0xCE
	APPEND       Opcode = 0xCF
	SETITEM      Opcode = 0xD0
	REVERSEITEMS Opcode = 0xD1
	REMOVE       Opcode = 0xD2
	CLEARITEMS   Opcode = 0xD3
	POPITEM      Opcode = 0xD4
	ISNULL       Opcode = 0xD8
	ISTYPE       Opcode = 0xD9
	CONVERT      Opcode = 0xDB
	ABORTMSG     Opcode = 0xE0
	ASSERTMSG    Opcode = 0xE1
)

var names = [256]string{
	PUSHINT8:     "PUSHINT8",
	PUSHINT16:    "PUSHINT16",
	PUSHINT32:    "PUSHINT32",
	PUSHINT64:    "PUSHINT64",
	PUSHINT128:   "PUSHINT128",
	PUSHINT256:   "PUSHINT256",
	PUSHT:        "PUSHT",
	PUSHF:        "PUSHF",
	PUSHA:        "PUSHA",
	PUSHNULL:     "PUSHNULL",
	PUSHDATA1:    "PUSHDATA1",
	PUSHDATA2:    "PUSHDATA2",
	PUSHDATA4:    "PUSHDATA4",
	PUSHM1:       "PUSHM1",
	PUSH0:        "PUSH0",
	PUSH1:        "PUSH1",
	PUSH2:        "PUSH2",
	PUSH3:        "PUSH3",
	PUSH4:        "PUSH4",
	PUSH5:        "PUSH5",
	PUSH6:        "PUSH6",
	PUSH7:        "PUSH7",
	PUSH8:        "PUSH8",
	PUSH9:        "PUSH9",
	PUSH10:       "PUSH10",
	PUSH11:       "PUSH11",
	PUSH12:       "PUSH12",
	PUSH13:       "PUSH13",
	PUSH14:       "PUSH14",
	PUSH15:       "PUSH15",
	PUSH16:       "PUSH16",
	NOP:          "NOP",
	JMP:          "JMP",
	JMP_L:        "JMP_L",
	JMPIF:        "JMPIF",
	JMPIF_L:      "JMPIF_L",
	JMPIFNOT:     "JMPIFNOT",
	JMPIFNOT_L:   "JMPIFNOT_L",
	JMPEQ:        "JMPEQ",
	JMPEQ_L:      "JMPEQ_L",
	JMPNE:        "JMPNE",
	JMPNE_L:      "JMPNE_L",
	JMPGT:        "JMPGT",
	JMPGT_L:      "JMPGT_L",
	JMPGE:        "JMPGE",
	JMPGE_L:      "JMPGE_L",
	JMPLT:        "JMPLT",
	JMPLT_L:      "JMPLT_L",
	JMPLE:        "JMPLE",
	JMPLE_L:      "JMPLE_L",
	CALL:         "CALL",
	CALL_L:       "CALL_L",
	CALLA:        "CALLA",
	CALLT:        "CALLT",
	ABORT:        "ABORT",
	ASSERT:       "ASSERT",
	THROW:        "THROW",
	TRY:          "TRY",
	TRY_L:        "TRY_L",
	ENDTRY:       "ENDTRY",
	ENDTRY_L:     "ENDTRY_L",
	ENDFINALLY:   "ENDFINALLY",
	RET:          "RET",
	SYSCALL:      "SYSCALL",
	DEPTH:        "DEPTH",
	DROP:         "DROP",
	NIP:          "NIP",
	XDROP:        "XDROP",
	CLEAR:        "CLEAR",
	DUP:          "DUP",
	OVER:         "OVER",
	PICK:         "PICK",
	TUCK:         "TUCK",
	SWAP:         "SWAP",
	ROT:          "ROT",
	ROLL:         "ROLL",
	REVERSE3:     "REVERSE3",
	REVERSE4:     "REVERSE4",
	REVERSEN:     "REVERSEN",
	INITSSLOT:    "INITSSLOT",
	INITSLOT:     "INITSLOT",
	LDSFLD0:      "LDSFLD0",
	LDSFLD1:      "LDSFLD1",
	LDSFLD2:      "LDSFLD2",
	LDSFLD3:      "LDSFLD3",
	LDSFLD4:      "LDSFLD4",
	LDSFLD5:      "LDSFLD5",
	LDSFLD6:      "LDSFLD6",
	LDSFLD:       "LDSFLD",
	STSFLD0:      "STSFLD0",
	STSFLD1:      "STSFLD1",
	STSFLD2:      "STSFLD2",
	STSFLD3:      "STSFLD3",
	STSFLD4:      "STSFLD4",
	STSFLD5:      "STSFLD5",
	STSFLD6:      "STSFLD6",
	STSFLD:       "STSFLD",
	LDLOC0:       "LDLOC0",
	LDLOC1:       "LDLOC1",
	LDLOC2:       "LDLOC2",
	LDLOC3:       "LDLOC3",
	LDLOC4:       "LDLOC4",
	LDLOC5:       "LDLOC5",
	LDLOC6:       "LDLOC6",
	LDLOC:        "LDLOC",
	STLOC0:       "STLOC0",
	STLOC1:       "STLOC1",
	STLOC2:       "STLOC2",
	STLOC3:       "STLOC3",
	STLOC4:       "STLOC4",
	STLOC5:       "STLOC5",
	STLOC6:       "STLOC6",
	STLOC:        "STLOC",
	LDARG0:       "LDARG0",
	LDARG1:       "LDARG1",
	LDARG2:       "LDARG2",
	LDARG3:       "LDARG3",
	LDARG4:       "LDARG4",
	LDARG5:       "LDARG5",
	LDARG6:       "LDARG6",
	LDARG:        "LDARG",
	STARG0:       "STARG0",
	STARG1:       "STARG1",
	STARG2:       "STARG2",
	STARG3:       "STARG3",
	STARG4:       "STARG4",
	STARG5:       "STARG5",
	STARG6:       "STARG6",
	STARG:        "STARG",
	NEWBUFFER:    "NEWBUFFER",
	MEMCPY:       "MEMCPY",
	CAT:          "CAT",
	SUBSTR:       "SUBSTR",
	LEFT:         "LEFT",
	RIGHT:        "RIGHT",
	INVERT:       "INVERT",
	AND:          "AND",
	OR:           "OR",
	XOR:          "XOR",
	EQUAL:        "EQUAL",
	NOTEQUAL:     "NOTEQUAL",
	SIGN:         "SIGN",
	ABS:          "ABS",
	NEGATE:       "NEGATE",
	INC:          "INC",
	DEC:          "DEC",
	ADD:          "ADD",
	SUB:          "SUB",
	MUL:          "MUL",
	DIV:          "DIV",
	MOD:          "MOD",
	POW:          "POW",
	SQRT:         "SQRT",
	MODMUL:       "MODMUL",
	MODPOW:       "MODPOW",
	SHL:          "SHL",
	SHR:          "SHR",
	NOT:          "NOT",
	BOOLAND:      "BOOLAND",
	BOOLOR:       "BOOLOR",
	NZ:           "NZ",
	NUMEQUAL:     "NUMEQUAL",
	NUMNOTEQUAL:  "NUMNOTEQUAL",
	LT:           "LT",
	LE:           "LE",
	GT:           "GT",
	GE:           "GE",
	MIN:          "MIN",
	MAX:          "MAX",
	WITHIN:       "WITHIN",
	PACKMAP:      "PACKMAP",
	PACKSTRUCT:   "PACKSTRUCT",
	PACK:         "PACK",
	UNPACK:       "UNPACK",
	NEWARRAY0:    "NEWARRAY0",
	NEWARRAY:     "NEWARRAY",
	NEWARRAY_T:   "NEWARRAY_T",
	NEWSTRUCT0:   "NEWSTRUCT0",
	NEWSTRUCT:    "NEWSTRUCT",
	NEWMAP:       "NEWMAP",
	SIZE:         "SIZE",
	HASKEY:       "HASKEY",
	KEYS:         "KEYS",
	VALUES:       "VALUES",
	PICKITEM:     "PICKITEM",
	APPEND:       "APPEND",
	SETITEM:      "SETITEM",
	REVERSEITEMS: "REVERSEITEMS",
	REMOVE:       "REMOVE",
	CLEARITEMS:   "CLEARITEMS",
	POPITEM:      "POPITEM",
	ISNULL:       "ISNULL",
	ISTYPE:       "ISTYPE",
	CONVERT:      "CONVERT",
	ABORTMSG:     "ABORTMSG",
	ASSERTMSG:    "ASSERTMSG",
}

var operandSizes = [256]int8{
	PUSHINT8:   1,
	PUSHINT16:  2,
	PUSHINT32:  4,
	PUSHINT64:  8,
	PUSHINT128: 16,
	PUSHINT256: 32,
	PUSHA:      4,
	PUSHDATA1:  -1,
	PUSHDATA2:  -2,
	PUSHDATA4:  -4,
	JMP:        1,
	JMP_L:      4,
	JMPIF:      1,
	JMPIF_L:    4,
	JMPIFNOT:   1,
	JMPIFNOT_L: 4,
	JMPEQ:      1,
	JMPEQ_L:    4,
	JMPNE:      1,
	JMPNE_L:    4,
	JMPGT:      1,
	JMPGT_L:    4,
	JMPGE:      1,
	JMPGE_L:    4,
	JMPLT:      1,
	JMPLT_L:    4,
	JMPLE:      1,
	JMPLE_L:    4,
	CALL:       1,
	CALL_L:     4,
	CALLT:      2,
	TRY:        2,
	TRY_L:      8,
	ENDTRY:     1,
	ENDTRY_L:   4,
	SYSCALL:    4,
	INITSSLOT:  1,
	INITSLOT:   2,
	LDSFLD:     1,
	STSFLD:     1,
	LDLOC:      1,
	STLOC:      1,
	LDARG:      1,
	STARG:      1,
	NEWARRAY_T: 1,
	ISTYPE:     1,
	CONVERT:    1,
}
