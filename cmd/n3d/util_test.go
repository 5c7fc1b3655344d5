package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/stretchr/testify/require"
)

func runUtil(t *testing.T, args ...string) (int, string, string) { return runSub(t, "util", args...) }
func mustUtil(t *testing.T, args ...string) string               { return mustSub(t, "util", args...) }
func mustFailUtil(t *testing.T, msg string, args ...string)      { mustFailSub(t, msg, "util", args...) }

// TestUtilConvert: the outputs are neo-go 0.120.0's `util convert` for the
// same arguments (byte for byte: the tab padding included).
func TestUtilConvert(t *testing.T) {
	for arg, want := range map[string]string{
		"123": "Integer to Hex\t\t\t7b\nInteger to Base64\t\tew==\nString to Hex\t\t\t313233\nString to Base64\t\tMTIz\n",
		"NNLi44dJNXtDNSBkofB48aTVYtb1zZrNEs": "Address to BE ScriptHash\t1a9e04be3c7a2b41e936a584e79bd9e93a52dea5\n" +
			"Address to LE ScriptHash\ta5de523ae9d99be784a536e9412b7a3cbe049e1a\n" +
			"Address to Base64 (BE)\t\tGp4Evjx6K0HpNqWE55vZ6TpS3qU=\n" +
			"Address to Base64 (LE)\t\tpd5SOunZm+eEpTbpQSt6PL4Enho=\n" +
			"String to Hex\t\t\t\t4e4e4c693434644a4e5874444e53426b6f66423438615456597462317a5a724e4573\n" +
			"String to Base64\t\t\tTk5MaTQ0ZEpOWHRETlNCa29mQjQ4YVRWWXRiMXpack5Fcw==\n",
		"0x1234": "Hex to String\t\t\"\\x124\"\nHex to Integer\t\t13330\nSwap Endianness\t\t3412\n" +
			"String to Hex\t\t307831323334\nString to Base64\tMHgxMjM0\n",
		"00": "Integer to Hex\t\t\t\t\t\nInteger to Base64\t\t\t\t\n" +
			"Public key to Base64\t\t\tAA==\n" +
			"Public key to BE ScriptHash\t\tcc7c10eafb1f9a7cbcfdba3bf48958d3d0c39c9f\n" +
			"Public key to LE ScriptHash\t\t9f9cc3d0d35889f43bbafdbc7c9a1ffbea107ccc\n" +
			"Public key to Address\t\t\tNeZBf9mvVJTVNPxn8q63W2MoaUeE6ZyqR1\n" +
			"Hex to String\t\t\t\t\t\"\\x00\"\nHex to Integer\t\t\t\t\t0\nSwap Endianness\t\t\t\t\t00\n" +
			"String to Hex\t\t\t\t\t3030\nString to Base64\t\t\t\tMDA=\n",
		"1a9e04be3c7a2b41e936a584e79bd9e93a52dea5": "BE ScriptHash to Address\tNNLi44dJNXtDNSBkofB48aTVYtb1zZrNEs\n" +
			"LE ScriptHash to Address\tNb311ZEUnYimPCd5KSmNPQEAZJ3AM2HxUF\n" +
			"Hex to String\t\t\t\t\"\\x1a\\x9e\\x04\\xbe<z+A\\xe96\\xa5\\x84\\xe7\\x9b\\xd9\\xe9:Rޥ\"\n" +
			"Hex to Integer\t\t\t\t-514560231456231899060705943234414607528344904166\n" +
			"Swap Endianness\t\t\t\ta5de523ae9d99be784a536e9412b7a3cbe049e1a\n" +
			"Base64 to String\t\t\t\"կ^ӆ\\xde\\xdd\\xce\\xdaپ5{\\xdd\\xfak\\x9f8{\\xbf[w\\u05fdݮvu\\xe6\\xb9\"\n" +
			"Base64 to BigInteger\t\t-483810832527176605500005903850618931948271213235516906745004702746890283\n" +
			"String to Hex\t\t\t\t31613965303462653363376132623431653933366135383465373962643965393361353264656135\n" +
			"String to Base64\t\t\tMWE5ZTA0YmUzYzdhMmI0MWU5MzZhNTg0ZTc5YmQ5ZTkzYTUyZGVhNQ==\n",
		"Ahq0Ao8GzhH5y+9JqU+EBH1uxz7vkW7FJXXf5ZQkGwR/": "Base64 to String\t\t\t\t\"\\x02\\x1a\\xb4\\x02\\x8f\\x06\\xce\\x11\\xf9\\xcb\\xefI\\xa9O\\x84\\x04}n\\xc7>\\xef\\x91n\\xc5%u\\xdf\\xe5\\x94$\\x1b\\x04\\x7f\"\n" +
			"Base64 to BigInteger\t\t\t14707452541881387931842513390992667982733848662467570622747077393811515179801090\n" +
			"Public key to Hex\t\t\t\t021ab4028f06ce11f9cbef49a94f84047d6ec73eef916ec52575dfe594241b047f\n" +
			"Public key to BE ScriptHash\t\t0005411bd6e82ef1eaa533d6fc6f12a934f7406a\n" +
			"Public key to LE ScriptHash\t\t6a40f734a9126ffcd633a5eaf12ee8d61b410500\n" +
			"Public key to Address\t\t\tNKv5UqHNxUDKRJfBUkBthkc7GNGvy8kUfN\n" +
			"String to Hex\t\t\t\t\t41687130416f38477a684835792b394a71552b4542483175787a37766b5737464a585866355a516b4777522f\n" +
			"String to Base64\t\t\t\tQWhxMEFvOEd6aEg1eSs5SnFVK0VCSDF1eHo3dmtXN0ZKWFhmNVpRa0d3Ui8=\n",
	} {
		require.Equal(t, want, mustUtil(t, "convert", arg), arg)
	}
	mustFailUtil(t, "missing argument", "convert")
}

