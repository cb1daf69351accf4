//! Each P-chain kind verified through the read view, without HTTP or a store: an in-memory
//! [`ChainState`], transactions built by `avalanche_rpc::transact`'s builders (with rules relaxed
//! where a refusal of the devnet's is the point), at least one refusal (its exact text) and
//! one acceptance per kind.

use crate::genesis::{staking as params, test_keys};
use crate::pchain::l1 as l1_state;
use crate::pchain::verify::{Effects, verify};
use crate::pchain::vocab::{
    ChainState, Change, Current, L1Change, Rules, StakingChange, SubnetChange,
};
use crate::pchain::{Utxo, fee, warp};
use crate::refusal::Refusal;
use crate::store::StoreError;
use avalanche_rpc::bls::SecretKey;
use avalanche_rpc::codec::{
    avax, platform, secp256k1fx, warp as warp_codec, warp_l1, warp_payload,
};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::transact::p::{self as build, Authority, Stake};
use avalanche_rpc::transact::{BuildError, Context, FeeState, Keychain, Payer, bls_signer};
use avalanche_rpc::wire::{Id, NodeId, ShortId};
use std::collections::{BTreeMap, BTreeSet};

const NOW: u64 = 1_700_000_000;
const AVAX: u64 = 1_000_000_000;
const DAY: u64 = 24 * 3600;
const NETWORK: u32 = 12345;

fn rules() -> Rules {
    Rules {
        helicon: crate::upgrade::UNSCHEDULED as u64,
        network_id: NETWORK,
        avax: Id::new([1; 32]),
        x_chain: Id::new([2; 32]),
        c_chain: Id::new([4; 32]),
    }
}

/// The chain's state as verification reads it, in memory.
#[derive(Default)]
struct Fake {
    utxos: BTreeMap<Id, Utxo>,
    atomic: BTreeMap<Id, Utxo>,
    subnets: BTreeMap<Id, (platform::Owner, bool)>,
    l1: BTreeMap<Id, l1_state::Validator>,
    conversions: BTreeMap<Id, l1_state::Conversion>,
    expiries: BTreeSet<(u64, Id)>,
    warp: BTreeMap<Id, warp::Canonical>,
    validators: BTreeMap<(Id, NodeId), Current>,
}

impl ChainState for Fake {
    fn utxo(&mut self, id: &Id) -> Result<Option<Utxo>, StoreError> {
        Ok(self.utxos.get(id).cloned())
    }

    fn atomic(&mut self, id: &Id) -> Result<Option<Utxo>, StoreError> {
        Ok(self.atomic.get(id).cloned())
    }

    fn subnet(&mut self, subnet: &Id) -> Result<Option<(platform::Owner, bool)>, StoreError> {
        Ok(self.subnets.get(subnet).cloned())
    }

    fn l1_validator(
        &mut self,
        validation_id: &Id,
    ) -> Result<Option<l1_state::Validator>, StoreError> {
        Ok(self.l1.get(validation_id).cloned())
    }

    fn active_l1_validators(&mut self) -> Result<u64, StoreError> {
        Ok(self.l1.values().filter(|v| v.active()).count() as u64)
    }

    fn conversion(&mut self, subnet: &Id) -> Result<Option<l1_state::Conversion>, StoreError> {
        Ok(self.conversions.get(subnet).cloned())
    }

