//! EDG's `no operator "OP" matches these operands` (349) when overload
//! resolution of an operator expression certainly finds no candidate but
//! the built-in ones, none of which takes the operands: an operand of a
//! class type without conversion functions, and no operator function of
//! that name anywhere ordinary lookup or argument-dependent lookup could
//! look. EDG prints `operand types are: S + int` (740) under the error and
//! a note 3328 for each built-in candidate, with the first argument that
//! does not match it, all at the operator.
//!
//! The candidate lists are what cudafe++ 13.0 prints (probed with a class
//! `S {}` against every other operand kind, on the left and the right;
//! P = `<promoted arithmetic>`, I = `<promoted integral>`; `ptr` =
//! `<pointer to object>`, `pd` = `<ptrdiff_t>`):
//!
//! | operator | candidates, in order |
//! |---|---|
//! | `+` | (P, P), (ptr, pd), (pd, ptr) |
//! | `-` | (P, P), (ptr, pd), then (ptr, ptr) when an operand is a pointer to an object |
//! | `*` `/` | (P, P) |
//! | `%` `<<` `>>` `&` `^` `\|` | (I, I) |
//! | `<` `>` `<=` `>=` | (P, P), (`<pointer>`, `<pointer>`) when an operand is a pointer (`void *` and pointers to functions too), (`<enum>`, `<enum>`) when one is an enumeration, (`<nullptr>`, `<nullptr>`) |
//! | `==` `!=` | (P, P), (`<pointer>`, `<pointer>`) when an operand is a pointer, (`<nullptr>`, `<nullptr>`), (`<enum>`, `<enum>`) when one is an enumeration |
//! | `&&` `\|\|` | (`<bool>`, `<bool>`) |
//! | unary `+` | (P), (`<pointer>`) |
//! | unary `-` | (P) |
//! | `!` | (`<bool>`) |
//! | `~` | (I) |
//! | prefix `++` `--` | (`<non-bool arithmetic>`), (ptr) |
//! | postfix `++` `--` | (`<non-bool arithmetic>`, `<integral>`), (ptr, `<integral>`) |
//! | unary `*` | (ptr), (`<pointer to function>`) |
//! | `[]` | (ptr, pd), (pd, ptr) |
//! | `+=` `-=` | (`<arithmetic>`, P), (ptr, pd) |
//! | `*=` `/=` | (`<arithmetic>`, P) |
//! | `%=` `<<=` `>>=` `&=` `\|=` `^=` | (`<integral>`, I) |
//!
//! Which argument does not match (the first of the two that does not):
//! P takes integers (`bool` and characters too), floating types and
//! unscoped enumerations; I and `<ptrdiff_t>` integers and unscoped
//! enumerations; `<pointer to object>` pointers to objects; `<pointer>`
//! any pointer; `<enum>` any enumeration (scoped ones too); `<nullptr>`
//! only `std::nullptr_t`; `<bool>` anything scalar but `std::nullptr_t`
//! (a scoped enumeration too, as observed); a class without conversion
//! functions nothing; on the left of a compound assignment (a class, or
//! a modifiable scalar with a class on the right) `<arithmetic>` takes
//! integers and floating types, `<integral>` integers.
//!
//! Operand types are spelled as EDG writes them: typedef names kept, no
//! `aka`, references dropped, cv kept (`const ns::S + int`), unary ones as
//! `- S`, `S ++`, `S [ int ]` (caret at the `[`). Not modelled (silence): class templates with class or enum
//! arguments, partial and explicit specializations, nested and local
//! classes, enumerations in classes, arrays, pointers to members,
//! `++`/`--` of a const object, an enumeration or a prvalue on the left
//! of a compound assignment, a
//! body with a block-scope using-declaration or directive.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Message, Severity};
use cufront_hir::body::{BinaryOp, Body, Expr, ExprId, LocalDecl, UnaryOp};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner, InferenceResult, strip_cv};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::item_tree::Builtin;
use cufront_hir::scopes::{DeclKey, DefMap, ScopeIdx, ScopeKind, def_map, lookup_fns, own_fns};
use cufront_hir::templates::{ClassRefT, class_bases_of};
use cufront_hir::ty::{TyId, TyKind, canonical};
use cufront_hir::{ClassId, FnId, item_tree_of};

use crate::Found;

