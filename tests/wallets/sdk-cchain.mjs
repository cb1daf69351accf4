// avalanche-sdk's C <-> P examples, written as they are
// (ava-labs/avalanche-sdk-typescript client/examples/prepare-primary-network-txns/
// transfer-avax-from-c-chain-to-p-chain.ts and transfer-avax-from-p-chain-to-c-chain.ts:
// prepareExportTxn, sendXPTransaction, waitForTxn, then prepareImportTxn, sendXPTransaction,
// waitForTxn, with the example's 0.0001 AVAX), run with @avalanche-sdk/client 0.1.1 against
// a devnet or an AvalancheGo node, then checked: each amount exact after the fee the
// transaction carries (the C balance read with eth_getBalance, the P balance with
// platform.getBalance), the C-chain's fee as the node computes it (coreth's
// `CalculateDynamicFee`: gas = unsigned bytes + 1,000 per signature + 10,000, at the base
// fee, rounded up to nAVAX) at least, each transaction Accepted (avax.getAtomicTxStatus) or
// Committed (platform.getTxStatus). The URL is the first argument, else DEVNET_URL, else
// NODE_URL. Where the examples differ here: the key is ewoq (funded on C and P in both
// genesis files), the network and HRP are the target's (not Fuji's), and waitForTxn waits
// up to 30 s (its default is 3 s; a node's C-chain builds a block in its own time). On a
// P-chain that holds only its genesis (a node just started on a network of its own), whose
// fee state has a gas capacity of 0 that avalanchejs (under the SDK) refuses to build against,
// one P-chain BaseTx is issued first with avalanchejs at the capacity a block built now starts
// from (as transact.mjs does), so the examples' P-chain steps find the capacity refilled.
//
// @avalanche-sdk/client 0.1.1 resolves "C" and "P" to chain IDs for Mainnet and Fuji only;
// sdk-local-chains.mjs gives it the target's (see there), as upstream's later fix does.
//
//   tests/with-devnet 29721 sdkc node tests/wallets/sdk-cchain.mjs
//   tests/with-node 29801 sdkc sh -c 'cd tests/wallets && node sdk-cchain.mjs "$NODE_URL"'
import { register } from "node:module";

register("./sdk-local-chains.mjs", import.meta.url);
const { createAvalancheWalletClient } = await import("@avalanche-sdk/client");
const { privateKeyToAvalancheAccount } = await import("@avalanche-sdk/client/accounts");
const { avalancheFuji } = await import("@avalanche-sdk/client/chains");
const { avaxToNanoAvax } = await import("@avalanche-sdk/client/utils");
const { addTxSignatures, Context, pvm, secp256k1, utils } = await import("@avalabs/avalanchejs");

const url = (process.argv[2] ?? process.env.DEVNET_URL ?? process.env.NODE_URL ?? "http://127.0.0.1:9650").replace(/\/+$/, "");
const EWOQ = "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
const WEI = 1_000_000_000n;
let passed = 0;
let failed = 0;

function check(name, ok, detail = "") {
  if (ok) {
    passed++;
    console.log(`ok    ${name}`);
  } else {
    failed++;
    console.log(`FAIL  ${name} ${detail}`);
  }
}

