//! Dispatch: one body (a request or a batch) to its reply text, through a [`Dispatch`], and
//! a handler's result to its encoded reply.

use super::config::ServerConfig;
use super::write::buffers;
pub use super::write::buffers::SizeHint;
use super::write::{json_write, plain_request};
use crate::rpc::MethodInfo;
use crate::rpc::envelope::{self, Envelope};
use crate::rpc::error::{RpcError, codes, strip_position};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::de::StrRead;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A handler's outcome, encoded.
pub type Reply = Result<Encoded, RpcError>;

/// A handler's result, encoded: the start of its reply (`{"jsonrpc":"2.0","result":` and the
/// result), in the one buffer the whole reply is written to and sent from.
#[derive(Debug)]
pub struct Encoded(Vec<u8>);

/// The reply's text before the result.
const RESULT_PREFIX: &[u8] = br#"{"jsonrpc":"2.0","result":"#;

/// Room left after the result for the rest of the reply: `,"id":`, an `id` of up to
/// [`MAX_ID_BYTES`], `}` and the closing newline.
const AFTER_RESULT: usize = MAX_ID_BYTES + 16;

/// Routes a wire method name to a handler. Generated per interface (`InfoService`, …).
pub trait Dispatch: Send + Sync + 'static {
    /// The handler's future for `method`, or `None` if this interface has no such method.
    fn dispatch<'a>(&'a self, method: &str, params: Params<'a>) -> Option<BoxFuture<'a, Reply>>;
}

/// A request's params: the JSON text of the object, borrowed from the request, or nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct Params<'a>(Option<&'a str>);

impl<'a> Params<'a> {
    /// Params from the JSON text of an object (or nothing).
    pub fn new(object: Option<&'a str>) -> Self {
        Self(object)
    }

    /// Decodes the params into `T`; absent params decode as `{}`. A failure is -32602
    /// naming the field path and the problem.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, RpcError> {
        let text = match self.0 {
            None => "{}",
            Some(raw) if raw.starts_with('[') => {
                match serde_json::from_str::<Vec<&RawValue>>(raw) {
                    Ok(items) if items.is_empty() => "{}",
                    Ok(items) if items.len() == 1 && items[0].get().starts_with('{') => {
                        items[0].get()
                    }
                    _ => {
                        return Err(RpcError::invalid_params(
                            "",
                            "`params` must be an object, or an array holding one object",
                        ));
                    }
                }
            }
            Some(raw) => raw,
        };
        Self::decode(text)
    }

    /// Decodes params that travel as an array in the declared order of `method`'s params
    /// (spec `params: positional`, the `eth_…` calls): element `k` is the param `k`, `null`
    /// or a missing tail is a param left out. An object naming the params is read too. More
    /// elements than params is -32602 saying how many the method takes.
    pub fn parse_positional<T: DeserializeOwned>(
        &self,
        method: &MethodInfo,
    ) -> Result<T, RpcError> {
        let Some(raw) = self.0.filter(|raw| raw.starts_with('[')) else {
            return Self::decode(self.0.unwrap_or("{}"));
        };
        let items: Vec<&RawValue> = serde_json::from_str(raw)
            .map_err(|e| RpcError::invalid_params("", strip_position(e.to_string())))?;
        if items.len() > method.params.len() {
            return Err(RpcError::invalid_params(
                "",
                format!(
                    "`{}` takes at most {} positional params ({}), got {}",
                    method.name,
                    method.params.len(),
                    method
                        .params
                        .iter()
                        .map(|p| p.name)
                        .collect::<Vec<_>>()
                        .join(", "),
                    items.len()
                ),
            ));
        }
        let mut object = serde_json::Map::new();
        for (param, item) in method.params.iter().zip(items) {
            if item.get() != "null" {
                let value: serde_json::Value = serde_json::from_str(item.get())
                    .map_err(|e| RpcError::invalid_params(param.name, e.to_string()))?;
                object.insert(param.name.to_string(), value);
            }
        }
        let text = serde_json::Value::Object(object).to_string();
        Self::decode(&text)
    }

    fn decode<T: DeserializeOwned>(text: &str) -> Result<T, RpcError> {
        // One typed pass; only params that fail are read again to name the path.
        serde_json::from_str(text).or_else(|_| {
            serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(text)).map_err(
                |e| {
                    let path = e.path().to_string();
                    let field = if path == "." { "" } else { path.as_str() };
                    RpcError::invalid_params(field, strip_position(e.inner().to_string()))
                },
            )
        })
    }
}

