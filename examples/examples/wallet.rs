//! The wallet tour: every kind of transaction a user sends, built, signed, issued and
//! confirmed from Rust with `avalanche_rpc::transact`, each effect checked through the API.
//!
//! ```sh
//! cargo run -p avalanche-devnet &                      # a fresh devnet on 127.0.0.1:9650
//! cargo run -p avalanche-rpc-examples --example wallet # or: -- http://HOST:PORT
//! # against AvalancheGo, whose BLS key (--staking-signer-key-file) the tour then holds:
//! tests/with-node 9660 tour sh -c 'cargo run -p avalanche-rpc-examples --example wallet -- "$NODE_URL" --warp-key "$NODE_SIGNER_KEY"'
//! ```
//!
//! A 2-of-3 multisig send on X; AVAX from X to P (export, import); AVAX through the C-chain
//! (X → C → P, then P → C → X, each amount exact in wei on C); a Primary Network
//! validator with a BLS key and a delegator; a Subnet with a chain, converted to an L1 whose
//! first validator is the node; an L1 validator registered through a Warp message signed as
//! the L1's validators (by the devnet, `devnet.signWarpMessage`; or, with `--warp-key`, here
//! with the node's BLS key, as a signature aggregator would), reweighted, its balance
//! increased, and disabled. Then, where Helicon is active (`info.upgrades`), an auto-renewed
//! validator (ACP-236): added, its configuration changed, read back, and on a devnet renewed
//! at the end of its period (time travel); elsewhere one line says why the step is skipped.
//!
//! ```sh
//! # a devnet with Helicon active from genesis (a custom network: the node allows an upgrade
//! # file there only):
//! DEVNET_FLAGS="--network-id 1337 --upgrade-file examples/devnet/upgrades/helicon-now.json" \
//!   tests/with-devnet 9670 tour cargo run -p avalanche-rpc-examples --example wallet -- http://127.0.0.1:9670
//! ```

use std::time::Duration;

use avalanche_rpc::bls::SecretKey;
use avalanche_rpc::codec::secp256k1fx;
use avalanche_rpc::codec::{platform as pc, warp, warp_l1};
use avalanche_rpc::devnet::{AdvanceClockParams, DevnetClient, SignWarpMessageParams};
use avalanche_rpc::info::{InfoClient, UpgradesParams};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::platform::{
    GetCurrentValidatorsParams, GetL1ValidatorParams, GetSubnetParams, PlatformClient,
    ValidatedByParams,
};
use avalanche_rpc::proposervm::ProposervmClient;
use avalanche_rpc::rpc::ClientError;
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::p::{
    self, Authority, AutoRenewedValidatorRequest, ChainRequest, Stake, ValidatorRequest,
};
use avalanche_rpc::transact::{self, Context, Keychain, Payer, c, owners, x};
use avalanche_rpc::wire::{Height, HexBytes, Id, NodeId, ShortId};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const AVAX: u64 = 1_000_000_000;
const WAIT: Duration = Duration::from_secs(30);
/// The local network's funded key (public knowledge).
const EWOQ: &str = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";

fn check(what: &str, ok: bool) -> Result<()> {
    if ok {
        println!("  ok   {what}");
        Ok(())
    } else {
        Err(format!("check failed: {what}").into())
    }
}

/// This machine's time, Unix seconds.
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Fresh bytes for keys and node IDs: a tour run twice on one devnet uses new ones.
fn fresh(tag: u8) -> [u8; 32] {
    use std::hash::{BuildHasher, Hasher};
    let mut out = [0u8; 32];
    for (i, c) in out.chunks_mut(8).enumerate() {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u8(tag);
        h.write_usize(i);
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos(),
        );
        c.copy_from_slice(&h.finish().to_be_bytes());
    }
    out
}

fn node_id(tag: u8) -> NodeId {
    let b = fresh(tag);
    NodeId::new(b[..20].try_into().expect("20 bytes"))
}

struct Tour {
    node: Node,
    ctx: Context,
    ewoq: Keychain,
    me: ShortId,
    /// The node's BLS key (`--warp-key`): Warp messages signed here rather than by the devnet.
    warp_key: Option<SecretKey>,
}

impl Tour {
    /// The chain's time: what the builders build for.
    async fn now(&self) -> Result<u64> {
        let t = self
            .node
            .platform()
            .get_timestamp(Default::default())
            .await?;
        Ok(t.timestamp.unix_seconds().max(0) as u64)
    }

