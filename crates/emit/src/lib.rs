//! cufront-emit: what cufront writes for nvcc.
//!
//! - [`module_id`]: the module id (spec 30 §4), byte-identical to cudafe++'s.
//! - [`key`]: the id's key entity (spec 30 §4.2), named by the semantic
//!   model (`hir::symbols`).
//! - [`host`]: the host file (spec 30 §2), an edit plan over the unit's text,
//!   planned per top-level item as salsa queries (`host/queries.rs`) and
//!   merged, so that an edit inside one body plans one item again.
//!
//! `emit` prints: it has no item model, evaluator, lookup or mangler of its
//! own. What needs more than one declaration's syntax — a function's
//! execution space or `constexpr` merged over its redeclarations, linkage
//! names, lookup — is asked of `hir` through [`Sema`] (`sema.rs` locates a
//! declarator's declaration by its name's offset, `hir::locate`).
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
/// What needs types or other declarations (linkage names, lookup,
/// execution spaces) is asked of it.
#[derive(Clone, Copy)]
pub struct Sema<'a> {
    pub db: &'a dyn cufront_base_db::SourceDatabase,
    pub tu: cufront_base_db::TranslationUnit,
    /// The top-level item whose tree is walked (its offsets are relative
    /// to the item), or `None` for the unit's tree.
    item: Option<cufront_hir::ItemId>,
}

#[cfg(test)]
mod tests;