/// Encodes a handler's result.
pub fn reply<R: Serialize>(result: Result<R, RpcError>) -> Reply {
    static UNKNOWN: SizeHint = SizeHint::new();
    reply_sized(&UNKNOWN, result)
}

/// Encodes a handler's result into a buffer sized by `hint` (what this method's last reply
/// needed), which then learns this reply's size. The generated dispatchers keep one hint per
/// method.
pub fn reply_sized<R: Serialize>(hint: &SizeHint, result: Result<R, RpcError>) -> Reply {
    let value = result?;
    let mut out = buffers::take(hint.capacity().saturating_add(AFTER_RESULT));
    out.extend_from_slice(RESULT_PREFIX);
    hint.in_order(|| json_write::write(&mut out, &value))
        .map_err(|e| RpcError::internal(format!("cannot encode the result: {e}")))?;
    hint.record(out.len());
    Ok(Encoded(out))
}

/// Longest `id` accepted, in bytes of its JSON text; a longer one is -32600, so a reply never
/// echoes more than this of it.
pub const MAX_ID_BYTES: usize = 128;

/// Handles one body (a request or a batch) and returns the reply text, or `None` when
/// nothing is to be sent (notifications).
pub async fn handle(dispatch: &dyn Dispatch, body: &[u8], config: &ServerConfig) -> Option<String> {
    let text = handle_bytes(dispatch, body, config).await?;
    // Every reply is written from `str`s and serde_json, so it is UTF-8.
    Some(
        String::from_utf8(text)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    )
}

/// As [`handle`], the reply's UTF-8 bytes, in the buffer they were written to.
pub(super) async fn handle_bytes(
    dispatch: &dyn Dispatch,
    body: &[u8],
    config: &ServerConfig,
) -> Option<Vec<u8>> {
    // The whole body, once: serde_json does not check the strings it skips (unknown members).
    let body = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(e) => {
            let err = RpcError::parse_error(format!(
                "the body is not valid UTF-8 at byte {}",
                e.valid_up_to()
            ));
            return Some(error_reply("null", &err));
        }
    };
    let first = body
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    if first != Some(b'[') {
        return handle_one(dispatch, body).await;
    }
    // Each request borrowed from the body, not copied.
    let items: Vec<&RawValue> = match serde_json::from_str(body) {
        Ok(items) => items,
        Err(e) => {
            return Some(error_reply(
                "null",
                &RpcError::parse_error(strip_position(e.to_string())),
            ));
        }
    };
    if items.is_empty() {
        return Some(error_reply(
            "null",
            &RpcError::invalid_request("an empty batch"),
        ));
    }
    if items.len() > config.max_batch_len {
        let err = RpcError::invalid_request(format!(
            "a batch of {} requests is over the limit of {}",
            items.len(),
            config.max_batch_len
        ));
        return Some(error_reply("null", &err));
    }
    let limit = config.max_batch_reply_bytes;
    // Room for every reply: the limit, and an error reply for each request past it.
    let ceiling = limit.saturating_add(items.len().saturating_mul(ERROR_REPLY_ROOM));
    let mut text = Vec::with_capacity(items.len().saturating_mul(128).min(ceiling));
    text.push(b'[');
    let mut full = false;
    for item in items {
        let item = item.get();
        let reply = if full {
            // Past the limit: read for its id, not run.
            refuse(item, &batch_full(limit, false))
        } else {
            match handle_one(dispatch, item).await {
                // With a `,` before it and the closing `]`.
                Some(r) if text.len() + r.len() + 2 <= limit => Some(r),
                Some(_) => {
                    full = true;
                    refuse(item, &batch_full(limit, true))
                }
                None => None,
            }
        };
        if let Some(r) = reply {
            if text.len() > 1 {
                append(&mut text, b",", ceiling);
            }
            append(&mut text, &r, ceiling);
        }
    }
    if text.len() == 1 {
        return None;
    }
    text.push(b']');
    Some(text)
}

