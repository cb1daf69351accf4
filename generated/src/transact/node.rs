//! The online layer (feature `client`): the context read from a node, every page of a
//! keychain's UTXOs, issuing, and waiting for the outcome. Building never needs it.

use std::time::{Duration, Instant};

use crate::avax::AvaxClient;
use crate::avm::AvmClient;
use crate::codec::{atomic, avm, platform};
use crate::eth::EthClient;
use crate::info::InfoClient;
use crate::platform::PlatformClient;
use crate::rpc::{ClientError, Node, Transport, paging};
use crate::wire::{Address, HexBytes, Id, ShortId};

use super::context::{Context, FeeConfig, FeeState, StakingRules, ValidatorFeeConfig};
use super::error::{BuildError, SignError};

/// Why an online step failed.
#[derive(Debug, thiserror::Error)]
pub enum WalletError {
    /// A call failed (its error names the method).
    #[error("{source}")]
    Call {
        /// The method.
        method: &'static str,
        /// Why.
        #[source]
        source: ClientError,
    },
    /// A reply that cannot be used (a UTXO that does not decode, a cursor that repeats).
    #[error("{method}: {problem}")]
    Reply {
        /// The method.
        method: &'static str,
        /// What is wrong with the reply.
        problem: String,
    },
    /// Building failed.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// Signing failed.
    #[error(transparent)]
    Sign(#[from] SignError),
    /// The node dropped the transaction.
    #[error("transaction {tx_id} was dropped: {reason}")]
    Dropped {
        /// The transaction.
        tx_id: Id,
        /// The node's reason.
        reason: String,
    },
    /// A proposal whose abort was accepted.
    #[error("transaction {tx_id} was aborted")]
    Aborted {
        /// The transaction.
        tx_id: Id,
    },
    /// No outcome within the time given.
    #[error("transaction {tx_id} was not accepted within {waited:?} (last status: {last})")]
    Timeout {
        /// The transaction.
        tx_id: Id,
        /// How long it waited.
        waited: Duration,
        /// The last status read.
        last: String,
    },
}

fn call(method: &'static str) -> impl FnOnce(ClientError) -> WalletError {
    move |source| WalletError::Call { method, source }
}

impl Context {
    /// Reads the context from a node (`info.getNetworkID`, `info.getBlockchainID` of X, P and
    /// C, `avm.getAssetDescription` of AVAX, `avm.getTxFee`, `platform.getFeeConfig`,
    /// `getFeeState`, `getValidatorFeeConfig`, `getMinStake`), as AvalancheJS's
    /// `Context.getContextFromURI` does. The fee state is read last: build soon after, or
    /// call [`Context::refresh_fee_state`].
    pub async fn from_node<T: Transport + Clone + 'static>(
        node: &Node<T>,
    ) -> Result<Context, WalletError> {
        let info = node.info();
        let network_id = info
            .get_network_id(Default::default())
            .await
            .map_err(call("info.getNetworkID"))?
            .network_id
            .0;
        let chain = |alias: &'static str| async move {
            node.info()
                .get_blockchain_id(crate::info::GetBlockchainIdParams::new(alias))
                .await
                .map(|r| r.blockchain_id)
                .map_err(call("info.getBlockchainID"))
        };
        let x_chain_id = chain("X").await?;
        let p_chain_id = chain("P").await?;
        let c_chain_id = chain("C").await?;
        let x = node.avm("X");
        let avax = x
            .get_asset_description(crate::avm::GetAssetDescriptionParams::new("AVAX"))
            .await
            .map_err(call("avm.getAssetDescription"))?;
        let fees = x
            .get_tx_fee(Default::default())
            .await
            .map_err(call("avm.getTxFee"))?;
        let p = node.platform();
        let config = p
            .get_fee_config(Default::default())
            .await
            .map_err(call("platform.getFeeConfig"))?;
        let weights: [u64; 4] =
            config
                .weights
                .as_slice()
                .try_into()
                .map_err(|_| WalletError::Reply {
                    method: "platform.getFeeConfig",
                    problem: format!("{} weights, not 4", config.weights.len()),
                })?;
        let validator_fee_config = match p.get_validator_fee_config(Default::default()).await {
            Ok(v) => ValidatorFeeConfig {
                capacity: v.capacity,
                target: v.target,
                min_price: v.min_price,
                excess_conversion_constant: v.excess_conversion_constant,
            },
            // Nodes before v1.12.2 have no L1s.
            Err(ClientError::Rpc { .. }) => ValidatorFeeConfig::default(),
            Err(e) => return Err(call("platform.getValidatorFeeConfig")(e)),
        };
        let min = p
            .get_min_stake(Default::default())
            .await
            .map_err(call("platform.getMinStake"))?;
        let mut staking = StakingRules::of_network(network_id);
        staking.min_validator_stake = min.min_validator_stake.0;
        staking.min_delegator_stake = min.min_delegator_stake.0;
        let mut ctx = Context {
            network_id,
            hrp: crate::network::hrp(network_id).to_string(),
            x_chain_id,
            p_chain_id,
            c_chain_id,
            avax_asset_id: avax.asset_id,
            x_tx_fee: fees.tx_fee.0,
            x_create_asset_tx_fee: fees.create_asset_tx_fee.0,
            p_fee_config: FeeConfig {
                weights,
                max_capacity: config.max_capacity,
                max_per_second: config.max_per_second,
                target_per_second: config.target_per_second,
                min_price: config.min_price,
                excess_conversion_constant: config.excess_conversion_constant,
            },
            p_fee_state: FeeState {
                capacity: 0,
                excess: 0,
                price: 0,
            },
            validator_fee_config,
            staking,
        };
        ctx.refresh_fee_state(node).await?;
        Ok(ctx)
    }

    /// Reads the P-chain's fee state again (`platform.getFeeState`). The node gives the state
    /// of its last accepted block, at that block's time; the capacity is advanced from there
    /// to this machine's clock as the next block advances it (`maxPerSecond` a second, up to
    /// `maxCapacity`), or a chain idle since a busy block would look full for good. The price
    /// is kept as read: it only falls with time, and paying more is accepted (the surplus is
    /// burned).
    pub async fn refresh_fee_state<T: Transport + Clone + 'static>(
        &mut self,
        node: &Node<T>,
    ) -> Result<(), WalletError> {
        let s = node
            .platform()
            .get_fee_state(Default::default())
            .await
            .map_err(call("platform.getFeeState"))?;
        self.p_fee_state = FeeState {
            capacity: s.capacity,
            excess: s.excess,
            price: s.price,
        };
        Ok(())
    }
}

