//! Defaulted copy and move assignment operators ([class.copy.assign]/12):
//! `X& operator=(X&&) = default;` assigns each base, then each non-static
//! data member, with that subobject's own `operator=`, its argument the
//! source's subobject of the parameter's category and cv-qualification
//! (`unique_ptr`'s defaulted move assignment calls `__uniq_ptr_data`'s,
//! which calls `__uniq_ptr_impl`'s user-written one).
//!
//! Subobjects without a declared `operator=` (implicit assignments, trivial
//! or not) are left out: the implicit assignment operators are not entities.

use crate::item_tree::Cv;
use crate::ty::{canonical, mk, TyKind};

use super::{class_ty, collapse, strip_cv, Arg, CallSite, Callee, Category, Infer};
use crate::instances;

impl Infer<'_> {
    /// The assignments a defaulted `operator=` of the owner's class performs.
    pub(super) fn defaulted_assign(&mut self) {
        let Some(class) = self.class else { return };
        let db = self.db;
        let &[p] = self.body.params.as_slice() else { return };
        let Some(pt) = self.res.local_tys[p.0 as usize] else { return };
        let own = class_ty(db, class);
        let cv_of = |x| match canonical(db, x).kind(db) {
            TyKind::Qualified(_, cv) => *cv,
            _ => Cv::default(),
        };
        let (cat, cv) = match collapse(db, canonical(db, pt)).kind(db) {
            TyKind::LRef(x) if self.same_class(*x, own) => (Category::LValue, cv_of(*x)),
            TyKind::RRef(x) if self.same_class(*x, own) => (Category::XValue, cv_of(*x)),
            _ => return,
        };
        for (_, t) in self.fields_and_bases(class) {
            let c = strip_cv(db, canonical(db, t));
            let Some(sub) = self.class_ref(c) else { continue };
            let members = instances::member_fns(db, sub, "operator=");
            if members.is_empty() {
                continue;
            }
            let ty = if cv.c || cv.v { mk(db, TyKind::Qualified(c, Cv { r: false, ..cv })) } else { c };
            let arg = Arg { ty, cat, null: false, braced: false };
            let obj = Arg { ty: c, cat: Category::LValue, null: false, braced: false };
            if let Ok((cand, targs, _, _)) = self.resolve_overload_ranked(&members, None, &[arg], Some(obj)) {
                let e = self.entity_of(cand, targs);
                self.require(e);
                self.res.calls.push((CallSite::Owner, Callee::Entity(e)));
            }
        }
    }
}
