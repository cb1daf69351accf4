// Interop between this crate's portable partially-signed transaction (`transact::portable`,
// schema `spec/schemas/portable.yaml`) and @avalabs/avalanchejs 5.2.0's signer.
//
//   node interop.mjs sign FILE --key-file KEY [--out OUT]
//       Reads a portable file written by `avax-rpc wallet … --out` (or `wallet sign`),
//       rebuilds an avalanchejs UnsignedTx from it (the unsigned bytes unpacked by the chain's
//       codec manager, the slots' UTXO bytes, AddressMaps from the slots' addresses and the
//       inputs' signature indices, the signatures already there as its credentials), adds the
//       key's signatures with `addTxSignatures`, and writes them into the slots they fill (the
//       file's own format, which `avax-rpc wallet show|combine|issue` read and check).
//
//   node interop.mjs send --url URL --chain X|P --key-file KEY --from ADDR… --to ADDR
//                         --amount NAVAX --out OUT
//       Builds a send with avalanchejs's own builder (`avm.newBaseTx`, `pvm.e.newBaseTx`)
//       from the UTXOs the `--from` addresses have a part in, signs it with the one key (a
//       co-signer of a multisig owner signs later), and writes it as a portable file: the
//       unsigned bytes, per credential the UTXO spent (its bytes and claims) and the addresses
//       at its input's signature indices, the signatures avalanchejs made (its empty
//       placeholders as `null`), the fee and the burn.
//
// KEY is a file holding a private key, hex (`0x` optional) or `PrivateKey-…`; it is never
// printed. Exit 1 with the reason on stderr when something does not fit.
import { readFileSync, writeFileSync } from "node:fs";
import {
  Address,
  addTxSignatures,
  avm,
  Context,
  Credential,
  pvm,
  Signature,
  TransferableOutput,
  UnsignedTx,
  Utxo,
  secp256k1,
  utils,
} from "@avalabs/avalanchejs";

const FORMAT = "avalanche-rpc/partially-signed-tx";
const VERSION = 1;
const VM = { X: "AVM", P: "PVM" };

class Refused extends Error {}

function fail(field, reason) {
  throw new Refused(`${field}: ${reason}`);
}

function args(argv) {
  const out = { _: [], from: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) {
      out._.push(a);
      continue;
    }
    const name = a.slice(2);
    const value = argv[++i];
    if (value === undefined) fail(a, "needs a value");
    if (name === "from") out.from.push(value);
    else out[name] = value;
  }
  return out;
}

// The key in a file; errors name the file, never its contents.
function readKey(path) {
  if (!path) fail("--key-file", "missing: the file of the private key that signs");
  const text = readFileSync(path, "utf8").trim();
  let key;
  try {
    key = text.startsWith("PrivateKey-")
      ? utils.base58check.decode(text.slice("PrivateKey-".length))
      : utils.hexToBuffer(text.startsWith("0x") ? text : `0x${text}`);
  } catch {
    fail("--key-file", `${path} does not hold a private key (hex or PrivateKey-…)`);
  }
  if (key.length !== 32) fail("--key-file", `${path} holds ${key.length} bytes, not a 32-byte key`);
  return key;
}

const isEmpty = (hex) => /^0x0*$/.test(hex);
const hex = (bytes) => utils.bufferToHex(bytes);
// An address of the file's (`X-local1…`): its 20 bytes.
const payload = (text) => utils.parse(text)[2];

// The chain's codec manager and its default codec; the codec version a root carries.
function codecOf(chain) {
  const vm = VM[chain];
  if (!vm) fail("chain", `\`${chain}\`: X or P`);
  const manager = utils.getManagerForVM(vm);
  return { manager, codec: manager.getDefaultCodec(), version: manager.getDefaultCodecId().toBytes() };
}

// ---- sign: a portable file completed by avalanchejs ----

