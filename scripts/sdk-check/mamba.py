"""The issue 17 SDK check through neo-mamba 2.7: the same sequence of calls
as neon.js against one node, written as a normalized JSON transcript (step
name -> answer, or error code/message/data). Run by run.sh:
python mamba.py RPC_URL WALLET_JSON OUT_JSON."""
import asyncio
import base64
import json
import re
import sys
import time

from neo3.api import noderpc
from neo3.core import types
from neo3.network.payloads import transaction, verification
from neo3.wallet import account
from neo3.wallet.scrypt_parameters import ScryptParameters
from neo3 import vm

URL, WALLET, OUT = sys.argv[1:4]
NEO = "ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5"
GAS = "d2a4cff31913016155e38e474a2c06d08be276cf"
POLICY = "cc5e4edd9f5f8dba8bb65734541df7a1c081c67b"
MULTI = "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"
RECIPIENT_HASH = "22" * 20  # neon.js uses 11…
MASK_KEYS = {"hash", "blockhash", "txhash", "txid", "nonce", "time", "timestamp", "blocktime",
             "merkleroot", "previousblockhash", "nextblockhash", "confirmations", "validuntilblock",
             "blockindex", "lastupdatedblock", "useragent", "tcpport", "wsport", "invocation", "session",
             "index", "blockcount", "nextconsensus", "primary", "witnesses", "size", "sysfee", "netfee",
             "tx"}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
HASH = re.compile(r"(0x)?[0-9a-fA-F]{64}")
out = {}


def norm(v, key=None):
    """Masks what differs between two chains: hashes, nonces, times, heights
    that follow the block pace, peers, ports, user agent, signatures, session
    and iterator ids, and the GAS that a NEO transfer claims (height-bound)."""
    if key is not None and key.lower() in MASK_KEYS:
        return "<masked>"
    if key == "result" and isinstance(v, int) and not isinstance(v, bool) and v > 0:
        return "<height>"  # getblockcount
    if isinstance(v, list):
        a = [norm(x) for x in v]
        if key == "balance":  # neo-go lists NEP-17 balances in Go map order
            a.sort(key=lambda x: x.get("assethash", ""))
        return a
    if isinstance(v, dict):
        if v.get("contract") == "0x" + GAS and v.get("eventname") == "Transfer":
            st = v.get("state", {}).get("value", [])
            if len(st) == 3 and st[0].get("type") == "Any":
                v = dict(v, state=dict(v["state"], value=st[:2] + [{"type": "Integer", "value": "<gas reward>"}]))
        return {k: norm(v[k], k) for k in sorted(v)}
    if isinstance(v, str):
        return HASH.sub("<hash>", UUID.sub("<uuid>", v))
    return v


class Check:
    def __init__(self, client):
        self.c = client

    async def step(self, name, method, params, typed):
        if method == "sendrawtransaction":  # sent once: again would say "already exists"
            typed = None
        # Iterators and sessions change with each call: the raw answer is
        # the first one, the SDK's call sees what is left.
        stateful = method in ("traverseiterator", "terminatesession")
        r = await self.raw(method, params) if stateful else None
        try:
            if typed is None:
                raise LookupError
            await typed()
            sdk = "ok"
        except noderpc.JsonRpcError as e:
            sdk = f"rpc error {e.code}: {e.message}"
        except LookupError:
            sdk = "raw"
        except Exception as e:  # the SDK's own parsing failures are part of the answer
            sdk = f"error: {type(e).__name__}"
        if not stateful:
            r = await self.raw(method, params)
        out[name] = norm(dict(r, sdk=sdk))
        return r

    async def raw(self, method, params):
        try:
            return {"result": await self.c._do_post(method, params)}
        except noderpc.JsonRpcError as e:
            return {"error": {"code": e.code, "message": e.message, **({"data": e.data} if e.data else {})}}

    async def wait(self, pred, what):
        deadline = time.monotonic() + 60
        while True:
            if await pred():
                return
            if time.monotonic() > deadline:
                raise TimeoutError(what)
            await asyncio.sleep(0.2)


def b64(b):
    return base64.b64encode(b).decode()