/// `no operator %sq matches these operands`.
const NO_OPERATOR: DiagId = DiagId(349);
/// `operand types are: %s`.
const OPERAND_TYPES: DiagId = DiagId(740);
/// `built-in operator%s does not match because argument #%d does not match parameter`.
const BUILTIN_MISMATCH: DiagId = DiagId(3328);

/// One operator expression no operator takes, relative to its item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoOperator {
    /// The operator's spelling (`+`, `<<=`, `!`, `[]`).
    pub op: &'static str,
    /// Its token in the text (`[` of `[]`).
    pub token: &'static str,
    /// Where to look for the operator token: from `from` (the end of the
    /// left operand; a prefix operator's own start; a postfix operator's
    /// operand's end) to `to` (the start of the right operand; equal to
    /// `from` for a prefix operator; the expression's end for a postfix
    /// one).
    pub from: u32,
    pub to: u32,
    /// The end of the expression (where EDG checks it in an instance).
    pub end: u32,
    /// `S + int`.
    pub types: String,
    /// Each built-in candidate (`+(<promoted arithmetic>, <ptrdiff_t>)`) and
    /// the first argument it does not take (1-based).
    pub candidates: Vec<(String, u8)>,
}

impl NoOperator {
    /// The error and its notes, at the operator token of the unit's `text`
    /// (`start`: the item's offset); `None` when the text between the
    /// operands is not the operator alone (parentheses and blanks aside).
    pub(crate) fn to_found(&self, text: &str, start: u32) -> Option<Vec<Found>> {
        let at = if self.from == self.to {
            let at = (start + self.from) as usize;
            text.get(at..)?.starts_with(self.token).then_some(at)?
        } else {
            let (from, to) = ((start + self.from) as usize, (start + self.to) as usize);
            let between = text.get(from..to)?;
            let rest: String = between.chars().filter(|c| !c.is_whitespace() && *c != '(' && *c != ')').collect();
            if rest != self.token {
                return None;
            }
            from + between.find(self.token)?
        } as u32;
        let mut error = Found::new(at, NO_OPERATOR, Severity::Error, vec![Arg::Str(self.op.to_string())]);
        error.continuation.push(Message::Template { id: OPERAND_TYPES, args: vec![Arg::Str(self.types.clone())] });
        let mut out = vec![error];
        for (candidate, arg) in &self.candidates {
            let args = vec![Arg::Str(candidate.clone()), Arg::Int(i64::from(*arg))];
            out.push(Found::new(at, BUILTIN_MISMATCH, Severity::Note, args));
        }
        Some(out)
    }
}

/// The operator expressions of a non-template function that no operator takes.
#[salsa::tracked(returns(clone))]
pub fn fn_no_operator_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<NoOperator>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    if !body.exprs.iter().any(is_operator) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let place = |at| crate::objects::Place { item: f.item(db), at };
    Arc::new(body_findings(db, decl, &body, &r, &|_| true, &|k, at| {
        crate::objects::defined_before(db, &def_map(db, k.tu(db)), k, place(at)).unwrap_or(false)
    }))
}

fn is_operator(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Binary { .. }
            | Expr::Assign { op: Some(_), .. }
            | Expr::Unary { op: UnaryOp::Neg | UnaryOp::Plus | UnaryOp::Not | UnaryOp::BitNot, .. }
            | Expr::Unary { op: UnaryOp::Deref | UnaryOp::PreInc | UnaryOp::PreDec, .. }
            | Expr::Unary { op: UnaryOp::PostInc | UnaryOp::PostDec, .. }
            | Expr::Index { .. }
    )
}

