//! Implicit ABI tags (GCC's `abi_tag`, which libstdc++ puts on the inline
//! namespace `__cxx11`): a function that is not a template, whose return
//! type carries tags its name and parameter types do not, gets them on its
//! own name, sorted (`std::string PowerJob::name() const` is
//! `_ZNK8PowerJob4nameB5cxx11Ev`). Tags a declaration inherits from its
//! namespace are never written where the name is; they only count here.

use cufront_base_db::SourceDatabase;

use crate::scopes::{DeclKey, DefMap, ScopeIdx};
use crate::templates::TemplateArg;
use crate::ty::{TyId, TyKind, canonical};

/// The tags of the namespaces enclosing `s` (itself included).
pub(crate) fn scope_tags(map: &DefMap, s: ScopeIdx, out: &mut Vec<String>) {
    let mut cur = Some(s);
    let mut steps = 0;
    while let Some(c) = cur {
        steps += 1;
        if steps > 256 {
            break;
        }
        for t in map.ns_abi_tags.get(&c).into_iter().flatten() {
            if !out.contains(t) {
                out.push(t.clone());
            }
        }
        cur = map.scope(c).parent;
    }
}

/// The tags a type carries: those of the namespaces of the classes and
/// enumerations it names, template arguments included.
pub(crate) fn ty_tags(db: &dyn SourceDatabase, map: &DefMap, t: TyId, depth: u32, out: &mut Vec<String>) {
    if depth > 32 || map.ns_abi_tags.is_empty() {
        return;
    }
    let t = canonical(db, t);
    let class_tags = |c: crate::ClassId, out: &mut Vec<String>| {
        let c = map.class_definition(c);
        let s = map.class_scope.get(&c).copied().or_else(|| map.parent.get(&DeclKey::Class(c)).copied());
        if let Some(s) = s {
            scope_tags(map, s, out);
        }
    };
    let args = |a: &[TemplateArg], out: &mut Vec<String>| {
        for a in a {
            match a {
                TemplateArg::Type(t) => ty_tags(db, map, *t, depth + 1, out),
                TemplateArg::Pack(v) => {
                    for x in v {
                        if let TemplateArg::Type(t) = x {
                            ty_tags(db, map, *t, depth + 1, out);
                        }
                    }
                }
                _ => {}
            }
        }
    };
    match t.kind(db) {
        TyKind::Ptr(x) | TyKind::LRef(x) | TyKind::RRef(x) | TyKind::Array(x, _) | TyKind::Qualified(x, _) => {
            ty_tags(db, map, *x, depth + 1, out)
        }
        TyKind::MemPtr { class, pointee } => {
            ty_tags(db, map, *class, depth + 1, out);
            ty_tags(db, map, *pointee, depth + 1, out);
        }
        TyKind::Func(sig) => {
            ty_tags(db, map, sig.ret, depth + 1, out);
            for p in &sig.params {
                ty_tags(db, map, *p, depth + 1, out);
            }
        }
        TyKind::Class(c) => class_tags(*c, out),
        TyKind::Enum(e) => {
            if let Some(s) = map.parent.get(&DeclKey::Enum(*e)) {
                scope_tags(map, *s, out);
            }
        }
        TyKind::App(a) => {
            class_tags(a.template(db), out);
            args(a.args(db), out);
        }
        TyKind::Inst(i) => {
            class_tags(i.class(db), out);
            args(i.args(db), out);
        }
        _ => {}
    }
}

/// The tags `ret` carries that the rest of the signature (`scope`, where the
/// function is declared, and `params`) does not: what its name gets, sorted.
pub(crate) fn missing_tags(
    db: &dyn SourceDatabase,
    map: &DefMap,
    scope: ScopeIdx,
    params: &[TyId],
    ret: TyId,
) -> Vec<String> {
    if map.ns_abi_tags.is_empty() {
        return Vec::new();
    }
    let mut of_ret = Vec::new();
    ty_tags(db, map, ret, 0, &mut of_ret);
    if of_ret.is_empty() {
        return of_ret;
    }
    let mut have = Vec::new();
    scope_tags(map, scope, &mut have);
    for p in params {
        ty_tags(db, map, *p, 0, &mut have);
    }
    let mut out: Vec<String> = of_ret.into_iter().filter(|t| !have.contains(t)).collect();
    out.sort();
    out
}
