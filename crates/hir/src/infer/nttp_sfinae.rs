//! SFINAE in the type of a non-type template parameter
//! ([temp.deduct.general]/8): `template<class T, enable_if_t<cond<T>, int> = 0>`
//! (thrust's `smart_sort`, cub's dispatch helpers) removes the candidate
//! when the type does not substitute once the arguments are known. Without
//! it, two such overloads both look viable and partial ordering picks the
//! more specialized one, which may be the disabled one.

use super::*;

/// Err when the type of a non-type parameter of `f` (a member of a
/// template instance whose environment is `outer`) fails to substitute with `args`.
pub(super) fn nttp_types_substitute(
    db: &dyn SourceDatabase,
    map: &DefMap,
    f: FnDecl,
    outer: &Env,
    params: &[TemplateParam],
    args: &[TemplateArg],
) -> Result<(), crate::SemaError> {
    if !params.iter().any(|p| matches!(p.kind, TemplateParamKind::Value(_)) && !p.pack) {
        return Ok(());
    }
    let Some(scope) = instances::fn_scope(db, f) else { return Ok(()) };
    let mut env = outer.clone();
    for (p, a) in params.iter().zip(args) {
        if let Some(n) = &p.name {
            env.names.push((n.clone(), a.clone()));
        }
    }
    let cx = LowerCx { db, map, item: f.item(db), scope, env: Some(&env) };
    for p in params {
        let TemplateParamKind::Value(t) = &p.kind else { continue };
        if p.pack {
            continue;
        }
        // Only a failure of substitution counts: a gap of the model keeps the candidate.
        let Ok(ty) = templates::nested(|| Ok(ty::lower(cx, t))) else { continue };
        // The failure may be under a declarator: CuTe's
        // `typename enable_if<cond>::type* = nullptr`.
        let mut ty = canonical(db, ty);
        while let TyKind::Ptr(t) | TyKind::LRef(t) | TyKind::RRef(t) | TyKind::Qualified(t, _) = ty.kind(db) {
            ty = canonical(db, *t);
        }
        if let TyKind::Error(e) = ty.kind(db)
            && e.is_substitution_failure()
        {
            return Err(crate::error::subst_failure!(
                "substitution failure in the type of `{}`",
                p.name.clone().unwrap_or_default()
            ));
        }
    }
    Ok(())
}
