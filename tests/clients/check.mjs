// The read calls of two third-party clients against a devnet or a real AvalancheGo node:
// AvalancheJS v3 (npm `avalanche` 3.16.0) and `@avalanche-sdk/client` 0.1.1 (viem-based, with
// the codec of @avalabs/avalanchejs 5). Each call must return without error, and what it
// returns must agree with the target's own answer to the same JSON-RPC call (read raw, without
// either library) or with a fact of the genesis every local network shares (the ewoq key, the
// local network's fees and staking rules).
//
//   node check.mjs [URL]        (default: $DEVNET_URL, else http://127.0.0.1:9650)
//
// Nothing is taken for granted about the target: its network ID, name and HRP, its own node
// ID, its chains, Subnets and L1s, and every block and transaction of its X- and P-chains are
// read from it first. So it runs against a fresh devnet (its start history), and against a
// node after the wallet tour (examples/examples/wallet.rs) or any other history. Every
// transaction is fetched by both clients and decoded by both codecs where they know its kind.
//
// Where a devnet and the node are meant to answer differently (platform.getBalance's legacy
// `address`, which AvalancheJS v3 sends), each is held to its own documented answer; whether
// the target is a devnet is learned from it too (a devnet serves /ext/devnet).
//
// Exit status 1 when a check fails; one line per check ("ok", "FAIL" with what was expected
// and what came, "skip" with why).

import { createHash } from "node:crypto";
import avalanchePkg from "avalanche";
import avmPkg from "avalanche/dist/apis/avm/index.js";
import pvmPkg from "avalanche/dist/apis/platformvm/index.js";
import { createAvalancheClient } from "@avalanche-sdk/client";
import { avalancheFuji } from "@avalanche-sdk/client/chains";
import { getTxFromBytes, utils as sdkUtils } from "@avalanche-sdk/client/utils";

const { Avalanche } = avalanchePkg;
const base = (process.argv[2] || process.env.DEVNET_URL || "http://127.0.0.1:9650").replace(/\/+$/, "");
const url = new URL(base);

// ---------------------------------------------------------------- reporting

let failures = 0;
let passed = 0;
let skipped = 0;
function check(ok, what, detail = "") {
  if (ok) {
    passed += 1;
    console.log(`ok    ${what}`);
  } else {
    failures += 1;
    console.log(`FAIL  ${what}${detail ? `: ${detail}` : ""}`);
  }
}
function skip(what, why) {
  skipped += 1;
  console.log(`skip  ${what}: ${why}`);
}

/** Runs `call`, reporting a throw as a failure; returns its value or undefined. */
async function attempt(what, call) {
  try {
    return await call();
  } catch (e) {
    check(false, what, `threw ${e && e.message ? e.message : e}`);
    return undefined;
  }
}

/**
 * A value as plain JSON, to compare a client's answer with the raw reply: bigints, bn.js
 * numbers and numbers as decimal strings (the node writes most integers as strings, the
 * libraries turn them into numbers), object keys sorted. Nothing else is forgiven.
 */
function plain(v) {
  if (v === undefined || v === null) return null;
  if (typeof v === "bigint" || typeof v === "number") return String(v);
  if (typeof v === "object" && typeof v.toArrayLike === "function") return v.toString(10); // bn.js
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === "object") {
    const o = {};
    for (const k of Object.keys(v).sort()) o[k] = plain(v[k]);
    return o;
  }
  return v;
}
const clip = (s) => (s.length > 240 ? `${s.slice(0, 240)}…` : s);
/** The path of the first difference between two plain values, with both sides there. */
function firstDifference(a, b, path = "") {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const keys = Array.isArray(a)
      ? [...Array(Math.max(a.length, b.length)).keys()]
      : [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const d = firstDifference(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`);
      if (d) return d;
    }
  }
  return { path: path || "(the whole value)", a, b };
}
/** One check: the client's `got` equals `expected` (the raw reply or a known fact). */
function same(what, got, expected) {
  const d = firstDifference(plain(expected), plain(got));
  if (d === undefined) return check(true, what);
  if (typeof d.a === "string" && typeof d.b === "string" && Math.max(d.a.length, d.b.length) > 80) {
    // Long strings (hex): where they part, with a little context, and both lengths.
    let i = 0;
    while (i < d.a.length && d.a[i] === d.b[i]) i += 1;
    const at = (t) => `${i > 16 ? "…" : ""}${t.slice(Math.max(0, i - 16), i + 48)}${t.length > i + 48 ? "…" : ""}`;
    return check(false, what, `at ${d.path}, character ${i}: expected ${at(d.a)} (${d.a.length} characters), got ${at(d.b)} (${d.b.length})`);
  }
  return check(false, what, `at ${d.path}: expected ${clip(JSON.stringify(d.a) ?? "nothing")}, got ${clip(JSON.stringify(d.b) ?? "nothing")}`);
}
const sorted = (xs) => [...xs].sort();

// ---------------------------------------------------------------- the target, read raw

async function rpc(path, method, params = {}) {
  let r;
  try {
    r = await fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
  } catch (e) {
    throw new Error(`${method} at ${base}${path}: ${e.cause?.message ?? e.message}`);
  }
  const text = await r.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${method} at ${path}: HTTP ${r.status}, not JSON: ${clip(text)}`);
  }
  if (body.error) throw new Error(`${method} at ${path}: ${body.error.message}`);
  return body.result;
}

/** The bytes of the node's "hex" encoding: 0x, the bytes, then the last 4 bytes of their SHA-256. */
function unhex(hex) {
  const all = Buffer.from(hex.replace(/^0x/, ""), "hex");
  const bytes = all.subarray(0, all.length - 4);
  const sum = createHash("sha256").update(bytes).digest().subarray(-4);
  if (!sum.equals(all.subarray(-4))) throw new Error(`hex without its checksum: ${clip(hex)}`);
  return bytes;
}

/** index.getLastAccepted, or undefined when the index holds nothing yet. */
async function lastIndexed(path) {
  try {
    return await rpc(path, "index.getLastAccepted", { encoding: "hex" });
  } catch (e) {
    if (/no containers have been accepted/.test(e.message)) return undefined;
    throw e;
  }
}

