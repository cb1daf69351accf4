//! Why a transaction was refused: the one refusal of every chain, in the node's words and
//! the devnet's detail (a chain's rules, the flow check and the credential checks all give
//! it; [`super::IssueError`] carries it to `issueTx`).

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

pub fn fail<T>(msg: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::new(msg))
}