/// The findings of one body (`decl`'s, typed by `r`): of the expressions
/// with an operand `wanted` says to look at, and whose classes are
/// `complete` at the expression.
pub(crate) fn body_findings(
    db: &dyn SourceDatabase,
    decl: FnDecl,
    body: &Body,
    r: &InferenceResult,
    wanted: &dyn Fn(ExprId) -> bool,
    complete: &dyn Fn(ClassId, u32) -> bool,
) -> Vec<NoOperator> {
    // A block-scope using-declaration or directive may bring an operator
    // into ordinary lookup that the scope graph does not see.
    if body.local_decls.iter().any(|(_, d)| matches!(d, LocalDecl::Using(_) | LocalDecl::UsingNamespace(_))) {
        return Vec::new();
    }
    let Some(scope) = instances::fn_scope(db, decl) else { return Vec::new() };
    let map = def_map(db, decl.tu(db));
    let cx = Cx { db, map: &map, scope, body, r, complete };
    let mut out: Vec<(ExprId, NoOperator)> = Vec::new();
    for (i, e) in body.exprs.iter().enumerate() {
        let id = ExprId(i as u32);
        // Resolved to an operator function: not ours.
        if r.calls.iter().any(|(site, c)| *site == CallSite::Expr(id) && matches!(c, Callee::Entity(_))) {
            continue;
        }
        let found = match *e {
            Expr::Binary { op, lhs, rhs } if wanted(lhs) || wanted(rhs) => cx.binary(id, op, lhs, rhs),
            Expr::Assign { op: Some(op), lhs, rhs } if wanted(lhs) || wanted(rhs) => cx.compound(id, op, lhs, rhs),
            Expr::Unary { op, expr } if wanted(expr) => cx.unary(id, op, expr),
            Expr::Index { base, index } if wanted(base) || wanted(index) => cx.index(id, base, index),
            _ => None,
        };
        out.extend(found.map(|f| (id, f)));
    }
    // An operand that is itself in error is typed as something else by
    // `infer` (`-s` as `S`): EDG reports nothing more on it.
    let erroneous: Vec<ExprId> = out.iter().map(|(e, _)| *e).collect();
    out.retain(|(e, _)| {
        let operands = match *body.expr(*e) {
            Expr::Binary { lhs, rhs, .. } | Expr::Assign { lhs, rhs, .. } => vec![lhs, rhs],
            Expr::Unary { expr, .. } => vec![expr],
            Expr::Index { base, index } => vec![base, index],
            _ => vec![],
        };
        !operands.iter().any(|o| erroneous.contains(o))
    });
    out.into_iter().map(|(_, f)| f).collect()
}

/// The class (or class template specialization) `t` is.
fn class_ref(db: &dyn SourceDatabase, t: TyId) -> Option<ClassRefT> {
    let t = strip_cv(db, canonical(db, t));
    match t.kind(db) {
        TyKind::Class(k) => Some(ClassRefT::Class(*k)),
        TyKind::App(_) | TyKind::Inst(_) => cufront_hir::templates::class_of(db, t).ok(),
        _ => None,
    }
}

/// Whether `infer`'s type of `e` is a guess: an operator expression with
/// an operand of class type that no operator function was resolved for
/// (`S() + 1` is typed as the built-in `+` would type it). A conversion or
/// member access of such a value is no finding of its own: EDG reports
/// the operator (or, where the model found nothing, the model is wrong).
pub(crate) fn guessed_type(db: &dyn SourceDatabase, body: &Body, r: &InferenceResult, e: ExprId) -> bool {
    let operands = match *body.expr(e) {
        Expr::Binary { lhs, rhs, .. } | Expr::Assign { op: Some(_), lhs, rhs } => vec![lhs, rhs],
        Expr::Unary { op: UnaryOp::AddrOf | UnaryOp::Other, .. } => return false,
        Expr::Unary { expr, .. } => vec![expr],
        Expr::Index { base, index } => vec![base, index],
        _ => return false,
    };
    let class = |o: ExprId| {
        r.ty(o).is_some_and(|t| {
            let mut t = canonical(db, t);
            while let TyKind::LRef(x) | TyKind::RRef(x) = t.kind(db) {
                t = canonical(db, *x);
            }
            matches!(strip_cv(db, t).kind(db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_))
        })
    };
    operands.into_iter().any(class)
        && !r.calls.iter().any(|(site, c)| *site == CallSite::Expr(e) && matches!(c, Callee::Entity(_)))
}

/// What kind of operand a type is, for the built-in candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A class without conversion functions whose lookups find nothing.
    Class,
    /// Integers, `bool`, characters.
    Integral,
    Floating,
    Enum {
        scoped: bool,
    },
    /// A pointer to an object type (not `void`).
    ObjectPointer,
    /// `void *` and pointers to functions.
    OtherPointer,
    NullPtr,
}

/// A parameter of a built-in candidate.
#[derive(Clone, Copy)]
enum Param {
    PromotedArithmetic,
    PromotedIntegral,
    Arithmetic,
    Integral,
    ObjectPointer,
    PtrDiff,
    Pointer,
    Enum,
    NullPtr,
    Bool,
    NonBoolArithmetic,
    FunctionPointer,
}

