//! The server's fast paths: the buffers replies are written in, its JSON writer, and the
//! usual request read by hand.

pub(crate) mod buffers;
pub(crate) mod json_write;
pub(super) mod plain_request;
