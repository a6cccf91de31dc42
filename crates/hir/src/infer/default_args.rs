//! Default arguments written on a declaration other than the definition
//! ([dcl.fct.default]): `explicit contiguous_storage(const allocator_type& a
//! = allocator_type());` in the class, the constructor defined outside
//! without them. The definition's body has no default to read, so the
//! declaration's parameters are lowered on their own and typed in the
//! definition's scope and environment; what they odr-use is required like
//! the definition's own defaults (`infer_owner_until`). As for those, this
//! is an over-approximation: g++ instantiates a default argument only where
//! a call uses it.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;

use crate::body::{self, Body};
use crate::instances::{self, FnDecl};

/// The parameters of `decl` when it is not the definition and gives some
/// default argument; `None` otherwise.
#[salsa::tracked(returns(clone))]
pub(crate) fn declared_defaults(db: &dyn SourceDatabase, decl: FnDecl) -> Option<Arc<Body>> {
    let def = instances::fn_definition(db, decl)?;
    if def == decl || super::param_defaults(db, decl) == 0 {
        return None;
    }
    let at = match decl {
        FnDecl::Fn(f) => *body::item_fn_offsets(db, f.item(db)).get(f.idx(db) as usize)?,
        FnDecl::Template(t) => *crate::item_offsets(db, t.item(db)).fn_templates.get(t.idx(db) as usize)?,
    };
    let b = body::decl_params_at(db, decl.item(db), at)?;
    b.params.iter().any(|&p| b.local(p).default.is_some()).then(|| Arc::new(b))
}