    async fn payer(&self) -> Result<Payer> {
        Ok(Payer::of(&self.ewoq, self.now().await?))
    }

    /// What `a` alone can spend of AVAX on X now, added up from its UTXOs (`getBalance` is
    /// deprecated).
    async fn x_balance(&self, a: &ShortId) -> Result<u64> {
        let utxos = x::utxos(&self.node, &self.ctx, &[*a], None).await?;
        Ok(utxos
            .iter()
            .filter(|u| u.asset_id == self.ctx.avax_asset_id)
            .filter_map(|u| match &u.output {
                avalanche_rpc::codec::avm::UtxoOutput::Secp256k1fxTransferOutput(o)
                    if o.owners.addresses == [*a] =>
                {
                    Some(o.amount)
                }
                _ => None,
            })
            .sum())
    }

    /// What `a` alone holds unlocked of AVAX on P.
    async fn p_balance(&self, a: &ShortId) -> Result<u64> {
        let utxos = p::utxos(&self.node, &self.ctx, &[*a], None).await?;
        Ok(utxos
            .iter()
            .filter(|u| u.asset_id == self.ctx.avax_asset_id)
            .filter_map(|u| match &u.output {
                pc::UtxoOutput::TransferOutput(o)
                    if o.owners.locktime == 0 && o.owners.addresses == [*a] =>
                {
                    Some(o.amount)
                }
                _ => None,
            })
            .sum())
    }

    /// Signs with the funded key, issues on P, waits for the commit; returns the ID.
    async fn p_send(&mut self, what: &str, mut tx: p::Unsigned) -> Result<Id> {
        tx.sign(&self.ewoq)?;
        let id = p::issue(&self.node, &tx.signed()?)
            .await?
            .wait_for(WAIT)
            .await?;
        println!(
            "{what}: {id} committed (fee {} nAVAX, burned {})",
            tx.fee(),
            tx.burned()
        );
        // The fee state moved with the block: build the next one at the new price.
        self.ctx.refresh_fee_state(&self.node).await?;
        Ok(id)
    }

    /// Waits until a P-chain block built now checks Warp messages against the validator sets
    /// as of `height`, as the node decides: since Granite a block verifies them at its
    /// epoch's P-chain height (`proposervm.getCurrentEpoch`), which a block opens at most
    /// every epoch (30 s on a local network) and takes from its parent; and the P-chain height
    /// a block names trails the tip by the node's window of recent blocks (30 s,
    /// `RecentlyAcceptedWindowTTL`). So: wait until both have run past (on the devnet, move
    /// its clock instead of waiting), then send a transfer to self, whose block opens the
    /// next epoch.
    async fn settle(&mut self, height: u64) -> Result<()> {
        const EPOCH: u64 = 30;
        const WINDOW: u64 = 30;
        let since = self.now().await?;
        for _ in 0..4 {
            let epoch = self
                .node
                .proposervm("P")
                .get_current_epoch(Default::default())
                .await?;
            if epoch.p_chain_height.get() >= height {
                return Ok(());
            }
            let until = (epoch.start_time.get() + EPOCH).max(since + WINDOW + 1);
            let now = unix_now();
            if until > now {
                if self.warp_key.is_some() {
                    tokio::time::sleep(Duration::from_secs(until - now)).await;
                } else {
                    let ahead = self.now().await?.saturating_sub(now);
                    self.node
                        .devnet()
                        .advance_clock(AdvanceClockParams::new(until.saturating_sub(now + ahead)))
                        .await?;
                }
            }
            let tx = p::base_tx(&self.ctx, &self.p_utxos().await?, &self.payer().await?, &[])?;
            self.p_send("P: a block to open the next epoch", tx).await?;
        }
        Err(format!("the P-chain's epoch did not reach height {height}").into())
    }

    /// `unsigned` signed as the validators of `subnet`, the L1 of its source chain.
    async fn sign_warp(&self, subnet: Id, unsigned: Vec<u8>) -> Result<Vec<u8>> {
        let Some(key) = &self.warp_key else {
            let r = self
                .node
                .devnet()
                .sign_warp_message(SignWarpMessageParams::new(HexBytes(unsigned)))
                .await?;
            return Ok(r.signed_message.0);
        };
        // The node checks the message against the L1's validators at the P-chain height of
        // the epoch a block built now belongs to: sign for the set there.
        let epoch = self
            .node
            .proposervm("P")
            .get_current_epoch(Default::default())
            .await?;
        let at = Height::Number(epoch.p_chain_height.get());
        let set = transact::warp_validators(&self.node, subnet, at).await?;
        Ok(transact::warp::sign(&unsigned, &set, &[key])?)
    }

