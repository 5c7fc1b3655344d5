// The issue 17 SDK check through neon-js 5.9: runs the same sequence of
// calls as mamba.py against one node and writes a normalized JSON
// transcript (step name -> answer, or error code/message/data). Run by
// run.sh: node neon.js RPC_URL WALLET_JSON OUT_JSON (NODE_PATH must reach
// @cityofzion/neon-js).
"use strict";
const fs = require("fs");
const Neon = require("@cityofzion/neon-js");
const { rpc, sc, tx, u, wallet } = Neon;

const [url, walletPath, outPath] = process.argv.slice(2);
const client = new rpc.RPCClient(url);
const NEO = "ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5";
const GAS = "d2a4cff31913016155e38e474a2c06d08be276cf";
const POLICY = "cc5e4edd9f5f8dba8bb65734541df7a1c081c67b";
const RECIPIENT = "NMUD7q5tYaFtw4w4hXk3feupGSGnv9jcrQ"; // 0x11…11; mamba.py uses 0x22…22
const out = {};

// Masks what legitimately differs between two chains built by two nodes:
// hashes, nonces, times, heights that follow the block pace, peers, ports,
// the user agent, signatures. Keys are matched case-insensitively.
const MASK_KEYS = new Set(["hash", "blockhash", "txhash", "txid", "nonce", "time", "timestamp", "blocktime",
  "merkleroot", "previousblockhash", "nextblockhash", "confirmations", "validuntilblock", "blockindex",
  "lastupdatedblock", "useragent", "tcpport", "wsport", "invocation", "session", "index", "blockcount",
  "nextconsensus", "primary", "witnesses", "size", "sysfee", "netfee", "tx"]);
function norm(v, key) {
  if (key !== undefined && MASK_KEYS.has(String(key).toLowerCase())) return "<masked>";
  if (key === "result" && typeof v === "number" && v > 0) return "<height>"; // getblockcount
  if (Array.isArray(v)) {
    const a = v.map((x) => norm(x));
    // neo-go lists NEP-17 balances in Go map order: compare them sorted.
    if (key === "balance") a.sort((x, y) => (x.assethash < y.assethash ? -1 : 1));
    if (v.length && v[0] && v[0].eventname === "Transfer" && v[0].contract === "0x" + GAS) return a;
    return a;
  }
  if (v && typeof v === "object") {
    const o = {};
    for (const k of Object.keys(v).sort()) o[k] = norm(v[k], k);
    // The GAS a NEO transfer claims for its sender follows the height.
    if (v.contract === "0x" + GAS && v.eventname === "Transfer" && v.state && v.state.value.length === 3 &&
        v.state.value[0].type === "Any") o.state.value[2].value = "<gas reward>";
    return o;
  }
  if (typeof v === "string") {
    return v.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
      .replace(/(0x)?[0-9a-fA-F]{64}/g, "<hash>");
  }
  return v;
}

async function raw(method, params) {
  const q = new rpc.Query({ method, params });
  return rpc.sendQuery(url, q);
}

// Records one step: the SDK's typed call must succeed or fail, and the
// transcript holds the raw JSON-RPC answer of the same request.
async function step(name, method, params, typed) {
  let sdk;
  if (method === "sendrawtransaction") {
    // Sent once, raw: a second sending would only answer "already exists".
    const r = await raw(method, params);
    out[name] = norm({ sdk: "raw", result: r.result, error: r.error });
    return r;
  }
  // Iterators and sessions change with each call: the raw answer is the
  // first one, the SDK's call sees what is left.
  const stateful = method === "traverseiterator" || method === "terminatesession";
  let r = stateful ? await raw(method, params) : undefined;
  try {
    await typed();
    sdk = "ok";
  } catch (e) {
    sdk = e instanceof rpc.RpcError || e.code !== undefined ? `rpc error ${e.code}: ${e.message}` : `error: ${e.message}`;
  }
  if (!stateful) r = await raw(method, params);
  out[name] = norm({ sdk, result: r.result, error: r.error });
  return r;
}