// Bech32 (BIP 173), written out so that an address is derived without either library.
const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
function bech32(hrp, bytes) {
  const words = [];
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = ((acc << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  for (const v of [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31), ...words, 0, 0, 0, 0, 0, 0]) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i];
  }
  chk ^= 1;
  const sum = [...Array(6).keys()].map((i) => (chk >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...sum].map((w) => CHARSET[w]).join("")}`;
}

// The node's names and HRPs of its known network IDs (utils/constants/network_ids.go); any
// other ID is named network-ID and uses the HRP `custom`.
const NETWORK_NAMES = { 1: "mainnet", 2: "cascade", 3: "denali", 4: "everest", 5: "fuji", 10: "testing", 12345: "local" };
const NETWORK_HRPS = { 1: "avax", 2: "cascade", 3: "denali", 4: "everest", 5: "fuji", 10: "testing", 12345: "local" };
const PRIMARY = "11111111111111111111111111111111LpoYY";
// ewoq, the key every local genesis funds (the node's genesis_local.json, so
// tests/node/genesis.json; the devnet's test key 0): its private key and address bytes.
const EWOQ_KEY = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";
const EWOQ_SHORT_ID = Buffer.from("3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c", "hex");
// The codecs' type IDs of the unsigned transactions (spec/codec/codecs.yaml).
const KINDS = {
  X: { 0: "BaseTx", 1: "CreateAssetTx", 2: "OperationTx", 3: "ImportTx", 4: "ExportTx" },
  P: {
    12: "AddValidatorTx", 13: "AddSubnetValidatorTx", 14: "AddDelegatorTx", 15: "CreateChainTx",
    16: "CreateSubnetTx", 17: "ImportTx", 18: "ExportTx", 19: "AdvanceTimeTx", 20: "RewardValidatorTx",
    23: "RemoveSubnetValidatorTx", 24: "TransformSubnetTx", 25: "AddPermissionlessValidatorTx",
    26: "AddPermissionlessDelegatorTx", 33: "TransferSubnetOwnershipTx", 34: "BaseTx",
    35: "ConvertSubnetToL1Tx", 36: "RegisterL1ValidatorTx", 37: "SetL1ValidatorWeightTx",
    38: "IncreaseL1ValidatorBalanceTx", 39: "DisableL1ValidatorTx",
  },
};

// A devnet answers JSON-RPC at /ext/devnet (here: that the method does not exist); a node has
// no such path (404).
const networkID = Number((await rpc("/ext/info", "info.getNetworkID")).networkID);
const devnetProbe = await fetch(`${base}/ext/devnet`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "devnet.none", params: {} }),
});
const isDevnet = devnetProbe.status === 200 && (await devnetProbe.json()).error?.code === -32601;
const hrp = NETWORK_HRPS[networkID] ?? "custom";
const ewoqX = `X-${bech32(hrp, EWOQ_SHORT_ID)}`;
const ewoqP = `P-${bech32(hrp, EWOQ_SHORT_ID)}`;
const nodeID = (await rpc("/ext/info", "info.getNodeID")).nodeID;
const version = await rpc("/ext/info", "info.getNodeVersion");
const chainIDs = {};
for (const alias of ["X", "P", "C"]) {
  chainIDs[alias] = (await rpc("/ext/info", "info.getBlockchainID", { alias })).blockchainID;
}
const avax = await rpc("/ext/bc/X", "avm.getAssetDescription", { assetID: "AVAX" });
const validators = (await rpc("/ext/bc/P", "platform.getCurrentValidators")).validators;
const self = validators.find((v) => v.nodeID === nodeID);
const chains = (await rpc("/ext/bc/P", "platform.getBlockchains")).blockchains;
const subnets = (await rpc("/ext/bc/P", "platform.getSubnets")).subnets;

/** Every block of a chain from height 0, and the IDs of the transactions in each. */
async function blocksOf(chain) {
  const ns = chain === "X" ? "avm" : "platform";
  const height = Number((await rpc(`/ext/bc/${chain}`, `${ns}.getHeight`)).height);
  const blocks = [];
  for (let h = 0; h <= height; h++) {
    const { block } = await rpc(`/ext/bc/${chain}`, `${ns}.getBlockByHeight`, { height: String(h), encoding: "json" });
    const txs = block.txs ?? (block.tx ? [block.tx] : []);
    blocks.push({ height: h, id: block.id, txIDs: txs.map((t) => t.id) });
  }
  return blocks;
}
const blocks = { X: await blocksOf("X"), P: await blocksOf("P") };
// Every transaction: the X-chain's genesis (the AVAX asset's CreateAssetTx), the P-chain's
// genesis validator that is this node, and all in blocks.
const txs = [
  { chain: "X", id: avax.assetID, where: "genesis" },
  ...(self ? [{ chain: "P", id: self.txID, where: "genesis" }] : []),
  ...["X", "P"].flatMap((chain) =>
    blocks[chain].flatMap((b) => b.txIDs.map((id) => ({ chain, id, where: `block ${b.height}` }))),
  ),
];
for (const tx of txs) {
  const path = `/ext/bc/${tx.chain}`;
  const ns = tx.chain === "X" ? "avm" : "platform";
  tx.hex = (await rpc(path, `${ns}.getTx`, { txID: tx.id, encoding: "hex" })).tx;
  tx.json = await rpc(path, `${ns}.getTx`, { txID: tx.id, encoding: "json" });
  tx.status = await rpc(path, `${ns}.getTxStatus`, { txID: tx.id });
  tx.bytes = unhex(tx.hex);
  const typeID = tx.bytes.readUInt32BE(2);
  tx.kind = KINDS[tx.chain][typeID] ?? `type ${typeID}`;
  tx.label = `${tx.chain} ${tx.kind} ${tx.id} (${tx.where})`;
}
const subnetChains = chains.filter((c) => c.subnetID !== PRIMARY);
const otherSubnets = subnets.filter((s) => s.id !== PRIMARY);

console.log(
  `${isDevnet ? "devnet" : "node"} ${base}: network ${networkID} (HRP ${hrp}), ${version.version}, node ${nodeID}; ` +
    `X ${blocks.X.length} blocks, P ${blocks.P.length} blocks, ${txs.length} transactions ` +
    `(${[...new Set(txs.map((t) => `${t.chain} ${t.kind}`))].join(", ")}); ` +
    `${otherSubnets.length} Subnets besides the primary network, ${subnetChains.length} chains on them\n`,
);

// What the target must hold for the checks below to mean anything.
const ewoqXBalance = await rpc("/ext/bc/X", "avm.getBalance", { address: ewoqX, assetID: "AVAX" });
check(BigInt(ewoqXBalance.balance) > 0n, `target: ${ewoqX} (ewoq in HRP ${hrp}) holds AVAX`, ewoqXBalance.balance);
check(self !== undefined, `target: its node ${nodeID} is a current validator of the primary network`);
check(chainIDs.P === PRIMARY, `target: the P-chain's ID is ${PRIMARY}`, chainIDs.P);