    async fn p_utxos(&self) -> Result<Vec<pc::Utxo>> {
        Ok(p::utxos(&self.node, &self.ctx, &[self.me], None).await?)
    }
}

#[tokio::main]
async fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let mut url = "http://127.0.0.1:9650".to_string();
    let mut warp_key = None;
    while let Some(a) = args.next() {
        if a == "--warp-key" {
            let path = args.next().ok_or("--warp-key needs a file")?;
            let bytes = std::fs::read(&path).map_err(|e| format!("--warp-key {path}: {e}"))?;
            let bytes: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                format!(
                    "--warp-key {path}: {} bytes, not the 32 of a BLS secret key",
                    bytes.len()
                )
            })?;
            warp_key = Some(
                SecretKey::from_bytes(&bytes)
                    .map_err(|e| format!("--warp-key {path}: not a BLS secret key: {e}"))?,
            );
        } else {
            url = a;
        }
    }
    let node = Node::http(&url)?;
    let ctx = Context::from_node(&node).await?;
    println!(
        "{url}: network {} ({}), P-chain gas price {}",
        ctx.network_id, ctx.hrp, ctx.p_fee_state.price
    );
    let ewoq = Keychain::parse(EWOQ)?;
    let me = ewoq.addresses()[0];
    let mut t = Tour {
        node,
        ctx,
        ewoq,
        me,
        warp_key,
    };

    multisig_on_x(&t).await?;
    x_to_p(&mut t).await?;
    through_c(&mut t).await?;
    staking(&mut t).await?;
    l1(&mut t).await?;
    auto_renewed(&mut t).await?;
    println!("the tour is complete");
    Ok(())
}

/// 5 AVAX to a 2-of-3 owner, then 2 AVAX of it spent by two of the three, each signing in
/// turn.
async fn multisig_on_x(t: &Tour) -> Result<()> {
    let keys: Vec<PrivateKey> = (1..=3)
        .map(|i| PrivateKey::from_bytes(&fresh(i)).expect("a key"))
        .collect();
    let (alice, bob, carol) = (&keys[0], &keys[1], &keys[2]);
    let shared = owners(
        "owners",
        &[alice.address(), bob.address(), carol.address()],
        2,
        0,
    )?;
    let utxos = x::utxos(&t.node, &t.ctx, &[t.me], None).await?;
    let mut fund = x::base_tx(
        &t.ctx,
        &utxos,
        &t.payer().await?,
        &[x::output(t.ctx.avax_asset_id, 5 * AVAX, shared)],
    )?;
    fund.sign(&t.ewoq)?;
    let id = x::issue(&t.node, &fund.signed()?)
        .await?
        .wait_for(WAIT)
        .await?;
    println!(
        "X: 5 AVAX to a 2-of-3 owner: {id} accepted (fee {})",
        fund.fee()
    );
    let held = x::utxos(&t.node, &t.ctx, &[alice.address()], None).await?;
    check("the 2-of-3 UTXO is listed for each owner", held.len() == 1)?;

    let dave = PrivateKey::from_bytes(&fresh(4))?.address();
    let payer = Payer::new(vec![alice.address(), carol.address()], t.now().await?)
        .change_to(vec![alice.address()]);
    let mut send = x::base_tx(
        &t.ctx,
        &held,
        &payer,
        &[x::output(
            t.ctx.avax_asset_id,
            2 * AVAX,
            owners("to", &[dave], 1, 0)?,
        )],
    )?;
    send.sign(&Keychain::from_keys([alice.clone()]))?;
    check(
        "after Alice signs, Carol's signature is missing",
        send.missing() == vec![carol.address()],
    )?;
    send.sign(&Keychain::from_keys([carol.clone()]))?;
    let id = x::issue(&t.node, &send.signed()?)
        .await?
        .wait_for(WAIT)
        .await?;
    println!("X: 2 AVAX from the 2-of-3 owner, signed by Alice then Carol: {id} accepted");
    check("Dave holds 2 AVAX", t.x_balance(&dave).await? == 2 * AVAX)?;
    check(
        "Alice holds the change, 3 AVAX less the fee",
        t.x_balance(&alice.address()).await? == 3 * AVAX - t.ctx.x_tx_fee,
    )?;
    Ok(())
}

