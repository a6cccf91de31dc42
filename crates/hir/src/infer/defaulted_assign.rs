//! Defaulted and implicit copy and move assignment operators
//! ([class.copy.assign]/12): `X& operator=(X&&) = default;`, and the
//! implicit one a class without a viable declared `operator=` gets, assign
//! each base, then each non-static data member, with that subobject's own
//! assignment, its argument the source's subobject of the parameter's
//! category and cv-qualification (`unique_ptr`'s defaulted move assignment
//! calls `__uniq_ptr_data`'s, which calls `__uniq_ptr_impl`'s user-written
//! one; `struct M { std::string name; double v; }`'s implicit move
//! assignment calls `basic_string`'s).
//!
//! A subobject's assignment is overload resolution over its declared
//! `operator=`, else its implicit one (`instances::implicit_assign`),
//! which is an entity only when not trivial.

use cufront_base_db::SourceDatabase;

use crate::Entity;
use crate::body::Body;
use crate::item_tree::Cv;
use crate::scopes::def_map;
use crate::templates::{self, ClassRefT};
use crate::ty::{LowerCx, TyKind, canonical, mk};

use super::{Arg, CallSite, Callee, Category, Infer, class_ty, collapse, strip_cv};
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
        self.assign_subobjects(class, cat, cv);
    }

    /// Requires (and records as the owner's calls) the assignment of each
    /// base and member of `class` from a source of category `cat` and
    /// qualification `cv`.
    fn assign_subobjects(&mut self, class: ClassRefT, cat: Category, cv: Cv) {
        let db = self.db;
        for (_, t) in self.fields_and_bases(class) {
            let c = strip_cv(db, canonical(db, t));
            let Some(sub) = self.class_ref(c) else { continue };
            let ty = if cv.c || cv.v { mk(db, TyKind::Qualified(c, Cv { r: false, ..cv })) } else { c };
            let arg = Arg { ty, cat, null: false, braced: false };
            let obj = Arg { ty: c, cat: Category::LValue, null: false, braced: false };
            let members = instances::member_fns(db, sub, "operator=");
            let e = match self.resolve_overload_ranked(&members, None, &[arg], Some(obj)) {
                Ok((cand, targs, _, _)) if !members.is_empty() => Some(self.entity_of(cand, targs)),
                _ => instances::implicit_assign(db, sub, cat != Category::LValue),
            };
            if let Some(e) = e {
                self.require(e);
                self.res.calls.push((CallSite::Owner, Callee::Entity(e)));
            }
        }
    }
}

/// What the implicit copy (`rvalue` false) or move assignment of `class`
/// uses: each subobject's assignment (`assign_subobjects`), inferred in the
/// class's scope.
pub fn implicit_assign_required(db: &dyn SourceDatabase, class: ClassRefT, rvalue: bool) -> Vec<Entity> {
    let k = match class {
        ClassRefT::Class(k) => k,
        ClassRefT::Inst(i) => i.class(db),
    };
    let map = def_map(db, k.tu(db));
    let k = map.class_definition(k);
    let Some(&scope) = map.class_scope.get(&k) else { return Vec::new() };
    let env = match class {
        ClassRefT::Inst(i) => match templates::inst_env(db, i) {
            Ok(e) => Some(e),
            Err(_) => return Vec::new(),
        },
        ClassRefT::Class(_) => None,
    };
    let body = Body::default();
    let cx = LowerCx { db, map: &map, item: k.item(db), scope, env: env.as_ref() };
    let mut inf = Infer::type_level(cx, &body);
    let cat = if rvalue { Category::XValue } else { Category::LValue };
    let cv = Cv { c: !rvalue, ..Cv::default() };
    templates::nested(|| {
        inf.assign_subobjects(class, cat, cv);
        Ok(())
    })
    .ok();
    inf.res.required
}
