//! The server side: JSON-RPC 2.0 over HTTP POST, on axum. Serve the routers with
//! [`serve`], not `axum::serve`, which has no timeouts.
//!
//! What a request gets, and where this server deliberately differs from the node:
//!
//! | Request | Reply | The node |
//! |---|---|---|
//! | not POST | HTTP 405, `Allow: POST` | 405 |
//! | no `Content-Type`, or not `application/json` (parameters such as `charset` are ignored) | HTTP 415 | 415 |
//! | body over the limit ([`ServerConfig::max_body_bytes`], 8 MiB by default) | HTTP 413 with a -32600 error body, as soon as the limit is passed, without reading the rest | no limit stated |
//! | body not JSON, or JSON followed by more text | -32700 | -32700; trailing text ignored |
//! | body not valid UTF-8 anywhere, even inside a member that is never read | -32700 saying at which byte; a batch gets one for the whole body | Go's decoder substitutes U+FFFD for each bad byte in a string and answers |
//! | `jsonrpc` not `"2.0"`, `method` missing or not a string, `id` an object, array or boolean | -32600 naming the member | -32600 for `jsonrpc`; -32000 or anything goes for the rest |
//! | `id` longer than [`MAX_ID_BYTES`] (128) bytes of JSON text | -32600 with `"id": null`, so it is not echoed | echoed whatever its size |
//! | unknown method | -32601 naming it | -32000 `rpc: can't find method` |
//! | `params` not an object, `[object]`, `[]` or null; or a member of the wrong type | -32602 naming the field and what was wrong | -32000 with one generic text |
//! | request text in an error: serde's message quoting the bad value, a field path, a method name, a `Content-Type`, an HTTP method | cut to an [`excerpt`](crate::rpc::excerpt): at most 100 characters, `…` in the middle | quoted in full |
//! | a handler's error | its code (handlers use -32000) | -32000 |
//! | a handler panics | -32603 | connection dropped |
//! | no `id` member (a notification) | the method runs; HTTP 200 with an empty body | same |
//! | `"id": null` | answered with `"id": null`, as JSON-RPC 2.0 says | treated as a notification |
//! | a batch (JSON array) | a JSON array of replies, in order (none for notifications); `[]` is -32600 | none: -32700 for any batch |
//! | a batch of more than [`ServerConfig::max_batch_len`] (256) requests | one -32600 naming the limit; none is run | none: -32700 for any batch |
//! | a batch whose replies add up to more than [`ServerConfig::max_batch_reply_bytes`] (4 MiB) | the replies that fit; then the request whose reply did not fit and every later one get -32003 ([`RESPONSE_TOO_LARGE`](crate::rpc::codes::RESPONSE_TOO_LARGE)) naming the limit, with their own ids (a notification gets none), and the later ones are not run | none: -32700 for any batch |
//!
//! JSON-RPC errors come with HTTP 200, as from the node. Unknown members of `params` are
//! ignored, as the node does; only the spellings the spec declares (`aliases`) are read
//! besides the wire names, not any letter case.
//!
//! What a connection gets from [`serve`] with
//! [`ServerConfig::default()`](crate::rpc::ServerConfig), the node's defaults (its flags in
//! avalanchego `config/flags.go:234-237`, handed to Go's `net/http` server in
//! `api/server/server.go:127-130`). A timeout closes the connection without a reply, as the
//! node's server does:
//!
//! | Connection | Here | The node |
//! |---|---|---|
//! | sends nothing, or not a whole request head, within [`read_header_timeout`](crate::rpc::ServerConfig::read_header_timeout) of the request's start: accept for a connection's first request, the first byte for later ones | closed at 30 s | `--http-read-header-timeout`, 30 s: the same |
//! | sends a request, head and body, slower than [`read_timeout`](crate::rpc::ServerConfig::read_timeout), counted from the same start (a half-sent body) | closed at 30 s, if the handler is waiting for the body | `--http-read-timeout`, 30 s: the same |
//! | does not read its reply within [`write_timeout`](crate::rpc::ServerConfig::write_timeout) of the handler returning it (a slow or stalled reader) | closed at 30 s; the reply is dropped | `--http-write-timeout`, 30 s, counted from the end of the request head, so a handler's own time counts too |
//! | keeps a keep-alive connection open without a next request for [`idle_timeout`](crate::rpc::ServerConfig::idle_timeout) after a reply | closed at 120 s | `--http-idle-timeout`, 120 s: the same |
//! | one more than [`max_connections`](crate::rpc::ServerConfig::max_connections) open | accepted, and waits for its first byte beside the others (at most [`max_waiting`](crate::rpc::ServerConfig::max_waiting), 4,096, of them; the one waiting the longest is closed for the next); once it sends, the connection idle the longest (sent nothing yet, nothing since its last reply, or a request head still arriving after [`head_grace`](crate::rpc::ServerConfig::head_grace), 2 s, from the request's start) is closed to make room; if every one has a body under way or a request being handled, it waits for one to end or become idle. Silent sockets and stalled heads (slowloris) thus never delay a caller for long ([`evict_idle`](crate::rpc::ServerConfig::evict_idle) off: waits in the listen backlog until one closes) | no cap: connections are accepted until the process runs out of file descriptors (`--fd-limit`, 32,768, `config/flags.go:84`) |
//! | a body that does not fit in what is left of [`body_budget`](crate::rpc::ServerConfig::body_budget) (32 MiB across connections; the first 64 KiB of each body are free) | HTTP 503, `Retry-After: 1`, a -32000 error body, the connection closed: at once if the length was announced, else when its bytes stop fitting | no budget |
//! | a request head over hyper's read buffer (about 400 KiB) or with over 100 header lines | HTTP 431 | 431 over Go's 1 MiB `MaxHeaderBytes` |
//!
//! `None` disables a timeout (the node's `0`). hyper's own `header_read_timeout` is not used:
//! it restarts the moment a keep-alive connection goes idle, so it would close idle connections
//! at the header timeout rather than the idle one; the connection's clock enforces all four.
//!
//! Memory, per connection, whatever the peer does: the head is at most hyper's read buffer;
//! the body is read from the socket only as fast as the handler asks for it and at most
//! [`ServerConfig::max_body_bytes`] of it is kept (a half-sent body holds what has arrived, at
//! most that, until the read timeout); decoding holds a few more copies of it while the
//! handler runs; an error reply is a few hundred bytes. A reply is held until it is written or
//! the write timeout passes, one at a time (HTTP/1 answers a connection's requests in turn): a
//! single call's reply is as large as its result; a batch's is at most
//! [`ServerConfig::max_batch_reply_bytes`] of replies, plus an error reply for each request
//! past that limit (at most [`ServerConfig::max_batch_len`]), and while it is built, one more
//! call's reply (the one that does not fit). So a connection holds at most a small multiple of
//! the body limit plus the larger of one call's reply and the batch limit, at most
//! `max_connections` connections are open, and request bodies in flight hold at most
//! [`body_budget`](crate::rpc::ServerConfig::body_budget) plus 64 KiB per connection. With the
//! defaults, 8 peers that each send a batch of large replies (`avm.getUTXOs` of full pages,
//! say) and do not read hold 8 × 4 MiB = 32 MiB of replies until the write timeout, not the
//! 65 MB each an unbounded batch reply could take.

mod config;
mod dispatch;
mod http;
mod mock;
mod router;
pub(crate) mod write;

pub use config::ServerConfig;
pub use dispatch::{
    BoxFuture, Dispatch, Encoded, MAX_ID_BYTES, Params, Reply, SizeHint, handle, reply, reply_sized,
};
pub use http::serve;
pub use mock::SpecExamples;
pub use router::{router, router_with};