/// 100 AVAX exported from X and imported on P.
async fn x_to_p(t: &mut Tour) -> Result<()> {
    let before = t.p_balance(&t.me).await?;
    let utxos = x::utxos(&t.node, &t.ctx, &[t.me], None).await?;
    let to_me = owners("to", &[t.me], 1, 0)?;
    let mut export = x::export_tx(
        &t.ctx,
        &utxos,
        &t.payer().await?,
        t.ctx.p_chain_id,
        &[x::output(t.ctx.avax_asset_id, 100 * AVAX, to_me.clone())],
    )?;
    export.sign(&t.ewoq)?;
    let id = x::issue(&t.node, &export.signed()?)
        .await?
        .wait_for(WAIT)
        .await?;
    println!("X: 100 AVAX exported to P: {id} accepted");
    let atomic = p::utxos(&t.node, &t.ctx, &[t.me], Some("X")).await?;
    check(
        "the P-chain sees the exported UTXO",
        atomic.iter().any(|u| u.utxo_id.tx_id == id),
    )?;
    let import = p::import_tx(
        &t.ctx,
        &atomic,
        &[],
        &t.payer().await?,
        t.ctx.x_chain_id,
        &to_me,
    )?;
    let burned = import.burned();
    t.p_send("P: imported from X", import).await?;
    let after = t.p_balance(&t.me).await?;
    let imported: u64 = atomic
        .iter()
        .map(|u| match &u.output {
            pc::UtxoOutput::TransferOutput(o) => o.amount,
            _ => 0,
        })
        .sum();
    check(
        "the P-chain balance grew by what was imported, less the fee",
        after == before + imported - burned,
    )?;
    check(
        "nothing is left to import",
        p::utxos(&t.node, &t.ctx, &[t.me], Some("X"))
            .await?
            .is_empty(),
    )?;
    Ok(())
}

impl Tour {
    /// The funded key's C-chain balance in wei and nonce (`eth_getBalance`,
    /// `eth_getTransactionCount`).
    async fn c_account(&self) -> Result<c::Account> {
        Ok(c::accounts(&self.node, &self.ewoq.public_keys()).await?[0])
    }

    /// Imports on C, to the funded key's EVM address, every UTXO `source` exported to it;
    /// returns the nAVAX credited.
    async fn c_import(&self, source: &str, source_id: Id) -> Result<u64> {
        let utxos = c::utxos(&self.node, &self.ctx, &[self.me], source).await?;
        let to = self.ewoq.public_keys()[0].evm_address();
        let base_fee = c::base_fee(&self.node).await?;
        let mut tx = c::import_tx(
            &self.ctx,
            &utxos,
            &self.payer().await?,
            source_id,
            to,
            base_fee,
        )?;
        tx.sign(&self.ewoq)?;
        let id = c::issue(&self.node, &tx.signed()?)
            .await?
            .wait_for(WAIT)
            .await?;
        let imported: u64 = utxos
            .iter()
            .map(|u| match &u.output {
                avalanche_rpc::codec::atomic::UtxoOutput::TransferOutput(o) => o.amount,
                _ => 0,
            })
            .sum();
        println!(
            "C: imported from {source}: {id} accepted (base fee {base_fee} wei/gas, fee {} nAVAX)",
            tx.fee()
        );
        Ok(imported - tx.burned())
    }

    /// Exports `amount` from the funded key's C-chain account to itself on `destination`;
    /// returns the nAVAX debited (the amount and the fee).
    async fn c_export(&self, destination: Id, amount: u64) -> Result<u64> {
        let accounts = c::accounts(&self.node, &self.ewoq.public_keys()).await?;
        let base_fee = c::base_fee(&self.node).await?;
        let out = secp256k1fx::TransferOutput::new(amount, owners("to", &[self.me], 1, 0)?);
        let mut tx = c::export_tx(&self.ctx, &accounts, destination, &[out], base_fee)?;
        tx.sign(&self.ewoq)?;
        let id = c::issue(&self.node, &tx.signed()?)
            .await?
            .wait_for(WAIT)
            .await?;
        println!(
            "C: {} AVAX exported: {id} accepted (fee {} nAVAX)",
            amount / AVAX,
            tx.fee()
        );
        Ok(amount + tx.burned())
    }
}