    fn l1_validation_of(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Id>, StoreError> {
        Ok(self
            .l1
            .values()
            .find(|v| v.subnet == *subnet && v.node == *node)
            .map(|v| v.validation_id))
    }

    fn l1_weight(&mut self, subnet: &Id) -> Result<u64, StoreError> {
        Ok(self
            .l1
            .values()
            .filter(|v| v.subnet == *subnet)
            .map(|v| v.weight)
            .sum())
    }

    fn has_expiry(&mut self, expiry: u64, validation_id: &Id) -> Result<bool, StoreError> {
        Ok(self.expiries.contains(&(expiry, *validation_id)))
    }

    fn warp_validators(&mut self, chain: &Id) -> Result<Option<warp::Canonical>, StoreError> {
        Ok(self.warp.get(chain).cloned())
    }

    fn tx(&mut self, _: &Id) -> Result<Option<platform::Tx>, StoreError> {
        Ok(None)
    }

    fn validator(&mut self, subnet: &Id, node: &NodeId) -> Result<Option<Current>, StoreError> {
        Ok(self.validators.get(&(*subnet, *node)).copied())
    }
}

/// A world with a funded key: the fake state, the key (test key 0), another key, and the
/// key's UTXOs.
struct World {
    fake: Fake,
    key: PrivateKey,
    other: PrivateKey,
    utxos: Vec<Utxo>,
}

/// The test chain's context, its gas at 1 nAVAX.
fn context() -> Context {
    let state = FeeState {
        capacity: fee::MAX_CAPACITY,
        excess: 0,
        price: 1,
    };
    let r = rules();
    crate::context::new(NETWORK, (r.x_chain, Id::new([3; 32])), r.avax, state)
}

/// The same without a minimum validator stake: the builder would refuse what the devnet
/// must refuse.
fn lenient() -> Context {
    let mut c = context();
    c.staking.min_validator_stake = 0;
    c
}

/// What a builder of `transact::p` is given besides its request.
type Build<'a> = Box<
    dyn FnOnce(&Context, &[platform::Utxo], &Payer) -> Result<build::Unsigned, BuildError> + 'a,
>;

fn owners(a: ShortId) -> secp256k1fx::OutputOwners {
    secp256k1fx::OutputOwners::new(0, 1, vec![a])
}

fn transfer(tx: u8, amount: u64, to: ShortId) -> Utxo {
    Utxo::new(platform::Utxo::new(
        avax::UtxoId::new(Id::new([tx; 32]), 0),
        rules().avax,
        platform::UtxoOutput::TransferOutput(secp256k1fx::TransferOutput::new(amount, owners(to))),
    ))
}

impl World {
    /// The key holds `amount` nAVAX in one UTXO.
    fn funded(amount: u64) -> World {
        let keys = test_keys();
        let mut w = World {
            fake: Fake::default(),
            key: keys[0].clone(),
            other: keys[1].clone(),
            utxos: Vec::new(),
        };
        let u = transfer(0xa0, amount, w.key.address());
        w.fake.utxos.insert(u.id, u.clone());
        w.utxos.push(u);
        w
    }

    /// The tx `build` makes from the key's UTXOs, paid by the key at 1 nAVAX per gas at
    /// `NOW`, signed by the key (and the other key where it signs).
    fn tx(&self, build: Build<'_>) -> platform::Tx {
        self.tx_in(&context(), build)
    }

    /// The same with context `c`.
    fn tx_in(&self, c: &Context, build: Build<'_>) -> platform::Tx {
        let utxos: Vec<platform::Utxo> = self.utxos.iter().map(|u| u.utxo.clone()).collect();
        let payer = Payer::new(vec![self.key.address()], NOW);
        let keys = Keychain::from_keys([self.key.clone(), self.other.clone()]);
        crate::context::sign(build(c, &utxos, &payer), &keys).unwrap()
    }

    /// The key as the owner of a Subnet or an L1 validator, authorizing for it.
    fn authority(&self) -> Authority {
        Authority::new(owners(self.key.address()))
    }

    fn verify(&mut self, tx: &platform::Tx) -> Result<Effects, Refusal> {
        let id = Id::from_sha256(&tx.to_bytes().unwrap());
        verify(&rules(), tx, id, NOW, 1, &mut self.fake)
            .map_err(|e| e.refusal().expect("the fake state never fails"))
    }

    /// The refusal of `tx`, the text the node gives.
    fn refusal(&mut self, tx: &platform::Tx) -> String {
        self.verify(tx).expect_err("refused").detail().to_string()
    }

    /// A Subnet the key owns (converted to an L1 if `converted`).
    fn subnet(&mut self, converted: bool) -> Id {
        let subnet = Id::new([0x5b; 32]);
        let owner = platform::Owner::from(platform::OutputOwners::new(owners(self.key.address())));
        self.fake.subnets.insert(subnet, (owner, converted));
        subnet
    }