// TestUtilOps: base64 first, --hex, a file; the listing is the one of
// `query tx -v` (neo-go's PrintOps, checked against neo-go 0.120.0).
func TestUtilOps(t *testing.T) {
	want := "INDEX    OPCODE       PARAMETER\n" +
		"0        PUSHINT8     77 (4d)    <<\n" +
		"2        PUSHINT16    770 (0203)\n"
	require.Equal(t, want, mustUtil(t, "ops", "AE0BAgM="))
	require.Equal(t, want, mustUtil(t, "ops", "004d010203"))
	// "1011" is base64 too: --hex makes it hex.
	require.Equal(t, "INDEX    OPCODE    PARAMETER\n0        PUSH0         <<\n1        PUSH1     \n",
		mustUtil(t, "ops", "--hex", "1011"))
	require.Equal(t, "INDEX    OPCODE         PARAMETER\n0        Opcode(215)    ERROR: incorrect opcode Opcode(215)    <<\n",
		mustUtil(t, "ops", "1011"))
	file := filepath.Join(t.TempDir(), "script")
	require.NoError(t, os.WriteFile(file, []byte("AE0BAgM="), 0o600))
	require.Equal(t, want, mustUtil(t, "ops", "-i", file))
	mustFailUtil(t, "missing script", "ops")
	mustFailUtil(t, "unknown encoding: base64 or hex are supported", "ops", "zz")
	mustFailUtil(t, "failed to read file", "ops", "-i", filepath.Join(t.TempDir(), "none"))
}

// utilContext saves the signing context of an unsigned transfer-like
// transaction (one signer, no witness) and returns its path and hash.
func utilContext(t *testing.T) (string, util.Uint256) {
	t.Helper()
	script, err := base64.StdEncoding.DecodeString("wh8MCHRyYW5zZmVyDBTPduKL0AYsSkeO41VhARMZ88+k0kFifVtS")
	require.NoError(t, err)
	acc, err := util.Uint160DecodeStringLE("b248508f4ef7088e10c48f14d04be3272ca29eee")
	require.NoError(t, err)
	tx := &transaction.Transaction{Nonce: 2818057767, SystemFee: 984030, NetworkFee: 1180520,
		ValidUntilBlock: 19, Script: script,
		Signers:   []transaction.Signer{{Account: acc, Scopes: transaction.CalledByEntry}},
		Witnesses: []transaction.Witness{{}}}
	path := filepath.Join(t.TempDir(), "tx.json")
	require.NoError(t, txbuild.NewContext(56753, tx).Save(path))
	return path, tx.Hash()
}

