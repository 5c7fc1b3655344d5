package chain

import (
	"path/filepath"
	"testing"
)

// TestGenesisRolesMatchNeoGo restores a chain neo-go v0.122.0 made with
// every role designated in Genesis.Roles (scripts/neogo-genesisroles.sh)
// and checks block hashes, state roots from the genesis block on and the
// application logs (the genesis Designation notifications included).
func TestGenesisRolesMatchNeoGo(t *testing.T) {
	checkDiffChain(t, filepath.Join("testdata", "neogo-genesisroles"))
}
