//! `admin.*` at `/ext/admin`, served only with `--api-admin-enabled` (the node's flag, off by
//! default). Errors are -32000 with the node's words (`api/admin/service.go`).
//!
//! What each does here: `alias` and `aliasChain` add paths the devnet answers at (and a chain
//! alias usable wherever one is: `info.getBlockchainID`, `platform.getBlockchainStatus`, …);
//! `getChainAliases` lists them; `getLoggerLevel` and `setLoggerLevel` read and change the
//! devnet's loggers (`crate::logs`); `getConfig` gives its start configuration; `dbGet` reads
//! the store's `meta` table (a key is a table key's UTF-8 bytes, in hex); `loadVMs` loads
//! nothing (the devnet has no plugin directory, so no VM is ever new). The profiles and
//! `stacktrace` are refused: they are Go runtime dumps (`runtime/pprof`, every goroutine's
//! stack) and the devnet is no Go program.

use crate::logs::Level;
use crate::serving::Serving;
use crate::store;
use avalanche_rpc::admin::*;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::wire::Id;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The node's longest alias (`maxAliasLength`).
const MAX_ALIAS: usize = 512;

pub struct Admin(pub Arc<Serving>);

impl Admin {
    fn devnet(&self) -> Result<&Arc<crate::devnet::Devnet>, RpcError> {
        self.0
            .devnet()
            .ok_or_else(|| RpcError::server("the devnet is still starting"))
    }

    fn levels(&self, names: &[String]) -> Result<BTreeMap<String, LoggerLevels>, RpcError> {
        names
            .iter()
            .map(|n| {
                let l = self.0.logs.get(n).map_err(RpcError::server)?;
                Ok((n.clone(), LoggerLevels::new(l.log.name(), l.display.name())))
            })
            .collect()
    }

    fn names(&self, logger: Option<String>) -> Vec<String> {
        match logger.filter(|n| !n.is_empty()) {
            Some(n) => vec![n],
            None => self.0.logs.names(),
        }
    }
}

/// Why a profile is not written.
fn no_profile(what: &str) -> RpcError {
    RpcError::server(format!(
        "the devnet does not write {what}: it is a Go runtime profile (runtime/pprof) and the \
         devnet is not a Go program; profile the process with a sampling profiler (perf) instead"
    ))
}

/// A level given by name, in any letter case, as the node reads it.
fn level(given: Option<LogLevel>) -> Result<Option<Level>, RpcError> {
    given
        .map(|l| Level::parse(l.as_str()).map_err(RpcError::server))
        .transpose()
}

/// The paths the devnet always serves (after `/ext/`), which an alias may not take, as the
/// node refuses an alias that would add a route it has (`failed to create endpoint`).
fn served(devnet: Option<&crate::devnet::Devnet>) -> Vec<String> {
    let mut v: Vec<String> = [
        "info",
        "health",
        "admin",
        "devnet",
        "vm/avm",
        "bc/X",
        "bc/P",
        "bc/C",
        "bc/platform",
        "bc/X/wallet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Some(d) = devnet {
        v.push(format!("bc/{}", d.genesis.x_chain_id));
        v.push(format!("bc/{}", d.genesis.c_chain_id));
    }
    v
}

/// The node's own API aliases (`genesis/aliases.go`), reserved from the start.
const RESERVED: [&str; 12] = [
    "X",
    "avm",
    "bc/avm",
    "P",
    "platform",
    "bc/P",
    "bc/platform",
    "C",
    "evm",
    "bc/evm",
    "bc/X",
    "bc/C",
];

impl AdminServer for Admin {
    async fn alias(&self, p: AliasParams) -> Result<AliasResult, RpcError> {
        if p.alias.len() > MAX_ALIAS {
            return Err(RpcError::server("alias length is too long"));
        }
        let mut aliases = self.0.aliases.write().unwrap_or_else(|e| e.into_inner());
        let taken = RESERVED.contains(&p.alias.as_str())
            || aliases.iter().any(|(a, _)| *a == p.alias)
            || chain_alias_taken(self.0.devnet().map(|d| &**d), &p.alias);
        if taken {
            return Err(RpcError::server(format!(
                "route is either already aliased or already maps to a handle: /ext/{}",
                p.alias
            )));
        }
        if served(self.0.devnet().map(|d| &**d)).contains(&p.alias) {
            return Err(RpcError::server(format!(
                "failed to create endpoint as /ext/{} already exists",
                p.alias
            )));
        }
        aliases.push((p.alias, p.endpoint));
        Ok(AliasResult::new())
    }

    async fn alias_chain(&self, p: AliasChainParams) -> Result<AliasChainResult, RpcError> {
        if p.alias.len() > MAX_ALIAS {
            return Err(RpcError::server("alias length is too long"));
        }
        let devnet = self.devnet()?;
        let letter = crate::devnet::chain_letter(devnet, &p.chain)
            .ok_or_else(|| RpcError::server(format!("there is no ID with alias: {}", p.chain)))?;
        if crate::devnet::chain_letter(devnet, &p.alias).is_some() {
            return Err(RpcError::server(format!(
                "alias already mapped to an ID: {}",
                p.alias
            )));
        }
        devnet
            .chain_aliases
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push((p.alias, letter));
        Ok(AliasChainResult::new())
    }

