//! [`SpecExamples`]: a server that answers from the spec's examples.

use crate::rpc::catalog::MethodInfo;
use crate::rpc::error::RpcError;
use crate::rpc::excerpt::excerpt;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::future::Future;

/// `value` itself if its JSON text is short, else a string holding an [`excerpt`] of that text.
fn excerpt_value(value: &serde_json::Value) -> serde_json::Value {
    let text = value.to_string();
    match excerpt(&text) {
        std::borrow::Cow::Borrowed(_) => value.clone(),
        std::borrow::Cow::Owned(cut) => serde_json::Value::String(cut),
    }
}

/// A test double implementing every generated server trait: each call is answered with the
/// result of the spec example of that method whose params match (after both are decoded into
/// the params type, so `"5"` and `5` match). Calls no example covers get a -32000 error that
/// says so, with the decoded params as `data` (an excerpt of their JSON text when long).
/// Useful to develop a client against, and used by this crate's end-to-end tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecExamples;

impl SpecExamples {
    /// The example answer for `method` called with `params`.
    pub fn answer<P: Serialize, R: DeserializeOwned + Send>(
        &self,
        method: &'static MethodInfo,
        params: P,
    ) -> impl Future<Output = Result<R, RpcError>> + Send {
        std::future::ready(Self::lookup(method, &params))
    }

    fn lookup<P: Serialize, R: DeserializeOwned>(
        method: &MethodInfo,
        params: &P,
    ) -> Result<R, RpcError> {
        let asked = serde_json::to_value(params).map_err(|e| RpcError::internal(e.to_string()))?;
        let example = method
            .examples
            .iter()
            .filter(|e| e.normalized.is_none())
            .find(|e| {
                method
                    .roundtrip_params(&e.params())
                    .is_ok_and(|p| p == asked)
            })
            .ok_or_else(|| {
                RpcError::server(format!(
                    "no example of {} in the spec has these params",
                    method.name
                ))
                .with_data(excerpt_value(&asked))
            })?;
        crate::rpc::catalog::decode(&example.result()).map_err(|e| {
            RpcError::internal(format!(
                "the example `{}` does not decode: {e}",
                example.name
            ))
        })
    }
}
