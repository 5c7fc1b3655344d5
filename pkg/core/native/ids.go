package native

// Names of the native contracts, as in their manifests.
const (
	ManagementName = "ContractManagement"
	StdLibName     = "StdLib"
	CryptoLibName  = "CryptoLib"
	LedgerName     = "LedgerContract"
	NeoName        = "NeoToken"
	GasName        = "GasToken"
	PolicyName     = "PolicyContract"
	DesignateName  = "RoleManagement"
	OracleName     = "OracleContract"
	NotaryName     = "Notary"
	TreasuryName   = "Treasury"
)

// IDs of the native contracts (their storage ids).
const (
	ManagementID int32 = -1
	StdLibID     int32 = -2
	CryptoLibID  int32 = -3
	LedgerID     int32 = -4
	NeoID        int32 = -5
	GasID        int32 = -6
	PolicyID     int32 = -7
	DesignateID  int32 = -8
	OracleID     int32 = -9
	NotaryID     int32 = -10
	TreasuryID   int32 = -11
)