impl Param {
    fn spelling(self) -> &'static str {
        match self {
            Param::PromotedArithmetic => "<promoted arithmetic>",
            Param::PromotedIntegral => "<promoted integral>",
            Param::Arithmetic => "<arithmetic>",
            Param::Integral => "<integral>",
            Param::ObjectPointer => "<pointer to object>",
            Param::PtrDiff => "<ptrdiff_t>",
            Param::Pointer => "<pointer>",
            Param::Enum => "<enum>",
            Param::NullPtr => "<nullptr>",
            Param::Bool => "<bool>",
            Param::NonBoolArithmetic => "<non-bool arithmetic>",
            Param::FunctionPointer => "<pointer to function>",
        }
    }

    /// Whether an operand of shape `s` matches (as the real front end decides).
    fn takes(self, s: Shape) -> bool {
        use Shape as S;
        let unscoped = matches!(s, S::Enum { scoped: false });
        match self {
            Param::PromotedArithmetic => matches!(s, S::Integral | S::Floating) || unscoped,
            Param::PromotedIntegral | Param::PtrDiff => s == S::Integral || unscoped,
            Param::ObjectPointer => s == S::ObjectPointer,
            Param::Pointer => matches!(s, S::ObjectPointer | S::OtherPointer),
            Param::Enum => matches!(s, S::Enum { .. }),
            Param::NullPtr => s == S::NullPtr,
            Param::Bool => !matches!(s, S::Class | S::NullPtr),
            // The left of a compound assignment; the postfix `int` of `++`/`--`.
            Param::Arithmetic => matches!(s, S::Integral | S::Floating),
            Param::Integral => s == S::Integral,
            // Only a class operand of `++`/`--` and `*` is modelled.
            Param::NonBoolArithmetic | Param::FunctionPointer => false,
        }
    }
}

/// The built-in candidates of binary `op` for operands `l` and `r`, in
/// EDG's order; `None` for an operator not modelled.
fn binary_candidates(op: BinaryOp, l: Shape, r: Shape) -> Option<Vec<[Param; 2]>> {
    use BinaryOp as B;
    use Param as P;
    let any = |f: &dyn Fn(Shape) -> bool| f(l) || f(r);
    let pointer = any(&|s| matches!(s, Shape::ObjectPointer | Shape::OtherPointer));
    let object_pointer = any(&|s| s == Shape::ObjectPointer);
    let enumeration = any(&|s| matches!(s, Shape::Enum { .. }));
    let arith = [P::PromotedArithmetic, P::PromotedArithmetic];
    let integral = [P::PromotedIntegral, P::PromotedIntegral];
    let mut out = Vec::new();
    match op {
        B::Add => out.extend([arith, [P::ObjectPointer, P::PtrDiff], [P::PtrDiff, P::ObjectPointer]]),
        B::Sub => {
            out.extend([arith, [P::ObjectPointer, P::PtrDiff]]);
            if object_pointer {
                out.push([P::ObjectPointer, P::ObjectPointer]);
            }
        }
        B::Mul | B::Div => out.push(arith),
        B::Rem | B::Shl | B::Shr | B::BitAnd | B::BitXor | B::BitOr => out.push(integral),
        B::Lt | B::Gt | B::Le | B::Ge | B::Eq | B::Ne => {
            out.push(arith);
            if pointer {
                out.push([P::Pointer, P::Pointer]);
            }
            let equality = matches!(op, B::Eq | B::Ne);
            if enumeration && !equality {
                out.push([P::Enum, P::Enum]);
            }
            out.push([P::NullPtr, P::NullPtr]);
            if enumeration && equality {
                out.push([P::Enum, P::Enum]);
            }
        }
        B::And | B::Or => out.push([P::Bool, P::Bool]),
        B::Spaceship | B::PtrMem | B::PtrMemArrow => return None,
    }
    Some(out)
}

/// The built-in candidates of `op=` with a class on the left.
fn compound_candidates(op: BinaryOp) -> Option<Vec<[Param; 2]>> {
    use BinaryOp as B;
    use Param as P;
    let arith = [P::Arithmetic, P::PromotedArithmetic];
    Some(match op {
        B::Add | B::Sub => vec![arith, [P::ObjectPointer, P::PtrDiff]],
        B::Mul | B::Div => vec![arith],
        B::Rem | B::Shl | B::Shr | B::BitAnd | B::BitOr | B::BitXor => vec![[P::Integral, P::PromotedIntegral]],
        _ => return None,
    })
}

