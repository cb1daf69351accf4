// Wallet libraries transact against a devnet or an AvalancheGo node: @avalabs/avalanchejs 5.2.0
// builds, signs and issues transactions with its own codec and fee rules, and after each the
// target's state (balances, UTXOs, statuses, the index) shows the change; @avalanche-sdk/client
// 0.1.1's wallet actions send on X and P; AvalancheJS v3 (npm `avalanche`, before dynamic fees)
// sends on X. The URL is the first argument, else DEVNET_URL (tests/with-devnet sets it), else
// NODE_URL (tests/with-node sets it).
//
//   DEVNET_URL=http://127.0.0.1:9650 node transact.mjs
//   tests/with-node 9660 wallets sh -c 'cd tests/wallets && node transact.mjs "$NODE_URL"'
//
// The script learns its target: a devnet answers `/ext/devnet`, a node does not; the network
// ID and HRP are the target's. Where the devnet has controls the node lacks: the devnet's
// clock moves to the end of the P-chain's epoch, the node's is waited (real time, bounded); the
// devnet signs the L1's Warp messages (`devnet.signWarpMessage`), on the node they are signed
// here with the node's BLS secret key, the file NODE_SIGNER_KEY names (32 bytes, big-endian;
// tests/with-node sets it), as the L1's canonical validator set at the epoch's P-chain height.
// Where a node's network differs from the devnet's, the step says so: a P-chain that holds only
// its genesis (the first tx's gas capacity), and a genesis with no stakeable-locked funds (the
// locked-stake step is skipped, two checks, with the reason).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createAvalancheWalletClient } from "@avalanche-sdk/client";
import { privateKeyToAvalancheAccount } from "@avalanche-sdk/client/accounts";
import { avalancheFuji } from "@avalanche-sdk/client/chains";
import avalancheV3 from "avalanche";
import { bls12_381 } from "@noble/curves/bls12-381";
import {
  addTxSignatures,
  avmSerial,
  BigIntPr,
  Byte,
  Int,
  OutputOwners,
  Stringpr,
  TransferOutput,
  UnsignedTx,
  bls,
  L1Validator,
  PChainOwner,
  pvmSerial,
  avm,
  networkIDs,
  pvm,
  secp256k1,
  TransferableOutput,
  utils,
  Context,
} from "@avalabs/avalanchejs";

const url = (process.argv[2] ?? process.env.DEVNET_URL ?? process.env.NODE_URL ?? "http://127.0.0.1:9650").replace(/\/+$/, "");
let passed = 0;
let failed = 0;
let skipped = 0;

function check(name, ok, detail = "") {
  if (ok) {
    passed++;
    console.log(`ok    ${name}`);
  } else {
    failed++;
    console.log(`FAIL  ${name} ${detail}`);
  }
}

async function post(path, method, params) {
  return fetch(url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
}

async function rpc(path, method, params = {}) {
  const res = await post(path, method, params);
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

// A devnet answers its controls at /ext/devnet (`devnet.advanceClock` by 0 s reads its clock
// and moves nothing); a node has no such route and answers 404.
async function isDevnet() {
  const res = await post("/ext/devnet", "devnet.advanceClock", { seconds: 0 });
  if (res.status === 404) return false;
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = {};
  }
  if (res.ok && typeof body.result?.time === "string") return true;
  throw new Error(`${url}/ext/devnet answered neither as a devnet nor as a node (HTTP ${res.status}): ${text.slice(0, 200)}`);
}

function skip(name, why) {
  skipped++;
  console.log(`skip  ${name}: ${why}`);
}

// Funded test keys: ewoq holds funds on X and P in the devnet's genesis and in the local
// genesis a node runs (tests/node/genesis.json); key 1 is the devnet's (printed at its start),
// funded here by ewoq.
const ewoq = utils.hexToBuffer(
  "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027",
);
const key1 = utils.base58check.decode("CMhtnxFdsdphCp7NX2mxpQdZmevcyvGojdkLEDKocFRNsEmAo");

const keyAddress = (key) => secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key));