async function rpc(path, method, params = {}) {
  const res = await fetch(url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${method} at ${path}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

const cBalance = async (evm) => BigInt(await rpc("/ext/bc/C/rpc", "eth_getBalance", [evm, "latest"]));
const pBalance = async (addr) =>
  BigInt((await rpc("/ext/bc/P", "platform.getBalance", { addresses: [addr] })).unlocked);
const baseFee = async () => BigInt(await rpc("/ext/bc/C/rpc", "eth_baseFee", []));
const sum = (xs) => xs.reduce((a, b) => a + b, 0n);

// coreth's fee of an atomic transaction at `base` wei per gas (plugin/evm/atomic: GasUsed,
// CalculateDynamicFee): one gas per unsigned byte, 1,000 per signature, 10,000; rounded up.
function corethFee(unsignedBytes, signatures, base) {
  const gas = BigInt(unsignedBytes.length) + 1000n * BigInt(signatures) + 10_000n;
  return (gas * base + WEI - 1n) / WEI;
}

// A P-chain at its genesis: one BaseTx (ewoq pays its own fee, no outputs) built at the
// capacity its first block starts from (maxPerSecond for each second since the genesis
// time, up to maxCapacity), so the SDK's P-chain steps after it build against a refilled one.
async function openPChain(key) {
  if ((await rpc("/ext/bc/P", "platform.getHeight")).height !== "0") return;
  const context = await Context.getContextFromURI(url);
  const pApi = new pvm.PVMApi(url);
  const state = await pApi.getFeeState();
  const { maxCapacity, maxPerSecond } = context.platformFeeConfig;
  const elapsed = BigInt(Math.max(0, Math.floor((Date.now() - Date.parse(state.timestamp)) / 1000)));
  const refilled = state.capacity + elapsed * maxPerSecond;
  const capacity = refilled < maxCapacity ? refilled : maxCapacity;
  const me = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key));
  const { utxos } = await pApi.getUTXOs({ addresses: [utils.format("P", context.hrp, me)] });
  const tx = pvm.e.newBaseTx({ fromAddressesBytes: [me], outputs: [], utxos, feeState: { ...state, capacity } }, context);
  await addTxSignatures({ unsignedTx: tx, privateKeys: [key] });
  const { txID } = await pApi.issueSignedTx(tx.getSignedTx());
  for (let i = 0; i < 300; i++) {
    const { status } = await rpc("/ext/bc/P", "platform.getTxStatus", { txID });
    if (status === "Committed") {
      console.log(`..    the P-chain held only its genesis: a BaseTx at capacity ${capacity} opened it (${txID})`);
      return;
    }
    if (status === "Dropped" || status === "Aborted") throw new Error(`the opening P-chain BaseTx ${txID}: ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the opening P-chain BaseTx ${txID} was not committed in 30 s`);
}

async function main() {
  await openPChain(utils.hexToBuffer(EWOQ));
  // The target's network and chains: the table sdk-local-chains.mjs reads.
  const networkID = Number((await rpc("/ext/info", "info.getNetworkID")).networkID);
  const chains = {};
  for (const alias of ["X", "P", "C"]) {
    chains[alias] = (await rpc("/ext/info", "info.getBlockchainID", { alias })).blockchainID;
  }
  globalThis.__avalancheLocalChains = { [networkID]: chains };
  const hrp = { 1: "avax", 5: "fuji", 12345: "local" }[networkID] ?? "custom";
  console.log(`${url}: network ${networkID} (${hrp}), C-chain ${chains.C}`);

  const account = privateKeyToAvalancheAccount(EWOQ);
  const walletClient = createAvalancheWalletClient({
    chain: avalancheFuji,
    transport: { type: "http", url: `${url}/ext/bc/C/rpc` },
    account,
  });
  const evm = account.getEVMAddress();
  const pAddr = account.getXPAddress("P", hrp);
  const amount = avaxToNanoAvax(0.0001);
  check("@avalanche-sdk/client is given the target's chain IDs", globalThis.__avalancheSdkPatched > 0,
    "(sdk-local-chains.mjs patched no bundle: its code is not 0.1.1's)");
  const wait = (sent) => walletClient.waitForTxn({ ...sent, maxRetries: 100 });

  // --- transfer-avax-from-c-chain-to-p-chain ---
  {
    const c0 = await cBalance(evm);
    const p0 = await pBalance(pAddr);
    const cChainExportTxnRequest = await walletClient.cChain.prepareExportTxn({
      destinationChain: "P",
      fromAddress: evm,
      exportedOutput: { addresses: [pAddr], amount },
    });
    const base = await baseFee();
    const sendTxnResponse = await walletClient.sendXPTransaction(cChainExportTxnRequest);
    await wait(sendTxnResponse);
    console.log("Avax exported to Atomic Memory for C-chain to P-chain transfer", sendTxnResponse.txHash);
    const ex = cChainExportTxnRequest.exportTx;
    const spent = sum(ex.ins.map((i) => i.amount.value()));
    const exported = sum(ex.exportedOutputs.map((o) => o.amount()));
    const fee = spent - exported;
    check("C -> P export: the exported output is the amount", exported === amount, `${exported}`);
    const minFee = corethFee(cChainExportTxnRequest.tx.toBytes(), ex.ins.length, base);
    check(`C -> P export: its fee (${fee} nAVAX) covers coreth's at base fee ${base} wei (${minFee})`, fee >= minFee);
    const status = await rpc("/ext/bc/C/avax", "avax.getAtomicTxStatus", { txID: sendTxnResponse.txHash });
    check("C -> P export: avax.getAtomicTxStatus Accepted", status.status === "Accepted", JSON.stringify(status));
    const c1 = await cBalance(evm);
    check(`C -> P export: eth_getBalance down by the amount and the fee, ${(amount + fee) * WEI} wei`,
      c0 - c1 === (amount + fee) * WEI, `${c0} -> ${c1}`);

    const pChainImportTxnRequest = await walletClient.pChain.prepareImportTxn({
      sourceChain: "C",
      importedOutput: { addresses: [pAddr] },
    });
    const sendTxnResponse2 = await walletClient.sendXPTransaction(pChainImportTxnRequest);
    await wait(sendTxnResponse2);
    console.log("Avax imported from Atomic Memory from C-chain to P-chain transfer", sendTxnResponse2.txHash);
    const im = pChainImportTxnRequest.importTx;
    const imported = sum(im.ins.map((i) => i.amount()));
    const pFee = imported + sum(im.baseTx.inputs.map((i) => i.amount())) - sum(im.baseTx.outputs.map((o) => o.amount()));
    check("C -> P import: it imports exactly the exported amount", imported === amount, `${imported}`);
    const st = await rpc("/ext/bc/P", "platform.getTxStatus", { txID: sendTxnResponse2.txHash });
    check("C -> P import: platform.getTxStatus Committed", st.status === "Committed", JSON.stringify(st));
    const p1 = await pBalance(pAddr);
    check(`C -> P import: platform.getBalance up by the amount less its fee (${pFee} nAVAX)`,
      p1 - p0 === amount - pFee && pFee > 0n && pFee < amount, `${p0} -> ${p1}`);
  }

  // --- transfer-avax-from-p-chain-to-c-chain ---
  {
    const c0 = await cBalance(evm);
    const p0 = await pBalance(pAddr);
    const pChainExportTxnRequest = await walletClient.pChain.prepareExportTxn({
      exportedOutputs: [{ addresses: [pAddr], amount }],
      destinationChain: "C",
    });
    const sendTxnResponse = await walletClient.sendXPTransaction(pChainExportTxnRequest);
    await wait(sendTxnResponse);
    console.log("Avax exported to Atomic Memory for P-chain to C-chain transfer", sendTxnResponse.txHash);
    const ex = pChainExportTxnRequest.exportTx;
    const exported = sum(ex.outs.map((o) => o.amount()));
    const pFee = sum(ex.baseTx.inputs.map((i) => i.amount())) - sum(ex.baseTx.outputs.map((o) => o.amount())) - exported;
    check("P -> C export: the exported output is the amount", exported === amount, `${exported}`);
    const st = await rpc("/ext/bc/P", "platform.getTxStatus", { txID: sendTxnResponse.txHash });
    check("P -> C export: platform.getTxStatus Committed", st.status === "Committed", JSON.stringify(st));
    const p1 = await pBalance(pAddr);
    check(`P -> C export: platform.getBalance down by the amount and its fee (${pFee} nAVAX)`,
      p0 - p1 === amount + pFee && pFee > 0n, `${p0} -> ${p1}`);

    const cChainImportTxnRequest = await walletClient.cChain.prepareImportTxn({
      sourceChain: "P",
      toAddress: evm,
    });
    const base = await baseFee();
    const sendTxnResponse2 = await walletClient.sendXPTransaction(cChainImportTxnRequest);
    await wait(sendTxnResponse2);
    console.log("Avax imported from Atomic Memory for P-chain to C-chain transfer", sendTxnResponse2.txHash);
    const im = cChainImportTxnRequest.importTx;
    const imported = sum(im.importedInputs.map((i) => i.amount()));
    const credited = sum(im.Outs.map((o) => o.amount.value()));
    const fee = imported - credited;
    check("P -> C import: it imports exactly the exported amount", imported === amount, `${imported}`);
    const sigs = im.importedInputs.reduce((n, i) => n + i.sigIndicies().length, 0);
    const minFee = corethFee(cChainImportTxnRequest.tx.toBytes(), sigs, base);
    check(`P -> C import: its fee (${fee} nAVAX) covers coreth's at base fee ${base} wei (${minFee})`,
      fee >= minFee && fee < amount);
    const status = await rpc("/ext/bc/C/avax", "avax.getAtomicTxStatus", { txID: sendTxnResponse2.txHash });
    check("P -> C import: avax.getAtomicTxStatus Accepted", status.status === "Accepted", JSON.stringify(status));
    const c1 = await cBalance(evm);
    check(`P -> C import: eth_getBalance up by the amount less the fee, ${(amount - fee) * WEI} wei`,
      c1 - c0 === (amount - fee) * WEI, `${c0} -> ${c1}`);
    const left = await rpc("/ext/bc/C/avax", "avax.getUTXOs", {
      addresses: [account.getXPAddress("C", hrp)], sourceChain: "P", encoding: "hex",
    });
    check("P -> C import: nothing left in the C-chain's shared memory from P", left.utxos.length === 0, JSON.stringify(left));
  }

  console.log(`\n${passed} passed, ${failed} failed`);
  if (failed > 0) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
