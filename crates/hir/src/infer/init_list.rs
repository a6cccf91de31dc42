//! `std::initializer_list<E>`: the type a braced list takes where the
//! language gives it one ([dcl.init.list]/5): a range-for over `{a, b}`
//! ([stmt.ranged]), and list-initialization of a class whose
//! initializer-list constructor wins ([over.match.list]/1.1).

use super::*;

impl Infer<'_> {
    /// The class template `std::initializer_list`, when the TU declares it.
    fn init_list_template(&self) -> Option<crate::ClassId> {
        let path = Path {
            global: true,
            segments: ["std", "initializer_list"]
                .iter()
                .map(|n| PathSegment { name: (*n).to_string(), args: None })
                .collect(),
        };
        let Some(Def::ClassTemplate(c)) = scopes::resolve_path(self.db, self.map, scopes::ROOT, &path, Ns::Type) else {
            return None;
        };
        Some(self.map.template_def.get(&c).copied().unwrap_or(c))
    }

    /// `std::initializer_list<elem>`.
    pub(super) fn init_list_ty(&self, elem: TyId) -> Option<TyId> {
        let c = self.init_list_template()?;
        Some(mk(self.db, TyKind::App(templates::AppId::new(self.db, c, vec![TemplateArg::Type(elem)]))))
    }

    /// `E` of a (possibly cv- or reference-qualified) `std::initializer_list<E>`.
    pub(super) fn init_list_elem(&self, t: TyId) -> Option<TyId> {
        let db = self.db;
        let c = strip_cv(db, canonical(db, t));
        let c = match c.kind(db) {
            TyKind::LRef(x) | TyKind::RRef(x) => strip_cv(db, canonical(db, *x)),
            _ => c,
        };
        let TyKind::App(a) = c.kind(db) else { return None };
        if Some(a.template(db)) != self.init_list_template() {
            return None;
        }
        match a.args(db).first() {
            Some(TemplateArg::Type(e)) => Some(*e),
            _ => None,
        }
    }

    /// A `std::initializer_list` object of type `t` (cv- or
    /// reference-qualified) made from a braced list: its constructor from
    /// the backing array and length (`InferenceResult::init_list_ctors`).
    pub(super) fn materialized_init_list(&mut self, t: TyId) {
        let db = self.db;
        let c = strip_cv(db, canonical(db, t));
        let c = match c.kind(db) {
            TyKind::LRef(x) | TyKind::RRef(x) => strip_cv(db, canonical(db, *x)),
            _ => c,
        };
        let Some(class) = self.class_ref(c) else { return };
        let ctors = instances::member_fns(db, class, scopes::CTOR_KEY);
        let Some(&cand) = ctors.iter().find(|c| c.0.data(db).is_some_and(|d| d.ty.params.len() == 2)) else { return };
        let e = self.entity_of(cand, Vec::new());
        if !self.res.init_list_ctors.contains(&e) {
            self.res.init_list_ctors.push(e);
        }
    }

    /// The elements of braced list `e` (already inferred) as arguments.
    pub(super) fn braced_elems(&self, e: ExprId) -> Option<Vec<Arg>> {
        let Expr::InitList(xs) = self.body.expr(e) else { return None };
        xs.iter()
            .map(|x| {
                let ty = self.res.expr_tys.get(x.0 as usize).copied().flatten()?;
                let cat = self.res.categories.get(x.0 as usize).copied().unwrap_or(Category::PRValue);
                Some(Arg { ty, cat, null: self.is_null(*x), braced: matches!(self.body.expr(*x), Expr::InitList(_)) })
            })
            .collect()
    }

    /// The type `auto` deduces from braced list `e` in a range-for or
    /// `auto x = {…}`: `std::initializer_list<E>`, E from the first element
    /// (decayed, without cv).
    pub(super) fn braced_list_ty(&self, e: ExprId) -> Option<TyId> {
        let elems = self.braced_elems(e)?;
        let first = elems.first()?;
        if first.braced {
            return None;
        }
        let elem = decay(self.db, strip_cv(self.db, canonical(self.db, first.ty)));
        if matches!(elem.kind(self.db), TyKind::Error(_) | TyKind::Dependent(_)) {
            return None;
        }
        self.init_list_ty(elem)
    }

    /// List-initialization of `class` from the braced list `args`: its
    /// initializer-list constructor when one is viable (phase 1 of
    /// [over.match.list]; an empty list prefers the default constructor).
    pub(super) fn init_list_ctor(&mut self, ctors: &[Cand], args: &[Arg]) -> Option<Cand> {
        let db = self.db;
        if args.is_empty() {
            return None;
        }
        for &c in ctors {
            let FnDecl::Fn(_) = c.0 else { continue };
            let Ok(sig) = instances::signature(db, instances::fn_instance(db, c.0, c.1, Vec::new())) else { continue };
            let Some(&first) = sig.params.first() else { continue };
            let Some(elem) = self.init_list_elem(first) else { continue };
            if sig.params.len() > 1 && (param_defaults(db, c.0) as usize) < sig.params.len() - 1 {
                continue;
            }
            if args.iter().all(|a| self.conv_rank(*a, elem).is_some()) {
                return Some(c);
            }
        }
        None
    }

    /// After list-initialization of `t` from the braced list `xs`: when an
    /// initializer-list constructor takes it, each element copy-initializes
    /// an `E` of the backing array ([dcl.init.list]/5): `{"k", 1}` in
    /// `map<string, V>{{"k", 1}}` calls `pair`'s converting constructor.
    pub(super) fn init_list_elements(&mut self, t: TyId, xs: &[ExprId]) {
        let db = self.db;
        if xs.iter().any(|x| matches!(self.body.expr(*x), Expr::PackExpansion(_))) {
            return;
        }
        let Some(class) = self.class_ref(strip_cv(db, canonical(db, t))) else { return };
        let ctors = instances::member_fns(db, class, scopes::CTOR_KEY);
        let args: Vec<Arg> = xs.iter().map(|x| self.stored_arg(*x)).collect();
        let Some(cand) = self.init_list_ctor(&ctors, &args) else { return };
        let Ok(sig) = instances::signature(db, instances::fn_instance(db, cand.0, cand.1, Vec::new())) else { return };
        let Some(elem) = sig.params.first().and_then(|p| self.init_list_elem(*p)) else { return };
        for &x in xs {
            self.init_element(x, elem, 0);
        }
    }
}
