//! `avax-rpc`: the command line of `avalanche-rpc` (feature `cli`).
//!
//! ```sh
//! avax-rpc decode tx --chain P 0x0000…      # the node's JSON form of a transaction
//! avax-rpc encode tx --chain P '{"unsignedTx": …}'
//! avax-rpc conformance --url http://127.0.0.1:9650
//! avax-rpc call platform.getBalance --addresses P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u
//! avax-rpc wallet send --chain X --to X-local1… --amount 1.5AVAX --key-file keys.txt
//! avax-rpc export --chain X --out x-blocks.jsonl --decode
//! ```

mod call;
mod codec;
mod conformance;
mod export;
mod units;
mod wallet;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "avax-rpc", version, about = "Tools for the Avalanche node API", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Call any method of the spec, one flag per param (`call --list`, `call METHOD --help`).
    Call(call::Call),
    /// Bytes (hex) to the node's JSON form.
    Decode(codec::Decode),
    /// The node's JSON form to bytes (hex).
    Encode(codec::Encode),
    /// Check a node's replies against the spec: exit 1 when they drift from it.
    ///
    /// Only what the node's version serves is asked for and expected (`info.getNodeVersion`
    /// is asked first; the spec's `since` and `removed` on methods, params and members say the
    /// rest). A method or member that the spec says the node's version no longer has, but that
    /// it still serves, is reported as `removed-but-served`: a notice, or drift with --strict.
    Conformance(conformance::Conformance),
    /// Addresses, balances, sends, exports, imports and staking, with keys read from a file
    /// or an environment variable (never from the command line).
    Wallet(wallet::Wallet),
    /// Every container of a chain's index as JSON Lines, resumable (`--decode` adds the
    /// block or transaction in the node's JSON form).
    Export(export::Export),
}

/// A key given as an argument is refused before anything else, without repeating it: the
/// process list and shell history show arguments to others.
fn key_in_arguments() -> bool {
    std::env::args_os()
        .skip(1)
        .any(|a| a.to_string_lossy().contains("PrivateKey-"))
}

fn main() -> ExitCode {
    if key_in_arguments() {
        eprintln!(
            "avax-rpc: an argument holds a private key (`PrivateKey-…`): keys are never taken on \
             the command line, where the process list and shell history show them; put it in a \
             file (--key-file PATH) or an environment variable (--key-env NAME, \
             AVAX_PRIVATE_KEY by default)"
        );
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Wallet(args) => return wallet::run(args),
        Command::Call(args) => return call::run(args),
        Command::Export(args) => return export::run(args),
        Command::Decode(args) => codec::decode(args),
        Command::Encode(args) => codec::encode(args),
        Command::Conformance(args) => {
            return match conformance::run(args) {
                Ok((text, drift)) => {
                    println!("{text}");
                    if drift {
                        ExitCode::FAILURE
                    } else {
                        ExitCode::SUCCESS
                    }
                }
                Err(e) => {
                    eprintln!("avax-rpc: {e}");
                    ExitCode::from(2)
                }
            };
        }
    };
    match result {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("avax-rpc: {e}");
            ExitCode::FAILURE
        }
    }
}
