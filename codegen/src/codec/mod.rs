//! The binary codec part of the spec (`spec/codec/`): the layout of every transaction, UTXO,
//! block and message, how each codec numbers its types, and which types each interface slot
//! may hold. `raw` is the YAML as written, `model` the validated form every emitter reads,
//! `lower` the one turned into the other with its checks.

pub mod lower;
pub mod model;
pub mod raw;
