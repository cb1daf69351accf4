//! Moving funds: BaseTx on the P-chain, ImportTx and ExportTx with the X- or C-chain. Their checks
//! are the flow check's; they change nothing beyond UTXOs.

use crate::pchain::vocab::{Accept, ChainState, Change, CheckInput, Parts, Rules};
use crate::refusal::{Refusal, VerifyError, fail};
use avalanche_rpc::codec::platform;
use avalanche_rpc::wire::Id;

impl Accept for platform::BaseTx {
    fn parts(&self, _: &Rules) -> Result<Parts<'_>, Refusal> {
        Ok(Parts::of(&self.base))
    }

    fn check(&self, _: &CheckInput<'_>, _: &mut dyn ChainState) -> Result<Change, VerifyError> {
        Ok(Change::None)
    }
}

impl Accept for platform::ImportTx {
    fn parts(&self, rules: &Rules) -> Result<Parts<'_>, Refusal> {
        x_chain(rules, &self.source_chain, "unsignedTx.sourceChain")?;
        Ok(Parts {
            imported: &self.imported_inputs,
            ..Parts::of(&self.base)
        })
    }

    fn check(&self, _: &CheckInput<'_>, _: &mut dyn ChainState) -> Result<Change, VerifyError> {
        Ok(Change::None)
    }
}

impl Accept for platform::ExportTx {
    fn parts(&self, rules: &Rules) -> Result<Parts<'_>, Refusal> {
        x_chain(
            rules,
            &self.destination_chain,
            "unsignedTx.destinationChain",
        )?;
        Ok(Parts {
            exported: &self.exported_outputs,
            ..Parts::of(&self.base)
        })
    }

    fn check(&self, _: &CheckInput<'_>, _: &mut dyn ChainState) -> Result<Change, VerifyError> {
        Ok(Change::None)
    }
}

/// The P-chain moves funds to and from the X-chain and the C-chain (whose atomic side the
/// devnet runs), nothing else.
fn x_chain(rules: &Rules, chain: &Id, place: &str) -> Result<(), Refusal> {
    if *chain != rules.x_chain && *chain != rules.c_chain {
        return fail(format!(
            "`{place}` is {chain}; the P-chain moves funds to and from the X-chain ({}) and the C-chain ({}) only",
            rules.x_chain, rules.c_chain
        ));
    }
    Ok(())
}
