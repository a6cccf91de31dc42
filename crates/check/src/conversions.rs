//! Implicit conversions that cannot exist, errors (checked against the real
//! front end):
//!
//! - 144 `a value of type %t1 cannot be used to initialize an entity of
//!   type %t2`: `T x = e;` of a local or a variable;
//! - 120 `return value type does not match the function type`: `return e;`;
//! - 167 `argument of type %t1 is incompatible with parameter of type %t2`:
//!   an argument of a call that only one function can take (each such
//!   argument);
//! - 413 `no suitable conversion function from %t1 to %t2 exists`: in any
//!   of these, from a class without conversion functions to a scalar;
//! - 415 `no suitable constructor exists to convert from %t1 to %t2`: in
//!   any of these, from a scalar to a class without a converting
//!   constructor (`explicit` ones do not convert).
//!
//! - 304 `no instance of overloaded function %n matches the argument
//!   list`, with `argument types are: (…)` under it and a note for each
//!   function of the overload set, last declared first: 3322 `number of
//!   parameters of %n does not match the call`, or 3326 `%n does not
//!   match because argument #%d does not match parameter` (the first such
//!   argument); the caret is at the name called.
//!
//! The caret is at the expression converted.
//!
//! Certainty: both types are ones whose conversions are modelled here:
//! a pointer to a builtin from a floating value, from an integral value
//! that is certainly not the literal `0` (a literal, a variable: EDG takes
//! only an integer literal as a null pointer constant), or from a pointer
//! to another builtin or that drops a qualifier; an arithmetic type other
//! than `bool` from a pointer. Classes, enumerations, references, arrays,
//! functions and pointers to classes are left to overload resolution. A
//! call is checked as `arity.rs` checks one: unresolved by `infer`, its
//! unqualified name finding a single function, arguments for which no
//! argument-dependent lookup can add a candidate (scalars, classes that are
//! no templates, have no bases and no friends, and whose namespace declares
//! no other function of the name), as many as it takes. An overload set is
//! reported when its name finds two or more functions, none a template, a
//! member, variadic or declared twice, the arguments are scalars, and each
//! function certainly cannot take them: too few or too many, or one
//! argument converts to its parameter (a scalar too) by no conversion.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{DiagId, Severity};
use cufront_hir::body::{Body, Expr, ExprId, Init, Literal, Stmt};
use cufront_hir::exec_space;
use cufront_hir::infer::{self, CallSite, Callee, InferOwner, InferenceResult, Resolution};
use cufront_hir::instances::{self, FnDecl, VarDecl};
use cufront_hir::item_tree::{Builtin, Cv};
use cufront_hir::scopes::{CTOR_KEY, DeclKey, DefMap, ScopeKind, def_map, lookup_fns, own_fns};
use cufront_hir::templates::{ClassRefT, class_bases_of};
use cufront_hir::ty::{TyId, TyKind, canonical};
use cufront_hir::{ClassId, FnId, VarId, item_tree_of};

use crate::{Found, Raw, names, spell};
use cufront_hir::infer::strip_cv;

const BAD_RETURN: DiagId = DiagId(120);
const BAD_INIT: DiagId = DiagId(144);
const BAD_ARGUMENT: DiagId = DiagId(167);
const NO_CONVERSION_FUNCTION: DiagId = DiagId(413);
const NO_CONSTRUCTOR: DiagId = DiagId(415);
const NO_MATCH: DiagId = DiagId(304);
const NO_MATCHING_CONSTRUCTOR: DiagId = DiagId(289);
const AMBIGUOUS: DiagId = DiagId(308);
/// `candidate %n failed deduction`
const DEDUCTION_FAILED: DiagId = DiagId(3327);
/// `%nd`: a function of an ambiguous call, where it is declared.
const DECLARED_AT: DiagId = DiagId(547);
/// `argument types are: (%s)`
const ARGUMENT_TYPES: DiagId = DiagId(739);
const WRONG_COUNT: DiagId = DiagId(3322);
const ARGUMENT_MISMATCH: DiagId = DiagId(3326);

/// Where a value is converted, which decides the message.
#[derive(Clone, Copy)]
enum Site {
    Init,
    Return,
    Argument,
}

