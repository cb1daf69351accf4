// Wallet libraries transact against the devnet: @avalabs/avalanchejs 5.2.0 builds, signs and
// issues transactions with its own codec and fee rules, and after each the devnet's state
// (balances, UTXOs, statuses, the index) shows the change; @avalanche-sdk/client 0.1.1's
// wallet actions send on X and P; AvalancheJS v3 (npm `avalanche`, before dynamic fees) sends
// on X. DEVNET_URL names the devnet.
//
//   DEVNET_URL=http://127.0.0.1:9650 node transact.mjs
import { createHash } from "node:crypto";
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

const url = process.env.DEVNET_URL ?? "http://127.0.0.1:9650";
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
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

// The devnet's funded test keys (printed at its start).
const ewoq = utils.hexToBuffer(
  "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027",
);
const key1 = utils.base58check.decode("CMhtnxFdsdphCp7NX2mxpQdZmevcyvGojdkLEDKocFRNsEmAo");

const keyAddress = (key) => secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key));

async function main() {
  const context = await Context.getContextFromURI(url);
  check("Context.getContextFromURI", context.networkID === 12345, JSON.stringify(context.networkID));
  const xApi = new avm.AVMApi(url);
  const pApi = new pvm.PVMApi(url);
  // The fee state as the node gives it (as of the last accepted block): the devnet's P-chain
  // blocks are a second apart in chain time, as the node's, so the gas capacity refills
  // between them and a wallet issuing txs back to back builds each with it, as on the node.
  const buildP = async (build) => build(await pApi.getFeeState());
  const ewoqAddr = keyAddress(ewoq);
  const key1Addr = keyAddress(key1);
  const x = (a) => utils.format("X", "local", a);
  const p = (a) => utils.format("P", "local", a);

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
  // the dynamic fee of the devnet's fee state.
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
    const feeState = await pApi.getFeeState();
    const imp = pvm.e.newImportTx(
      {
        fromAddressesBytes: [ewoqAddr],
        sourceChainId: context.xBlockchainID,
        toAddressesBytes: [ewoqAddr],
        utxos: atomic.utxos,
        feeState,
      },
      context,
    );
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
  const pTx = async (build, name, authorized = false) => {
    const { utxos } = await pApi.getUTXOs({ addresses: [p(ewoqAddr)] });
    const tx = await buildP((feeState) => build({ fromAddressesBytes: [ewoqAddr], utxos, feeState }));
    await addTxSignatures({ unsignedTx: tx, privateKeys: [ewoq] });
    if (authorized) {
      tx.addSignatureAt(await secp256k1.sign(tx.toBytes(), ewoq), tx.getCredentials().length - 1, 0);
    }
    const { txID } = await pApi.issueSignedTx(tx.getSignedTx());
    await waitP(txID);
    check(`${name}: committed`, true);
    await indexed("P", tx.getSignedTx(), name);
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

  // A validator staked from stakeable-locked funds: key 1's genesis output locked for a year.
  // The library stakes locked UTXOs first, relocks the rest and pays the fee unlocked.
  {
    const lockedBefore = BigInt((await rpc("/ext/bc/P", "platform.getBalance", { addresses: [p(key1Addr)] })).lockedStakeable);
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

  // A Subnet, a chain on it, converted to an L1 whose validator is the devnet's own node
  // (so the devnet can sign Warp messages as the L1), then a second L1 validator registered
  // by a Warp message and its weight changed.
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
  {
    const s = await rpc("/ext/bc/P", "platform.getSubnet", { subnetID: subnetId });
    check("the Subnet is an L1 managed from its chain", s.isPermissioned === false && s.managerChainID === chainId, JSON.stringify(s));
  }
  // The P-chain verifies Warp messages at its epoch's P-chain height (as the node does since
  // Granite): the L1's validators exist for it once the epoch of the next block has lasted
  // its 30 s and a P-chain block names the conversion's height. The devnet's clock moves on
  // to the epoch's end; a node's would be waited.
  {
    const epoch = await rpc("/ext/bc/P/proposervm", "proposervm.getCurrentEpoch", {});
    const { time } = await rpc("/ext/devnet", "devnet.advanceClock", { seconds: 0 });
    const by = Number(epoch.startTime) + 30 - Math.floor(Date.parse(time) / 1000);
    await rpc("/ext/devnet", "devnet.advanceClock", { seconds: Math.max(0, by) });
  }
  await pTx(
    (c) =>
      pvm.e.newBaseTx(
        { ...c, outputs: [TransferableOutput.fromNative(context.avaxAssetID, 1_000n, [ewoqAddr])] },
        context,
      ),
    "P-chain BaseTx opening the next epoch",
  );
  {
    const e = await rpc("/ext/bc/P/proposervm", "proposervm.getCurrentEpoch", {});
    const h = await rpc("/ext/bc/P", "platform.getHeight", {});
    check("the P-chain's epoch holds the conversion", BigInt(e.pChainHeight) >= BigInt(h.height) - 1n, JSON.stringify(e));
  }
  // The manager's RegisterL1Validator message, signed by the L1 (the devnet's node).
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
  const signed = await signWarp(context, chainId, manager, register);
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
  const signedReweigh = await signWarp(context, chainId, manager, reweigh);
  await pTx(
    (c) => pvm.e.newSetL1ValidatorWeightTx({ ...c, message: signedReweigh }, context),
    "SetL1ValidatorWeightTx",
  );
  {
    const v = await rpc("/ext/bc/P", "platform.getL1Validator", { validationID: validationId });
    check("the L1 validator's weight is 20, its nonce used", v.weight === "20" && v.minNonce === "1", JSON.stringify(v));
  }


  // @avalanche-sdk/client's wallet actions: an X-chain send and a P-chain transfer, 2 AVAX
  // each from ewoq to key 1 (the library reads the network from the devnet).
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
    // Its built-in local X-chain ID is the node's; this devnet's genesis differs, so it is given.
    const av = new Avalanche(
      u.hostname,
      Number(u.port),
      u.protocol.replace(":", ""),
      12345,
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

  console.log(`\n${passed} passed, ${failed} failed`);
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
// signed by the devnet as the validators of the chain's Subnet (devnet.signWarpMessage).
async function signWarp(context, chain, address, inner) {
  const call = concat(u16(0), u32(1), u32(address.length), address, u32(inner.length), inner);
  const unsigned = concat(
    u16(0),
    u32(context.networkID),
    utils.base58check.decode(chain),
    u32(call.length),
    call,
  );
  const r = await rpc("/ext/devnet", "devnet.signWarpMessage", {
    message: "0x" + Buffer.from(unsigned).toString("hex"),
  });
  return utils.hexToBuffer(r.signedMessage);
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

async function waitP(txID) {
  for (let i = 0; i < 200; i++) {
    const r = await rpc("/ext/bc/P", "platform.getTxStatus", { txID });
    if (r.status === "Committed") return;
    if (r.status === "Dropped") throw new Error(`P-chain tx ${txID} was dropped: ${r.reason}`);
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`P-chain tx ${txID} was not committed`);
}

async function waitX(txID) {
  for (let i = 0; i < 200; i++) {
    const { status } = await rpc("/ext/bc/X", "avm.getTxStatus", { txID });
    if (status === "Accepted") return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`X-chain tx ${txID} was not accepted`);
}

main().catch((e) => {
  console.log(`FAIL  ${e.stack ?? e}`);
  process.exit(1);
});