    async fn get_chain_aliases(
        &self,
        p: GetChainAliasesParams,
    ) -> Result<GetChainAliasesResult, RpcError> {
        let devnet = self.devnet()?;
        let id = p.chain.to_string();
        let Some(letter) = ['X', 'P', 'C']
            .into_iter()
            .find(|&l| crate::devnet::letter_id(devnet, l).is_some_and(|c| c.to_string() == id))
        else {
            // As the node: an ID no chain has has no aliases (`null`).
            return Ok(GetChainAliasesResult::new());
        };
        // The node's order: the genesis aliases, the ID (given when the chain was created),
        // then those of admin.aliasChain.
        let mut aliases: Vec<String> = avalanche_rpc::network::CHAIN_ALIASES
            .iter()
            .find(|(l, _)| *l == letter)
            .map(|(_, a)| a.iter().map(|s| s.to_string()).collect())
            .unwrap_or_default();
        aliases.push(id);
        let added = devnet
            .chain_aliases
            .read()
            .unwrap_or_else(|e| e.into_inner());
        aliases.extend(
            added
                .iter()
                .filter(|(_, l)| *l == letter)
                .map(|(a, _)| a.clone()),
        );
        Ok(GetChainAliasesResult::new().with_aliases(aliases))
    }

    async fn get_config(&self, _: GetConfigParams) -> Result<GetConfigResult, RpcError> {
        Ok(self.0.admin.clone().unwrap_or_default())
    }

    async fn get_logger_level(
        &self,
        p: GetLoggerLevelParams,
    ) -> Result<GetLoggerLevelResult, RpcError> {
        let names = self.names(p.logger_name);
        Ok(GetLoggerLevelResult::new(self.levels(&names)?))
    }

    async fn set_logger_level(
        &self,
        p: SetLoggerLevelParams,
    ) -> Result<SetLoggerLevelResult, RpcError> {
        let log = level(p.log_level)?;
        let display = level(p.display_level)?;
        if log.is_none() && display.is_none() {
            return Err(RpcError::server(
                "need to specify either displayLevel or logLevel",
            ));
        }
        let names = self.names(p.logger_name);
        for n in &names {
            self.0.logs.set(n, log, display).map_err(RpcError::server)?;
        }
        Ok(SetLoggerLevelResult::new(self.levels(&names)?))
    }

    async fn load_vms(&self, _: LoadVmsParams) -> Result<LoadVmsResult, RpcError> {
        Ok(LoadVmsResult::new(BTreeMap::<Id, Vec<String>>::new()))
    }

    async fn db_get(&self, p: DbGetParams) -> Result<DbGetResult, RpcError> {
        let hex = p
            .key
            .strip_prefix("0x")
            .ok_or_else(|| RpcError::server(format!("key: {:?} is not 0x-prefixed hex", p.key)))?;
        let key = decode_hex(hex)
            .ok_or_else(|| RpcError::server(format!("key: {:?} is not 0x-prefixed hex", p.key)))?;
        let devnet = self.devnet()?;
        let value = match std::str::from_utf8(&key) {
            Ok(name) => {
                let r = devnet.engine.store.read()?;
                let t = r
                    .open_table(store::META)
                    .map_err(|e| RpcError::server(e.to_string()))?;
                redb::ReadableTable::get(&t, name)
                    .map_err(|e| RpcError::server(e.to_string()))?
                    .map(|v| v.value().to_vec())
            }
            Err(_) => None,
        };
        Ok(match value {
            Some(v) => DbGetResult::new(format!("0x{}", encode_hex(&v)), 0u32),
            // The node's rpcdb code for a missing key (ERROR_NOT_FOUND), no error.
            None => DbGetResult::new("", 2u32),
        })
    }

    async fn lock_profile(&self, _: LockProfileParams) -> Result<LockProfileResult, RpcError> {
        Err(no_profile("lock.profile"))
    }

    async fn memory_profile(
        &self,
        _: MemoryProfileParams,
    ) -> Result<MemoryProfileResult, RpcError> {
        Err(no_profile("mem.profile"))
    }

    async fn start_cpu_profiler(
        &self,
        _: StartCpuProfilerParams,
    ) -> Result<StartCpuProfilerResult, RpcError> {
        Err(no_profile("cpu.profile"))
    }

    async fn stop_cpu_profiler(
        &self,
        _: StopCpuProfilerParams,
    ) -> Result<StopCpuProfilerResult, RpcError> {
        Err(no_profile("cpu.profile"))
    }

    async fn stacktrace(&self, _: StacktraceParams) -> Result<StacktraceResult, RpcError> {
        Err(RpcError::server(
            "the devnet does not write stacktrace.txt: it is every goroutine's stack, a Go \
             runtime dump, and the devnet is not a Go program",
        ))
    }
}

/// Whether `alias` is a chain alias path (`bc/<chain alias>`) already.
fn chain_alias_taken(devnet: Option<&crate::devnet::Devnet>, alias: &str) -> bool {
    match (devnet, alias.strip_prefix("bc/")) {
        (Some(d), Some(chain)) => crate::devnet::chain_letter(d, chain).is_some(),
        _ => false,
    }
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

fn encode_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