/// A unary operator's candidates (a postfix `++`/`--` has a second,
/// `<integral>` parameter).
fn unary_candidates(op: UnaryOp) -> Option<(&'static str, Vec<Vec<Param>>)> {
    use Param as P;
    let inc = |postfix: bool| {
        let second: &[Param] = if postfix { &[P::Integral] } else { &[] };
        vec![[&[P::NonBoolArithmetic][..], second].concat(), [&[P::ObjectPointer][..], second].concat()]
    };
    Some(match op {
        UnaryOp::Plus => ("+", vec![vec![P::PromotedArithmetic], vec![P::Pointer]]),
        UnaryOp::Neg => ("-", vec![vec![P::PromotedArithmetic]]),
        UnaryOp::Not => ("!", vec![vec![P::Bool]]),
        UnaryOp::BitNot => ("~", vec![vec![P::PromotedIntegral]]),
        UnaryOp::Deref => ("*", vec![vec![P::ObjectPointer], vec![P::FunctionPointer]]),
        UnaryOp::PreInc => ("++", inc(false)),
        UnaryOp::PreDec => ("--", inc(false)),
        UnaryOp::PostInc => ("++", inc(true)),
        UnaryOp::PostDec => ("--", inc(true)),
        _ => return None,
    })
}

/// `+(<promoted arithmetic>, <ptrdiff_t>)` and the first argument it does
/// not take; `None` when it takes them all (then the operands are not
/// certainly without a candidate).
fn note(op: &str, params: &[Param], shapes: &[Shape]) -> Option<(String, u8)> {
    let first = params.iter().zip(shapes).position(|(p, s)| !p.takes(*s))?;
    let list: Vec<&str> = params.iter().map(|p| p.spelling()).collect();
    Some((format!("{op}({})", list.join(", ")), first as u8 + 1))
}

fn notes(op: &str, candidates: &[[Param; 2]], shapes: &[Shape]) -> Option<Vec<(String, u8)>> {
    candidates.iter().map(|c| note(op, c, shapes)).collect()
}

struct Cx<'a> {
    db: &'a dyn SourceDatabase,
    map: &'a DefMap,
    scope: ScopeIdx,
    body: &'a Body,
    r: &'a InferenceResult,
    complete: &'a dyn Fn(ClassId, u32) -> bool,
}