    /// `node` validates `subnet` until `end`.
    fn validating(
        &mut self,
        subnet: Id,
        node: NodeId,
        (weight, end): (u64, u64),
        permissioned: bool,
    ) {
        let v = Current {
            tx_id: Id::ZERO,
            weight,
            delegated: 0,
            end,
            permissioned,
        };
        self.fake.validators.insert((subnet, node), v);
    }
}

/// `tx` signed again, its unsigned part edited by `edit`, credential i by `signers[i]`.
fn resigned(
    tx: &platform::Tx,
    signers: &[&PrivateKey],
    edit: impl FnOnce(&mut platform::UnsignedTx),
) -> platform::Tx {
    let mut unsigned = tx.unsigned.clone();
    edit(&mut unsigned);
    crate::context::sign_as(unsigned, signers).unwrap()
}

fn not_signed_by(place: &str, signer: &PrivateKey, owner: &PrivateKey) -> String {
    format!(
        "`{place}` signature 0 is by {}, not by the owner at index 0 ({})",
        signer.address(),
        owner.address()
    )
}

fn node(n: u8) -> NodeId {
    NodeId::new([n; 20])
}

#[test]
fn base_tx_accepted_then_one_navax_short_refused() {
    let mut w = World::funded(10 * AVAX);
    let paid = [build::output(rules().avax, AVAX, owners(w.other.address()))];
    let tx = w.tx(Box::new(|c, u, p| build::base_tx(c, u, p, &paid)));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(fx.change, Change::None));
    assert_eq!((fx.consumed.len(), fx.produced.len()), (1, 2));
    let gas = fx.gas;
    // The change output one nAVAX larger: the fee is one nAVAX short.
    let key = w.key.clone();
    let short = resigned(&tx, &[&key], |u| {
        let platform::UnsignedTx::BaseTx(t) = u else {
            unreachable!()
        };
        for o in &mut t.base.outputs {
            if let platform::TransferableOut::TransferOutput(t) = &mut o.output
                && t.owners.addresses == [key.address()]
            {
                t.amount += 1;
            }
        }
    });
    assert_eq!(
        w.refusal(&short),
        format!(
            "insufficient funds of asset {}: the inputs hold {}, the transaction needs {} (outputs plus the fee of {gas} nAVAX: {gas} gas at 1 nAVAX)",
            rules().avax,
            10 * AVAX,
            10 * AVAX + 1
        )
    );
}

#[test]
fn base_tx_spending_a_missing_utxo_refused() {
    let mut w = World::funded(10 * AVAX);
    let tx = w.tx(Box::new(|c, u, p| build::base_tx(c, u, p, &[])));
    let u = w.utxos[0].id;
    w.fake.utxos.clear();
    assert_eq!(
        w.refusal(&tx),
        format!(
            "`unsignedTx.inputs[0]` spends output 0 of tx {}, which is not an unspent output of this chain (UTXO {u})",
            Id::new([0xa0; 32])
        )
    );
}

#[test]
fn import_tx_accepted_then_refused_from_another_chain_or_without_its_utxo() {
    let mut w = World::funded(10 * AVAX);
    let atomic = transfer(0xa1, 5 * AVAX, w.key.address());
    w.fake.atomic.insert(atomic.id, atomic.clone());
    let imported = [atomic.utxo.clone()];
    let to = owners(w.key.address());
    let tx = w.tx(Box::new(|c, u, p| {
        build::import_tx(c, &imported, u, p, rules().x_chain, &to)
    }));
    let fx = w.verify(&tx).unwrap();
    assert_eq!(fx.imported.len(), 1);
    assert!(fx.consumed.is_empty());

    let elsewhere = Id::new([9; 32]);
    let key = w.key.clone();
    let from_c = resigned(&tx, &[&key], |u| {
        let platform::UnsignedTx::ImportTx(t) = u else {
            unreachable!()
        };
        t.source_chain = elsewhere;
    });
    assert_eq!(
        w.refusal(&from_c),
        format!(
            "`unsignedTx.sourceChain` is {elsewhere}; the P-chain moves funds to and from the X-chain ({}) and the C-chain ({}) only",
            rules().x_chain,
            rules().c_chain
        )
    );
    w.fake.atomic.clear();
    assert_eq!(
        w.refusal(&tx),
        format!(
            "`unsignedTx.importedInputs[0]` spends output 0 of tx {}, which is not an unspent output of this chain (UTXO {})",
            Id::new([0xa1; 32]),
            atomic.id
        )
    );
}

