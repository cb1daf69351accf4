//! The Warp messages an L1's validator manager emits, for its validators to sign (through a
//! signature aggregator; on the devnet, `devnet.signWarpMessage`) and a RegisterL1ValidatorTx
//! or SetL1ValidatorWeightTx to carry.

use crate::codec::{Writer, warp, warp_l1, warp_payload};
use crate::wire::Id;

use super::error::BuildError;

/// The unsigned Warp message (`warp.UnsignedMessage`: codec version 0, network ID, source
/// chain, payload) of an AddressedCall from `address` on `chain` carrying `message`.
pub fn l1_message(
    network_id: u32,
    chain: Id,
    address: &[u8],
    message: &warp_l1::L1Message,
) -> Result<Vec<u8>, BuildError> {
    let encode = |e: crate::codec::RuleError| BuildError::Encode(e.to_string());
    let inner = message.to_bytes().map_err(encode)?;
    let payload =
        warp_payload::Payload::AddressedCall(warp::AddressedCall::new(address.to_vec(), inner))
            .to_bytes()
            .map_err(encode)?;
    let mut w = Writer::new();
    w.u16(0);
    w.u32(network_id);
    w.id(&chain);
    w.bytes(&payload).map_err(encode)?;
    Ok(w.into_bytes())
}

/// The validation ID of a registration: SHA-256 of its RegisterL1Validator message's bytes.
pub fn validation_id(registration: &warp_l1::L1Message) -> Result<Id, BuildError> {
    registration
        .to_bytes()
        .map(|b| Id::from_sha256(&b))
        .map_err(|e| BuildError::Encode(e.to_string()))
}
