//! Structured bindings ([dcl.struct.bind]): `auto [a, b] = e;` declares a
//! hidden variable `e` (typed like any `auto` local, with the declaration's
//! cv and reference) and one name per element of its referenced type `E`:
//! - an array: lvalues of the element type (cv of `E`);
//! - a tuple-like type (`std::tuple_size<E>::value` is a constant): each name
//!   is a reference variable initialized by `e.get<i>()` (a member template
//!   `get` whose first template parameter is a value) or else by `get<i>(e)`
//!   found by argument-dependent lookup, `e` an lvalue when the hidden
//!   variable is an lvalue reference and an xvalue otherwise; those calls are
//!   odr-uses. The name's type is `std::tuple_element<i, E>::type`;
//! - otherwise the non-static data members of `E` (or of its one base holding
//!   them), in declaration order, as lvalues with `E`'s cv.
//!
//! Invariant: the hidden local is typed before its bindings (it precedes them
//! in `Body::locals` and in the declaration); a binding is stored as a
//! reference (it names an element, it is never destroyed), its `decltype` is
//! the referenced type.

use super::*;

impl Infer<'_> {
    /// The bindings of hidden local `hidden`, in order.
    pub(super) fn bindings_of(&self, hidden: LocalId) -> Vec<LocalId> {
        (0..self.body.locals.len() as u32)
            .map(LocalId)
            .filter(|l| self.body.local(*l).binding_of.is_some_and(|(h, _)| h == hidden))
            .collect()
    }

    /// Types binding `l` (element `i` of `hidden`) and binds its name.
    pub(super) fn binding(&mut self, l: LocalId, hidden: LocalId, i: u32) {
        let db = self.db;
        // The hidden object is destroyed at the end of the block like a
        // named local; the empty name is never looked up.
        if i == 0
            && let Some(s) = self.scopes.last_mut()
        {
            s.push((String::new(), hidden));
        }
        let ht = self.res.local_tys[hidden.0 as usize].unwrap_or_else(|| self.error("structured binding"));
        let hc = collapse(db, canonical(db, ht));
        let (e_ty, e_cat) = match hc.kind(db) {
            TyKind::LRef(x) => (*x, Category::LValue),
            TyKind::RRef(x) => (*x, Category::XValue),
            _ => (ht, Category::XValue),
        };
        let t = self.binding_ty(l, e_ty, e_cat, i).unwrap_or_else(|| self.error("structured binding"));
        let stored = if is_ref(db, t) { t } else { mk(db, TyKind::LRef(t)) };
        self.res.local_tys[l.0 as usize] = Some(stored);
        if let Some(n) = self.body.local(l).name.clone() {
            if let Some(s) = self.scopes.last_mut() {
                s.push((n.clone(), l));
            }
            if let Some(env) = self.env.as_mut() {
                let c = canonical(db, t);
                if !ty_has_placeholder(db, c, 0) && !matches!(c.kind(db), TyKind::Dependent(_) | TyKind::Error(_)) {
                    env.names.push((format!("decltype({n})"), TemplateArg::Type(t)));
                }
            }
        }
    }

    /// The type element `i` of an object of type `e_ty` names (the
    /// referenced type; a reference for the tuple-like case's `Ti&`).
    fn binding_ty(&mut self, l: LocalId, e_ty: TyId, e_cat: Category, i: u32) -> Option<TyId> {
        let db = self.db;
        let ce = canonical(db, e_ty);
        let (bare, cv) = match ce.kind(db) {
            TyKind::Qualified(x, cv) => (strip_cv(db, canonical(db, *x)), *cv),
            _ => (ce, crate::item_tree::Cv::default()),
        };
        let with_cv = |t: TyId| if cv.is_empty() || is_ref(db, t) { t } else { mk(db, TyKind::Qualified(t, cv)) };
        if let TyKind::Array(elem, _) = bare.kind(db) {
            return Some(with_cv(*elem));
        }
        let class = self.class_ref(bare)?;
        if let Some(size) = self.std_trait_class("tuple_size", vec![TemplateArg::Type(ce)])
            && let Some((Def::Var(v), env, _)) = templates::member_of(db, size, "value", Ns::Value, 0)
            && templates::member_value(self.lcx(), &Def::Var(v), env.as_ref()).is_ok()
        {
            return self.tuple_like_binding(l, class, e_ty, e_cat, ce, i);
        }
        let (owner, name) = self.binding_field(class, i)?;
        let ft = self.field_ty(owner, &name)?;
        Some(with_cv(ft))
    }

    /// `std::<name><args>` as a class (its selected specialization), when
    /// the unit declares the template and the specialization is defined.
    fn std_trait_class(&self, name: &str, args: Vec<TemplateArg>) -> Option<ClassRefT> {
        let path = Path {
            global: true,
            segments: ["std", name].iter().map(|n| PathSegment { name: (*n).to_string(), args: None }).collect(),
        };
        let Some(Def::ClassTemplate(c)) = scopes::resolve_path(self.db, self.map, scopes::ROOT, &path, Ns::Type) else {
            return None;
        };
        let c = self.map.template_def.get(&c).copied().unwrap_or(c);
        let t = mk(self.db, TyKind::App(templates::AppId::new(self.db, c, args)));
        self.class_ref(t)
    }

    /// The tuple-like case: the `get<i>` call (required) and
    /// `std::tuple_element<i, E>::type` (`E` with its cv).
    fn tuple_like_binding(
        &mut self,
        l: LocalId,
        class: ClassRefT,
        e_ty: TyId,
        e_cat: Category,
        e: TyId,
        i: u32,
    ) -> Option<TyId> {
        let db = self.db;
        let site = CallSite::Local(l);
        let obj = Arg { ty: e_ty, cat: e_cat, null: false, braced: false };
        let targs = [TemplateArgRef::Expr(crate::item_tree::ConstExpr::Int(i as u128, Builtin::ULong))];
        let members = instances::member_fns(db, class, "get");
        let member_get = members.iter().any(|c| match c.0 {
            FnDecl::Template(t) => {
                let tree = item_tree_of(db, t.item(db));
                tree.fn_templates
                    .get(t.idx(db) as usize)
                    .and_then(|d| d.tparams.first())
                    .is_some_and(|p| matches!(p.kind, crate::item_tree::TemplateParamKind::Value(_)))
            }
            FnDecl::Fn(_) => false,
        });
        let got = if member_get {
            self.member_call(site, class, obj, "get", &[], Some(&targs))
        } else {
            let cands = self.adl("get", &[obj]);
            match self.resolve_overload(&cands, Some(&targs), &[obj], None) {
                Ok((cand, ta, sig)) => {
                    let ent = self.entity_of(cand, ta);
                    self.require(ent);
                    self.res.calls.push((site, Callee::Entity(ent)));
                    let ret = self.deduced_return(ent, sig.ret);
                    Some(self.of_return(ret))
                }
                Err(err) => {
                    self.res.calls.push((site, Callee::Unresolved(err)));
                    None
                }
            }
        };
        let elem = self.std_trait_class(
            "tuple_element",
            vec![TemplateArg::Value(i as i128, self.builtin(Builtin::ULong)), TemplateArg::Type(e)],
        );
        let from_trait = elem.and_then(|c| {
            let (d, env, scope) = templates::member_of(db, c, "type", Ns::Type, 0)?;
            let t = templates::def_to_ty(self.lcx(), d, env.as_ref(), scope, None);
            (!matches!(canonical(db, t).kind(db), TyKind::Error(_))).then_some(t)
        });
        // Without the trait, the type `get` returns (less its reference).
        from_trait.or_else(|| got.map(|(t, _)| t))
    }

    /// Member `i` of the data member case: the class whose non-static data
    /// members are bound (`class` or its one base holding them) and the name.
    fn binding_field(&self, class: ClassRefT, i: u32) -> Option<(ClassRefT, String)> {
        let db = self.db;
        let mut c = class;
        for _ in 0..16 {
            let k = match c {
                ClassRefT::Class(k) => k,
                ClassRefT::Inst(x) => x.class(db),
            };
            let k = self.map.class_definition(k);
            let tree = item_tree_of(db, k.item(db));
            let data = tree.classes.get(k.idx(db) as usize)?;
            let names: Vec<String> = data.fields.iter().filter_map(|f| f.name.clone()).collect();
            if !names.is_empty() {
                return names.get(i as usize).map(|n| (c, n.clone()));
            }
            let bases = templates::class_bases_of(db, c);
            c = bases.iter().find_map(|b| b.class)?;
        }
        None
    }
}