function rebuild(file) {
  if (file.format !== FORMAT) fail("format", `\`${file.format}\`, not \`${FORMAT}\``);
  if (file.version !== VERSION) fail("version", `${file.version}: this script knows version ${VERSION}`);
  const { manager } = codecOf(file.chain);
  const bytes = utils.hexToBuffer(file.unsignedTx);
  let tx;
  try {
    tx = manager.unpackTransaction(bytes);
  } catch (e) {
    fail("unsignedTx", `avalanchejs does not read it as a ${file.chain}-chain transaction: ${e.message}`);
  }
  if (hex(utils.packTx(tx)) !== hex(bytes)) {
    fail("unsignedTx", "avalanchejs reads it but writes it back differently: it would sign other bytes");
  }
  const indices = tx.getSigIndices();
  if (indices.length !== file.slots.length) {
    fail("slots", `the file has ${file.slots.length} but avalanchejs reads ${indices.length} credential(s) in the bytes`);
  }
  const utxos = [];
  const maps = [];
  const credentials = [];
  file.slots.forEach((slot, s) => {
    if (slot.utxo) {
      try {
        utxos.push(manager.unpack(utils.hexToBuffer(slot.utxo.bytes), Utxo));
      } catch (e) {
        fail(`slots[${s}].utxo.bytes`, `avalanchejs does not read them as a UTXO: ${e.message}`);
      }
    }
    if (slot.signatures.length !== indices[s].length) {
      fail(
        `slots[${s}].signatures`,
        `the file lists ${slot.signatures.length} but the input signs with ${indices[s].length}`,
      );
    }
    maps.push(new utils.AddressMap(slot.signatures.map((sig, i) => [new Address(payload(sig.address)), indices[s][i]])));
    credentials.push(
      new Credential(
        slot.signatures.map((sig) => new Signature(sig.signature ? utils.hexToBuffer(sig.signature) : new Uint8Array(65))),
      ),
    );
  });
  return new UnsignedTx(tx, utxos, new utils.AddressMaps(maps), credentials);
}

async function sign(opts) {
  const [path] = opts._;
  if (!path) fail("FILE", "missing: the portable file to sign");
  const key = readKey(opts["key-file"]);
  const file = JSON.parse(readFileSync(path, "utf8"));
  const unsignedTx = rebuild(file);
  const before = unsignedTx.getCredentials().map((c) => c.getSignatures());
  await addTxSignatures({ unsignedTx, privateKeys: [key] });
  const after = unsignedTx.getCredentials().map((c) => c.getSignatures());
  let added = 0;
  file.slots.forEach((slot, s) => {
    slot.signatures.forEach((entry, i) => {
      // Only the slots still empty: a signature already there stays as it is.
      if (!entry.signature && before[s][i] !== after[s][i]) {
        entry.signature = after[s][i];
        added++;
      }
    });
  });
  if (added === 0) {
    const first = file.slots.flatMap((slot) => slot.signatures)[0]?.address;
    if (!first) fail("slots", "no signature slot: nothing to sign");
    const hrp = utils.parse(first)[1];
    const mine = utils.format(file.chain, hrp, secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key)));
    fail("--key-file", `its key (address ${mine}) fills no empty slot of ${path}`);
  }
  writeFileSync(opts.out ?? path, JSON.stringify(file, null, 2) + "\n");
  const missing = file.slots.flatMap((s) => s.signatures).filter((e) => !e.signature).length;
  // AvalancheJS's own view of the result: every credential filled with a signature that
  // recovers to one of the addresses (the ones this crate made included).
  const complete = unsignedTx.hasAllSignatures();
  console.log(
    `avalanchejs addTxSignatures: ${added} signature(s) added; ${missing} missing; hasAllSignatures: ${complete}`,
  );
}

// ---- send: a transaction built and partly signed by avalanchejs, as a portable file ----

