//! Streams over paged methods: every item of a list the node hands out one page at a time,
//! asked for by the rules the spec declares (`pagination:` of a method).
//!
//! The generated client has one stream per paged method (`get_utxos_stream`,
//! `get_container_range_stream`, …): each implements [`Paged`] for the method's params and
//! calls [`stream`]. The rules, the same for every method:
//!
//! - the page size is the params' own (`limit`, `numToFetch`, `pageSize`) when it is between
//!   1 and the node's maximum, otherwise the maximum;
//! - a page with fewer items than the page size is the last;
//! - the next page starts where the spec says: the result's cursor copied into the params
//!   (`startIndex` ← `endIndex`), or the params' position plus the page's item count;
//! - where items may repeat across pages (a UTXO owned by two of the addresses), a repeat is
//!   dropped: each item comes once;
//! - a node that answers a cursor it answered before ends the stream in
//!   [`ClientError::Paging`] instead of a loop;
//! - errors the spec names as "no more pages" (an index that ends exactly at a page's end, or
//!   holds nothing) end the stream without an error; the node's wording is matched, and also
//!   the `reason` of an invalid-params error where a server (as `avalanche-devnet`) names the
//!   param instead.

use crate::rpc::catalog::MethodInfo;
use crate::rpc::error::ClientError;
pub use futures_core::Stream;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{HashSet, VecDeque};
use std::future::Future;

/// How one method pages, from the spec.
#[derive(Debug)]
#[non_exhaustive]
pub struct Paging {
    /// The method.
    pub method: &'static MethodInfo,
    /// The result member whose list is the page.
    pub items: &'static str,
    /// The node's largest page, the default page size; `None` when one reply holds every
    /// item.
    pub max: Option<u64>,
    /// An item may come again on a later page.
    pub may_repeat: bool,
    /// Error messages (with `%d`-style holes) that mean there is no next page.
    pub ends_with: &'static [&'static str],
}

impl Paging {
    /// A method's paging (for the generated code).
    pub const fn new(
        method: &'static MethodInfo,
        items: &'static str,
        max: Option<u64>,
        may_repeat: bool,
        ends_with: &'static [&'static str],
    ) -> Self {
        Self {
            method,
            items,
            max,
            may_repeat,
            ends_with,
        }
    }
}

/// The params of a paged method: how to set the page size, read a page and seek the next.
/// Generated for every method with `pagination:` in the spec.
pub trait Paged: Clone + Send + 'static {
    /// The method's result: one page.
    type Page: Send;
    /// One item of a page.
    type Item: Serialize + Send;
    /// What says where the next page starts.
    type Cursor: Serialize + Send;
    /// What the stream yields: the codec value an item holds when the spec says it holds one
    /// (`codec:`; a UTXO's bytes read into `avm::Utxo`), else the item.
    type Output: Send;
    /// The method's paging rules.
    const PAGING: Paging;
    /// The page size these params ask for, if they set one.
    fn page_size(&self) -> Option<u64>;
    /// Sets the page size (at most the node's maximum).
    fn set_page_size(&mut self, size: u64);
    /// A page's items, and the cursor of the next page (`None` for a one-page method).
    fn split(&self, page: Self::Page) -> (Vec<Self::Item>, Option<Self::Cursor>);
    /// Moves the params to the page at `cursor`.
    fn seek(&mut self, cursor: Self::Cursor);
    /// What the stream yields for `item` (its codec value, read with these params'
    /// `encoding`: a checksum checked and stripped unless `hexnc`).
    fn output(&self, item: Self::Item) -> Result<Self::Output, crate::codec::ContainerError>;
}

