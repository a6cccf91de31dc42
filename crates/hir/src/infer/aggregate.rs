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
//! Designated initializers (`{.b = 1, .c = x}`, C++20, which EDG also
//! takes before C++20) name the members they initialize; the others are
//! initialized as if not named. EDG's rules on designations
//! ([`DesignationError`]) are recorded where the list breaks them. Lists
//! with designations C++ does not have (array, chained), designators that
//! name no direct member, aggregates with bases, and brace elision
//! (`int a[2][2] = {1, 2, 3, 4}`) are not modelled: such a list is left
//! alone (no call is guessed).

use super::*;
use crate::body::Designator;

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
        if depth > MAX_AGGREGATE_DEPTH || self.stopped() {
            return false;
        }
        if elems.iter().any(|x| matches!(self.body.expr(*x), Expr::PackExpansion(_))) {
            return false;
        }
        if elems.iter().any(|x| matches!(self.body.expr(*x), Expr::Designated { .. })) {
            return self.designated_init(t, elems, depth);
        }
        let Some(targets) = self.aggregate_targets(t, elems) else { return false };
        for (k, (ft, init)) in targets.into_iter().enumerate() {
            match elems.get(k) {
                Some(&x) => self.init_element(x, ft, depth),
                None => self.init_unnamed(ft, init, elems),
            }
        }
        true
    }

    /// Initializes the aggregate class `t` from a list with designated
    /// elements, walking it as EDG does: a designator moves to the member it
    /// names, a plain element to the member after the one before. False
    /// (nothing initialized, nothing recorded) for a list of a shape not
    /// modelled, or one with more elements than members.
    fn designated_init(&mut self, t: TyId, elems: &[ExprId], depth: u32) -> bool {
        let db = self.db;
        let Some(class) = self.class_ref(strip_cv(db, canonical(db, t))) else { return false };
        if !self.is_aggregate(class) || !templates::class_bases_of(db, class).is_empty() {
            return false;
        }
        let members = self.fields_and_bases(class);
        let union = self.is_union(class);
        // Each element: its value and the member its designator names.
        let mut plan: Vec<(ExprId, ExprId, Option<usize>)> = Vec::new();
        for &x in elems {
            match self.body.expr(x) {
                Expr::Designated { designator: Designator::Member(m), value } => {
                    let Some(i) = members.iter().position(|(n, _)| n.as_deref() == Some(m.as_str())) else {
                        return false;
                    };
                    plan.push((x, *value, Some(i)));
                }
                Expr::Designated { .. } => return false,
                _ => plan.push((x, x, None)),
            }
        }
        let mut errors = Vec::new();
        let first_designated = plan.first().is_some_and(|p| p.2.is_some());
        if let Some(&(_, value, _)) = plan.iter().find(|p| p.2.is_some() != first_designated) {
            errors.push((value, DesignationError::Mixed));
        }
        let mut inits: Vec<Option<ExprId>> = vec![None; members.len()];
        let mut designated = vec![false; members.len()];
        let mut next = 0;
        for &(x, value, d) in &plan {
            let i = match d {
                Some(i) => {
                    if designated[i] || (union && designated.contains(&true)) {
                        errors.push((x, DesignationError::Duplicate));
                    } else if i < next {
                        errors.push((x, DesignationError::OutOfOrder));
                    }
                    designated[i] = true;
                    i
                }
                None => next,
            };
            // Too many initializer values: not modelled.
            if i >= members.len() {
                return false;
            }
            inits[i] = Some(value);
            // A union's list initializes one member.
            next = if union { members.len() } else { i + 1 };
        }
        self.res.designation_errors.extend(errors);
        for (k, (name, ft)) in members.into_iter().enumerate() {
            match (inits[k], name) {
                (Some(v), _) => self.init_element(v, ft, depth),
                (None, _) if union => {}
                (None, name) => {
                    let init = name.filter(|n| self.field_has_init(class, n)).map(|n| (class, n));
                    self.init_unnamed(ft, init, elems);
                }
            }
        }
        true
    }

    /// A member of type `ft` the list `elems` does not name: from its
    /// default member initializer (`init`, `infer/nsdmi.rs`), else
    /// value-initialized (`{}`).
    fn init_unnamed(&mut self, ft: TyId, init: Option<(templates::ClassRefT, String)>, elems: &[ExprId]) {
        match init {
            Some((class, name)) => {
                for e in super::nsdmi::field_init_required(self.db, class, &name) {
                    self.require(e);
                }
            }
            None => {
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

    fn is_union(&self, class: templates::ClassRefT) -> bool {
        let db = self.db;
        let c = match class {
            templates::ClassRefT::Class(c) => c,
            templates::ClassRefT::Inst(i) => i.class(db),
        };
        let c = self.map.class_definition(c);
        item_tree_of(db, c.item(db))
            .classes
            .get(c.idx(db) as usize)
            .is_some_and(|d| d.key == crate::item_tree::ClassKey::Union)
    }

    /// The elements an aggregate `t` list-initialized from `elems` has, with
    /// whether each has a default member initializer: None when `t` is not
    /// an aggregate or the list is not of a modelled shape.
    fn aggregate_targets(
        &mut self,
        t: TyId,
        elems: &[ExprId],
    ) -> Option<Vec<(TyId, Option<(templates::ClassRefT, String)>)>> {
        let db = self.db;
        let c = strip_cv(db, canonical(db, t));
        match c.kind(db) {
            TyKind::Array(e, n) => {
                let e = *e;
                // Brace elision into class elements is not modelled.
                if self.is_class(e)
                    && elems.iter().any(|x| !self.is_braced(*x) && !self.same_class(self.stored_ty(*x).unwrap_or(e), e))
                {
                    return None;
                }
                let n = n.map_or(elems.len() as u64, |n| n);
                if n < elems.len() as u64 {
                    return None;
                }
                // The elements written, and one for all the value-initialized
                // rest (`int a[1ull << 60] = {1};` allocates nothing here).
                let n = n.min(elems.len() as u64 + 1) as usize;
                Some((0..n).map(|_| (e, None)).collect())
            }
            _ => {
                let class = self.class_ref(c)?;
                if !self.is_aggregate(class) {
                    return None;
                }
                let mut out = Vec::new();
                for (name, ft) in self.fields_and_bases(class) {
                    let init = name.filter(|n| self.field_has_init(class, n)).map(|n| (class, n));
                    out.push((ft, init));
                }
                if out.len() < elems.len() {
                    return None;
                }
                Some(out)
            }
        }
    }

    /// Whether list-initializing `t` from the (inferred) `elems` performs
    /// a narrowing conversion ([dcl.init.list]/3.9, /7): a scalar `T{x}`,
    /// or an aggregate's scalar element, nested lists followed. Such a
    /// list is ill-formed, so in a substitution (`decltype(_Arr<T>{{declval<U>()}})`,
    /// libstdc++'s `variant` converting constructor) it is a failure.
    pub(super) fn list_narrows(&mut self, t: TyId, elems: &[ExprId]) -> bool {
        self.list_narrows_depth(t, elems, 0)
    }

    fn list_narrows_depth(&mut self, t: TyId, elems: &[ExprId], depth: u32) -> bool {
        let db = self.db;
        if depth > MAX_AGGREGATE_DEPTH {
            return false;
        }
        let c = strip_cv(db, canonical(db, t));
        if let TyKind::Builtin(_) = c.kind(db) {
            return match elems {
                [x] if !self.is_braced(*x) => self.narrows(*x, c),
                [x] => match self.body.expr(*x).clone() {
                    Expr::InitList(ys) => self.list_narrows_depth(c, &ys, depth + 1),
                    _ => false,
                },
                _ => false,
            };
        }
        // Designated elements do not initialize the members in order.
        if elems.iter().any(|x| matches!(self.body.expr(*x), Expr::Designated { .. })) {
            return false;
        }
        let Some(targets) = self.aggregate_targets(c, elems) else { return false };
        for (&x, (ft, _)) in elems.iter().zip(targets) {
            let narrows = match self.body.expr(x).clone() {
                Expr::InitList(ys) => self.list_narrows_depth(ft, &ys, depth + 1),
                _ => !self.is_class(ft) && self.narrows(x, strip_cv(db, canonical(db, ft))),
            };
            if narrows {
                return true;
            }
        }
        false
    }

    /// Whether initializing a scalar `to` from the expression `x` narrows:
    /// only certain cases count (an arithmetic conversion that loses
    /// range from an operand that is certainly not a constant expression),
    /// since a constant whose value fits is not narrowing.
    fn narrows(&mut self, x: ExprId, to: TyId) -> bool {
        let db = self.db;
        let Some(from) = self.stored_ty(x) else { return false };
        let from = strip_cv(db, canonical(db, from));
        // Enumerations (their range is not their underlying type's) are not modelled.
        let (TyKind::Builtin(f), TyKind::Builtin(t)) = (from.kind(db), to.kind(db)) else { return false };
        if !narrowing_conversion(*f, *t) {
            return false;
        }
        self.certainly_not_constant(x)
    }

    /// An operand that is not a constant expression whatever its value: a
    /// call of a function that is not `constexpr` (`std::declval<T>()`), or
    /// a variable not usable in constant expressions.
    fn certainly_not_constant(&self, x: ExprId) -> bool {
        let db = self.db;
        match self.body.expr(x) {
            Expr::Call { .. } => {
                let callee = self.res.calls.iter().find(|(s, _)| *s == CallSite::Expr(x)).map(|(_, c)| c);
                let decl = match callee {
                    Some(Callee::Entity(Entity::Fn(f))) => instances::FnDecl::Fn(*f),
                    Some(Callee::Entity(Entity::FnInst(i))) => i.decl(db),
                    _ => return false,
                };
                decl.data(db).is_some_and(|d| !d.linkage.is_constexpr)
            }
            Expr::Path(_) => match self.res.resolutions.get(&x) {
                Some(Resolution::Local(l)) => !self.const_locals.iter().any(|(k, _)| k == l),
                _ => false,
            },
            _ => false,
        }
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

/// [dcl.init.list]/7 between arithmetic types, for an operand that is not a
/// constant expression: floating to integral, integral to floating, a
/// floating type to one of less precision, an integral type to one that
/// cannot represent all its values (`bool` to anything but `bool` from
/// another integral type).
fn narrowing_conversion(from: Builtin, to: Builtin) -> bool {
    use crate::consteval::{is_floating, is_integral, max_value, min_value};
    if from == to || matches!(from, Builtin::Void | Builtin::NullPtr) || matches!(to, Builtin::Void | Builtin::NullPtr)
    {
        return false;
    }
    match (is_floating(from), is_floating(to)) {
        (true, false) => is_integral(to),
        (false, true) => is_integral(from),
        (true, true) => float_rank(from) > float_rank(to),
        (false, false) => min_value(from) < min_value(to) || max_value(from) > max_value(to),
    }
}

/// Precision order of the floating-point builtins (x86-64: `long double`
/// is the 80-bit format, `_Float128` above it).
fn float_rank(b: Builtin) -> u8 {
    match b {
        Builtin::Float16 | Builtin::BF16 => 0,
        Builtin::Float | Builtin::Float32 => 1,
        Builtin::Double | Builtin::Float64 | Builtin::Float32x => 2,
        Builtin::LongDouble | Builtin::Float64x => 3,
        _ => 4,
    }
}