impl Cx<'_> {
    fn start(&self, e: ExprId) -> u32 {
        u32::from(self.body.expr_ranges[e.0 as usize].start())
    }

    fn end(&self, e: ExprId) -> u32 {
        u32::from(self.body.expr_ranges[e.0 as usize].end())
    }

    fn binary(&self, e: ExprId, op: BinaryOp, lhs: ExprId, rhs: ExprId) -> Option<NoOperator> {
        let spelling = op.spelling();
        let (l, r) = (self.shape(lhs, e)?, self.shape(rhs, e)?);
        if l != Shape::Class && r != Shape::Class {
            return None;
        }
        let candidates = notes(spelling, &binary_candidates(op, l, r)?, &[l, r])?;
        self.nothing_found(op_names(spelling), &[lhs, rhs])?;
        let types = format!("{} {spelling} {}", self.spelled(lhs)?, self.spelled(rhs)?);
        let (from, to, end) = (self.end(lhs), self.start(rhs), self.end(e));
        Some(NoOperator { op: spelling, token: spelling, from, to, end, types, candidates })
    }

    fn compound(&self, e: ExprId, op: BinaryOp, lhs: ExprId, rhs: ExprId) -> Option<NoOperator> {
        let spelling = compound_spelling(op)?;
        let (l, r) = (self.shape(lhs, e)?, self.shape(rhs, e)?);
        // A scalar lvalue on the left (probed with `int`, `const int`,
        // `bool`, `double` and `int *`).
        let scalar = matches!(l, Shape::Integral | Shape::Floating | Shape::ObjectPointer)
            && r == Shape::Class
            && self.r.categories.get(lhs.0 as usize) == Some(&infer::Category::LValue);
        if l != Shape::Class && !scalar {
            return None;
        }
        let candidates = notes(spelling, &compound_candidates(op)?, &[l, r])?;
        self.nothing_found(vec![format!("operator{spelling}")], &[lhs, rhs])?;
        let types = format!("{} {spelling} {}", self.spelled(lhs)?, self.spelled(rhs)?);
        let (from, to, end) = (self.end(lhs), self.start(rhs), self.end(e));
        Some(NoOperator { op: spelling, token: spelling, from, to, end, types, candidates })
    }

    fn unary(&self, e: ExprId, op: UnaryOp, operand: ExprId) -> Option<NoOperator> {
        let db = self.db;
        let (spelling, params) = unary_candidates(op)?;
        if self.shape(operand, e)? != Shape::Class {
            return None;
        }
        // `++`/`--` of a const object: not probed.
        let increment = matches!(op, UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec);
        if increment && matches!(canonical(db, self.operand_ty(operand)?).kind(db), TyKind::Qualified(..)) {
            return None;
        }
        let postfix = matches!(op, UnaryOp::PostInc | UnaryOp::PostDec);
        let shapes: &[Shape] = if postfix { &[Shape::Class, Shape::Integral] } else { &[Shape::Class] };
        let candidates = params.iter().map(|p| note(spelling, p, shapes)).collect::<Option<Vec<_>>>()?;
        self.nothing_found(vec![format!("operator{spelling}")], &[operand])?;
        let operand_type = self.spelled(operand)?;
        let end = self.end(e);
        if postfix {
            let (from, types) = (self.end(operand), format!("{operand_type} {spelling}"));
            return Some(NoOperator { op: spelling, token: spelling, from, to: end, end, types, candidates });
        }
        let (at, types) = (self.start(e), format!("{spelling} {operand_type}"));
        Some(NoOperator { op: spelling, token: spelling, from: at, to: at, end, types, candidates })
    }

    fn index(&self, e: ExprId, base: ExprId, index: ExprId) -> Option<NoOperator> {
        let (l, r) = (self.shape(base, e)?, self.shape(index, e)?);
        if l != Shape::Class && r != Shape::Class {
            return None;
        }
        let candidates = [[Param::ObjectPointer, Param::PtrDiff], [Param::PtrDiff, Param::ObjectPointer]];
        let candidates = notes("[]", &candidates, &[l, r])?;
        self.nothing_found(vec!["operator[]".to_string()], &[base, index])?;
        let types = format!("{} [ {} ]", self.spelled(base)?, self.spelled(index)?);
        let (from, to, end) = (self.end(base), self.start(index), self.end(e));
        Some(NoOperator { op: "[]", token: "[", from, to, end, types, candidates })
    }

    /// The operand's type with its references dropped (what `operand
    /// types are` spells).
    fn operand_ty(&self, e: ExprId) -> Option<TyId> {
        let db = self.db;
        let mut t = self.r.ty(e)?;
        while let TyKind::LRef(x) | TyKind::RRef(x) = t.kind(db) {
            t = *x;
        }
        Some(t)
    }

    fn spelled(&self, e: ExprId) -> Option<String> {
        let db = self.db;
        let t = self.operand_ty(e)?;
        if matches!(t.kind(db), TyKind::Builtin(Builtin::NullPtr)) {
            return Some("std::nullptr_t".into());
        }
        // A class template specialization by its arguments (`A<int>`,
        // `const A<int>`; checked), which `spell` leaves out.
        let (inner, cv) = match t.kind(db) {
            TyKind::Qualified(x, cv) => (*x, Some(*cv)),
            _ => (t, None),
        };
        if let TyKind::App(_) | TyKind::Inst(_) = inner.kind(db) {
            let Some(ClassRefT::Inst(i)) = class_ref(db, inner) else { return None };
            let name = crate::spell::instance(db, i)?;
            return match cv {
                None => Some(name),
                Some(cv) if cv.c && !cv.v && !cv.r => Some(format!("const {name}")),
                Some(_) => None,
            };
        }
        crate::spell::spell(db, t)
    }

    /// The operand's shape; for a class (or a pointer to one, or an
    /// enumeration: their scopes are searched by argument-dependent
    /// lookup), only when its lookups are certain.
    fn shape(&self, e: ExprId, at: ExprId) -> Option<Shape> {
        let db = self.db;
        let t = strip_cv(db, canonical(db, self.operand_ty(e)?));
        Some(match t.kind(db) {
            TyKind::Builtin(Builtin::NullPtr) => Shape::NullPtr,
            TyKind::Builtin(Builtin::Void) => return None,
            TyKind::Builtin(_) if crate::spell::spell(db, t).is_none() => return None,
            TyKind::Builtin(b) if is_floating(*b) => Shape::Floating,
            TyKind::Builtin(_) => Shape::Integral,
            TyKind::Enum(k) => {
                let data = item_tree_of(db, k.item(db)).enums.get(k.idx(db) as usize)?.clone();
                Shape::Enum { scoped: data.scoped }
            }
            TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) => {
                self.class_is_plain(t, self.start(at))?;
                Shape::Class
            }
            TyKind::Ptr(p) => match strip_cv(db, canonical(db, *p)).kind(db) {
                TyKind::Builtin(Builtin::Void) | TyKind::Func(_) => Shape::OtherPointer,
                TyKind::Builtin(_) | TyKind::Ptr(_) => Shape::ObjectPointer,
                TyKind::Enum(_) | TyKind::Class(_) => Shape::ObjectPointer,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// `Some(())` when a class is one whose lookups this module can
    /// decide: defined (before `at`), not a template, not nested, without
    /// friends or conversion functions, with bases that are the same.
    fn class_is_plain(&self, t: TyId, at: u32) -> Option<()> {
        let db = self.db;
        let c = class_ref(db, t)?;
        let k = match c {
            ClassRefT::Class(k) => self.map.class_definition(k),
            ClassRefT::Inst(i) => i.class(db),
        };
        if !(self.complete)(k, at) {
            return None;
        }
        if crate::operands::converts(db, c, 0)? {
            return None;
        }
        self.classes_of(c, 0).map(|_| ())
    }

    /// The class and its bases (their definitions; a class template
    /// specialization's pattern), each plain: not nested, without
    /// friends, not an explicit or partial specialization, a template's
    /// arguments scalars (their classes and namespaces would be searched
    /// too).
    fn classes_of(&self, c: ClassRefT, depth: u32) -> Option<Vec<ClassId>> {
        let db = self.db;
        if depth > 16 {
            return None;
        }
        let k = match c {
            ClassRefT::Class(k) => self.map.class_definition(k),
            ClassRefT::Inst(i) => i.class(db),
        };
        let data = item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize)?.clone();
        if !data.is_definition || data.has_friends || data.spec_args.is_some() {
            return None;
        }
        match c {
            ClassRefT::Class(_) if data.tparams.is_some() => return None,
            ClassRefT::Class(_) => {}
            ClassRefT::Inst(i) => {
                data.tparams.as_ref()?;
                for a in i.args(db) {
                    match a {
                        cufront_hir::templates::TemplateArg::Type(t) => {
                            let t = strip_cv(db, canonical(db, *t));
                            let t = match t.kind(db) {
                                TyKind::Ptr(p) => strip_cv(db, canonical(db, *p)),
                                _ => t,
                            };
                            if !matches!(t.kind(db), TyKind::Builtin(_)) {
                                return None;
                            }
                        }
                        cufront_hir::templates::TemplateArg::Value(..) => {}
                        _ => return None,
                    }
                }
            }
        }
        let parent = *self.map.parent.get(&DeclKey::Class(k))?;
        if !plain_namespace(&self.map.scope(parent).kind) {
            return None;
        }
        let mut out = vec![k];
        for b in class_bases_of(db, c).iter() {
            out.extend(self.classes_of(b.class?, depth + 1)?);
        }
        Some(out)
    }

    /// `Some(())` when no function named one of `names` is found: by
    /// ordinary lookup from the body, as a member of a class operand, or
    /// in the namespaces and classes argument-dependent lookup searches
    /// for the operands.
    fn nothing_found(&self, names: Vec<String>, operands: &[ExprId]) -> Option<()> {
        let db = self.db;
        let mut scopes: Vec<ScopeIdx> = Vec::new();
        for &o in operands {
            let t = strip_cv(db, canonical(db, self.operand_ty(o)?));
            let t = match t.kind(db) {
                TyKind::Ptr(p) => strip_cv(db, canonical(db, *p)),
                _ => t,
            };
            match t.kind(db) {
                TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) => {
                    for c in self.classes_of(class_ref(db, t)?, 0)? {
                        scopes.push(*self.map.class_scope.get(&c)?);
                        scopes.push(*self.map.parent.get(&DeclKey::Class(c))?);
                    }
                }
                TyKind::Enum(k) => {
                    let parent = *self.map.parent.get(&DeclKey::Enum(*k))?;
                    if !plain_namespace(&self.map.scope(parent).kind) {
                        return None;
                    }
                    scopes.push(parent);
                }
                TyKind::Builtin(_) | TyKind::Func(_) => {}
                _ => return None,
            }
        }
        for name in &names {
            if !lookup_fns(db, self.map, self.scope, name).is_empty() {
                return None;
            }
            if scopes.iter().any(|s| !own_fns(db, self.map, *s, name).is_empty()) {
                return None;
            }
        }
        Some(())
    }
}