/// AVAX through the C-chain: 50 exported from X and imported on C, 20 of it exported to P
/// and imported there; 10 exported from P and imported on C, 5 of it exported to X and
/// imported there. Every balance is checked to the wei on C (1 nAVAX = 10⁹ wei) and to the
/// nAVAX on X and P, and each export's nonce.
async fn through_c(t: &mut Tour) -> Result<()> {
    const WEI: u128 = 1_000_000_000;
    let to_me = owners("to", &[t.me], 1, 0)?;
    // X → C.
    let start = t.c_account().await?;
    let utxos = x::utxos(&t.node, &t.ctx, &[t.me], None).await?;
    let mut export = x::export_tx(
        &t.ctx,
        &utxos,
        &t.payer().await?,
        t.ctx.c_chain_id,
        &[x::output(t.ctx.avax_asset_id, 50 * AVAX, to_me.clone())],
    )?;
    export.sign(&t.ewoq)?;
    let id = x::issue(&t.node, &export.signed()?)
        .await?
        .wait_for(WAIT)
        .await?;
    println!("X: 50 AVAX exported to C: {id} accepted");
    let credited = t.c_import("X", t.ctx.x_chain_id).await?;
    let after_import = t.c_account().await?;
    check(
        "C: the balance grew by the import less its fee, to the wei",
        after_import.balance == start.balance + u128::from(credited) * WEI,
    )?;
    check(
        "C: an import leaves the nonce",
        after_import.nonce == start.nonce,
    )?;

    // C → P.
    let p_before = t.p_balance(&t.me).await?;
    let debited = t.c_export(t.ctx.p_chain_id, 20 * AVAX).await?;
    let after_export = t.c_account().await?;
    check(
        "C: the balance shrank by 20 AVAX and the fee, to the wei",
        after_export.balance == after_import.balance - u128::from(debited) * WEI,
    )?;
    check(
        "C: the export used the nonce",
        after_export.nonce == after_import.nonce + 1,
    )?;
    let atomic = p::utxos(&t.node, &t.ctx, &[t.me], Some("C")).await?;
    let import = p::import_tx(
        &t.ctx,
        &atomic,
        &[],
        &t.payer().await?,
        t.ctx.c_chain_id,
        &to_me,
    )?;
    let burned = import.burned();
    t.p_send("P: imported from C", import).await?;
    check(
        "P: the balance grew by 20 AVAX less the import's fee",
        t.p_balance(&t.me).await? == p_before + 20 * AVAX - burned,
    )?;

    // P → C.
    let outputs = [p::output(t.ctx.avax_asset_id, 10 * AVAX, to_me.clone())];
    let export = p::export_tx(
        &t.ctx,
        &t.p_utxos().await?,
        &t.payer().await?,
        t.ctx.c_chain_id,
        &outputs,
    )?;
    t.p_send("P: 10 AVAX exported to C", export).await?;
    let before = t.c_account().await?;
    let credited = t.c_import("P", t.ctx.p_chain_id).await?;
    check(
        "C: the balance grew by 10 AVAX less the import's fee, to the wei",
        credited < 10 * AVAX
            && t.c_account().await?.balance == before.balance + u128::from(credited) * WEI,
    )?;

    // C → X.
    let x_before = t.x_balance(&t.me).await?;
    t.c_export(t.ctx.x_chain_id, 5 * AVAX).await?;
    let atomic = x::utxos(&t.node, &t.ctx, &[t.me], Some("C")).await?;
    let mut import = x::import_tx(
        &t.ctx,
        &atomic,
        &[],
        &t.payer().await?,
        t.ctx.c_chain_id,
        &to_me,
    )?;
    import.sign(&t.ewoq)?;
    let id = x::issue(&t.node, &import.signed()?)
        .await?
        .wait_for(WAIT)
        .await?;
    println!("X: imported from C: {id} accepted");
    check(
        "X: the balance grew by 5 AVAX less the X fee",
        t.x_balance(&t.me).await? == x_before + 5 * AVAX - t.ctx.x_tx_fee,
    )?;
    Ok(())
}

