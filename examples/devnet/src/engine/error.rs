//! Why a chain's `issueTx` refused a transaction. Each refusal is typed; its text is the
//! node's (the P-chain prefixes most with `couldn't issue tx: `, as the node does).

use crate::refusal::Refusal;
use crate::store::StoreError;
use avalanche_rpc::codec::{DecodeError, DecodeProblem, RuleError, RuleProblem};
use avalanche_rpc::wire::Id;

/// A refusal, before the chain's wording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IssueError {
    /// The bytes are not a transaction of this chain.
    Decode(Refusal),
    /// Larger than a mempool takes.
    TooLarge {
        id: Id,
        size: usize,
        max: usize,
    },
    /// The mempool has no room for it.
    PoolFull {
        id: Id,
        size: usize,
        free: usize,
    },
    /// Refused recently, for this reason (a re-issue gets the same answer).
    Dropped(String),
    AlreadyAccepted(Id),
    /// Another pending transaction spends one of its UTXOs.
    Conflict {
        other: Id,
        utxo: Id,
    },
    /// A block accepted since it was verified spent one of its UTXOs.
    Spent(Id),
    /// The chain's rules refuse it.
    Invalid(Refusal),
    /// Storage failed while it was checked.
    Store(String),
}

impl std::fmt::Display for IssueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IssueError::Dropped(why) | IssueError::Store(why) => f.write_str(why),
            IssueError::Decode(e) | IssueError::Invalid(e) => e.fmt(f),
            IssueError::TooLarge { id, size, max } => {
                write!(f, "tx too large: {id} size ({size}) > max size ({max})")
            }
            IssueError::PoolFull { id, size, free } => {
                write!(
                    f,
                    "mempool is full: {id} size ({size}) > available space ({free})"
                )
            }
            IssueError::AlreadyAccepted(id) => write!(f, "transaction {id} is already accepted"),
            IssueError::Conflict { other, utxo } => {
                write!(
                    f,
                    "tx conflicts with other tx: {other} already spends UTXO {utxo}"
                )
            }
            IssueError::Spent(utxo) => write!(
                f,
                "tx conflicts with an accepted tx: UTXO {utxo} was spent by a block accepted meanwhile"
            ),
        }
    }
}

impl From<StoreError> for IssueError {
    fn from(e: StoreError) -> Self {
        IssueError::Store(e.to_string())
    }
}

/// A refusal as a chain words it: `prefix` before every refusal but a decoding one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub error: IssueError,
    pub prefix: &'static str,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !matches!(self.error, IssueError::Decode(_)) {
            f.write_str(self.prefix)?;
        }
        self.error.fmt(f)
    }
}

impl std::error::Error for Refused {}

impl Refused {
    /// The devnet's detail of the refusal, if it has one.
    pub fn detail(&self) -> Option<&str> {
        match &self.error {
            IssueError::Decode(e) | IssueError::Invalid(e) => e.detail.as_deref(),
            _ => None,
        }
    }
}

impl From<Refused> for Refusal {
    fn from(r: Refused) -> Self {
        Refusal {
            words: r.to_string(),
            detail: r.detail().map(str::to_string),
        }
    }
}

/// Bytes `bytes` that do not decode, refused in the node's codec's words
/// (`utils/wrappers/packing.go` `errInsufficientLength`, `codec/manager.go:28,35,166`,
/// `codec/linearcodec` for a type ID), the devnet's place and reason as the detail. A problem
/// the node words by the field it is in (a bool, a string, a size) keeps the devnet's words.
pub fn undecodable(e: &DecodeError, bytes: &[u8]) -> Refusal {
    let words = match e.problem() {
        DecodeProblem::Short => "packer has insufficient length for input".to_string(),
        DecodeProblem::Trailing => format!(
            "trailing buffer space: read {} provided {}",
            e.offset(),
            bytes.len()
        ),
        DecodeProblem::Version(_) => "unknown codec version".to_string(),
        DecodeProblem::UnknownType(id) => {
            format!("couldn't unmarshal interface: unknown type ID {id}")
        }
        _ => return Refusal::new(e.to_string()),
    };
    Refusal::node(words, e.to_string())
}

/// A rule of the codec broken, refused in the node's words where they are known
/// (`vms/components/avax/base_tx.go`, `transferables.go`: inputs, outputs and the memo),
/// else in the devnet's; the devnet's place and rule as the detail.
pub fn rule_broken(e: &RuleError) -> Refusal {
    let detail = format!("the transaction breaks a rule of the codec: {e}");
    let words = match (e.problem(), e.field()) {
        (RuleProblem::Unordered, Some("inputs")) => "inputs not sorted and unique".to_string(),
        (RuleProblem::Unordered, Some("outputs")) => "outputs not sorted".to_string(),
        (RuleProblem::TooLong { max, len }, Some("memo")) => {
            format!("memo exceeds maximum length: {len} > {max}")
        }
        _ => return Refusal::new(detail),
    };
    Refusal::node(words, detail)
}