/// The conversions of one body that cannot exist.
#[salsa::tracked(returns(clone))]
pub fn fn_conversion_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    let returns = body.stmts.iter().any(|s| matches!(s, Stmt::Return(Some(_))));
    let calls = body.exprs.iter().any(|e| matches!(e, Expr::Call { .. }));
    if !returns && !calls && !has_copy_init(&body) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let cx = Cx { db, body: &body, r: &r };
    let mut out = cx.inits();
    if returns {
        let sig = instances::signature(db, instances::fn_instance(db, decl, None, Vec::new()));
        // A lambda's returns are its own (its body shares the arenas).
        let lambdas: Vec<_> = (body.exprs.iter().zip(&body.expr_ranges))
            .filter(|(e, _)| matches!(e, Expr::Lambda { .. }))
            .map(|(_, r)| *r)
            .collect();
        if let Ok(sig) = sig {
            for s in &body.stmts {
                if let Stmt::Return(Some(e)) = s
                    && !lambdas.iter().any(|l| l.contains_range(body.expr_ranges[e.0 as usize]))
                {
                    out.extend(cx.convert(*e, sig.ret, Site::Return));
                }
            }
        }
    }
    if calls && body.local_decls.is_empty() {
        out.extend(cx.calls(decl));
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

/// A call that no function of its overload set can take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoMatch {
    /// The caret (the name called, or where a construction points),
    /// relative to the caller's item.
    pub at: u32,
    /// The arguments' types as EDG spells them.
    pub arg_types: Vec<String>,
    pub set: SetKind,
    /// Each function of the set that cannot take the arguments and why.
    pub candidates: Vec<(Candidate, Mismatch)>,
    /// The functions that can, none better than another (an ambiguous
    /// call, 308); empty when none can (304, 289).
    pub ambiguous: Vec<FnId>,
}

/// The rank of an implicit conversion sequence ([over.ics.scs], Table 19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Exact,
    Promotion,
    Conversion,
}

/// What a call no function matches calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SetKind {
    /// An overload set, named by its functions' name (304).
    Functions,
    /// A function template alone (304, `function template "f"`).
    FunctionTemplate,
    /// The constructors of a class, EDG's spelling of the class (289).
    Constructor(String),
}

/// A function of a set: declared, or a class's implicit copy or move
/// constructor (noted at the class's name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Candidate {
    Fn(FnId),
    /// A function template, with one specialization (named as EDG names
    /// the template: its qualified name).
    Template(cufront_hir::instances::FnInstanceId),
    ImplicitCopy {
        class: ClassId,
        spelled: String,
    },
    ImplicitMove {
        class: ClassId,
        spelled: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// Too few or too many arguments.
    Count,
    /// A function template whose deduction fails (its constraints false
    /// for the deduced arguments).
    Deduction,
    /// The argument (from 1) converts to its parameter by no conversion.
    Argument(u32),
}

/// The calls of one body that no function of their overload set can take.
#[salsa::tracked(returns(clone))]
pub fn fn_no_match_calls(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<NoMatch>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    // Local classes and functions: their names are not modelled here.
    if !body.local_decls.is_empty() || !body.exprs.iter().any(|e| matches!(e, Expr::Call { .. })) && !constructs(&body)
    {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let cx = Cx { db, body: &body, r: &r };
    let mut out = cx.no_match_calls(decl);
    out.extend(cx.no_match_constructions(&cufront_hir::consteval::interp::item_text(db, f.item(db))));
    out.sort_by_key(|m| m.at);
    Arc::new(out)
}

/// The same for the initializer of a namespace-scope variable: the
/// constructions in it.
#[salsa::tracked(returns(clone))]
pub fn var_no_match_calls(db: &dyn SourceDatabase, v: VarId) -> Arc<Vec<NoMatch>> {
    let body = infer::var_init::var_init_body(db, VarDecl::Var(v));
    if !constructs(&body) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Var(v));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let text = cufront_hir::consteval::interp::item_text(db, v.item(db));
    Arc::new(Cx { db, body: &body, r: &r }.no_match_constructions(&text))
}

/// Whether a body initializes anything with arguments (`S s(1)`, `S{1}`,
/// `new S(1)`).
fn constructs(body: &Body) -> bool {
    body.locals.iter().any(|l| matches!(&l.init, Init::Paren(a) | Init::Brace(a) if !a.is_empty()))
        || body.exprs.iter().any(|e| matches!(e, Expr::Construct { .. } | Expr::New { .. }))
}

