//! A call written like a functional cast. The parser takes a dependent
//! `Q::template f<N>(op)` for a type followed by `(`, but without a
//! `typename` a dependent qualified name is not a type ([temp.res.general]/4):
//! it names what lookup finds once `Q` is known — in CUB's policy chain,
//! `PrevPolicyT::template invoke_static<DevicePtxVersion>(op)`, a static
//! member function template of a base of the previous policy. When the
//! "type" does not lower to a type but the name finds functions, the
//! expression is the call.

use super::*;

impl Infer<'_> {
    /// The call `p(args)` when the cast's type `ty` is a path naming
    /// functions rather than a type; `None` leaves it a construction.
    pub(super) fn construct_as_call(
        &mut self,
        e: ExprId,
        ty: &TypeRef,
        args: &[ExprId],
        braced: bool,
    ) -> Option<(TyId, Category)> {
        let TypeRef::Path(p) = ty else { return None };
        if braced || p.segments.len() < 2 {
            return None;
        }
        let db = self.db;
        if !matches!(self.lower(ty).kind(db), TyKind::Error(_)) {
            return None;
        }
        let Value::Fns(cands, targs) = self.resolve_value(p) else { return None };
        let a = self.args(args);
        // A non-static member of the class or a base, called from a member: `this`.
        let this_arg = self.class.filter(|_| self.has_this).map(|c| {
            let t = class_ty(db, c);
            let t = if self.this_cv.is_empty() { t } else { mk(db, TyKind::Qualified(t, self.this_cv)) };
            Arg { ty: t, cat: Category::LValue, null: false, braced: false }
        });
        Some(self.finish_call(e, &cands, targs.as_deref(), &a, this_arg))
    }
}
