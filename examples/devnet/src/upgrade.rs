//! The network upgrades' schedule: `--upgrade-file`, in the node's format (a JSON
//! `upgrade.Config`, `upgrade/upgrade.go`), or the local network's (`upgrade.Default`: every
//! upgrade up to Granite initially active, Helicon unscheduled).
//!
//! The devnet runs every upgrade up to Granite from its genesis on, so a file may schedule
//! those at or before the genesis time only; Helicon (ACP-236's auto-renewed validators) may
//! be scheduled at any time, and the P-chain accepts its transaction kinds from then on.

use avalanche_rpc::wire::{Id, Timestamp};

/// `upgrade.InitiallyActiveTime`, 2020-12-05T05:00:00Z.
pub const INITIALLY_ACTIVE: i64 = crate::genesis::INITIALLY_ACTIVE as i64;
/// `upgrade.UnscheduledActivationTime`, 9999-12-01T00:00:00Z.
pub const UNSCHEDULED: i64 = 253_399_622_400;
/// Go's zero time, 0001-01-01T00:00:00Z: what the node reads for a time the file leaves out.
const ZERO_TIME: i64 = -62_135_596_800;
/// `upgrade.Default.GraniteEpochDuration`: 30 s, in nanoseconds.
pub const GRANITE_EPOCH_NS: u64 = 30_000_000_000;

/// The upgrades' times, in the node's order (`Config.Validate`'s), by their JSON names.
pub const TIMES: [&str; 15] = [
    "apricotPhase1Time",
    "apricotPhase2Time",
    "apricotPhase3Time",
    "apricotPhase4Time",
    "apricotPhase5Time",
    "apricotPhasePre6Time",
    "apricotPhase6Time",
    "apricotPhasePost6Time",
    "banffTime",
    "cortinaTime",
    "durangoTime",
    "etnaTime",
    "fortunaTime",
    "graniteTime",
    "heliconTime",
];

/// A schedule: each upgrade's activation (Unix seconds and nanoseconds), in [`TIMES`]' order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upgrades {
    pub times: [(i64, u32); 15],
    pub apricot_phase4_min_p_chain_height: u64,
    pub cortina_x_chain_stop_vertex_id: Id,
    pub granite_epoch_ns: u64,
}

impl Default for Upgrades {
    /// The local network's: `upgrade.Default`.
    fn default() -> Upgrades {
        let mut times = [(INITIALLY_ACTIVE, 0); 15];
        times[14] = (UNSCHEDULED, 0);
        Upgrades {
            times,
            apricot_phase4_min_p_chain_height: 0,
            cortina_x_chain_stop_vertex_id: Id::ZERO,
            granite_epoch_ns: GRANITE_EPOCH_NS,
        }
    }
}

impl Upgrades {
    /// An upgrade's activation, by its JSON name.
    pub fn time(&self, name: &str) -> Timestamp {
        let i = TIMES.iter().position(|n| *n == name).unwrap_or(14);
        Timestamp::from_unix(self.times[i].0, self.times[i].1)
    }

    /// The first second Helicon is active at (`IsHeliconActivated`: not before its time).
    pub fn helicon(&self) -> u64 {
        let (s, n) = self.times[14];
        let s = s.max(0) as u64;
        if n > 0 { s.saturating_add(1) } else { s }
    }

