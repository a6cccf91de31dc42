//! Class template argument deduction ([over.match.class.deduct]): `C(args)`
//! and `C{args}` where `C` names a class template without arguments
//! (`filter_view(std::forward<R>(r), p)` in libstdc++'s `views::filter`,
//! `ref_view{r}` in `views::all`).
//!
//! The candidates are the template's deduction guides (`DefMap::guides`,
//! declared in the template's scope), one function template per
//! constructor of the primary template (the class's parameters, then the
//! constructor's own; the result is `C<params…>`, defaults filling what is
//! not deduced) and the copy deduction candidate `C(C<T…>)`. Each is
//! deduced like a function template call (`deduce_one`,
//! `packs::deduce_param_pack`); the viable one with the best conversion
//! ranks wins, a deduction guide over a
//! constructor on a tie ([over.match.best]/2.10). Not modelled: a class
//! template parameter's `T&&` in a constructor is not a forwarding
//! reference there; aggregate deduction; guides of member templates.

use super::*;

/// One candidate: a deduction guide or a constructor seen as one.
struct Candidate {
    item: ItemId,
    /// Where its types are lowered: the guide's scope, or the class's.
    scope: ScopeIdx,
    tparams: Vec<TemplateParam>,
    params: Vec<TypeRef>,
    pack_params: Vec<u32>,
    /// Parameters that have default arguments (constructors).
    defaults: usize,
    /// The guide's target; `None` for a constructor (`C<params…>`).
    target: Option<TypeRef>,
}