async function main() {
  const devnet = await isDevnet();
  const context = await Context.getContextFromURI(url);
  // The network as the target names it: its ID, and the HRP of the addresses it writes (a
  // staker's reward owner).
  const networkID = Number((await rpc("/ext/info", "info.getNetworkID", {})).networkID);
  const staker = (await rpc("/ext/bc/P", "platform.getCurrentValidators", {})).validators[0];
  const hrp = /^P-([a-z]+)1/.exec(staker?.validationRewardOwner?.addresses?.[0] ?? "")?.[1];
  if (!hrp) throw new Error(`no HRP in the first staker's reward owner: ${JSON.stringify(staker)}`);
  console.log(`${url}: ${devnet ? "a devnet" : "a node (no /ext/devnet)"}, network ${networkID} (${hrp})`);
  check(
    "Context.getContextFromURI: the target's network ID and HRP",
    context.networkID === networkID && context.hrp === hrp,
    JSON.stringify({ networkID: context.networkID, hrp: context.hrp }),
  );
  // On a node, the L1's Warp messages are signed here with its BLS key: read it first, so a
  // missing key fails before anything is issued.
  const warpKey = devnet ? undefined : await nodeWarpKey();
  const xApi = new avm.AVMApi(url);
  const pApi = new pvm.PVMApi(url);
  // The fee state as the node gives it (as of the last accepted block): the devnet's P-chain
  // blocks are a second apart in chain time, as the node's, so the gas capacity refills
  // between them and a wallet issuing txs back to back builds each with it, as on the node.
  // Except on a P-chain that holds only its genesis block (a node just started on a network of
  // its own; a devnet started from such a genesis answers the same): its fee state is the
  // genesis's, capacity 0, which its first block refills by maxPerSecond for each second since
  // the genesis time (up to maxCapacity). avalanchejs refuses any tx against capacity 0, so
  // there the first tx is built with the capacity a block built now starts from. No waiting:
  // the genesis time is a minute or more past.
  const { maxCapacity, maxPerSecond } = context.platformFeeConfig;
  const feeState = async () => {
    const state = await pApi.getFeeState();
    const { height } = await rpc("/ext/bc/P", "platform.getHeight", {});
    if (height !== "0") return state;
    const elapsed = BigInt(Math.max(0, Math.floor((Date.now() - Date.parse(state.timestamp)) / 1000)));
    const refilled = state.capacity + elapsed * maxPerSecond;
    const capacity = refilled < maxCapacity ? refilled : maxCapacity;
    console.log(`..    the P-chain holds only its genesis (fee state ${JSON.stringify(state, (_, v) => (typeof v === "bigint" ? String(v) : v))}): its first block starts from capacity ${capacity}`);
    return { ...state, capacity };
  };
  const buildP = async (build) => build(await feeState());
  const ewoqAddr = keyAddress(ewoq);
  const key1Addr = keyAddress(key1);
  const x = (a) => utils.format("X", hrp, a);
  const p = (a) => utils.format("P", hrp, a);

  // An X-chain send: ewoq pays key 1 one AVAX.
  const before = BigInt((await rpc("/ext/bc/X", "avm.getBalance", { address: x(key1Addr), assetID: "AVAX" })).balance);
  {
    const { utxos } = await xApi.getUTXOs({ addresses: [x(ewoqAddr)] });
    const tx = avm.newBaseTx(context, [ewoqAddr], utxos, [
      TransferableOutput.fromNative(context.avaxAssetID, 1_000_000_000n, [key1Addr]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [ewoq] });
    const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
    await waitX(txID);
    const after = BigInt((await rpc("/ext/bc/X", "avm.getBalance", { address: x(key1Addr), assetID: "AVAX" })).balance);
    check("X-chain send: accepted, the recipient's balance grew by 1 AVAX", after - before === 1_000_000_000n, `${before} -> ${after}`);
    await indexed("X", tx.getSignedTx(), "X-chain send");
  }

  // An asset created: the library's own CreateAssetTx, paid (the creation fee equals the
  // base fee here) from the inputs it chose for a BaseTx, 1,000 units to key 1.
  {
    const { utxos } = await xApi.getUTXOs({ addresses: [x(ewoqAddr)] });
    const base = avm.newBaseTx(context, [ewoqAddr], utxos, []);
    check("the creation fee is the base fee here", context.createAssetTxFee === context.baseTxFee, `${context.createAssetTxFee}`);
    const create = new avmSerial.CreateAssetTx(
      base.getTx().baseTx,
      new Stringpr("Wallet Token"),
      new Stringpr("WLT"),
      new Byte(new Uint8Array([2])),
      [
        new avmSerial.InitialState(new Int(0), [
          new TransferOutput(new BigIntPr(1_000n), OutputOwners.fromNative([key1Addr])),
        ]),
      ],
    );
    // 5.2.0's CreateAssetTx is serializable but not a transaction class: it takes its
    // signature indices, chain and VM from the BaseTx it carries.
    const baseTx = base.getTx();
    create.vm = baseTx.vm;
    create.getSigIndices = () => baseTx.getSigIndices();
    create.getBlockchainId = () => baseTx.getBlockchainId();
    const tx = new UnsignedTx(create, base.utxos, base.addressMaps);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [ewoq] });
    const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
    await waitX(txID);
    const d = await rpc("/ext/bc/X", "avm.getAssetDescription", { assetID: txID });
    check("CreateAssetTx: the asset describes itself", d.symbol === "WLT" && d.denomination === "2", JSON.stringify(d));
    const b = await rpc("/ext/bc/X", "avm.getBalance", { address: x(key1Addr), assetID: txID });
    check("CreateAssetTx: key 1 holds 1,000 units", b.balance === "1000", JSON.stringify(b));
    await indexed("X", tx.getSignedTx(), "CreateAssetTx");
  }

  // X -> P: ewoq exports 100 AVAX to its P-chain address, then imports it on the P-chain at
  // the dynamic fee of the target's fee state.
  const pBefore = await pBalance(p(ewoqAddr));
  {
    const { utxos } = await xApi.getUTXOs({ addresses: [x(ewoqAddr)] });
    const tx = avm.newExportTx(context, context.pBlockchainID, [ewoqAddr], utxos, [
      TransferableOutput.fromNative(context.avaxAssetID, 100_000_000_000n, [ewoqAddr]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [ewoq] });
    const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
    await waitX(txID);
    await indexed("X", tx.getSignedTx(), "X-chain export");
    const atomic = await pApi.getUTXOs({ addresses: [p(ewoqAddr)], sourceChain: "X" });
    check("X-chain export: the P-chain sees it in shared memory", atomic.utxos.length === 1, `${atomic.utxos.length}`);
    const imp = await buildP((feeState) => pvm.e.newImportTx(
      {
        fromAddressesBytes: [ewoqAddr],
        sourceChainId: context.xBlockchainID,
        toAddressesBytes: [ewoqAddr],
        utxos: atomic.utxos,
        feeState,
      },
      context,
    ));
    await addTxSignatures({ unsignedTx: imp, privateKeys: [ewoq] });
    const issued = await pApi.issueSignedTx(imp.getSignedTx());
    await waitP(issued.txID);
    await indexed("P", imp.getSignedTx(), "P-chain import");
    const left = await pApi.getUTXOs({ addresses: [p(ewoqAddr)], sourceChain: "X" });
    check("P-chain import: shared memory no longer holds the UTXO", left.utxos.length === 0, `${left.utxos.length}`);
    const pAfter = await pBalance(p(ewoqAddr));
    const gained = pAfter - pBefore;
    check(
      "P-chain import: committed, the balance grew by 100 AVAX less the dynamic fee",
      gained > 99_999_000_000n && gained < 100_000_000_000n,
      `${gained}`,
    );
  }

  // A P-chain BaseTx at the fee state's price: ewoq pays key 1 five AVAX.
  {
    const k1Before = await pBalance(p(key1Addr));
    const { utxos } = await pApi.getUTXOs({ addresses: [p(ewoqAddr)] });
    const feeState = await pApi.getFeeState();
    const tx = pvm.e.newBaseTx(
      {
        fromAddressesBytes: [ewoqAddr],
        outputs: [TransferableOutput.fromNative(context.avaxAssetID, 5_000_000_000n, [key1Addr])],
        utxos,
        feeState,
      },
      context,
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [ewoq] });
    const { txID } = await pApi.issueSignedTx(tx.getSignedTx());
    await waitP(txID);
    await indexed("P", tx.getSignedTx(), "P-chain BaseTx");
    const k1After = await pBalance(p(key1Addr));
    check("P-chain BaseTx: committed, the recipient has 5 AVAX more", k1After - k1Before === 5_000_000_000n, `${k1After - k1Before}`);
    const state = await pApi.getFeeState();
    check("P-chain BaseTx: the fee state's excess moved", state.excess !== feeState.excess || state.capacity !== feeState.capacity, String(state.excess));
  }


  // Every P-chain step from here: built from ewoq's UTXOs at the fee state's price, signed by
  // ewoq (the Subnet owner too), issued, committed.
  // An authorization (the Subnet's or the disable owner's) is the last credential: the library
  // leaves it to the caller, who signs the tx's bytes as its owner.
  const issueP = async (build, authorized = false) => {
    const { utxos } = await pApi.getUTXOs({ addresses: [p(ewoqAddr)] });
    const tx = await buildP((feeState) => build({ fromAddressesBytes: [ewoqAddr], utxos, feeState }));
    await addTxSignatures({ unsignedTx: tx, privateKeys: [ewoq] });
    if (authorized) {
      tx.addSignatureAt(await secp256k1.sign(tx.toBytes(), ewoq), tx.getCredentials().length - 1, 0);
    }
    const { txID } = await pApi.issueSignedTx(tx.getSignedTx());
    await waitP(txID);
    return { txID, signed: tx.getSignedTx() };
  };
  const pTx = async (build, name, authorized = false) => {
    const { txID, signed } = await issueP(build, authorized);
    check(`${name}: committed`, true);
    await indexed("P", signed, name);
    return txID;
  };

  // A permissionless validator with a fresh node ID and BLS key, then a delegator to it.
  const blsKey = new Uint8Array(32).fill(21);
  const blsPublic = bls12_381.getPublicKey(blsKey);
  const blsPop = bls.signProofOfPossession(blsPublic, bls.secretKeyFromBytes(blsKey));
  const nodeId = "NodeID-" + utils.base58check.encode(new Uint8Array(20).fill(21));
  const now = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
  const stakeBefore = BigInt((await rpc("/ext/bc/P", "platform.getTotalStake", {})).weight);
  const validatorTx = await pTx(
    (c) =>
      pvm.e.newAddPermissionlessValidatorTx(
        {
          ...c,
          nodeId,
          publicKey: blsPublic,
          signature: blsPop,
          subnetId: networkIDs.PrimaryNetworkID.toString(),
          start: now,
          end: now + 3n * 86_400n,
          weight: 2_000_000_000_000n,
          rewardAddresses: [ewoqAddr],
          delegatorRewardsOwner: [ewoqAddr],
          shares: 30_000,
        },
        context,
      ),
    "AddPermissionlessValidatorTx",
  );
  await pTx(
    (c) =>
      pvm.e.newAddPermissionlessDelegatorTx(
        {
          ...c,
          nodeId,
          subnetId: networkIDs.PrimaryNetworkID.toString(),
          start: now,
          end: now + 2n * 86_400n,
          weight: 100_000_000_000n,
          rewardAddresses: [key1Addr],
        },
        context,
      ),
    "AddPermissionlessDelegatorTx",
  );
  {
    const r = await rpc("/ext/bc/P", "platform.getCurrentValidators", { nodeIDs: [nodeId] });
    const v = r.validators[0];
    check(
      "the validator is current with its delegator",
      v && v.txID === validatorTx && v.delegatorCount === "1" && v.delegatorWeight === "100000000000",
      JSON.stringify(v ?? r),
    );
    const stake = BigInt((await rpc("/ext/bc/P", "platform.getTotalStake", {})).weight);
    check("the total stake grew by both stakes", stake - stakeBefore === 2_100_000_000_000n, `${stake - stakeBefore}`);
  }

  // A validator staked from stakeable-locked funds: key 1's genesis output locked for a year
  // (the devnet's genesis). The library stakes locked UTXOs first, relocks the rest and pays
  // the fee unlocked. The local genesis a node runs (tests/node/genesis.json) locks nothing
  // that is still locked (its unlock times are in 2021), and no transaction can lock funds
  // anew: on a node whose genesis gives key 1 no stakeable-locked AVAX the step has nothing
  // to stake and says so (skip); anywhere else it runs.
  {
    const lockedBefore = BigInt((await rpc("/ext/bc/P", "platform.getBalance", { addresses: [p(key1Addr)] })).lockedStakeable);
    if (!devnet && lockedBefore === 0n) {
      const why = `the node's genesis gives ${p(key1Addr)} no stakeable-locked AVAX (platform.getBalance: lockedStakeable 0)`;
      skip("AddPermissionlessValidatorTx from stakeable-locked funds", why);
      skip("the locked stake: the last indexed P-chain block holds it", why);
    } else {
      const { utxos } = await pApi.getUTXOs({ addresses: [p(key1Addr)] });
      const key23 = new Uint8Array(32).fill(23);
      const pk23 = bls12_381.getPublicKey(key23);
      const node23 = "NodeID-" + utils.base58check.encode(new Uint8Array(20).fill(23));
      const tx = await buildP((feeState) => pvm.e.newAddPermissionlessValidatorTx(
        {
          fromAddressesBytes: [key1Addr],
          utxos,
          feeState,
          nodeId: node23,
          publicKey: pk23,
          signature: bls.signProofOfPossession(pk23, bls.secretKeyFromBytes(key23)),
          subnetId: networkIDs.PrimaryNetworkID.toString(),
          start: now,
          end: now + 3n * 86_400n,
          weight: 2_000_000_000_000n,
          rewardAddresses: [key1Addr],
          delegatorRewardsOwner: [key1Addr],
          shares: 20_000,
        },
        context,
      ));
      await addTxSignatures({ unsignedTx: tx, privateKeys: [key1] });
      const { txID } = await pApi.issueSignedTx(tx.getSignedTx());
      await waitP(txID);
      const lockedAfter = BigInt((await rpc("/ext/bc/P", "platform.getBalance", { addresses: [p(key1Addr)] })).lockedStakeable);
      check(
        "AddPermissionlessValidatorTx from stakeable-locked funds: committed, 2,000 AVAX of the lock staked",
        lockedBefore - lockedAfter === 2_000_000_000_000n,
        `${lockedBefore} -> ${lockedAfter}`,
      );
      await indexed("P", tx.getSignedTx(), "the locked stake");
    }
  }

  // A Subnet, a chain on it, converted to an L1 whose validator is the target's own node
  // (so the devnet, or here with the node's BLS key, can sign Warp messages as the L1), then a
  // second L1 validator registered by a Warp message and its weight changed.
  const subnetId = await pTx(
    (c) => pvm.e.newCreateSubnetTx({ ...c, subnetOwners: [ewoqAddr] }, context),
    "CreateSubnetTx",
  );
  const chainId = await pTx(
    (c) =>
      pvm.e.newCreateChainTx(
        {
          ...c,
          subnetId,
          // Letters, digits and spaces: the node refuses any other character in a chain's
          // name ("illegal name character").
          chainName: "wallet chain",
          vmId: "srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy",
          fxIds: [],
          genesisData: { config: { chainId: 99999 } },
          subnetAuth: [0],
        },
        context,
      ),
    "CreateChainTx",
    true,
  );
  {
    const r = await rpc("/ext/bc/P", "platform.validates", { subnetID: subnetId });
    check("the chain is on the Subnet", r.blockchainIDs.includes(chainId), JSON.stringify(r));
  }
  const me = await rpc("/ext/info", "info.getNodeID", {});
  const manager = new Uint8Array(20).fill(0x77);
  const owner = PChainOwner.fromNative([ewoqAddr], 1);
  await pTx(
    (c) =>
      pvm.e.newConvertSubnetToL1Tx(
        {
          ...c,
          subnetId,
          chainId,
          address: manager,
          subnetAuth: [0],
          validators: [
            L1Validator.fromNative(
              me.nodeID,
              100n,
              1_000_000_000n,
              new pvmSerial.ProofOfPossession(
                utils.hexToBuffer(me.nodePOP.publicKey),
                utils.hexToBuffer(me.nodePOP.proofOfPossession),
              ),
              owner,
              owner,
            ),
          ],
        },
        context,
      ),
    "ConvertSubnetToL1Tx",
    true,
  );
  // The conversion's block: its height, and (on a node) when it was accepted at the latest.
  const converted = BigInt((await rpc("/ext/bc/P", "platform.getHeight", {})).height);
  const convertedAt = Date.now() / 1000;
  {
    const s = await rpc("/ext/bc/P", "platform.getSubnet", { subnetID: subnetId });
    check("the Subnet is an L1 managed from its chain", s.isPermissioned === false && s.managerChainID === chainId, JSON.stringify(s));
  }
  // The P-chain verifies Warp messages at its epoch's P-chain height (as the node does since
  // Granite): the L1's validators exist for it once a block whose epoch names the conversion's
  // height or later is built. A block's epoch is its parent's, or a new one when the parent
  // sealed it (came 30 s or more after its start), starting at the parent's P-chain height;
  // and a node's block names the height before the oldest block it accepted in the last 30 s
  // (the devnet's names its tip). So: let the epoch end (the devnet's clock moves; on a node,
  // wait in real time, and 30 s past the conversion), then a P-chain block opens the next one.
  // A bounded number of rounds; the first block is the checked step, any more (a node whose
  // epoch still names an older height) only make blocks.
  const epochSeconds = 30;
  const recentWindow = 30;
  const openEpoch = async (round) => {
    const epoch = await rpc("/ext/bc/P/proposervm", "proposervm.getCurrentEpoch", {});
    if (devnet) {
      const { time } = await rpc("/ext/devnet", "devnet.advanceClock", { seconds: 0 });
      const by = Number(epoch.startTime) + epochSeconds - Math.floor(Date.parse(time) / 1000);
      await rpc("/ext/devnet", "devnet.advanceClock", { seconds: Math.max(0, by) });
    } else {
      const until = Math.max(Number(epoch.startTime) + epochSeconds, convertedAt + recentWindow) + 1;
      const wait = until - Date.now() / 1000;
      if (wait > 0) {
        console.log(`..    waiting ${Math.ceil(wait)} s for the node's epoch ${epoch.number} (P-chain height ${epoch.pChainHeight}, started ${epoch.startTime}) to end`);
        await new Promise((r) => setTimeout(r, wait * 1000));
      }
    }
    const build = (c) =>
      pvm.e.newBaseTx(
        { ...c, outputs: [TransferableOutput.fromNative(context.avaxAssetID, 1_000n, [ewoqAddr])] },
        context,
      );
    if (round === 0) return pTx(build, "P-chain BaseTx opening the next epoch");
    const { txID } = await issueP(build);
    console.log(`..    P-chain BaseTx ${txID} to open the next epoch (round ${round + 1})`);
  };
  {
    const rounds = 4;
    let e;
    for (let round = 0; round < rounds; round++) {
      await openEpoch(round);
      e = await rpc("/ext/bc/P/proposervm", "proposervm.getCurrentEpoch", {});
      if (BigInt(e.pChainHeight) >= converted) break;
    }
    const h = await rpc("/ext/bc/P", "platform.getHeight", {});
    const holds = BigInt(e.pChainHeight) >= converted;
    const state = `epoch ${e.number} started ${e.startTime} at P-chain height ${e.pChainHeight}, the conversion at ${converted}, the tip at ${h.height}`;
    check("the P-chain's epoch holds the conversion", holds, `after ${rounds} blocks opening epochs: ${state}`);
    if (!holds) throw new Error(`the L1's Warp messages cannot verify before the P-chain's epoch holds the conversion: ${state}`);
  }
  // The manager's RegisterL1Validator message, signed by the L1 (the target's node).
  const newNode = new Uint8Array(20).fill(22);
  const newKey = new Uint8Array(32).fill(22);
  const newPublic = bls12_381.getPublicKey(newKey);
  const expiry = now + 3_600n;
  const register = concat(
    u16(0), u32(1), // codec version, RegisterL1Validator
    utils.base58check.decode(subnetId),
    u32(20), newNode,
    newPublic,
    u64(expiry),
    u32(1), u32(1), ewoqAddr, // remaining balance owner
    u32(1), u32(1), ewoqAddr, // disable owner
    u64(10n),
  );
  const signed = await signWarp(context, subnetId, chainId, manager, register, warpKey);
  await pTx(
    (c) =>
      pvm.e.newRegisterL1ValidatorTx(
        {
          ...c,
          balance: 500_000_000n,
          blsSignature: bls.signProofOfPossession(newPublic, bls.secretKeyFromBytes(newKey)),
          message: signed,
        },
        context,
      ),
    "RegisterL1ValidatorTx",
  );
  const validationId = utils.base58check.encode(sha256(register));
  {
    const v = await rpc("/ext/bc/P", "platform.getL1Validator", { validationID: validationId });
    check("the registered L1 validator is there", v.weight === "10" && v.balance === "500000000", JSON.stringify(v));
  }
  const reweigh = concat(u16(0), u32(3), utils.base58check.decode(validationId), u64(0n), u64(20n));
  const signedReweigh = await signWarp(context, subnetId, chainId, manager, reweigh, warpKey);
  await pTx(
    (c) => pvm.e.newSetL1ValidatorWeightTx({ ...c, message: signedReweigh }, context),
    "SetL1ValidatorWeightTx",
  );
  {
    const v = await rpc("/ext/bc/P", "platform.getL1Validator", { validationID: validationId });
    check("the L1 validator's weight is 20, its nonce used", v.weight === "20" && v.minNonce === "1", JSON.stringify(v));
  }


  // @avalanche-sdk/client's wallet actions: an X-chain send and a P-chain transfer, 2 AVAX
  // each from ewoq to key 1 (the library reads the network from the target).
  {
    const account = privateKeyToAvalancheAccount("0x" + Buffer.from(ewoq).toString("hex"));
    const wallet = createAvalancheWalletClient({
      account,
      chain: avalancheFuji,
      transport: { type: "http", url: `${url}/ext/bc/C/rpc` },
    });
    const xb = await xBalance(x(key1Addr));
    const xReq = await wallet.xChain.prepareBaseTxn({
      outputs: [{ amount: 2_000_000_000n, addresses: [x(key1Addr)] }],
    });
    const xSent = await wallet.sendXPTransaction(xReq);
    await waitX(xSent.txHash);
    check("@avalanche-sdk/client X-chain send: accepted, +2 AVAX", (await xBalance(x(key1Addr))) - xb === 2_000_000_000n);
    const pb = await pBalance(p(key1Addr));
    const pReq = await wallet.pChain.prepareBaseTxn({
      outputs: [{ amount: 2_000_000_000n, addresses: [p(key1Addr)] }],
    });
    const pSent = await wallet.sendXPTransaction(pReq);
    await waitP(pSent.txHash);
    check("@avalanche-sdk/client P-chain transfer: committed, +2 AVAX", (await pBalance(p(key1Addr))) - pb === 2_000_000_000n);
  }

  // AvalancheJS v3 (static X-chain fee, no dynamic fees): an X-chain send of 3 AVAX.
  {
    const { Avalanche, BN } = avalancheV3;
    const u = new URL(url);
    // The network and its X-chain are given: its built-in X-chain IDs are those of the
    // networks it knows, and the devnet's and this node's genesis differ from them.
    const av = new Avalanche(
      u.hostname,
      Number(u.port),
      u.protocol.replace(":", ""),
      networkID,
      context.xBlockchainID,
    );
    const xchain = av.XChain();
    xchain.setBlockchainAlias("X");
    const keychain = xchain.keyChain();
    keychain.importKey("PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN");
    const from = keychain.getAddressStrings();
    const { utxos } = await xchain.getUTXOs(from);
    const xb = await xBalance(x(key1Addr));
    const unsigned = await xchain.buildBaseTx(
      utxos,
      new BN(3_000_000_000),
      await xchain.getAVAXAssetID(),
      [x(key1Addr)],
      from,
      from,
    );
    const txID = await xchain.issueTx(unsigned.sign(keychain));
    await waitX(txID);
    check("AvalancheJS v3 X-chain send: accepted, +3 AVAX", (await xBalance(x(key1Addr))) - xb === 3_000_000_000n);
  }

  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  process.exit(failed ? 1 : 0);
}