/// The error of a call no function can take, then its notes (the
/// functions, last declared first, where each is declared).
pub(crate) fn no_match_findings(
    db: &dyn SourceDatabase,
    starts: &rustc_hash::FxHashMap<cufront_hir::ItemId, u32>,
    call: &NoMatch,
    start: u32,
) -> Option<Vec<Found>> {
    use cufront_diagnostics::{Arg, Entity, EntityKind, Message};
    let at = start + call.at;
    // The implicit constructors first, then the declared functions, last
    // declared first.
    let mut implicit = Vec::new();
    let mut declared = Vec::new();
    let mut bare = Vec::new();
    for (c, why) in &call.candidates {
        let (name, pos) = match c {
            Candidate::Fn(g) => {
                let name = names::callee_name(db, cufront_hir::Entity::Fn(*g))?;
                bare.push(name.bare);
                let item = g.item(db);
                let pos = starts.get(&item)? + cufront_hir::item_offsets(db, item).fns.get(g.idx(db) as usize)?;
                // Declared after the call: no candidate there (the model's
                // set is the scope's whole set).
                if pos > at {
                    return None;
                }
                (name.ordinary?, pos)
            }
            Candidate::Template(inst) => {
                let name = names::callee_name(db, cufront_hir::Entity::FnInst(*inst))?;
                bare.push(name.bare.clone());
                let FnDecl::Template(t) = inst.decl(db) else { return None };
                let item = t.item(db);
                let pos =
                    starts.get(&item)? + cufront_hir::item_offsets(db, item).fn_templates.get(t.idx(db) as usize)?;
                // A library's constraints are the model's weakest point:
                // only templates the user wrote are judged.
                let map = cufront_base_db::source_map(db, item.tu(db));
                if pos > at || !map.is_user_code(pos, &map.toolkit_files()) {
                    return None;
                }
                (name.bare, pos)
            }
            Candidate::ImplicitCopy { class, spelled } | Candidate::ImplicitMove { class, spelled } => {
                let short = spelled.rsplit("::").next().unwrap_or(spelled);
                let param = match c {
                    Candidate::ImplicitCopy { .. } => format!("const {spelled} &"),
                    _ => format!("{spelled} &&"),
                };
                let item = class.item(db);
                let pos =
                    starts.get(&item)? + cufront_hir::item_offsets(db, item).classes.get(class.idx(db) as usize)?;
                (format!("{spelled}::{short}({param})"), pos)
            }
        };
        let function = Arg::Entity(Entity::new(EntityKind::Function, &name));
        let (id, args) = match why {
            Mismatch::Deduction => {
                (DEDUCTION_FAILED, vec![Arg::Entity(Entity::new(EntityKind::FunctionTemplate, &name))])
            }
            Mismatch::Count => (WRONG_COUNT, vec![function]),
            Mismatch::Argument(k) => (ARGUMENT_MISMATCH, vec![function, Arg::Int(i64::from(*k))]),
        };
        let note = Found { order: at, ..Found::new(pos, id, Severity::Note, args) };
        match c {
            Candidate::Fn(_) => declared.push(note),
            _ => implicit.push(note),
        }
    }
    declared.sort_by_key(|n| std::cmp::Reverse(n.at));
    let notes = implicit.into_iter().chain(declared);
    // An ambiguous call lists the functions it cannot choose between, in
    // declaration order, under the error (`function "f(int)" (declared at
    // line 2)`).
    let mut listed = Vec::new();
    for &g in &call.ambiguous {
        let name = names::callee_name(db, cufront_hir::Entity::Fn(g))?;
        bare.push(name.bare);
        let item = g.item(db);
        let pos = starts.get(&item)? + cufront_hir::item_offsets(db, item).fns.get(g.idx(db) as usize)?;
        if pos > at {
            return None;
        }
        let declared_at = Some(crate::redefinition::position(db, item.tu(db), pos));
        let function =
            Entity { kind: Some(EntityKind::Function), name: name.ordinary?, declared_at, ..Entity::default() };
        listed.push((pos, Message::Template { id: DECLARED_AT, args: vec![Arg::Entity(function)] }));
    }
    listed.sort_by_key(|(pos, _)| *pos);
    let (id, set) = match &call.set {
        // The set is named as its functions are, with their scopes (`n::f`).
        SetKind::Functions => {
            if bare.is_empty() || bare.iter().any(|b| *b != bare[0]) {
                return None;
            }
            let id = if call.ambiguous.is_empty() { NO_MATCH } else { AMBIGUOUS };
            (id, Arg::Entity(Entity::new(EntityKind::OverloadedFunction, &bare[0])))
        }
        SetKind::FunctionTemplate => {
            let [name] = &bare[..] else { return None };
            (NO_MATCH, Arg::Entity(Entity::new(EntityKind::FunctionTemplate, name)))
        }
        SetKind::Constructor(class) => {
            let short = class.rsplit("::").next().unwrap_or(class);
            (NO_MATCHING_CONSTRUCTOR, Arg::Entity(Entity::new(EntityKind::Function, format!("{class}::{short}"))))
        }
    };
    let mut error = Found::new(at, id, Severity::Error, vec![set]);
    let types = Arg::Str(call.arg_types.join(", "));
    error.continuation = listed.into_iter().map(|(_, m)| m).collect();
    error.continuation.push(Message::Template { id: ARGUMENT_TYPES, args: vec![types] });
    Some(std::iter::once(error).chain(notes).collect())
}