#[test]
fn export_tx_accepted_then_refused_to_another_chain() {
    let mut w = World::funded(10 * AVAX);
    let out = [build::output(rules().avax, AVAX, owners(w.other.address()))];
    let tx = w.tx(Box::new(|c, u, p| {
        build::export_tx(c, u, p, rules().x_chain, &out)
    }));
    let fx = w.verify(&tx).unwrap();
    assert_eq!(fx.exported.len(), 1);
    assert_eq!(fx.exported[0].utxo.utxo_id.output_index, 1);
    let elsewhere = Id::new([9; 32]);
    let key = w.key.clone();
    let to_c = resigned(&tx, &[&key], |u| {
        let platform::UnsignedTx::ExportTx(t) = u else {
            unreachable!()
        };
        t.destination_chain = elsewhere;
    });
    assert_eq!(
        w.refusal(&to_c),
        format!(
            "`unsignedTx.destinationChain` is {elsewhere}; the P-chain moves funds to and from the X-chain ({}) and the C-chain ({}) only",
            rules().x_chain,
            rules().c_chain
        )
    );
}

fn add_validator(bls: &SecretKey, weight: u64, rewards: ShortId) -> Build<'static> {
    let req = build::ValidatorRequest {
        stake: Stake {
            node_id: node(7),
            start: 0,
            end: NOW + params::MIN_STAKE_DURATION,
            weight,
        },
        signer: Some(bls_signer(bls)),
        validator_rewards: owners(rewards),
        delegator_rewards: owners(rewards),
        shares: params::MIN_DELEGATION_FEE,
    };
    Box::new(move |c, u, p| build::add_permissionless_validator_tx(c, u, p, &req))
}

#[test]
fn add_permissionless_validator_accepted_then_refused_below_the_minimum_stake() {
    let mut w = World::funded(3_000 * AVAX);
    let bls = SecretKey::from_seed(&[9; 32]).unwrap();
    let me = w.key.address();
    let tx = w.tx(add_validator(&bls, params::MIN_VALIDATOR_STAKE, me));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::Staking(StakingChange::AddValidator { weight, start: NOW, .. })
            if weight == params::MIN_VALIDATOR_STAKE
    ));
    let low = params::MIN_VALIDATOR_STAKE - 1;
    let tx = w.tx_in(&lenient(), add_validator(&bls, low, me));
    assert_eq!(
        w.refusal(&tx),
        format!(
            "`unsignedTx.validator.weight` is {low}; it must be from {} to {} nAVAX",
            params::MIN_VALIDATOR_STAKE,
            params::MAX_VALIDATOR_STAKE
        )
    );
    // Already a validator.
    w.validating(Id::ZERO, node(7), (low, NOW + DAY), false);
    let tx = w.tx(add_validator(&bls, params::MIN_VALIDATOR_STAKE, me));
    assert_eq!(
        w.refusal(&tx),
        format!("{} is already a validator of the Primary Network", node(7))
    );
}

#[test]
fn add_permissionless_delegator_accepted_then_refused_over_delegated() {
    let mut w = World::funded(10_000 * AVAX);
    let own = 2_000 * AVAX;
    w.validating(Id::ZERO, node(7), (own, NOW + 30 * DAY), false);
    let delegate = |node: NodeId, weight| -> Build<'static> {
        let stake = Stake {
            node_id: node,
            start: 0,
            end: NOW + DAY,
            weight,
        };
        let rewards = owners(test_keys()[0].address());
        Box::new(move |c, u, p| {
            build::add_permissionless_delegator_tx(c, u, p, stake, &rewards, None)
        })
    };
    let tx = w.tx(delegate(node(7), params::MIN_DELEGATOR_STAKE));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::Staking(StakingChange::AddDelegator { end, .. }) if end == NOW + DAY
    ));
    let weight = 4 * own + 1;
    let tx = w.tx(delegate(node(7), weight));
    assert_eq!(
        w.refusal(&tx),
        format!(
            "over delegated: {} would hold {} nAVAX with this delegation, more than its limit of {} (5× its own stake of {own}, at most {})",
            node(7),
            own + weight,
            5 * own,
            params::MAX_VALIDATOR_STAKE
        )
    );
    let tx = w.tx(delegate(node(8), params::MIN_DELEGATOR_STAKE));
    assert_eq!(
        w.refusal(&tx),
        format!(
            "`unsignedTx.validator.nodeID` {} is not a current validator of the Primary Network",
            node(8)
        )
    );
}

#[test]
fn create_subnet_accepted_then_refused_signed_by_another_key() {
    let mut w = World::funded(10 * AVAX);
    let owner = owners(w.key.address());
    let tx = w.tx(Box::new(|c, u, p| build::create_subnet_tx(c, u, p, &owner)));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::Subnets(SubnetChange::CreateSubnet)
    ));
    let other = w.other.clone();
    let forged = resigned(&tx, &[&other], |_| {});
    assert_eq!(
        w.refusal(&forged),
        not_signed_by("unsignedTx.inputs[0]", &other, &w.key)
    );
}