/// The names of the operator functions that could take a binary
/// operator: its own, and for a comparison those C++20 rewrites it to.
fn op_names(spelling: &str) -> Vec<String> {
    let mut out = vec![format!("operator{spelling}")];
    if matches!(spelling, "==" | "!=" | "<" | ">" | "<=" | ">=") {
        out.extend(["operator==".to_string(), "operator!=".to_string(), "operator<=>".to_string()]);
    }
    out
}

/// A namespace argument-dependent lookup searches alone (an inline one
/// brings its enclosing namespace in: not modelled).
fn plain_namespace(kind: &ScopeKind) -> bool {
    matches!(kind, ScopeKind::Root | ScopeKind::Namespace { inline: false, .. })
}

fn compound_spelling(op: BinaryOp) -> Option<&'static str> {
    use BinaryOp as B;
    Some(match op {
        B::Add => "+=",
        B::Sub => "-=",
        B::Mul => "*=",
        B::Div => "/=",
        B::Rem => "%=",
        B::Shl => "<<=",
        B::Shr => ">>=",
        B::BitAnd => "&=",
        B::BitOr => "|=",
        B::BitXor => "^=",
        _ => return None,
    })
}

fn is_floating(b: Builtin) -> bool {
    use Builtin::*;
    matches!(b, Float | Double | LongDouble | Float128 | Float16 | BF16 | Float32 | Float64 | Float32x | Float64x)
}

