//! `missing return statement at end of non-void function` (EDG 940, a
//! warning): control can reach the closing brace of a function that
//! returns a value. Both passes report it when the body ends: cudafe++ for
//! the functions the host compiles, cicc for every function (spec 61).
//!
//! Reachability follows EDG's statement rules, checked against the real
//! front ends: `return`, `throw`, `goto`, `break`, `continue` and a call of
//! a `noreturn` function end a path; a condition that folds to a constant
//! decides its branch (`if (1)`, `while (true)`, `for (;;)`, a `const`
//! local initialized by a constant); a `switch` falls through unless it has
//! a `default` (enumerations are not checked for exhaustiveness); a label a
//! `goto` names and a `case` label are reachable; a handler of a `try` is.
//!
//! Certainty: three-valued. A condition the evaluator cannot decide and
//! that names no variable of the body's own, a call `infer` did not resolve
//! or one of a `noreturn` function where it is not a statement of its own,
//! a templated body, `main`, a deduced return type: each makes the answer
//! unknown, and unknown is silence. The cheap pass (no inference: calls
//! complete, conditions are not constant) bounds the answer from above,
//! so a body that cannot reach its end never pays for inference.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::body::{Body, Cond, Expr, ExprId, Stmt, StmtId};
use cufront_hir::exec_space;
use cufront_hir::infer::{self, CallSite, Callee, InferOwner, InferenceResult, Resolution};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::item_tree::{FnName, TypeRef};
use cufront_hir::scopes::def_map;
use cufront_hir::{Entity, FnId};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextSize};
use rustc_hash::FxHashSet;

use crate::Raw;

const MISSING_RETURN: DiagId = DiagId(940);

/// What is known of a path: it is certainly taken, certainly not, or the
/// model cannot say. Ordered `No < Unknown < Yes`: `or` is `max`, `and` is
/// `min`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Reach {
    No,
    Unknown,
    Yes,
}

impl Reach {
    fn or(self, o: Reach) -> Reach {
        self.max(o)
    }
    fn and(self, o: Reach) -> Reach {
        self.min(o)
    }
}

/// The 940 finding of one function, at its closing brace (relative to the
/// item), when control certainly reaches it.
#[salsa::tracked(returns(clone))]
pub fn fn_missing_return(db: &dyn SourceDatabase, f: FnId) -> Arc<Option<Raw>> {
    Arc::new(missing_return(db, f))
}

/// Whether the host pass checks `f` (cudafe++ checks what the host compiles).
pub(crate) fn host_compiled(db: &dyn SourceDatabase, f: FnId) -> bool {
    !matches!(exec_space::fn_exec_space(db, FnDecl::Fn(f)), exec_space::ExecSpace::Device)
}

fn missing_return(db: &dyn SourceDatabase, f: FnId) -> Option<Raw> {
    let (Reach::Yes, name) = verdict(db, f)? else { return None };
    let at = closing_brace(db, f)?;
    let entity = DiagEntity { kind: Some(EntityKind::Function), name, ..DiagEntity::default() };
    Some(Raw { at, id: MISSING_RETURN, severity: Severity::Warning, args: vec![Arg::Entity(entity)] })
}

/// The closing brace of a non-void function whose end the walk could not
/// decide (`crate::uncertain`).
pub(crate) fn undecided_end(db: &dyn SourceDatabase, f: FnId) -> Option<u32> {
    let (Reach::Unknown, _) = verdict(db, f)? else { return None };
    closing_brace(db, f)
}

/// Whether control reaches the end of a function that must return a
/// value, and the function's name as the message gives it; `None` for a
/// function the rule does not apply to (or that the messages cannot name).
fn verdict(db: &dyn SourceDatabase, f: FnId) -> Option<(Reach, String)> {
    let decl = FnDecl::Fn(f);
    let data = decl.data(db)?;
    let name = match &data.name {
        FnName::Ident(n) if n == "main" && !data.in_class => return None,
        FnName::Ident(n) => n.clone(),
        FnName::Operator(op) => format!("operator{op}"),
        FnName::Conversion(TypeRef::Builtin(b)) => format!("operator {}", cufront_hir::ty::builtin_name(*b)),
        // Constructors and destructors return nothing; other conversions
        // and literal operators need EDG's type printer for their names.
        _ => return None,
    };
    let returns_value = match &data.name {
        // A conversion function returns its type (however its declared
        // return type is recorded).
        FnName::Conversion(TypeRef::Builtin(b)) => *b != cufront_hir::item_tree::Builtin::Void,
        _ => matches!(crate::decls::return_kind(db, decl, &data), crate::decls::Return::NotVoid),
    };
    if !returns_value {
        return None;
    }
    let qual = crate::names::scope_names(db, decl)?.into_iter().map(|(_, n)| format!("{n}::")).collect::<String>();
    let name = format!("{qual}{name}");
    let body = infer::decl_body(db, decl);
    let root = body.root?;
    // The cheap upper bound first.
    if Flow::new(&body, None).reaches_end(root) == Reach::No {
        return Some((Reach::No, name));
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Some((Reach::Unknown, name));
    }
    let known = Known { db, f, result: &r };
    Some((Flow::new(&body, Some(&known)).reaches_end(root), name))
}

