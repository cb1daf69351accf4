//! Why a transaction was refused: the one refusal of every chain, in the node's words and
//! the devnet's detail (a chain's rules, the flow check and the credential checks all give
//! it; [`crate::engine::IssueError`] carries it to `issueTx`), and [`VerifyError`]: a refusal or
//! the store failing, never one for the other.

use crate::store::StoreError;

/// Why a transaction was refused. `words` is what `issueTx` answers: the node's own words
/// where the devnet has matched them (wallets match on them; `tests/node/DIFFERENCES.md` lists
/// the refusals still in the devnet's words), each wrapping named by [`Refusal::within`] as
/// the node's `fmt.Errorf("…: %w")` does. `detail`, when the node's words do not say which
/// field or values, says it: the error's `data.detail` (the node's `data` is null).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub words: String,
    pub detail: Option<String>,
}

impl Refusal {
    /// A refusal in the devnet's words: one sentence naming the place.
    pub fn new(words: impl Into<String>) -> Refusal {
        Refusal {
            words: words.into(),
            detail: None,
        }
    }

    /// A refusal in the node's `words`, the place named by `detail`.
    pub fn node(words: impl Into<String>, detail: impl Into<String>) -> Refusal {
        Refusal {
            words: words.into(),
            detail: Some(detail.into()),
        }
    }

    /// The same refusal wrapped as the node wraps it: `context: words`.
    pub fn within(mut self, context: impl std::fmt::Display) -> Refusal {
        self.words = format!("{context}: {}", self.words);
        self
    }

    /// The words, then the detail if any: for logs and the devnet's own errors.
    pub fn explained(&self) -> String {
        match &self.detail {
            Some(d) => format!("{}; {d}", self.words),
            None => self.words.clone(),
        }
    }

    /// The most specific text: the detail if any, else the words.
    pub fn detail(&self) -> &str {
        self.detail.as_deref().unwrap_or(&self.words)
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words)
    }
}

/// A refusal in the devnet's words, as the error of whatever the caller returns (a
/// [`Refusal`] or a [`VerifyError`]).
pub fn fail<T, E: From<Refusal>>(msg: impl Into<String>) -> Result<T, E> {
    Err(Refusal::new(msg).into())
}

/// Why verification did not give a transaction's effects: the transaction is invalid (a
/// [`Refusal`]: dropped, and `issueTx` answers its words), or the store failed while the
/// state was read, which says nothing of the transaction: the node treats a database error
/// as fatal, so it is never a refusal (building the block fails, the transaction stays
/// pending).
#[derive(Debug)]
pub enum VerifyError {
    Refused(Refusal),
    Store(StoreError),
}

impl VerifyError {
    /// A refusal wrapped as the node wraps it ([`Refusal::within`]); a storage failure as it
    /// is.
    pub fn within(self, context: impl std::fmt::Display) -> VerifyError {
        match self {
            VerifyError::Refused(r) => VerifyError::Refused(r.within(context)),
            store => store,
        }
    }

    /// The refusal, if the transaction was refused.
    pub fn refusal(self) -> Option<Refusal> {
        match self {
            VerifyError::Refused(r) => Some(r),
            VerifyError::Store(_) => None,
        }
    }
}

impl From<Refusal> for VerifyError {
    fn from(r: Refusal) -> Self {
        VerifyError::Refused(r)
    }
}

impl From<StoreError> for VerifyError {
    fn from(e: StoreError) -> Self {
        VerifyError::Store(e)
    }
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::Refused(r) => r.fmt(f),
            VerifyError::Store(e) => e.fmt(f),
        }
    }
}