/// Bytes allowed for the capacity of a batch's reply for each error reply past the limit (one
/// is about 300 bytes, with an `id` of [`MAX_ID_BYTES`]).
const ERROR_REPLY_ROOM: usize = 512;

/// Appends `piece` to `text`, growing it by doubling but not past `ceiling` while the text
/// fits under it, so that a reply of nearly the limit does not hold twice its size.
fn append(text: &mut Vec<u8>, piece: &[u8], ceiling: usize) {
    let needed = text.len() + piece.len();
    if needed > text.capacity() {
        if needed <= ceiling {
            let target = text.capacity().saturating_mul(2).clamp(needed, ceiling);
            text.reserve_exact(target - text.len());
        } else {
            text.reserve(piece.len());
        }
    }
    text.extend_from_slice(piece);
}

/// The error for a request of a batch whose replies reached `limit`: whether this one `ran`
/// (its reply is the one that did not fit) or was not run.
fn batch_full(limit: usize, ran: bool) -> RpcError {
    let what = if ran {
        "this call ran, but its reply did not fit"
    } else {
        "this call was not run"
    };
    RpcError::new(
        codes::RESPONSE_TOO_LARGE,
        format!(
            "the batch's replies reached the limit of {limit} bytes; {what}: send it again on its \
             own or in a smaller batch"
        ),
    )
    .with_data(serde_json::json!({ "limit": limit, "ran": ran }))
}

async fn handle_one(dispatch: &dyn Dispatch, body: &str) -> Option<Vec<u8>> {
    let call = match read_call(body) {
        Ok(call) => call,
        Err(reply) => return Some(reply),
    };
    let outcome = run(dispatch, &call).await;
    answer(&call, outcome)
}

/// The reply to a request that is not run, with `error` if it is a valid request: the same
/// reply a malformed one always gets, none for a notification.
fn refuse(body: &str, error: &RpcError) -> Option<Vec<u8>> {
    match read_call(body) {
        Ok(call) => {
            let refusal = call.method.as_ref().err().unwrap_or(error).clone();
            answer(&call, Err(refusal))
        }
        Err(reply) => Some(reply),
    }
}

/// A request's envelope, read and checked.
struct Call<'a> {
    /// The `id` as sent; `None` for a notification.
    id: Option<&'a str>,
    /// The `id` to answer with.
    reply_id: &'a str,
    /// The method's name, or why the request is not valid (`jsonrpc` or `method`).
    method: Result<Cow<'a, str>, RpcError>,
    /// The JSON text of `params`, if given.
    params: Option<&'a str>,
}

/// Reads a request's members and checks its `id`; the error reply if it has none to answer.
fn read_call(body: &str) -> Result<Call<'_>, Vec<u8>> {
    // The usual request in one pass; anything else by serde_json, which says what is wrong.
    if let Some(plain) = plain_request::read(body, MAX_ID_BYTES) {
        return Ok(Call {
            id: plain.id,
            reply_id: plain.id.unwrap_or("null"),
            method: Ok(Cow::Borrowed(plain.method)),
            params: plain.params,
        });
    }
    read_any_call(body)
}

