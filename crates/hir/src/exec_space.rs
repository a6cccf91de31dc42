//! Execution spaces of the unit's functions (spec 20 §3): the CUDA
//! attributes of every declaration of a function, merged (an attribute on
//! any declaration applies to the function: `__device__ void f(); void f()
//! {}` stays device-only), and the space they give.
//!
//! The attributes are read once per declaration by `cufront_cuda::attrs`
//! (the item tree's `Linkage::cuda`); redeclarations are the declarations
//! of the same scope and name with the same parameter types, matched as
//! `instances::fn_definition` matches a definition to its declaration.
//!
//! Invariants: no offsets are read (an edit inside a body re-runs nothing
//! here); an entity the model cannot place (an implicit special member, a
//! closure member) has no space (`None`): checks stay silent for it.

use cufront_base_db::SourceDatabase;
pub use cufront_cuda::{CudaAttrs, ExecSpace};

use crate::Entity;
use crate::instances::{self, FnDecl};
use crate::scopes::{self, def_map};

/// The CUDA attributes of `decl` merged over its redeclarations in the unit.
#[salsa::tracked]
pub fn fn_attrs(db: &dyn SourceDatabase, decl: FnDecl) -> CudaAttrs {
    let Some(data) = decl.data(db) else { return CudaAttrs::default() };
    let mut attrs = data.linkage.cuda;
    for other in redeclarations(db, decl) {
        if let Some(d) = other.data(db) {
            attrs = attrs.merge(d.linkage.cuda);
        }
    }
    attrs
}

/// Where `decl` runs.
pub fn fn_exec_space(db: &dyn SourceDatabase, decl: FnDecl) -> ExecSpace {
    ExecSpace::from_attrs(fn_attrs(db, decl))
}

/// Where a function entity runs; `None` for entities whose space follows
/// from what they call (implicit special members, inherited constructors)
/// or that are no declarations of the unit (closure members, stubs).
pub fn exec_space(db: &dyn SourceDatabase, e: Entity) -> Option<ExecSpace> {
    let decl = match e {
        Entity::Fn(f) => FnDecl::Fn(f),
        Entity::FnInst(i) => i.decl(db),
        _ => return None,
    };
    // A function defaulted without an annotation gets its space as an
    // implicit special member does, from what it calls (`__half2() =
    // default;` is callable from device code).
    let attrs = fn_attrs(db, decl);
    if decl.data(db).is_some_and(|d| d.defaulted) && !attrs.host && !attrs.device && !attrs.global {
        return None;
    }
    Some(ExecSpace::from_attrs(attrs))
}

/// Whether `decl` is declared `constexpr` on any of its declarations.
pub fn fn_is_constexpr(db: &dyn SourceDatabase, decl: FnDecl) -> bool {
    let own = decl.data(db).is_some_and(|d| d.linkage.is_constexpr);
    own || redeclarations(db, decl).into_iter().any(|o| o.data(db).is_some_and(|d| d.linkage.is_constexpr))
}

/// A parameter's written type without its top-level cv and `__restrict`.
fn unqualified(t: &crate::item_tree::TypeRef) -> &crate::item_tree::TypeRef {
    match t {
        crate::item_tree::TypeRef::Cv(x, _) => unqualified(x),
        _ => t,
    }
}

/// The other declarations of the function `decl` declares: same scope
/// (out-of-line ones included), same name, same kind of template head and
/// the same written parameter types (template parameters by position).
pub fn redeclarations(db: &dyn SourceDatabase, decl: FnDecl) -> Vec<FnDecl> {
    let Some(data) = decl.data(db) else { return Vec::new() };
    let map = def_map(db, decl.tu(db));
    let Some(scope) = instances::decl_scope(db, &map, decl.item(db), decl.parent(db, &map), data.qualifier.as_ref())
    else {
        return Vec::new();
    };
    let key = scopes::fn_name_key(&data.name);
    let mut cands: Vec<FnDecl> = map.qualified_fns.get(&(scope, key.clone())).cloned().unwrap_or_default();
    cands.extend(map.scope(scope).names.get(&key).into_iter().flatten().filter_map(instances::def_fn));
    let head = decl.tparams(db);
    let mut out: Vec<FnDecl> = Vec::new();
    for c in cands {
        if c == decl || out.contains(&c) || matches!(c, FnDecl::Template(_)) != matches!(decl, FnDecl::Template(_)) {
            continue;
        }
        let Some(cd) = c.data(db) else { continue };
        if cd.ty.params.len() != data.ty.params.len()
            || cd.ty.cv != data.ty.cv
            || cd.ty.ref_qual != data.ty.ref_qual
            || !instances::same_head_kinds(&c.tparams(db), &head)
        {
            continue;
        }
        // Top-level qualifiers of a parameter are not part of the function's
        // type: glibc's `printf(const char *__restrict, ...)` and CUDA's
        // `__host__ __device__ printf(const char*, ...)` are one function.
        let same = cd.ty.params.iter().zip(&data.ty.params).all(|(a, b)| unqualified(a) == unqualified(b));
        if same || instances::same_params_renamed(db, decl, c) {
            out.push(c);
        }
    }
    out
}
