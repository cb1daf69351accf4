//! `avax-rpc`: the command line of `avalanche-rpc` (feature `cli`).
//!
//! ```sh
//! avax-rpc decode tx --chain P 0x0000…      # the node's JSON form of a transaction
//! avax-rpc encode tx --chain P '{"unsignedTx": …}'
//! avax-rpc conformance --url http://127.0.0.1:9650
//! ```

mod codec;
mod conformance;

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
    /// Bytes (hex) to the node's JSON form.
    Decode(codec::Decode),
    /// The node's JSON form to bytes (hex).
    Encode(codec::Encode),
    /// Check a node's replies against the spec: exit 1 when they drift from it.
    Conformance(conformance::Conformance),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
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