/// The offset (relative to the item) of the function body's closing
/// brace, where EDG points.
pub(crate) fn closing_brace(db: &dyn SourceDatabase, f: FnId) -> Option<u32> {
    let src = cufront_hir::item_source(db, f.item(db)).as_ref()?;
    let root = SyntaxNode::new_root(src.green.clone());
    let at = *cufront_hir::body::item_fn_offsets(db, f.item(db)).get(f.idx(db) as usize)?;
    let tok = cufront_syntax::green::token_at(&root, TextSize::from(at))?;
    let def = tok.parent_ancestors().find(|n| n.kind() == K::FUNCTION_DEF)?;
    let last = def.last_token()?;
    let last = if last.kind().is_trivia() {
        std::iter::successors(Some(last), |t| t.prev_token()).find(|t| !t.kind().is_trivia())?
    } else {
        last
    };
    // An unparsed body is one `BODY_TEXT` token ending in the brace.
    last.text().ends_with('}').then(|| u32::from(last.text_range().end()) - 1)
}

/// What inference knows about the body: its calls, names and constants.
struct Known<'a> {
    db: &'a dyn SourceDatabase,
    f: FnId,
    result: &'a InferenceResult,
}

/// A `break` or `continue` target.
enum Target {
    Loop { breaks: Reach },
    Switch { breaks: Reach, entry: Reach, default: bool },
}

struct Flow<'a> {
    body: &'a Body,
    known: Option<&'a Known<'a>>,
    targets: Vec<Target>,
    /// Labels some `goto` names.
    labels: FxHashSet<&'a str>,
    /// A computed `goto *p` somewhere: any label may be reached.
    computed_goto: bool,
    /// Call expressions that are whole statements (their callee decides
    /// whether the statement completes).
    statement_calls: FxHashSet<ExprId>,
}

