//! Explicit instantiations of function templates ([temp.explicit]):
//! `template void f<int>(int *);` names the specialization whose type is
//! the declared function type, its template arguments given or deduced
//! from that type ([temp.deduct.decl]).
//!
//! Certainty: the name is looked up as a call's is (unqualified from the
//! namespace of the declaration, or in the namespace a qualifier names);
//! each function template found is deduced as for a call whose arguments
//! have the declared parameter types (an lvalue of `U` for `U&`, an xvalue
//! for `U&&`), and kept only when the specialization's substituted type
//! equals the declared one. Exactly one must remain. A qualifier that
//! names a class template specialization (`template void S<int>::f();`)
//! looks in its members. Class instantiations (`template struct S<int>;`)
//! are not resolved.

use super::*;
use crate::item_tree::{ExplicitFnInst, Path};
use crate::scopes::{DefMap, Ns, ScopeIdx};

/// The function template specializations the unit instantiates explicitly
/// (`extern template` declarations are not), each with its declarator-id
/// (item, offset in the item), in source order.
#[salsa::tracked(returns(clone))]
pub fn explicit_instances(
    db: &dyn SourceDatabase,
    tu: cufront_base_db::TranslationUnit,
) -> Arc<Vec<(ItemId, u32, FnInstanceId)>> {
    let map = def_map(db, tu);
    let mut out = Vec::new();
    for &(scope, item, i) in &map.explicit_insts {
        let tree = item_tree_of(db, item);
        let Some(e) = tree.explicit_insts.get(i as usize).filter(|e| !e.extern_) else { continue };
        if let Some(inst) = resolve(db, &map, scope, item, e) {
            out.push((item, e.at, inst));
        }
    }
    Arc::new(out)
}

fn resolve(
    db: &dyn SourceDatabase,
    map: &DefMap,
    scope: ScopeIdx,
    item: ItemId,
    e: &ExplicitFnInst,
) -> Option<FnInstanceId> {
    let last = e.name.segments.last()?;
    let cx = LowerCx { db, map, item, scope, env: None };
    // The candidates, each with the class template specialization it is a
    // member of.
    let fns: Vec<(FnDecl, Option<InstId>)> = if e.name.segments.len() == 1 && !e.name.global {
        scopes::lookup_fns(db, map, scope, &last.name).into_iter().map(|f| (f, None)).collect()
    } else {
        let q = Path { global: e.name.global, segments: e.name.segments[..e.name.segments.len() - 1].to_vec() };
        match scopes::resolve_path(db, map, scope, &q, Ns::Scope)? {
            scopes::Def::Namespace(s) => {
                scopes::own_fns(db, map, s, &last.name).into_iter().map(|f| (f, None)).collect()
            }
            // `template void S<int>::f();`: a member of a specialization.
            _ => match templates::class_of(db, ty::canonical(db, templates::lower_path(cx, &q))).ok()? {
                c @ ClassRefT::Inst(_) => instances::member_fns(db, c, &last.name),
                ClassRefT::Class(_) => return None,
            },
        }
    };
    let declared: Vec<TyId> = e.ty.params.iter().map(|p| ty::canonical(db, ty::lower(cx, p))).collect();
    if declared.iter().any(|&t| ty_has_error(db, t)) {
        return None;
    }
    let want: Vec<TyId> = declared.iter().map(|&t| strip_cv(db, ty::adjust_param(db, t))).collect();
    let want_ret = ty::canonical(db, ty::lower(cx, &e.ty.ret));
    // The declared parameters as a call's arguments.
    let args: Vec<Arg> = declared
        .iter()
        .map(|&t| match t.kind(db) {
            TyKind::LRef(u) => Arg { ty: *u, cat: Category::LValue, null: false, braced: false },
            TyKind::RRef(u) => Arg { ty: *u, cat: Category::XValue, null: false, braced: false },
            _ => Arg::prvalue(t),
        })
        .collect();
    let mut found = None;
    for (f, outer) in fns {
        let Some(data) = f.data(db) else { continue };
        let targs = match f {
            FnDecl::Template(_) => {
                let env = match outer {
                    Some(o) => templates::inst_env(db, o).ok()?,
                    None => Env::default(),
                };
                let Ok(targs) = deduce_call::deduce(cx, f, &env, &data, last.args.as_deref(), &args) else {
                    continue;
                };
                targs
            }
            // A member function of a specialization (not a template itself).
            FnDecl::Fn(_) if outer.is_some() && last.args.is_none() => Vec::new(),
            FnDecl::Fn(_) => continue,
        };
        let inst = instances::fn_instance(db, f, outer, targs);
        let Ok(sig) = instances::signature(db, inst) else { continue };
        let params: Vec<TyId> = sig.params.iter().map(|&p| strip_cv(db, ty::adjust_param(db, p))).collect();
        if params != want || ty::canonical(db, sig.ret) != want_ret || sig.variadic != e.ty.variadic {
            continue;
        }
        if found.replace(inst).is_some_and(|other| other != inst) {
            return None; // two templates match: not told apart here
        }
    }
    found
}

fn ty_has_error(db: &dyn SourceDatabase, t: TyId) -> bool {
    matches!(t.kind(db), TyKind::Error(_) | TyKind::Dependent(_))
}