const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const u16 = (n) => new Uint8Array([n >> 8, n & 0xff]);
const u32 = (n) => new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
const u64 = (n) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};
const sha256 = (bytes) => new Uint8Array(createHash("sha256").update(bytes).digest());

// An unsigned Warp message from `address` on `chain` carrying `inner` in an AddressedCall,
// signed as the validators of `subnet`, the L1 of the chain: by the devnet
// (devnet.signWarpMessage), or, given the node's BLS key, here (signAsNode).
async function signWarp(context, subnet, chain, address, inner, key) {
  const call = concat(u16(0), u32(1), u32(address.length), address, u32(inner.length), inner);
  const unsigned = concat(
    u16(0),
    u32(context.networkID),
    utils.base58check.decode(chain),
    u32(call.length),
    call,
  );
  if (key) return signAsNode(subnet, unsigned, key);
  const r = await rpc("/ext/devnet", "devnet.signWarpMessage", {
    message: "0x" + Buffer.from(unsigned).toString("hex"),
  });
  return utils.hexToBuffer(r.signedMessage);
}

// The node's BLS secret key, from the file NODE_SIGNER_KEY names (32 bytes, big-endian: the
// node's --staking-signer-key-file), checked against the key the node gives
// (info.getNodeID's proof of possession). The key itself is never printed.
async function nodeWarpKey() {
  const path = process.env.NODE_SIGNER_KEY;
  if (!path) {
    throw new Error("the target is a node (no /ext/devnet): NODE_SIGNER_KEY must name its BLS secret key file, to sign the L1's Warp messages");
  }
  let bytes;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new Error(`NODE_SIGNER_KEY ${path}: ${e.message}`);
  }
  if (bytes.length !== 32) {
    throw new Error(`NODE_SIGNER_KEY ${path}: ${bytes.length} bytes, not the 32 of a BLS secret key`);
  }
  let secret, publicKey;
  try {
    secret = bls.secretKeyFromBytes(bytes);
    publicKey = bls12_381.getPublicKey(bytes);
  } catch (e) {
    throw new Error(`NODE_SIGNER_KEY ${path}: not a BLS secret key: ${e.message}`);
  }
  const { nodeID, nodePOP } = await rpc("/ext/info", "info.getNodeID", {});
  const hex = "0x" + Buffer.from(publicKey).toString("hex");
  if (hex !== nodePOP.publicKey) {
    throw new Error(`NODE_SIGNER_KEY ${path}: its public key ${hex} is not ${nodeID}'s, ${nodePOP.publicKey}`);
  }
  return { secret, publicKey };
}

