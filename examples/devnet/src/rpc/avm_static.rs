//! `avm.buildGenesis` at `/ext/vm/avm`: the static API the node removed in v1.10.18 and the
//! API description still lists; served here from the same genesis code the devnet starts
//! from.

use crate::genesis::{AssetDef, x_genesis_assets};
use avalanche_rpc::avm_static::*;
use avalanche_rpc::codec::avm;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::wire::{Encoding, HexBytes};

pub struct AvmStatic;

impl AvmStaticServer for AvmStatic {
    async fn build_genesis(&self, p: BuildGenesisParams) -> Result<BuildGenesisResult, RpcError> {
        let encoding = p.encoding.unwrap_or_default();
        if encoding == Encoding::Json {
            return Err(RpcError::invalid_params(
                "encoding",
                "couldn't encode genesis as string: unsupported encoding in method",
            ));
        }
        let mut defs = Vec::new();
        for (alias, d) in p.genesis_data {
            let field = format!("genesisData.{alias}");
            let memo = match &d.memo {
                Some(m) => encoding.decode(&m.to_string()).map_err(|e| {
                    RpcError::invalid_params(
                        &format!("{field}.memo"),
                        format!("problem formatting asset definition memo due to: {e}"),
                    )
                })?,
                None => Vec::new(),
            };
            let mut def = AssetDef {
                alias,
                name: d.name,
                symbol: d.symbol,
                denomination: d.denomination.map_or(0, |x| x.get()),
                memo,
                holders: Vec::new(),
                minters: Vec::new(),
            };
            if let Some(state) = d.initial_state {
                if state.limited_transfer.is_some() || state.non_fungible.is_some() {
                    return Err(RpcError::invalid_params(
                        &format!("{field}.initialState"),
                        "unknown asset type",
                    ));
                }
                for h in state.fixed_cap.unwrap_or_default() {
                    def.holders
                        .push((h.amount.get(), h.address.payload().into()));
                }
                for m in state.variable_cap.unwrap_or_default() {
                    def.minters
                        .push(m.minters.iter().map(|a| a.payload().into()).collect());
                }
            }
            defs.push(def);
        }
        let genesis = avm::Genesis::new(x_genesis_assets(p.network_id.get(), defs));
        let bytes = genesis
            .to_bytes()
            .map_err(|e| RpcError::server(format!("problem marshaling genesis: {e}")))?;
        let out: HexBytes = encoding
            .encode(&bytes)
            .map_err(|e| RpcError::server(format!("couldn't encode genesis as string: {e}")))?;
        Ok(BuildGenesisResult::new(out, encoding))
    }
}