/// The functions an unqualified name finds when they form an overload set
/// whose notes are certain: two or more, each a plain function (no
/// template, no member or friend) declared once.
fn overload_set(db: &dyn SourceDatabase, found: Vec<FnDecl>) -> Option<Vec<FnId>> {
    let mut out = Vec::new();
    for d in found {
        let FnDecl::Fn(g) = d else { return None };
        let data = d.data(db)?;
        if data.in_class || data.friend || exec_space::redeclarations(db, d).iter().any(|x| *x != d) {
            return None;
        }
        if !out.contains(&g) {
            out.push(g);
        }
    }
    (out.len() >= 2).then_some(out)
}

/// The initialization of a variable (namespace scope or static member)
/// that cannot convert its initializer.
#[salsa::tracked(returns(clone))]
pub fn var_conversion_findings(db: &dyn SourceDatabase, v: VarId) -> Arc<Vec<Raw>> {
    let body = infer::var_init::var_init_body(db, VarDecl::Var(v));
    if !has_copy_init(&body) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Var(v));
    if r.skipped.is_some() {
        return Arc::default();
    }
    Arc::new(Cx { db, body: &body, r: &r }.inits())
}

/// Whether a local is copy-initialized from an expression (`T x = e;`).
fn has_copy_init(body: &Body) -> bool {
    body.locals.iter().any(|l| matches!(l.init, Init::Assign(e) if !matches!(body.expr(e), Expr::InitList(_))))
}

pub(crate) struct Cx<'a> {
    pub(crate) db: &'a dyn SourceDatabase,
    pub(crate) body: &'a Body,
    pub(crate) r: &'a InferenceResult,
}

/// How a source or target type takes part in a conversion.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Bool,
    Integral,
    Floating,
    /// A pointer to a builtin type (`void` included), with its cv.
    Pointer(Builtin, Cv),
    /// A class.
    Class(ClassRefT),
    /// Anything not modelled.
    Other,
}