/// The stream of a paged method (`get_utxos_stream`, …): it owns its params and a clone of the
/// client, so it can be stored, returned and moved to a task; it is `Unpin`, so
/// `while let Some(item) = stream.next().await` (with `futures::StreamExt`) needs no pinning.
///
/// ```no_run
/// # async fn f() -> Result<(), Box<dyn std::error::Error>> {
/// use avalanche_rpc::avm::{AvmClient, GetUtxosParams};
/// use avalanche_rpc::codec::avm::Utxo;
/// use avalanche_rpc::rpc::{Node, paging::PagedStream};
///
/// fn utxos_of(node: &Node, address: &str) -> Result<PagedStream<Utxo>, Box<dyn std::error::Error>> {
///     Ok(node.avm("X").get_utxos_stream(GetUtxosParams::new(vec![address.parse()?])))
/// }
/// let node = Node::http("http://127.0.0.1:9650")?;
/// let mut utxos = utxos_of(&node, "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u")?;
/// let first = std::future::poll_fn(|cx| utxos.as_mut().poll_next(cx)).await;
/// # Ok(())
/// # }
/// ```
pub type PagedStream<T> =
    std::pin::Pin<Box<dyn Stream<Item = Result<T, ClientError>> + Send + 'static>>;

/// Every item of a paged method, page after page, by the rules of [`Paged::PAGING`] (see the
/// module). `call` makes one request; the stream ends after the first error it yields.
pub fn stream<P, F, Fut>(mut params: P, call: F) -> PagedStream<P::Output>
where
    P: Paged,
    P::Output: 'static,
    P::Page: 'static,
    F: FnMut(P) -> Fut + Send + 'static,
    Fut: Future<Output = Result<P::Page, ClientError>> + Send + 'static,
{
    let size = P::PAGING.max.map(|max| {
        let size = params
            .page_size()
            .filter(|n| (1..=max).contains(n))
            .unwrap_or(max);
        params.set_page_size(size);
        size
    });
    let state = State {
        params: Some(params),
        call,
        size,
        ready: VecDeque::new(),
        seen: HashSet::new(),
        cursors: HashSet::new(),
        pages: 0,
    };
    Box::pin(futures_util::stream::unfold(state, |mut s| async move {
        loop {
            if let Some(item) = s.ready.pop_front() {
                return Some((Ok(item), s));
            }
            let params = s.params.take()?;
            match s.next_page(params).await {
                Ok(()) => {}
                Err(e) => return Some((Err(e), s)),
            }
        }
    }))
}

/// Every item of a stream, in order, or its first error: for a caller without a stream
/// library (`futures::TryStreamExt::try_collect` does the same).
///
/// ```no_run
/// # async fn f() -> Result<(), Box<dyn std::error::Error>> {
/// use avalanche_rpc::avm::{AvmClient, GetUtxosParams};
/// use avalanche_rpc::rpc::{Node, paging};
/// let node = Node::http("http://127.0.0.1:9650")?;
/// let params = GetUtxosParams::new(vec!["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u".parse()?]);
/// let utxos = paging::collect(node.avm("X").get_utxos_stream(params)).await?;
/// # Ok(())
/// # }
/// ```
pub async fn collect<T, S>(stream: S) -> Result<Vec<T>, ClientError>
where
    S: Stream<Item = Result<T, ClientError>>,
{
    let mut stream = std::pin::pin!(stream);
    let mut out = Vec::new();
    while let Some(item) = std::future::poll_fn(|cx| stream.as_mut().poll_next(cx)).await {
        out.push(item?);
    }
    Ok(out)
}

struct State<P: Paged, F> {
    /// The params of the next page; `None` once the last page is read or an error came.
    params: Option<P>,
    call: F,
    size: Option<u64>,
    /// Items of the page read, not yet yielded.
    ready: VecDeque<P::Output>,
    /// Digests of the items yielded, where items may repeat.
    seen: HashSet<[u8; 16]>,
    /// The cursors asked for, as JSON.
    cursors: HashSet<Vec<u8>>,
    /// Pages read so far (an item that does not read is named by its page and index).
    pages: u64,
}

