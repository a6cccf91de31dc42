//! Function addresses as template arguments ([temp.arg.nontype]): a value
//! parameter of pointer-to-function type takes `f` or `&f`, and when `f`
//! names an overload set the parameter's type picks the member
//! ([over.over]): thrust's `cuda_memory_resource<cudaMalloc, cudaFree, …>`
//! names the C `cudaMalloc`, not the `cudaMalloc<T>` template beside it.
//!
//! Only functions found by name (namespace scope, or a namespace-qualified
//! path) whose type equals the pointee are taken; templates in the set would
//! need deduction from the target type and are skipped.

use crate::Entity;
use crate::instances::{self, FnDecl};
use crate::item_tree::{ConstExpr, Path, PathSegment};
use crate::scopes::{self, Def, Ns};
use crate::templates::TemplateArg;
use crate::ty::{self, LowerCx, TyId, TyKind};

/// `Some` when `param` is a pointer to function and `e` names a function of
/// that type; `None` lets the caller evaluate `e` as a constant.
pub(crate) fn function_address(cx: LowerCx<'_>, e: &ConstExpr, param: TyId) -> Option<TemplateArg> {
    let db = cx.db;
    let param = ty::canonical(db, param);
    let TyKind::Ptr(pointee) = param.kind(db) else { return None };
    let TyKind::Func(want) = ty::canonical(db, *pointee).kind(db).clone() else { return None };
    let path = named_function(e)?;
    let fns = overload_set(cx, &path)?;
    let want = adjusted(db, &want);
    let found = fns.into_iter().filter_map(|f| match f {
        FnDecl::Fn(f) => {
            let sig = instances::signature(db, instances::fn_instance(db, FnDecl::Fn(f), None, Vec::new())).ok()?;
            (adjusted(db, &sig) == want).then_some(f)
        }
        FnDecl::Template(_) => None,
    });
    // Redeclarations of one function: the first declaration is the one its
    // linkage comes from ([dcl.link]/5, [dcl.stc]/3), as EDG names it: the
    // device view's `static __device__ cudaMalloc(void**, size_t)` of
    // `cuda_device_runtime_api.h`, then the runtime's `extern "C"` one.
    let mut all: Vec<crate::FnId> = found.collect();
    if all.len() > 1 {
        all.sort_by_key(|&f| crate::locate::fn_order(db, f));
    }
    let f = *all.first()?;
    Some(TemplateArg::Addr(Entity::Fn(f), param))
}

/// The path of `f`, `&f` or `(f)` (a unary `&` is not a `ConstExpr`
/// operator: the item tree keeps its text).
fn named_function(e: &ConstExpr) -> Option<Path> {
    match e {
        ConstExpr::Path(p) => Some(p.clone()),
        ConstExpr::Unsupported(text) => {
            let rest = text.trim().strip_prefix('&')?.trim();
            let rest = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')).unwrap_or(rest).trim();
            let (global, rest) = match rest.strip_prefix("::") {
                Some(r) => (true, r),
                None => (false, rest),
            };
            let mut segments = Vec::new();
            for s in rest.split("::") {
                let s = s.trim();
                if s.is_empty()
                    || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    || s.starts_with(|c: char| c.is_ascii_digit())
                {
                    return None;
                }
                segments.push(PathSegment { name: s.to_string(), args: None });
            }
            Some(Path { global, segments })
        }
        _ => None,
    }
}

/// The functions `p` names from the argument's scope: unqualified lookup,
/// or the members of the namespace a qualifier names.
fn overload_set(cx: LowerCx<'_>, p: &Path) -> Option<Vec<FnDecl>> {
    let db = cx.db;
    let last = p.segments.last()?;
    if last.args.is_some() {
        return None;
    }
    if p.segments.len() == 1 {
        let fns = if p.global {
            scopes::own_fns(db, cx.map, scopes::ROOT, &last.name)
        } else {
            scopes::lookup_fns(db, cx.map, cx.scope, &last.name)
        };
        return (!fns.is_empty()).then_some(fns);
    }
    let q = Path { global: p.global, segments: p.segments[..p.segments.len() - 1].to_vec() };
    match scopes::resolve_path(db, cx.map, cx.scope, &q, Ns::Scope)? {
        Def::Namespace(s) => {
            let fns = scopes::own_fns(db, cx.map, s, &last.name);
            (!fns.is_empty()).then_some(fns)
        }
        _ => None,
    }
}

/// A function type as [over.over] compares it: canonical parameter types
/// without top-level cv, canonical return type, `noexcept` dropped.
fn adjusted(db: &dyn cufront_base_db::SourceDatabase, s: &ty::FnSig) -> ty::FnSig {
    let mut s = s.clone();
    // A `noexcept` function converts to a pointer to a plain one.
    s.noexcept = false;
    s.ret = ty::canonical(db, s.ret);
    for p in &mut s.params {
        *p = crate::infer::strip_cv(db, ty::canonical(db, *p));
    }
    s
}
