//! The differential runner: one scenario run against AvalancheGo (the reference) and the
//! devnet side by side, reply by reply. See `tests/node/DIFFERENCES.md` and `normalize.rs`.
//!
//! ```sh
//! tests/with-node 19686 diff sh -c 'DEVNET_FLAGS="--in-memory --genesis-file $NODE_GENESIS" \
//!   tests/with-devnet 19688 diff cargo run -q -p avalanche-rpc-differential -- \
//!   --node "$NODE_URL" --devnet "$DEVNET_URL" --warp-key "$NODE_SIGNER_KEY"'
//! ```

mod normalize;
mod reads;
mod report;
mod rpc;
mod scenario;
mod txs;

use report::Report;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let (mut node, mut devnet, mut warp_key) = (None, None, std::env::var("NODE_SIGNER_KEY").ok());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--node" => node = args.next(),
            "--devnet" => devnet = args.next(),
            "--warp-key" => warp_key = args.next(),
            other => {
                eprintln!(
                    "unknown argument {other}; usage: --node URL --devnet URL [--warp-key FILE]"
                );
                std::process::exit(2);
            }
        }
    }
    // An empty value (`--devnet "$DEVNET_URL"` expanded by a shell before `tests/with-devnet`
    // set it) falls back to the environment, which `tests/with-node` and `tests/with-devnet`
    // set for the command.
    let or_env = |v: Option<String>, var: &str| {
        v.filter(|s| !s.is_empty())
            .or_else(|| std::env::var(var).ok())
    };
    let (node, devnet) = (or_env(node, "NODE_URL"), or_env(devnet, "DEVNET_URL"));
    let warp_key = warp_key.filter(|s| !s.is_empty());
    let (Some(node), Some(devnet), Some(warp_key)) = (node, devnet, warp_key) else {
        eprintln!("usage: --node URL --devnet URL --warp-key FILE (or NODE_SIGNER_KEY)");
        std::process::exit(2);
    };
    let start = std::time::Instant::now();
    let mut report = Report::new();
    let written = match scenario::run(&node, &devnet, &warp_key, &mut report).await {
        Ok(w) => w,
        Err(e) => {
            report.print();
            eprintln!("the scenario stopped: {e}");
            std::process::exit(1);
        }
    };
    reads::run(&node, &devnet, &written, &mut report).await;
    let ok = report.print();
    println!("   ({} s)", start.elapsed().as_secs());
    if !ok {
        std::process::exit(1);
    }
}
