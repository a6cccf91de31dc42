//! The arguments of an alias template specialization, bound as
//! `apply_alias` binds them (pack expansions expanded, packs grouped,
//! defaults lowered where the alias is declared, with the earlier
//! arguments), for callers that expand the alias themselves (the mangling
//! of dependent signatures, `symbols::mangle_written`).

use crate::item_tree::TemplateArgRef;
use crate::scopes::{self, DeclKey};
use crate::ty::LowerCx;
use crate::{TypedefId, item_tree_of};

use super::{Env, TemplateArg, bind, lower_arg};

/// The arguments of `t<written>`, one per parameter of the alias.
pub(crate) fn bind_args(
    cx: LowerCx<'_>,
    t: TypedefId,
    written: &[TemplateArgRef],
) -> Result<Vec<TemplateArg>, crate::SemaError> {
    let db = cx.db;
    let tree = item_tree_of(db, t.item(db));
    let data = tree.typedefs.get(t.idx(db) as usize).ok_or("no such alias")?;
    let params = data.tparams.clone().unwrap_or_default();
    let scope = cx.map.parent.get(&DeclKey::Typedef(t)).copied().unwrap_or(scopes::ROOT);
    let env = match cx.env {
        Some(e) if e.scopes.contains(&scope) => e.clone(),
        _ => Env::default(),
    };
    let item = t.item(db);
    let mut defaults = |i: usize, sofar: &[TemplateArg]| -> Option<Result<TemplateArg, crate::SemaError>> {
        let p = params.get(i)?;
        let d = p.default.as_ref()?;
        let mut e = env.clone();
        for (k, a) in sofar.iter().enumerate() {
            if let Some(n) = params.get(k).and_then(|p| p.name.clone()) {
                e.names.push((n, a.clone()));
            }
        }
        Some(lower_arg(LowerCx { db, map: cx.map, item, scope, env: Some(&e) }, &p.kind, d))
    };
    bind(cx, &params, written, &mut defaults)
}