impl Infer<'_> {
    /// The class template `t` names without arguments (the injected-class-
    /// name aside: lowering gives it its arguments), if it does.
    pub(super) fn ctad_template(&self, t: &TypeRef) -> Option<crate::ClassId> {
        let TypeRef::Path(p) = t else { return None };
        if p.segments.last()?.args.is_some() {
            return None;
        }
        match templates::resolve(self.lcx(), p, Ns::Type) {
            Ok(templates::Resolved::Def(Def::ClassTemplate(c), _, _)) => {
                Some(self.map.template_def.get(&c).copied().unwrap_or(c))
            }
            _ => None,
        }
    }

    /// The specialization of class template `c` that initializing it with
    /// `args` deduces, if one candidate is viable and best.
    pub(super) fn ctad(&mut self, c: crate::ClassId, args: &[Arg]) -> Option<TyId> {
        let db = self.db;
        let tree = item_tree_of(db, c.item(db));
        let data = tree.classes.get(c.idx(db) as usize)?;
        let name = data.name.clone()?;
        let class_tparams = data.tparams.clone()?;
        let parent = self.map.parent.get(&DeclKey::Class(c)).copied()?;
        // The copy deduction candidate: `C(C<T…>)` deduces the argument's own type.
        if let [a] = args {
            let at = strip_cv(db, canonical(db, a.ty));
            let same = match at.kind(db) {
                TyKind::App(x) => self.map.template_def.get(&x.template(db)).copied().unwrap_or(x.template(db)) == c,
                _ => false,
            };
            if same {
                return Some(at);
            }
        }
        let mut cands: Vec<Candidate> = Vec::new();
        for &(item, i) in self.map.guides.get(&(parent, name.clone())).map(Vec::as_slice).unwrap_or(&[]) {
            let Some(g) = item_tree_of(db, item).guides.get(i as usize).cloned() else { continue };
            cands.push(Candidate {
                item,
                scope: parent,
                tparams: g.tparams,
                params: g.f.params,
                pack_params: g.f.pack_params,
                defaults: 0,
                target: Some(g.f.ret),
            });
        }
        let guides = cands.len();
        let def = self.map.class_definition(c);
        if let Some(&cs) = self.map.class_scope.get(&def) {
            for f in scopes::own_fns(db, self.map, cs, scopes::CTOR_KEY) {
                let Some(fd) = f.data(db) else { continue };
                let mut tparams = class_tparams.clone();
                tparams.extend(f.tparams(db));
                cands.push(Candidate {
                    item: f.item(db),
                    scope: cs,
                    tparams,
                    params: fd.ty.params.clone(),
                    pack_params: fd.ty.pack_params.clone(),
                    defaults: param_defaults(db, f) as usize,
                    target: None,
                });
            }
        }
        let mut best: Option<(Vec<Rank>, bool, TyId)> = None;
        let mut ambiguous = false;
        for (ci, cand) in cands.iter().enumerate() {
            let Some((ranks, t)) = self.ctad_candidate(cand, &name, parent, class_tparams.len(), args) else {
                continue;
            };
            let is_guide = ci < guides;
            match &best {
                None => best = Some((ranks, is_guide, t)),
                Some((br, bg, _)) => match compare(&ranks, br) {
                    std::cmp::Ordering::Less => {
                        best = Some((ranks, is_guide, t));
                        ambiguous = false;
                    }
                    std::cmp::Ordering::Equal if is_guide && !bg => {
                        best = Some((ranks, is_guide, t));
                        ambiguous = false;
                    }
                    std::cmp::Ordering::Equal
                        if is_guide == *bg
                            && canonical(db, t) != canonical(db, best.as_ref().map(|b| b.2).unwrap_or(t)) =>
                    {
                        ambiguous = true
                    }
                    _ => {}
                },
            }
        }
        if ambiguous {
            return None;
        }
        best.map(|b| canonical(db, b.2))
    }

    /// Deduces one candidate from `args`: its conversion ranks and the
    /// class type it yields.
    fn ctad_candidate(
        &self,
        cand: &Candidate,
        name: &str,
        parent: ScopeIdx,
        n_class: usize,
        args: &[Arg],
    ) -> Option<(Vec<Rank>, TyId)> {
        let db = self.db;
        let has_pack = !cand.pack_params.is_empty();
        if args.len() > cand.params.len() && !has_pack {
            return None;
        }
        let fixed = cand.params.len() - cand.pack_params.len();
        if args.len() + cand.defaults < fixed {
            return None;
        }
        let n = cand.tparams.len();
        let mut env = Env::default();
        for (i, p) in cand.tparams.iter().enumerate() {
            let a = if p.pack { packs::pack_placeholder(i as u32) } else { placeholder(db, p, i as u32) };
            if let Some(nm) = &p.name {
                env.names.push((nm.clone(), a));
            }
        }
        let cx = LowerCx { db, map: self.map, item: cand.item, scope: cand.scope, env: Some(&env) };
        let elem_env = packs::element_env(db, &env, &cand.tparams);
        let mut out: Vec<Option<TemplateArg>> = vec![None; n];
        let mut ai = 0;
        for (pi, pref) in cand.params.iter().enumerate() {
            let is_pack = cand.pack_params.contains(&(pi as u32));
            let pcx = if is_pack { LowerCx { env: Some(&elem_env), ..cx } } else { cx };
            let pt = templates::nested(|| Ok(ty::lower(pcx, pref))).ok()?;
            if is_pack {
                let rest = args.get(ai..).unwrap_or(&[]);
                ai = args.len();
                for (s, elems) in packs::deduce_param_pack(db, pt, pref, &cand.tparams, rest, &out)? {
                    out[s] = Some(TemplateArg::Pack(elems.into_iter().collect::<Option<Vec<_>>>()?));
                }
                continue;
            }
            let Some(&a) = args.get(ai) else { break };
            ai += 1;
            if !deduce_one(db, pt, a, &mut out) {
                return None;
            }
        }
        // Undeduced: packs are empty, defaults substituted (the class's
        // parameters may stay undeduced only where they have defaults:
        // `C<params…>` then fills them in).
        let mut final_args: Vec<TemplateArg> = Vec::new();
        let mut written_len = n;
        for (i, p) in cand.tparams.iter().enumerate() {
            let a = match out[i].clone() {
                Some(a) => normalize(db, a),
                None if p.pack => TemplateArg::Pack(Vec::new()),
                None if cand.target.is_none() && i < n_class && p.default.is_some() => {
                    written_len = written_len.min(i);
                    TemplateArg::Dependent("?".into())
                }
                None => {
                    let d = p.default.as_ref()?;
                    let mut denv = Env::default();
                    for (j, q) in cand.tparams.iter().enumerate().take(i) {
                        if let Some(nm) = &q.name {
                            denv.names.push((nm.clone(), final_args[j].clone()));
                        }
                    }
                    let dcx = LowerCx { env: Some(&denv), ..cx };
                    templates::nested(|| templates::lower_arg(dcx, &p.kind, d)).ok()?
                }
            };
            final_args.push(a);
        }
        if final_args.iter().any(|a| has_placeholder(db, a)) {
            return None;
        }
        let mut senv = Env::default();
        for (p, a) in cand.tparams.iter().zip(&final_args) {
            if let Some(nm) = &p.name {
                senv.names.push((nm.clone(), a.clone()));
            }
        }
        let scx = LowerCx { env: Some(&senv), ..cx };
        // Viability: each argument converts to its substituted parameter.
        let mut ranks = Vec::new();
        let selem = packs::element_env(db, &senv, &cand.tparams);
        let mut ai = 0;
        for (pi, pref) in cand.params.iter().enumerate() {
            if cand.pack_params.contains(&(pi as u32)) {
                let _ = &selem;
                while ai < args.len() {
                    ranks.push(Rank { reference: false, major: 0, minor: 0 });
                    ai += 1;
                }
                continue;
            }
            let Some(&a) = args.get(ai) else { break };
            ai += 1;
            let pt = templates::nested(|| Ok(ty::lower(scx, pref))).ok()?;
            if matches!(canonical(db, pt).kind(db), TyKind::Error(_)) {
                return None;
            }
            ranks.push(self.conv_rank(a, pt)?);
        }
        // The two tie-break slots `compare` reads: no defaults used, and
        // generality (guides and constructors alike here).
        ranks.push(Rank { reference: false, major: 0, minor: 0 });
        ranks.push(Rank { reference: false, major: 0, minor: 0 });
        let t = match &cand.target {
            Some(target) => {
                let pcx = LowerCx { scope: cand.scope, ..scx };
                templates::nested(|| Ok(ty::lower(pcx, target))).ok()?
            }
            None => {
                let written: Vec<TemplateArgRef> = cand.tparams[..n_class.min(written_len)]
                    .iter()
                    .map(|p| {
                        let r = TemplateArgRef::Type(TypeRef::Path(Path::single(p.name.as_deref().unwrap_or("?"))));
                        if p.pack { TemplateArgRef::Expansion(Box::new(r)) } else { r }
                    })
                    .collect();
                let path =
                    Path { global: false, segments: vec![PathSegment { name: name.to_string(), args: Some(written) }] };
                let pcx = LowerCx { scope: parent, ..scx };
                templates::nested(|| Ok(ty::lower(pcx, &TypeRef::Path(path)))).ok()?
            }
        };
        let t = canonical(db, t);
        if matches!(t.kind(db), TyKind::Error(_) | TyKind::Dependent(_)) {
            return None;
        }
        Some((ranks, t))
    }
}
