// AvalancheJS 5.2.0 builds the cases the Rust wallet built (tests/tests/wallet_crosscheck/
// writes them to stdin as JSON): for each, the unsigned bytes, the fee (P-chain:
// `pvm.calculateFee`; X-chain: the static fee; C-chain: the base fee times
// `utils.costCorethTx`) and the AVAX burned, or the error; written to stdout as JSON in the
// same order.
import {
  L1Validator,
  OutputOwners,
  PChainOwner,
  TransferableOutput,
  Utxo,
  avm,
  evm,
  pvm,
  pvmSerial,
  utils,
} from "@avalabs/avalanchejs";

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const bytes = (h) => utils.hexToBuffer(h.startsWith("0x") ? h : "0x" + h);
const hex = (b) => Buffer.from(b).toString("hex");

function context(c) {
  const [bandwidth, dbRead, dbWrite, compute] = c.weights;
  return {
    networkID: c.networkID,
    hrp: c.hrp,
    xBlockchainID: c.xBlockchainID,
    pBlockchainID: c.pBlockchainID,
    cBlockchainID: c.cBlockchainID,
    avaxAssetID: c.avaxAssetID,
    baseTxFee: BigInt(c.baseTxFee),
    createAssetTxFee: BigInt(c.createAssetTxFee),
    platformFeeConfig: {
      weights: { 0: bandwidth, 1: dbRead, 2: dbWrite, 3: compute },
      maxCapacity: 1000000n,
      maxPerSecond: 100000n,
      targetPerSecond: 50000n,
      minPrice: 1n,
      excessConversionConstant: 2164043n,
    },
  };
}

function output(o) {
  return TransferableOutput.fromNative(
    o.assetID,
    BigInt(o.amount),
    o.owners.addresses.map(bytes),
    BigInt(o.owners.locktime),
    o.owners.threshold,
  );
}

// The C-chain's atomic transactions, at a base fee in nAVAX per gas (AvalancheJS's unit).
function buildC(c) {
  const ctx = context(c.context);
  const p = c.params;
  const baseFee = BigInt(p.baseFee);
  if (c.kind === "export") {
    return evm.newExportTxFromBaseFee(
      ctx,
      baseFee,
      BigInt(p.amount),
      p.destination,
      bytes(p.fromEvm),
      p.to.addresses.map(bytes),
      BigInt(p.nonce),
      undefined,
      { locktime: BigInt(p.to.locktime), threshold: p.to.threshold },
    );
  }
  const manager = utils.getManagerForVM("EVM");
  const utxos = c.utxos.map((u) => manager.unpack(bytes(u), Utxo));
  return evm.newImportTxFromBaseFee(ctx, bytes(p.toEvm), c.from.map(bytes), utxos, p.source, baseFee);
}