fn addresses(ctx: &Context, chain: &str, of: &[ShortId]) -> Vec<Address> {
    of.iter()
        .filter_map(|a| Address::new(Some(chain), &ctx.hrp, *a.as_bytes()).ok())
        .collect()
}

/// The X-chain UTXOs of `of` (`avm.getUTXOs`, every page), or those exported to the X-chain
/// from `source_chain` (`"P"`, `"C"` or a chain ID) for an import.
pub async fn x_utxos<T: Transport + Clone + 'static>(
    node: &Node<T>,
    ctx: &Context,
    of: &[ShortId],
    source_chain: Option<&str>,
) -> Result<Vec<avm::Utxo>, WalletError> {
    let x = node.avm("X");
    let mut params = crate::avm::GetUtxosParams::new(addresses(ctx, "X", of));
    params.source_chain = source_chain.map(str::to_string);
    paging::collect(x.get_utxos_stream(params))
        .await
        .map_err(call("avm.getUTXOs"))
}

/// The P-chain UTXOs of `of` (`platform.getUTXOs`, every page), or those exported to the
/// P-chain from `source_chain` for an import.
pub async fn p_utxos<T: Transport + Clone + 'static>(
    node: &Node<T>,
    ctx: &Context,
    of: &[ShortId],
    source_chain: Option<&str>,
) -> Result<Vec<platform::Utxo>, WalletError> {
    let p = node.platform();
    let mut params = crate::platform::GetUtxosParams::new(addresses(ctx, "P", of));
    params.source_chain = source_chain.map(str::to_string);
    paging::collect(p.get_utxos_stream(params))
        .await
        .map_err(call("platform.getUTXOs"))
}

/// What `of` holds on the X-chain at `time` (Unix seconds), per asset, AVAX first: every page
/// of their UTXOs ([`x_utxos`]) summed by [`balance::of_x`](super::balance::of_x), as the
/// node's deprecated `avm.getBalance` advises.
pub async fn x_balances<T: Transport + Clone + 'static>(
    node: &Node<T>,
    ctx: &Context,
    of: &[ShortId],
    time: u64,
) -> Result<Vec<super::balance::Balance>, WalletError> {
    let utxos = x_utxos(node, ctx, of, None).await?;
    Ok(super::balance::of_x(ctx.avax_asset_id, &utxos, of, time))
}

