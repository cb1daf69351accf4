//! `export`: every container of a chain's index as JSON Lines, resumable.
//!
//! The index is read with `index.getContainerRange`, 1,024 containers a request and a few
//! requests in flight, written in index order, one container a line: the node's JSON of the
//! container (`index`, `id`, `timestamp`, `bytes`, `encoding`) and with `--decode` the
//! block (or transaction) it holds in the node's JSON form, through the codec. Each page is
//! flushed whole; a run that is stopped leaves at most one partial line, which the next run
//! on the same file cuts off before it goes on after the last complete line.

use avalanche_rpc::codec::JsonContext;
use avalanche_rpc::index::{
    GetContainerByIndexParams, GetContainerRangeParams, GetLastAcceptedParams, IndexClient,
};
use avalanche_rpc::info::{GetNetworkIdParams, InfoClient};
use avalanche_rpc::rpc::{ClientError, HttpTransport, Node, RetryPolicy};
use avalanche_rpc::types::Container;
use avalanche_rpc::wire::U64;
use clap::{Args, ValueEnum};
use futures_util::StreamExt;
use serde_json::Value;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The node's largest `getContainerRange`.
const PAGE: u64 = 1024;

/// How each line of an export starts: a container's JSON, its ID first.
const LINE_START: &str = r#"{"id":""#;

/// Which index.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IndexKind {
    /// Accepted blocks (`/ext/index/<chain>/block`): proposer blocks, the chain's inside.
    Block,
    /// Accepted transactions (`/ext/index/X/tx`).
    Tx,
    /// Accepted vertices (`/ext/index/X/vtx`, before the X-chain's linearization).
    Vtx,
}

impl IndexKind {
    fn name(self) -> &'static str {
        match self {
            IndexKind::Block => "block",
            IndexKind::Tx => "tx",
            IndexKind::Vtx => "vtx",
        }
    }
}

#[derive(Args)]
pub struct Export {
    /// The node's base URL.
    #[arg(long, default_value = "http://127.0.0.1:9650")]
    url: String,
    /// The chain whose index is read: `X`, `P`, `C` or a blockchain ID.
    #[arg(long, default_value = "X")]
    chain: String,
    /// Which of its indexes.
    #[arg(long, value_enum, default_value_t = IndexKind::Block)]
    index: IndexKind,
    /// The JSON Lines file. If it holds containers of an earlier run, the export goes on after
    /// the last complete line (a partial last line is cut off).
    #[arg(long, short)]
    out: PathBuf,
    /// Add each container's block (or transaction) in the node's JSON form (`decoded`): the X-
    /// and P-chain block indexes and the X-chain tx index.
    #[arg(long)]
    decode: bool,
    /// Requests in flight (each of 1,024 containers).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=32))]
    jobs: u8,
    /// Stop after this index (default: the last accepted one when the export starts).
    #[arg(long)]
    to: Option<u64>,
    /// Progress as plain lines on standard error even on a terminal (no bar).
    #[arg(long)]
    plain: bool,
}

