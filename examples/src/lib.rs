//! Runnable examples: see the `examples/` targets.