#[cfg(test)]
mod table_tests {
    use super::*;

    #[test]
    fn candidates_follow_the_probed_table() {
        use Shape as S;
        let show = |op, l, r| {
            let c = binary_candidates(op, l, r).unwrap();
            notes(BinaryOp::spelling(op), &c, &[l, r]).unwrap()
        };
        assert_eq!(
            show(BinaryOp::Add, S::Integral, S::Class),
            vec![
                ("+(<promoted arithmetic>, <promoted arithmetic>)".to_string(), 2),
                ("+(<pointer to object>, <ptrdiff_t>)".to_string(), 1),
                ("+(<ptrdiff_t>, <pointer to object>)".to_string(), 2),
            ]
        );
        assert_eq!(
            show(BinaryOp::Sub, S::ObjectPointer, S::Class),
            vec![
                ("-(<promoted arithmetic>, <promoted arithmetic>)".to_string(), 1),
                ("-(<pointer to object>, <ptrdiff_t>)".to_string(), 2),
                ("-(<pointer to object>, <pointer to object>)".to_string(), 2),
            ]
        );
        assert_eq!(
            show(BinaryOp::Eq, S::Class, S::Enum { scoped: false }),
            vec![
                ("==(<promoted arithmetic>, <promoted arithmetic>)".to_string(), 1),
                ("==(<nullptr>, <nullptr>)".to_string(), 1),
                ("==(<enum>, <enum>)".to_string(), 1),
            ]
        );
        assert_eq!(
            show(BinaryOp::Lt, S::Enum { scoped: true }, S::Class),
            vec![
                ("<(<promoted arithmetic>, <promoted arithmetic>)".to_string(), 1),
                ("<(<enum>, <enum>)".to_string(), 2),
                ("<(<nullptr>, <nullptr>)".to_string(), 1),
            ]
        );
        assert_eq!(show(BinaryOp::And, S::NullPtr, S::Class), vec![("&&(<bool>, <bool>)".to_string(), 1)]);
        assert_eq!(show(BinaryOp::Or, S::OtherPointer, S::Class), vec![("||(<bool>, <bool>)".to_string(), 2)]);
        assert_eq!(
            show(BinaryOp::Rem, S::Floating, S::Class),
            vec![("%(<promoted integral>, <promoted integral>)".to_string(), 1)]
        );
    }
}
