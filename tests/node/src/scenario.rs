//! The scenario: every X and P transaction kind the wallet builds, each built once from the
//! node's context and UTXOs, its mutations issued to both sides, then itself.

use std::time::Duration;

use avalanche_rpc::bls::SecretKey;
use avalanche_rpc::codec::{avm, platform as pc, secp256k1fx, warp, warp_l1};
use avalanche_rpc::info::InfoClient;
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::platform::{GetL1ValidatorParams, PlatformClient};
use avalanche_rpc::proposervm::ProposervmClient;
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::p::{self, Authority, ChainRequest, Stake, ValidatorRequest};
use avalanche_rpc::transact::{self, Context, Keychain, Payer, Signable, Unsigned, c, x};
use avalanche_rpc::wire::{EvmAddress, Height, Id, NodeId, ShortId};

use crate::report::Report;
use crate::rpc::{Side, result};
use crate::txs::{self, Chain, Raw};

type Result<T> = std::result::Result<T, String>;

const AVAX: u64 = 1_000_000_000;
const EWOQ: &str = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";
const DAY: u64 = 86_400;

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

/// Fixed bytes for keys and node IDs (the two sides start fresh each run).
fn seeded(tag: u8) -> [u8; 32] {
    let mut b = [tag; 32];
    b[0] = 0x5a;
    b
}

/// What the writes produced, for the reads.
#[derive(Default, Debug)]
pub struct Written {
    pub x_txs: Vec<Id>,
    pub p_txs: Vec<Id>,
    /// The C-chain's atomic transactions, in the order they were accepted.
    pub c_txs: Vec<Id>,
    pub asset: Option<Id>,
    pub subnet: Option<Id>,
    pub chain: Option<Id>,
    pub validator: Option<NodeId>,
    pub validation_id: Option<Id>,
    pub me: String,
    pub me_p: String,
    /// The funded key's address on C (`C-…`, for `avax.getUTXOs`) and its EVM address.
    pub me_c: String,
    pub me_evm: String,
    pub alice_x: String,
    pub hrp: String,
}

struct Run<'a> {
    node: Node,
    dev: Node,
    ns: Side,
    ds: Side,
    ctx: Context,
    keys: Keychain,
    me: ShortId,
    me_evm: EvmAddress,
    alice: ShortId,
    stranger: PrivateKey,
    warp_key: SecretKey,
    report: &'a mut Report,
    w: Written,
}