/// A validator with a BLS key and a delegator to it.
async fn staking(t: &mut Tour) -> Result<()> {
    let node = node_id(10);
    let bls = SecretKey::from_seed(&fresh(11))?;
    let now = t.now().await?;
    let weight = t.ctx.staking.min_validator_stake;
    let rewards = owners("rewards", &[t.me], 1, 0)?;
    let req = ValidatorRequest {
        stake: Stake {
            node_id: node,
            start: 0,
            end: now + 30 * 86_400,
            weight,
        },
        signer: Some((bls.public_key(), bls.proof_of_possession())),
        validator_rewards: rewards.clone(),
        delegator_rewards: rewards.clone(),
        shares: 30_000,
    };
    let tx =
        p::add_permissionless_validator_tx(&t.ctx, &t.p_utxos().await?, &t.payer().await?, &req)?;
    t.p_send("P: validator", tx).await?;
    let mut params = GetCurrentValidatorsParams::default();
    params.node_ids = Some(vec![node]);
    let set = t
        .node
        .platform()
        .get_current_validators(params.clone())
        .await?
        .validators;
    check(
        "the validator validates with its weight and BLS key",
        set.len() == 1
            && set[0].weight.get() == weight
            && set[0].signer.as_ref().map(|s| s.public_key.0.clone())
                == Some(bls.public_key().to_vec()),
    )?;

    let room = p::delegation_room(&t.ctx, weight, 0);
    let stake = Stake {
        node_id: node,
        start: 0,
        end: now + 20 * 86_400,
        weight: t.ctx.staking.min_delegator_stake,
    };
    let tx = p::add_permissionless_delegator_tx(
        &t.ctx,
        &t.p_utxos().await?,
        &t.payer().await?,
        stake,
        &rewards,
        Some(room),
    )?;
    t.p_send("P: delegator", tx).await?;
    let set = t
        .node
        .platform()
        .get_current_validators(params)
        .await?
        .validators;
    check(
        "the validator has one delegator",
        set[0].delegator_count.map(|c| c.get()) == Some(1),
    )?;
    Ok(())
}

