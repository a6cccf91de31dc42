//! Fold expressions ([expr.prim.fold], [temp.variadic]/10) in an instance:
//! the pattern is inferred once per element of the pack it names, and the
//! operator is applied across the elements as the expansion nests them — a
//! right fold `(E op ...)` / `(E op ... op I)` from the last operand
//! backwards, a left fold `(... op E)` / `(I op ... op E)` from the first
//! forwards — so that `(xs + ... + 0)` over `int, long` is `long`, as
//! `x1 + (x2 + 0)` is. An empty unary fold of `&&` or `||` is `bool`.
//! Outside an instance (no pack bound) the fold stays dependent.

use super::{Arg, Category, Infer};
use crate::body::{BinaryOp, ExprId};
use crate::templates::TemplateArg;
use crate::ty::{TyId, TyKind, mk};

impl Infer<'_> {
    pub(super) fn fold(
        &mut self,
        e: ExprId,
        op: Option<BinaryOp>,
        lhs: Option<ExprId>,
        rhs: Option<ExprId>,
    ) -> (TyId, Category) {
        let db = self.db;
        let dependent = (mk(db, TyKind::Dependent("fold".into())), Category::PRValue);
        // The pattern is the operand that names a pack; in a binary fold
        // the other is the initial value.
        let (pattern, init, right) = match (lhs, rhs) {
            (Some(l), None) => (l, None, true),
            (None, Some(r)) => (r, None, false),
            (Some(l), Some(r)) if self.names_bound_pack(l) => (l, Some(r), true),
            (Some(l), Some(r)) => (r, Some(l), false),
            (None, None) => return dependent,
        };
        let expands = self.names_bound_pack(pattern);
        let mut items = self.pack_elems(pattern);
        let init = init.map(|x| self.arg(x));
        let (Some(op), true) = (op, expands) else { return dependent };
        match init {
            Some(i) if right => items.push(i),
            Some(i) => items.insert(0, i),
            None => {}
        }
        let Some((&first, rest)) = (if right { items.split_last() } else { items.split_first() }) else {
            // An empty expansion of a unary fold: `true` for `&&`, `false` for `||`.
            return match op {
                BinaryOp::And | BinaryOp::Or => (self.builtin(crate::item_tree::Builtin::Bool), Category::PRValue),
                _ => dependent,
            };
        };
        let mut acc = first;
        let step = |cx: &mut Self, l: Arg, r: Arg| {
            let (ty, cat) = cx.binary(e, op, l, r);
            Arg { ty, cat, null: false, braced: false }
        };
        if right {
            for &x in rest.iter().rev() {
                acc = step(self, x, acc);
            }
        } else {
            for &x in rest {
                acc = step(self, acc, x);
            }
        }
        (acc.ty, acc.cat)
    }

    /// Whether `x` names a pack bound in this instance's environment.
    fn names_bound_pack(&self, x: ExprId) -> bool {
        let mut names = Vec::new();
        self.pack_names(x, &mut names, 0);
        let Some(env) = self.env.as_ref() else { return false };
        names.iter().any(|n| matches!(env.get(n), Some(TemplateArg::Pack(_))))
    }
}
