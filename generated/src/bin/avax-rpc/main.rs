//! `avax-rpc`: the command line of `avalanche-rpc` (feature `cli`).
//!
//! ```sh
//! avax-rpc decode tx --chain P 0x0000…      # the node's JSON form of a transaction
//! avax-rpc encode tx --chain P '{"unsignedTx": …}'
//! ```

mod codec;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Decode(args) => codec::decode(args),
        Command::Encode(args) => codec::encode(args),
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
