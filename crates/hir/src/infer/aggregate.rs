//! Aggregate initialization ([dcl.init.aggr]): a braced list that
//! initializes an array or a class without user-declared constructors
//! initializes the elements — bases, then non-static data members, in
//! order — each from its initializer-clause by copy-initialization (a
//! nested braced list recursively), and the members it does not name from
//! their default member initializers or by value-initialization. What
//! matters for the instantiation closure are the constructors these
//! element initializations call (`{"copy", f, false}` for a struct with a
//! `std::string` member constructs the string from `const char*`).
//!
//! Brace elision (`int a[2][2] = {1, 2, 3, 4}`) and designated
//! initializers are not modelled: such a list is left alone (no call is
//! guessed).

use super::*;

/// Nested braced lists deeper than this are not followed.
const MAX_AGGREGATE_DEPTH: u32 = 32;

impl Infer<'_> {
    /// Initializes `t` from the (already inferred) braced list `elems` when
    /// `t` is an aggregate; false when it is not one (the caller then
    /// resolves a constructor).
    pub(super) fn aggregate_init(&mut self, t: TyId, elems: &[ExprId]) -> bool {
        self.aggregate_init_depth(t, elems, 0)
    }

    fn aggregate_init_depth(&mut self, t: TyId, elems: &[ExprId], depth: u32) -> bool {
        let db = self.db;
        if depth > MAX_AGGREGATE_DEPTH || self.stopped() {
            return false;
        }
        if elems.iter().any(|x| matches!(self.body.expr(*x), Expr::Designated(_) | Expr::PackExpansion(_))) {
            return false;
        }
        let c = strip_cv(db, canonical(db, t));
        // Each element's type, and for a member with a default member
        // initializer its class and name.
        let targets: Vec<(TyId, Option<(templates::ClassRefT, String)>)> = match c.kind(db) {
            TyKind::Array(e, n) => {
                let e = *e;
                // Brace elision into class elements is not modelled.
                if self.is_class(e) && elems.iter().any(|x| !self.is_braced(*x) && !self.same_class(self.stored_ty(*x).unwrap_or(e), e)) {
                    return false;
                }
                let n = n.map_or(elems.len(), |n| n as usize);
                if n < elems.len() {
                    return false;
                }
                (0..n).map(|_| (e, None)).collect()
            }
            _ => {
                let Some(class) = self.class_ref(c) else { return false };
                if !self.is_aggregate(class) {
                    return false;
                }
                let mut out = Vec::new();
                for (name, ft) in self.fields_and_bases(class) {
                    let init = name.filter(|n| self.field_has_init(class, n)).map(|n| (class, n));
                    out.push((ft, init));
                }
                if out.len() < elems.len() {
                    return false;
                }
                out
            }
        };
        for (k, (ft, init)) in targets.into_iter().enumerate() {
            match (elems.get(k), init) {
                (Some(&x), _) => self.init_element(x, ft, depth),
                // Not named: the default member initializer (`infer/nsdmi.rs`),
                // else value-initialized (`{}`).
                (None, Some((class, name))) => {
                    for e in super::nsdmi::field_init_required(db, class, &name) {
                        self.require(e);
                    }
                }
                (None, None) => {
                    if self.is_class(ft) {
                        let before = self.res.calls.len();
                        self.construct(CallSite::Expr(elems.last().copied().unwrap_or(ExprId(0))), ft, &[], false);
                        if let Some((_, Callee::Unresolved(_))) = self.res.calls.get(before) {
                            self.res.calls.truncate(before);
                        }
                    }
                }
            }
        }
        true
    }

    /// Copy-initializes an element of type `ft` from initializer-clause `x`.
    pub(super) fn init_element(&mut self, x: ExprId, ft: TyId, depth: u32) {
        let db = self.db;
        let ft_c = strip_cv(db, canonical(db, ft));
        if let Expr::InitList(ys) = self.body.expr(x).clone() {
            if self.aggregate_init_depth(ft_c, &ys, depth + 1) {
                return;
            }
            if self.is_class(ft_c) {
                // A pack expansion gives one argument per element (its
                // pattern inferred again per element: `{std::forward<_Args>(__args)...}`).
                let args: Vec<Arg> = if ys.iter().any(|y| matches!(self.body.expr(*y), Expr::PackExpansion(_))) {
                    self.args(&ys)
                } else {
                    ys.iter().map(|y| self.stored_arg(*y)).collect()
                };
                self.construct(CallSite::Expr(x), ft_c, &args, true);
            }
            return;
        }
        if !self.is_class(ft_c) {
            return;
        }
        let a = self.stored_arg(x);
        // From a prvalue of the same class: elided.
        if a.cat == Category::PRValue && self.same_class(a.ty, ft_c) {
            return;
        }
        self.construct(CallSite::Expr(x), ft_c, &[a], false);
    }

    /// An aggregate class ([dcl.init.aggr]/1, C++17): no user-declared or
    /// inherited constructors, no virtual functions or virtual bases.
    fn is_aggregate(&self, class: templates::ClassRefT) -> bool {
        if !instances::member_fns(self.db, class, scopes::CTOR_KEY).is_empty() {
            return false;
        }
        if !instances::inherited::inherited_ctors(self.db, class, 0).is_empty() {
            return false;
        }
        !templates::class_bases_of(self.db, class).iter().any(|b| b.is_virtual)
    }

    fn is_braced(&self, x: ExprId) -> bool {
        matches!(self.body.expr(x), Expr::InitList(_))
    }

    fn stored_ty(&self, x: ExprId) -> Option<TyId> {
        self.res.expr_tys.get(x.0 as usize).copied().flatten()
    }

    /// The argument an inferred expression gives (not inferred again: that
    /// would record its calls twice).
    pub(super) fn stored_arg(&mut self, x: ExprId) -> Arg {
        let ty = match self.stored_ty(x) {
            Some(t) => t,
            None => return self.arg(x),
        };
        let cat = self.res.categories.get(x.0 as usize).copied().unwrap_or(Category::PRValue);
        Arg { ty, cat, null: self.is_null(x), braced: self.is_braced(x) }
    }
}
