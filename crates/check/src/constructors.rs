//! Initializations no constructor can perform: 289 `no instance of
//! constructor %no matches the argument list`, with `argument types are:
//! (…)` under it and a note for each constructor (3322 or 3326, as for
//! overloaded functions in `conversions.rs`): the implicit copy and move
//! constructors first (at the class's name), then the declared ones, last
//! declared first.
//!
//! Where EDG points: `S s(a, b)` at the first argument, `new S(a)` at the
//! `(`, a braced list (`S s{a}`, `S{a}`, `new S{a}`) at the `{`, `S(a)`
//! at the type.
//!
//! Certainty: the class is a complete class that is no template instance,
//! has no bases (no inherited constructors) and declares a constructor (so
//! it is no aggregate); every constructor is a plain function (no
//! template), declared once; the arguments are scalars; and each
//! constructor certainly cannot take them (`conversions.rs`'s rules). A
//! copy or move constructor, implicit or declared, takes one scalar only
//! through a converting constructor, which the others being unable to
//! take it rules out. A class that declares a move constructor (whether
//! the copy one is deleted then) is left alone.

use cufront_base_db::SourceDatabase;
use cufront_hir::body::{Expr, ExprId, Init};
use cufront_hir::infer::strip_cv;
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::scopes::{CTOR_KEY, DTOR_KEY, def_map, own_fns};
use cufront_hir::templates::{ClassRefT, class_bases_of};
use cufront_hir::ty::{TyId, TyKind, canonical};
use cufront_hir::{ClassId, FnId, item_tree_of};

use crate::conversions::{Candidate, Cx, Mismatch, NoMatch, SetKind, Shape};
use crate::spell;

/// A class whose constructors form a set with certain notes.
struct CtorSet {
    class: ClassId,
    /// EDG's spelling of the class (`n::S`).
    spelled: String,
    declared: Vec<FnId>,
    /// The declared copy constructor, if any (then no implicit ones).
    user_copy: Option<FnId>,
    implicit_move: bool,
}

impl Cx<'_> {
    /// The initializations of the body (locals, functional casts, `new`)
    /// that no constructor of their class can take.
    pub(crate) fn no_match_constructions(&self, text: &str) -> Vec<NoMatch> {
        let mut out = Vec::new();
        for (i, l) in self.body.locals.iter().enumerate() {
            if l.binding_of.is_some() {
                continue;
            }
            let Some(Some(t)) = self.r.local_tys.get(i) else { continue };
            let (args, at) = match &l.init {
                Init::Paren(args) if !args.is_empty() => (args, self.start(args[0])),
                Init::Brace(args) if !args.is_empty() => (args, self.open_before(text, args[0], '{')),
                _ => continue,
            };
            if let Some(at) = at {
                out.extend(self.construction(*t, args.as_slice(), at));
            }
        }
        for (i, e) in self.body.exprs.iter().enumerate() {
            let x = ExprId(i as u32);
            let (args, at) = match e {
                Expr::Construct { args, braced: false, .. } if !args.is_empty() => (args, self.start(x)),
                Expr::Construct { args, braced: true, .. } if !args.is_empty() => {
                    (args, self.open_before(text, args[0], '{'))
                }
                Expr::New { args: Some(args), braced, array: false, .. } if !args.is_empty() => {
                    (args, self.open_before(text, args[0], if *braced { '{' } else { '(' }))
                }
                _ => continue,
            };
            let t = match e {
                Expr::New { .. } => self.r.ty(x).and_then(|p| match canonical(self.db, p).kind(self.db) {
                    TyKind::Ptr(t) => Some(*t),
                    _ => None,
                }),
                _ => self.r.ty(x),
            };
            if let (Some(t), Some(at)) = (t, at) {
                out.extend(self.construction(t, args.as_slice(), at));
            }
        }
        out.sort_by_key(|m| m.at);
        out
    }

    fn start(&self, e: ExprId) -> Option<u32> {
        Some(u32::from(self.body.expr_ranges.get(e.0 as usize)?.start()))
    }

    /// The `open` bracket before expression `e`, white space between.
    fn open_before(&self, text: &str, e: ExprId, open: char) -> Option<u32> {
        let at = self.start(e)? as usize;
        let before = text.get(..at)?.trim_end();
        before.ends_with(open).then(|| (before.len() - 1) as u32)
    }

    /// The no-match error for constructing a `t` from `args`, when certain.
    fn construction(&self, t: TyId, args: &[ExprId], at: u32) -> Option<NoMatch> {
        let db = self.db;
        let TyKind::Class(k) = *strip_cv(db, canonical(db, t)).kind(db) else { return None };
        let shapes: Vec<Shape> = args.iter().map(|a| self.r.ty(*a).map_or(Shape::Other, |t| self.shape(t))).collect();
        if shapes.iter().any(|s| matches!(s, Shape::Other | Shape::Class(_))) {
            return None;
        }
        let set = ctor_set(db, k)?;
        let mut candidates = Vec::new();
        let count_only = |n: usize| (args.len() != n).then_some(Mismatch::Count);
        // The copy and move constructors take one scalar only through a
        // converting constructor: decided after the others.
        let mut copies = Vec::new();
        if set.user_copy.is_none() {
            copies.push(Candidate::ImplicitCopy { class: set.class, spelled: set.spelled.clone() });
            if set.implicit_move {
                copies.push(Candidate::ImplicitMove { class: set.class, spelled: set.spelled.clone() });
            }
        }
        for &g in &set.declared {
            if Some(g) == set.user_copy {
                continue;
            }
            candidates.push((Candidate::Fn(g), self.mismatch(g, args, &shapes)?));
        }
        let copy_mismatch = count_only(1).unwrap_or(Mismatch::Argument(1));
        let mut notes: Vec<(Candidate, Mismatch)> = copies.into_iter().map(|c| (c, copy_mismatch)).collect();
        if let Some(g) = set.user_copy {
            candidates.push((Candidate::Fn(g), copy_mismatch));
        }
        notes.extend(candidates);
        let arg_types = args.iter().map(|a| self.arg_type(*a)).collect::<Option<Vec<_>>>()?;
        Some(NoMatch {
            at,
            arg_types,
            set: SetKind::Constructor(set.spelled),
            candidates: notes,
            ambiguous: Vec::new(),
        })
    }
}