    /// Reads an upgrade file for network `network_id` whose genesis is at `genesis_time`: the
    /// node's rules (`config.getUpgradeConfig`, `upgrade.Config.Validate`), then the devnet's
    /// (the upgrades it runs from genesis scheduled at or before it).
    pub fn parse(json: &str, network_id: u32, genesis_time: u64) -> Result<Upgrades, String> {
        if let 1 | 5 | 12345 = network_id {
            // `config/config.go`, `getUpgradeConfig`.
            return Err(format!(
                "cannot configure upgrades for networkID: {} (the node allows an upgrade file \
                 on a custom network only; choose another --network-id)",
                avalanche_rpc::network::name(network_id)
            ));
        }
        let v: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| format!("unable to unmarshal upgrade bytes: {e}"))?;
        let obj = v
            .as_object()
            .ok_or("unable to unmarshal upgrade bytes: not a JSON object")?;
        let mut u = Upgrades {
            times: [(ZERO_TIME, 0); 15],
            apricot_phase4_min_p_chain_height: 0,
            cortina_x_chain_stop_vertex_id: Id::ZERO,
            granite_epoch_ns: 0,
        };
        for (i, name) in TIMES.iter().enumerate() {
            let Some(t) = obj.get(*name) else { continue };
            let t = t
                .as_str()
                .and_then(|s| Timestamp::parse(s).ok())
                .ok_or_else(|| {
                    format!(
                        "unable to unmarshal upgrade bytes: `{name}` is {t}, not an RFC 3339 time"
                    )
                })?;
            u.times[i] = (t.unix_seconds(), t.subsec_nanos());
        }
        if let Some(h) = obj.get("apricotPhase4MinPChainHeight") {
            u.apricot_phase4_min_p_chain_height = h.as_u64().ok_or_else(|| {
                format!("unable to unmarshal upgrade bytes: `apricotPhase4MinPChainHeight` is {h}, not a height")
            })?;
        }
        if let Some(id) = obj.get("cortinaXChainStopVertexID") {
            u.cortina_x_chain_stop_vertex_id = id
                .as_str()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| {
                    format!("unable to unmarshal upgrade bytes: `cortinaXChainStopVertexID` is {id}, not an ID")
                })?;
        }
        if let Some(d) = obj.get("graniteEpochDuration") {
            u.granite_epoch_ns = d.as_u64().ok_or_else(|| {
                format!("unable to unmarshal upgrade bytes: `graniteEpochDuration` is {d}, not a duration in nanoseconds")
            })?;
        }
        // `upgrade.Config.Validate`.
        for i in 0..14 {
            if u.times[i] > u.times[i + 1] {
                return Err(format!(
                    "invalid upgrade configuration: upgrade {i} ({}) is after upgrade {} ({})",
                    u.time(TIMES[i]),
                    i + 1,
                    u.time(TIMES[i + 1])
                ));
            }
        }
        // What the devnet runs from genesis on.
        if u.times[13].0 > genesis_time as i64 {
            return Err(format!(
                "`graniteTime` is {}: the devnet runs every upgrade up to Granite from its \
                 genesis ({}) on; schedule them at or before it (only Helicon may come later)",
                u.time("graniteTime"),
                Timestamp::from_unix(genesis_time as i64, 0)
            ));
        }
        if u.granite_epoch_ns != GRANITE_EPOCH_NS {
            return Err(format!(
                "`graniteEpochDuration` is {} ns: the devnet's P-chain epochs last 30 s \
                 ({GRANITE_EPOCH_NS}, the local network's)",
                u.granite_epoch_ns
            ));
        }
        if u.cortina_x_chain_stop_vertex_id != Id::ZERO {
            return Err(format!(
                "`cortinaXChainStopVertexID` is {}: the devnet's X-chain is linear from its \
                 genesis (no DAG to stop); leave it out or give the empty ID",
                u.cortina_x_chain_stop_vertex_id
            ));
        }
        Ok(u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(helicon: &str) -> String {
        let mut m = serde_json::Map::new();
        for n in &TIMES[..14] {
            m.insert((*n).into(), "2020-12-05T05:00:00Z".into());
        }
        m.insert("heliconTime".into(), helicon.into());
        m.insert("graniteEpochDuration".into(), GRANITE_EPOCH_NS.into());
        serde_json::Value::Object(m).to_string()
    }

    #[test]
    fn a_file_schedules_helicon_and_the_nodes_rules_hold() {
        let u = Upgrades::parse(&file("2030-01-01T00:00:00Z"), 1337, 1_700_000_000).unwrap();
        assert_eq!(u.helicon(), 1_893_456_000);
        assert_eq!(u.time("heliconTime").as_str(), "2030-01-01T00:00:00Z");
        assert_eq!(Upgrades::default().helicon(), UNSCHEDULED as u64);
        let e = Upgrades::parse(&file("2030-01-01T00:00:00Z"), 12345, 0).unwrap_err();
        assert!(
            e.starts_with("cannot configure upgrades for networkID: local"),
            "{e}"
        );
        // Helicon before Granite.
        let e = Upgrades::parse(&file("2019-01-01T00:00:00Z"), 1337, 1_700_000_000).unwrap_err();
        assert!(
            e.starts_with("invalid upgrade configuration: upgrade 13 (2020-12-05T05:00:00Z) is after upgrade 14"),
            "{e}"
        );
        // Granite after the genesis: the devnet runs it from genesis on.
        let e = Upgrades::parse(&file("2030-01-01T00:00:00Z"), 1337, 1_000_000_000).unwrap_err();
        assert!(
            e.starts_with("`graniteTime` is 2020-12-05T05:00:00Z"),
            "{e}"
        );
        let e = Upgrades::parse("[]", 1337, 0).unwrap_err();
        assert!(e.starts_with("unable to unmarshal upgrade bytes"), "{e}");
        let e = Upgrades::parse(r#"{"heliconTime": 5}"#, 1337, 0).unwrap_err();
        assert!(e.contains("`heliconTime` is 5"), "{e}");
    }
}
