//! A devnet on 127.0.0.1 (an ephemeral port) with a client for it, and transactions for it
//! built by `avalanche_rpc::transact` with the devnet's context.

use avalanche_devnet::genesis::test_keys;
use avalanche_devnet::xchain::Utxo;
use avalanche_devnet::{Options, context};
use avalanche_rpc::avm::*;
use avalanche_rpc::codec::{avm as codec_avm, platform, secp256k1fx};
use avalanche_rpc::keys::PrivateKey;
use avalanche_rpc::rpc::{HttpTransport, Node};
use avalanche_rpc::transact::p::Authority;
use avalanche_rpc::transact::{BuildError, Context, Keychain, Payer, p, x};
use avalanche_rpc::wire::{Address, HexBytes, Id, ShortId};
use std::sync::Arc;
use std::time::Duration;

pub fn options() -> Options {
    Options {
        network_id: 12345,
        db_dir: None,
        index_enabled: true,
        index_allow_incomplete: false,
        staking_port: 9651,
        genesis: None,
        mempool_bytes: avalanche_devnet::engine::pool::MAX_BYTES,
        db_cache_bytes: avalanche_devnet::store::CACHE_BYTES,
        // Tests issue many P-chain txs in a row: the chain's time may run a few minutes
        // ahead instead of waiting a second a block past the node's 10 s (pchain.rs checks
        // the default).
        p_chain_lead: 600,
        upgrade_file: None,
    }
}

/// Owners of one address.
pub fn one(a: ShortId) -> secp256k1fx::OutputOwners {
    secp256k1fx::OutputOwners::new(0, 1, vec![a])
}

/// Every test key: a transaction is signed by those its builder names.
pub fn keychain() -> Keychain {
    Keychain::from_keys(test_keys())
}

/// A Subnet (or an L1 validator's deactivation) as owned by `key` alone, which authorizes:
/// the devnet refuses the authorization when `key` is not the owner it knows.
pub fn authority(key: &PrivateKey) -> Authority {
    Authority {
        owner: one(key.address()),
        signers: Some(vec![key.address()]),
    }
}

/// `c` without the staking rules the builders check: what they would refuse is built for the
/// devnet to refuse.
pub fn lenient(mut c: Context) -> Context {
    c.staking.min_validator_stake = 0;
    c.staking.min_delegator_stake = 0;
    c.staking.min_stake_duration = 0;
    c
}

/// The codec values of devnet UTXOs, as the builders take them.
pub fn x_codec(utxos: &[Utxo]) -> Vec<codec_avm::Utxo> {
    utxos.iter().map(|u| u.utxo.clone()).collect()
}

/// The same on the P-chain.
pub fn p_codec(utxos: &[avalanche_devnet::pchain::Utxo]) -> Vec<platform::Utxo> {
    utxos.iter().map(|u| u.utxo.clone()).collect()
}

/// A P-chain BaseTx paying nothing but its fee.
pub fn fee_only(
    c: &Context,
    utxos: &[platform::Utxo],
    payer: &Payer,
) -> Result<p::Unsigned, BuildError> {
    avalanche_rpc::transact::p::base_tx(c, utxos, payer, &[])
}

/// What a P-chain builder is given besides its request: the context, the payer's UTXOs and
/// the payer.
pub type PBuild<'a> =
    Box<dyn FnOnce(&Context, &[platform::Utxo], &Payer) -> Result<p::Unsigned, BuildError> + 'a>;

pub struct Devnet {
    pub devnet: Arc<avalanche_devnet::Devnet>,
    pub node: Node<HttpTransport>,
    pub url: String,
    server: tokio::task::JoinHandle<()>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    builder: tokio::task::JoinHandle<()>,
}

impl Drop for Devnet {
    fn drop(&mut self) {
        self.server.abort();
        self.builder.abort();
    }
}

impl Devnet {
    pub async fn start(options: Options) -> Devnet {
        Devnet::start_with(options, false).await
    }

