//! Deduced return types ([dcl.spec.auto]): a call of a function declared
//! `auto f(…)` (or `auto&`, `const auto&`, `decltype(auto)`) has the type
//! its body returns, so the caller's inference reads the callee's: the
//! first `return` with a value (`InferenceResult::returned`). What a lambda
//! returns is in `closure.rs`; this is for functions and instances.
//!
//! The callee's inference runs nested in the caller's (salsa caches it):
//! chains of `auto` functions (ranges adaptors) nest as deep as they call,
//! so the nesting is capped (`MAX_NESTING`) and recursion (a function whose
//! return type needs itself) ends in `infer`'s cycle fallback.

use std::cell::Cell;

use super::{Category, Infer, InferOwner, TyId, TyKind, canonical, decay, infer, mk, strip_cv};
use crate::Entity;
use crate::instances::{FnDecl, fn_definition};

thread_local! {
    static NESTING: Cell<u32> = const { Cell::new(0) };
}

/// How many callee inferences may be open at once on one thread.
const MAX_NESTING: u32 = 24;

/// The placeholder a declared return type uses, and how it wraps it.
enum Placeholder {
    /// `auto`, `const auto`: the returned type, decayed.
    Value,
    /// `auto&`, `const auto&`: a reference to the returned type.
    LRef(crate::item_tree::Cv),
    /// `decltype(auto)`: `decltype` of the returned expression.
    Decltype,
    /// `auto&&`: a forwarding reference bound to the returned expression.
    Forwarding,
}

fn placeholder(db: &dyn cufront_base_db::SourceDatabase, t: TyId) -> Option<Placeholder> {
    let is_auto = |t: TyId| matches!(t.kind(db), TyKind::Dependent(s) if s == "auto");
    match t.kind(db) {
        TyKind::Dependent(s) if s == "auto" => Some(Placeholder::Value),
        TyKind::Dependent(s) if s.contains("decltype(auto)") => Some(Placeholder::Decltype),
        TyKind::Qualified(x, _) if is_auto(*x) => Some(Placeholder::Value),
        TyKind::LRef(x) => match x.kind(db) {
            TyKind::Qualified(y, cv) if is_auto(*y) => Some(Placeholder::LRef(*cv)),
            _ if is_auto(*x) => Some(Placeholder::LRef(crate::item_tree::Cv::default())),
            _ => None,
        },
        TyKind::RRef(x) if is_auto(*x) => Some(Placeholder::Forwarding),
        _ => None,
    }
}

impl Infer<'_> {
    /// The declared type of what `e` names when it is an unparenthesized
    /// id-expression naming a local (parentheses are not kept in bodies, so
    /// `return (x);` reads as `return x;`).
    pub(super) fn id_expr_declared_ty(&self, e: super::ExprId) -> Option<TyId> {
        let super::Expr::Path(p) = self.body.expr(e) else { return None };
        if p.segments.len() != 1 || p.global || p.segments[0].args.is_some() {
            return None;
        }
        let l = self.find_local(&p.segments[0].name)?;
        // A structured binding's `decltype` is its referenced type, not the
        // reference it is stored as.
        if self.body.local(l).binding_of.is_some() {
            return None;
        }
        self.res.local_tys.get(l.0 as usize).copied().flatten().map(|t| canonical(self.db, t))
    }

    /// The return type of a call of `ent` declared to return `ret`: the
    /// deduced one when `ret` is a placeholder.
    pub(super) fn deduced_return(&mut self, ent: Entity, ret: TyId) -> TyId {
        let db = self.db;
        let Some(p) = placeholder(db, ret) else { return ret };
        let owner = match ent {
            Entity::FnInst(i) => InferOwner::Inst(i),
            Entity::Fn(f) => match fn_definition(db, FnDecl::Fn(f)) {
                Some(FnDecl::Fn(d)) => InferOwner::Fn(d),
                _ => return ret,
            },
            _ => return ret,
        };
        if Some(owner) == self.owner || NESTING.with(|n| n.get()) >= MAX_NESTING {
            return ret;
        }
        let r = crate::guard::with_cell(&NESTING, NESTING.with(Cell::get) + 1, || infer(db, owner));
        if r.skipped.is_some() {
            return ret;
        }
        let Some(t) = r.returned else {
            // No `return` with a value: `void`.
            return self.builtin(crate::item_tree::Builtin::Void);
        };
        if matches!(canonical(db, t).kind(db), TyKind::Error(_) | TyKind::Dependent(_)) {
            return ret;
        }
        match p {
            Placeholder::Value => decay(db, strip_cv(db, canonical(db, t))),
            Placeholder::LRef(cv) if cv.is_empty() => mk(db, TyKind::LRef(t)),
            Placeholder::LRef(cv) => {
                mk(db, TyKind::LRef(mk(db, TyKind::Qualified(strip_cv(db, canonical(db, t)), cv))))
            }
            // [dcl.type.decltype]: a name's declared type, else an lvalue
            // `T&`, an xvalue `T&&`, a prvalue `T`.
            Placeholder::Decltype => match r.returned_cat {
                Some((_, Some(declared))) => declared,
                Some((Category::LValue, None)) => mk(db, TyKind::LRef(t)),
                Some((Category::XValue, None)) => mk(db, TyKind::RRef(t)),
                _ => t,
            },
            Placeholder::Forwarding => match r.returned_cat {
                Some((Category::LValue, _)) => mk(db, TyKind::LRef(t)),
                _ => mk(db, TyKind::RRef(t)),
            },
        }
    }
}
