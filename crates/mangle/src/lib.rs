//! cufront-mangle: Itanium C++ ABI names, spelled as EDG (cudafe++ and cicc)
//! spells them (spec 50 §8).
//!
//! The input is a plain-data "demangled tree" ([`tree`]): names (unscoped,
//! nested, local, `std::`-abbreviated; lambdas, unnamed types, ABI tags),
//! types, template arguments and the expressions that signatures can hold.
//! The output is the mangled string. Mangling is a pure function of the
//! tree: the tree says *what* the entity is (after typedefs are resolved,
//! default template arguments filled in and parameters adjusted); this crate
//! says only *how* Itanium spells it (substitutions, `St`/`Sa`/`Ss`…,
//! template-parameter references, `Dt`/`DT`, discriminators…).
//!
//! Why a crate of its own: the grammar knows nothing of syntax trees or of
//! semantic analysis, so every producer of names can feed it — `emit`'s
//! small item index now, `hir` later — and it is tested on its own, against
//! the spec's vectors and against g++ (`tests/gxx.rs`).
//!
//! Invariants:
//! - Never guess: a tree this crate cannot spell (a form the spec does not
//!   document, an empty name, a construct outside the grammar) is an `Err`,
//!   never a plausible-looking string.
//! - Substitution candidates are identified structurally: two equal subtrees
//!   are the same candidate (so callers must give canonical trees: typedefs
//!   resolved, parameter types adjusted).
//! - Work is linear in the tree for bounded depth: candidates are found by
//!   hash, and a tree that nests types or expressions deeper than
//!   `mangler::MAX_DEPTH` (1024) is an `Err` before any work (`depth`).
//! - Where EDG and g++ differ (spec 50 §8.2) EDG's choice is the one made;
//!   the CUDA-specific spellings (`_INTERNAL<mid>`, `__nv_static_`, stubs,
//!   spec 50 §8.4–§8.6) are in [`cuda`].

pub mod build;
pub mod cuda;
mod depth;
mod mangler;
mod ops;
pub mod tree;
pub mod walk;

pub use mangler::{mangle, mangle_edg, symbol};
pub use ops::Op;
pub use tree::*;

#[cfg(test)]
mod tests;