/// As [`read_call`], for any request, with serde_json.
fn read_any_call(body: &str) -> Result<Call<'_>, Vec<u8>> {
    // A member given twice counts with its last value.
    let [jsonrpc, method, params, id] =
        match envelope::read(StrRead::new(body), ["jsonrpc", "method", "params", "id"]) {
            Ok(Envelope::Object(members)) => members.values,
            Ok(Envelope::Other(_)) => {
                return Err(error_reply(
                    "null",
                    &RpcError::invalid_request("a request is a JSON object"),
                ));
            }
            Err(e) => {
                return Err(error_reply(
                    "null",
                    &RpcError::parse_error(strip_position(e.to_string())),
                ));
            }
        };
    let id = id.map(RawValue::get);
    let reply_id = match id {
        None => "null",
        Some(raw) if raw.len() > MAX_ID_BYTES => {
            let err = RpcError::invalid_request(format!(
                "`id` is {} bytes long; the limit is {MAX_ID_BYTES}",
                raw.len()
            ));
            return Err(error_reply("null", &err));
        }
        Some(raw)
            if raw.starts_with(['"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
                || raw == "null" =>
        {
            raw
        }
        Some(_) => {
            let err = RpcError::invalid_request("`id` must be a string, a number or null");
            return Err(error_reply("null", &err));
        }
    };
    Ok(Call {
        id,
        reply_id,
        method: check(jsonrpc, method),
        params: params.map(RawValue::get),
    })
}

/// The reply to `call` with its `outcome`; `None` when nothing is to be sent.
fn answer(call: &Call<'_>, outcome: Reply) -> Option<Vec<u8>> {
    let reply_id = call.reply_id;
    match (call.id, outcome) {
        (None, Ok(_)) => None,
        // A notification gets no reply, unless the request itself was malformed.
        (None, Err(e)) if e.code != codes::INVALID_REQUEST => None,
        (_, Ok(Encoded(mut text))) => {
            // The rest of the reply after the result, in the room left for it.
            text.extend_from_slice(br#","id":"#);
            text.extend_from_slice(reply_id.as_bytes());
            text.push(b'}');
            Some(text)
        }
        (_, Err(e)) => Some(error_reply(reply_id, &e)),
    }
}

/// Checks `jsonrpc` and `method`; the method's name.
fn check<'a>(
    jsonrpc: Option<&RawValue>,
    method: Option<&'a RawValue>,
) -> Result<Cow<'a, str>, RpcError> {
    let is_two = |raw: &RawValue| {
        raw.get() == r#""2.0""#
            || serde_json::from_str::<String>(raw.get()).is_ok_and(|v| v == "2.0")
    };
    if !jsonrpc.is_some_and(is_two) {
        return Err(RpcError::invalid_request(r#"`jsonrpc` must be "2.0""#));
    }
    match method.map(RawValue::get) {
        None => Err(RpcError::invalid_request("`method` is missing")),
        Some(text) => match serde_json::from_str::<&str>(text) {
            Ok(m) => Ok(m.into()),
            // Escapes in the name need an owned copy.
            Err(_) => match serde_json::from_str::<String>(text) {
                Ok(m) => Ok(m.into()),
                Err(_) => Err(RpcError::invalid_request("`method` must be a string")),
            },
        },
    }
}

async fn run(dispatch: &dyn Dispatch, call: &Call<'_>) -> Reply {
    let method = call.method.as_ref().map_err(Clone::clone)?;
    let params = match call.params {
        None | Some("null") => Params(None),
        // An array is read by the method: by-name methods take `[]` or `[{…}]`, positional
        // ones (`eth_…`) their params in order.
        Some(raw) if raw.starts_with('{') || raw.starts_with('[') => Params(Some(raw)),
        Some(_) => {
            return Err(RpcError::invalid_params(
                "",
                "`params` must be an object, or an array holding one object",
            ));
        }
    };
    match dispatch.dispatch(method, params) {
        Some(future) => CatchUnwind(future).await,
        None => Err(RpcError::method_not_found(method)),
    }
}

pub(super) fn error_reply(id: &str, error: &RpcError) -> Vec<u8> {
    let mut text = Vec::with_capacity(256);
    text.extend_from_slice(br#"{"jsonrpc":"2.0","error":"#);
    if serde_json::to_writer(&mut text, error).is_err() {
        text.truncate(br#"{"jsonrpc":"2.0","error":"#.len());
        text.extend_from_slice(br#"{"code":-32603,"message":"internal error","data":null}"#);
    }
    text.extend_from_slice(br#","id":"#);
    text.extend_from_slice(id.as_bytes());
    text.push(b'}');
    text
}

/// Turns a handler's panic into -32603, so one bad handler cannot drop connections.
struct CatchUnwind<'a>(BoxFuture<'a, Reply>);

impl Future for CatchUnwind<'_> {
    type Output = Reply;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Reply> {
        let future = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(poll) => poll,
            Err(_) => Poll::Ready(Err(RpcError::internal("the handler panicked"))),
        }
    }
}

#[cfg(test)]
mod positional_tests {
    use super::*;
    use crate::eth::{GetBalanceParams, methods::GET_BALANCE};
    use serde_json::json;

    const EWOQ: &str = "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc";

    fn read(text: &str) -> Result<GetBalanceParams, RpcError> {
        Params::new(Some(text)).parse_positional(&GET_BALANCE)
    }

    #[test]
    fn an_array_is_read_in_declared_order_and_an_object_by_name() {
        let p = read(&format!(r#"["{EWOQ}", "latest"]"#)).unwrap();
        assert_eq!(p.address.to_string(), EWOQ);
        assert_eq!(p.block, "latest");
        let p = read(&format!(r#"{{"block": "0x5", "address": "{EWOQ}"}}"#)).unwrap();
        assert_eq!(p.block, "0x5");
    }

    #[test]
    fn a_missing_extra_or_bad_element_is_named() {
        let e = read(&format!(r#"["{EWOQ}"]"#)).unwrap_err().to_string();
        assert!(e.contains("block"), "{e}");
        let e = read(&format!(r#"["{EWOQ}", null]"#))
            .unwrap_err()
            .to_string();
        assert!(e.contains("block"), "null is a param left out: {e}");
        let e = read(&format!(r#"["{EWOQ}", "latest", 1]"#))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("takes at most 2 positional params (address, block), got 3"),
            "{e}"
        );
        let e = read(r#"["0x12", "latest"]"#).unwrap_err().to_string();
        assert!(e.contains("address") && e.contains("40 hex digits"), "{e}");
    }

    #[test]
    fn the_client_sends_members_in_declared_order() {
        let wire = GET_BALANCE.wire_params(json!({"block": "latest", "address": EWOQ}));
        assert_eq!(wire, json!([EWOQ, "latest"]));
        // A trailing member left out is dropped; one in the middle is null.
        assert_eq!(
            GET_BALANCE.wire_params(json!({"address": EWOQ})),
            json!([EWOQ])
        );
        assert_eq!(
            GET_BALANCE.wire_params(json!({"block": "latest"})),
            json!([null, "latest"])
        );
        // A by-name method's params stay an object.
        let by_name = &crate::info::methods::GET_NODE_ID;
        assert_eq!(by_name.wire_params(json!({})), json!({}));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Id, NodeId, cb58_encode};

    /// The IDs and node IDs of `order`, as a reply's result, and the text serde_json gives
    /// for them with every cb58 computed anew (no cache, no trail).
    fn result(order: &[u32]) -> (Vec<(Id, NodeId)>, Vec<u8>) {
        let bytes = |n: u32| {
            let mut b = [0x5a; 32];
            b[..4].copy_from_slice(&n.to_le_bytes());
            b
        };
        let value: Vec<(Id, NodeId)> = order
            .iter()
            .map(|&n| {
                let short: [u8; 20] = bytes(n)[..20].try_into().unwrap_or_default();
                (Id::new(bytes(n)), NodeId::new(short))
            })
            .collect();
        let items: Vec<String> = order
            .iter()
            .map(|&n| {
                let b = bytes(n);
                format!(
                    "[\"{}\",\"NodeID-{}\"]",
                    cb58_encode(&b),
                    cb58_encode(&b[..20])
                )
            })
            .collect();
        let mut want = RESULT_PREFIX.to_vec();
        want.extend_from_slice(format!("[{}]", items.join(",")).as_bytes());
        (value, want)
    }

    #[test]
    fn the_usual_requests_read_in_one_pass_give_what_serde_json_gives() {
        const SPACE: [&str; 4] = ["", " ", "\n\t", "\r\n "];
        const NAMES: [&str; 6] = ["jsonrpc", "method", "id", "params", "x", "jsonrp\\u0063"];
        const VALUES: [&[&str]; 6] = [
            &[r#""2.0""#, r#""1.0""#, r#""2\u002e0""#, "2"],
            &[
                r#""info.getNetworkID""#,
                r#""a\u0062""#,
                r#""é""#,
                "1",
                r#""""#,
            ],
            &[
                "1",
                "-0",
                "01",
                "1.5",
                "7e2",
                r#""x""#,
                "null",
                "true",
                "{}",
                "-",
                "123456789012345678901234567890",
            ],
            &[
                "{}",
                "[ ]",
                "null",
                r#"{"a":[1,{"b":"\u0041"}]}"#,
                "[{}]",
                r#"[{"a":1}]"#,
                r#""s""#,
                r#"{"a":}"#,
                "[1,",
                "{ }",
            ],
            &["0", r#"{"y":[]}"#],
            &[r#""2.0""#],
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut pick = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut fast, mut full) = (0, 0);
        for _ in 0..20_000 {
            let mut body = String::from(SPACE[pick(4)]);
            body.push('{');
            // Mostly the four members, each once, in a random order; sometimes one missing,
            // another or one given twice.
            let mut order = vec![0, 1, 2, 3];
            for i in (1..4).rev() {
                order.swap(i, pick(i + 1));
            }
            let mut members = Vec::new();
            for n in order {
                if pick(6) != 0 {
                    members.push(n);
                }
                if pick(8) == 0 {
                    members.push(pick(6));
                }
            }
            for (m, &n) in members.iter().enumerate() {
                if m > 0 {
                    body.push_str(SPACE[pick(4)]);
                    body.push(',');
                }
                let values = VALUES[n];
                let value = if pick(3) == 0 {
                    values[pick(values.len())]
                } else {
                    values[0]
                };
                let space = SPACE[pick(4)];
                body.push_str(&format!("{space}\"{}\"{space}:{space}{value}", NAMES[n]));
            }
            body.push_str(SPACE[pick(4)]);
            body.push('}');
            match pick(16) {
                0 => body.push_str(" x"),
                1 => {
                    let mut end = pick(body.len() + 1);
                    while !body.is_char_boundary(end) {
                        end -= 1;
                    }
                    body.truncate(end);
                }
                _ => {}
            }
            let Some(plain) = plain_request::read(&body, MAX_ID_BYTES) else {
                full += 1;
                continue;
            };
            fast += 1;
            let Ok(call) = read_any_call(&body) else {
                panic!("read in one pass, refused by serde_json: {body}");
            };
            assert_eq!(call.id, plain.id, "{body}");
            assert_eq!(call.params, plain.params, "{body}");
            assert_eq!(call.method.ok().as_deref(), Some(plain.method), "{body}");
        }
        assert!(
            fast > 1_000 && full > 1_000,
            "{fast} read in one pass, {full} not"
        );
    }

    #[test]
    fn replies_in_the_order_of_earlier_ones_or_not_are_the_bytes_computed_anew() {
        crate::wire::enable_text_cache(crate::wire::TEXT_CACHE_ENTRIES);
        let hint = SizeHint::new();
        let base: Vec<u32> = (0..500).collect();
        let mut inserted = base.clone();
        inserted.insert(250, 9_999);
        let thinned: Vec<u32> = base.iter().copied().filter(|n| n % 3 != 1).collect();
        let reversed: Vec<u32> = base.iter().rev().copied().collect();
        let repeated = vec![7; 50];
        for order in [
            &base, &base, &inserted, &inserted, &thinned, &base, &reversed, &reversed, &repeated,
            &base,
        ] {
            let (value, want) = result(order);
            let Ok(Encoded(got)) = reply_sized(&hint, Ok(value)) else {
                panic!("the reply was not written");
            };
            assert!(got == want, "a reply of {} items differs", order.len());
        }
    }
}