impl Cx<'_> {
    /// The copy-initializations of the body's locals.
    fn inits(&self) -> Vec<Raw> {
        let mut out = Vec::new();
        for (i, l) in self.body.locals.iter().enumerate() {
            let Init::Assign(e) = l.init else { continue };
            if l.binding_of.is_some() || matches!(self.body.expr(e), Expr::InitList(_)) {
                continue;
            }
            if let Some(Some(t)) = self.r.local_tys.get(i) {
                out.extend(self.convert(e, *t, Site::Init));
            }
        }
        out
    }

    pub(crate) fn shape(&self, t: TyId) -> Shape {
        let db = self.db;
        match strip_cv(db, canonical(db, t)).kind(db) {
            TyKind::Builtin(Builtin::Bool) => Shape::Bool,
            TyKind::Builtin(Builtin::Void | Builtin::NullPtr) => Shape::Other,
            TyKind::Builtin(b) if is_floating(*b) => Shape::Floating,
            TyKind::Builtin(b) if is_standard_integral(*b) => Shape::Integral,
            TyKind::Ptr(p) => {
                let p = canonical(db, *p);
                let (cv, inner) = match p.kind(db) {
                    TyKind::Qualified(x, cv) => (*cv, canonical(db, *x)),
                    _ => (Cv::default(), p),
                };
                match *inner.kind(db) {
                    TyKind::Builtin(b) if b == Builtin::Void || is_floating(b) || is_standard_integral(b) => {
                        Shape::Pointer(b, cv)
                    }
                    TyKind::Builtin(Builtin::Bool) => Shape::Pointer(Builtin::Bool, cv),
                    _ => Shape::Other,
                }
            }
            TyKind::Class(k) => Shape::Class(ClassRefT::Class(*k)),
            _ => Shape::Other,
        }
    }

    /// The finding for converting `e` to `to` at `site`, when that
    /// conversion certainly does not exist.
    fn convert(&self, e: ExprId, to: TyId, site: Site) -> Option<Raw> {
        let db = self.db;
        if crate::operators::guessed_type(db, self.body, self.r, e) {
            return None;
        }
        let from = self.r.ty(e)?;
        let at = u32::from(self.body.expr_ranges[e.0 as usize].start());
        let (fs, ts) = (self.shape(from), self.shape(to));
        // The value is a prvalue: its own cv goes.
        let from = strip_cv(db, from);
        if let Shape::Class(c) = fs {
            let scalar = matches!(ts, Shape::Bool | Shape::Integral | Shape::Floating | Shape::Pointer(..));
            if !scalar || crate::operands::converts(db, c, 0)? {
                return None;
            }
            let args = vec![spell::type_arg(db, from)?, spell::type_arg(db, to)?];
            return Some(Raw { at, id: NO_CONVERSION_FUNCTION, severity: Severity::Error, args });
        }
        // A scalar to a class that has no converting constructor: no
        // user-defined conversion exists, whatever the site.
        if let (Shape::Bool | Shape::Integral | Shape::Floating | Shape::Pointer(..), Shape::Class(c)) = (fs, ts) {
            if converting_ctors(db, c)? {
                return None;
            }
            let args = vec![spell::type_arg(db, from)?, spell::type_arg(db, strip_cv(db, to))?];
            return Some(Raw { at, id: NO_CONSTRUCTOR, severity: Severity::Error, args });
        }
        if !self.impossible(e, fs, ts) {
            return None;
        }
        let (id, args) = match site {
            Site::Return => (BAD_RETURN, Vec::new()),
            Site::Init => (BAD_INIT, vec![spell::type_arg(db, from)?, spell::type_arg(db, to)?]),
            Site::Argument => (BAD_ARGUMENT, vec![spell::type_arg(db, from)?, spell::type_arg(db, to)?]),
        };
        Some(Raw { at, id, severity: Severity::Error, args })
    }

    /// Whether no standard conversion takes `e` (of shape `fs`) to a
    /// scalar of shape `ts` (and, the shapes being scalars, no
    /// user-defined one either).
    fn impossible(&self, e: ExprId, fs: Shape, ts: Shape) -> bool {
        match (fs, ts) {
            (Shape::Floating, Shape::Pointer(..)) => true,
            (Shape::Integral | Shape::Bool, Shape::Pointer(..)) => self.certainly_not_null(e),
            (Shape::Pointer(..), Shape::Integral | Shape::Floating) => true,
            (Shape::Pointer(fb, fcv), Shape::Pointer(tb, tcv)) => {
                let drops = (fcv.c && !tcv.c) || (fcv.v && !tcv.v);
                drops || (tb != Builtin::Void && fb != tb)
            }
            _ => false,
        }
    }

    /// The calls by an unqualified name that `infer` left unresolved: the
    /// call, the name, the arguments.
    fn unresolved_calls(&self) -> Vec<(ExprId, &str, &[ExprId])> {
        self.calls_by_name().into_iter().filter(|c| !c.3).map(|(x, n, a, _)| (x, n, a)).collect()
    }

    /// The calls by an unqualified name: the callee, the name, the
    /// arguments, and whether `infer` resolved the call (it chooses among
    /// candidates it cannot tell apart, so an ambiguous call is resolved).
    fn calls_by_name(&self) -> Vec<(ExprId, &str, &[ExprId], bool)> {
        let mut out = Vec::new();
        for (i, e) in self.body.exprs.iter().enumerate() {
            let Expr::Call { callee, args } = e else { continue };
            let Expr::Path(p) = self.body.expr(*callee) else { continue };
            if p.global || p.segments.len() != 1 || p.segments[0].args.is_some() {
                continue;
            }
            let x = ExprId(i as u32);
            let unresolved = self
                .r
                .calls
                .iter()
                .any(|(site, c)| matches!((site, c), (CallSite::Expr(s), Callee::Unresolved(_)) if *s == x));
            out.push((*callee, p.segments[0].name.as_str(), args.as_slice(), !unresolved));
        }
        out
    }

    /// The unresolved calls whose overload set certainly has no function
    /// that takes their arguments.
    fn no_match_calls(&self, caller: FnDecl) -> Vec<NoMatch> {
        let db = self.db;
        let Some(scope) = instances::fn_scope(db, caller) else { return Vec::new() };
        let map = def_map(db, caller.tu(db));
        let mut out = Vec::new();
        for (callee, name, args, resolved) in self.calls_by_name() {
            let shapes: Vec<Shape> =
                args.iter().map(|a| self.r.ty(*a).map_or(Shape::Other, |t| self.shape(t))).collect();
            if shapes.iter().any(|s| matches!(s, Shape::Other | Shape::Class(_))) {
                continue;
            }
            let found = lookup_fns(db, &map, scope, name);
            // `infer` keeps a lone candidate whose constraints are false (its
            // model more likely wrong than the program); here they are
            // certainly false for scalar arguments.
            if let Some(m) = self.unsatisfied_template(&found, callee, args) {
                out.push(m);
                continue;
            }
            let Some(set) = overload_set(db, found) else { continue };
            // Each function: why it cannot take the arguments, or the rank
            // of each argument's conversion; a function neither is undecided.
            let mut candidates = Vec::new();
            let mut viable = Vec::new();
            for &g in &set {
                match self.mismatch(g, args, &shapes) {
                    Some(m) => candidates.push((Candidate::Fn(g), m)),
                    None => match self.arithmetic_ranks(g, args) {
                        Some(ranks) => viable.push((g, ranks)),
                        None => break,
                    },
                }
            }
            if candidates.len() + viable.len() != set.len() {
                continue;
            }
            // No function, or several none better than another: with
            // arithmetic conversions alone, one is better than another when
            // no argument converts worse and one converts better.
            let better = |a: &[Rank], b: &[Rank]| a.iter().zip(b).all(|(x, y)| x <= y) && a != b;
            let incomparable = viable.iter().all(|(g, a)| viable.iter().all(|(h, b)| g == h || !better(a, b)));
            // A call `infer` resolved is reported only as ambiguous.
            if viable.len() == 1 || !incomparable || (resolved && viable.is_empty()) {
                continue;
            }
            let Some(arg_types) = args.iter().map(|a| self.arg_type(*a)).collect::<Option<Vec<_>>>() else { continue };
            let at = u32::from(self.body.expr_ranges[callee.0 as usize].start());
            let ambiguous = viable.into_iter().map(|(g, _)| g).collect();
            out.push(NoMatch { at, arg_types, set: SetKind::Functions, candidates, ambiguous });
        }
        out
    }

    /// An argument's type as `argument types are` spells it: a prvalue's
    /// (EDG's spelling of a qualified one is not checked).
    pub(crate) fn arg_type(&self, a: ExprId) -> Option<String> {
        let t = self.r.ty(a)?;
        if matches!(canonical(self.db, t).kind(self.db), TyKind::Qualified(..)) {
            return None;
        }
        spell::spell(self.db, t)
    }

    /// A call no function template can take because the one its name
    /// finds has constraints that are false for the arguments it deduces:
    /// a template (no member, declared once) whose parameters are its type
    /// parameters taken by value, each deduced from a scalar argument as
    /// its type (`template <Small T> void f(T)` called as `f(1.0)`).
    fn unsatisfied_template(&self, found: &[FnDecl], callee: ExprId, args: &[ExprId]) -> Option<NoMatch> {
        use cufront_hir::item_tree::{TemplateParamKind, TypeRef};
        use cufront_hir::templates::TemplateArg;
        let db = self.db;
        let [decl @ FnDecl::Template(_)] = found else { return None };
        let data = decl.data(db)?;
        if data.constraints.is_empty()
            || data.in_class
            || data.friend
            || data.ty.variadic
            || !data.pack_params.is_empty()
            || !data.outer_tparams.is_empty()
            || data.ty.params.len() != args.len()
        {
            return None;
        }
        let tparams = decl.tparams(db);
        if tparams.iter().any(|p| p.pack || p.default.is_some() || !matches!(p.kind, TemplateParamKind::Type)) {
            return None;
        }
        let mut deduced: Vec<Option<TyId>> = vec![None; tparams.len()];
        for (p, a) in data.ty.params.iter().zip(args) {
            let TypeRef::Path(path) = p else { return None };
            let [seg] = &path.segments[..] else { return None };
            if path.global || seg.args.is_some() {
                return None;
            }
            let j = tparams.iter().position(|t| t.name.as_deref() == Some(seg.name.as_str()))?;
            let t = strip_cv(db, canonical(db, self.r.ty(*a)?));
            if !matches!(t.kind(db), TyKind::Builtin(b) if *b != Builtin::Void) && !matches!(t.kind(db), TyKind::Ptr(_))
            {
                return None;
            }
            match deduced[j] {
                Some(d) if d != t => return None,
                _ => deduced[j] = Some(t),
            }
        }
        let targs = deduced.into_iter().map(|t| t.map(TemplateArg::Type)).collect::<Option<Vec<_>>>()?;
        let inst = instances::fn_instance(db, *decl, None, targs);
        if infer::constraints_satisfied(db, inst) != Some(false) {
            return None;
        }
        let arg_types = args.iter().map(|a| self.arg_type(*a)).collect::<Option<Vec<_>>>()?;
        let at = u32::from(self.body.expr_ranges[callee.0 as usize].start());
        Some(NoMatch {
            at,
            arg_types,
            set: SetKind::FunctionTemplate,
            candidates: vec![(Candidate::Template(inst), Mismatch::Deduction)],
            ambiguous: Vec::new(),
        })
    }

    /// The rank of each argument's implicit conversion to its parameter of
    /// `g` when each is an arithmetic type converted to one ([over.ics.scs]:
    /// exact match, promotion, conversion); `None` for any other shape.
    fn arithmetic_ranks(&self, g: FnId, args: &[ExprId]) -> Option<Vec<Rank>> {
        let db = self.db;
        let sig = instances::signature(db, instances::fn_instance(db, FnDecl::Fn(g), None, Vec::new())).ok()?;
        if sig.variadic || args.len() > sig.params.len() {
            return None;
        }
        let arithmetic = |t: TyId| match *strip_cv(db, canonical(db, t)).kind(db) {
            TyKind::Builtin(b) if is_floating(b) || is_standard_integral(b) || b == Builtin::Bool => Some(b),
            _ => None,
        };
        let mut out = Vec::new();
        for (a, p) in args.iter().zip(&sig.params) {
            let (from, to) = (arithmetic(self.r.ty(*a)?)?, arithmetic(*p)?);
            let promoted = matches!(
                (from, to),
                (
                    Builtin::Bool | Builtin::Char | Builtin::SChar | Builtin::UChar | Builtin::Short | Builtin::UShort,
                    Builtin::Int
                ) | (Builtin::Float, Builtin::Double)
            );
            out.push(if from == to {
                Rank::Exact
            } else if promoted {
                Rank::Promotion
            } else {
                Rank::Conversion
            });
        }
        Some(out)
    }

    /// Why function `g` certainly cannot take `args`; `None` when it may.
    pub(crate) fn mismatch(&self, g: FnId, args: &[ExprId], shapes: &[Shape]) -> Option<Mismatch> {
        let db = self.db;
        let d = FnDecl::Fn(g);
        let sig = instances::signature(db, instances::fn_instance(db, d, None, Vec::new())).ok()?;
        if sig.variadic {
            return None;
        }
        let least = sig.params.len().saturating_sub(infer::param_defaults(db, d) as usize);
        if args.len() < least || args.len() > sig.params.len() {
            return Some(Mismatch::Count);
        }
        for (k, ((a, fs), p)) in args.iter().zip(shapes).zip(&sig.params).enumerate() {
            let ts = self.shape(*p);
            if matches!(ts, Shape::Other | Shape::Class(_)) {
                return None;
            }
            if self.impossible(*a, *fs, ts) {
                return Some(Mismatch::Argument(k as u32 + 1));
            }
        }
        None
    }

    /// An integral expression that is certainly not the null pointer
    /// constant: a literal other than integer `0`, or a variable.
    fn certainly_not_null(&self, e: ExprId) -> bool {
        match self.body.expr(e) {
            Expr::Literal(Literal::Int(v, b)) => *v != 0 || *b == Builtin::Bool || is_character(*b),
            Expr::Literal(Literal::Float(_)) => true,
            Expr::Path(_) => {
                matches!(
                    self.r.resolutions.get(&e),
                    Some(Resolution::Local(_) | Resolution::Entity(cufront_hir::Entity::Var(_)))
                )
            }
            _ => false,
        }
    }

    /// The arguments of unresolved calls that the one function their name
    /// finds cannot take.
    fn calls(&self, caller: FnDecl) -> Vec<Raw> {
        let db = self.db;
        let Some(scope) = instances::fn_scope(db, caller) else { return Vec::new() };
        let map = def_map(db, caller.tu(db));
        let mut out = Vec::new();
        for (_, name, args) in self.unresolved_calls() {
            let shapes: Vec<Shape> =
                args.iter().map(|a| self.r.ty(*a).map_or(Shape::Other, |t| self.shape(t))).collect();
            if shapes.iter().any(|s| matches!(s, Shape::Other)) {
                continue;
            }
            let Some(f) = crate::arity::only_function(db, lookup_fns(db, &map, scope, name)) else {
                continue;
            };
            // Argument-dependent lookup adds nothing for scalar arguments,
            // nor for a class whose namespace declares no other function
            // of the name.
            let adds = |s: &Shape| match s {
                Shape::Class(ClassRefT::Class(k)) => !adl_adds_nothing(db, &map, *k, name, f),
                Shape::Class(ClassRefT::Inst(_)) => true,
                _ => false,
            };
            if shapes.iter().any(adds) {
                continue;
            }
            let Ok(sig) = instances::signature(db, instances::fn_instance(db, f, None, Vec::new())) else { continue };
            if sig.variadic || sig.params.len() != args.len() {
                continue;
            }
            for (a, t) in args.iter().zip(sig.params.iter()) {
                out.extend(self.convert(*a, *t, Site::Argument));
            }
        }
        out
    }
}