    pub async fn start_with(options: Options, public: bool) -> Devnet {
        let devnet = Arc::new(avalanche_devnet::Devnet::open(options).expect("the devnet starts"));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let gate = avalanche_devnet::http::Gate {
            hosts: vec!["localhost".into()],
            origins: vec!["*".into()],
        };
        let app = avalanche_devnet::app(devnet.clone(), public, gate);
        // axum's server here (the binary uses the crate's hardened one) for its graceful
        // shutdown, so a test can close the database and open it again.
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .await;
        });
        let builder = tokio::spawn(avalanche_devnet::devnet::build_blocks(devnet.clone()));
        Devnet {
            node: Node::http(&url).unwrap(),
            url,
            devnet,
            server,
            stop: Some(stop),
            builder,
        }
    }

    /// Stops serving and waits until nothing holds the devnet, so its database closes.
    pub async fn stop(mut self) {
        let devnet = self.devnet.clone();
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        self.builder.abort();
        let server = std::mem::replace(&mut self.server, tokio::spawn(async {}));
        drop(self);
        let _ = server.await;
        for _ in 0..500 {
            if Arc::strong_count(&devnet) == 1 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the devnet is still held 5 s after stopping");
    }

    /// The devnet's context now (its P-chain price with the margin).
    pub fn context(&self) -> Context {
        context::of(&self.devnet).unwrap()
    }

    /// `key` alone pays, at the devnet's time, its change to itself.
    pub fn payer(&self, key: &PrivateKey) -> Payer {
        Payer::new(vec![key.address()], self.devnet.engine.clock.now())
    }

    pub fn x_address(&self, a: ShortId) -> Address {
        Address::new(Some("X"), "local", *a.as_bytes()).unwrap()
    }

    pub async fn balance(&self, a: &Address, asset: &str) -> u64 {
        self.node
            .avm("X")
            .get_balance(GetBalanceParams::new(a.clone(), asset))
            .await
            .unwrap()
            .balance
            .get()
    }

    /// Every UTXO of `a`, through `getUTXOs`.
    pub async fn utxos(&self, a: &Address) -> Vec<Utxo> {
        let page = self
            .node
            .avm("X")
            .get_utxos(GetUtxosParams::new(vec![a.clone()]))
            .await
            .unwrap();
        assert!(page.num_fetched.get() < 1024, "one page holds them all");
        page.utxos
            .iter()
            .map(|u| Utxo::new(codec_avm::Utxo::from_bytes(u.strip_checksum().unwrap()).unwrap()))
            .collect()
    }

    pub async fn wait_accepted(&self, tx: &Id) {
        for _ in 0..500 {
            let s = self
                .node
                .avm("X")
                .get_tx_status(GetTxStatusParams::new(*tx))
                .await
                .unwrap();
            if s.status == AvmTxStatus::Accepted {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("tx {tx} was not accepted within 5 s");
    }

    /// Pays `amount` nAVAX from `from` to `to` and waits for the block.
    pub async fn transfer(&self, from: &PrivateKey, to: ShortId, amount: u64) -> Id {
        let utxos = x_codec(&self.utxos(&self.x_address(from.address())).await);
        let pay = [x::output(
            self.devnet.genesis.avax_asset_id,
            amount,
            one(to),
        )];
        let built = x::base_tx(&self.context(), &utxos, &self.payer(from), &pay);
        let tx = context::sign(built, &keychain()).unwrap();
        let id = self
            .node
            .avm("X")
            .issue_tx(IssueTxParams::new(HexBytes::with_checksum(
                &tx.to_bytes().unwrap(),
            )))
            .await
            .unwrap()
            .tx_id;
        self.wait_accepted(&id).await;
        id
    }

    /// Every P-chain UTXO of `key`, through `platform.getUTXOs`.
    pub async fn p_utxos(&self, key: &PrivateKey) -> Vec<avalanche_devnet::pchain::Utxo> {
        use avalanche_rpc::platform::{GetUtxosParams, PlatformClient};
        let hrp = avalanche_rpc::network::hrp(self.devnet.options.network_id);
        let a = Address::new(Some("P"), hrp, *key.address().as_bytes()).unwrap();
        self.node
            .platform()
            .get_utxos(GetUtxosParams::new(vec![a]))
            .await
            .unwrap()
            .utxos
            .iter()
            .map(|u| avalanche_devnet::pchain::Utxo::decode(u.strip_checksum().unwrap()).unwrap())
            .collect()
    }

    /// The P-chain tx `build` makes with the devnet's context (its price with the margin)
    /// from `key`'s UTXOs, paid by `key` (change to itself), signed.
    pub async fn p_tx(
        &self,
        key: &PrivateKey,
        build: impl FnOnce(&Context, &[platform::Utxo], &Payer) -> Result<p::Unsigned, BuildError>,
    ) -> platform::Tx {
        self.p_tx_in(&self.context(), key, build).await
    }

    /// The same with context `c`.
    pub async fn p_tx_in(
        &self,
        c: &Context,
        key: &PrivateKey,
        build: impl FnOnce(&Context, &[platform::Utxo], &Payer) -> Result<p::Unsigned, BuildError>,
    ) -> platform::Tx {
        let utxos = p_codec(&self.p_utxos(key).await);
        context::sign(build(c, &utxos, &self.payer(key)), &keychain()).unwrap()
    }

    /// A P-chain tx `build` makes ([`Self::p_tx`]), issued and committed
    /// ([`Self::p_issue`]).
    pub async fn p_do(
        &self,
        key: &PrivateKey,
        build: impl FnOnce(&Context, &[platform::Utxo], &Payer) -> Result<p::Unsigned, BuildError>,
    ) -> Result<Id, String> {
        self.p_issue(&self.p_tx(key, build).await).await
    }

    /// Moves the P-chain to a new epoch that holds every block so far, as Warp messages about
    /// a change just made need (`avalanche_devnet::proposer::warp_height`): the clock advances
    /// to the end of the next block's epoch and `key` pays itself on P.
    pub async fn next_epoch(&self, key: &PrivateKey) {
        use avalanche_rpc::devnet::{AdvanceClockParams, DevnetClient};
        use avalanche_rpc::proposervm::ProposervmClient;
        let epoch = self
            .node
            .proposervm("P")
            .get_current_epoch(Default::default())
            .await
            .unwrap();
        let now = self
            .node
            .devnet()
            .advance_clock(AdvanceClockParams::new(0u64))
            .await
            .unwrap()
            .time
            .unix_seconds() as u64;
        let end = epoch.start_time.get() + avalanche_devnet::proposer::EPOCH_SECONDS;
        self.node
            .devnet()
            .advance_clock(AdvanceClockParams::new(end.saturating_sub(now)))
            .await
            .unwrap();
        let to = key.address();
        self.p_do(key, |c, u, p| {
            p::base_tx(c, u, p, &[p::output(c.avax_asset_id, 1_000, one(to))])
        })
        .await
        .unwrap();
    }

    /// Issues a P-chain tx through `platform.issueTx` and waits until it is committed; the
    /// issue error otherwise.
    pub async fn p_issue(&self, tx: &platform::Tx) -> Result<Id, String> {
        use avalanche_rpc::platform::{GetTxStatusParams, IssueTxParams, PlatformClient, TxStatus};
        let p = self.node.platform();
        let id = p
            .issue_tx(IssueTxParams::new(HexBytes::with_checksum(
                &tx.to_bytes().unwrap(),
            )))
            .await
            .map_err(said)?
            .tx_id;
        for _ in 0..500 {
            let s = p.get_tx_status(GetTxStatusParams::new(id)).await.unwrap();
            match s.status {
                TxStatus::Committed => return Ok(id),
                TxStatus::Processing => tokio::time::sleep(Duration::from_millis(10)).await,
                other => return Err(format!("{other:?}: {:?}", s.reason)),
            }
        }
        panic!("tx {id} was not committed within 5 s");
    }
}

/// A client error as text, with the devnet's detail of a refusal (its `data.detail`, where
/// it names the field the node's words do not).
pub fn said(e: avalanche_rpc::rpc::ClientError) -> String {
    let detail = match &e {
        avalanche_rpc::rpc::ClientError::Rpc { error, .. } => error
            .data
            .as_ref()
            .and_then(|d| d["detail"].as_str())
            .map(|d| format!(" [detail: {d}]")),
        _ => None,
    };
    format!("{e}{}", detail.unwrap_or_default())
}