function build(c) {
  if (c.chain === "C") return buildC(c);
  const ctx = context(c.context);
  const manager = utils.getManagerForVM(c.chain === "X" ? "AVM" : "PVM");
  const utxos = c.utxos.map((u) => manager.unpack(bytes(u), Utxo));
  const from = c.from.map(bytes);
  const change = c.change ? c.change.map(bytes) : undefined;
  const memo = bytes(c.memo);
  const time = BigInt(c.minIssuanceTime);
  const p = c.params;
  if (c.chain === "X") {
    const options = { changeAddresses: change, memo, minIssuanceTime: time };
    switch (c.kind) {
      case "base":
        return avm.newBaseTx(ctx, from, utxos, p.outputs.map(output), options);
      case "export":
        return avm.newExportTx(ctx, p.destination, from, utxos, p.outputs.map(output), options);
      case "import":
        return avm.newImportTx(
          ctx,
          p.source,
          utxos,
          p.to.addresses.map(bytes),
          from,
          options,
          p.to.threshold,
          BigInt(p.to.locktime),
        );
    }
    throw new Error(`unknown X kind ${c.kind}`);
  }
  const feeState = {
    capacity: BigInt(c.context.feeState.capacity),
    excess: BigInt(c.context.feeState.excess),
    price: BigInt(c.context.feeState.price),
    timestamp: "",
  };
  const common = {
    feeState,
    fromAddressesBytes: from,
    changeAddressesBytes: change,
    memo,
    minIssuanceTime: time,
    utxos,
  };
  const e = pvm.e;
  switch (c.kind) {
    case "base":
      return e.newBaseTx({ ...common, outputs: p.outputs.map(output) }, ctx);
    case "export":
      return e.newExportTx(
        { ...common, destinationChainId: p.destination, outputs: p.outputs.map(output) },
        ctx,
      );
    case "import":
      return e.newImportTx(
        {
          ...common,
          sourceChainId: p.source,
          toAddressesBytes: p.to.addresses.map(bytes),
          threshold: p.to.threshold,
          locktime: BigInt(p.to.locktime),
        },
        ctx,
      );
    case "validator":
      return e.newAddPermissionlessValidatorTx(
        {
          ...common,
          nodeId: p.nodeID,
          start: BigInt(p.start),
          end: BigInt(p.end),
          weight: BigInt(p.weight),
          subnetId: "11111111111111111111111111111111LpoYY",
          publicKey: bytes(p.publicKey),
          signature: bytes(p.signature),
          rewardAddresses: p.rewardAddresses.map(bytes),
          delegatorRewardsOwner: p.delegatorRewardAddresses.map(bytes),
          shares: p.shares,
        },
        ctx,
      );
    case "delegator":
      return e.newAddPermissionlessDelegatorTx(
        {
          ...common,
          nodeId: p.nodeID,
          start: BigInt(p.start),
          end: BigInt(p.end),
          weight: BigInt(p.weight),
          subnetId: "11111111111111111111111111111111LpoYY",
          rewardAddresses: p.rewardAddresses.map(bytes),
        },
        ctx,
      );
    case "createSubnet":
      return e.newCreateSubnetTx(
        {
          ...common,
          subnetOwners: p.owner.addresses.map(bytes),
          threshold: p.owner.threshold,
          locktime: BigInt(p.owner.locktime),
        },
        ctx,
      );
    case "createChain":
      return e.newCreateChainTx(
        {
          ...common,
          subnetId: p.subnetID,
          chainName: p.name,
          vmId: p.vmID,
          fxIds: [],
          genesisData: JSON.parse(p.genesis),
          subnetAuth: p.subnetAuth,
        },
        ctx,
      );
    case "addSubnetValidator":
      return e.newAddSubnetValidatorTx(
        {
          ...common,
          subnetId: p.subnetID,
          nodeId: p.nodeID,
          start: BigInt(p.start),
          end: BigInt(p.end),
          weight: BigInt(p.weight),
          subnetAuth: p.subnetAuth,
        },
        ctx,
      );
    case "removeSubnetValidator":
      return e.newRemoveSubnetValidatorTx(
        { ...common, subnetId: p.subnetID, nodeId: p.nodeID, subnetAuth: p.subnetAuth },
        ctx,
      );
    case "transferSubnetOwnership":
      return e.newTransferSubnetOwnershipTx(
        {
          ...common,
          subnetId: p.subnetID,
          subnetOwners: p.owner.addresses.map(bytes),
          threshold: p.owner.threshold,
          locktime: BigInt(p.owner.locktime),
          subnetAuth: p.subnetAuth,
        },
        ctx,
      );
    case "convertSubnetToL1":
      return e.newConvertSubnetToL1Tx(
        {
          ...common,
          subnetId: p.subnetID,
          chainId: p.chainID,
          address: bytes(p.address),
          subnetAuth: p.subnetAuth,
          validators: p.validators.map((v) => {
            const owner = PChainOwner.fromNative(v.owner.map(bytes), 1);
            return L1Validator.fromNative(
              v.nodeID,
              BigInt(v.weight),
              BigInt(v.balance),
              new pvmSerial.ProofOfPossession(bytes(v.publicKey), bytes(v.signature)),
              owner,
              owner,
            );
          }),
        },
        ctx,
      );
    case "registerL1Validator":
      return e.newRegisterL1ValidatorTx(
        {
          ...common,
          balance: BigInt(p.balance),
          blsSignature: bytes(p.signature),
          message: bytes(p.message),
        },
        ctx,
      );
    case "setL1ValidatorWeight":
      return e.newSetL1ValidatorWeightTx({ ...common, message: bytes(p.message) }, ctx);
    case "increaseL1ValidatorBalance":
      return e.newIncreaseL1ValidatorBalanceTx(
        { ...common, validationId: p.validationID, balance: BigInt(p.balance) },
        ctx,
      );
    case "disableL1Validator":
      return e.newDisableL1ValidatorTx(
        { ...common, validationId: p.validationID, disableAuth: p.disableAuth },
        ctx,
      );
    case "autoRenewedValidator":
      return e.newAddAutoRenewedValidatorTx(
        {
          ...common,
          nodeId: p.nodeID,
          weight: BigInt(p.weight),
          publicKey: bytes(p.publicKey),
          signature: bytes(p.signature),
          rewardAddresses: p.rewardAddresses.map(bytes),
          delegatorRewardsOwner: p.delegatorRewardAddresses.map(bytes),
          ownerAddresses: p.ownerAddresses.map(bytes),
          shares: p.shares,
          autoCompoundRewardShares: p.autoCompoundRewardShares,
          period: BigInt(p.period),
        },
        ctx,
      );
    case "setAutoRenewedValidatorConfig":
      return e.newSetAutoRenewedValidatorConfigTx(
        {
          ...common,
          validatorTxId: p.txID,
          auth: p.auth,
          autoCompoundRewardShares: p.autoCompoundRewardShares,
          period: BigInt(p.period),
        },
        ctx,
      );
  }
  throw new Error(`unknown P kind ${c.kind}`);
}

const results = cases.map((c) => {
  try {
    const unsigned = build(c);
    const ctx = context(c.context);
    const tx = unsigned.getTx();
    const fee =
      c.chain === "C"
        ? BigInt(c.params.baseFee) * utils.costCorethTx(unsigned)
        : c.chain === "X"
        ? c.kind === "createAsset"
          ? ctx.createAssetTxFee
          : ctx.baseTxFee
        : pvm.calculateFee(tx, ctx.platformFeeConfig.weights, BigInt(c.context.feeState.price));
    const burned = utils.getBurnedAmountByTx(tx, ctx).get(ctx.avaxAssetID) ?? 0n;
    return { unsigned: hex(unsigned.toBytes()), fee: fee.toString(), burned: burned.toString() };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
});
process.stdout.write(JSON.stringify(results));
