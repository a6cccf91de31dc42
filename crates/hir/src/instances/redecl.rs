//! Definitions that redeclare a function without a qualifier: a
//! declaration in one header, the definition later in the same namespace
//! (thrust's `scan.h` / `scan.inl`). Lookup finds both; the one overload
//! resolution keeps is matched here with the definition of the same
//! signature: parameter and return types as written, the template's own
//! parameter names replaced by their positions (a definition may rename
//! them).

use cufront_base_db::SourceDatabase;

use crate::item_tree::FnData;
use crate::scopes::{self, DefMap, ScopeIdx};

use super::FnDecl;

pub(super) fn unqualified_definition(db: &dyn SourceDatabase, map: &DefMap, decl: FnDecl, data: &FnData, scope: ScopeIdx, key: &str) -> Option<FnDecl> {
    let want = signature_key(db, decl, data);
    scopes::own_fns(db, map, scope, key).into_iter().find(|&c| {
        c != decl
            && matches!(c, FnDecl::Template(_)) == matches!(decl, FnDecl::Template(_))
            && c.data(db).is_some_and(|cd| {
                cd.linkage.is_definition
                    && cd.qualifier.is_none()
                    && cd.ty.params.len() == data.ty.params.len()
                    && cd.ty.cv == data.ty.cv
                    && cd.ty.ref_qual == data.ty.ref_qual
                    && c.tparams(db).len() == decl.tparams(db).len()
                    && signature_key(db, c, &cd) == want
            })
    })
}

/// The written signature with template parameter names as `$k`.
fn signature_key(db: &dyn SourceDatabase, d: FnDecl, data: &FnData) -> String {
    let mut s = format!("{:?} {:?} {:?}", data.ty.ret, data.ty.params, data.pack_params);
    for (k, p) in d.tparams(db).iter().enumerate() {
        if let Some(n) = &p.name {
            s = s.replace(&format!("{n:?}"), &format!("\"${k}\""));
        }
    }
    s
}