#[test]
fn create_chain_accepted_then_refused_without_the_owners_signature() {
    let mut w = World::funded(10 * AVAX);
    let subnet = w.subnet(false);
    let req = build::ChainRequest {
        subnet_id: subnet,
        name: "chain",
        vm_id: Id::new([3; 32]),
        fx_ids: Vec::new(),
        genesis: b"{}",
    };
    let auth = w.authority();
    let tx = w.tx(Box::new(|c, u, p| {
        build::create_chain_tx(c, u, p, &auth, &req)
    }));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::Subnets(SubnetChange::CreateChain { subnet: s }) if s == subnet
    ));
    let mut unauthorized = tx.clone();
    unauthorized.credentials.pop();
    assert_eq!(
        w.refusal(&unauthorized),
        "the transaction has 1 credentials but needs 2: one for each of its 1 inputs and imported inputs, then one for the Subnet authorization"
    );
}

#[test]
fn a_chain_name_other_than_letters_digits_and_spaces_is_refused_in_the_nodes_words() {
    let mut w = World::funded(10 * AVAX);
    let subnet = w.subnet(false);
    let auth = w.authority();
    let named = |name: &'static str| build::ChainRequest {
        subnet_id: subnet,
        name,
        vm_id: Id::new([3; 32]),
        fx_ids: Vec::new(),
        genesis: b"{}",
    };
    let good = named("wallet chain 2");
    let tx = w.tx(Box::new(|c, u, p| {
        build::create_chain_tx(c, u, p, &auth, &good)
    }));
    w.verify(&tx).unwrap();
    // The builder refuses such a name; another wallet's bytes may hold one. The name is
    // checked before any signature.
    let mut bad = tx.clone();
    let platform::UnsignedTx::CreateChainTx(t) = &mut bad.unsigned else {
        panic!("a CreateChainTx")
    };
    t.chain_name = "wallet-chain".into();
    let e = w.verify(&bad).unwrap_err();
    assert_eq!(e.words, "illegal name character");
    assert!(e.detail().contains("holds '-'"), "{}", e.detail());
}

#[test]
fn add_subnet_validator_accepted_then_refused_signed_by_another_owner_or_not_a_primary_validator() {
    let mut w = World::funded(10 * AVAX);
    let subnet = w.subnet(false);
    w.validating(Id::ZERO, node(7), (2_000 * AVAX, NOW + 30 * DAY), false);
    let key = w.key.clone();
    let auth = &w.authority();
    let add = |n| -> Build<'_> {
        let stake = Stake {
            node_id: node(n),
            start: 0,
            end: NOW + DAY,
            weight: 10,
        };
        Box::new(move |c, u, p| build::add_subnet_validator_tx(c, u, p, subnet, auth, stake))
    };
    let tx = w.tx(add(7));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::Subnets(SubnetChange::AddValidator { weight: 10, .. })
    ));
    let other = w.other.clone();
    let forged = resigned(&tx, &[&key, &other], |_| {});
    assert_eq!(
        w.refusal(&forged),
        not_signed_by("unsignedTx.subnetAuthorization", &other, &key)
    );
    let tx = w.tx(add(8));
    assert_eq!(
        w.refusal(&tx),
        format!(
            "`unsignedTx.validator.nodeID` {} must validate the Primary Network to validate a Subnet",
            node(8)
        )
    );
}

#[test]
fn remove_subnet_validator_accepted_then_refused_for_a_permissionless_one() {
    let mut w = World::funded(10 * AVAX);
    let subnet = w.subnet(false);
    w.validating(subnet, node(7), (10, NOW + DAY), true);
    let auth = w.authority();
    let tx = w.tx(Box::new(|c, u, p| {
        build::remove_subnet_validator_tx(c, u, p, subnet, &auth, node(7))
    }));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::Subnets(SubnetChange::RemoveValidator { weight: 10, .. })
    ));
    w.validating(subnet, node(7), (10, NOW + DAY), false);
    assert_eq!(
        w.refusal(&tx),
        format!(
            "`unsignedTx.nodeID` {} is a permissionless validator of subnet {subnet}; only permissioned ones are removed this way",
            node(7)
        )
    );
}

