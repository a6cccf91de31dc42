//! Class template argument deduction ([over.match.class.deduct], C++17):
//! `::cuda::std::array{d_histogram}` or `std::pair(1, 2.0)` names a class
//! template without arguments; the class is the return type of the
//! deduction guide overload resolution picks for the initializer. The
//! candidates are the template's deduction guides (function templates
//! under `item_tree::guide_name`, in the template's scope) and the copy
//! deduction candidate (`array{a}` with `a` an `array<…>` is `a`'s type).
//! Guides implied by constructors are not modelled: where no written guide
//! fits, the type stays an error.

use super::*;

impl Infer<'_> {
    /// The class `ty(args)` / `ty{args}` initializes when `ty` names a class
    /// template without arguments; `None` when it does not, or when no
    /// candidate fits.
    pub(super) fn deduce_class_args(&mut self, ty: &TypeRef, args: &[Arg]) -> Option<TyId> {
        let TypeRef::Path(p) = ty else { return None };
        if p.segments.last()?.args.is_some() {
            return None;
        }
        let db = self.db;
        let Ok(templates::Resolved::Def(Def::ClassTemplate(c), _, _)) = templates::resolve(self.lcx(), p, Ns::Type) else { return None };
        let c = self.map.template_def.get(&c).copied().unwrap_or(c);
        if let [a] = args
            && !a.braced
            && self.specializes(c, a.ty)
        {
            return Some(strip_cv(db, canonical(db, a.ty)));
        }
        let name = item_tree_of(db, c.item(db)).classes.get(c.idx(db) as usize)?.name.clone()?;
        let scope = *self.map.parent.get(&DeclKey::Class(c))?;
        let cands: Vec<Cand> = self
            .map
            .scope(scope)
            .names
            .get(&crate::item_tree::guide_name(&name))?
            .iter()
            .filter_map(|d| match d {
                Def::FnTemplate(g) => Some((FnDecl::Template(*g), None)),
                _ => None,
            })
            .collect();
        let (_, _, sig) = self.resolve_overload(&cands, None, args, None).ok()?;
        let t = canonical(db, sig.ret);
        self.class_ref(t).is_some().then_some(t)
    }

    /// Whether `t` (cv-qualified or not) is a specialization of class template `c`.
    fn specializes(&self, c: crate::ClassId, t: TyId) -> bool {
        let db = self.db;
        let canon = |k: crate::ClassId| self.map.template_def.get(&k).copied().unwrap_or(k);
        match strip_cv(db, canonical(db, t)).kind(db) {
            TyKind::App(a) => canon(a.template(db)) == c,
            TyKind::Inst(i) => canon(i.class(db)) == c,
            _ => false,
        }
    }
}