async def main():
    w = json.load(open(WALLET))
    multi = next(a for a in w["accounts"] if a["address"] == MULTI)
    sp = ScryptParameters(w["scrypt"]["n"], w["scrypt"]["r"], w["scrypt"]["p"])
    acc = account.Account.from_json(dict(multi, extra=None), "one", sp)
    vscript = base64.b64decode(multi["contract"]["script"])
    sender = acc.script_hash
    recipient = types.UInt160.from_string(RECIPIENT_HASH)
    async with noderpc.NeoRpcClient(URL, timeout=30) as c:
        k = Check(c)
        magic = (await c.get_version()).protocol.network
        await k.step("getversion", "getversion", [], c.get_version)
        await k.step("getblockcount", "getblockcount", [], c.get_block_count)
        b1 = await k.step("getblock index 1", "getblock", [1, True], lambda: c.get_block(1))
        bh = b1["result"]["hash"]
        await k.step("getblock hash", "getblock", [bh, True], lambda: c.get_block(types.UInt256.from_string(bh)))
        await k.step("getblockheader 1", "getblockheader", [1, True], lambda: c.get_block_header(1))
        await k.step("getcontractstate hash", "getcontractstate", ["0x" + NEO],
                     lambda: c.get_contract_state(types.UInt160.from_string(NEO)))
        await k.step("getcontractstate name", "getcontractstate", ["GasToken"], lambda: c.get_contract_state("GasToken"))
        await k.step("getcontractstate id", "getcontractstate", [-3], lambda: c._do_post("getcontractstate", [-3]))
        await k.step("getnativecontracts", "getnativecontracts", [], lambda: c._do_post("getnativecontracts", []))
        await k.step("getcommittee", "getcommittee", [], c.get_committee)
        await k.step("getnextblockvalidators", "getnextblockvalidators", [], c.get_next_blockvalidators)
        await k.step("validateaddress", "validateaddress", [MULTI], lambda: c.validate_address(MULTI))
        for n, h, m in (("NEO symbol", NEO, "symbol"), ("GAS decimals", GAS, "decimals"),
                        ("Policy getFeePerByte", POLICY, "getFeePerByte")):
            await k.step(f"invoke {n}", "invokefunction", [h, m, []],
                         lambda h=h, m=m: c.invoke_function(types.UInt160.from_string(h), m))
        await k.step("invoke NEO balanceOf validator", "invokefunction",
                     [NEO, "balanceOf", [{"type": "Hash160", "value": "0x" + str(sender)}]],
                     lambda: c.invoke_function(types.UInt160.from_string(NEO), "balanceOf", [sender]))
        for n, s in (("fault ABORT", "38"), ("fault unhandled exception", "0c04626f6f6d3a"), ("fault GAS limit", "2200")):
            await k.step(n, "invokescript", [b64(bytes.fromhex(s))], lambda s=s: c.invoke_script(bytes.fromhex(s)))
        await k.step("fault missing method", "invokefunction", [NEO, "nosuch", []],
                     lambda: c.invoke_function(types.UInt160.from_string(NEO), "nosuch"))
        it = await k.step("invoke NEO getAllCandidates", "invokefunction", [NEO, "getAllCandidates", []],
                          lambda: c.invoke_function(types.UInt160.from_string(NEO), "getAllCandidates"))
        res = it.get("result", {})
        if res.get("session") and res.get("stack"):
            sid, iid = res["session"], res["stack"][0]["id"]
            await k.step("traverseiterator", "traverseiterator", [sid, iid, 10],
                         lambda: c._do_post("traverseiterator", [sid, iid, 10]))
            await k.step("terminatesession", "terminatesession", [sid], lambda: c._do_post("terminatesession", [sid]))
        z = "00000000-0000-0000-0000-000000000000"
        await k.step("traverseiterator unknown session", "traverseiterator", [z, z, 10],
                     lambda: c._do_post("traverseiterator", [z, z, 10]))

        async def build(script, signer_hash, vs, nonce, sysfee=None):
            t = transaction.Transaction(0, nonce, 0, 0, await c.get_block_count() + 100, [],
                                        [verification.Signer(signer_hash, verification.WitnessScope.CALLED_BY_ENTRY)],
                                        script, [verification.Witness(b"", vs)])
            if sysfee is None:
                r = await c.invoke_script(script, [verification.Signer(signer_hash, verification.WitnessScope.CALLED_BY_ENTRY)])
                sysfee = r.gas_consumed
            t.system_fee = sysfee
            return t

        def sign(t, m):
            t.witnesses = []
            acc.sign_multisig_tx(t, "one", account.MultiSigContext(), m)

        async def included(h):
            try:
                await c.get_transaction_height(h)
                return True
            except noderpc.JsonRpcError:
                return False

        def transfer_script(h, amount):
            sb = vm.ScriptBuilder()
            sb.emit_contract_call_with_args(types.UInt160.from_string(h), "transfer", [sender, recipient, amount, None])
            return sb.to_array()

        first = None
        for n, h, amt in (("NEO", NEO, 10), ("GAS", GAS, 100000000)):
            t = await build(transfer_script(h, amt), sender, vscript, 12345)
            fee = await k.step(f"calculatenetworkfee {n} transfer", "calculatenetworkfee", [b64(t.to_array())],
                               lambda t=t: c.calculate_network_fee(t))
            t.network_fee = int(fee["result"]["networkfee"])
            sign(t, magic)
            signed = t.to_array()
            try:
                await c.send_transaction(signed)
                out[f"sendrawtransaction {n} transfer"] = {"sdk": "ok"}
            except noderpc.JsonRpcError as e:
                out[f"sendrawtransaction {n} transfer"] = norm({"sdk": f"rpc error {e.code}: {e.message}"})
            th = "0x" + str(t.hash())
            await k.wait(lambda: included(th), f"{n} transfer inclusion")
            await k.step(f"getrawtransaction {n} transfer", "getrawtransaction", [th, True],
                         lambda: c.get_transaction(th))
            await k.step(f"getapplicationlog {n} transfer", "getapplicationlog", [th],
                         lambda: c.get_application_log_transaction(types.UInt256.from_string(th[2:])))
            await k.step(f"sendrawtransaction {n} duplicate", "sendrawtransaction", [b64(signed)],
                         lambda: c.send_transaction(signed))
            first = first or t
        h0 = await c.get_block_count()

        async def later():
            return await c.get_block_count() >= h0 + 2
        await k.wait(later, "two more blocks")
        from neo3.wallet.utils import script_hash_to_address
        addr = script_hash_to_address(recipient)
        await k.step("getnep17balances recipient", "getnep17balances", [addr], lambda: c.get_nep17_balances(addr))
        await k.step("getnep17transfers recipient", "getnep17transfers", [addr, 0],
                     lambda: c.get_nep17_transfers(addr))
        await k.step("invoke NEO balanceOf recipient", "invokefunction",
                     [NEO, "balanceOf", [{"type": "Hash160", "value": "0x" + RECIPIENT_HASH}]],
                     lambda: c.invoke_function(types.UInt160.from_string(NEO), "balanceOf", [recipient]))

        t = await build(transfer_script(NEO, 1), sender, vscript, 999)
        t.network_fee = first.network_fee
        sign(t, magic + 1)
        bad = t.to_array()
        await k.step("sendrawtransaction bad witness", "sendrawtransaction", [b64(bad)], lambda: c.send_transaction(bad))
        await k.step("calculatenetworkfee bad witness", "calculatenetworkfee", [b64(bad)],
                     lambda: c.calculate_network_fee(bad))

        poor = account.Account.from_wif("L1QqQJnpBwbsPGAuutuzPTac8piqvbR1HRjrY5qHup48TBCBFe4g", "x")
        sb = vm.ScriptBuilder()
        sb.emit_contract_call(types.UInt160.from_string(NEO), "symbol")
        t = await build(sb.to_array(), poor.script_hash, poor.contract.script, 777, 1000000)
        t.network_fee = 2000000
        t.witnesses = []
        poor.sign_tx(t, "x", magic)
        pt = t.to_array()
        await k.step("sendrawtransaction insufficient funds", "sendrawtransaction", [b64(pt)], lambda: c.send_transaction(pt))

        # FAULTing transactions on chain (ABORT; a NEO transfer with too
        # little system fee): their stored application logs.
        for name, script, nonce in (("ABORT tx", b"\x38", 4242), ("GAS limit tx", transfer_script(NEO, 1), 4343)):
            t = await build(script, sender, vscript, nonce, 1000000)
            t.network_fee = await c.calculate_network_fee(t)
            sign(t, magic)
            ab = t.to_array()
            await k.step(f"sendrawtransaction {name}", "sendrawtransaction", [b64(ab)], lambda: c.send_transaction(ab))
            th = "0x" + str(t.hash())
            await k.wait(lambda: included(th), f"{name} inclusion")
            await k.step(f"getapplicationlog {name}", "getapplicationlog", [th],
                         lambda: c.get_application_log_transaction(types.UInt256.from_string(th[2:])))

        zero = "0x" + "00" * 32
        zh = types.UInt256.zero()
        unk = "0x" + "11" * 20
        steps = [
            ("getblock unknown index", "getblock", [1000000, True], lambda: c.get_block(1000000)),
            ("getblock unknown hash", "getblock", [zero, True], lambda: c.get_block(zh)),
            ("getrawtransaction unknown", "getrawtransaction", [zero, True], lambda: c.get_transaction(zh)),
            ("getapplicationlog unknown", "getapplicationlog", [zero], lambda: c.get_application_log_transaction(zh)),
            ("getcontractstate unknown hash", "getcontractstate", [unk],
             lambda: c.get_contract_state(types.UInt160.from_string(unk[2:]))),
            ("getcontractstate unknown name", "getcontractstate", ["NoSuchContract"],
             lambda: c.get_contract_state("NoSuchContract")),
            ("getcontractstate unknown id", "getcontractstate", [12345], lambda: c._do_post("getcontractstate", [12345])),
            ("invokefunction unknown contract", "invokefunction", ["11" * 20, "symbol", []],
             lambda: c.invoke_function(types.UInt160.from_string("11" * 20), "symbol")),
            ("gettransactionheight unknown", "gettransactionheight", [zero], lambda: c.get_transaction_height(zh)),
            ("getblockhash unknown", "getblockhash", [1000000], lambda: c.get_block_hash(1000000)),
            ("unknown method", "nosuchmethod", [], lambda: c._do_post("nosuchmethod", [])),
        ]
        for s in steps:
            await k.step(*s)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=False)
        f.write("\n")


asyncio.run(main())