/// What `of` holds on the P-chain at `time`, per asset, AVAX first (stake-locked outputs as
/// locked): [`p_utxos`] summed by [`balance::of_p`](super::balance::of_p).
pub async fn p_balances<T: Transport + Clone + 'static>(
    node: &Node<T>,
    ctx: &Context,
    of: &[ShortId],
    time: u64,
) -> Result<Vec<super::balance::Balance>, WalletError> {
    let utxos = p_utxos(node, ctx, of, None).await?;
    Ok(super::balance::of_p(ctx.avax_asset_id, &utxos, of, time))
}

/// Sends a signed X-chain transaction (`avm.issueTx`); returns its ID.
pub async fn issue_x<T: Transport + Clone + 'static>(
    node: &Node<T>,
    tx: &avm::Tx,
) -> Result<Id, WalletError> {
    let bytes = tx
        .to_bytes()
        .map_err(|e| SignError::Encode(e.to_string()))?;
    let r = node
        .avm("X")
        .issue_tx(crate::avm::IssueTxParams::new(HexBytes::with_checksum(
            &bytes,
        )))
        .await
        .map_err(call("avm.issueTx"))?;
    Ok(r.tx_id)
}

/// Sends a signed P-chain transaction (`platform.issueTx`); returns its ID.
pub async fn issue_p<T: Transport + Clone + 'static>(
    node: &Node<T>,
    tx: &platform::Tx,
) -> Result<Id, WalletError> {
    let bytes = tx
        .to_bytes()
        .map_err(|e| SignError::Encode(e.to_string()))?;
    let r = node
        .platform()
        .issue_tx(crate::platform::IssueTxParams::new(
            HexBytes::with_checksum(&bytes),
        ))
        .await
        .map_err(call("platform.issueTx"))?;
    Ok(r.tx_id)
}

/// Polls with backoff: 25 ms, doubling to 1 s, until `done` says so or `timeout` passes.
async fn poll<F, Fut>(tx_id: Id, timeout: Duration, mut status: F) -> Result<(), WalletError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Option<String>, WalletError>>,
{
    let start = Instant::now();
    let mut delay = Duration::from_millis(25);
    loop {
        let last = match status().await? {
            None => return Ok(()),
            Some(last) => last,
        };
        let waited = start.elapsed();
        if waited >= timeout {
            return Err(WalletError::Timeout {
                tx_id,
                waited,
                last,
            });
        }
        tokio::time::sleep(delay.min(timeout - waited)).await;
        delay = (delay * 2).min(Duration::from_secs(1));
    }
}

/// Waits until an X-chain transaction is accepted (`avm.getTx`, which answers `not found`
/// until then, also while it is in the mempool; `getTxStatus` is deprecated).
pub async fn wait_x<T: Transport + Clone + 'static>(
    node: &Node<T>,
    tx_id: Id,
    timeout: Duration,
) -> Result<(), WalletError> {
    let x = node.avm("X");
    poll(tx_id, timeout, || {
        let x = x.clone();
        async move {
            match x.get_tx(crate::avm::GetTxParams::new(tx_id)).await {
                Ok(_) => Ok(None),
                Err(ClientError::Rpc { error, .. }) if error.message.contains("not found") => {
                    Ok(Some("not found".to_string()))
                }
                Err(e) => Err(call("avm.getTx")(e)),
            }
        }
    })
    .await
}

/// Waits until a P-chain transaction is committed (`platform.getTxStatus`), or fails with
/// the reason it was dropped.
pub async fn wait_p<T: Transport + Clone + 'static>(
    node: &Node<T>,
    tx_id: Id,
    timeout: Duration,
) -> Result<(), WalletError> {
    let p = node.platform();
    poll(tx_id, timeout, || {
        let p = p.clone();
        async move {
            let r = p
                .get_tx_status(crate::platform::GetTxStatusParams::new(tx_id))
                .await
                .map_err(call("platform.getTxStatus"))?;
            use crate::platform::TxStatus as S;
            match r.status {
                S::Committed => Ok(None),
                S::Dropped => Err(WalletError::Dropped {
                    tx_id,
                    reason: r.reason.unwrap_or_default(),
                }),
                S::Aborted => Err(WalletError::Aborted { tx_id }),
                other => Ok(Some(format!("{other:?}"))),
            }
        }
    })
    .await
}

