//! Client decode of whole reply bodies, in-process: the client's real decode path against
//! `IgnoredAny` (the floor: parsing the JSON and keeping nothing), `serde_json::Value` and the
//! hand-written structs. Also the serialization of the large result, the server's main cost.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde::de::{DeserializeOwned, IgnoredAny};

use avalanche_rpc::avm;
use avalanche_rpc::platform::{self, GetCurrentValidatorsResult};
use avalanche_rpc::rpc::{ClientError, HttpReply, MethodInfo};

use crate::data::{self, Fixtures};
use crate::hand;
use crate::quiet::Quiet;
use crate::report::{Row, Target, Unit};

/// The client's decode path, exactly as `Endpoint::call` runs it on a reply. The one place
/// that names the runtime's decode function, should its signature change.
pub fn generated_decode<R: DeserializeOwned>(
    method: &MethodInfo,
    body: &Bytes,
) -> Result<R, ClientError> {
    let reply = HttpReply::new(200, body.clone());
    avalanche_rpc::rpc::decode_reply(method, 1, &reply)
}

/// Seconds per call of `f`, looping for about `budget` (at least 3 calls).
pub fn per_op(budget: Duration, mut f: impl FnMut()) -> f64 {
    f(); // warm caches and the allocator
    let start = Instant::now();
    let mut n = 0u64;
    while n < 3 || start.elapsed() < budget {
        f();
        n += 1;
    }
    start.elapsed().as_secs_f64() / n as f64
}

fn expect<T, E: std::fmt::Display>(what: &str, r: Result<T, E>) -> T {
    match r {
        Ok(v) => v,
        // The bodies are checked once before timing, so this cannot happen while timing.
        Err(e) => panic!("{what}: {e}"),
    }
}

/// Checks that every decoder accepts `body`, so the timed loops cannot fail.
fn check<R: DeserializeOwned, H: DeserializeOwned>(
    method: &MethodInfo,
    body: &Bytes,
) -> Result<(), String> {
    generated_decode::<R>(method, body)
        .map_err(|e| format!("{}: the generated decode fails: {e}", method.name))?;
    serde_json::from_slice::<hand::Reply<H>>(body)
        .map_err(|e| format!("{}: the hand-written decode fails: {e}", method.name))?;
    serde_json::from_slice::<serde_json::Value>(body)
        .map_err(|e| format!("{}: not JSON: {e}", method.name))?;
    Ok(())
}

struct Figures {
    generated: Vec<f64>,
    floor: Vec<f64>,
    value: Vec<f64>,
    hand: Vec<f64>,
}

fn decode_series<R: DeserializeOwned, H: DeserializeOwned>(
    method: &MethodInfo,
    body: &Bytes,
    reps: usize,
    budget: Duration,
    quiet: &Quiet,
) -> Figures {
    let mut f = Figures {
        generated: vec![],
        floor: vec![],
        value: vec![],
        hand: vec![],
    };
    for _ in 0..reps {
        let [generated, floor, value, hand] = quiet.measure(&[], || {
            interleaved(
                budget,
                [
                    &mut || {
                        black_box(expect("generated", generated_decode::<R>(method, body)));
                    },
                    &mut || {
                        black_box(expect(
                            "IgnoredAny",
                            serde_json::from_slice::<IgnoredAny>(body),
                        ));
                    },
                    &mut || {
                        black_box(expect(
                            "Value",
                            serde_json::from_slice::<serde_json::Value>(body),
                        ));
                    },
                    &mut || {
                        black_box(expect(
                            "hand",
                            serde_json::from_slice::<hand::Reply<H>>(body),
                        ));
                    },
                ],
            )
        });
        f.generated.push(generated);
        f.floor.push(floor);
        f.value.push(value);
        f.hand.push(hand);
    }
    f
}

/// Seconds per call of each of `fs`, each looped for about `budget` in all, in slices of
/// [`SLICE`] taken in turn (A B C D A B C D …), so that the machine's drift during the
/// figure falls on all of them alike.
pub fn interleaved<const N: usize>(budget: Duration, mut fs: [&mut dyn FnMut(); N]) -> [f64; N] {
    for f in fs.iter_mut() {
        f(); // warm caches and the allocator
    }
    let mut spent = [Duration::ZERO; N];
    let mut calls = [0u64; N];
    while spent.iter().zip(&calls).any(|(s, &n)| *s < budget || n < 3) {
        for (i, f) in fs.iter_mut().enumerate() {
            let start = Instant::now();
            loop {
                f();
                calls[i] += 1;
                if start.elapsed() >= SLICE {
                    break;
                }
            }
            spent[i] += start.elapsed();
        }
    }
    std::array::from_fn(|i| spent[i].as_secs_f64() / calls[i] as f64)
}

/// One turn of [`interleaved`].
pub const SLICE: Duration = Duration::from_millis(50);