#[test]
fn transfer_subnet_ownership_accepted_then_refused_for_an_unknown_subnet() {
    let mut w = World::funded(10 * AVAX);
    let subnet = w.subnet(false);
    let (auth, owner) = (w.authority(), owners(w.other.address()));
    let tx = w.tx(Box::new(|c, u, p| {
        build::transfer_subnet_ownership_tx(c, u, p, subnet, &auth, &owner)
    }));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::Subnets(SubnetChange::SetOwner { subnet: s }) if s == subnet
    ));
    w.fake.subnets.clear();
    assert_eq!(
        w.refusal(&tx),
        format!("`unsignedTx.subnetID` {subnet} is not a Subnet of this chain")
    );
}

#[test]
fn convert_subnet_to_l1_accepted_then_refused_once_converted() {
    let mut w = World::funded(10 * AVAX);
    let subnet = w.subnet(false);
    let bls = SecretKey::from_seed(&[11; 32]).unwrap();
    let owner = platform::PChainOwner::new(1, vec![w.key.address()]);
    let validators = [platform::ConvertSubnetToL1Validator::new(
        node(7).as_bytes().to_vec(),
        10,
        AVAX,
        platform::ProofOfPossession::new(bls.public_key(), bls.proof_of_possession()),
        owner.clone(),
        owner,
    )];
    let auth = w.authority();
    let tx = w.tx(Box::new(|c, u, p| {
        let manager = (CHAIN, &ADDRESS as &[u8]);
        build::convert_subnet_to_l1_tx(c, u, p, subnet, &auth, manager, &validators)
    }));
    let fx = w.verify(&tx).unwrap();
    let Change::L1(L1Change::Convert {
        validators,
        balances,
        ..
    }) = &fx.change
    else {
        panic!("{:?}", fx.change)
    };
    assert_eq!(
        (validators.len(), balances.as_slice()),
        (1, [AVAX].as_slice())
    );
    w.subnet(true);
    assert_eq!(
        w.refusal(&tx),
        format!(
            "\"{subnet}\" is immutable: it was converted to an L1, and its owner no longer acts on it"
        )
    );
}

/// An L1 managed from `ADDRESS` on `CHAIN`, validated (for Warp) by `signer` alone.
const CHAIN: Id = Id::new([4; 32]);
const ADDRESS: [u8; 20] = [0x42; 20];

fn l1_world(signer: &SecretKey) -> (World, Id) {
    let mut w = World::funded(10 * AVAX);
    let subnet = w.subnet(true);
    w.fake.conversions.insert(
        subnet,
        l1_state::Conversion {
            id: Id::new([5; 32]),
            manager_chain: CHAIN,
            manager_address: ADDRESS.to_vec(),
        },
    );
    w.fake.warp.insert(
        CHAIN,
        warp::Canonical {
            validators: vec![(signer.public_key(), 100)],
            total: 100,
        },
    );
    (w, subnet)
}

/// `message` from the L1's manager, signed by `signer`.
fn signed(message: &warp_l1::L1Message, signer: &SecretKey) -> Vec<u8> {
    let call = warp_codec::AddressedCall::new(ADDRESS.to_vec(), message.to_bytes().unwrap());
    let payload = warp_payload::Payload::AddressedCall(call)
        .to_bytes()
        .unwrap();
    let set = warp::Canonical {
        validators: vec![(signer.public_key(), 100)],
        total: 100,
    };
    let unsigned = warp::unsigned_bytes(NETWORK, &CHAIN, &payload);
    avalanche_rpc::transact::warp::sign(&unsigned, &set, &[signer]).unwrap()
}

fn l1_validator(w: &World, subnet: Id, id: Id) -> l1_state::Validator {
    let owner = platform::PChainOwner::new(1, vec![w.key.address()]);
    l1_state::Validator {
        validation_id: id,
        subnet,
        node: node(7),
        public_key: SecretKey::from_seed(&[12; 32]).unwrap().public_key(),
        remaining_balance_owner: owner.clone(),
        deactivation_owner: owner,
        start: NOW - DAY,
        weight: 30,
        min_nonce: 3,
        end_accumulated_fee: 1_000,
    }
}