/// A Subnet with a chain, converted to an L1 whose first validators are two the devnet runs
/// (so it can sign as the L1); then a validator registered, reweighted, topped up, disabled.
async fn l1(t: &mut Tour) -> Result<()> {
    let owner = owners("owner", &[t.me], 1, 0)?;
    let tx = p::create_subnet_tx(&t.ctx, &t.p_utxos().await?, &t.payer().await?, &owner)?;
    let subnet = t.p_send("P: Subnet", tx).await?;
    let s = t
        .node
        .platform()
        .get_subnet(GetSubnetParams::new(subnet))
        .await?;
    check(
        "the Subnet is owned by the funded key",
        s.control_keys
            .iter()
            .map(|a| a.payload())
            .eq([*t.me.as_bytes()]),
    )?;

    let auth = Authority::new(owner.clone());
    let vm = Id::from_sha256(b"the tour's VM");
    let req = ChainRequest {
        subnet_id: subnet,
        name: "TourChain",
        vm_id: vm,
        fx_ids: Vec::new(),
        genesis: b"{}",
    };
    let tx = p::create_chain_tx(&t.ctx, &t.p_utxos().await?, &t.payer().await?, &auth, &req)?;
    let chain = t.p_send("P: chain", tx).await?;
    let by = t
        .node
        .platform()
        .validated_by(ValidatedByParams::new(chain))
        .await?;
    check(
        "the chain is validated by its Subnet",
        by.subnet_id == subnet,
    )?;

    // The L1's first validator is the node itself (`info.getNodeID` gives its BLS key and
    // proof of possession), so the devnet can sign the L1's Warp messages.
    let me = t.node.info().get_node_id(Default::default()).await?;
    let manager = [0x42u8; 20];
    let pchain_owner = pc::PChainOwner::new(1, vec![t.me]);
    let pop = &me.node_pop;
    let first = vec![pc::ConvertSubnetToL1Validator::new(
        me.node_id.as_bytes().to_vec(),
        // Heavy enough to keep 67 % of the L1's weight as validators join.
        100,
        AVAX,
        pc::ProofOfPossession::new(
            pop.public_key.0.as_slice().try_into()?,
            pop.proof_of_possession.0.as_slice().try_into()?,
        ),
        pchain_owner.clone(),
        pchain_owner.clone(),
    )];
    let tx = p::convert_subnet_to_l1_tx(
        &t.ctx,
        &t.p_utxos().await?,
        &t.payer().await?,
        subnet,
        &auth,
        (chain, &manager),
        &first,
    )?;
    t.p_send("P: converted to an L1", tx).await?;
    let converted = t
        .node
        .platform()
        .get_height(Default::default())
        .await?
        .height
        .get();
    let s = t
        .node
        .platform()
        .get_subnet(GetSubnetParams::new(subnet))
        .await?;
    check(
        "the Subnet is an L1 managed from the chain",
        s.manager_chain_id == Some(chain)
            && s.manager_address.map(|a| a.0) == Some(manager.to_vec()),
    )?;

    // The P-chain checks the L1's messages against its validators at the epoch's height.
    t.settle(converted).await?;

    // The manager's RegisterL1Validator message, signed by the L1 (the node).
    let node = node_id(20);
    let bls = SecretKey::from_seed(&fresh(21))?;
    let registration =
        warp_l1::L1Message::RegisterL1Validator(Box::new(warp::RegisterL1Validator::new(
            subnet,
            node.as_bytes().to_vec(),
            bls.public_key(),
            t.now().await? + 3_600,
            pchain_owner.clone(),
            pchain_owner.clone(),
            30,
        )));
    let validation_id = transact::warp::validation_id(&registration)?;
    let signed = t
        .sign_warp(
            subnet,
            transact::warp::l1_message(t.ctx.network_id, chain, &manager, &registration)?,
        )
        .await?;
    let tx = p::register_l1_validator_tx(
        &t.ctx,
        &t.p_utxos().await?,
        &t.payer().await?,
        AVAX,
        bls.proof_of_possession(),
        &signed,
    )?;
    t.p_send("P: L1 validator registered", tx).await?;
    let l1v = |t: &Tour| {
        let p = t.node.platform();
        async move {
            p.get_l1_validator(GetL1ValidatorParams::new(validation_id))
                .await
        }
    };
    let v = l1v(t).await?;
    check(
        "the L1 validator has its node, weight 30 and balance 1 AVAX",
        v.node_id == node && v.weight.get() == 30 && v.balance.get() == AVAX,
    )?;

    let weight = warp_l1::L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(
        validation_id,
        v.min_nonce.get(),
        40,
    ));
    let signed = t
        .sign_warp(
            subnet,
            transact::warp::l1_message(t.ctx.network_id, chain, &manager, &weight)?,
        )
        .await?;
    let tx =
        p::set_l1_validator_weight_tx(&t.ctx, &t.p_utxos().await?, &t.payer().await?, &signed)?;
    t.p_send("P: L1 validator reweighted", tx).await?;
    let v = l1v(t).await?;
    check("its weight is 40", v.weight.get() == 40)?;

    let tx = p::increase_l1_validator_balance_tx(
        &t.ctx,
        &t.p_utxos().await?,
        &t.payer().await?,
        validation_id,
        2 * AVAX,
    )?;
    t.p_send("P: L1 validator balance increased", tx).await?;
    let v = l1v(t).await?;
    check(
        "its balance grew by 2 AVAX (less what it paid since)",
        v.balance.get() > 2 * AVAX && v.balance.get() <= 3 * AVAX,
    )?;

    let tx = p::disable_l1_validator_tx(
        &t.ctx,
        &t.p_utxos().await?,
        &t.payer().await?,
        validation_id,
        &Authority::new(owner),
    )?;
    t.p_send("P: L1 validator disabled", tx).await?;
    let v = l1v(t).await?;
    check("it is inactive: no balance left", v.balance.get() == 0)?;
    Ok(())
}