// What a signature aggregator returns for `unsigned` when the node's key alone signs: a
// warp.Message with a BitSetSignature over the canonical validator set of `subnet` at the
// P-chain height of the epoch a block built now belongs to (the set the P-chain verifies
// against). The canonical set (warp.GetCanonicalValidatorSet): the validators with a BLS key,
// those sharing a key merged, ordered by the key's uncompressed bytes; bit i of the signer
// set (big-endian, no leading zero byte) is the i-th. The signature: BLS with the
// proof-of-possession ciphersuite's signature DST, a compressed G2 point (96 bytes), as the
// Rust wallet signs (bls::SIGNATURE_DST, transact::warp::sign). Fails when the key carries
// less than 67 % of the set's weight.
async function signAsNode(subnet, unsigned, key) {
  const epoch = await rpc("/ext/bc/P/proposervm", "proposervm.getCurrentEpoch", {});
  const set = await rpc("/ext/bc/P", "platform.getValidatorsAt", { subnetID: subnet, height: epoch.pChainHeight });
  const byKey = new Map();
  let total = 0n;
  for (const [nodeID, v] of Object.entries(set)) {
    total += BigInt(v.weight);
    if (!v.publicKey) continue;
    const compressed = v.publicKey.toLowerCase();
    const entry = byKey.get(compressed) ?? {
      compressed,
      uncompressed: bls12_381.G1.ProjectivePoint.fromHex(compressed.slice(2)).toRawBytes(false),
      weight: 0n,
      nodeIDs: [],
    };
    entry.weight += BigInt(v.weight);
    entry.nodeIDs.push(nodeID);
    byKey.set(compressed, entry);
  }
  const canonical = [...byKey.values()].sort((a, b) => Buffer.compare(a.uncompressed, b.uncompressed));
  const mine = "0x" + Buffer.from(key.publicKey).toString("hex");
  const at = canonical.findIndex((v) => v.compressed === mine);
  const described = `${subnet}'s validators at P-chain height ${epoch.pChainHeight} (epoch ${epoch.number}): ${JSON.stringify(set)}`;
  if (at < 0) throw new Error(`the node's BLS key is not among ${described}`);
  if (canonical[at].weight * 100n < total * 67n) {
    throw new Error(`the node's key carries ${canonical[at].weight} of ${total}, less than the 67 % a Warp message needs: ${described}`);
  }
  const bits = new Uint8Array(Math.floor(at / 8) + 1);
  bits[0] = 1 << at % 8;
  const signature = bls.sign(unsigned, key.secret);
  if (signature.length !== 96) throw new Error(`a BLS signature of ${signature.length} bytes, not 96`);
  if (!bls.verify(bls.publicKeyFromBytes(key.publicKey), bls.signatureFromBytes(signature), unsigned)) {
    throw new Error("the node's BLS signature does not verify");
  }
  // The signed message: the unsigned one, then the signature (type 0, BitSetSignature).
  return concat(unsigned, u32(0), u32(bits.length), bits, signature);
}