impl Run<'_> {
    async fn now(&self) -> Result<u64> {
        let t = self
            .node
            .platform()
            .get_timestamp(Default::default())
            .await
            .map_err(e)?;
        Ok(t.timestamp.unix_seconds().max(0) as u64)
    }

    async fn payer(&self) -> Result<Payer> {
        Ok(Payer::of(&self.keys, self.now().await?))
    }

    async fn x_utxos(&self) -> Result<Vec<avm::Utxo>> {
        transact::x::utxos(&self.node, &self.ctx, &[self.me], None)
            .await
            .map_err(e)
    }

    async fn p_utxos(&self) -> Result<Vec<pc::Utxo>> {
        transact::p::utxos(&self.node, &self.ctx, &[self.me], None)
            .await
            .map_err(e)
    }

    /// One kind: its mutations (generic and `extra`), the valid transaction on both sides,
    /// confirmed on both, its fee compared, then the copies that spend what it spent.
    async fn kind<U: Signable>(
        &mut self,
        kind: &str,
        chain: Chain,
        tx: &Unsigned<U>,
        extra: Vec<(&'static str, Vec<u8>)>,
    ) -> Result<Id>
    where
        U::Signed: avalanche_rpc::codec::Encode,
    {
        let raw = Raw::of(chain, tx, &self.keys);
        let other = match chain {
            Chain::X => self.ctx.p_chain_id,
            Chain::P | Chain::C => self.ctx.x_chain_id,
        };
        let mut cases = txs::mutations(&raw, &self.keys, &self.me, other, &self.stranger);
        cases.extend(extra);
        for (case, bytes) in cases {
            let i =
                txs::issue_both(&self.ns, &self.ds, chain, format!("{kind}/{case}"), &bytes).await;
            self.report.issued(kind, false, &i);
            self.settle_accepted(chain, &i).await;
        }
        let before = (
            txs::holdings(&self.node, &self.ctx, &self.me, self.me_evm).await?,
            txs::holdings(&self.dev, &self.ctx, &self.me, self.me_evm).await?,
        );
        let signed = raw.signed(&self.keys, None);
        let id = raw.id(&self.keys);
        let i = txs::issue_both(&self.ns, &self.ds, chain, format!("{kind}/valid"), &signed).await;
        self.report.issued(kind, true, &i);
        if !i.node_accepted() {
            return Err(format!(
                "{kind}: the node refused the valid transaction: {}",
                txs::verdict(&i.node)
            ));
        }
        txs::confirm(&self.node, chain, id)
            .await
            .map_err(|m| format!("{kind} on the node: {m}"))?;
        if i.devnet_accepted() {
            txs::confirm(&self.dev, chain, id)
                .await
                .map_err(|m| format!("{kind} on the devnet: {m}"))?;
        }
        let after = (
            txs::holdings(&self.node, &self.ctx, &self.me, self.me_evm).await?,
            txs::holdings(&self.dev, &self.ctx, &self.me, self.me_evm).await?,
        );
        self.report.fee(
            kind,
            before.0 as i128 - after.0 as i128,
            before.1 as i128 - after.1 as i128,
        );
        println!("{kind}: {id} (fee {}, burned {})", raw.fee, raw.burned);
        // Now that it is accepted: the same bytes again, and another transaction spending
        // what it spent.
        let i = txs::issue_both(
            &self.ns,
            &self.ds,
            chain,
            format!("{kind}/reissued"),
            &signed,
        )
        .await;
        self.report.issued(kind, false, &i);
        if let Some(b) = txs::respend(&raw, &self.keys, &self.me) {
            let i =
                txs::issue_both(&self.ns, &self.ds, chain, format!("{kind}/spent-utxo"), &b).await;
            self.report.issued(kind, false, &i);
            self.settle_accepted(chain, &i).await;
        }
        if chain == Chain::P {
            self.ctx.refresh_fee_state(&self.node).await.map_err(e)?;
        }
        match chain {
            Chain::X => self.w.x_txs.push(id),
            Chain::P => self.w.p_txs.push(id),
            Chain::C => self.w.c_txs.push(id),
        }
        Ok(id)
    }

    /// A mutated transaction accepted by a side is waited for there (the states may part:
    /// the disagreement is reported).
    async fn settle_accepted(&self, chain: Chain, i: &txs::Issued) {
        for (side, reply) in [(&self.node, &i.node), (&self.dev, &i.devnet)] {
            if let Some(id) = result(reply)
                .and_then(|r| r.get("txID"))
                .and_then(|v| v.as_str())
                .and_then(|s| s.parse::<Id>().ok())
            {
                let _ = txs::confirm(side, chain, id).await;
            }
        }
    }

    /// Signed bytes of a transaction built with other parameters (a kind-specific case).
    fn extra<U: Signable>(
        &self,
        chain: Chain,
        built: std::result::Result<Unsigned<U>, impl std::fmt::Display>,
    ) -> Option<Vec<u8>>
    where
        U::Signed: avalanche_rpc::codec::Encode,
    {
        match built {
            Ok(t) => Some(Raw::of(chain, &t, &self.keys).signed(&self.keys, None)),
            Err(err) => {
                println!("  (a case the builder refuses: {err})");
                None
            }
        }
    }

    /// Waits, as the node's rules require, until a P-chain block built now checks Warp
    /// messages at a height of at least `height` (the P-chain epoch, `Tour::settle` of the
    /// wallet tour); the block that opens the epoch is a P BaseTx issued to both sides.
    async fn settle(&mut self, height: u64) -> Result<()> {
        const EPOCH: u64 = 30;
        const WINDOW: u64 = 30;
        let since = self.now().await?;
        for round in 0..4 {
            let epoch = self
                .node
                .proposervm("P")
                .get_current_epoch(Default::default())
                .await
                .map_err(e)?;
            if epoch.p_chain_height.get() >= height {
                return Ok(());
            }
            let until = (epoch.start_time.get() + EPOCH).max(since + WINDOW + 1);
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            if until > now {
                println!("  (waiting {} s for the node's P-chain epoch)", until - now);
                tokio::time::sleep(Duration::from_secs(until - now)).await;
            }
            let tx = p::base_tx(&self.ctx, &self.p_utxos().await?, &self.payer().await?, &[])
                .map_err(e)?;
            let kind = "P.BaseTx(epoch)";
            let raw = Raw::of(Chain::P, &tx, &self.keys);
            let id = raw.id(&self.keys);
            let i = txs::issue_both(
                &self.ns,
                &self.ds,
                Chain::P,
                format!("{kind}/valid-{round}"),
                &raw.signed(&self.keys, None),
            )
            .await;
            self.report.issued(kind, true, &i);
            txs::confirm(&self.node, Chain::P, id).await?;
            txs::confirm(&self.dev, Chain::P, id).await?;
            self.ctx.refresh_fee_state(&self.node).await.map_err(e)?;
        }
        Err(format!("the P-chain's epoch did not reach height {height}"))
    }

    async fn warp_sign(&self, subnet: Id, unsigned: Vec<u8>) -> Result<Vec<u8>> {
        let epoch = self
            .node
            .proposervm("P")
            .get_current_epoch(Default::default())
            .await
            .map_err(e)?;
        let set = transact::warp_validators(
            &self.node,
            subnet,
            Height::Number(epoch.p_chain_height.get()),
        )
        .await
        .map_err(e)?;
        transact::warp::sign(&unsigned, &set, &[&self.warp_key]).map_err(e)
    }
}

