//! cufront-cuda: the CUDA meaning of one declaration, read from its syntax.
//!
//! - [`attrs`]: CUDA attributes as they arrive in a preprocessed unit
//!   (`__global__` is `__attribute__((global))`, spec 20 §2) and which ones the
//!   host compiler must not see.
//! - [`walk`]: the declarations of a unit with their context (enclosing
//!   namespaces and classes, `extern "C"`, template-ness), bodies excluded.
//! - [`decl`]: the syntactic shape of a declarator: its name and the chain of
//!   derivations (pointer, array, function) from the name outwards.
//! - [`spaces`]: the execution space (spec 20 §3) and memory space (§8)
//!   that attributes give, and a declarator's syntactic identity (its
//!   name's parts, a key of its spelling for the editor's index).
//!
//! What needs more than one declaration is semantic and lives in `hir`,
//! which reads every declaration's attributes through [`attrs`] (the one
//! attribute reader of the program): a function's space merged over its
//! redeclarations, matched by the scope graph, is
//! `hir::exec_space::fn_exec_space`; the host printer asks that.
//!
//! Invariants: no I/O, no global state; every function here is total over
//! trees with syntax errors (missing parts give `None`, never a panic).
//!
//! Limits (documented, not silent): [`walk`] does not enter function bodies
//! (the host output keeps bodies of host code as written).

pub mod attrs;
pub mod decl;
pub mod spaces;
pub mod walk;

pub use attrs::CudaAttrs;
pub use spaces::{ExecSpace, MemSpace};
pub use walk::{Ctx, Seg};

#[cfg(test)]
mod tests;
