//! User-defined conversion sequences ([over.best.ics], [class.conv]): a
//! class type converts to another type through a converting constructor
//! of the target or a conversion function of the source, each followed or
//! preceded only by standard conversions (never a second user-defined
//! one). Detection idioms (`is_convertible` through `decltype`) depend on
//! the answer being "no" when neither exists.
//!
//! Constructor templates and conversion function templates are not
//! deduced here: their presence makes the answer "possible", except for a
//! constructor template whose own substitution, up the stack, asks the
//! question (thrust's `AgentPlan(P, disable_if_convertible<P,
//! AgentPlan>::type* = 0)`): the trait it instantiates is incomplete
//! there, so that candidate drops out and the trait comes out false.

use std::cell::Cell;

use super::*;

thread_local! {
    /// Set while a user-defined conversion is being checked: the
    /// standard conversions around it may not add another.
    static IN_USER_CONVERSION: Cell<bool> = const { Cell::new(false) };
}

impl Infer<'_> {
    /// Whether `a` (of class or non-class type `from`) converts to `to`
    /// by one user-defined conversion (or may: templates not checked).
    pub(super) fn user_conversion_possible(&self, a: Arg, from: TyId, to: TyId) -> bool {
        if IN_USER_CONVERSION.with(Cell::get) {
            return false;
        }
        crate::guard::with_cell(&IN_USER_CONVERSION, true, || self.user_conversion_inner(a, from, to))
    }

    fn user_conversion_inner(&self, a: Arg, from: TyId, to: TyId) -> bool {
        let db = self.db;
        let mut unknown = false;
        if let Some(tc) = self.class_ref(to) {
            for (d, outer) in instances::member_fns(db, tc, scopes::CTOR_KEY) {
                if matches!(d, FnDecl::Template(_)) {
                    if !self.ctor_template_under_way((d, outer), a) {
                        unknown = true;
                    }
                    continue;
                }
                let Ok(sig) = instances::signature(db, instances::fn_instance(db, d, outer, Vec::new())) else {
                    unknown = true;
                    continue;
                };
                let Some(&first) = sig.params.first() else { continue };
                if sig.params.len() - 1 > param_defaults(db, d) as usize {
                    continue;
                }
                if self.conv_rank(a, first).is_some() {
                    return true;
                }
            }
        }
        if let Some(fc) = self.class_ref(from) {
            for (d, outer) in instances::member_fns(db, fc, scopes::CONV_KEY) {
                if matches!(d, FnDecl::Template(_)) {
                    unknown = true;
                    continue;
                }
                let Ok(sig) = instances::signature(db, instances::fn_instance(db, d, outer, Vec::new())) else {
                    unknown = true;
                    continue;
                };
                let r = canonical(db, sig.ret);
                let ra = match r.kind(db) {
                    TyKind::LRef(x) => Arg { ty: *x, cat: Category::LValue, null: false, braced: false },
                    TyKind::RRef(x) => Arg { ty: *x, cat: Category::XValue, null: false, braced: false },
                    _ => Arg { ty: r, cat: Category::PRValue, null: false, braced: false },
                };
                if self.conv_rank(ra, to).is_some() {
                    return true;
                }
            }
        }
        unknown
    }
}

impl Infer<'_> {
    /// Whether the constructor template `c`, deduced from `a` alone, is an
    /// instance whose signature is being substituted up the stack (see
    /// [`instances::signature_under_way`]). Deduction runs only when some
    /// instance of the same template is under way.
    fn ctor_template_under_way(&self, c: Cand, a: Arg) -> bool {
        if !instances::decl_signature_under_way(self.db, c.0) {
            return false;
        }
        let Some(data) = c.0.data(self.db) else { return false };
        match self.deduce(c, &data, None, &[a]) {
            Ok(args) => instances::signature_under_way(instances::fn_instance(self.db, c.0, c.1, args)),
            Err(_) => false,
        }
    }
}

impl Infer<'_> {
    /// How many derivation steps lead from class `d` to its base `b` (the
    /// shortest path): a conversion to a nearer base is better
    /// ([over.ics.rank]/4.4), which tag-dispatch overload sets rely on.
    pub(super) fn derive_distance(&self, d: TyId, b: TyId) -> Option<u32> {
        let (Some(dc), Some(bc)) = (self.class_ref(d), self.class_ref(b)) else { return None };
        let mut level = vec![dc];
        for dist in 1..=32u32 {
            let mut next = Vec::new();
            for c in level {
                for base in templates::class_bases_of(self.db, c).iter() {
                    if let Some(x) = base.class {
                        if x == bc {
                            return Some(dist);
                        }
                        if !next.contains(&x) {
                            next.push(x);
                        }
                    }
                }
            }
            if next.is_empty() {
                return None;
            }
            level = next;
        }
        None
    }

    /// The part of a derived-to-base conversion's rank that prefers nearer
    /// bases (kept below the weight of a rank category).
    pub(super) fn base_distance_penalty(&self, d: TyId, b: TyId) -> u16 {
        3 * self.derive_distance(d, b).unwrap_or(1).min(30) as u16
    }
}