pub async fn run(
    node_url: &str,
    devnet_url: &str,
    warp_key: &str,
    report: &mut Report,
) -> Result<Written> {
    let node = Node::http(node_url).map_err(e)?;
    let dev = Node::http(devnet_url).map_err(e)?;
    let ctx = Context::from_node(&node).await.map_err(e)?;
    let dctx = Context::from_node(&dev).await.map_err(e)?;
    if (dctx.network_id, dctx.x_chain_id, dctx.avax_asset_id)
        != (ctx.network_id, ctx.x_chain_id, ctx.avax_asset_id)
    {
        return Err(
            "the devnet is not the node's network (run it with --genesis-file $NODE_GENESIS)"
                .into(),
        );
    }
    let bytes = std::fs::read(warp_key).map_err(|x| format!("{warp_key}: {x}"))?;
    let bytes: [u8; 32] = bytes
        .as_slice()
        .try_into()
        .map_err(|_| format!("{warp_key}: not 32 bytes"))?;
    let warp_key = SecretKey::from_bytes(&bytes).map_err(e)?;
    let ewoq = transact::keychain::parse_key(EWOQ).map_err(|x| x.to_string())?;
    let alice_key = PrivateKey::from_bytes(&seeded(1)).map_err(e)?;
    let stranger = PrivateKey::from_bytes(&seeded(2)).map_err(e)?;
    let me = ewoq.address();
    let me_evm = ewoq.public_key().evm_address();
    let alice = alice_key.address();
    let keys = Keychain::from_keys([ewoq, alice_key]);
    let w = Written {
        me: ctx.address("X", &me),
        me_p: ctx.address("P", &me),
        me_c: ctx.address("C", &me),
        me_evm: me_evm.to_string(),
        alice_x: ctx.address("X", &alice),
        hrp: ctx.hrp.to_string(),
        ..Default::default()
    };
    let mut r = Run {
        ns: Side::new(node_url),
        ds: Side::new(devnet_url),
        node,
        dev,
        ctx,
        keys,
        me,
        me_evm,
        alice,
        stranger,
        warp_key,
        report,
        w,
    };
    x_chain(&mut r).await?;
    p_chain(&mut r).await?;
    c_chain(&mut r).await?;
    Ok(r.w)
}

fn to(a: &ShortId) -> secp256k1fx::OutputOwners {
    secp256k1fx::OutputOwners::new(0, 1, vec![*a])
}

