//! The hand-written serde structs a developer would write without the generated bindings:
//! IDs, addresses, hex and percentages as `String`, decimal-string numbers as `u64` through a
//! tiny helper, the members in the order the generated types write them (so both produce the
//! same bytes). Built from the generated values, so both hold the same data.
//!
//! The second large reply ([`ValidatorsFull`]) is held as a user's server holds its data:
//! weights as `u64` and percentages as `f64`, formatted (`to_string()`, `format!("{:.4}")`)
//! each time a reply is written.

use serde::{Deserialize, Serialize};

use avalanche_rpc::avm::GetUtxosResult;
use avalanche_rpc::info::GetNetworkIdResult;
use avalanche_rpc::platform::GetCurrentValidatorsResult;
use avalanche_rpc::platform::{CurrentValidator, Delegator};
use avalanche_rpc::types::{Owner, ProofOfPossession};

/// `u64` written and read as a decimal string.
mod dec {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(itoa_u64(*v, &mut [0; 20]))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = <&str>::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }

    fn itoa_u64(mut v: u64, buf: &mut [u8; 20]) -> &str {
        let mut i = buf.len();
        loop {
            i -= 1;
            buf[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        std::str::from_utf8(&buf[i..]).expect("ASCII digits")
    }
}

/// As [`dec`], for an optional member.
mod dec_opt {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => super::dec::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        #[derive(Deserialize)]
        struct Wrap(#[serde(with = "super::dec")] u64);
        Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
    }
}

/// `u64` written as a decimal string the way most hand-written code does it: through
/// `Display` into a new `String` (`to_string()`), for every reply.
mod display {
    use serde::Serializer;

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
}

/// As [`display`], for an optional member.
mod display_opt {
    use serde::Serializer;

    pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => super::display::serialize(v, s),
            None => s.serialize_none(),
        }
    }
}

/// A percentage kept as `f64` and written as the node does, with four decimals
/// (`format!("{:.4}")`), for every reply.
mod four_decimals_opt {
    use serde::Serializer;