#[test]
fn register_l1_validator_accepted_then_refused_once_registered() {
    let signer = SecretKey::from_seed(&[13; 32]).unwrap();
    let (mut w, subnet) = l1_world(&signer);
    let bls = SecretKey::from_seed(&[12; 32]).unwrap();
    let owner = platform::PChainOwner::new(1, vec![w.key.address()]);
    let expiry = NOW + 3_600;
    let register =
        warp_l1::L1Message::RegisterL1Validator(Box::new(warp_codec::RegisterL1Validator::new(
            subnet,
            node(7).as_bytes().to_vec(),
            bls.public_key(),
            expiry,
            owner.clone(),
            owner,
            30,
        )));
    let message = signed(&register, &signer);
    let pop = bls.proof_of_possession();
    let tx = w.tx(Box::new(|c, u, p| {
        build::register_l1_validator_tx(c, u, p, 5_000, pop, &message)
    }));
    let fx = w.verify(&tx).unwrap();
    let validation_id = Id::from_sha256(&register.to_bytes().unwrap());
    let Change::L1(L1Change::Register {
        validator, balance, ..
    }) = &fx.change
    else {
        panic!("{:?}", fx.change)
    };
    assert_eq!(
        (validator.validation_id, validator.weight, *balance),
        (validation_id, 30, 5_000)
    );
    w.fake.expiries.insert((expiry, validation_id));
    assert_eq!(
        w.refusal(&tx),
        format!(
            "`unsignedTx.message` was already issued: validation {validation_id} is registered"
        )
    );
}

#[test]
fn set_l1_validator_weight_accepted_then_refused_with_an_old_nonce() {
    let signer = SecretKey::from_seed(&[13; 32]).unwrap();
    let (mut w, subnet) = l1_world(&signer);
    let id = Id::new([6; 32]);
    w.fake.l1.insert(id, l1_validator(&w, subnet, id));
    let weigh = |nonce| {
        let m = warp_l1::L1Message::L1ValidatorWeight(warp_codec::L1ValidatorWeight::new(
            id, nonce, 40,
        ));
        signed(&m, &signer)
    };
    let message = weigh(3);
    let tx = w.tx(Box::new(|c, u, p| {
        build::set_l1_validator_weight_tx(c, u, p, &message)
    }));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::L1(L1Change::SetWeight {
            nonce: 3,
            weight: 40,
            ..
        })
    ));
    let message = weigh(2);
    let tx = w.tx(Box::new(|c, u, p| {
        build::set_l1_validator_weight_tx(c, u, p, &message)
    }));
    assert_eq!(
        w.refusal(&tx),
        "`unsignedTx.message`'s nonce 2 is stale: it must be at least 3"
    );
}

#[test]
fn increase_l1_validator_balance_accepted_then_refused_for_an_unknown_validator() {
    let signer = SecretKey::from_seed(&[13; 32]).unwrap();
    let (mut w, subnet) = l1_world(&signer);
    let id = Id::new([6; 32]);
    w.fake.l1.insert(id, l1_validator(&w, subnet, id));
    let tx = w.tx(Box::new(|c, u, p| {
        build::increase_l1_validator_balance_tx(c, u, p, id, 7_000)
    }));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::L1(L1Change::IncreaseBalance { amount: 7_000, .. })
    ));
    w.fake.l1.clear();
    assert_eq!(
        w.refusal(&tx),
        format!("`unsignedTx.validationID` {id} is not an L1 validator of this chain")
    );
}

#[test]
fn disable_l1_validator_accepted_then_refused_signed_by_another_key() {
    let signer = SecretKey::from_seed(&[13; 32]).unwrap();
    let (mut w, subnet) = l1_world(&signer);
    let id = Id::new([6; 32]);
    w.fake.l1.insert(id, l1_validator(&w, subnet, id));
    let key = w.key.clone();
    let auth = w.authority();
    let tx = w.tx(Box::new(|c, u, p| {
        build::disable_l1_validator_tx(c, u, p, id, &auth)
    }));
    let fx = w.verify(&tx).unwrap();
    assert!(matches!(
        fx.change,
        Change::L1(L1Change::Disable { index: 1, .. })
    ));
    let other = w.other.clone();
    let forged = resigned(&tx, &[&key, &other], |_| {});
    assert_eq!(
        w.refusal(&forged),
        not_signed_by("unsignedTx.disableAuthorization", &other, &key)
    );
}