/// Whether class `c` may convert a scalar by a constructor: `Some(false)`
/// only for a complete class that is no template instance, has no bases
/// (an inherited constructor would count), and whose every constructor is
/// `explicit`, a copy or move constructor, or cannot take one argument.
/// Implicit constructors convert nothing; an aggregate is no exception.
fn converting_ctors(db: &dyn SourceDatabase, c: ClassRefT) -> Option<bool> {
    let ClassRefT::Class(k) = c else { return None };
    let map = def_map(db, k.tu(db));
    let k = map.class_definition(k);
    let data = item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize).cloned()?;
    if !data.is_definition || data.tparams.is_some() || !class_bases_of(db, c).is_empty() {
        return None;
    }
    let class = *map.class_scope.get(&k)?;
    for ctor in own_fns(db, &map, class, CTOR_KEY) {
        let FnDecl::Fn(f) = ctor else { return Some(true) };
        let fd = ctor.data(db)?;
        if fd.explicit {
            continue;
        }
        let sig = instances::signature(db, instances::fn_instance(db, ctor, None, Vec::new())).ok()?;
        let most = if sig.variadic || !fd.pack_params.is_empty() { usize::MAX } else { sig.params.len() };
        let least = sig.params.len().saturating_sub(infer::param_defaults(db, FnDecl::Fn(f)) as usize);
        if least > 1 || most < 1 {
            continue;
        }
        // A copy or move constructor takes the class itself: a scalar would
        // need a second user-defined conversion.
        let first = canonical(db, *sig.params.first()?);
        let of_class = match first.kind(db) {
            TyKind::LRef(x) | TyKind::RRef(x) => {
                matches!(strip_cv(db, canonical(db, *x)).kind(db), TyKind::Class(j) if map.class_definition(*j) == k)
            }
            _ => false,
        };
        if !of_class {
            return Some(true);
        }
    }
    Some(false)
}

