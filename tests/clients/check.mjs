// The read calls of two third-party clients against a running avalanche-devnet: AvalancheJS
// v3 (npm `avalanche` 3.16.0) and `@avalanche-sdk/client` 0.1.1 (viem-based). Each call must
// return without error, and what it returns must agree with the devnet's own answer to the
// same JSON-RPC call (read raw, without either library).
//
//   DEVNET_URL=http://127.0.0.1:9650 node check.mjs
//
// Exit status 1 when a check fails; one line per check.

import avalanchePkg from "avalanche";
import { createAvalancheClient } from "@avalanche-sdk/client";
import { avalancheFuji } from "@avalanche-sdk/client/chains";

const { Avalanche } = avalanchePkg;
const base = process.env.DEVNET_URL || "http://127.0.0.1:9650";
const url = new URL(base);

let failures = 0;
let passed = 0;
function check(ok, what, detail = "") {
  if (ok) {
    passed += 1;
    console.log(`ok    ${what}`);
  } else {
    failures += 1;
    console.log(`FAIL  ${what}${detail ? `: ${detail}` : ""}`);
  }
}

async function rpc(path, method, params = {}) {
  const r = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = await r.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
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

const str = (v) => (v === undefined || v === null ? String(v) : v.toString());

// What the devnet itself says, read raw.
const ewoqX = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
const ewoqP = "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
const truth = {
  nodeID: (await rpc("/ext/info", "info.getNodeID")).nodeID,
  networkID: (await rpc("/ext/info", "info.getNetworkID")).networkID,
  xID: (await rpc("/ext/info", "info.getBlockchainID", { alias: "X" })).blockchainID,
  xBalance: await rpc("/ext/bc/X", "avm.getBalance", { address: ewoqX, assetID: "AVAX" }),
  avax: await rpc("/ext/bc/X", "avm.getAssetDescription", { assetID: "AVAX" }),
  xUtxos: await rpc("/ext/bc/X", "avm.getUTXOs", { addresses: [ewoqX] }),
  xHeight: (await rpc("/ext/bc/X", "avm.getHeight")).height,
  pHeight: (await rpc("/ext/bc/P", "platform.getHeight")).height,
  pBalance: await rpc("/ext/bc/P", "platform.getBalance", { addresses: [ewoqP] }),
  pUtxos: await rpc("/ext/bc/P", "platform.getUTXOs", { addresses: [ewoqP] }),
  validators: (await rpc("/ext/bc/P", "platform.getCurrentValidators")).validators,
  totalStake: (await rpc("/ext/bc/P", "platform.getTotalStake")).weight,
  supply: (await rpc("/ext/bc/P", "platform.getCurrentSupply")).supply,
  timestamp: (await rpc("/ext/bc/P", "platform.getTimestamp")).timestamp,
  chains: (await rpc("/ext/bc/P", "platform.getBlockchains")).blockchains,
  lastX: await rpc("/ext/index/X/block", "index.getLastAccepted", { encoding: "hex" }),
};
const someTx = truth.xBalance.utxoIDs[0].txID;
const validatorTx = truth.validators[0].txID;

// ---------------------------------------------------------------- AvalancheJS v3
{
  const avalanche = new Avalanche(url.hostname, Number(url.port), url.protocol.replace(":", ""), Number(truth.networkID));
  const info = avalanche.Info();
  const x = avalanche.XChain();
  const p = avalanche.PChain();
  const index = avalanche.Index();
  const tag = "avalanchejs";

  const nodeID = await attempt(`${tag} info.getNodeID`, () => info.getNodeID());
  if (nodeID !== undefined) check(nodeID === truth.nodeID, `${tag} info.getNodeID agrees`, nodeID);
  const nid = await attempt(`${tag} info.getNetworkID`, () => info.getNetworkID());
  if (nid !== undefined) check(Number(nid) === Number(truth.networkID), `${tag} info.getNetworkID agrees`, str(nid));
  const name = await attempt(`${tag} info.getNetworkName`, () => info.getNetworkName());
  if (name !== undefined) check(name === "local", `${tag} info.getNetworkName is local`, name);
  const xid = await attempt(`${tag} info.getBlockchainID`, () => info.getBlockchainID("X"));
  if (xid !== undefined) check(xid === truth.xID, `${tag} info.getBlockchainID agrees`, xid);
  const version = await attempt(`${tag} info.getNodeVersion`, () => info.getNodeVersion());
  if (version !== undefined) check(/^avalanchego\/\d+\.\d+\.\d+$/.test(version), `${tag} info.getNodeVersion`, version);
  const boot = await attempt(`${tag} info.isBootstrapped`, () => info.isBootstrapped("X"));
  if (boot !== undefined) check(boot === true, `${tag} info.isBootstrapped(X)`);
  const peers = await attempt(`${tag} info.peers`, () => info.peers());
  if (peers !== undefined) check(Array.isArray(peers) && peers.length === 4, `${tag} info.peers: four`, JSON.stringify(peers).slice(0, 80));
  const fee = await attempt(`${tag} info.getTxFee`, () => info.getTxFee());
  if (fee !== undefined) check(str(fee.txFee) === "1000000", `${tag} info.getTxFee`, str(fee.txFee));
  const up = await attempt(`${tag} info.uptime`, () => info.uptime());
  if (up !== undefined) check(Number(up.rewardingStakePercentage) === 100, `${tag} info.uptime`);

  const bal = await attempt(`${tag} avm.getBalance`, () => x.getBalance(ewoqX, "AVAX"));
  if (bal !== undefined) check(str(bal.balance) === truth.xBalance.balance, `${tag} avm.getBalance agrees`, str(bal.balance));
  const all = await attempt(`${tag} avm.getAllBalances`, () => x.getAllBalances(ewoqX));
  if (all !== undefined) check(all.some((b) => b.asset === "AVAX" && str(b.balance) === truth.xBalance.balance), `${tag} avm.getAllBalances agrees`);
  const desc = await attempt(`${tag} avm.getAssetDescription`, () => x.getAssetDescription("AVAX"));
  if (desc !== undefined) check(desc.symbol === "AVAX" && Number(desc.denomination) === 9, `${tag} avm.getAssetDescription agrees`);
  const avaxID = await attempt(`${tag} getAVAXAssetID`, () => x.getAVAXAssetID(true));
  if (avaxID !== undefined) check(avaxID.length === 32, `${tag} getAVAXAssetID: 32 bytes`);
  const utxos = await attempt(`${tag} avm.getUTXOs (parsed by AvalancheJS's codec)`, () => x.getUTXOs([ewoqX]));
  if (utxos !== undefined) {
    check(Number(utxos.numFetched) === Number(truth.xUtxos.numFetched), `${tag} avm.getUTXOs count agrees`);
    const ids = utxos.utxos.getAllUTXOs().map((u) => u.getUTXOID()).sort();
    check(ids.length === Number(truth.xUtxos.numFetched), `${tag} avm.getUTXOs: every UTXO parsed`, String(ids.length));
    const amount = utxos.utxos.getBalance([x.parseAddress(ewoqX)], avaxID || Buffer.alloc(32));
    check(str(amount) === truth.xBalance.balance, `${tag} UTXOSet balance equals avm.getBalance`, str(amount));
  }
  const tx = await attempt(`${tag} avm.getTx`, () => x.getTx(someTx));
  if (tx !== undefined) check(typeof tx === "string" && tx.startsWith("0x"), `${tag} avm.getTx hex`);
  const status = await attempt(`${tag} avm.getTxStatus`, () => x.getTxStatus(someTx));
  if (status !== undefined) check(status === "Accepted", `${tag} avm.getTxStatus`, status);

  const pbal = await attempt(`${tag} platform.getBalance`, () => p.getBalance(ewoqP));
  if (pbal !== undefined) check(str(pbal.balance) === truth.pBalance.balance, `${tag} platform.getBalance agrees`, str(pbal.balance));
  const pheight = await attempt(`${tag} platform.getHeight`, () => p.getHeight());
  if (pheight !== undefined) check(Number(str(pheight)) >= Number(truth.pHeight), `${tag} platform.getHeight`);
  const cv = await attempt(`${tag} platform.getCurrentValidators`, () => p.getCurrentValidators());
  if (cv !== undefined) check(cv.validators.length === truth.validators.length, `${tag} platform.getCurrentValidators agrees`);
  const stakeID = await attempt(`${tag} platform.getStakingAssetID`, () => p.getStakingAssetID());
  if (stakeID !== undefined) check(stakeID === truth.avax.assetID, `${tag} platform.getStakingAssetID agrees`, stakeID);
  const total = await attempt(`${tag} platform.getTotalStake`, () => p.getTotalStake());
  if (total !== undefined) check(str(total) === truth.totalStake, `${tag} platform.getTotalStake agrees`, str(total));
  const supply = await attempt(`${tag} platform.getCurrentSupply`, () => p.getCurrentSupply());
  if (supply !== undefined) check(str(supply) === truth.supply, `${tag} platform.getCurrentSupply agrees`);
  const min = await attempt(`${tag} platform.getMinStake`, () => p.getMinStake(true));
  if (min !== undefined) check(str(min.minValidatorStake) === "2000000000000", `${tag} platform.getMinStake`);
  const chains = await attempt(`${tag} platform.getBlockchains`, () => p.getBlockchains());
  if (chains !== undefined) check(chains.length === truth.chains.length, `${tag} platform.getBlockchains agrees`);
  const subnets = await attempt(`${tag} platform.getSubnets`, () => p.getSubnets());
  if (subnets !== undefined) check(Array.isArray(subnets), `${tag} platform.getSubnets`);
  const ts = await attempt(`${tag} platform.getTimestamp`, () => p.getTimestamp());
  if (ts !== undefined) check(ts !== null, `${tag} platform.getTimestamp`);
  const vat = await attempt(`${tag} platform.getValidatorsAt`, () => p.getValidatorsAt(0));
  if (vat !== undefined) check(vat !== null, `${tag} platform.getValidatorsAt`);
  const sample = await attempt(`${tag} platform.sampleValidators`, () => p.sampleValidators(2));
  if (sample !== undefined) check(sample.length === 2, `${tag} platform.sampleValidators`);
  const vby = await attempt(`${tag} platform.validatedBy`, () => p.validatedBy(truth.xID));
  if (vby !== undefined) check(vby === "11111111111111111111111111111111LpoYY", `${tag} platform.validatedBy`, vby);
  const vs = await attempt(`${tag} platform.validates`, () => p.validates("11111111111111111111111111111111LpoYY"));
  if (vs !== undefined) check(vs.includes(truth.xID), `${tag} platform.validates`);
  const bstatus = await attempt(`${tag} platform.getBlockchainStatus`, () => p.getBlockchainStatus(truth.xID));
  if (bstatus !== undefined) check(bstatus === "Validating", `${tag} platform.getBlockchainStatus`, bstatus);
  const putxos = await attempt(`${tag} platform.getUTXOs (parsed by AvalancheJS's codec)`, () => p.getUTXOs([ewoqP]));
  if (putxos !== undefined) check(putxos.utxos.getAllUTXOs().length === Number(truth.pUtxos.numFetched), `${tag} platform.getUTXOs: every UTXO parsed`);
  const ptx = await attempt(`${tag} platform.getTx`, () => p.getTx(validatorTx));
  if (ptx !== undefined) check(typeof ptx === "string", `${tag} platform.getTx`);
  const pstatus = await attempt(`${tag} platform.getTxStatus`, () => p.getTxStatus(validatorTx));
  if (pstatus !== undefined) check(JSON.stringify(pstatus).includes("Committed"), `${tag} platform.getTxStatus`, JSON.stringify(pstatus));
  const stake = await attempt(`${tag} platform.getStake`, () => p.getStake([ewoqP]));
  if (stake !== undefined) check(str(stake.staked) === "2000000000000000", `${tag} platform.getStake`, str(stake.staked));
  const rewards = await attempt(`${tag} platform.getRewardUTXOs`, () => p.getRewardUTXOs(validatorTx));
  if (rewards !== undefined) check(Number(rewards.numFetched) === 0, `${tag} platform.getRewardUTXOs`);

  const xblock = "/ext/index/X/block";
  const last = await attempt(`${tag} index.getLastAccepted`, () => index.getLastAccepted("hex", xblock));
  if (last !== undefined) check(last.id === truth.lastX.id, `${tag} index.getLastAccepted agrees`);
  const first = await attempt(`${tag} index.getContainerByIndex`, () => index.getContainerByIndex("0", "hex", xblock));
  if (first !== undefined) check(first.index === "0", `${tag} index.getContainerByIndex`);
  const byId = await attempt(`${tag} index.getContainerByID`, () => index.getContainerByID(truth.lastX.id, "hex", xblock));
  if (byId !== undefined) check(byId.bytes === truth.lastX.bytes, `${tag} index.getContainerByID agrees`);
  const range = await attempt(`${tag} index.getContainerRange`, () => index.getContainerRange(0, 2, "hex", xblock));
  if (range !== undefined) check(range !== null, `${tag} index.getContainerRange`);
  const idx = await attempt(`${tag} index.getIndex`, () => index.getIndex(truth.lastX.id, "hex", xblock));
  if (idx !== undefined) check(idx === truth.lastX.index, `${tag} index.getIndex agrees`, idx);
  const acc = await attempt(`${tag} index.isAccepted`, () => index.isAccepted(truth.lastX.id, "hex", xblock));
  if (acc !== undefined) check(acc === true || acc.isAccepted === true, `${tag} index.isAccepted`, JSON.stringify(acc));
}

// ---------------------------------------------------------------- @avalanche-sdk/client
{
  // A known chain (Fuji) with the devnet's URL: the client derives every API's path from
  // the URL's origin.
  const client = createAvalancheClient({
    chain: avalancheFuji,
    transport: { type: "http", url: `${base}/ext/bc/C/rpc` },
  });
  const tag = "avalanche-sdk";
  const nodeID = await attempt(`${tag} info.getNodeID`, () => client.info.getNodeID());
  if (nodeID !== undefined) check(nodeID.nodeID === truth.nodeID, `${tag} info.getNodeID agrees`);
  const nid = await attempt(`${tag} info.getNetworkID`, () => client.info.getNetworkID());
  if (nid !== undefined) check(Number(nid.networkID) === Number(truth.networkID), `${tag} info.getNetworkID agrees`);
  const peers = await attempt(`${tag} info.peers`, () => client.info.peers({ nodeIDs: [] }));
  if (peers !== undefined) check(Number(peers.numPeers) === 4, `${tag} info.peers`);
  const up = await attempt(`${tag} info.upgrades`, () => client.info.upgrades());
  if (up !== undefined) check(up !== null, `${tag} info.upgrades`);
  const vms = await attempt(`${tag} info.getVMs`, () => client.info.getVMs());
  if (vms !== undefined) check(vms !== null, `${tag} info.getVMs`);

  const ph = await attempt(`${tag} platform.getHeight`, () => client.pChain.getHeight());
  if (ph !== undefined) check(Number(ph.height) >= Number(truth.pHeight), `${tag} platform.getHeight`);
  const pb = await attempt(`${tag} platform.getBalance`, () => client.pChain.getBalance({ addresses: [ewoqP] }));
  if (pb !== undefined) check(str(pb.balance) === truth.pBalance.balance, `${tag} platform.getBalance agrees`, str(pb.balance));
  const cv = await attempt(`${tag} platform.getCurrentValidators`, () => client.pChain.getCurrentValidators({}));
  if (cv !== undefined) check(cv.validators.length === truth.validators.length, `${tag} platform.getCurrentValidators agrees`);
  const fc = await attempt(`${tag} platform.getFeeConfig`, () => client.pChain.getFeeConfig());
  if (fc !== undefined) check(fc !== null, `${tag} platform.getFeeConfig`);
  const fs = await attempt(`${tag} platform.getFeeState`, () => client.pChain.getFeeState());
  if (fs !== undefined) check(fs !== null, `${tag} platform.getFeeState`);
  const ts = await attempt(`${tag} platform.getTimestamp`, () => client.pChain.getTimestamp());
  if (ts !== undefined) check(ts.timestamp === truth.timestamp, `${tag} platform.getTimestamp agrees`);
  const sup = await attempt(`${tag} platform.getCurrentSupply`, () => client.pChain.getCurrentSupply({}));
  if (sup !== undefined) check(str(sup.supply) === truth.supply, `${tag} platform.getCurrentSupply agrees`);
  const pu = await attempt(`${tag} platform.getUTXOs`, () => client.pChain.getUTXOs({ addresses: [ewoqP] }));
  if (pu !== undefined) check(pu.utxos.length === Number(truth.pUtxos.numFetched), `${tag} platform.getUTXOs agrees`);
  const pbl = await attempt(`${tag} platform.getBlockByHeight`, () => client.pChain.getBlockByHeight({ height: 0, encoding: "hex" }));
  if (pbl !== undefined) check(pbl !== null, `${tag} platform.getBlockByHeight`);
  const vat = await attempt(`${tag} platform.getValidatorsAt`, () => client.pChain.getValidatorsAt({ height: 0 }));
  if (vat !== undefined) check(vat !== null, `${tag} platform.getValidatorsAt`);

  const xb = await attempt(`${tag} avm.getBalance`, () => client.xChain.getBalance({ addresses: [ewoqX], address: ewoqX, assetID: "AVAX" }));
  if (xb !== undefined) check(str(xb.balance) === truth.xBalance.balance, `${tag} avm.getBalance agrees`, str(xb.balance));
  const xh = await attempt(`${tag} avm.getHeight`, () => client.xChain.getHeight());
  if (xh !== undefined) check(Number(xh.height) >= Number(truth.xHeight), `${tag} avm.getHeight`);
  const xu = await attempt(`${tag} avm.getUTXOs`, () => client.xChain.getUTXOs({ addresses: [ewoqX] }));
  if (xu !== undefined) check(xu.utxos.length === Number(truth.xUtxos.numFetched), `${tag} avm.getUTXOs agrees`);
  const ad = await attempt(`${tag} avm.getAssetDescription`, () => client.xChain.getAssetDescription({ assetID: "AVAX" }));
  if (ad !== undefined) check(ad.symbol === "AVAX", `${tag} avm.getAssetDescription agrees`);
  const xtx = await attempt(`${tag} avm.getTx`, () => client.xChain.getTx({ txID: someTx, encoding: "json" }));
  if (xtx !== undefined) check(xtx !== null, `${tag} avm.getTx`);

  const last = await attempt(`${tag} index.getLastAccepted`, () => client.indexBlock.xChain.getLastAccepted({ encoding: "hex" }));
  if (last !== undefined) check(last.id === truth.lastX.id, `${tag} index.getLastAccepted agrees`);
  const range = await attempt(`${tag} index.getContainerRange`, () =>
    client.indexBlock.xChain.getContainerRange({ startIndex: 0, numToFetch: 2, encoding: "hex" }),
  );
  if (range !== undefined) check(range !== null, `${tag} index.getContainerRange`);
}

console.log(`\n${passed} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