pub fn run(
    fixtures: &Fixtures,
    reps: usize,
    budget: Duration,
    quiet: &Quiet,
) -> Result<Vec<Row>, String> {
    let large = data::reply_body(&fixtures.large_json());
    let utxos = data::reply_body(&fixtures.utxos_json());
    let large_method = &platform::methods::GET_CURRENT_VALIDATORS;
    let utxos_method = &avm::methods::GET_UTXOS;
    check::<GetCurrentValidatorsResult, hand::Validators>(large_method, &large)?;
    check::<avm::GetUtxosResult, hand::Utxos>(utxos_method, &utxos)?;

    let mut rows = Vec::new();
    let l = decode_series::<GetCurrentValidatorsResult, hand::Validators>(
        large_method,
        &large,
        reps,
        budget,
        quiet,
    );
    let what = format!(
        "Client decode, large reply ({:.2} MB, `decode_reply`)",
        large.len() as f64 / 1e6
    );
    rows.push(
        Row::new(&what, Unit::Seconds, l.generated.clone())
            .against("hand-written serde structs", l.hand)
            .target(Target::AtMost(1.2)),
    );
    rows.push(
        Row::new(&what, Unit::Seconds, l.generated.clone())
            .against("`IgnoredAny` (floor)", l.floor)
            .target(Target::AtMost(4.0)),
    );
    rows.push(Row::new(&what, Unit::Seconds, l.generated).against("`serde_json::Value`", l.value));

    // The same, with every identifier new: two replies of that shape with no identifier in
    // common read in turn, so each read finds its method's trail holding the other's.
    let other = data::reply_body(&Fixtures::large_other_json());
    check::<GetCurrentValidatorsResult, hand::Validators>(large_method, &other)?;
    let bodies = [&large, &other];
    let (mut gen_new, mut hand_new) = (vec![], vec![]);
    for _ in 0..reps {
        let (mut g, mut h) = (0usize, 0usize);
        let [generated, hand] = quiet.measure(&[], || {
            interleaved(
                budget,
                [
                    &mut || {
                        g += 1;
                        let body = bodies[g % 2];
                        black_box(expect(
                            "generated",
                            generated_decode::<GetCurrentValidatorsResult>(large_method, body),
                        ));
                    },
                    &mut || {
                        h += 1;
                        black_box(expect(
                            "hand",
                            serde_json::from_slice::<hand::Reply<hand::Validators>>(bodies[h % 2]),
                        ));
                    },
                ],
            )
        });
        gen_new.push(generated);
        hand_new.push(hand);
    }
    rows.push(
        Row::new(
            "Client decode, large reply, every identifier new (two such replies read in turn)",
            Unit::Seconds,
            gen_new,
        )
        .against("hand-written serde structs", hand_new),
    );

    let u = decode_series::<avm::GetUtxosResult, hand::Utxos>(
        utxos_method,
        &utxos,
        reps,
        budget,
        quiet,
    );
    let what = format!(
        "Client decode, `avm.getUTXOs` with {} UTXOs ({:.2} MB)",
        data::UTXOS,
        utxos.len() as f64 / 1e6
    );
    rows.push(
        Row::new(&what, Unit::Seconds, u.generated.clone())
            .against("hand-written serde structs", u.hand),
    );
    rows.push(
        Row::new(&what, Unit::Seconds, u.generated.clone())
            .against("`IgnoredAny` (floor)", u.floor),
    );
    rows.push(Row::new(&what, Unit::Seconds, u.generated).against("`serde_json::Value`", u.value));

    // What the server spends most of a large request on: the reply's text, as each server
    // writes it: the generated one through `server::reply` (its JSON writer and one buffer,
    // with the text cache on, as `rpc::serve` turns it on), the hand-written one through
    // serde_json.
    avalanche_rpc::wire::enable_text_cache(avalanche_rpc::wire::TEXT_CACHE_ENTRIES);
    let (mut gen_ser, mut hand_ser) = (vec![], vec![]);
    for _ in 0..reps {
        let [generated, hand] = quiet.measure(&[], || {
            interleaved(
                budget,
                [
                    &mut || {
                        black_box(expect(
                            "serialize",
                            avalanche_rpc::rpc::server::reply(Ok(black_box(&fixtures.validators)))
                                .map_err(|e| e.to_string()),
                        ));
                    },
                    &mut || {
                        black_box(expect(
                            "serialize",
                            serde_json::to_vec(black_box(&fixtures.hand_validators)),
                        ));
                    },
                ],
            )
        });
        gen_ser.push(generated);
        hand_ser.push(hand);
    }
    rows.push(
        Row::new(
            "Write the large reply (`server::reply`, text cache on)",
            Unit::Seconds,
            gen_ser,
        )
        .against("hand-written serde structs", hand_ser),
    );
    Ok(rows)
}