impl<P, F, Fut> State<P, F>
where
    P: Paged,
    F: FnMut(P) -> Fut + Send,
    Fut: Future<Output = Result<P::Page, ClientError>> + Send,
{
    /// Reads the page at `params` into `ready`, and keeps the params of the next page if
    /// there is one.
    async fn next_page(&mut self, params: P) -> Result<(), ClientError> {
        let paging = &P::PAGING;
        let page = match (self.call)(params.clone()).await {
            Ok(page) => page,
            Err(ClientError::Rpc { error, .. }) if means_the_end(paging, &error) => {
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let (items, cursor) = params.split(page);
        let count = items.len() as u64;
        self.pages += 1;
        for (index, item) in items.into_iter().enumerate() {
            if paging.may_repeat && !self.seen.insert(digest(&item)) {
                continue;
            }
            let output = params.output(item).map_err(|e| ClientError::Decode {
                method: paging.method.name.into(),
                path: format!("{}[{index}]` of page `{}", paging.items, self.pages),
                message: e.to_string(),
            })?;
            self.ready.push_back(output);
        }
        let (Some(size), Some(cursor)) = (self.size, cursor) else {
            return Ok(());
        };
        if count < size {
            return Ok(());
        }
        let text = serde_json::to_vec(&cursor).unwrap_or_default();
        if !self.cursors.insert(text.clone()) {
            return Err(ClientError::Paging {
                method: paging.method.name.into(),
                problem: format!(
                    "the node answered the cursor {} a second time; the next page would repeat one already read",
                    String::from_utf8_lossy(&text)
                ),
            });
        }
        let mut next = params;
        next.seek(cursor);
        self.params = Some(next);
        Ok(())
    }
}

/// Whether a node's error is one of those that end the list: its message, or the `reason` of
/// an invalid-params error as this crate's servers word it (`data: {field, reason}`), is one
/// of the spec's `ends-with` messages.
fn means_the_end(paging: &Paging, error: &crate::rpc::error::RpcError) -> bool {
    let reason = error
        .data
        .as_ref()
        .and_then(|d| d.get("reason"))
        .and_then(|r| r.as_str());
    paging
        .ends_with
        .iter()
        .any(|p| matches(p, &error.message) || reason.is_some_and(|r| matches(p, r)))
}

/// The first 16 bytes of the SHA-256 of an item's JSON: one item, one digest.
fn digest<T: Serialize>(item: &T) -> [u8; 16] {
    let json = serde_json::to_vec(item).unwrap_or_default();
    let hash = Sha256::digest(&json);
    let mut out = [0; 16];
    out.copy_from_slice(&hash[..16]);
    out
}

/// Whether `message` is `pattern` (a Go format string) with each verb (`%d`, `%s`, `%w`,
/// `%v`, `%q`) standing for any text.
fn matches(pattern: &str, message: &str) -> bool {
    let mut pieces = Vec::new();
    let mut piece = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('%', Some('d' | 's' | 'w' | 'v' | 'q')) => {
                chars.next();
                pieces.push(std::mem::take(&mut piece));
            }
            ('%', Some('%')) => {
                chars.next();
                piece.push('%');
            }
            _ => piece.push(c),
        }
    }
    pieces.push(piece);
    glob(&pieces, message)
}