// The portable file of `unsignedTx` (built by avalanchejs from `utxos`).
function portable(context, chain, unsignedTx, fee) {
  const { codec, version } = codecOf(chain);
  const tx = unsignedTx.getTx();
  const base = tx.baseTx;
  if (!["avm.BaseTx", "pvm.BaseTx"].includes(tx._type)) {
    fail("unsignedTx", `a ${tx._type}: this script writes base transactions only`);
  }
  const byId = new Map(unsignedTx.getInputUtxos().map((u) => [u.utxoId.ID(), u]));
  const credentials = unsignedTx.getCredentials().map((c) => c.getSignatures());
  const address = (a) => utils.format(chain, context.hrp, a.toBytes());
  let consumed = 0n;
  const slots = base.inputs.map((input, s) => {
    const utxo = byId.get(input.utxoID.ID());
    if (!utxo) fail(`slots[${s}].utxo`, `the UTXO ${input.utxoID.ID()} the input spends is not among those given`);
    const owners = utxo.getOutputOwners();
    const amount = input.amount();
    if (input.assetId.toString() === context.avaxAssetID) consumed += amount;
    const indices = input.sigIndicies();
    return {
      utxo: {
        txID: utxo.utxoId.txID.toString(),
        outputIndex: utxo.utxoId.outputIdx.value(),
        assetID: utxo.assetId.toString(),
        amount: amount.toString(),
        addresses: owners.addrs.map(address),
        threshold: owners.threshold.value(),
        locktime: owners.locktime.value().toString(),
        bytes: hex(new Uint8Array([...version, ...utxo.toBytes(codec)])),
      },
      signatures: indices.map((index, i) => ({
        address: address(owners.addrs[index]),
        signature: isEmpty(credentials[s][i]) ? null : credentials[s][i],
      })),
    };
  });
  const produced = base.outputs
    .filter((o) => o.assetId.toString() === context.avaxAssetID)
    .reduce((sum, o) => sum + o.amount(), 0n);
  const burned = consumed - produced;
  return {
    format: FORMAT,
    version: VERSION,
    networkID: context.networkID,
    chain,
    blockchainID: chain === "X" ? context.xBlockchainID : context.pBlockchainID,
    avaxAssetID: context.avaxAssetID,
    unsignedTx: hex(unsignedTx.toBytes()),
    fee: (fee ?? burned).toString(),
    burned: burned.toString(),
    slots,
  };
}

async function send(opts) {
  for (const name of ["url", "chain", "to", "amount", "out"]) {
    if (!opts[name]) fail(`--${name}`, "missing");
  }
  if (opts.from.length === 0) fail("--from", "missing: the addresses whose UTXOs pay");
  const chain = opts.chain;
  codecOf(chain);
  const key = readKey(opts["key-file"]);
  const url = opts.url.replace(/\/+$/, "");
  const context = await Context.getContextFromURI(url);
  const from = opts.from.map(payload);
  const amount = BigInt(opts.amount);
  const outputs = [TransferableOutput.fromNative(context.avaxAssetID, amount, [payload(opts.to)])];
  let unsignedTx;
  let fee;
  if (chain === "X") {
    const { utxos } = await new avm.AVMApi(url).getUTXOs({ addresses: opts.from });
    unsignedTx = avm.newBaseTx(context, from, utxos, outputs);
    // The X-chain's fee is static: what the builder burns.
    fee = context.baseTxFee;
  } else {
    const api = new pvm.PVMApi(url);
    const { utxos } = await api.getUTXOs({ addresses: opts.from });
    const feeState = await api.getFeeState();
    unsignedTx = pvm.e.newBaseTx({ feeState, fromAddressesBytes: from, outputs, utxos }, context);
  }
  await addTxSignatures({ unsignedTx, privateKeys: [key] });
  const file = portable(context, chain, unsignedTx, fee);
  const signed = file.slots.flatMap((s) => s.signatures).filter((e) => e.signature).length;
  if (signed === 0) fail("--key-file", "its key signs for none of the UTXOs avalanchejs chose");
  writeFileSync(opts.out, JSON.stringify(file, null, 2) + "\n");
  const missing = file.slots.flatMap((s) => s.signatures).filter((e) => !e.signature).length;
  console.log(
    `avalanchejs ${chain === "X" ? "avm.newBaseTx" : "pvm.e.newBaseTx"}: ${file.slots.length} input(s), burns ${file.burned} nAVAX; ${signed} signature(s), ${missing} missing; written to ${opts.out}`,
  );
}

const [command, ...rest] = process.argv.slice(2);
try {
  const opts = args(rest);
  if (command === "sign") await sign(opts);
  else if (command === "send") await send(opts);
  else fail("command", `\`${command ?? ""}\`: sign or send`);
} catch (e) {
  console.error(`interop.mjs ${command ?? ""}: ${e instanceof Refused ? e.message : e.stack ?? e}`);
  process.exit(1);
}