/// Runs `export`; 0 when every container up to the end was written.
pub fn run(a: Export) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("avax-rpc export: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(export(a)) {
        Ok(summary) => {
            eprintln!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            super::secrets::report(&format!("avax-rpc export: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// How the JSON form of a container's bytes is read.
#[derive(Clone, Copy)]
enum Decoding {
    None,
    XBlock,
    PBlock,
    XTx,
}

async fn export(a: Export) -> Result<String, String> {
    let transport = HttpTransport::builder(&a.url)
        .retry(RetryPolicy::default())
        .build()
        .map_err(|e| format!("--url: {e}"))?;
    let node = Node::new(transport);
    let index = node.index(&a.chain, a.index.name());
    let decoding = match (a.decode, a.chain.as_str(), a.index) {
        (false, _, _) => Decoding::None,
        (true, "X", IndexKind::Block) => Decoding::XBlock,
        (true, "P", IndexKind::Block) => Decoding::PBlock,
        (true, "X", IndexKind::Tx) => Decoding::XTx,
        (true, chain, kind) => {
            return Err(format!(
                "--decode: the {} index of chain {chain} holds nothing this tool decodes (it decodes the X and P block indexes and the X tx index; give the chain as X or P)",
                kind.name()
            ));
        }
    };
    // The file first: one that is not this tool's is refused before anything is asked.
    let resumable = Resumable::open(&a.out)?;
    let network_id = node
        .info()
        .get_network_id(GetNetworkIdParams::new())
        .await
        .map_err(|e| e.to_string())?
        .network_id
        .get();
    let cx = JsonContext::for_network(a.chain.as_str(), network_id);

    // Where the file leaves off, and whether the node agrees with what it holds.
    let start = match &resumable.last {
        Some((at, id)) => {
            let mut params = GetContainerByIndexParams::new();
            params.index = Some(U64(*at));
            let there = index.get_container_by_index(params).await.map_err(|e| {
                format!("checking the file's last container ({at}) on the node: {e}")
            })?;
            if there.id.to_string() != *id {
                return Err(format!(
                    "{}: its last container, {at}, is {id}, but the node's is {}: the file holds another index's containers",
                    a.out.display(),
                    there.id
                ));
            }
            at + 1
        }
        None => 0,
    };
    let mut file = resumable.append(&a.out)?;
    let last = match index.get_last_accepted(GetLastAcceptedParams::new()).await {
        Ok(c) => Some(c.index.get()),
        Err(ClientError::Rpc { error, .. })
            if error.message.contains("no containers have been accepted") =>
        {
            None
        }
        Err(e) => return Err(e.to_string()),
    };
    let end = match (last, a.to) {
        (Some(last), Some(to)) => Some(last.min(to)),
        (last, _) => last,
    };
    let Some(end) = end.filter(|end| *end >= start) else {
        return Ok(format!(
            "nothing to export: {} holds every container up to {}",
            a.out.display(),
            last.map_or("the index's end (it is empty)".into(), |l| l.to_string())
        ));
    };

    let total = end + 1 - start;
    let mut progress = Progress::new(start, total, a.plain);
    let ranges = (start..=end).step_by(PAGE as usize).map(|from| {
        let count = PAGE.min(end + 1 - from);
        let index = &index;
        async move {
            let mut p = GetContainerRangeParams::new(U64(count));
            p.start_index = Some(U64(from));
            index
                .get_container_range(p)
                .await
                .map(|r| (from, count, r.containers))
        }
    });
    let mut pages = futures_util::stream::iter(ranges).buffered(usize::from(a.jobs));
    let started = Instant::now();
    let mut written = 0u64;
    while let Some(page) = pages.next().await {
        let (from, count, containers) = page.map_err(|e| e.to_string())?;
        if containers.len() as u64 != count {
            return Err(format!(
                "the node answered {} containers from {from} where {count} were accepted",
                containers.len()
            ));
        }
        let mut lines = Vec::with_capacity(containers.len() * 512);
        for (k, c) in containers.into_iter().enumerate() {
            let at = from + k as u64;
            if c.index.get() != at {
                return Err(format!(
                    "the node answered container {} where {at} was asked for",
                    c.index.get()
                ));
            }
            line(&mut lines, c, decoding, &cx)?;
        }
        file.write_all(&lines)
            .and_then(|()| file.flush())
            .map_err(|e| format!("{}: {e}", a.out.display()))?;
        written += count;
        progress.set(written);
    }
    progress.finish();
    let secs = started.elapsed().as_secs_f64();
    Ok(format!(
        "exported {written} containers ({start} to {end}) to {} in {secs:.1} s: {:.0} containers/s",
        a.out.display(),
        written as f64 / secs.max(1e-9)
    ))
}

/// One container as a line: the node's JSON, and with `decoding` its content's.
fn line(
    out: &mut Vec<u8>,
    c: Container,
    decoding: Decoding,
    cx: &JsonContext,
) -> Result<(), String> {
    let mut v = serde_json::to_value(&c).map_err(|e| e.to_string())?;
    if !matches!(decoding, Decoding::None) {
        let bytes = c
            .bytes
            .strip_checksum()
            .map_err(|e| format!("container {}: its bytes' checksum: {e}", c.index.get()))?;
        let decoded = match decoding {
            Decoding::XBlock => {
                crate::codec::container_json(bytes, Some(crate::codec::Chain::X), cx)
            }
            Decoding::PBlock => {
                crate::codec::container_json(bytes, Some(crate::codec::Chain::P), cx)
            }
            Decoding::XTx => crate::codec::tx_json(bytes, crate::codec::Chain::X, cx),
            Decoding::None => unreachable!("matched above"),
        }
        .map_err(|e| format!("container {} ({}): {e}", c.index.get(), c.id))?;
        v["decoded"] = decoded;
    }
    serde_json::to_writer(&mut *out, &v).map_err(|e| e.to_string())?;
    out.push(b'\n');
    Ok(())
}

/// The index and ID of the last container a file holds.
type Last = Option<(u64, String)>;

/// A file of an earlier run: where its last complete line ends, and that line's container.
struct Resumable {
    file: File,
    /// The length the file keeps: a partial last line after it is cut off.
    keep: u64,
    last: Last,
}

impl Resumable {
    /// The file (created if missing), and what it holds. Nothing is changed in it yet: a file
    /// that is not this tool's, or not the node's, is refused as it is.
    fn open(path: &Path) -> Result<Self, String> {
        let name = path.display();
        let io = |e: std::io::Error| format!("{name}: {e}");
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        // An empty file holds nothing to lose (one just made, with `mktemp` or `touch`, or
        // left by a run stopped before its first page): it is taken as new.
        if len == 0 {
            return Ok(Self {
                file,
                keep: 0,
                last: None,
            });
        }
        // Every line of this tool is a container's JSON, which starts with its ID.
        let mut head = [0u8; LINE_START.len()];
        let n = file.read(&mut head).map_err(io)?;
        if head[..n] != *LINE_START.as_bytes() {
            return Err(format!(
                "{name}: its first line is not a container's (`{LINE_START}…`); not a file of \
                 this tool, so it is left as it is: name a new file, or one an earlier export \
                 wrote"
            ));
        }
        let keep = line_start(&mut file, len).map_err(io)?;
        if keep == 0 {
            // One line and no newline: a run stopped in its first page leaves part of a line,
            // never a whole JSON value without its newline.
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            if serde_json::from_reader::<_, serde::de::IgnoredAny>(BufReader::new(&mut file))
                .is_ok()
            {
                return Err(format!(
                    "{name}: holds one JSON value and no newline; not a file of this tool (it \
                     ends each line with one), so it is left as it is"
                ));
            }
            return Ok(Self {
                file,
                keep,
                last: None,
            });
        }
        let start = line_start(&mut file, keep - 1).map_err(io)?;
        file.seek(SeekFrom::Start(start)).map_err(io)?;
        let mut text = String::new();
        BufReader::new(&mut file).read_line(&mut text).map_err(io)?;
        let v: Value = serde_json::from_str(&text).map_err(|e| {
            format!("{name}: its last line is not JSON ({e}); not a file of this tool, so it is left as it is")
        })?;
        let index = v["index"].as_str().and_then(|s| s.parse::<u64>().ok());
        match (index, v["id"].as_str()) {
            (Some(index), Some(id)) => Ok(Self {
                file,
                keep,
                last: Some((index, id.to_string())),
            }),
            _ => Err(format!(
                "{name}: its last line has no container `index` and `id`; not a file of this tool, so it is left as it is"
            )),
        }
    }

    /// The file cut after its last complete line, for appending.
    fn append(mut self, path: &Path) -> Result<BufWriter<File>, String> {
        let name = path.display();
        self.file
            .set_len(self.keep)
            .map_err(|e| format!("{name}: cutting off its partial last line: {e}"))?;
        self.file
            .seek(SeekFrom::End(0))
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(BufWriter::with_capacity(1 << 20, self.file))
    }
}

/// Where the line holding the byte before `end` starts: just after the last newline before
/// `end`, or 0. Read backwards a block at a time.
fn line_start(file: &mut File, end: u64) -> std::io::Result<u64> {
    let mut block = vec![0u8; 64 << 10];
    let mut at = end;
    while at > 0 {
        let n = block.len().min(usize::try_from(at).unwrap_or(usize::MAX));
        at -= n as u64;
        file.seek(SeekFrom::Start(at))?;
        file.read_exact(&mut block[..n])?;
        if let Some(i) = block[..n].iter().rposition(|b| *b == b'\n') {
            return Ok(at + i as u64 + 1);
        }
    }
    Ok(0)
}

/// A bar on a terminal (containers/s, ETA), plain lines every two seconds otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    start: u64,
    total: u64,
    began: Instant,
    shown: Instant,
    done: u64,
}

impl Progress {
    fn new(start: u64, total: u64, plain: bool) -> Self {
        use std::io::IsTerminal;
        let bar = (!plain && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new(total);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} containers · {per_sec} · ETA {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        });
        let now = Instant::now();
        if bar.is_none() {
            eprintln!("exporting {total} containers from index {start}");
        }
        Self {
            bar,
            start,
            total,
            began: now,
            shown: now,
            done: 0,
        }
    }

    fn set(&mut self, done: u64) {
        self.done = done;
        match &self.bar {
            Some(bar) => bar.set_position(done),
            None if self.shown.elapsed() >= Duration::from_secs(2) => {
                self.shown = Instant::now();
                let secs = self.began.elapsed().as_secs_f64();
                let rate = done as f64 / secs.max(1e-9);
                let eta = (self.total - done) as f64 / rate.max(1e-9);
                eprintln!(
                    "exported {done} of {} containers (to index {}): {rate:.0}/s, ETA {eta:.0} s",
                    self.total,
                    self.start + done - 1
                );
            }
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
        }
    }
}