/// The UTXOs exported to the C-chain from `source_chain` (`"X"`, `"P"` or a chain ID) that
/// `of` own (`avax.getUTXOs`, every page), for an import.
pub async fn c_utxos<T: Transport + Clone + 'static>(
    node: &Node<T>,
    ctx: &Context,
    of: &[ShortId],
    source_chain: &str,
) -> Result<Vec<atomic::Utxo>, WalletError> {
    let params = crate::avax::GetUtxosParams::new(addresses(ctx, "C", of), source_chain);
    paging::collect(node.avax("C").get_utxos_stream(params))
        .await
        .map_err(call("avax.getUTXOs"))
}

/// The C-chain's base fee now (`eth_baseFee`), in wei per gas: what [`c::export_tx`] and
/// [`c::import_tx`] take.
///
/// [`c::export_tx`]: super::c::export_tx
/// [`c::import_tx`]: super::c::import_tx
pub async fn c_base_fee<T: Transport + Clone + 'static>(
    node: &Node<T>,
) -> Result<u128, WalletError> {
    let fee = node
        .eth("C")
        .base_fee(Default::default())
        .await
        .map_err(call("eth_baseFee"))?;
    Ok(fee.get())
}

/// The C-chain accounts of these keys, as the latest block has them: balance in wei
/// (`eth_getBalance`) and nonce (`eth_getTransactionCount`).
pub async fn c_accounts<T: Transport + Clone + 'static>(
    node: &Node<T>,
    keys: &[crate::keys::PublicKey],
) -> Result<Vec<super::c::Account>, WalletError> {
    let eth = node.eth("C");
    let mut out = Vec::with_capacity(keys.len());
    for key in keys {
        let address = key.evm_address();
        let balance = eth
            .get_balance(crate::eth::GetBalanceParams::new(address, "latest"))
            .await
            .map_err(call("eth_getBalance"))?
            .get();
        let nonce = eth
            .get_transaction_count(crate::eth::GetTransactionCountParams::new(
                address, "latest",
            ))
            .await
            .map_err(call("eth_getTransactionCount"))?
            .get();
        let nonce = u64::try_from(nonce).map_err(|_| WalletError::Reply {
            method: "eth_getTransactionCount",
            problem: format!("the nonce of {address} is {nonce}, past 2^64"),
        })?;
        out.push(super::c::Account::of(key, balance, nonce));
    }
    Ok(out)
}

/// Sends a signed atomic transaction to the C-chain (`avax.issueTx`); returns its ID.
pub async fn issue_c<T: Transport + Clone + 'static>(
    node: &Node<T>,
    tx: &atomic::Tx,
) -> Result<Id, WalletError> {
    let bytes = tx
        .to_bytes()
        .map_err(|e| SignError::Encode(e.to_string()))?;
    let r = node
        .avax("C")
        .issue_tx(crate::avax::IssueTxParams::new(HexBytes::with_checksum(
            &bytes,
        )))
        .await
        .map_err(call("avax.issueTx"))?;
    Ok(r.tx_id)
}

/// Waits until a C-chain atomic transaction is accepted (`avax.getAtomicTxStatus`, which both
/// C-chain VMs answer: coreth with `Processing` and `Dropped` too, the SAE VM only `Accepted`
/// or `Unknown`), or fails when coreth dropped it.
pub async fn wait_c<T: Transport + Clone + 'static>(
    node: &Node<T>,
    tx_id: Id,
    timeout: Duration,
) -> Result<(), WalletError> {
    let c = node.avax("C");
    poll(tx_id, timeout, || {
        let c = c.clone();
        async move {
            #[allow(deprecated)]
            let r = c
                .get_atomic_tx_status(crate::avax::GetAtomicTxStatusParams::new(tx_id))
                .await
                .map_err(call("avax.getAtomicTxStatus"))?;
            use crate::avax::AtomicTxStatus as S;
            match r.status {
                S::Accepted => Ok(None),
                S::Dropped => Err(WalletError::Dropped {
                    tx_id,
                    reason: "the C-chain dropped it (its status gives no reason; \
                             `avax.getAtomicTx` may say more)"
                        .into(),
                }),
                other => Ok(Some(format!("{other:?}"))),
            }
        }
    })
    .await
}

/// How long [`Pending::wait`] waits: a minute, ample for a local network and for Fuji or
/// Mainnet under normal load.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(60);

/// The chain a [`Pending`] transaction was issued to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssuedTo {
    /// The X-chain: final when `avm.getTx` finds it.
    X,
    /// The P-chain: final when `platform.getTxStatus` says committed, dropped or aborted.
    P,
    /// The C-chain's atomic side: final when `avax.getAtomicTxStatus` says accepted or dropped.
    C,
}

