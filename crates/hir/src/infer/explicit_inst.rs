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
//! looks in its members.
//!
//! A class (`template struct S<int>;`, `template struct S<int>::Inner;`)
//! instantiates every member function it declares that the unit defines,
//! anywhere in the unit (cicc's stub registers the kernels launched by a
//! member defined after the instantiation too), and so the members of its
//! member classes; not its member templates and not the implicit special
//! members ([temp.explicit]/10–12).

use super::*;
use crate::item_tree::{FnRef, Path, PathSegment};
use crate::scopes::{Def, DefMap, Ns, ScopeIdx};

/// The function template specializations the unit instantiates explicitly
/// (`extern template` declarations are not), each with its declarator-id
/// (item, offset in the item; a class's name for the members of a class
/// instantiation), in source order.
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
        match &e.fn_ty {
            Some(ty) => out.extend(resolve(db, &map, scope, item, &e.name, ty).map(|inst| (item, e.at, inst))),
            None => {
                let cx = LowerCx { db, map: &map, item, scope, env: None };
                let mut members = Vec::new();
                class_members(cx, &e.name, 0, &mut members);
                out.extend(members.into_iter().map(|inst| (item, e.at, inst)));
            }
        }
    }
    Arc::new(out)
}

/// The member functions a class instantiation defines (see the module's
/// comment): those of the specialization `name` names, then those of its
/// member classes, each class's in declaration order.
fn class_members(cx: LowerCx<'_>, name: &Path, depth: u32, out: &mut Vec<FnInstanceId>) {
    let db = cx.db;
    if depth > 16 {
        return;
    }
    let Ok(ClassRefT::Inst(outer)) = templates::class_of(db, ty::canonical(db, templates::lower_path(cx, name))) else {
        return;
    };
    let map = def_map(db, outer.class(db).tu(db));
    let class = map.class_definition(outer.class(db));
    let Some(&s) = map.class_scope.get(&class) else { return };
    let mut fns = Vec::new();
    let mut classes = Vec::new();
    for defs in map.scope(s).names.values() {
        for d in defs {
            match d {
                Def::Fn(f) => fns.push(*f),
                Def::Class(k) if map.class_definition(*k) != class => classes.push(*k),
                _ => {}
            }
        }
    }
    fns.sort_by_key(|f| (f.item(db).ordinal(db), f.idx(db)));
    fns.dedup();
    for f in fns {
        let inst = instances::fn_instance(db, FnDecl::Fn(f), Some(outer), Vec::new());
        if instances::inst_definition(db, inst).is_some() {
            out.push(inst);
        }
    }
    classes.sort_by_key(|k| (k.item(db).ordinal(db), k.idx(db)));
    classes.dedup();
    for k in classes {
        let Some(member) = k.data(db).classes.get(k.idx(db) as usize).and_then(|d| d.name.clone()) else { continue };
        let mut path = name.clone();
        path.segments.push(PathSegment { name: member, args: None });
        class_members(cx, &path, depth + 1, out);
    }
}

fn resolve(
    db: &dyn SourceDatabase,
    map: &DefMap,
    scope: ScopeIdx,
    item: ItemId,
    name: &Path,
    ty: &FnRef,
) -> Option<FnInstanceId> {
    let last = name.segments.last()?;
    let cx = LowerCx { db, map, item, scope, env: None };
    // The candidates, each with the class template specialization it is a
    // member of.
    let fns: Vec<(FnDecl, Option<InstId>)> = if name.segments.len() == 1 && !name.global {
        scopes::lookup_fns(db, map, scope, &last.name).into_iter().map(|f| (f, None)).collect()
    } else {
        let q = Path { global: name.global, segments: name.segments[..name.segments.len() - 1].to_vec() };
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
    let declared: Vec<TyId> = ty.params.iter().map(|p| ty::canonical(db, ty::lower(cx, p))).collect();
    if declared.iter().any(|&t| ty_has_error(db, t)) {
        return None;
    }
    let want: Vec<TyId> = declared.iter().map(|&t| strip_cv(db, ty::adjust_param(db, t))).collect();
    let want_ret = ty::canonical(db, ty::lower(cx, &ty.ret));
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
        if params != want || ty::canonical(db, sig.ret) != want_ret || sig.variadic != ty.variadic {
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