/// Whether `message` is the pieces in order with any text between them.
fn glob(pieces: &[String], message: &str) -> bool {
    let [first, middle @ .., last] = pieces else {
        return pieces.first().is_some_and(|p| *p == message);
    };
    let Some(mut rest) = message.strip_prefix(first.as_str()) else {
        return false;
    };
    for piece in middle {
        match rest.find(piece.as_str()) {
            Some(i) => rest = &rest[i + piece.len()..],
            None => return false,
        }
    }
    rest.ends_with(last.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::avm::{GetUtxosParams, GetUtxosResult};

    /// The hex (with its checksum, as the node's `hex`) of a UTXO whose transaction ID
    /// holds `k`.
    fn utxo_hex(k: usize) -> String {
        use crate::codec::{avax, avm, secp256k1fx};
        let mut id = [0u8; 32];
        id[..8].copy_from_slice(&(k as u64).to_be_bytes());
        let owners = secp256k1fx::OutputOwners::new(0, 0, vec![]);
        let utxo = avm::Utxo::new(
            avax::UtxoId::new(crate::wire::Id::new(id), 0),
            crate::wire::Id::ZERO,
            secp256k1fx::TransferOutput::new(1, owners).into(),
        );
        crate::wire::HexBytes::with_checksum(&utxo.to_bytes().unwrap()).to_hex()
    }

    /// A page of `avm.getUTXOs` holding `n` UTXOs (the `k`-th's transaction ID holding `k`)
    /// and answering `end`.
    fn page(first: usize, n: usize, end: &str) -> GetUtxosResult {
        let utxos: Vec<String> = (first..first + n).map(utxo_hex).collect();
        serde_json::from_value(serde_json::json!({
            "numFetched": n.to_string(),
            "utxos": utxos,
            "endIndex": { "address": "X-local1", "utxo": end },
            "encoding": "hex",
        }))
        .unwrap()
    }

    fn run<F>(pages: F) -> (Result<Vec<String>, ClientError>, Vec<GetUtxosParams>)
    where
        F: Fn(usize) -> GetUtxosResult + Send + Sync + 'static,
    {
        let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let params = GetUtxosParams::new(vec![]);
        let seen = asked.clone();
        let got = futures_executor(collect(stream(params, move |p: GetUtxosParams| {
            let k = {
                let mut asked = seen.lock().unwrap();
                asked.push(p);
                asked.len() - 1
            };
            std::future::ready(Ok(pages(k)))
        })));
        let got = got.map(|v| v.into_iter().map(|u| u.utxo_id.tx_id.to_string()).collect());
        let asked = asked.lock().unwrap().clone();
        (got, asked)
    }

    /// Runs a future that never waits (every call here is ready at once).
    fn futures_executor<F: Future>(f: F) -> F::Output {
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        let mut f = std::pin::pin!(f);
        match f.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(v) => v,
            std::task::Poll::Pending => panic!("the stream waited"),
        }
    }

    #[test]
    fn pages_follow_the_cursor_until_a_short_page() {
        let (got, asked) = run(|k| match k {
            0 => page(0, 1024, "a"),
            1 => page(1024, 1024, "b"),
            _ => page(2048, 3, "c"),
        });
        assert_eq!(got.unwrap().len(), 2051);
        assert_eq!(asked.len(), 3);
        assert!(asked.iter().all(|p| p.limit.map(|l| l.0) == Some(1024)));
        assert_eq!(asked[0].start_index, None);
        assert_eq!(asked[2].start_index.as_ref().unwrap().utxo, "b");
    }

    #[test]
    fn a_repeated_item_comes_once_and_a_repeated_cursor_is_an_error() {
        // The second page holds the first again, and answers its cursor again.
        let (got, asked) = run(|k| match k {
            0 => page(0, 1024, "a"),
            _ => page(0, 1024, "a"),
        });
        let e = got.unwrap_err();
        assert!(matches!(e, ClientError::Paging { .. }), "{e}");
        assert!(
            e.to_string().contains(
                r#"the node answered the cursor {"address":"X-local1","utxo":"a"} a second time"#
            ),
            "{e}"
        );
        assert_eq!(asked.len(), 2, "no third request");
    }

    #[test]
    fn items_are_their_codec_values_and_one_that_does_not_read_is_named() {
        let (got, _) = run(|_| page(7, 2, "a"));
        let mut id = [0u8; 32];
        id[7] = 7;
        assert_eq!(got.unwrap()[0], crate::wire::Id::new(id).to_string());
        // The second page's third UTXO has a wrong checksum.
        let (got, asked) = run(|k| {
            let mut p = page(k * 1024, if k == 0 { 1024 } else { 5 }, "a");
            if k == 1 {
                let bad = p.utxos[2].to_hex().replace("0x", "0x00");
                p.utxos[2] = bad.parse().unwrap();
            }
            p
        });
        let e = got.unwrap_err();
        assert!(matches!(e, ClientError::Decode { .. }), "{e}");
        assert!(
            e.to_string()
                .starts_with("avm.getUTXOs: cannot decode the result at `utxos[2]` of page `2`: "),
            "{e}"
        );
        assert_eq!(asked.len(), 2);
    }

    #[test]
    fn error_patterns_match_their_messages_only() {
        let p = "start index (%d) > last accepted index (%d)";
        assert!(matches(
            p,
            "start index (2048) > last accepted index (2047)"
        ));
        assert!(!matches(
            p,
            "start index (2048) < last accepted index (2047)"
        ));
        assert!(!matches(p, "the start index (1) > last accepted index (0)"));
        assert!(matches(
            "no containers have been accepted",
            "no containers have been accepted"
        ));
        assert!(!matches(
            "no containers have been accepted",
            "no containers have been accepted yet"
        ));
        assert!(matches("a %s", "a "));
        assert!(matches("100%% of %d", "100% of 7"));
        assert!(!matches("ab%sba", "aba"));
    }
}