async fn x_chain(r: &mut Run<'_>) -> Result<()> {
    let avax = r.ctx.avax_asset_id;
    // BaseTx: 1 AVAX to Alice.
    let tx = x::base_tx(
        &r.ctx,
        &r.x_utxos().await?,
        &r.payer().await?,
        &[x::output(avax, AVAX, to(&r.alice))],
    )
    .map_err(e)?;
    r.kind("X.BaseTx", Chain::X, &tx, vec![]).await?;
    // Again with a memo of 256 bytes (the most the codec takes).
    let payer = r.payer().await?.with_memo(vec![9u8; 256]);
    let tx = x::base_tx(
        &r.ctx,
        &r.x_utxos().await?,
        &payer,
        &[x::output(avax, AVAX, to(&r.alice))],
    )
    .map_err(e)?;
    r.kind("X.BaseTx(memo 256)", Chain::X, &tx, vec![]).await?;

    // CreateAssetTx: a variable-cap asset, 1,000 units to me and the minting right mine.
    let states = vec![avm::InitialState::new(
        0,
        vec![
            avm::StateOutput::Secp256k1fxTransferOutput(secp256k1fx::TransferOutput::new(
                1_000,
                to(&r.me),
            )),
            avm::StateOutput::Secp256k1fxMintOutput(secp256k1fx::MintOutput::new(to(&r.me))),
        ],
    )];
    let tx = x::create_asset_tx(
        &r.ctx,
        &r.x_utxos().await?,
        &r.payer().await?,
        ("Differential", "DIFF", 2),
        states,
    )
    .map_err(e)?;
    let asset = r.kind("X.CreateAssetTx", Chain::X, &tx, vec![]).await?;
    r.w.asset = Some(asset);

    // OperationTx: mint 500 more with the right.
    let mine = r.x_utxos().await?;
    let right = mine
        .iter()
        .find(|u| {
            u.asset_id == asset && matches!(u.output, avm::UtxoOutput::Secp256k1fxMintOutput(_))
        })
        .ok_or("the minting right is not listed")?;
    let payer = r.payer().await?;
    let op = x::Op::mint(right, &payer, 500, to(&r.me)).map_err(e)?;
    let tx = x::operation_tx(&r.ctx, &mine, &payer, vec![op]).map_err(e)?;
    r.kind("X.OperationTx", Chain::X, &tx, vec![]).await?;

    // ExportTx: 100 AVAX to P.
    let tx = x::export_tx(
        &r.ctx,
        &r.x_utxos().await?,
        &r.payer().await?,
        r.ctx.p_chain_id,
        &[x::output(avax, 100 * AVAX, to(&r.me))],
    )
    .map_err(e)?;
    let extra = vec![];
    r.kind("X.ExportTx", Chain::X, &tx, extra).await?;
    Ok(())
}