function waitFor(pred, what) {
  const deadline = Date.now() + 60000;
  return (async () => {
    for (;;) {
      const v = await pred();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timeout waiting for ${what}`);
      await new Promise((res) => setTimeout(res, 200));
    }
  })();
}

async function main() {
  const w = JSON.parse(fs.readFileSync(walletPath, "utf8"));
  const multi = w.accounts.find((a) => a.address === "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP");
  const wif = await wallet.decrypt(multi.key, "one", w.scrypt);
  const key = new wallet.Account(wif);
  const vscript = u.base642hex(multi.contract.script);
  const from = u.reverseHex(u.hash160(vscript));
  const version = await client.getVersion();
  const magic = version.protocol.network;
  function sign(t, k) {
    const sig = wallet.sign(t.getMessageForSigning(magic), k.privateKey);
    t.witnesses[0].invocationScript = u.HexString.fromHex("0c40" + sig);
  }

  await waitFor(async () => (await client.getBlockCount()) >= 3, "block 3");
  await step("getversion", "getversion", [], () => client.getVersion());
  await step("getblockcount", "getblockcount", [], () => client.getBlockCount());
  const b1 = await step("getblock index 1", "getblock", [1, true], () => client.getBlock(1, true));
  await step("getblock hash", "getblock", [b1.result.hash, true], () => client.getBlock(b1.result.hash, true));
  await step("getblockheader 1", "getblockheader", [1, true], () => client.getBlockHeader(1, true));
  await step("getcontractstate hash", "getcontractstate", ["0x" + NEO], () => client.getContractState("0x" + NEO));
  await step("getcontractstate name", "getcontractstate", ["GasToken"], () => client.getContractState("GasToken"));
  await step("getcontractstate id", "getcontractstate", [-3], () => client.getContractState(-3));
  await step("getnativecontracts", "getnativecontracts", [], () => client.getNativeContracts());
  await step("getcommittee", "getcommittee", [], () => client.getCommittee());
  await step("getnextblockvalidators", "getnextblockvalidators", [], () => client.getNextBlockValidators());
  await step("validateaddress", "validateaddress", [RECIPIENT], () => client.validateAddress(RECIPIENT));
  await step("invoke NEO symbol", "invokefunction", [NEO, "symbol", []], () => client.invokeFunction(NEO, "symbol", []));
  await step("invoke GAS decimals", "invokefunction", [GAS, "decimals", []], () => client.invokeFunction(GAS, "decimals", []));
  await step("invoke Policy getFeePerByte", "invokefunction", [POLICY, "getFeePerByte", []], () => client.invokeFunction(POLICY, "getFeePerByte", []));
  const hashArg = [{ type: "Hash160", value: "0x" + from }];
  await step("invoke NEO balanceOf validator", "invokefunction", [NEO, "balanceOf", hashArg],
    () => client.invokeFunction(NEO, "balanceOf", [sc.ContractParam.hash160(from)]));

  // FAULTs.
  const scripts = {
    "fault ABORT": "38",
    "fault unhandled exception": "0c04626f6f6d3a",
    "fault GAS limit": "2200",
  };
  for (const [n, s] of Object.entries(scripts)) {
    const b64 = u.hex2base64(s);
    await step(n, "invokescript", [b64], () => client.invokeScript(b64));
  }
  await step("fault missing method", "invokefunction", [NEO, "nosuch", []], () => client.invokeFunction(NEO, "nosuch", []));

  // A registered candidate, so that getAllCandidates below (here and in
  // mamba.py, which runs after) has an item to traverse: the validator's
  // single-signature account gets 1010 GAS and registers its key.
  {
    const single = key.scriptHash;
    const sv = u.base642hex(key.contract.script);
    const fund = sc.createScript({ scriptHash: GAS, operation: "transfer", args: [sc.ContractParam.hash160(from),
      sc.ContractParam.hash160(single), sc.ContractParam.integer(101000000000), sc.ContractParam.any(null)] });
    const reg = sc.createScript({ scriptHash: NEO, operation: "registerCandidate",
      args: [sc.ContractParam.publicKey(key.publicKey)] });
    for (const [name, script, signer, vs, nonce] of [["fund candidate", fund, from, vscript, 5151],
      ["registerCandidate", reg, single, sv, 5252]]) {
      const t = new tx.Transaction({ signers: [{ account: signer, scopes: tx.WitnessScope.CalledByEntry }],
        validUntilBlock: (await client.getBlockCount()) + 100, script, nonce });
      const inv = await client.invokeScript(u.HexString.fromHex(script), [{ account: signer, scopes: "CalledByEntry" }]);
      t.systemFee = u.BigInteger.fromNumber(inv.gasconsumed);
      t.addWitness(new tx.Witness({ invocationScript: "", verificationScript: vs }));
      t.networkFee = u.BigInteger.fromNumber(await client.calculateNetworkFee(t));
      sign(t, key);
      const b64 = u.hex2base64(t.serialize(true));
      await step(`sendrawtransaction ${name}`, "sendrawtransaction", [b64], () => client.sendRawTransaction(b64));
      const hash = "0x" + t.hash();
      await waitFor(async () => {
        try { await client.getTransactionHeight(hash); return true; } catch (e) { return false; }
      }, `${name} inclusion`);
      await step(`getapplicationlog ${name}`, "getapplicationlog", [hash], () => client.getApplicationLog(hash));
    }
  }

  // Iterator session.
  const it = await step("invoke NEO getAllCandidates", "invokefunction", [NEO, "getAllCandidates", []],
    () => client.invokeFunction(NEO, "getAllCandidates", []));
  const iter = it.result && it.result.stack && it.result.stack[0];
  if (iter && iter.id) {
    await step("traverseiterator", "traverseiterator", [it.result.session, iter.id, 10],
      () => client.traverseIterator(it.result.session, iter.id, 10));
    await step("terminatesession", "terminatesession", [it.result.session], () => client.execute(new rpc.Query({ method: "terminatesession", params: [it.result.session] })));
  }
  await step("traverseiterator unknown session", "traverseiterator",
    ["00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000", 10],
    () => client.traverseIterator("00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000", 10));

  // Transfers: NEO then GAS, from the validator's multisig account.
  async function build(contract, amount, signKey, signerHash) {
    const script = sc.createScript({ scriptHash: contract, operation: "transfer",
      args: [sc.ContractParam.hash160(signerHash), sc.ContractParam.hash160(wallet.getScriptHashFromAddress(RECIPIENT)),
        sc.ContractParam.integer(amount), sc.ContractParam.any(null)] });
    const height = await client.getBlockCount();
    const t = new tx.Transaction({ signers: [{ account: signerHash, scopes: tx.WitnessScope.CalledByEntry }],
      validUntilBlock: height + 100, script, nonce: 12345 });
    const inv = await client.invokeScript(u.HexString.fromHex(script), [{ account: signerHash, scopes: "CalledByEntry" }]);
    t.systemFee = u.BigInteger.fromNumber(inv.gasconsumed);
    t.addWitness(new tx.Witness({ invocationScript: "", verificationScript: vscript }));
    return t;
  }
  const sent = {};
  for (const [n, c, amt] of [["NEO", NEO, 10], ["GAS", GAS, 100000000]]) {
    const t = await build(c, amt, key, from);
    const b64 = u.hex2base64(t.serialize(true));
    const fee = await step(`calculatenetworkfee ${n} transfer`, "calculatenetworkfee", [b64], () => client.calculateNetworkFee(t));
    t.networkFee = u.BigInteger.fromNumber(fee.result.networkfee);
    sign(t, key);
    const signed = u.hex2base64(t.serialize(true));
    const hash = "0x" + t.hash();
    let r;
    try {
      await client.sendRawTransaction(signed);
      r = { sdk: "ok" };
    } catch (e) {
      r = { sdk: `rpc error ${e.code}: ${e.message}` };
    }
    out[`sendrawtransaction ${n} transfer`] = norm(r);
    await waitFor(async () => {
      try { await client.getTransactionHeight(hash); return true; } catch (e) { return false; }
    }, `${n} transfer inclusion`);
    await step(`getrawtransaction ${n} transfer`, "getrawtransaction", [hash, true], () => client.getRawTransaction(hash, true));
    await step(`getapplicationlog ${n} transfer`, "getapplicationlog", [hash], () => client.getApplicationLog(hash));
    // Rejections: the same transaction again.
    await step(`sendrawtransaction ${n} duplicate`, "sendrawtransaction", [signed], () => client.sendRawTransaction(signed));
    sent[n] = t;
  }
  const h = await client.getBlockCount();
  await waitFor(async () => (await client.getBlockCount()) >= h + 2, "two more blocks");
  await step("getnep17balances recipient", "getnep17balances", [RECIPIENT], () => client.getNep17Balances(RECIPIENT));
  await step("getnep17transfers recipient", "getnep17transfers", [RECIPIENT, 0], () => client.getNep17Transfers(RECIPIENT, "0"));
  await step("invoke NEO balanceOf recipient", "invokefunction",
    [NEO, "balanceOf", [{ type: "Hash160", value: "0x" + wallet.getScriptHashFromAddress(RECIPIENT) }]],
    () => client.invokeFunction(NEO, "balanceOf", [sc.ContractParam.hash160(wallet.getScriptHashFromAddress(RECIPIENT))]));

  // Bad witness: a valid transfer whose signature is over another magic.
  {
    const t = await build(NEO, 1, key, from);
    t.networkFee = sent.NEO.networkFee;
    const sig = wallet.sign(t.getMessageForSigning(magic + 1), key.privateKey);
    t.witnesses[0].invocationScript = u.HexString.fromHex("0c40" + sig);
    const b64 = u.hex2base64(t.serialize(true));
    await step("sendrawtransaction bad witness", "sendrawtransaction", [b64], () => client.sendRawTransaction(b64));
    await step("calculatenetworkfee bad witness", "calculatenetworkfee", [b64], () => client.calculateNetworkFee(t));
  }
  // Insufficient funds: a fresh account without GAS pays the fees.
  {
    const poor = new wallet.Account("L1QqQJnpBwbsPGAuutuzPTac8piqvbR1HRjrY5qHup48TBCBFe4g");
    const pv = u.base642hex(poor.contract.script);
    const ph = poor.scriptHash;
    const script = sc.createScript({ scriptHash: NEO, operation: "symbol", args: [] });
    const t = new tx.Transaction({ signers: [{ account: ph, scopes: tx.WitnessScope.CalledByEntry }],
      validUntilBlock: (await client.getBlockCount()) + 100, script, nonce: 777, systemFee: 1000000, networkFee: 2000000 });
    t.addWitness(new tx.Witness({ invocationScript: "0c40" + wallet.sign(t.getMessageForSigning(magic), poor.privateKey), verificationScript: pv }));
    const b64 = u.hex2base64(t.serialize(true));
    await step("sendrawtransaction insufficient funds", "sendrawtransaction", [b64], () => client.sendRawTransaction(b64));
  }
  // FAULTing transactions on chain (ABORT; a NEO transfer with too little
  // system fee): their stored application logs.
  const faults = [["ABORT tx", "38", 4242],
    ["GAS limit tx", sc.createScript({ scriptHash: NEO, operation: "transfer", args: [sc.ContractParam.hash160(from),
      sc.ContractParam.hash160(wallet.getScriptHashFromAddress(RECIPIENT)), sc.ContractParam.integer(1), sc.ContractParam.any(null)] }), 4343]];
  for (const [name, script, nonce] of faults) {
    const t = new tx.Transaction({ signers: [{ account: from, scopes: tx.WitnessScope.CalledByEntry }],
      validUntilBlock: (await client.getBlockCount()) + 100, script, nonce, systemFee: 1000000 });
    t.addWitness(new tx.Witness({ invocationScript: "", verificationScript: vscript }));
    const fee = await client.calculateNetworkFee(t);
    t.networkFee = u.BigInteger.fromNumber(fee);
    sign(t, key);
    const b64 = u.hex2base64(t.serialize(true));
    await step(`sendrawtransaction ${name}`, "sendrawtransaction", [b64], () => client.sendRawTransaction(b64));
    const hash = "0x" + t.hash();
    await waitFor(async () => {
      try { await client.getTransactionHeight(hash); return true; } catch (e) { return false; }
    }, `${name} inclusion`);
    await step(`getapplicationlog ${name}`, "getapplicationlog", [hash], () => client.getApplicationLog(hash));
  }

  // Unknown things.
  const zero = "0x" + "00".repeat(32);
  await step("getblock unknown index", "getblock", [1000000, true], () => client.getBlock(1000000, true));
  await step("getblock unknown hash", "getblock", [zero, true], () => client.getBlock(zero, true));
  await step("getrawtransaction unknown", "getrawtransaction", [zero, true], () => client.getRawTransaction(zero, true));
  await step("getapplicationlog unknown", "getapplicationlog", [zero], () => client.getApplicationLog(zero));
  await step("getcontractstate unknown hash", "getcontractstate", ["0x" + "11".repeat(20)], () => client.getContractState("0x" + "11".repeat(20)));
  await step("getcontractstate unknown name", "getcontractstate", ["NoSuchContract"], () => client.getContractState("NoSuchContract"));
  await step("getcontractstate unknown id", "getcontractstate", [12345], () => client.getContractState(12345));
  await step("invokefunction unknown contract", "invokefunction", ["11".repeat(20), "symbol", []], () => client.invokeFunction("11".repeat(20), "symbol", []));
  await step("gettransactionheight unknown", "gettransactionheight", [zero], () => client.getTransactionHeight(zero));
  await step("getblockhash unknown", "getblockhash", [1000000], () => client.getBlockHash(1000000));
  await step("unknown method", "nosuchmethod", [], () => client.execute(new rpc.Query({ method: "nosuchmethod", params: [] })));

  fs.writeFileSync(outPath, JSON.stringify(out, null, 1) + "\n");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