    pub fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.serialize_str(&format!("{v:.4}")),
            None => s.serialize_none(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NetworkId {
    #[serde(rename = "networkID")]
    pub network_id: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Validators {
    pub validators: Vec<Validator>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Validator {
    #[serde(rename = "txID", skip_serializing_if = "Option::is_none", default)]
    pub tx_id: Option<String>,
    #[serde(with = "dec")]
    pub start_time: u64,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none", default)]
    pub end_time: Option<u64>,
    #[serde(with = "dec")]
    pub weight: u64,
    #[serde(rename = "nodeID")]
    pub node_id: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub validation_reward_owner: Option<OwnerJson>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub delegation_reward_owner: Option<OwnerJson>,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none", default)]
    pub potential_reward: Option<u64>,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none", default)]
    pub accrued_delegatee_reward: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub delegation_fee: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub uptime: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub connected: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub signer: Option<Signer>,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none", default)]
    pub delegator_count: Option<u64>,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none", default)]
    pub delegator_weight: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub delegators: Option<Vec<DelegatorJson>>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OwnerJson {
    #[serde(with = "dec")]
    pub locktime: u64,
    #[serde(with = "dec")]
    pub threshold: u64,
    pub addresses: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Signer {
    pub public_key: String,
    pub proof_of_possession: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DelegatorJson {
    #[serde(rename = "txID")]
    pub tx_id: String,
    #[serde(with = "dec")]
    pub start_time: u64,
    #[serde(with = "dec")]
    pub end_time: u64,
    #[serde(with = "dec")]
    pub weight: u64,
    #[serde(rename = "nodeID")]
    pub node_id: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reward_owner: Option<OwnerJson>,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none", default)]
    pub potential_reward: Option<u64>,
}

/// The second large reply as a user's hand-written server holds it: weights as `u64` and
/// percentages as `f64`, both formatted when the reply is written (see [`display`] and
/// [`four_decimals_opt`]) rather than kept as ready-made strings. Serialize only: the suite
/// serves it but never decodes into it.
#[derive(Clone, Debug, Serialize)]
pub struct ValidatorsFull {
    pub validators: Vec<ValidatorFull>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidatorFull {
    #[serde(rename = "txID", skip_serializing_if = "Option::is_none")]
    pub tx_id: Option<String>,
    #[serde(with = "dec")]
    pub start_time: u64,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none")]
    pub end_time: Option<u64>,
    #[serde(with = "display")]
    pub weight: u64,
    #[serde(rename = "nodeID")]
    pub node_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation_reward_owner: Option<OwnerJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delegation_reward_owner: Option<OwnerJson>,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none")]
    pub potential_reward: Option<u64>,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none")]
    pub accrued_delegatee_reward: Option<u64>,
    #[serde(with = "four_decimals_opt", skip_serializing_if = "Option::is_none")]
    pub delegation_fee: Option<f64>,
    #[serde(with = "four_decimals_opt", skip_serializing_if = "Option::is_none")]
    pub uptime: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connected: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signer: Option<Signer>,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none")]
    pub delegator_count: Option<u64>,
    #[serde(with = "display_opt", skip_serializing_if = "Option::is_none")]
    pub delegator_weight: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delegators: Option<Vec<DelegatorFull>>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DelegatorFull {
    #[serde(rename = "txID")]
    pub tx_id: String,
    #[serde(with = "dec")]
    pub start_time: u64,
    #[serde(with = "dec")]
    pub end_time: u64,
    #[serde(with = "display")]
    pub weight: u64,
    #[serde(rename = "nodeID")]
    pub node_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_owner: Option<OwnerJson>,
    #[serde(with = "dec_opt", skip_serializing_if = "Option::is_none")]
    pub potential_reward: Option<u64>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Utxos {
    #[serde(with = "dec")]
    pub num_fetched: u64,
    pub utxos: Vec<String>,
    pub end_index: UtxoIndexJson,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source_chain: Option<String>,
    pub encoding: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UtxoIndexJson {
    pub address: String,
    pub utxo: String,
}

/// The params of `platform.getCurrentValidators`, as a hand-written server reads them.
/// The servers parse them (as a real server must) and serve every validator whatever they say,
/// of the second large reply when `subnetID` is its subnet, of the first otherwise.
#[derive(Debug, Default, Deserialize)]
#[allow(dead_code)]
pub struct ValidatorsParams {
    #[serde(rename = "subnetID", default)]
    pub subnet_id: Option<String>,
    #[serde(rename = "nodeIDs", default)]
    pub node_ids: Option<Vec<String>>,
}

// Conversions from the generated values. Members the benchmark data never sets (the L1 and
// auto-renew members) have no counterpart here; `Fixtures::check` would catch a mismatch.

impl From<&GetNetworkIdResult> for NetworkId {
    fn from(r: &GetNetworkIdResult) -> Self {
        NetworkId {
            network_id: r.network_id.to_string(),
        }
    }
}

impl From<&Owner> for OwnerJson {
    fn from(o: &Owner) -> Self {
        OwnerJson {
            locktime: o.locktime.0,
            threshold: o.threshold.0.into(),
            addresses: o.addresses.iter().map(ToString::to_string).collect(),
        }
    }
}

impl From<&ProofOfPossession> for Signer {
    fn from(p: &ProofOfPossession) -> Self {
        Signer {
            public_key: p.public_key.to_string(),
            proof_of_possession: p.proof_of_possession.to_string(),
        }
    }
}

impl From<&Delegator> for DelegatorJson {
    fn from(d: &Delegator) -> Self {
        DelegatorJson {
            tx_id: d.tx_id.to_string(),
            start_time: d.start_time.0,
            end_time: d.end_time.0,
            weight: d.weight.0,
            node_id: d.node_id.to_string(),
            reward_owner: d.reward_owner.as_ref().map(OwnerJson::from),
            potential_reward: d.potential_reward.map(|v| v.0),
        }
    }
}

impl From<&CurrentValidator> for Validator {
    fn from(v: &CurrentValidator) -> Self {
        Validator {
            tx_id: v.tx_id.map(|id| id.to_string()),
            start_time: v.start_time.0,
            end_time: v.end_time.map(|t| t.0),
            weight: v.weight.0,
            node_id: v.node_id.to_string(),
            validation_reward_owner: v.validation_reward_owner.as_ref().map(OwnerJson::from),
            delegation_reward_owner: v.delegation_reward_owner.as_ref().map(OwnerJson::from),
            potential_reward: v.potential_reward.map(|r| r.0),
            accrued_delegatee_reward: v.accrued_delegatee_reward.map(|r| r.0),
            delegation_fee: v.delegation_fee.map(|p| p.to_string()),
            uptime: v.uptime.map(|p| p.to_string()),
            connected: v.connected,
            signer: v.signer.as_ref().map(Signer::from),
            delegator_count: v.delegator_count.map(|c| c.0),
            delegator_weight: v.delegator_weight.map(|w| w.0),
            delegators: v
                .delegators
                .as_ref()
                .map(|ds| ds.iter().map(DelegatorJson::from).collect()),
        }
    }
}

impl From<&GetCurrentValidatorsResult> for Validators {
    fn from(r: &GetCurrentValidatorsResult) -> Self {
        Validators {
            validators: r.validators.iter().map(Validator::from).collect(),
        }
    }
}

impl From<&Delegator> for DelegatorFull {
    fn from(d: &Delegator) -> Self {
        DelegatorFull {
            tx_id: d.tx_id.to_string(),
            start_time: d.start_time.0,
            end_time: d.end_time.0,
            weight: d.weight.0,
            node_id: d.node_id.to_string(),
            reward_owner: d.reward_owner.as_ref().map(OwnerJson::from),
            potential_reward: d.potential_reward.map(|v| v.0),
        }
    }
}

impl From<&CurrentValidator> for ValidatorFull {
    fn from(v: &CurrentValidator) -> Self {
        ValidatorFull {
            tx_id: v.tx_id.map(|id| id.to_string()),
            start_time: v.start_time.0,
            end_time: v.end_time.map(|t| t.0),
            weight: v.weight.0,
            node_id: v.node_id.to_string(),
            validation_reward_owner: v.validation_reward_owner.as_ref().map(OwnerJson::from),
            delegation_reward_owner: v.delegation_reward_owner.as_ref().map(OwnerJson::from),
            potential_reward: v.potential_reward.map(|r| r.0),
            accrued_delegatee_reward: v.accrued_delegatee_reward.map(|r| r.0),
            delegation_fee: v.delegation_fee.map(|p| p.0),
            uptime: v.uptime.map(|p| p.0),
            connected: v.connected,
            signer: v.signer.as_ref().map(Signer::from),
            delegator_count: v.delegator_count.map(|c| c.0),
            delegator_weight: v.delegator_weight.map(|w| w.0),
            delegators: v
                .delegators
                .as_ref()
                .map(|ds| ds.iter().map(DelegatorFull::from).collect()),
        }
    }
}

impl From<&GetCurrentValidatorsResult> for ValidatorsFull {
    fn from(r: &GetCurrentValidatorsResult) -> Self {
        ValidatorsFull {
            validators: r.validators.iter().map(ValidatorFull::from).collect(),
        }
    }
}

impl From<&GetUtxosResult> for Utxos {
    fn from(r: &GetUtxosResult) -> Self {
        Utxos {
            num_fetched: r.num_fetched.0,
            utxos: r.utxos.iter().map(ToString::to_string).collect(),
            end_index: UtxoIndexJson {
                address: r.end_index.address.clone(),
                utxo: r.end_index.utxo.clone(),
            },
            source_chain: r.source_chain.clone(),
            encoding: r.encoding.to_string(),
        }
    }
}

/// A JSON-RPC reply envelope for decoding with the hand-written structs.
#[derive(Deserialize)]
pub struct Reply<T> {
    pub result: T,
}