async fn p_chain(r: &mut Run<'_>) -> Result<()> {
    let avax = r.ctx.avax_asset_id;
    // ImportTx from X.
    let atomic = transact::p::utxos(&r.node, &r.ctx, &[r.me], Some("X"))
        .await
        .map_err(e)?;
    let tx = p::import_tx(
        &r.ctx,
        &atomic,
        &[],
        &r.payer().await?,
        r.ctx.x_chain_id,
        &to(&r.me),
    )
    .map_err(e)?;
    r.kind("P.ImportTx", Chain::P, &tx, vec![]).await?;

    // BaseTx: 1 AVAX to Alice.
    let tx = p::base_tx(
        &r.ctx,
        &r.p_utxos().await?,
        &r.payer().await?,
        &[p::output(avax, AVAX, to(&r.alice))],
    )
    .map_err(e)?;
    r.kind("P.BaseTx", Chain::P, &tx, vec![]).await?;

    // ExportTx: 10 AVAX to X, then the X-chain's ImportTx.
    let tx = p::export_tx(
        &r.ctx,
        &r.p_utxos().await?,
        &r.payer().await?,
        r.ctx.x_chain_id,
        &[p::output(avax, 10 * AVAX, to(&r.me))],
    )
    .map_err(e)?;
    r.kind("P.ExportTx", Chain::P, &tx, vec![]).await?;
    let atomic = transact::x::utxos(&r.node, &r.ctx, &[r.me], Some("P"))
        .await
        .map_err(e)?;
    let tx = x::import_tx(
        &r.ctx,
        &atomic,
        &[],
        &r.payer().await?,
        r.ctx.p_chain_id,
        &to(&r.me),
    )
    .map_err(e)?;
    r.kind("X.ImportTx", Chain::X, &tx, vec![]).await?;

    // A Primary Network validator with a BLS key.
    let node_id = NodeId::new(seeded(10)[..20].try_into().expect("20"));
    let bls = SecretKey::from_seed(&seeded(11)).map_err(e)?;
    let now = r.now().await?;
    let weight = r.ctx.staking.min_validator_stake;
    let rewards = to(&r.me);
    let req = |end: u64, weight: u64| ValidatorRequest {
        stake: Stake {
            node_id,
            start: 0,
            end,
            weight,
        },
        signer: Some((bls.public_key(), bls.proof_of_possession())),
        validator_rewards: rewards.clone(),
        delegator_rewards: rewards.clone(),
        shares: 30_000,
    };
    let v_end = now + 30 * DAY;
    let (u, pay) = (r.p_utxos().await?, r.payer().await?);
    let tx =
        p::add_permissionless_validator_tx(&r.ctx, &u, &pay, &req(v_end, weight)).map_err(e)?;
    let mut extra = Vec::new();
    if let Some(b) = r.extra(
        Chain::P,
        p::add_permissionless_validator_tx(&r.ctx, &u, &pay, &req(now + 400 * DAY, weight)),
    ) {
        extra.push(("end-past-max-duration", b));
    }
    if let Some(b) = r.extra(
        Chain::P,
        p::add_permissionless_validator_tx(&r.ctx, &u, &pay, &req(now + 3600, weight)),
    ) {
        extra.push(("duration-below-min", b));
    }
    if let Some(b) = r.extra(
        Chain::P,
        p::add_permissionless_validator_tx(&r.ctx, &u, &pay, &req(v_end, weight - 1)),
    ) {
        extra.push(("stake-below-min", b));
    }
    r.kind("P.AddPermissionlessValidatorTx", Chain::P, &tx, extra)
        .await?;
    r.w.validator = Some(node_id);

    // A delegator to it.
    let room = p::delegation_room(&r.ctx, weight, 0);
    let stake = |end: u64| Stake {
        node_id,
        start: 0,
        end,
        weight: r.ctx.staking.min_delegator_stake,
    };
    let (u, pay) = (r.p_utxos().await?, r.payer().await?);
    let tx = p::add_permissionless_delegator_tx(
        &r.ctx,
        &u,
        &pay,
        stake(now + 20 * DAY),
        &rewards,
        Some(room),
    )
    .map_err(e)?;
    let mut extra = Vec::new();
    if let Some(b) = r.extra(
        Chain::P,
        p::add_permissionless_delegator_tx(
            &r.ctx,
            &u,
            &pay,
            stake(v_end + DAY),
            &rewards,
            Some(room),
        ),
    ) {
        extra.push(("end-past-validator", b));
    }
    let unknown = Stake {
        node_id: NodeId::new([0x77; 20]),
        ..stake(now + 20 * DAY)
    };
    if let Some(b) = r.extra(
        Chain::P,
        p::add_permissionless_delegator_tx(&r.ctx, &u, &pay, unknown, &rewards, Some(room)),
    ) {
        extra.push(("unknown-validator", b));
    }
    r.kind("P.AddPermissionlessDelegatorTx", Chain::P, &tx, extra)
        .await?;

    // A Subnet, a chain, a Subnet validator added and removed, its ownership transferred.
    let owner = to(&r.me);
    let auth = Authority::new(owner.clone());
    let tx =
        p::create_subnet_tx(&r.ctx, &r.p_utxos().await?, &r.payer().await?, &owner).map_err(e)?;
    let subnet = r.kind("P.CreateSubnetTx", Chain::P, &tx, vec![]).await?;
    r.w.subnet = Some(subnet);
    let vm = Id::from_sha256(b"the differential VM");
    let req = ChainRequest {
        subnet_id: subnet,
        name: "DiffChain",
        vm_id: vm,
        fx_ids: Vec::new(),
        genesis: b"{}",
    };
    let (u, pay) = (r.p_utxos().await?, r.payer().await?);
    let tx = p::create_chain_tx(&r.ctx, &u, &pay, &auth, &req).map_err(e)?;
    let mut extra = Vec::new();
    let bad = ChainRequest {
        subnet_id: Id::from_sha256(b"no such subnet"),
        ..ChainRequest { ..req }
    };
    if let Some(b) = r.extra(Chain::P, p::create_chain_tx(&r.ctx, &u, &pay, &auth, &bad)) {
        extra.push(("unknown-subnet", b));
    }
    let chain = r.kind("P.CreateChainTx", Chain::P, &tx, extra).await?;
    r.w.chain = Some(chain);

    let sv = |end: u64, node_id: NodeId| Stake {
        node_id,
        start: 0,
        end,
        weight: 10,
    };
    let (u, pay) = (r.p_utxos().await?, r.payer().await?);
    let tx =
        p::add_subnet_validator_tx(&r.ctx, &u, &pay, subnet, &auth, sv(now + 10 * DAY, node_id))
            .map_err(e)?;
    let mut extra = Vec::new();
    if let Some(b) = r.extra(
        Chain::P,
        p::add_subnet_validator_tx(&r.ctx, &u, &pay, subnet, &auth, sv(v_end + DAY, node_id)),
    ) {
        extra.push(("end-past-primary", b));
    }
    if let Some(b) = r.extra(
        Chain::P,
        p::add_subnet_validator_tx(
            &r.ctx,
            &u,
            &pay,
            subnet,
            &auth,
            sv(now + 10 * DAY, NodeId::new([0x66; 20])),
        ),
    ) {
        extra.push(("not-a-primary-validator", b));
    }
    r.kind("P.AddSubnetValidatorTx", Chain::P, &tx, extra)
        .await?;
    let (u, pay) = (r.p_utxos().await?, r.payer().await?);
    let tx = p::remove_subnet_validator_tx(&r.ctx, &u, &pay, subnet, &auth, node_id).map_err(e)?;
    let mut extra = Vec::new();
    if let Some(b) = r.extra(
        Chain::P,
        p::remove_subnet_validator_tx(&r.ctx, &u, &pay, subnet, &auth, NodeId::new([0x66; 20])),
    ) {
        extra.push(("not-a-validator", b));
    }
    r.kind("P.RemoveSubnetValidatorTx", Chain::P, &tx, extra)
        .await?;
    let tx = p::transfer_subnet_ownership_tx(
        &r.ctx,
        &r.p_utxos().await?,
        &r.payer().await?,
        subnet,
        &auth,
        &owner,
    )
    .map_err(e)?;
    r.kind("P.TransferSubnetOwnershipTx", Chain::P, &tx, vec![])
        .await?;

    // Converted to an L1 whose first validator is the node (so its key signs the L1's
    // messages). The remaining balance goes to Alice, so what the validators pay per second
    // (which depends on when each side runs) never reaches the funded key's holdings.
    let me_node = r
        .node
        .info()
        .get_node_id(Default::default())
        .await
        .map_err(e)?;
    let manager = [0x42u8; 20];
    let me_owner = pc::PChainOwner::new(1, vec![r.me]);
    let alice_owner = pc::PChainOwner::new(1, vec![r.alice]);
    let pop = &me_node.node_pop;
    let first = vec![pc::ConvertSubnetToL1Validator::new(
        me_node.node_id.as_bytes().to_vec(),
        100,
        AVAX,
        pc::ProofOfPossession::new(
            pop.public_key.0.as_slice().try_into().map_err(e)?,
            pop.proof_of_possession.0.as_slice().try_into().map_err(e)?,
        ),
        alice_owner.clone(),
        me_owner.clone(),
    )];
    let tx = p::convert_subnet_to_l1_tx(
        &r.ctx,
        &r.p_utxos().await?,
        &r.payer().await?,
        subnet,
        &auth,
        (chain, &manager),
        &first,
    )
    .map_err(e)?;
    r.kind("P.ConvertSubnetToL1Tx", Chain::P, &tx, vec![])
        .await?;
    let converted = r
        .node
        .platform()
        .get_height(Default::default())
        .await
        .map_err(e)?
        .height
        .get();
    r.settle(converted).await?;

    // RegisterL1Validator, through the manager's message signed by the L1 (the node's key).
    let l1_node = NodeId::new(seeded(20)[..20].try_into().expect("20"));
    let l1_bls = SecretKey::from_seed(&seeded(21)).map_err(e)?;
    let now = r.now().await?;
    let registration = |expiry: u64| {
        warp_l1::L1Message::RegisterL1Validator(Box::new(warp::RegisterL1Validator::new(
            subnet,
            l1_node.as_bytes().to_vec(),
            l1_bls.public_key(),
            expiry,
            alice_owner.clone(),
            me_owner.clone(),
            30,
        )))
    };
    let network_id = r.ctx.network_id;
    let message = |m: &warp_l1::L1Message| {
        transact::warp::l1_message(network_id, chain, &manager, m).map_err(e)
    };
    let valid = registration(now + 3_600);
    let validation_id = transact::warp::validation_id(&valid).map_err(e)?;
    let signed = r.warp_sign(subnet, message(&valid)?).await?;
    let expired = r
        .warp_sign(subnet, message(&registration(now - 60))?)
        .await?;
    let too_far = r
        .warp_sign(subnet, message(&registration(now + 2 * DAY))?)
        .await?;
    let unsigned_only = message(&valid)?;
    let (u, pay) = (r.p_utxos().await?, r.payer().await?);
    let pop = l1_bls.proof_of_possession();
    let tx = p::register_l1_validator_tx(&r.ctx, &u, &pay, AVAX, pop, &signed).map_err(e)?;
    let mut extra = Vec::new();
    for (case, m) in [("expired", &expired), ("expiry-too-far", &too_far)] {
        if let Some(b) = r.extra(
            Chain::P,
            p::register_l1_validator_tx(&r.ctx, &u, &pay, AVAX, pop, m),
        ) {
            extra.push((case, b));
        }
    }
    // The message signed by a key that is not the L1's.
    let stranger_bls = SecretKey::from_seed(&seeded(30)).map_err(e)?;
    let epoch = r
        .node
        .proposervm("P")
        .get_current_epoch(Default::default())
        .await
        .map_err(e)?;
    let set =
        transact::warp_validators(&r.node, subnet, Height::Number(epoch.p_chain_height.get()))
            .await
            .map_err(e)?;
    if let Ok(forged) = transact::warp::sign(&unsigned_only, &set, &[&stranger_bls])
        && let Some(b) = r.extra(
            Chain::P,
            p::register_l1_validator_tx(&r.ctx, &u, &pay, AVAX, pop, &forged),
        )
    {
        extra.push(("warp-bad-signature", b));
    }
    let wrong_pop = stranger_bls.proof_of_possession();
    if let Some(b) = r.extra(
        Chain::P,
        p::register_l1_validator_tx(&r.ctx, &u, &pay, AVAX, wrong_pop, &signed),
    ) {
        extra.push(("wrong-proof-of-possession", b));
    }
    r.kind("P.RegisterL1ValidatorTx", Chain::P, &tx, extra)
        .await?;
    r.w.validation_id = Some(validation_id);

    let v = r
        .node
        .platform()
        .get_l1_validator(GetL1ValidatorParams::new(validation_id))
        .await
        .map_err(e)?;
    let weight_msg = |nonce: u64, w: u64| {
        warp_l1::L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(validation_id, nonce, w))
    };
    let signed = r
        .warp_sign(subnet, message(&weight_msg(v.min_nonce.get(), 40))?)
        .await?;
    let unknown = warp_l1::L1Message::L1ValidatorWeight(warp::L1ValidatorWeight::new(
        Id::from_sha256(b"nobody"),
        0,
        40,
    ));
    let unknown = r.warp_sign(subnet, message(&unknown)?).await?;
    let (u, pay) = (r.p_utxos().await?, r.payer().await?);
    let tx = p::set_l1_validator_weight_tx(&r.ctx, &u, &pay, &signed).map_err(e)?;
    let mut extra = Vec::new();
    if let Some(b) = r.extra(
        Chain::P,
        p::set_l1_validator_weight_tx(&r.ctx, &u, &pay, &unknown),
    ) {
        extra.push(("unknown-validation-id", b));
    }
    r.kind("P.SetL1ValidatorWeightTx", Chain::P, &tx, extra)
        .await?;

    let (u, pay) = (r.p_utxos().await?, r.payer().await?);
    let tx = p::increase_l1_validator_balance_tx(&r.ctx, &u, &pay, validation_id, 2 * AVAX)
        .map_err(e)?;
    let mut extra = Vec::new();
    if let Some(b) = r.extra(
        Chain::P,
        p::increase_l1_validator_balance_tx(&r.ctx, &u, &pay, Id::from_sha256(b"nobody"), 2 * AVAX),
    ) {
        extra.push(("unknown-validation-id", b));
    }
    r.kind("P.IncreaseL1ValidatorBalanceTx", Chain::P, &tx, extra)
        .await?;

    let (u, pay) = (r.p_utxos().await?, r.payer().await?);
    let tx = p::disable_l1_validator_tx(&r.ctx, &u, &pay, validation_id, &auth).map_err(e)?;
    let mut extra = Vec::new();
    if let Some(b) = r.extra(
        Chain::P,
        p::disable_l1_validator_tx(&r.ctx, &u, &pay, Id::from_sha256(b"nobody"), &auth),
    ) {
        extra.push(("unknown-validation-id", b));
    }
    r.kind("P.DisableL1ValidatorTx", Chain::P, &tx, extra)
        .await?;
    Ok(())
}