/// A transaction a node took, with what it takes to learn its outcome: `issue` then
/// `.wait()`.
#[derive(Debug, Clone)]
pub struct Pending<T: Transport + Clone + 'static> {
    node: Node<T>,
    chain: IssuedTo,
    tx_id: Id,
}

impl<T: Transport + Clone + 'static> Pending<T> {
    /// A transaction issued elsewhere (another process, an earlier run), to wait on by its ID.
    pub fn new(node: &Node<T>, chain: IssuedTo, tx_id: Id) -> Pending<T> {
        Pending {
            node: node.clone(),
            chain,
            tx_id,
        }
    }

    /// The transaction's ID.
    pub fn tx_id(&self) -> Id {
        self.tx_id
    }

    /// The chain it went to.
    pub fn chain(&self) -> IssuedTo {
        self.chain
    }

    /// Waits for its outcome, at most [`DEFAULT_WAIT`]: `Ok` once accepted (X, C) or
    /// committed (P); [`WalletError::Dropped`] with the node's reason, [`WalletError::Aborted`], or
    /// [`WalletError::Timeout`] with the last status otherwise.
    pub async fn wait(&self) -> Result<Id, WalletError> {
        self.wait_for(DEFAULT_WAIT).await
    }

    /// [`wait`](Pending::wait), at most `timeout`.
    pub async fn wait_for(&self, timeout: Duration) -> Result<Id, WalletError> {
        match self.chain {
            IssuedTo::X => wait_x(&self.node, self.tx_id, timeout).await?,
            IssuedTo::P => wait_p(&self.node, self.tx_id, timeout).await?,
            IssuedTo::C => wait_c(&self.node, self.tx_id, timeout).await?,
        }
        Ok(self.tx_id)
    }
}

/// Sends a signed X-chain transaction (`avm.issueTx`): the handle to wait on.
pub async fn issue_x_pending<T: Transport + Clone + 'static>(
    node: &Node<T>,
    tx: &avm::Tx,
) -> Result<Pending<T>, WalletError> {
    Ok(Pending {
        node: node.clone(),
        chain: IssuedTo::X,
        tx_id: issue_x(node, tx).await?,
    })
}

/// Sends a signed P-chain transaction (`platform.issueTx`): the handle to wait on.
pub async fn issue_p_pending<T: Transport + Clone + 'static>(
    node: &Node<T>,
    tx: &platform::Tx,
) -> Result<Pending<T>, WalletError> {
    Ok(Pending {
        node: node.clone(),
        chain: IssuedTo::P,
        tx_id: issue_p(node, tx).await?,
    })
}

/// Sends a signed atomic transaction to the C-chain (`avax.issueTx`): the handle to wait on.
pub async fn issue_c_pending<T: Transport + Clone + 'static>(
    node: &Node<T>,
    tx: &atomic::Tx,
) -> Result<Pending<T>, WalletError> {
    Ok(Pending {
        node: node.clone(),
        chain: IssuedTo::C,
        tx_id: issue_c(node, tx).await?,
    })
}

/// The canonical validator set of `subnet` at `height` (`platform.getValidatorsAt`), as
/// [`super::warp::sign`] indexes signatures. The P-chain checks a Warp message in a
/// transaction against the set at the P-chain height of the block's epoch since Granite
/// (`proposervm.getCurrentEpoch` on P gives the one a block built now belongs to), before it
/// at the block's proposer height ([`Height::Proposed`](crate::wire::Height::Proposed)).
pub async fn warp_validators<T: Transport + Clone + 'static>(
    node: &Node<T>,
    subnet: Id,
    height: crate::wire::Height,
) -> Result<super::warp::CanonicalSet, WalletError> {
    const METHOD: &str = "platform.getValidatorsAt";
    let set = node
        .platform()
        .get_validators_at(
            crate::platform::GetValidatorsAtParams::new()
                .with_height(height)
                .with_subnet_id(subnet),
        )
        .await
        .map_err(call(METHOD))?;
    let mut members = Vec::with_capacity(set.len());
    for (node_id, v) in set {
        let key = match &v.public_key {
            None => None,
            Some(k) => {
                Some(
                    <[u8; 48]>::try_from(k.0.as_slice()).map_err(|_| WalletError::Reply {
                        method: METHOD,
                        problem: format!(
                            "the BLS key of {node_id} has {} bytes, not 48",
                            k.0.len()
                        ),
                    })?,
                )
            }
        };
        members.push((key, v.weight.get()));
    }
    Ok(super::warp::CanonicalSet::new(members))
}
