use avalanche_rpc::avm::{AvmClient, GetUtxosParams};
use avalanche_rpc::rpc::Node;
use avalanche_rpc::transact::{Context, Keychain, Payer, owners, x};
use futures_util::StreamExt;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args().nth(1).unwrap_or("http://127.0.0.1:9650".into());
    let node = Node::http(&url)?;
    let keys = Keychain::from_env("AVAX_PRIVATE_KEY")?;
    let ctx = Context::from_node(&node).await?;
    let me = keys.chain_addresses("X", &ctx.hrp);
    let mut stream = node.avm("X").get_utxos_stream(GetUtxosParams::new(me));
    let mut utxos = Vec::new();
    while let Some(u) = stream.next().await {
        utxos.push(u?); // an avm::Utxo, read from its bytes
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_secs();
    let balance = x::balances(&node, &ctx, &keys.addresses(), now).await?[0];
    let to = owners("to", &keys.addresses()[..1], 1, 0)?;
    let out = x::output(ctx.avax_asset_id, 1_000_000_000, to);
    let mut tx = x::base_tx(&ctx, &utxos, &Payer::of(&keys, now), &[out])?;
    tx.sign(&keys)?;
    let id = x::issue(&node, &tx.signed()?).await?.wait().await?;
    println!("{} UTXOs, {} nAVAX spendable; sent 1 AVAX: {id}", utxos.len(), balance.spendable);
    Ok(())
}
