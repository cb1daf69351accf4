//! The budget for request bodies in flight: one count of bytes shared by every connection of
//! a server, so that many peers each sending a large body (and stalling) cannot hold more
//! memory than the budget, whatever the connection cap.
//!
//! Each request has a [`Tally`]. Its first [`FREE_BYTES`] of body are not counted, so small
//! requests (nearly every call) are served even when large bodies hold the whole budget; the
//! rest is taken from the budget before the handler gets it: all at once when the request
//! announces its length (refused at once if it does not fit), else frame by frame as it
//! arrives (the body then fails with [`OverBudget`]). What a request took goes back when its
//! tally is dropped: when the handler has answered, or the connection is dropped.

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll};

/// Bytes of each request body that do not count against the budget: enough for any call
/// but the largest transactions.
pub(crate) const FREE_BYTES: usize = 64 * 1024;

/// The bytes of request bodies in flight, across connections.
#[derive(Debug)]
pub(crate) struct Budget {
    capacity: usize,
    used: AtomicUsize,
}

impl Budget {
    pub(crate) fn new(capacity: usize) -> Arc<Self> {
        Arc::new(Self {
            capacity,
            used: AtomicUsize::new(0),
        })
    }

    /// Takes `n` bytes if they fit.
    fn take(&self, n: usize) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(n).filter(|&total| total <= self.capacity)
            })
            .is_ok()
    }

    fn give_back(&self, n: usize) {
        self.used.fetch_sub(n, Ordering::AcqRel);
    }

    /// The budget, in bytes.
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Bytes taken now.
    #[cfg(test)]
    fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }
}

/// One request's share of the budget.
#[derive(Debug)]
pub(crate) struct Tally {
    budget: Arc<Budget>,
    /// Bytes taken from the budget (given back on drop).
    held: AtomicUsize,
    /// Bytes of body seen so far.
    seen: AtomicUsize,
    /// The body did not fit.
    over: AtomicBool,
}

impl Tally {
    /// A request's tally. If it announced `length` bytes, they are taken now (but the free
    /// part); `Err` if they do not fit in what the budget has left. A length over the whole
    /// budget is not taken at once: the body is counted as it arrives, so the handler's own
    /// size limit, if smaller, refuses it first.
    pub(crate) fn new(budget: &Arc<Budget>, length: Option<u64>) -> Result<Arc<Self>, ()> {
        let tally = Arc::new(Self {
            budget: budget.clone(),
            held: AtomicUsize::new(0),
            seen: AtomicUsize::new(0),
            over: AtomicBool::new(false),
        });
        let counted = length
            .and_then(|l| usize::try_from(l).ok())
            .map_or(0, |l| l.saturating_sub(FREE_BYTES));
        if counted > 0 && counted <= budget.capacity {
            if !budget.take(counted) {
                return Err(());
            }
            tally.held.store(counted, Ordering::Release);
        }
        Ok(tally)
    }

    /// `n` more bytes of body arrived: takes what is not covered yet; `false` if the budget
    /// has no room for them.
    fn arrived(&self, n: usize) -> bool {
        let seen = self.seen.fetch_add(n, Ordering::AcqRel).saturating_add(n);
        let needed = seen.saturating_sub(FREE_BYTES);
        let held = self.held.load(Ordering::Acquire);
        if needed <= held {
            return true;
        }
        if self.budget.take(needed - held) {
            self.held.store(needed, Ordering::Release);
            true
        } else {
            self.over.store(true, Ordering::Release);
            false
        }
    }

    /// Whether the body did not fit in the budget.
    pub(crate) fn over(&self) -> bool {
        self.over.load(Ordering::Acquire)
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        self.budget.give_back(*self.held.get_mut());
    }
}

/// The error a body fails with when it does not fit in the budget.
#[derive(Debug)]
pub(crate) struct OverBudget;

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the server's budget for request bodies in flight is used up")
    }
}

impl std::error::Error for OverBudget {}

/// A request body whose bytes are counted against the budget as they arrive.
#[derive(Debug)]
pub(crate) struct CountedBody<B> {
    inner: B,
    tally: Arc<Tally>,
}

impl<B> CountedBody<B> {
    pub(crate) fn new(inner: B, tally: Arc<Tally>) -> Self {
        Self { inner, tally }
    }
}

impl<B> Body for CountedBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if this.tally.over() {
            return Poll::Ready(Some(Err(Box::new(OverBudget))));
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                let n = frame.data_ref().map_or(0, Bytes::len);
                if this.tally.arrived(n) {
                    Poll::Ready(Some(Ok(frame)))
                } else {
                    Poll::Ready(Some(Err(Box::new(OverBudget))))
                }
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(e.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1024 * 1024;

    #[test]
    fn an_announced_length_is_taken_at_once_and_given_back_on_drop() {
        let budget = Budget::new(10 * MIB);
        let a = Tally::new(&budget, Some((6 * MIB + FREE_BYTES) as u64)).unwrap();
        assert_eq!(budget.used(), 6 * MIB);
        // 6 MiB more does not fit; a small request still does, outside the budget.
        assert!(Tally::new(&budget, Some((6 * MIB) as u64)).is_err());
        let small = Tally::new(&budget, Some(FREE_BYTES as u64)).unwrap();
        assert!(small.arrived(FREE_BYTES));
        assert_eq!(budget.used(), 6 * MIB);
        drop(a);
        assert_eq!(budget.used(), 0);
        assert!(Tally::new(&budget, Some((6 * MIB) as u64)).is_ok());
    }

    #[test]
    fn an_unannounced_body_is_counted_as_it_arrives() {
        let budget = Budget::new(MIB);
        let t = Tally::new(&budget, None).unwrap();
        assert!(t.arrived(FREE_BYTES));
        assert_eq!(budget.used(), 0);
        assert!(t.arrived(MIB / 2));
        assert_eq!(budget.used(), MIB / 2);
        assert!(t.arrived(MIB / 2));
        assert_eq!(budget.used(), MIB);
        assert!(!t.arrived(1));
        assert!(t.over());
        drop(t);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn a_length_over_the_whole_budget_is_counted_as_it_arrives() {
        let budget = Budget::new(MIB);
        let t = Tally::new(&budget, Some(u64::MAX)).unwrap();
        assert_eq!(budget.used(), 0);
        assert!(!t.arrived(FREE_BYTES + MIB + 1));
        drop(t);
        assert_eq!(budget.used(), 0);
    }
}