// ---------------------------------------------------------------- AvalancheJS v3
{
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const avalanche = new Avalanche(url.hostname, port, url.protocol.replace(":", ""), networkID);
  const info = avalanche.Info();
  const x = avalanche.XChain();
  const p = avalanche.PChain();
  const index = avalanche.Index();
  const tag = "avalanchejs";

  // The keychain derives ewoq's addresses in the network's HRP.
  same(`${tag} keychain: the ewoq key's X address`, x.keyChain().importKey(EWOQ_KEY).getAddressString(), ewoqX);
  same(`${tag} keychain: the ewoq key's P address`, p.keyChain().importKey(EWOQ_KEY).getAddressString(), ewoqP);

  // ---- info
  const rawNodeID = await rpc("/ext/info", "info.getNodeID");
  const nid = await attempt(`${tag} info.getNodeID`, () => info.getNodeID());
  if (nid !== undefined) same(`${tag} info.getNodeID agrees`, nid, rawNodeID.nodeID);
  const netID = await attempt(`${tag} info.getNetworkID`, () => info.getNetworkID());
  if (netID !== undefined) same(`${tag} info.getNetworkID agrees`, netID, networkID);
  const rawName = (await rpc("/ext/info", "info.getNetworkName")).networkName;
  const name = await attempt(`${tag} info.getNetworkName`, () => info.getNetworkName());
  if (name !== undefined) {
    same(`${tag} info.getNetworkName agrees`, name, rawName);
    same(`${tag} info.getNetworkName is the node's name for ID ${networkID}`, name, NETWORK_NAMES[networkID] ?? `network-${networkID}`);
  }
  for (const alias of ["X", "P", "C"]) {
    const id = await attempt(`${tag} info.getBlockchainID(${alias})`, () => info.getBlockchainID(alias));
    if (id !== undefined) same(`${tag} info.getBlockchainID(${alias}) agrees`, id, chainIDs[alias]);
  }
  const ver = await attempt(`${tag} info.getNodeVersion`, () => info.getNodeVersion());
  if (ver !== undefined) {
    same(`${tag} info.getNodeVersion agrees`, ver, version.version);
    check(/^avalanchego\/\d+\.\d+\.\d+$/.test(ver), `${tag} info.getNodeVersion is avalanchego/X.Y.Z`, ver);
  }
  for (const chain of ["X", "P"]) {
    const rawBoot = await rpc("/ext/info", "info.isBootstrapped", { chain });
    const boot = await attempt(`${tag} info.isBootstrapped(${chain})`, () => info.isBootstrapped(chain));
    if (boot !== undefined) same(`${tag} info.isBootstrapped(${chain}) agrees, true`, [boot, boot], [rawBoot.isBootstrapped, true]);
  }
  // Its peers are the other validators of its genesis: none for the node (the sole staker of
  // its network), four for the devnet (five genesis validators, run in its process).
  const genesisValidators = Object.keys(await rpc("/ext/bc/P", "platform.getValidatorsAt", { height: "0" }));
  const rawPeers = await rpc("/ext/info", "info.peers");
  const peers = await attempt(`${tag} info.peers`, () => info.peers());
  if (peers !== undefined) {
    const ids = sorted(peers.map((q) => q.nodeID));
    same(`${tag} info.peers agrees`, ids, sorted(rawPeers.peers.map((q) => q.nodeID)));
    same(`${tag} info.peers: the other genesis validators`, ids, sorted(genesisValidators.filter((id) => id !== nodeID)));
  }
  const rawFee = await rpc("/ext/info", "info.getTxFee");
  const fee = await attempt(`${tag} info.getTxFee`, () => info.getTxFee());
  if (fee !== undefined) {
    same(`${tag} info.getTxFee agrees`, fee.txFee, rawFee.txFee);
    same(`${tag} info.getTxFee: the local network's X fee`, fee.txFee, "1000000");
    // AvalancheJS v3 reads the asset-creation fee from `creationTxFee`, which nodes no longer
    // send (they send `createAssetTxFee`): it has nothing to compare.
    if (rawFee.creationTxFee === undefined) skip(`${tag} info.getTxFee creationTxFee`, "AvalancheJS v3 reads `creationTxFee`; the target sends `createAssetTxFee` instead");
    else same(`${tag} info.getTxFee creationTxFee agrees`, fee.creationTxFee, rawFee.creationTxFee);
  }
  const rawUp = await rpc("/ext/info", "info.uptime");
  const up = await attempt(`${tag} info.uptime`, () => info.uptime());
  if (up !== undefined) same(`${tag} info.uptime agrees`, up, rawUp);

  // ---- X-chain
  const rawBal = await rpc("/ext/bc/X", "avm.getBalance", { address: ewoqX, assetID: "AVAX" });
  const bal = await attempt(`${tag} avm.getBalance`, () => x.getBalance(ewoqX, "AVAX"));
  if (bal !== undefined) same(`${tag} avm.getBalance agrees`, bal, rawBal);
  const rawAll = await rpc("/ext/bc/X", "avm.getAllBalances", { address: ewoqX });
  const all = await attempt(`${tag} avm.getAllBalances`, () => x.getAllBalances(ewoqX));
  if (all !== undefined) same(`${tag} avm.getAllBalances agrees`, all, rawAll.balances);
  const desc = await attempt(`${tag} avm.getAssetDescription`, () => x.getAssetDescription("AVAX"));
  if (desc !== undefined) {
    same(
      `${tag} avm.getAssetDescription agrees`,
      { assetID: avalanchePkg.BinTools.getInstance().cb58Encode(desc.assetID), name: desc.name, symbol: desc.symbol, denomination: desc.denomination },
      { assetID: avax.assetID, name: avax.name, symbol: avax.symbol, denomination: avax.denomination },
    );
    same(`${tag} avm.getAssetDescription: AVAX, 9 decimals`, [desc.symbol, desc.denomination], ["AVAX", 9]);
  }
  const avaxID = await attempt(`${tag} getAVAXAssetID`, () => x.getAVAXAssetID(true));
  if (avaxID !== undefined) same(`${tag} getAVAXAssetID agrees`, avalanchePkg.BinTools.getInstance().cb58Encode(avaxID), avax.assetID);
  const rawUtxos = await rpc("/ext/bc/X", "avm.getUTXOs", { addresses: [ewoqX], encoding: "hex" });
  const utxos = await attempt(`${tag} avm.getUTXOs (parsed by AvalancheJS's codec)`, () => x.getUTXOs([ewoqX]));
  if (utxos !== undefined) {
    same(`${tag} avm.getUTXOs count agrees`, utxos.numFetched, rawUtxos.numFetched);
    const parsed = utxos.utxos.getAllUTXOs();
    same(
      `${tag} avm.getUTXOs: every UTXO parsed and encoded back byte for byte`,
      sorted(parsed.map((u) => u.toBuffer().toString("hex"))),
      sorted(rawUtxos.utxos.map((h) => unhex(h).toString("hex"))),
    );
    const avaxBytes = avalanchePkg.BinTools.getInstance().cb58Decode(avax.assetID).toString("hex");
    same(
      `${tag} avm.getUTXOs: the IDs of its AVAX UTXOs are avm.getBalance's`,
      sorted(parsed.filter((u) => u.getAssetID().toString("hex") === avaxBytes).map((u) => `${avalanchePkg.BinTools.getInstance().cb58Encode(u.getTxID())}:${u.getOutputIdx().readUInt32BE(0)}`)),
      sorted(rawBal.utxoIDs.map((u) => `${u.txID}:${u.outputIndex}`)),
    );
    const amount = utxos.utxos.getBalance([x.parseAddress(ewoqX)], avaxID || Buffer.alloc(32));
    same(`${tag} UTXOSet balance equals avm.getBalance`, amount, rawBal.balance);
  }

  // ---- P-chain
  // AvalancheJS v3 sends the one `address` of nodes before v1.9.16. Nodes since ignore it and
  // total no address (zeros); a server built from the spec (the devnet) counts it with
  // `addresses` (spec/interfaces/platform.yaml, platform.getBalance `address`).
  const rawPBal = await rpc("/ext/bc/P", "platform.getBalance", { addresses: [ewoqP] });
  const rawPBalLegacy = await rpc("/ext/bc/P", "platform.getBalance", { address: ewoqP });
  const pbal = await attempt(`${tag} platform.getBalance`, () => p.getBalance(ewoqP));
  if (pbal !== undefined) {
    same(`${tag} platform.getBalance agrees with the reply to its request ({address})`, pbal, rawPBalLegacy);
    if (isDevnet) same(`${tag} platform.getBalance: the devnet counts \`address\` as one of \`addresses\``, pbal, rawPBal);
    else same(`${tag} platform.getBalance: the node ignores \`address\` (zeros, as for no address)`, pbal, await rpc("/ext/bc/P", "platform.getBalance", { addresses: [] }));
  }
  const rawPHeight = (await rpc("/ext/bc/P", "platform.getHeight")).height;
  const pheight = await attempt(`${tag} platform.getHeight`, () => p.getHeight());
  if (pheight !== undefined) same(`${tag} platform.getHeight agrees`, pheight, rawPHeight);
  const cv = await attempt(`${tag} platform.getCurrentValidators`, () => p.getCurrentValidators());
  if (cv !== undefined) same(`${tag} platform.getCurrentValidators agrees`, cv.validators, validators);
  const stakeID = await attempt(`${tag} platform.getStakingAssetID`, () => p.getStakingAssetID());
  if (stakeID !== undefined) same(`${tag} platform.getStakingAssetID is AVAX`, stakeID, avax.assetID);
  const rawTotal = await rpc("/ext/bc/P", "platform.getTotalStake", { subnetID: PRIMARY });
  const total = await attempt(`${tag} platform.getTotalStake`, () => p.getTotalStake());
  if (total !== undefined) same(`${tag} platform.getTotalStake agrees`, total, rawTotal.weight);
  const rawSupply = await rpc("/ext/bc/P", "platform.getCurrentSupply");
  const supply = await attempt(`${tag} platform.getCurrentSupply`, () => p.getCurrentSupply());
  if (supply !== undefined) same(`${tag} platform.getCurrentSupply agrees`, supply, rawSupply.supply);
  const rawMin = await rpc("/ext/bc/P", "platform.getMinStake");
  const min = await attempt(`${tag} platform.getMinStake`, () => p.getMinStake(true));
  if (min !== undefined) {
    same(`${tag} platform.getMinStake agrees`, min, rawMin);
    same(`${tag} platform.getMinStake: the local network's 2,000 and 25 AVAX`, min, { minValidatorStake: "2000000000000", minDelegatorStake: "25000000000" });
  }
  const bcs = await attempt(`${tag} platform.getBlockchains`, () => p.getBlockchains());
  if (bcs !== undefined) same(`${tag} platform.getBlockchains agrees`, bcs, chains);
  const sns = await attempt(`${tag} platform.getSubnets`, () => p.getSubnets());
  if (sns !== undefined) same(`${tag} platform.getSubnets agrees`, sns, subnets);
  const rawTs = (await rpc("/ext/bc/P", "platform.getTimestamp")).timestamp;
  const ts = await attempt(`${tag} platform.getTimestamp`, () => p.getTimestamp());
  if (ts !== undefined) same(`${tag} platform.getTimestamp agrees`, ts, rawTs);
  const rawVat = await rpc("/ext/bc/P", "platform.getValidatorsAt", { height: "0" });
  const vat = await attempt(`${tag} platform.getValidatorsAt(0)`, () => p.getValidatorsAt(0));
  if (vat !== undefined) same(`${tag} platform.getValidatorsAt(0) agrees`, vat, rawVat);
  // A weighted sample with replacement: each one drawn is a current validator.
  const sample = await attempt(`${tag} platform.sampleValidators`, () => p.sampleValidators(2));
  if (sample !== undefined) {
    const current = new Set(validators.map((v) => v.nodeID));
    check(sample.length === 2 && sample.every((id) => current.has(id)), `${tag} platform.sampleValidators: two current validators`, JSON.stringify(sample));
  }
  const vby = await attempt(`${tag} platform.validatedBy(X)`, () => p.validatedBy(chainIDs.X));
  if (vby !== undefined) same(`${tag} platform.validatedBy(X) is the primary network`, vby, PRIMARY);
  const rawValidates = (await rpc("/ext/bc/P", "platform.validates", { subnetID: PRIMARY })).blockchainIDs;
  const vs = await attempt(`${tag} platform.validates(primary network)`, () => p.validates(PRIMARY));
  if (vs !== undefined) {
    same(`${tag} platform.validates(primary network) agrees`, sorted(vs), sorted(rawValidates));
    same(`${tag} platform.validates(primary network) is X and C`, sorted(vs), sorted([chainIDs.X, chainIDs.C]));
  }
  const bstatus = await attempt(`${tag} platform.getBlockchainStatus(X)`, () => p.getBlockchainStatus(chainIDs.X));
  if (bstatus !== undefined) same(`${tag} platform.getBlockchainStatus(X): Validating`, bstatus, "Validating");
  const rawPUtxos = await rpc("/ext/bc/P", "platform.getUTXOs", { addresses: [ewoqP], encoding: "hex" });
  const putxos = await attempt(`${tag} platform.getUTXOs (parsed by AvalancheJS's codec)`, () => p.getUTXOs([ewoqP]));
  if (putxos !== undefined) {
    same(
      `${tag} platform.getUTXOs: every UTXO parsed and encoded back byte for byte`,
      sorted(putxos.utxos.getAllUTXOs().map((u) => u.toBuffer().toString("hex"))),
      sorted(rawPUtxos.utxos.map((h) => unhex(h).toString("hex"))),
    );
  }
  const rawStake = await rpc("/ext/bc/P", "platform.getStake", { addresses: [ewoqP], encoding: "hex" });
  const stake = await attempt(`${tag} platform.getStake (outputs parsed by AvalancheJS's codec)`, () => p.getStake([ewoqP]));
  if (stake !== undefined) {
    same(`${tag} platform.getStake agrees`, stake.staked, rawStake.staked);
    same(
      `${tag} platform.getStake: every staked output parsed and encoded back byte for byte`,
      sorted(stake.stakedOutputs.map((o) => o.toBuffer().toString("hex"))),
      // The codec version (2 bytes) before each output is not part of it.
      sorted(rawStake.stakedOutputs.map((h) => unhex(h).subarray(2).toString("hex"))),
    );
  }
  if (self) {
    const rawRewards = await rpc("/ext/bc/P", "platform.getRewardUTXOs", { txID: self.txID, encoding: "hex" });
    const rewards = await attempt(`${tag} platform.getRewardUTXOs`, () => p.getRewardUTXOs(self.txID, "hex"));
    if (rewards !== undefined) {
      same(`${tag} platform.getRewardUTXOs agrees`, rewards, rawRewards);
      same(`${tag} platform.getRewardUTXOs: none while the validator validates`, rewards.numFetched, "0");
    }
  }

  // ---- Subnets, their chains and L1s, as the target holds them
  if (otherSubnets.length === 0) skip(`${tag} Subnets and L1s`, "the target has no Subnet besides the primary network");
  for (const s of otherSubnets) {
    const raw = (await rpc("/ext/bc/P", "platform.validates", { subnetID: s.id })).blockchainIDs;
    const got = await attempt(`${tag} platform.validates(${s.id})`, () => p.validates(s.id));
    if (got !== undefined) {
      same(`${tag} platform.validates(${s.id}) agrees`, sorted(got), sorted(raw));
      same(`${tag} platform.validates(${s.id}): its chains`, sorted(got), sorted(chains.filter((c) => c.subnetID === s.id).map((c) => c.id)));
    }
    const rawCv = await rpc("/ext/bc/P", "platform.getCurrentValidators", { subnetID: s.id });
    const scv = await attempt(`${tag} platform.getCurrentValidators(${s.id})`, () => p.getCurrentValidators(s.id));
    if (scv !== undefined) same(`${tag} platform.getCurrentValidators(${s.id}) agrees`, scv, rawCv);
  }
  for (const c of subnetChains) {
    const vb = await attempt(`${tag} platform.validatedBy(${c.name})`, () => p.validatedBy(c.id));
    if (vb !== undefined) same(`${tag} platform.validatedBy(${c.name}) is its Subnet`, vb, c.subnetID);
    const raw = (await rpc("/ext/bc/P", "platform.getBlockchainStatus", { blockchainID: c.id })).status;
    const st = await attempt(`${tag} platform.getBlockchainStatus(${c.name})`, () => p.getBlockchainStatus(c.id));
    if (st !== undefined) same(`${tag} platform.getBlockchainStatus(${c.name}) agrees`, st, raw);
  }

  // ---- every transaction: fetched, its status, and decoded by AvalancheJS's codec
  const unknownKinds = new Map(); // kind -> how many transactions of it AvalancheJS v3 cannot decode
  for (const tx of txs) {
    const api = tx.chain === "X" ? x : p;
    const got = await attempt(`${tag} getTx ${tx.label}`, () => api.getTx(tx.id));
    if (got !== undefined) same(`${tag} getTx agrees: ${tx.label}`, got, tx.hex);
    const status = await attempt(`${tag} getTxStatus ${tx.label}`, () => api.getTxStatus(tx.id));
    if (status !== undefined) same(`${tag} getTxStatus agrees: ${tx.label}`, typeof status === "string" ? { status } : status, tx.status);
    const Tx = tx.chain === "X" ? avmPkg.Tx : pvmPkg.Tx;
    let parsed;
    try {
      parsed = new Tx();
      parsed.fromBuffer(tx.bytes);
    } catch (e) {
      if (/SelectTxClass: unknown txtype/.test(String(e && e.message))) {
        const kind = `${tx.chain} ${tx.kind}`;
        unknownKinds.set(kind, (unknownKinds.get(kind) ?? 0) + 1);
      } else {
        check(false, `${tag} codec decodes ${tx.label}`, `threw ${e && e.message ? e.message : e}`);
      }
      continue;
    }
    same(`${tag} codec: ${tx.label} decodes and encodes back byte for byte`, parsed.toBuffer().toString("hex"), tx.bytes.toString("hex"));
  }
  for (const [kind, n] of unknownKinds) {
    skip(`${tag} codec: ${kind} (${n} transaction${n === 1 ? "" : "s"})`, "AvalancheJS v3 has no class for this kind (SelectTxClass: unknown txtype)");
  }

  // ---- the block indexes
  for (const chain of ["X", "P"]) {
    const path = `/ext/index/${chain}/block`;
    const rawLast = await lastIndexed(path);
    if (rawLast === undefined) {
      skip(`${tag} index (${chain})`, "the target's block index is empty (no block after genesis)");
      continue;
    }
    const last = await attempt(`${tag} index.getLastAccepted (${chain})`, () => index.getLastAccepted("hex", path));
    if (last !== undefined) same(`${tag} index.getLastAccepted (${chain}) agrees`, last, rawLast);
    const rawFirst = await rpc(path, "index.getContainerByIndex", { index: "0", encoding: "hex" });
    const first = await attempt(`${tag} index.getContainerByIndex (${chain})`, () => index.getContainerByIndex("0", "hex", path));
    if (first !== undefined) same(`${tag} index.getContainerByIndex(0) (${chain}) agrees`, first, rawFirst);
    const byId = await attempt(`${tag} index.getContainerByID (${chain})`, () => index.getContainerByID(rawLast.id, "hex", path));
    if (byId !== undefined) same(`${tag} index.getContainerByID (${chain}) agrees`, byId, rawLast);
    const n = Number(rawLast.index) + 1;
    const rawRange = await rpc(path, "index.getContainerRange", { startIndex: "0", numToFetch: String(n), encoding: "hex" });
    const range = await attempt(`${tag} index.getContainerRange (${chain})`, () => index.getContainerRange(0, n, "hex", path));
    if (range !== undefined) same(`${tag} index.getContainerRange(0, ${n}) (${chain}) agrees`, range, rawRange);
    const idx = await attempt(`${tag} index.getIndex (${chain})`, () => index.getIndex(rawLast.id, "hex", path));
    if (idx !== undefined) same(`${tag} index.getIndex (${chain}) agrees`, idx, rawLast.index);
    const acc = await attempt(`${tag} index.isAccepted (${chain})`, () => index.isAccepted(rawLast.id, "hex", path));
    if (acc !== undefined) same(`${tag} index.isAccepted (${chain}): true`, typeof acc === "boolean" ? acc : acc.isAccepted, true);
  }
}