/// The C-chain's atomic side: exports from C to X and to P and their imports there, exports
/// from X and from P to C and the C-chain's imports of them, each C transaction with the
/// C-chain's own mutations too; last, an export from X to C left unimported, for the reads.
async fn c_chain(r: &mut Run<'_>) -> Result<()> {
    let avax = r.ctx.avax_asset_id;
    let (x_id, p_id, c_id) = (r.ctx.x_chain_id, r.ctx.p_chain_id, r.ctx.c_chain_id);
    let public = r
        .keys
        .get(&r.me)
        .ok_or("the funded key is not in the keychain")?
        .public_key();
    // An asset that is not AVAX: the X-chain's, created above.
    let (network_id, other_asset) = (
        r.ctx.network_id,
        r.w.asset.unwrap_or_else(|| Id::from_sha256(b"not AVAX")),
    );
    let case = |spendable: u64, other_chain: Id| txs::AtomicCase {
        network_id,
        other_chain,
        unknown_chain: Id::from_sha256(b"no such chain"),
        other_asset,
        spendable,
    };
    for (kind, dest, back) in [
        ("C.ExportTx(to X)", x_id, "X"),
        ("C.ExportTx(to P)", p_id, "P"),
    ] {
        let accounts = c::accounts(&r.node, std::slice::from_ref(&public))
            .await
            .map_err(e)?;
        let base = c::base_fee(&r.node).await.map_err(e)?;
        let out = secp256k1fx::TransferOutput::new(5 * AVAX, to(&r.me));
        let tx = c::export_tx(&r.ctx, &accounts, dest, &[out], base).map_err(e)?;
        let raw = Raw::of(Chain::C, &tx, &r.keys);
        let extra = txs::atomic_mutations(&raw, &r.keys, &case(accounts[0].spendable(), x_id));
        r.kind(kind, Chain::C, &tx, extra).await?;
        // Its import on the chain it went to.
        if back == "X" {
            let atomic = transact::x::utxos(&r.node, &r.ctx, &[r.me], Some("C"))
                .await
                .map_err(e)?;
            let tx = x::import_tx(&r.ctx, &atomic, &[], &r.payer().await?, c_id, &to(&r.me))
                .map_err(e)?;
            r.kind("X.ImportTx(from C)", Chain::X, &tx, vec![]).await?;
        } else {
            let atomic = transact::p::utxos(&r.node, &r.ctx, &[r.me], Some("C"))
                .await
                .map_err(e)?;
            let tx = p::import_tx(&r.ctx, &atomic, &[], &r.payer().await?, c_id, &to(&r.me))
                .map_err(e)?;
            r.kind("P.ImportTx(from C)", Chain::P, &tx, vec![]).await?;
        }
    }

    // X -> C and P -> C, each imported on C.
    let tx = x::export_tx(
        &r.ctx,
        &r.x_utxos().await?,
        &r.payer().await?,
        c_id,
        &[x::output(avax, 20 * AVAX, to(&r.me))],
    )
    .map_err(e)?;
    r.kind("X.ExportTx(to C)", Chain::X, &tx, vec![]).await?;
    c_import(r, "C.ImportTx(from X)", "X", x_id, case(0, p_id)).await?;
    let tx = p::export_tx(
        &r.ctx,
        &r.p_utxos().await?,
        &r.payer().await?,
        c_id,
        &[p::output(avax, 20 * AVAX, to(&r.me))],
    )
    .map_err(e)?;
    r.kind("P.ExportTx(to C)", Chain::P, &tx, vec![]).await?;
    c_import(r, "C.ImportTx(from P)", "P", p_id, case(0, x_id)).await?;

    // Left in the C-chain's shared memory: what `avax.getUTXOs` lists in the reads.
    let tx = x::export_tx(
        &r.ctx,
        &r.x_utxos().await?,
        &r.payer().await?,
        c_id,
        &[x::output(avax, 3 * AVAX, to(&r.me))],
    )
    .map_err(e)?;
    r.kind("X.ExportTx(to C, left)", Chain::X, &tx, vec![])
        .await?;
    Ok(())
}

/// The C-chain's import of what `source` exported to it, into the funded key's EVM address.
async fn c_import(
    r: &mut Run<'_>,
    kind: &str,
    alias: &str,
    source: Id,
    case: txs::AtomicCase,
) -> Result<()> {
    let utxos = c::utxos(&r.node, &r.ctx, &[r.me], alias).await.map_err(e)?;
    let base = c::base_fee(&r.node).await.map_err(e)?;
    let tx = c::import_tx(&r.ctx, &utxos, &r.payer().await?, source, r.me_evm, base).map_err(e)?;
    let raw = Raw::of(Chain::C, &tx, &r.keys);
    let extra = txs::atomic_mutations(&raw, &r.keys, &case);
    r.kind(kind, Chain::C, &tx, extra).await?;
    Ok(())
}