/// The constructors of class `k`, when their notes are certain (see the
/// module's comment).
fn ctor_set(db: &dyn SourceDatabase, k: ClassId) -> Option<CtorSet> {
    let map = def_map(db, k.tu(db));
    let k = map.class_definition(k);
    let data = item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize).cloned()?;
    if !data.is_definition || data.tparams.is_some() || !class_bases_of(db, ClassRefT::Class(k)).is_empty() {
        return None;
    }
    let scope = *map.class_scope.get(&k)?;
    let mut declared = Vec::new();
    let mut user_copy = None;
    for ctor in own_fns(db, &map, scope, CTOR_KEY) {
        let FnDecl::Fn(f) = ctor else { return None };
        if cufront_hir::exec_space::redeclarations(db, ctor).iter().any(|x| *x != ctor) {
            return None;
        }
        let sig = instances::signature(db, instances::fn_instance(db, ctor, None, Vec::new())).ok()?;
        let least = sig.params.len().saturating_sub(cufront_hir::infer::param_defaults(db, ctor) as usize);
        let own_class_ref = |p: TyId| match canonical(db, p).kind(db) {
            TyKind::LRef(x) | TyKind::RRef(x) => {
                let rvalue = matches!(canonical(db, p).kind(db), TyKind::RRef(_));
                let own = matches!(strip_cv(db, canonical(db, *x)).kind(db), TyKind::Class(j) if map.class_definition(*j) == k);
                own.then_some(rvalue)
            }
            _ => None,
        };
        match sig.params.first().and_then(|p| own_class_ref(*p)) {
            // A move constructor: whether the copy one is deleted is not modelled.
            Some(true) if least <= 1 => return None,
            Some(false) if least <= 1 => {
                if user_copy.is_some() {
                    return None;
                }
                user_copy = Some(f);
            }
            _ => {}
        }
        if !declared.contains(&f) {
            declared.push(f);
        }
    }
    if declared.is_empty() {
        return None;
    }
    let spelled = spell::spell(db, cufront_hir::ty::mk(db, TyKind::Class(k)))?;
    // A declared destructor (defaulted too) or copy assignment suppresses
    // the implicit move constructor, not the copy one.
    let implicit_move = user_copy.is_none() && !data.user_copy_assign && own_fns(db, &map, scope, DTOR_KEY).is_empty();
    Some(CtorSet { class: k, spelled, declared, user_copy, implicit_move })
}
