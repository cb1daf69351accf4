//! `index.*` at `/ext/index/<chain>/<kind>`, with the node's rules (`indexer/service.go`):
//! numbering from 0, `getContainerRange` taking 1 to 1024 containers and returning those that
//! exist, the errors in the node's order and words.

use super::common::encode;
use crate::devnet::Devnet;
use crate::index::{Entry, IndexKind};
use avalanche_rpc::index::*;
use avalanche_rpc::rpc::RpcError;
use avalanche_rpc::types::Container;
use avalanche_rpc::wire::{Encoding, Timestamp};
use std::sync::Arc;

/// The most containers `getContainerRange` returns (`MaxFetchedByRange`).
const MAX_FETCHED_BY_RANGE: u64 = 1024;

pub struct Index {
    pub devnet: Arc<Devnet>,
    pub kind: IndexKind,
}

fn container(e: Entry, encoding: Encoding) -> Result<Container, RpcError> {
    Ok(Container::new(
        e.id,
        encode(encoding, &e.bytes)?,
        Timestamp::from_unix(
            (e.timestamp / 1_000_000_000) as i64,
            (e.timestamp % 1_000_000_000) as u32,
        ),
        encoding,
        e.index,
    ))
}

impl IndexServer for Index {
    async fn get_container_by_id(&self, p: GetContainerByIdParams) -> Result<Container, RpcError> {
        let encoding = p.encoding.unwrap_or_default();
        let r = self.devnet.view()?;
        let i = r
            .index_of(self.kind, &p.id)?
            .ok_or_else(|| RpcError::server("not found"))?;
        let e = r
            .index_entry(self.kind, i)?
            .ok_or_else(|| RpcError::server("not found"))?;
        container(e, encoding)
    }

    async fn get_container_by_index(
        &self,
        p: GetContainerByIndexParams,
    ) -> Result<Container, RpcError> {
        let i = p.index.map(|i| i.get()).unwrap_or(0);
        let r = self.devnet.view()?;
        let e = r
            .index_entry(self.kind, i)?
            .ok_or_else(|| RpcError::server(format!("no container at index {i}")))?;
        container(e, p.encoding.unwrap_or_default())
    }

    async fn get_container_range(
        &self,
        p: GetContainerRangeParams,
    ) -> Result<GetContainerRangeResult, RpcError> {
        let n = p.num_to_fetch.get();
        if n == 0 || n > MAX_FETCHED_BY_RANGE {
            return Err(RpcError::invalid_params(
                "numToFetch",
                format!("numToFetch must be in [1,{MAX_FETCHED_BY_RANGE}] but is {n}"),
            ));
        }
        let start = p.start_index.map(|s| s.get()).unwrap_or(0);
        let r = self.devnet.view()?;
        let len = r.index_len(self.kind)?;
        if len == 0 {
            return Err(RpcError::server("no containers have been accepted"));
        }
        if start > len - 1 {
            return Err(RpcError::invalid_params(
                "startIndex",
                format!("start index ({start}) > last accepted index ({})", len - 1),
            ));
        }
        let encoding = p.encoding.unwrap_or_default();
        let containers = r
            .index_range(self.kind, start, n)?
            .into_iter()
            .map(|e| container(e, encoding))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GetContainerRangeResult::new(containers))
    }

    async fn get_index(&self, p: GetIndexParams) -> Result<GetIndexResult, RpcError> {
        let r = self.devnet.view()?;
        r.index_of(self.kind, &p.id)?
            .map(GetIndexResult::new)
            .ok_or_else(|| RpcError::server("not found"))
    }

    async fn get_last_accepted(&self, p: GetLastAcceptedParams) -> Result<Container, RpcError> {
        let r = self.devnet.view()?;
        let len = r.index_len(self.kind)?;
        let e = match len.checked_sub(1) {
            Some(last) => r.index_entry(self.kind, last)?,
            None => None,
        }
        .ok_or_else(|| RpcError::server("no containers have been accepted"))?;
        container(e, p.encoding.unwrap_or_default())
    }

    async fn is_accepted(&self, p: IsAcceptedParams) -> Result<IsAcceptedResult, RpcError> {
        let r = self.devnet.view()?;
        Ok(IsAcceptedResult::new(
            r.index_of(self.kind, &p.id)?.is_some(),
        ))
    }
}
