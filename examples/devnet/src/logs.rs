//! The devnet's loggers, as the node's (`utils/logging`): each named logger has a log level
//! (what it writes to its file, `<--log-dir>/<name>.log`, when a log directory is given) and a
//! display level (what it prints to standard output). `admin.setLoggerLevel` changes them
//! while the devnet runs; `--log-level` and `--log-display-level` set them at start.
//!
//! The loggers: `main` (start-up, the block builder's failures) and `http` (each HTTP request,
//! at DEBUG: its method and path).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Mutex, RwLock};

/// A level, from the quietest to the most verbose (the node's order: `OFF` < `FATAL` < `ERROR`
/// < `WARN` < `INFO` < `TRACE` < `DEBUG` < `VERBO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Off,
    Fatal,
    Error,
    Warn,
    Info,
    Trace,
    Debug,
    Verbo,
}

impl Level {
    const ALL: [Level; 8] = [
        Level::Off,
        Level::Fatal,
        Level::Error,
        Level::Warn,
        Level::Info,
        Level::Trace,
        Level::Debug,
        Level::Verbo,
    ];

    /// The node's name for it, upper-case.
    pub fn name(self) -> &'static str {
        match self {
            Level::Off => "OFF",
            Level::Fatal => "FATAL",
            Level::Error => "ERROR",
            Level::Warn => "WARN",
            Level::Info => "INFO",
            Level::Trace => "TRACE",
            Level::Debug => "DEBUG",
            Level::Verbo => "VERBO",
        }
    }

    /// A level's name in any letter case, as the node reads it (`logging.ToLevel`); the error
    /// is the node's text.
    pub fn parse(text: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| format!("unknown log level: {text:?}"))
    }
}

/// The levels of one logger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Levels {
    pub log: Level,
    pub display: Level,
}

/// Every logger of the devnet.
pub struct Logs {
    levels: RwLock<BTreeMap<String, Levels>>,
    dir: Option<PathBuf>,
    /// Lines printed (standard output) or written to files go through this lock, one at a time.
    out: Mutex<Sink>,
}

/// Where printed lines go: standard output, or a buffer (tests).
enum Sink {
    Stdout,
    Buffer(Vec<String>),
}

/// The logger names the devnet has.
pub const NAMES: [&str; 2] = ["http", "main"];

impl Logs {
    /// Every logger at these levels; files in `dir` when given.
    pub fn new(levels: Levels, dir: Option<PathBuf>) -> Logs {
        Logs {
            levels: RwLock::new(NAMES.iter().map(|n| (n.to_string(), levels)).collect()),
            dir,
            out: Mutex::new(Sink::Stdout),
        }
    }

    /// As [`Logs::new`], keeping printed lines in memory (see [`Logs::printed`]).
    pub fn captured(levels: Levels) -> Logs {
        let logs = Logs::new(levels, None);
        *logs.out.lock().unwrap_or_else(|e| e.into_inner()) = Sink::Buffer(Vec::new());
        logs
    }

    /// The lines printed so far, for a [`Logs::captured`].
    pub fn printed(&self) -> Vec<String> {
        match &*self.out.lock().unwrap_or_else(|e| e.into_inner()) {
            Sink::Stdout => Vec::new(),
            Sink::Buffer(lines) => lines.clone(),
        }
    }

    /// The names of the loggers, sorted.
    pub fn names(&self) -> Vec<String> {
        self.read().keys().cloned().collect()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Levels>> {
        self.levels.read().unwrap_or_else(|e| e.into_inner())
    }

    /// One logger's levels; the node's error when there is no such logger.
    pub fn get(&self, name: &str) -> Result<Levels, String> {
        self.read()
            .get(name)
            .copied()
            .ok_or_else(|| format!("logger with name {name:?} not found"))
    }

    /// Sets one logger's log level, display level, or both.
    pub fn set(
        &self,
        name: &str,
        log: Option<Level>,
        display: Option<Level>,
    ) -> Result<(), String> {
        let mut all = self.levels.write().unwrap_or_else(|e| e.into_inner());
        let levels = all
            .get_mut(name)
            .ok_or_else(|| format!("logger with name {name:?} not found"))?;
        if let Some(l) = log {
            levels.log = l;
        }
        if let Some(d) = display {
            levels.display = d;
        }
        Ok(())
    }

    /// Whether `logger` would print or write a line of `level` now.
    pub fn enabled(&self, logger: &str, level: Level) -> bool {
        self.get(logger).is_ok_and(|l| {
            (level <= l.display && l.display != Level::Off)
                || (self.dir.is_some() && level <= l.log && l.log != Level::Off)
        })
    }

    /// Logs `text` on `logger` at `level`: printed when the display level allows it, written
    /// to the logger's file when its log level does.
    pub fn log(&self, logger: &str, level: Level, text: &str) {
        let Ok(levels) = self.get(logger) else {
            return;
        };
        if level == Level::Off {
            return;
        }
        let line = format!(
            "[{}] {} {logger} {text}",
            crate::clock::Clock::default().now(),
            level.name()
        );
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if level <= levels.display {
            match &mut *out {
                Sink::Stdout => println!("{line}"),
                Sink::Buffer(lines) => lines.push(line.clone()),
            }
        }
        if let Some(dir) = &self.dir
            && level <= levels.log
        {
            let path = dir.join(format!("{logger}.log"));
            let written = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .and_then(|mut f| writeln!(f, "{line}"));
            if let Err(e) = written {
                eprintln!("avalanche-devnet: cannot write {}: {e}", path.display());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_in_any_case_and_filter() {
        assert_eq!(Level::parse("debug"), Ok(Level::Debug));
        assert_eq!(Level::parse("VERBO"), Ok(Level::Verbo));
        assert_eq!(
            Level::parse("loud"),
            Err("unknown log level: \"loud\"".to_string())
        );
        let info = Levels {
            log: Level::Info,
            display: Level::Info,
        };
        let logs = Logs::captured(info);
        logs.log("http", Level::Debug, "hidden");
        logs.log("http", Level::Info, "shown");
        logs.set("http", None, Some(Level::Debug)).unwrap();
        logs.log("http", Level::Debug, "shown too");
        logs.log("main", Level::Debug, "main stays at INFO");
        let printed = logs.printed();
        assert_eq!(printed.len(), 2, "{printed:?}");
        assert!(printed[0].ends_with("INFO http shown"), "{printed:?}");
        assert!(printed[1].ends_with("DEBUG http shown too"), "{printed:?}");
        assert_eq!(
            logs.set("nope", Some(Level::Off), None),
            Err("logger with name \"nope\" not found".to_string())
        );
        assert_eq!(logs.get("http").unwrap().log, Level::Info);
    }
}