impl<'a> Flow<'a> {
    fn new(body: &'a Body, known: Option<&'a Known<'a>>) -> Flow<'a> {
        let mut labels = FxHashSet::default();
        let mut computed_goto = false;
        for s in &body.stmts {
            match s {
                Stmt::Goto(Some(l)) => {
                    labels.insert(l.as_str());
                }
                Stmt::Goto(None) => computed_goto = true,
                _ => {}
            }
        }
        Flow { body, known, targets: Vec::new(), labels, computed_goto, statement_calls: FxHashSet::default() }
    }

    /// Whether control reaches the end of the body. With inference, a
    /// call that is not a statement of its own but may not return (a
    /// `noreturn` callee, an unresolved one) makes the answer unknown.
    fn reaches_end(mut self, root: StmtId) -> Reach {
        let end = self.stmt(root, Reach::Yes);
        let Some(k) = self.known else { return end };
        let uncertain = k.result.calls.iter().any(|(site, callee)| {
            let statement = matches!(site, CallSite::Expr(e) if self.statement_calls.contains(e));
            !statement && callee_returns(k, callee) != Reach::Yes
        });
        if uncertain { end.and(Reach::Unknown) } else { end }
    }

    fn stmt(&mut self, s: StmtId, reach: Reach) -> Reach {
        let body = self.body;
        match body.stmt(s) {
            Stmt::Compound(v) => v.iter().fold(reach, |r, &c| self.stmt(c, r)),
            Stmt::Expr(e) => reach.and(self.expr_completes(*e)),
            Stmt::Decl(_)
            | Stmt::Alias(_)
            | Stmt::NamespaceAlias(..)
            | Stmt::StaticAssert(_)
            | Stmt::Other(_)
            | Stmt::Null
            | Stmt::Asm(_) => reach,
            Stmt::Return(_) | Stmt::Goto(_) => Reach::No,
            Stmt::Break => {
                match self.targets.last_mut() {
                    Some(Target::Loop { breaks } | Target::Switch { breaks, .. }) => *breaks = breaks.or(reach),
                    None => return Reach::Unknown,
                }
                Reach::No
            }
            Stmt::Continue => Reach::No,
            Stmt::Label { name, stmt } => {
                let targeted = if self.computed_goto {
                    Reach::Unknown
                } else if self.labels.contains(name.as_str()) {
                    Reach::Yes
                } else {
                    Reach::No
                };
                self.stmt(*stmt, reach.or(targeted))
            }
            Stmt::Case { stmt, .. } | Stmt::Default(stmt) => {
                let default = matches!(body.stmt(s), Stmt::Default(_));
                // The switch this label belongs to: the innermost one,
                // whatever loops lie between.
                let Some(Target::Switch { entry, default: d, .. }) =
                    self.targets.iter_mut().rev().find(|t| matches!(t, Target::Switch { .. }))
                else {
                    return Reach::Unknown;
                };
                *d |= default;
                let entry = *entry;
                self.stmt(*stmt, reach.or(entry))
            }
            Stmt::If { init, cond, then, els, .. } => {
                let reach = init.map_or(reach, |i| self.stmt(i, reach));
                let (t, f) = self.cond(cond);
                let then_end = self.stmt(*then, reach.and(t));
                let else_end = match els {
                    Some(e) => self.stmt(*e, reach.and(f)),
                    None => reach.and(f),
                };
                then_end.or(else_end)
            }
            Stmt::While { cond, body: b } => {
                let (t, f) = self.cond(cond);
                let breaks = self.looped(*b, reach.and(t));
                reach.and(f).or(breaks)
            }
            Stmt::For { init, cond, body: b, .. } => {
                let reach = init.map_or(reach, |i| self.stmt(i, reach));
                let (t, f) = match cond {
                    Some(c) => self.cond(c),
                    None => (Reach::Yes, Reach::No),
                };
                let breaks = self.looped(*b, reach.and(t));
                reach.and(f).or(breaks)
            }
            Stmt::Do { body: b, cond } => {
                self.targets.push(Target::Loop { breaks: Reach::No });
                let end = self.stmt(*b, reach);
                let Some(Target::Loop { breaks }) = self.targets.pop() else { unreachable!("pushed a loop") };
                // A `continue` goes to the condition too: it is reached
                // unless the body certainly ends every path otherwise.
                let at_cond = if self.has_continue(*b) { end.or(reach.and(Reach::Unknown)) } else { end };
                let (_, f) = self.cond(&Cond::Expr(*cond));
                at_cond.and(f).or(breaks)
            }
            Stmt::RangeFor { init, body: b, .. } => {
                let reach = init.map_or(reach, |i| self.stmt(i, reach));
                // The range may be empty.
                self.looped(*b, reach).or(reach)
            }
            Stmt::Switch { init, cond, body: b } => {
                let reach = init.map_or(reach, |i| self.stmt(i, reach));
                // A constant condition selects one label: not modelled.
                if self.known.is_some() && self.constant(cond).is_some() {
                    let _ = self.looped_switch(*b, reach);
                    return reach.and(Reach::Unknown);
                }
                let (end, breaks, default) = self.looped_switch(*b, reach);
                let skipped = if default { Reach::No } else { reach };
                end.or(breaks).or(skipped)
            }
            Stmt::Try { body: b, handlers } => {
                let end = self.stmt(*b, reach);
                handlers.iter().fold(end, |acc, h| acc.or(self.stmt(h.body, reach)))
            }
        }
    }

    /// Walks a loop body; what its `break`s reach.
    fn looped(&mut self, b: StmtId, entry: Reach) -> Reach {
        self.targets.push(Target::Loop { breaks: Reach::No });
        self.stmt(b, entry);
        match self.targets.pop() {
            Some(Target::Loop { breaks }) => breaks,
            _ => unreachable!("pushed a loop"),
        }
    }

    /// Walks a switch body (entered at its labels only): where its end, its
    /// `break`s, and whether it has a `default`.
    fn looped_switch(&mut self, b: StmtId, entry: Reach) -> (Reach, Reach, bool) {
        self.targets.push(Target::Switch { breaks: Reach::No, entry, default: false });
        let end = self.stmt(b, Reach::No);
        match self.targets.pop() {
            Some(Target::Switch { breaks, default, .. }) => (end, breaks, default),
            _ => unreachable!("pushed a switch"),
        }
    }

    /// Whether a `continue` of this loop (not of a nested one) is in `s`.
    fn has_continue(&self, s: StmtId) -> bool {
        match self.body.stmt(s) {
            Stmt::Continue => true,
            Stmt::Compound(v) => v.iter().any(|&c| self.has_continue(c)),
            Stmt::If { then, els, .. } => self.has_continue(*then) || els.is_some_and(|e| self.has_continue(e)),
            Stmt::Label { stmt, .. } | Stmt::Case { stmt, .. } | Stmt::Default(stmt) => self.has_continue(*stmt),
            Stmt::Switch { body, .. } => self.has_continue(*body),
            Stmt::Try { body, handlers } => {
                self.has_continue(*body) || handlers.iter().any(|h| self.has_continue(h.body))
            }
            _ => false,
        }
    }

    /// Whether the condition can be true, and whether it can be false.
    fn cond(&self, c: &Cond) -> (Reach, Reach) {
        if self.known.is_none() {
            // The upper bound: both.
            return (Reach::Yes, Reach::Yes);
        }
        match self.constant(c) {
            Some(Some(true)) => (Reach::Yes, Reach::No),
            Some(Some(false)) => (Reach::No, Reach::Yes),
            Some(None) => (Reach::Unknown, Reach::Unknown),
            None => (Reach::Yes, Reach::Yes),
        }
    }

    /// `Some(Some(v))`: the condition is a constant; `None`: it certainly is
    /// not; `Some(None)`: the model cannot say.
    fn constant(&self, c: &Cond) -> Option<Option<bool>> {
        let k = self.known?;
        let Cond::Expr(e) = c else {
            // `if (T x = e)`: a declared variable is not a constant
            // expression unless `constexpr`, which is rare enough to leave.
            return Some(None);
        };
        let db = k.db;
        let decl = FnDecl::Fn(k.f);
        let map = def_map(db, decl.tu(db));
        if let Some(scope) = instances::fn_scope(db, decl)
            && let Ok(v) = cufront_hir::consteval::interp::eval_body_condition(
                db,
                &map,
                (k.f.item(db), scope, None),
                self.body,
                &[],
                *e,
            )
        {
            return Some(Some(v));
        }
        if self.names_variable(k, *e) { None } else { Some(None) }
    }

    /// Whether the expression reads a local of the body that is not a
    /// constant (a parameter, a non-`const` variable): then it is not a
    /// constant expression.
    fn names_variable(&self, k: &Known<'_>, e: ExprId) -> bool {
        let Some(range) = self.body.expr_ranges.get(e.0 as usize) else { return false };
        self.body.expr_ranges.iter().enumerate().any(|(i, r)| {
            range.contains_range(*r)
                && matches!(k.result.resolutions.get(&ExprId(i as u32)), Some(Resolution::Local(l))
                    if variable(self.body, *l))
        })
    }

    /// Whether an expression statement completes.
    fn expr_completes(&mut self, e: ExprId) -> Reach {
        let e = self.strip(e);
        match self.body.expr(e) {
            Expr::Throw(_) => Reach::No,
            Expr::Call { callee, .. } => {
                self.statement_calls.insert(e);
                if let Expr::Path(p) = self.body.expr(*callee)
                    && let [only] = p.segments.as_slice()
                    && matches!(only.name.as_str(), "__builtin_unreachable" | "__builtin_trap" | "__builtin_abort")
                {
                    return Reach::No;
                }
                let Some(k) = self.known else { return Reach::Yes };
                let callee = k.result.calls.iter().find_map(|(site, c)| match site {
                    CallSite::Expr(x) if *x == e => Some(c),
                    _ => None,
                });
                callee.map_or(Reach::Unknown, |c| callee_returns(k, c))
            }
            _ => Reach::Yes,
        }
    }

    /// Casts to `void` around a statement's expression (parentheses are
    /// transparent in the body).
    fn strip(&self, mut e: ExprId) -> ExprId {
        loop {
            match self.body.expr(e) {
                Expr::Cast { ty: TypeRef::Builtin(cufront_hir::item_tree::Builtin::Void), expr, .. } => e = *expr,
                _ => return e,
            }
        }
    }
}

/// A parameter or a local that is neither `const` nor `constexpr`.
fn variable(body: &Body, l: cufront_hir::body::LocalId) -> bool {
    let local = body.local(l);
    !local.is_constexpr && !matches!(local.ty, TypeRef::Cv(_, cv) if cv.c) && !matches!(local.ty, TypeRef::LRef(_))
}

/// Whether a call returns: `No` for a `noreturn` callee (any of its
/// declarations says so), `Unknown` for an unresolved one.
fn callee_returns(k: &Known<'_>, c: &Callee) -> Reach {
    match c {
        Callee::Builtin => Reach::Yes,
        Callee::Unresolved(_) => Reach::Unknown,
        Callee::Entity(e) => {
            let decl = match e {
                Entity::Fn(f) => FnDecl::Fn(*f),
                Entity::FnInst(i) => i.decl(k.db),
                _ => return Reach::Yes,
            };
            let noreturn = |d: FnDecl| d.data(k.db).is_some_and(|d| d.linkage.noreturn);
            if noreturn(decl) || exec_space::redeclarations(k.db, decl).into_iter().any(noreturn) {
                Reach::No
            } else {
                Reach::Yes
            }
        }
    }
}
