// AvalancheJS 5.2.0's side of the wallet benchmark (bench/src/wallet_bench.rs): reads the
// fixture the suite wrote, warms up for a second, then times OP for BUDGET seconds and
// prints the seconds per operation.
//
//   node bench.mjs FIXTURE.json sign|select BUDGET
import { readFileSync } from "node:fs";
import { TransferableOutput, Utxo, addTxSignatures, avm, utils } from "@avalabs/avalanchejs";

const [, , fixturePath, op, budgetText] = process.argv;
const f = JSON.parse(readFileSync(fixturePath, "utf8"));
const budget = Number(budgetText) * 1000;
const bytes = (h) => utils.hexToBuffer("0x" + h);
const manager = utils.getManagerForVM("AVM");
const context = {
  ...f.context,
  baseTxFee: BigInt(f.context.baseTxFee),
  createAssetTxFee: BigInt(f.context.createAssetTxFee),
};
const from = [bytes(f.from)];
const key = bytes(f.key);
const options = { minIssuanceTime: BigInt(f.minIssuanceTime) };
const two = f.two.map((u) => manager.unpack(bytes(u), Utxo));
const many = f.many.map((u) => manager.unpack(bytes(u), Utxo));
const payTwo = [TransferableOutput.fromNative(context.avaxAssetID, BigInt(f.payTwo), [bytes(f.to)])];
const payMany = [TransferableOutput.fromNative(context.avaxAssetID, BigInt(f.payMany), [bytes(f.to)])];

async function sign() {
  const unsignedTx = avm.newBaseTx(context, from, two, payTwo, options);
  await addTxSignatures({ unsignedTx, privateKeys: [key] });
  return unsignedTx.getSignedTx().toBytes();
}

async function select() {
  return avm.newBaseTx(context, from, many, payMany, options);
}

const run = { sign, select }[op];
if (!run) {
  console.error(`unknown op ${op}: sign or select`);
  process.exit(2);
}
const until = (ms) => performance.now() + ms;
let end = until(1000);
while (performance.now() < end) await run();
let n = 0;
const start = performance.now();
end = start + budget;
while (n < 3 || performance.now() < end) {
  await run();
  n++;
}
console.log(((performance.now() - start) / 1000 / n).toString());