// TestUtilTxDump: a context file's transaction as neo-go 0.120.0 prints
// it (the same file and, with -r, the same node answers), then errors.
func TestUtilTxDump(t *testing.T) {
	path, h := utilContext(t)
	require.Equal(t, "2ca75e32864894b28f3b7c6fc61866b00829e861ccae5f4ba4f57fb1a26eea30", h.StringBE())
	want := "Hash:\t\t\t2ca75e32864894b28f3b7c6fc61866b00829e861ccae5f4ba4f57fb1a26eea30\n" +
		"OnChain:\t\tfalse\n" +
		"ValidUntil:\t\t19\n" +
		"Signer:\t\t\tNcAe6QyuLGQ5xM4W8NXsrSemXPLQM5GUqb (CalledByEntry)\n" +
		"SystemFee:\t\t0.0098403 GAS\n" +
		"NetworkFee:\t\t0.0118052 GAS\n" +
		"Script:\t\t\twh8MCHRyYW5zZmVyDBTPduKL0AYsSkeO41VhARMZ88+k0kFifVtS\n" +
		"INDEX    OPCODE       PARAMETER\n" +
		"0        NEWARRAY0        <<\n" +
		"1        PUSH15       \n" +
		"2        PUSHDATA1    7472616e73666572 (\"transfer\")\n" +
		"12       PUSHDATA1    cf76e28bd0062c4a478ee35561011319f3cfa4d2 (\"NepwUjd9GhqgNkrfXaxj9mmsFhFzGoFuWM\", \"0xd2a4cff31913016155e38e474a2c06d08be276cf\")\n" +
		"34       SYSCALL      System.Contract.Call (627d5b52)\n"
	require.Equal(t, want, mustUtil(t, "txdump", path))
	r := fakeNode(t, map[string]string{
		"getversion": `{"protocol":{"network":56753,"msperblock":1000}}`,
		// Not in neo-go's order: it is restored.
		"invokescript": `{"script":"wh8MCHRyYW5zZmVyDBTPduKL0AYsSkeO41VhARMZ88+k0kFifVtS","state":"FAULT",` +
			`"gasconsumed":"984030","exception":"at instruction 34 (SYSCALL): boom","notifications":[{"contract":` +
			`"0xd2a4cff31913016155e38e474a2c06d08be276cf","eventname":"Transfer","state":{"type":"Array","value":` +
			`[{"type":"Any"},{"type":"Integer","value":"5"}]}}],"stack":[{"type":"Boolean","value":true},` +
			`{"type":"ByteString","value":"AQI="}]}`,
	})
	require.Equal(t, want+"{\n"+
		" \"state\": \"FAULT\",\n"+
		" \"gasconsumed\": \"984030\",\n"+
		" \"script\": \"wh8MCHRyYW5zZmVyDBTPduKL0AYsSkeO41VhARMZ88+k0kFifVtS\",\n"+
		" \"stack\": [\n"+
		"  {\n"+
		"   \"type\": \"Boolean\",\n"+
		"   \"value\": true\n"+
		"  },\n"+
		"  {\n"+
		"   \"type\": \"ByteString\",\n"+
		"   \"value\": \"AQI=\"\n"+
		"  }\n"+
		" ],\n"+
		" \"exception\": \"at instruction 34 (SYSCALL): boom\",\n"+
		" \"notifications\": [\n"+
		"  {\n"+
		"   \"contract\": \"0xd2a4cff31913016155e38e474a2c06d08be276cf\",\n"+
		"   \"eventname\": \"Transfer\",\n"+
		"   \"state\": {\n"+
		"    \"type\": \"Array\",\n"+
		"    \"value\": [\n"+
		"     {\n"+
		"      \"type\": \"Any\"\n"+
		"     },\n"+
		"     {\n"+
		"      \"type\": \"Integer\",\n"+
		"      \"value\": \"5\"\n"+
		"     }\n"+
		"    ]\n"+
		"   }\n"+
		"  }\n"+
		" ]\n"+
		"}\n", mustUtil(t, "txdump", "-r", r, path))
	mustFailUtil(t, "missing input file", "txdump")
	mustFailUtil(t, "only one input file is accepted", "txdump", path, path)
	mustFailUtil(t, "can't read input file", "txdump", filepath.Join(t.TempDir(), "none"))
	mustFailUtil(t, "Method not found", "txdump", "-r", fakeNode(t, map[string]string{
		"getversion": `{"protocol":{"network":56753,"msperblock":1000}}`}), path)
}
