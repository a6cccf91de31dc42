//! Whether cicc emits a function on the device (spec 40 §4.1's
//! execution-space filter): `__device__` or `__host__ __device__` over
//! all its declarations (`hir::exec_space`: the CUDA headers redeclare
//! `printf`, `<cmath>`'s `std::sin(float)`, the global `operator new` and
//! `operator delete` with `__host__ __device__`), kernels excepted (they
//! are listed as kernels), and the functions the CUDA front end treats as
//! `__host__ __device__` without the attribute (CUDA C++ Programming
//! Guide, "C++11 language features"): the `std::move` and `std::forward`
//! function templates and the member functions of `std::initializer_list`;
//! a lambda's members run where its annotation (an extended lambda) or
//! else its enclosing function says;
//! with `--relaxed_constexpr` (`--expt-relaxed-constexpr`), every
//! unannotated `constexpr` function.

use cufront_base_db::SourceDatabase;
use cufront_hir::Entity;
use cufront_hir::body::Expr;
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::infer::{self, InferOwner};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::item_tree::FnName;
use cufront_hir::scopes::{ScopeKind, def_map};

/// Whether the function entity `e` is a device (or host-device) function
/// other than a kernel.
pub fn is_device_fn(db: &dyn SourceDatabase, e: Entity, relaxed_constexpr: bool) -> bool {
    if let Entity::Closure(f) = e {
        return closure_on_device(db, f, relaxed_constexpr);
    }
    match exec_space::exec_space(db, e) {
        Some(ExecSpace::Device | ExecSpace::HostDevice) => true,
        Some(ExecSpace::ImplicitHost) if relaxed_constexpr && is_constexpr(db, e) => true,
        Some(ExecSpace::Host | ExecSpace::ImplicitHost) => implicitly_host_device(db, e),
        Some(ExecSpace::Global) | None => false,
    }
}

/// Whether the function entity `e` is declared `constexpr` (or
/// `consteval`) on any of its declarations.
fn is_constexpr(db: &dyn SourceDatabase, e: Entity) -> bool {
    match e {
        Entity::Fn(f) => exec_space::fn_is_constexpr(db, FnDecl::Fn(f)),
        Entity::FnInst(i) => exec_space::fn_is_constexpr(db, i.decl(db)),
        _ => false,
    }
}

/// The functions cicc treats as `__host__ __device__` without the
/// attribute: `std::move(T&&)`, `std::forward<T>(…)` and the members of
/// `std::initializer_list<E>`.
fn implicitly_host_device(db: &dyn SourceDatabase, e: Entity) -> bool {
    let decl = match e {
        Entity::Fn(f) => FnDecl::Fn(f),
        Entity::FnInst(i) => i.decl(db),
        _ => return false,
    };
    let Some(data) = decl.data(db) else { return false };
    let map = def_map(db, decl.tu(db));
    let Some(scope) = instances::fn_scope(db, decl) else { return false };
    let in_std = |s| {
        let s = map.scope(s);
        matches!(&s.kind, ScopeKind::Namespace { name: Some(n), .. } if n == "std")
            && s.parent.is_some_and(|p| matches!(map.scope(p).kind, ScopeKind::Root))
    };
    match &map.scope(scope).kind {
        // The utilities, not `<algorithm>`'s three-argument `std::move`.
        ScopeKind::Namespace { .. } => {
            matches!(decl, FnDecl::Template(_))
                && matches!(&data.name, FnName::Ident(n) if n == "move" || n == "forward")
                && data.ty.params.len() == 1
                && in_std(scope)
        }
        ScopeKind::Class(c) => {
            let tree = c.data(db);
            tree.classes.get(c.idx(db) as usize).and_then(|k| k.name.as_deref()) == Some("initializer_list")
                && map.scope(scope).parent.is_some_and(in_std)
        }
        _ => false,
    }
}

/// Where a closure's member functions run: an extended lambda's
/// (`[] __device__ (…) {…}`) where its annotation says, any other lambda's
/// where the function it is written in runs (a kernel's on the device).
fn closure_on_device(db: &dyn SourceDatabase, f: infer::ClosureFnId, relaxed_constexpr: bool) -> bool {
    let c = f.closure(db);
    let owner = c.owner(db);
    let body = infer::owner_body(db, owner);
    if let Some(Expr::Lambda { host, device, .. }) = body.exprs.get(c.expr(db).0 as usize)
        && (*host || *device)
    {
        return *device;
    }
    let enclosing = match owner {
        InferOwner::Fn(g) => Entity::Fn(g),
        InferOwner::Inst(i) => Entity::FnInst(i),
        InferOwner::Closure(g) => return closure_on_device(db, g, relaxed_constexpr),
        InferOwner::Var(_) | InferOwner::VarInst(_) => return false,
    };
    exec_space::exec_space(db, enclosing) == Some(ExecSpace::Global) || is_device_fn(db, enclosing, relaxed_constexpr)
}