// The chain's index ends with a block holding the signed tx's bytes.
async function indexed(chain, signedTx, name) {
  // In a block a tx has no codec version of its own.
  const bytes = Buffer.from(signedTx.toBytes().slice(2)).toString("hex");
  const last = await rpc(`/ext/index/${chain}/block`, "index.getLastAccepted", { encoding: "hex" });
  check(`${name}: the last indexed ${chain}-chain block holds it`, last.bytes.includes(bytes), last.id);
}

async function xBalance(address) {
  const r = await rpc("/ext/bc/X", "avm.getBalance", { address, assetID: "AVAX" });
  return BigInt(r.balance);
}

async function pBalance(address) {
  const r = await rpc("/ext/bc/P", "platform.getBalance", { addresses: [address] });
  return BigInt(r.unlocked);
}

// A node commits a transaction within a block or two (its P-chain blocks are at least a
// second apart); the devnet at once. Polled every 25 ms for at most 30 s.
const settleMs = 30_000;

async function waitP(txID) {
  const until = Date.now() + settleMs;
  let r;
  do {
    r = await rpc("/ext/bc/P", "platform.getTxStatus", { txID });
    if (r.status === "Committed") return;
    if (r.status === "Dropped") throw new Error(`P-chain tx ${txID} was dropped: ${r.reason}`);
    await new Promise((res) => setTimeout(res, 25));
  } while (Date.now() < until);
  throw new Error(`P-chain tx ${txID} was not committed within ${settleMs / 1000} s: ${r.status}`);
}

async function waitX(txID) {
  const until = Date.now() + settleMs;
  let status;
  do {
    ({ status } = await rpc("/ext/bc/X", "avm.getTxStatus", { txID }));
    if (status === "Accepted") return;
    await new Promise((r) => setTimeout(r, 25));
  } while (Date.now() < until);
  throw new Error(`X-chain tx ${txID} was not accepted within ${settleMs / 1000} s: ${status}`);
}

main().catch((e) => {
  console.log(`FAIL  ${e.stack ?? e}`);
  process.exit(1);
});
