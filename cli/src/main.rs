//! `avax-rpc`: the command line of `avalanche-rpc` (its own crate, on the library's public API).
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
mod harvest;
mod secrets;
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
    Wallet(Box<wallet::Wallet>),
    /// Every container of a chain's index as JSON Lines, resumable (`--decode` adds the
    /// block or transaction in the node's JSON form).
    Export(export::Export),
}

fn main() -> ExitCode {
    // A key given as an argument is refused before anything else, without repeating it: the
    // process list and shell history show arguments to others (`secrets.rs`).
    if let Err(e) = secrets::screen(std::env::args_os().skip(1)) {
        secrets::report(&format!("avax-rpc: {e}"));
        return ExitCode::from(2);
    }
    // clap's errors quote the values they refuse: written through the same redaction.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            secrets::report(e.render().to_string().trim_end());
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Wallet(args) => return wallet::run(*args),
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
                    secrets::report(&format!("avax-rpc: {e}"));
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
            secrets::report(&format!("avax-rpc: {e}"));
            ExitCode::FAILURE
        }
    }
}