/// Whether argument-dependent lookup for `name` with an argument of class
/// `k` finds no function beyond `f` (and its redeclarations): the class
/// befriends nothing, has no bases (their namespaces would count), and the
/// namespace around it declares no other function of that name.
fn adl_adds_nothing(db: &dyn SourceDatabase, map: &DefMap, k: ClassId, name: &str, f: FnDecl) -> bool {
    let k = map.class_definition(k);
    let Some(data) = item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize).cloned() else { return false };
    if data.has_friends || !class_bases_of(db, ClassRefT::Class(k)).is_empty() {
        return false;
    }
    // The innermost namespace around the class (classes nested in classes
    // have their outermost class's namespace).
    let mut s = map.parent.get(&DeclKey::Class(k)).copied();
    while let Some(x) = s {
        if !matches!(map.scope(x).kind, ScopeKind::Class(_)) {
            break;
        }
        s = map.scope(x).parent;
    }
    let Some(ns) = s else { return false };
    let same = exec_space::redeclarations(db, f);
    own_fns(db, map, ns, name).iter().all(|g| *g == f || same.contains(g))
}

fn is_floating(b: Builtin) -> bool {
    matches!(b, Builtin::Float | Builtin::Double | Builtin::LongDouble)
}

/// The integral types whose conversions are modelled (`bool` apart).
fn is_standard_integral(b: Builtin) -> bool {
    use Builtin::*;
    matches!(
        b,
        Char | SChar
            | UChar
            | WChar
            | Char8
            | Char16
            | Char32
            | Short
            | UShort
            | Int
            | UInt
            | Long
            | ULong
            | LongLong
            | ULongLong
    )
}

fn is_character(b: Builtin) -> bool {
    use Builtin::*;
    matches!(b, Char | SChar | UChar | WChar | Char8 | Char16 | Char32)
}
