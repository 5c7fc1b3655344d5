package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/urfave/cli/v3"
)

// utilCommand is neo-go's `util` group (its verbs in its order): offline
// helpers (convert, txdump, ops) and verbs that send (sendtx, canceltx).
func utilCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "util",
		Usage: "Various helper commands",
		Commands: []*cli.Command{
			{
				Name:  "convert",
				Usage: "Convert provided argument into other possible formats",
				UsageText: "n3d util convert <arg>\n\n" +
					"<arg> is an argument which is tried to be interpreted as an item of different types\n" +
					"        and converted to other formats. Strings are escaped and output in quotes.",
				Action: func(_ context.Context, cmd *cli.Command) error {
					if !cmd.Args().Present() {
						return errors.New("missing argument")
					}
					_, err := e.stdout.Write(convertArg(cmd.Args().First()))
					return err
				},
			},
			sendTxCommand(e),
			cancelTxCommand(e),
			txDumpCommand(e),
			opsCommand(e),
		},
	}
}

// convertArg lists every reading of arg neo-go's `util convert` prints, in
// its order, as "Name\tvalue" lines aligned by a tab-padding tabwriter.
func convertArg(arg string) []byte {
	var buf []byte
	if v, err := strconv.ParseInt(arg, 10, 64); err == nil {
		b := bigint.ToBytes(big.NewInt(v))
		buf = fmt.Appendf(buf, "Integer to Hex\t%x\n", b)
		buf = fmt.Appendf(buf, "Integer to Base64\t%s\n", base64.StdEncoding.EncodeToString(b))
	}
	if raw, err := hex.DecodeString(strings.TrimPrefix(arg, "0x")); err == nil {
		buf = appendHexReadings(buf, raw)
	}
	if h, err := address.StringToUint160(arg); err == nil {
		buf = fmt.Appendf(buf, "Address to BE ScriptHash\t%s\n", h.StringLE())
		buf = fmt.Appendf(buf, "Address to LE ScriptHash\t%s\n", h.StringBE())
		buf = fmt.Appendf(buf, "Address to Base64 (BE)\t%s\n", base64.StdEncoding.EncodeToString(h.BytesLE()))
		buf = fmt.Appendf(buf, "Address to Base64 (LE)\t%s\n", base64.StdEncoding.EncodeToString(h.BytesBE()))
	}
	if raw, err := base64.StdEncoding.DecodeString(arg); err == nil {
		buf = appendBase64Readings(buf, raw)
	}
	buf = fmt.Appendf(buf, "String to Hex\t%x\n", arg)
	buf = fmt.Appendf(buf, "String to Base64\t%s\n", base64.StdEncoding.EncodeToString([]byte(arg)))
	var out bytes.Buffer
	tw := tabwriter.NewWriter(&out, 0, 4, 4, '\t', 0)
	_, _ = tw.Write(buf) // writes to memory
	_ = tw.Flush()
	return out.Bytes()
}

// appendHexReadings appends the readings of hex-decoded bytes.
func appendHexReadings(buf, raw []byte) []byte {
	if h, err := util.Uint160DecodeBytesLE(raw); err == nil {
		buf = fmt.Appendf(buf, "BE ScriptHash to Address\t%s\n", address.Uint160ToString(h))
		buf = fmt.Appendf(buf, "LE ScriptHash to Address\t%s\n", address.Uint160ToString(h.Reverse()))
	}
	if _, sh, ok := convertKey(raw); ok {
		buf = fmt.Appendf(buf, "Public key to Base64\t%s\n", base64.StdEncoding.EncodeToString(raw))
		buf = appendKeyHashes(buf, sh)
	}
	buf = fmt.Appendf(buf, "Hex to String\t%q\n", raw)
	buf = fmt.Appendf(buf, "Hex to Integer\t%s\n", bigint.FromBytes(raw))
	buf = fmt.Appendf(buf, "Swap Endianness\t%x\n", reversed(raw))
	return buf
}

// appendBase64Readings appends the readings of base64-decoded bytes.
func appendBase64Readings(buf, raw []byte) []byte {
	buf = fmt.Appendf(buf, "Base64 to String\t%q\n", raw)
	buf = fmt.Appendf(buf, "Base64 to BigInteger\t%s\n", bigint.FromBytes(raw))
	if h, err := util.Uint160DecodeBytesLE(raw); err == nil {
		buf = fmt.Appendf(buf, "Base64 to BE ScriptHash\t%s\n", h.StringLE())
		buf = fmt.Appendf(buf, "Base64 to LE ScriptHash\t%s\n", h.StringBE())
		buf = fmt.Appendf(buf, "Base64 to Address (BE)\t%s\n", address.Uint160ToString(h))
		buf = fmt.Appendf(buf, "Base64 to Address (LE)\t%s\n", address.Uint160ToString(h.Reverse()))
	}
	if compressed, sh, ok := convertKey(raw); ok {
		buf = fmt.Appendf(buf, "Public key to Hex\t%x\n", compressed)
		buf = appendKeyHashes(buf, sh)
	}
	return buf
}

func appendKeyHashes(buf []byte, sh util.Uint160) []byte {
	buf = fmt.Appendf(buf, "Public key to BE ScriptHash\t%s\n", sh.StringLE())
	buf = fmt.Appendf(buf, "Public key to LE ScriptHash\t%s\n", sh.StringBE())
	return fmt.Appendf(buf, "Public key to Address\t%s\n", address.Uint160ToString(sh))
}

// convertKey reads raw as a secp256r1 public key the way neo-go's convert
// does, which also takes the single byte 0x00 (the point at infinity, whose
// "signature script" pushes that byte). It returns the compressed form and
// the hash of the key's signature script.
func convertKey(raw []byte) ([]byte, util.Uint160, bool) {
	if len(raw) == 1 && raw[0] == 0 {
		script := binary.LittleEndian.AppendUint32([]byte{0x0c, 0x01, 0x00, 0x41}, keys.CheckSigID)
		return []byte{0}, hash.Hash160(script), true
	}
	pub, err := keys.NewPublicKeyFromBytes(raw)
	if err != nil {
		return nil, util.Uint160{}, false
	}
	c := pub.Compressed()
	return c[:], pub.ScriptHash(), true
}

func reversed(b []byte) []byte {
	r := slices.Clone(b)
	slices.Reverse(r)
	return r
}