/// Where Helicon is active (ACP-236): an auto-renewed validator added, its next period and
/// restaked share changed by its authority, read back from `platform.getCurrentValidators`,
/// and, on a devnet (whose clock moves on `devnet.advanceClock`), renewed at the end of its
/// period: from its old end for the next period, its stake grown by the restaked share of
/// its reward. Elsewhere one line says why the step is skipped.
async fn auto_renewed(t: &mut Tour) -> Result<()> {
    let upgrades = t.node.info().upgrades(UpgradesParams::new()).await?;
    let now = t.now().await?;
    let Some(helicon) = upgrades.helicon_time else {
        println!(
            "auto-renewed validator: skipped, Helicon is not active there: info.upgrades names \
             no heliconTime (a node before v1.14.1), and the node refuses ACP-236's \
             transactions before Helicon"
        );
        return Ok(());
    };
    // `IsHeliconActivated`: active from its time on (a fraction of a second rounds up).
    let active_from = helicon.unix_seconds().max(0) as u64 + u64::from(helicon.subsec_nanos() > 0);
    if now < active_from {
        println!(
            "auto-renewed validator: skipped, Helicon is not active there: info.upgrades \
             schedules it at {}, after the chain's time {}, and the node refuses ACP-236's \
             transactions before Helicon",
            helicon.as_str(),
            avalanche_rpc::wire::Timestamp::from_unix(now as i64, 0).as_str()
        );
        return Ok(());
    }

    let node = node_id(30);
    let bls = SecretKey::from_seed(&fresh(31))?;
    let me = owners("me", &[t.me], 1, 0)?;
    let staking = &t.ctx.staking;
    let (period, next_period) = (
        2 * staking.min_stake_duration,
        3 * staking.min_stake_duration,
    );
    let weight = staking.min_validator_stake;
    let req = AutoRenewedValidatorRequest {
        node_id: node,
        weight,
        signer: transact::bls_signer(&bls),
        validator_rewards: me.clone(),
        delegator_rewards: me.clone(),
        validator_authority: me.clone(),
        shares: 30_000,
        auto_compound_reward_shares: 500_000,
        period,
    };
    let tx =
        p::add_auto_renewed_validator_tx(&t.ctx, &t.p_utxos().await?, &t.payer().await?, &req)?;
    let added = t.p_send("P: auto-renewed validator", tx).await?;
    let current = |t: &Tour| {
        let p = t.node.platform();
        async move {
            let params = GetCurrentValidatorsParams::new().with_node_ids(vec![node]);
            p.get_current_validators(params).await
        }
    };
    let v = current(t).await?.validators;
    check(
        "it validates from its tx for one period with its weight, restaking half its rewards",
        v.len() == 1
            && v[0].tx_id == Some(added)
            && v[0].weight.get() == weight
            && v[0].end_time.map(|e| e.get()) == Some(v[0].start_time.get() + period)
            && v[0].next_period.map(|p| p.get()) == Some(period)
            && v[0].auto_compound_reward_shares.map(|s| s.get()) == Some(500_000),
    )?;

    let tx = p::set_auto_renewed_validator_config_tx(
        &t.ctx,
        &t.p_utxos().await?,
        &t.payer().await?,
        added,
        &Authority::new(me),
        250_000,
        next_period,
    )?;
    t.p_send("P: its configuration changed", tx).await?;
    let mut v = current(t).await?.validators;
    check("it still validates", v.len() == 1)?;
    let v = v.remove(0);
    let (start, end) = (v.start_time.get(), v.end_time.map_or(0, |e| e.get()));
    check(
        "its authority is the funded key alone",
        v.validator_authority.as_ref().is_some_and(|a| {
            a.threshold.get() == 1
                && a.addresses
                    .iter()
                    .map(|a| a.payload())
                    .eq([*t.me.as_bytes()])
        }),
    )?;
    check(
        "its next period and restaked share are the new ones; this period's end is unchanged",
        v.next_period.map(|p| p.get()) == Some(next_period)
            && v.auto_compound_reward_shares.map(|s| s.get()) == Some(250_000)
            && end == start + period,
    )?;
    let reward = v.potential_reward.map_or(0, |r| r.get());
    check("it expects a reward for this period", reward > 0)?;

    // Past its end: only a devnet moves its clock (a node answers HTTP 404 there).
    let travel = (end + 10).saturating_sub(t.now().await?);
    match t
        .node
        .devnet()
        .advance_clock(AdvanceClockParams::new(travel))
        .await
    {
        Ok(r) => println!("devnet: clock moved {travel} s, to {}", r.time.as_str()),
        Err(ClientError::Http { status: 404, .. }) => {
            println!(
                "auto-renewed validator: its renewal is not checked here: the node has no \
                 devnet.advanceClock, and its period lasts {period} s"
            );
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    }
    let mut v = current(t).await?.validators;
    check("it validates on after its period's end", v.len() == 1)?;
    let v = v.remove(0);
    // `reward.Split`: the part paid out rounded down, the restaked part the rest.
    let restaked = reward - (u128::from(reward) * 750_000 / 1_000_000) as u64;
    check(
        "renewed: the same tx, from its old end for the next period (new end = old end + period)",
        v.tx_id == Some(added)
            && v.start_time.get() == end
            && v.end_time.map(|e| e.get()) == Some(end + next_period),
    )?;
    check(
        "its stake grew by a quarter of its reward, restaked",
        v.weight.get() == weight + restaked,
    )?;
    Ok(())
}