// ---------------------------------------------------------------- @avalanche-sdk/client
{
  // A known chain (Fuji) with the target's URL: the client derives every API's path from
  // the URL's origin.
  const client = createAvalancheClient({
    chain: avalancheFuji,
    transport: { type: "http", url: `${base}/ext/bc/C/rpc` },
  });
  const tag = "avalanche-sdk";

  // ---- info
  const rawNode = await rpc("/ext/info", "info.getNodeID");
  const nid = await attempt(`${tag} info.getNodeID`, () => client.info.getNodeID());
  if (nid !== undefined) same(`${tag} info.getNodeID agrees (ID and proof of possession)`, nid, rawNode);
  const netID = await attempt(`${tag} info.getNetworkID`, () => client.info.getNetworkID());
  if (netID !== undefined) same(`${tag} info.getNetworkID agrees`, netID.networkID, networkID);
  const rawName = await rpc("/ext/info", "info.getNetworkName");
  const name = await attempt(`${tag} info.getNetworkName`, () => client.info.getNetworkName());
  if (name !== undefined) same(`${tag} info.getNetworkName agrees`, name, rawName);
  const bid = await attempt(`${tag} info.getBlockchainID(P)`, () => client.info.getBlockchainID({ alias: "P" }));
  if (bid !== undefined) same(`${tag} info.getBlockchainID(P) agrees`, bid.blockchainID, chainIDs.P);
  const ver = await attempt(`${tag} info.getNodeVersion`, () => client.info.getNodeVersion());
  if (ver !== undefined) same(`${tag} info.getNodeVersion agrees`, ver, version);
  const boot = await attempt(`${tag} info.isBootstrapped(X)`, () => client.info.isBootstrapped({ chain: "X" }));
  if (boot !== undefined) same(`${tag} info.isBootstrapped(X): true`, boot.isBootstrapped, true);
  const rawPeers = await rpc("/ext/info", "info.peers");
  const peers = await attempt(`${tag} info.peers`, () => client.info.peers({ nodeIDs: [] }));
  if (peers !== undefined) {
    same(
      `${tag} info.peers agrees`,
      { numPeers: peers.numPeers, nodeIDs: sorted(peers.peers.map((q) => q.nodeID)) },
      { numPeers: rawPeers.numPeers, nodeIDs: sorted(rawPeers.peers.map((q) => q.nodeID)) },
    );
  }
  const rawFee = await rpc("/ext/info", "info.getTxFee");
  const fee = await attempt(`${tag} info.getTxFee`, () => client.info.getTxFee());
  if (fee !== undefined) same(`${tag} info.getTxFee agrees`, fee, rawFee);
  const rawUp = await rpc("/ext/info", "info.uptime");
  const up = await attempt(`${tag} info.uptime`, () => client.info.uptime());
  if (up !== undefined) same(`${tag} info.uptime agrees`, up, rawUp);
  const rawUpgrades = await rpc("/ext/info", "info.upgrades");
  const upgrades = await attempt(`${tag} info.upgrades`, () => client.info.upgrades());
  if (upgrades !== undefined) same(`${tag} info.upgrades agrees`, upgrades, rawUpgrades);
  const rawVms = await rpc("/ext/info", "info.getVMs");
  const vms = await attempt(`${tag} info.getVMs`, () => client.info.getVMs());
  if (vms !== undefined) same(`${tag} info.getVMs agrees`, vms, rawVms);

  // ---- P-chain
  const rawPHeight = await rpc("/ext/bc/P", "platform.getHeight");
  const ph = await attempt(`${tag} platform.getHeight`, () => client.pChain.getHeight());
  if (ph !== undefined) same(`${tag} platform.getHeight agrees`, ph, rawPHeight);
  const rawProposed = await rpc("/ext/bc/P", "platform.getProposedHeight");
  const pp = await attempt(`${tag} platform.getProposedHeight`, () => client.pChain.getProposedHeight());
  if (pp !== undefined) same(`${tag} platform.getProposedHeight agrees`, pp, rawProposed);
  const rawPBal = await rpc("/ext/bc/P", "platform.getBalance", { addresses: [ewoqP] });
  const pb = await attempt(`${tag} platform.getBalance`, () => client.pChain.getBalance({ addresses: [ewoqP] }));
  if (pb !== undefined) same(`${tag} platform.getBalance agrees`, pb, rawPBal);
  const cv = await attempt(`${tag} platform.getCurrentValidators`, () => client.pChain.getCurrentValidators({}));
  if (cv !== undefined) same(`${tag} platform.getCurrentValidators agrees`, cv.validators, validators);
  const rawFc = await rpc("/ext/bc/P", "platform.getFeeConfig");
  const fc = await attempt(`${tag} platform.getFeeConfig`, () => client.pChain.getFeeConfig());
  if (fc !== undefined) same(`${tag} platform.getFeeConfig agrees`, fc, rawFc);
  const rawFs = await rpc("/ext/bc/P", "platform.getFeeState");
  const fs = await attempt(`${tag} platform.getFeeState`, () => client.pChain.getFeeState());
  if (fs !== undefined) same(`${tag} platform.getFeeState agrees`, fs, rawFs);
  const rawTs = await rpc("/ext/bc/P", "platform.getTimestamp");
  const ts = await attempt(`${tag} platform.getTimestamp`, () => client.pChain.getTimestamp());
  if (ts !== undefined) same(`${tag} platform.getTimestamp agrees`, ts, rawTs);
  const rawSupply = await rpc("/ext/bc/P", "platform.getCurrentSupply");
  const sup = await attempt(`${tag} platform.getCurrentSupply`, () => client.pChain.getCurrentSupply({}));
  if (sup !== undefined) same(`${tag} platform.getCurrentSupply agrees`, sup.supply, rawSupply.supply);
  const rawTotal = await rpc("/ext/bc/P", "platform.getTotalStake", { subnetID: PRIMARY });
  const tot = await attempt(`${tag} platform.getTotalStake`, () => client.pChain.getTotalStake({ subnetID: PRIMARY }));
  if (tot !== undefined) same(`${tag} platform.getTotalStake agrees`, tot, rawTotal);
  const rawMin = await rpc("/ext/bc/P", "platform.getMinStake");
  const min = await attempt(`${tag} platform.getMinStake`, () => client.pChain.getMinStake({}));
  if (min !== undefined) same(`${tag} platform.getMinStake agrees`, min, rawMin);
  const sid = await attempt(`${tag} platform.getStakingAssetID`, () => client.pChain.getStakingAssetID({ subnetID: PRIMARY }));
  if (sid !== undefined) same(`${tag} platform.getStakingAssetID is AVAX`, sid.assetID, avax.assetID);
  const rawPUtxos = await rpc("/ext/bc/P", "platform.getUTXOs", { addresses: [ewoqP], encoding: "hex" });
  const pu = await attempt(`${tag} platform.getUTXOs`, () => client.pChain.getUTXOs({ addresses: [ewoqP] }));
  if (pu !== undefined) same(`${tag} platform.getUTXOs agrees`, sorted(pu.utxos), sorted(rawPUtxos.utxos));
  const rawVat = await rpc("/ext/bc/P", "platform.getValidatorsAt", { height: "0" });
  const vat = await attempt(`${tag} platform.getValidatorsAt(0)`, () => client.pChain.getValidatorsAt({ height: 0 }));
  if (vat !== undefined) same(`${tag} platform.getValidatorsAt(0) agrees`, vat, rawVat);
  const bcs = await attempt(`${tag} platform.getBlockchains`, () => client.pChain.getBlockchains());
  if (bcs !== undefined) same(`${tag} platform.getBlockchains agrees`, bcs.blockchains, chains);
  const sns = await attempt(`${tag} platform.getSubnets`, () => client.pChain.getSubnets({}));
  if (sns !== undefined) same(`${tag} platform.getSubnets agrees`, sns.subnets, subnets);
  const vby = await attempt(`${tag} platform.validatedBy(C)`, () => client.pChain.validatedBy({ blockchainID: chainIDs.C }));
  if (vby !== undefined) same(`${tag} platform.validatedBy(C) is the primary network`, vby.subnetID, PRIMARY);
  const rawStake = await rpc("/ext/bc/P", "platform.getStake", { addresses: [ewoqP], encoding: "hex" });
  const stake = await attempt(`${tag} platform.getStake`, () => client.pChain.getStake({ addresses: [ewoqP] }));
  if (stake !== undefined) same(`${tag} platform.getStake agrees`, stake, rawStake);
  const sample = await attempt(`${tag} platform.sampleValidators`, () => client.pChain.sampleValidators({ size: 3 }));
  if (sample !== undefined) {
    const current = new Set(validators.map((v) => v.nodeID));
    check(
      sample.validators.length === 3 && sample.validators.every((id) => current.has(id)),
      `${tag} platform.sampleValidators: three current validators`,
      JSON.stringify(sample),
    );
  }

  // ---- Subnets, their chains and L1s
  if (otherSubnets.length === 0) skip(`${tag} Subnets and L1s`, "the target has no Subnet besides the primary network");
  for (const s of otherSubnets) {
    const raw = await rpc("/ext/bc/P", "platform.getSubnet", { subnetID: s.id });
    const got = await attempt(`${tag} platform.getSubnet(${s.id})`, () => client.pChain.getSubnet({ subnetID: s.id }));
    if (got !== undefined) same(`${tag} platform.getSubnet(${s.id}) agrees (${raw.isPermissioned ? "permissioned" : "an L1"})`, got, raw);
    const rawV = await rpc("/ext/bc/P", "platform.validates", { subnetID: s.id });
    const v = await attempt(`${tag} platform.validates(${s.id})`, () => client.pChain.validates({ subnetID: s.id }));
    if (v !== undefined) same(`${tag} platform.validates(${s.id}) agrees`, v, rawV);
    const rawCv = await rpc("/ext/bc/P", "platform.getCurrentValidators", { subnetID: s.id });
    const scv = await attempt(`${tag} platform.getCurrentValidators(${s.id})`, () => client.pChain.getCurrentValidators({ subnetID: s.id }));
    if (scv !== undefined) same(`${tag} platform.getCurrentValidators(${s.id}) agrees`, scv, rawCv);
    if (raw.isPermissioned) continue;
    check(rawCv.validators.length > 0 && rawCv.validators.every((w) => w.validationID), `target: the L1 ${s.id} lists its validators with their validation IDs`);
    for (const w of rawCv.validators) {
      const rawL1 = await rpc("/ext/bc/P", "platform.getL1Validator", { validationID: w.validationID });
      const l1 = await attempt(`${tag} platform.getL1Validator(${w.validationID})`, () => client.pChain.getL1Validator({ validationID: w.validationID }));
      if (l1 !== undefined) same(`${tag} platform.getL1Validator(${w.validationID}) agrees (weight ${rawL1.weight})`, l1, rawL1);
    }
  }
  for (const c of subnetChains) {
    const vb = await attempt(`${tag} platform.validatedBy(${c.name})`, () => client.pChain.validatedBy({ blockchainID: c.id }));
    if (vb !== undefined) same(`${tag} platform.validatedBy(${c.name}) is its Subnet`, vb.subnetID, c.subnetID);
    const raw = await rpc("/ext/bc/P", "platform.getBlockchainStatus", { blockchainID: c.id });
    const st = await attempt(`${tag} platform.getBlockchainStatus(${c.name})`, () => client.pChain.getBlockchainStatus({ blockchainID: c.id }));
    if (st !== undefined) same(`${tag} platform.getBlockchainStatus(${c.name}) agrees`, st, raw);
  }

  // ---- X-chain
  const rawBal = await rpc("/ext/bc/X", "avm.getBalance", { address: ewoqX, assetID: "AVAX" });
  const xb = await attempt(`${tag} avm.getBalance`, () => client.xChain.getBalance({ addresses: [ewoqX], address: ewoqX, assetID: "AVAX" }));
  if (xb !== undefined) same(`${tag} avm.getBalance agrees`, xb, rawBal);
  const rawAll = await rpc("/ext/bc/X", "avm.getAllBalances", { address: ewoqX });
  const xall = await attempt(`${tag} avm.getAllBalances`, () => client.xChain.getAllBalances({ address: ewoqX }));
  if (xall !== undefined) same(`${tag} avm.getAllBalances agrees`, xall, rawAll);
  const rawXHeight = await rpc("/ext/bc/X", "avm.getHeight");
  const xh = await attempt(`${tag} avm.getHeight`, () => client.xChain.getHeight());
  if (xh !== undefined) same(`${tag} avm.getHeight agrees`, xh, rawXHeight);
  const rawXUtxos = await rpc("/ext/bc/X", "avm.getUTXOs", { addresses: [ewoqX], encoding: "hex" });
  const xu = await attempt(`${tag} avm.getUTXOs`, () => client.xChain.getUTXOs({ addresses: [ewoqX] }));
  if (xu !== undefined) same(`${tag} avm.getUTXOs agrees`, sorted(xu.utxos), sorted(rawXUtxos.utxos));
  const ad = await attempt(`${tag} avm.getAssetDescription`, () => client.xChain.getAssetDescription({ assetID: "AVAX" }));
  if (ad !== undefined) same(`${tag} avm.getAssetDescription agrees`, ad, avax);
  const rawXFee = await rpc("/ext/bc/X", "avm.getTxFee");
  const xfee = await attempt(`${tag} avm.getTxFee`, () => client.xChain.getTxFee());
  if (xfee !== undefined) same(`${tag} avm.getTxFee agrees`, xfee, rawXFee);

  // ---- every block: by height (JSON) and by ID (hex)
  for (const chain of ["X", "P"]) {
    const api = chain === "X" ? client.xChain : client.pChain;
    const ns = chain === "X" ? "avm" : "platform";
    for (const b of blocks[chain]) {
      const raw = await rpc(`/ext/bc/${chain}`, `${ns}.getBlockByHeight`, { height: String(b.height), encoding: "json" });
      const got = await attempt(`${tag} ${ns}.getBlockByHeight(${b.height})`, () => api.getBlockByHeight({ height: b.height, encoding: "json" }));
      if (got !== undefined) same(`${tag} ${ns}.getBlockByHeight(${b.height}) agrees (JSON)`, got, raw);
      const rawHex = await rpc(`/ext/bc/${chain}`, `${ns}.getBlock`, { blockID: b.id, encoding: "hex" });
      const hex = await attempt(`${tag} ${ns}.getBlock(${b.id})`, () => api.getBlock({ blockID: b.id, encoding: "hex" }));
      if (hex !== undefined) same(`${tag} ${ns}.getBlock(${b.id}) agrees (hex)`, hex, rawHex);
    }
  }

  // ---- every transaction: hex, JSON, status, and decoded by the SDK's codec
  for (const tx of txs) {
    const api = tx.chain === "X" ? client.xChain : client.pChain;
    const hex = await attempt(`${tag} getTx ${tx.label}`, () => api.getTx({ txID: tx.id, encoding: "hex" }));
    if (hex !== undefined) same(`${tag} getTx agrees (hex): ${tx.label}`, hex.tx, tx.hex);
    const json = await attempt(`${tag} getTx ${tx.label} (JSON)`, () => api.getTx({ txID: tx.id, encoding: "json" }));
    if (json !== undefined) same(`${tag} getTx agrees (JSON): ${tx.label}`, json, tx.json);
    const status = await attempt(`${tag} getTxStatus ${tx.label}`, () => api.getTxStatus({ txID: tx.id }));
    if (status !== undefined) same(`${tag} getTxStatus agrees: ${tx.label}`, status, tx.status);
    // getTxFromBytes decodes the unsigned transaction and the credentials after it: the
    // kind it names, the unsigned transaction encoded back, and the number of credentials.
    let decoded;
    try {
      const [unsigned, credentials] = getTxFromBytes(sdkUtils.bufferToHex(tx.bytes), tx.chain);
      const manager = sdkUtils.getManagerForVM(tx.chain === "X" ? "AVM" : "PVM");
      decoded = {
        kind: String(unsigned._type).replace(/^(avm|pvm)\./, "").replace(/(Tx)?$/, "Tx"),
        unsigned: Buffer.from(unsigned.toBytes(manager.getDefaultCodec())).toString("hex"),
        credentials: credentials.length,
      };
      // The credentials follow the unsigned transaction: their count is the next 4 bytes.
      decoded.countAfter = tx.bytes.readUInt32BE(6 + decoded.unsigned.length / 2);
    } catch (e) {
      check(false, `${tag} codec decodes ${tx.label}`, `threw ${e && e.message ? e.message : e}`);
      continue;
    }
    same(
      `${tag} codec: ${tx.label} decodes as its kind and encodes back`,
      decoded,
      {
        kind: tx.kind,
        // After the codec version and the type ID, up to the credentials.
        unsigned: tx.bytes.subarray(6, 6 + decoded.unsigned.length / 2).toString("hex"),
        credentials: (tx.json.tx.credentials ?? []).length,
        countAfter: (tx.json.tx.credentials ?? []).length,
      },
    );
  }

  // ---- the block indexes
  for (const chain of ["X", "P"]) {
    const path = `/ext/index/${chain}/block`;
    const api = chain === "X" ? client.indexBlock.xChain : client.indexBlock.pChain;
    const rawLast = await lastIndexed(path);
    if (rawLast === undefined) {
      skip(`${tag} index (${chain})`, "the target's block index is empty (no block after genesis)");
      continue;
    }
    const last = await attempt(`${tag} index.getLastAccepted (${chain})`, () => api.getLastAccepted({ encoding: "hex" }));
    if (last !== undefined) same(`${tag} index.getLastAccepted (${chain}) agrees`, last, rawLast);
    const n = Number(rawLast.index) + 1;
    const rawRange = await rpc(path, "index.getContainerRange", { startIndex: "0", numToFetch: String(n), encoding: "hex" });
    const range = await attempt(`${tag} index.getContainerRange (${chain})`, () =>
      api.getContainerRange({ startIndex: 0, numToFetch: n, encoding: "hex" }),
    );
    if (range !== undefined) same(`${tag} index.getContainerRange(0, ${n}) (${chain}) agrees`, range, rawRange);
    const rawFirst = await rpc(path, "index.getContainerByIndex", { index: "0", encoding: "hex" });
    const first = await attempt(`${tag} index.getContainerByIndex (${chain})`, () => api.getContainerByIndex({ index: 0, encoding: "hex" }));
    if (first !== undefined) same(`${tag} index.getContainerByIndex(0) (${chain}) agrees`, first, rawFirst);
    const byId = await attempt(`${tag} index.getContainerByID (${chain})`, () => api.getContainerByID({ id: rawLast.id, encoding: "hex" }));
    if (byId !== undefined) same(`${tag} index.getContainerByID (${chain}) agrees`, byId, rawLast);
    const idx = await attempt(`${tag} index.getIndex (${chain})`, () => api.getIndex({ id: rawLast.id, encoding: "hex" }));
    if (idx !== undefined) same(`${tag} index.getIndex (${chain}) agrees`, idx.index, rawLast.index);
    const acc = await attempt(`${tag} index.isAccepted (${chain})`, () => api.isAccepted({ id: rawLast.id, encoding: "hex" }));
    if (acc !== undefined) same(`${tag} index.isAccepted (${chain}): true`, acc.isAccepted, true);
  }
}

console.log(`\n${passed} passed, ${failures} failed, ${skipped} skipped`);
process.exit(failures === 0 ? 0 : 1);
