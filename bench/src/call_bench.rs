//! Client call overhead: sequential calls over one keep-alive connection to the bare server
//! (so the server costs as little as possible), the typed call against a hand-written
//! reqwest POST that decodes into the hand-written structs.

use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;

use avalanche_rpc::info::{GetNetworkIdParams, InfoClient};
use avalanche_rpc::platform::{GetCurrentValidatorsParams, PlatformClient};
use avalanche_rpc::rpc::Node;

use crate::child::ServerProcess;
use crate::decode::SLICE;
use crate::hand;
use crate::quiet::Quiet;
use crate::report::{Row, Target, Unit};
use crate::servers::{LARGE_METHOD, LARGE_PATH, SMALL_METHOD, SMALL_PATH, Variant};

/// Seconds per call of `typed` and of `hand`, each called sequentially for about `budget` in
/// all, in slices of [`SLICE`] taken in turn (so the machine's drift falls on both alike),
/// measured again while other processes disturb them (see [`Quiet`]).
async fn per_call<A, FutA, B, FutB>(
    quiet: &Quiet,
    ours: &[u32],
    budget: Duration,
    mut typed: A,
    mut hand: B,
) -> Result<(f64, f64), String>
where
    A: FnMut() -> FutA,
    FutA: Future<Output = Result<(), String>>,
    B: FnMut() -> FutB,
    FutB: Future<Output = Result<(), String>>,
{
    let mut best: Option<((f64, f64), f64)> = None;
    loop {
        quiet.wait(ours);
        let start = quiet.snapshot(ours);
        let value = in_turn(budget, &mut typed, &mut hand).await?;
        let foreign = quiet.since(&start, ours);
        if best.is_none_or(|(_, b)| foreign < b) {
            best = Some((value, foreign));
        }
        if !quiet.retry(foreign) {
            break;
        }
    }
    let (value, foreign) = best.unwrap_or(((f64::NAN, f64::NAN), f64::NAN));
    quiet.keep(foreign);
    Ok(value)
}

async fn in_turn<A, FutA, B, FutB>(
    budget: Duration,
    a: &mut A,
    b: &mut B,
) -> Result<(f64, f64), String>
where
    A: FnMut() -> FutA,
    FutA: Future<Output = Result<(), String>>,
    B: FnMut() -> FutB,
    FutB: Future<Output = Result<(), String>>,
{
    // Open the connection and warm both paths.
    a().await?;
    b().await?;
    let (mut spent, mut calls) = ([Duration::ZERO; 2], [0u64; 2]);
    while spent.iter().zip(&calls).any(|(s, &n)| *s < budget || n < 3) {
        slice(a, &mut spent[0], &mut calls[0]).await?;
        slice(b, &mut spent[1], &mut calls[1]).await?;
    }
    let per = |i: usize| spent[i].as_secs_f64() / calls[i] as f64;
    Ok((per(0), per(1)))
}

/// Calls `f` for one [`SLICE`], adding the time to `spent` and the calls to `calls`.
async fn slice<F, Fut>(f: &mut F, spent: &mut Duration, calls: &mut u64) -> Result<(), String>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let start = Instant::now();
    loop {
        f().await?;
        *calls += 1;
        if start.elapsed() >= SLICE {
            break;
        }
    }
    *spent += start.elapsed();
    Ok(())
}

/// A hand-written JSON-RPC call: format the body, POST it, check the status, decode.
async fn hand_call<R: DeserializeOwned>(
    client: &reqwest::Client,
    url: &str,
    method: &str,
    id: u64,
) -> Result<R, String> {
    let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{}}}}"#);
    let response = client
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!("HTTP {}", response.status()));
    }
    let bytes = response.bytes().await.map_err(|e| e.to_string())?;
    let reply: hand::Reply<R> = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
    Ok(reply.result)
}

pub async fn run(
    reps: usize,
    budget: Duration,
    server_cpus: Option<Vec<usize>>,
    quiet: &Quiet,
) -> Result<Vec<Row>, String> {
    let server = ServerProcess::start(Variant::Bare, server_cpus)?;
    let base = format!("http://{}", server.addr);
    let node = Node::http(&base).map_err(|e| e.to_string())?;
    let info = node.info();
    let platform = node.platform();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| format!("cannot build the reqwest client: {e}"))?;
    let small_url = format!("{base}{SMALL_PATH}");
    let large_url = format!("{base}{LARGE_PATH}");
    let mut id = 0u64;
    let mut next_id = move || {
        id += 1;
        id
    };

    let (mut typed_small, mut hand_small, mut typed_large, mut hand_large) =
        (vec![], vec![], vec![], vec![]);
    let ours = [server.pid()];
    for _ in 0..reps {
        let (typed, hand) = per_call(
            quiet,
            &ours,
            budget,
            || async {
                info.get_network_id(GetNetworkIdParams::default())
                    .await
                    .map(drop)
                    .map_err(|e| format!("typed {SMALL_METHOD}: {e}"))
            },
            || {
                let id = next_id();
                let (client, url) = (&client, &small_url);
                async move {
                    hand_call::<hand::NetworkId>(client, url, SMALL_METHOD, id)
                        .await
                        .map(drop)
                        .map_err(|e| format!("hand-written {SMALL_METHOD}: {e}"))
                }
            },
        )
        .await?;
        typed_small.push(typed);
        hand_small.push(hand);
        let (typed, hand) = per_call(
            quiet,
            &ours,
            budget,
            || async {
                platform
                    .get_current_validators(GetCurrentValidatorsParams::default())
                    .await
                    .map(drop)
                    .map_err(|e| format!("typed {LARGE_METHOD}: {e}"))
            },
            || {
                let id = next_id();
                let (client, url) = (&client, &large_url);
                async move {
                    hand_call::<hand::Validators>(client, url, LARGE_METHOD, id)
                        .await
                        .map(drop)
                        .map_err(|e| format!("hand-written {LARGE_METHOD}: {e}"))
                }
            },
        )
        .await?;
        typed_large.push(typed);
        hand_large.push(hand);
    }
    drop(server);
    Ok(vec![
        Row::new(
            format!("Client call, small reply (`{SMALL_METHOD}`), sequential, time per call"),
            Unit::Seconds,
            typed_small,
        )
        .against("hand-written reqwest POST + serde", hand_small)
        .target(Target::AtMost(1.05)),
        Row::new(
            format!("Client call, large reply (`{LARGE_METHOD}`), sequential, time per call"),
            Unit::Seconds,
            typed_large,
        )
        .against("hand-written reqwest POST + serde", hand_large),
    ])
}
