//! cufront-emit: what cufront writes for nvcc.
//!
//! - [`module_id`]: the module id (spec 30 §4), byte-identical to cudafe++'s.
//! - [`key`]: the id's key entity (spec 30 §4.2), named by the semantic
//!   model (`hir::symbols`).
//!
//! Invariants: no I/O (the driver reads and writes files); the same tree and
//! options give the same bytes (except the id's documented PID fallback,
//! which the caller computes from the time, directory and process it is given).

pub mod host;
pub mod key;
pub mod module_id;
mod sema;

/// The unit being printed, as the semantic model knows it: the text of the
/// trees `emit` walks is the unit's text, so offsets name the same places.
/// What needs types (linkage names, lookup) is asked of it.
#[derive(Clone, Copy)]
pub struct Sema<'a> {
    pub db: &'a dyn cufront_base_db::SourceDatabase,
    pub tu: cufront_base_db::TranslationUnit,
}

#[cfg(test)]
mod tests;
