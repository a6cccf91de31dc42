//! cufront-cuda: the CUDA meaning of declarations, computed from the syntax tree.
//!
//! - [`attrs`]: CUDA attributes as they arrive in a preprocessed unit
//!   (`__global__` is `__attribute__((global))`, spec 20 §2) and which ones the
//!   host compiler must not see.
//! - [`walk`]: the declarations of a unit with their context (enclosing
//!   namespaces and classes, `extern "C"`, template-ness), bodies excluded.
//! - [`decl`]: the syntactic shape of a declarator: its name and the chain of
//!   derivations (pointer, array, function) from the name outwards.
//! - [`spaces`]: execution spaces of functions merged over redeclarations
//!   (spec 20 §3.1) and memory spaces of variables.
//!
//! Invariants: no I/O, no global state; every function here is total over
//! trees with syntax errors (missing parts give `None`, never a panic).
//!
//! Limits (documented, not silent): redeclarations are matched by qualified
//! name plus the spelling of the parameter types (typedef-insensitive
//! matching needs the `hir` crate); entities declared in function bodies are
//! not indexed (the host output keeps bodies of host code as written).

pub mod attrs;
pub mod decl;
mod green;
pub mod spaces;
pub mod walk;

pub use attrs::CudaAttrs;
pub use spaces::{ExecSpace, MemSpace, SpaceIndex};
pub use walk::{Ctx, Seg};

#[cfg(test)]
mod tests;