#[test]
fn a_type_the_devnet_does_not_accept_is_refused_by_name() {
    let mut w = World::funded(AVAX);
    let unsigned = platform::UnsignedTx::from(platform::AdvanceTimeTx::new(NOW));
    let tx = platform::Tx::new(unsigned, Vec::new());
    assert_eq!(
        w.refusal(&tx),
        "the devnet does not accept AdvanceTimeTx on the P-chain yet"
    );
    assert_eq!(
        fee::gas(&tx.unsigned).unwrap_err().words,
        "AdvanceTimeTx has no dynamic fee: the P-chain does not accept it any more"
    );
}

/// A BaseTx spending `locked` nAVAX stakeable-locked until `lock` (with a LockIn if
/// `lock_in`) and keeping `kept` of them locked, the fee paid from the key's unlocked UTXO.
fn locked_base_tx(
    w: &mut World,
    (lock, locked, kept): (u64, u64, u64),
    lock_in: bool,
) -> platform::Tx {
    let me = w.key.address();
    let held = Utxo::new(platform::Utxo::new(
        avax::UtxoId::new(Id::new([0xa2; 32]), 0),
        rules().avax,
        platform::LockOut::new(
            lock,
            secp256k1fx::TransferOutput::new(locked, owners(me)).into(),
        )
        .into(),
    ));
    w.fake.utxos.insert(held.id, held.clone());
    let ti = |amount| secp256k1fx::TransferInput::new(amount, secp256k1fx::Input::new(vec![0]));
    let spend_locked: platform::TransferableIn = if lock_in {
        platform::LockIn::new(lock, ti(locked).into()).into()
    } else {
        ti(locked).into()
    };
    let unlocked = &w.utxos[0];
    let Some((free, _)) = unlocked.transfer() else {
        unreachable!()
    };
    let mut inputs = vec![
        platform::TransferableInput::new(
            unlocked.utxo.utxo_id.clone(),
            rules().avax,
            ti(free.amount).into(),
        ),
        platform::TransferableInput::new(held.utxo.utxo_id.clone(), rules().avax, spend_locked),
    ];
    inputs.sort_by_key(|i| crate::genesis::encoded(&i.utxo_id));
    let outputs = |change| {
        let mut o = vec![
            platform::TransferableOutput::new(
                rules().avax,
                platform::LockOut::new(
                    lock,
                    secp256k1fx::TransferOutput::new(kept, owners(me)).into(),
                )
                .into(),
            ),
            platform::TransferableOutput::new(
                rules().avax,
                secp256k1fx::TransferOutput::new(change, owners(me)).into(),
            ),
        ];
        o.sort_by_cached_key(crate::genesis::encoded);
        o
    };
    let unsigned = |change| {
        let base = platform::Base::new(
            NETWORK,
            Id::ZERO,
            outputs(change),
            inputs.clone(),
            Vec::new(),
        );
        platform::UnsignedTx::from(platform::BaseTx::new(base))
    };
    let gas = fee::gas(&unsigned(0)).unwrap();
    let key = w.key.clone();
    crate::context::sign_as(unsigned(free.amount - gas), &[&key, &key]).unwrap()
}

#[test]
fn stakeable_locked_funds_are_spent_locked_and_stay_locked() {
    let mut w = World::funded(10 * AVAX);
    let lock = NOW + DAY;
    let tx = locked_base_tx(&mut w, (lock, 5 * AVAX, 5 * AVAX), true);
    let fx = w.verify(&tx).unwrap();
    assert_eq!((fx.consumed.len(), fx.produced.len()), (2, 2));
    let gas = fx.gas;
    // Spent as if unlocked.
    let tx = locked_base_tx(&mut w, (lock, 5 * AVAX, 5 * AVAX), false);
    let input = tx
        .unsigned
        .base()
        .unwrap()
        .inputs
        .iter()
        .position(|i| i.utxo_id.tx_id == Id::new([0xa2; 32]))
        .unwrap();
    assert_eq!(
        w.refusal(&tx),
        format!(
            "`unsignedTx.inputs[{input}]` spends an output stakeable-locked until {lock} (chain time {NOW}) without marking it locked: use a LockIn"
        )
    );
    // More kept locked than was locked: the unlocked funds top it up, and then lack the fee.
    let tx = locked_base_tx(&mut w, (lock, 5 * AVAX, 5 * AVAX + 1), true);
    assert_eq!(
        w.refusal(&tx),
        format!(
            "insufficient funds of asset {}: the inputs hold {}, the transaction needs {} (outputs plus the fee of {gas} nAVAX: {gas} gas at 1 nAVAX)",
            rules().avax,
            10 * AVAX - 1,
            10 * AVAX
        )
    );
}
