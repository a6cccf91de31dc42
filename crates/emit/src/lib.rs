//! cufront-emit: what cufront writes for nvcc.
//!
//! - [`module_id`]: the module id (spec 30 §4), byte-identical to cudafe++'s.
//! - [`items`] and [`mangle`]: the item index (template parameter defaults,
//!   constants) and its conversion to `cufront-mangle` trees, which the id's
//!   key needs (spec 50 §8).
//! - [`key`]: linkage names and the id's key entity (spec 30 §4.2).
//!
//! Invariants: no I/O (the driver reads and writes files); the same tree and
//! options give the same bytes (except the id's documented PID fallback,
//! which the caller computes from the time, directory and process it is given).

pub mod host;
pub mod items;
pub mod key;
pub mod mangle;
pub mod module_id;

#[cfg(test)]
mod tests;
