//! Facts the documentation emitters (`openrpc`, `html`) and the committed-documents
//! bookkeeping (`docs`) share: where the documents' servers point, the JSON-RPC errors any
//! method may answer, the name of the combined document and the command that regenerates them.

/// Where the servers of the documents point: a node on this machine, default HTTP port.
pub const NODE_URL: &str = "http://127.0.0.1:9650";

/// File name of the combined document.
pub const COMBINED: &str = "openrpc.json";

/// The command that rewrites every committed documentation output.
pub const REGENERATE: &str = "cargo run -p avalanche-rpc-codegen -- docs";

/// The JSON-RPC errors this project's server sends for any method, by component name: the
/// constants of `avalanche_rpc::rpc::codes`, name for name (`ParseError` is `PARSE_ERROR`;
/// `tests/tests/conventions.rs` fails when the two differ).
pub const JSON_RPC_ERRORS: [(&str, i64, &str); 7] = [
    (
        "ParseError",
        -32700,
        "parse error: the body is not valid JSON",
    ),
    (
        "InvalidRequest",
        -32600,
        "invalid request: the body is not a JSON-RPC 2.0 request",
    ),
    (
        "MethodNotFound",
        -32601,
        "method not found: no such method at this path",
    ),
    (
        "InvalidParams",
        -32602,
        "invalid params: a member is missing or has the wrong type",
    ),
    (
        "InternalError",
        -32603,
        "internal error: the handler failed unexpectedly",
    ),
    (
        "ServerError",
        -32000,
        "server error: the node could not serve the call",
    ),
    (
        "ResponseTooLarge",
        -32003,
        "response too large: a batch's replies reached the server's limit; the later calls of the batch were not run",
    ),
];
