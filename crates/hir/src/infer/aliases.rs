//! Block-scope type aliases (`typedef T X;` and `using X = T;` in a body):
//! bound in the inference environment like template parameters, so that
//! types written later in the block, functional casts (`X(e)`) and
//! qualified names (`X::f(e)`) see them; released at the end of the block.
//! libstdc++ leans on them (`chrono::duration_cast`'s `__dc::__cast`,
//! `system_clock::from_time_t`'s `__from(…)`).

use crate::body::Expr;
use crate::item_tree::TypeRef;
use crate::templates::{Env, TemplateArg};
use crate::ty::{TyId, TyKind, canonical, mk};

use super::{Category, Infer, ty_has_placeholder};

impl Infer<'_> {
    /// Binds the aliases of one declaration, in order (a later one may use an earlier one).
    pub(super) fn local_aliases(&mut self, aliases: &[(String, TypeRef)]) {
        for (name, t) in aliases {
            let ty = match self.alias_decltype(t) {
                Some(ty) => ty,
                None => self.lower(t),
            };
            self.env.get_or_insert_with(Env::default).names.push((name.clone(), TemplateArg::Type(ty)));
        }
    }

    /// `decltype(e)` as a whole alias (`using _From = decltype(*__first);`):
    /// `e` typed in the body ([dcl.type.decltype]: an lvalue gives `T&`, an
    /// xvalue `T&&`, a prvalue `T`). An unparenthesized name is left to
    /// `lower`, which sees the local's declared type (`bind_local`).
    pub(super) fn alias_decltype(&mut self, t: &TypeRef) -> Option<TyId> {
        let TypeRef::Opaque(text) = t else { return None };
        let &(_, e) = self.body.alias_decltypes.iter().find(|(s, _)| s == text.trim())?;
        if matches!(self.body.expr(e), Expr::Path(_)) {
            return None;
        }
        // An unevaluated operand: what it would call is not odr-used.
        let (required, calls) = (self.res.required.len(), self.res.calls.len());
        let (ty, cat) = self.expr_cat(e);
        for r in self.res.required.drain(required..) {
            self.seen.remove(&r);
        }
        self.res.calls.truncate(calls);
        let c = canonical(self.db, ty);
        if ty_has_placeholder(self.db, c, 0) || matches!(c.kind(self.db), TyKind::Dependent(_) | TyKind::Error(_)) {
            return None;
        }
        Some(match cat {
            Category::LValue => mk(self.db, TyKind::LRef(ty)),
            Category::XValue => mk(self.db, TyKind::RRef(ty)),
            Category::PRValue => ty,
        })
    }

    /// The `decltype`s written in the types of expression `e`
    /// (`decltype(rank(t))::value`, `decltype(x){}`), typed here, where the
    /// body's locals are in scope, and bound by their text like a local's
    /// `decltype(x)` (`bind_local`): `ty::lower` and qualified names find
    /// them there until the end of the block.
    pub(super) fn bind_expr_decltypes(&mut self, e: super::ExprId) {
        let body = self.body;
        for (owner, text) in &body.expr_decltypes {
            if *owner != e || self.env.as_ref().is_some_and(|env| env.get(text).is_some()) {
                continue;
            }
            if let Some(ty) = self.alias_decltype(&TypeRef::Opaque(text.clone())) {
                self.env.get_or_insert_with(Env::default).names.push((text.clone(), TemplateArg::Type(ty)));
            }
        }
    }

    /// What `alias_release` restores at the end of a block.
    pub(super) fn alias_mark(&self) -> Option<usize> {
        self.env.as_ref().map(|e| e.names.len())
    }

    pub(super) fn alias_release(&mut self, mark: Option<usize>) {
        match mark {
            Some(n) => {
                if let Some(e) = &mut self.env {
                    e.names.truncate(n);
                }
            }
            None => self.env = None,
        }
    }
}
