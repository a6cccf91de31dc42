//! The warnings EDG gives while it folds integer constants (both passes,
//! every body: spec 61), checked against the real front ends:
//!
//! - 68 `integer conversion resulted in a change of sign` and 69 `…
//!   truncation`: a constant implicitly converted to an integer type (an
//!   initializer, `=`, `return`, a call's argument) whose value changes:
//!   truncation when the value does not fit the type's width at all (below
//!   the signed minimum or above the unsigned maximum), a sign change
//!   otherwise (`unsigned u = -1;`, `char c = 200;`). The caret is at the
//!   converted expression.
//! - 61 `integer operation result is out of range`: `+`, `-`, `*` of
//!   constants overflowing their signed type (at the operator).
//! - 63 `shift count is too large`: a constant count at least the width of
//!   the promoted left operand (at the count).
//! - 39 `division by zero` (constant operands, at the operator) and 179
//!   `right operand of "%" is zero` (a variable left operand, at the zero).
//! - 2361 `invalid narrowing conversion from %t1 to %t2`: a floating literal
//!   in a braced initializer of an integer variable (at the literal; a
//!   class's aggregate initialization is not checked).
//! - 186 `pointless comparison of unsigned integer with zero`: `u < 0`,
//!   `u >= 0`, `0 > u`, `0 <= u` with `u` of an unsigned type of rank `int`
//!   or above (at the operator).
//!
//! Certainty: the constants folded here are integer literals under the
//! built-in operators and casts to integer types, with the usual
//! arithmetic conversions of `hir::consteval` (the one place they are
//! written); a name, a call or a 128-bit type is not folded. Targets and
//! operand types are those `infer` gave; a body it did not infer gives
//! nothing.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::body::{BinaryOp as B, Body, Expr, ExprId, Init, Literal, Stmt, UnaryOp};
use cufront_hir::consteval::{bits, common, convert, is_integral, is_unsigned, min_value, promote};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner, InferenceResult};
use cufront_hir::instances::{self, FnDecl, VarDecl};
use cufront_hir::item_tree::{Builtin, TypeRef};
use cufront_hir::ty::{TyId, TyKind, builtin_name, canonical};
use cufront_hir::{Entity, FnId, VarId};

use crate::Raw;

const DIVIDE_BY_ZERO: DiagId = DiagId(39);
const INTEGER_OVERFLOW: DiagId = DiagId(61);
const SHIFT_TOO_LARGE: DiagId = DiagId(63);
const SIGN_CHANGE: DiagId = DiagId(68);
const TRUNCATED: DiagId = DiagId(69);
const MOD_BY_ZERO: DiagId = DiagId(179);
const UNSIGNED_WITH_ZERO: DiagId = DiagId(186);
const NARROWING: DiagId = DiagId(2361);

/// The constant-folding warnings of one function body.
#[salsa::tracked(returns(clone))]
pub fn fn_constant_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    if !worth_inferring(&body) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let ret = instances::signature(db, instances::fn_instance(db, decl, None, Vec::new()))
        .ok()
        .and_then(|s| integer(db, s.ret));
    Arc::new(findings(db, f.item(db), &body, &r, ret))
}

/// The same for the initializer of a variable the unit defines.
#[salsa::tracked(returns(clone))]
pub fn var_constant_findings(db: &dyn SourceDatabase, v: VarId) -> Arc<Vec<Raw>> {
    let body = infer::var_init::var_init_body(db, VarDecl::Var(v));
    if !worth_inferring(&body) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Var(v));
    if r.skipped.is_some() {
        return Arc::default();
    }
    Arc::new(findings(db, v.item(db), &body, &r, None))
}

/// Whether the body can have a finding, read without inference (which is
/// costly in bodies that call into template libraries): a floating literal
/// as a braced initializer, a constant that
/// some integer conversion changes (outside `0..=127`), a constant shift
/// count of 32 or more, a constant zero divisor, a comparison with a
/// literal zero, or arithmetic on two constants.
fn worth_inferring(body: &Body) -> bool {
    let floating = |v: &[ExprId]| v.iter().any(|x| floating_literal(body, *x).is_some());
    let braced_floating = body.locals.iter().any(|l| match &l.init {
        Init::Brace(v) => floating(v),
        Init::Assign(e) => matches!(body.expr(*e), Expr::InitList(v) if floating(v)),
        _ => false,
    });
    if braced_floating {
        return true;
    }
    let konst = |e: ExprId| fold(body, e, 0);
    (0..body.exprs.len() as u32).map(ExprId).any(|e| {
        konst(e).is_some_and(|c| !(0..=127).contains(&c.v))
            || match body.expr(e) {
                Expr::Binary { op: B::Shl | B::Shr, rhs, .. } => konst(*rhs).is_some_and(|c| c.v >= 32),
                Expr::Binary { op: B::Div | B::Rem, rhs, .. } => konst(*rhs).is_some_and(|c| c.v == 0),
                Expr::Binary { op: B::Lt | B::Ge | B::Gt | B::Le, lhs, rhs } => {
                    [lhs, rhs].iter().any(|x| matches!(body.expr(**x), Expr::Literal(Literal::Int(0, _))))
                }
                Expr::Binary { op: B::Add | B::Sub | B::Mul, lhs, rhs } => {
                    konst(*lhs).is_some() && konst(*rhs).is_some()
                }
                _ => false,
            }
    })
}

fn findings(
    db: &dyn SourceDatabase,
    item: cufront_hir::ItemId,
    body: &Body,
    r: &InferenceResult,
    ret: Option<Builtin>,
) -> Vec<Raw> {
    let text = cufront_hir::consteval::interp::item_text(db, item);
    let mut out = Vec::new();
    let mut narrowing = Vec::new();
    let mut push = |at: u32, id| out.push(Raw { at, id, severity: Severity::Warning, args: Vec::<Arg>::new() });
    let start = |e: ExprId| u32::from(body.expr_ranges[e.0 as usize].start());
    // Conversions of constants.
    let convert_to = |e: ExprId, target: Option<Builtin>, push: &mut dyn FnMut(u32, DiagId)| {
        let (Some(t), Some(c)) = (target, fold(body, e, 0)) else { return };
        if bit_pattern(body, &text, e, 0) {
            return;
        }
        if t == Builtin::Bool || bits(t) >= 128 {
            return;
        }
        let w = convert(c.v, t);
        if w == c.v {
            return;
        }
        let fits_width = c.v >= min_value(signed(t)) && c.v <= cufront_hir::consteval::max_value(unsigned(t)) as i128;
        push(start(e), if fits_width { SIGN_CHANGE } else { TRUNCATED });
    };
    for s in &body.stmts {
        match s {
            Stmt::Decl(locals) => {
                for &l in locals {
                    // `= e`, `(e)`, `{e}`, `= {e}`: the same conversion
                    // (EDG gives no narrowing error for an integer constant).
                    let list = match &body.local(l).init {
                        Init::Assign(e) => match body.expr(*e) {
                            Expr::InitList(v) => Some(v.as_slice()),
                            _ => None,
                        },
                        Init::Brace(v) => Some(v.as_slice()),
                        _ => None,
                    };
                    // An aggregate's elements from a flat list.
                    let ty = r.local_tys.get(l.0 as usize).copied().flatten();
                    if let (Some(list), Some(fields)) = (list, ty.and_then(|t| aggregate_fields(db, t))) {
                        for (&x, to) in list.iter().zip(fields) {
                            if let (Some(to), Some(from)) = (to, floating_literal(body, x)) {
                                let ty = |b| Arg::Type { spelling: builtin_name(b).to_string(), aka: None };
                                let args = vec![ty(from), ty(to)];
                                narrowing.push(Raw { at: start(x), id: NARROWING, severity: Severity::Warning, args });
                            }
                        }
                        continue;
                    }
                    let (init, braced) = match &body.local(l).init {
                        Init::Assign(e) => match body.expr(*e) {
                            Expr::InitList(v) if v.len() == 1 => (v[0], true),
                            _ => (*e, false),
                        },
                        Init::Paren(v) if v.len() == 1 => (v[0], false),
                        Init::Brace(v) if v.len() == 1 => (v[0], true),
                        _ => continue,
                    };
                    let target = r.local_tys.get(l.0 as usize).copied().flatten().and_then(|t| integer(db, t));
                    convert_to(init, target, &mut push);
                    if braced
                        && let Some(to) = target.filter(|&t| t != Builtin::Bool)
                        && let Some(from) = floating_literal(body, init)
                    {
                        let ty = |b| Arg::Type { spelling: builtin_name(b).to_string(), aka: None };
                        narrowing.push(Raw {
                            at: start(init),
                            id: NARROWING,
                            severity: Severity::Warning,
                            args: vec![ty(from), ty(to)],
                        });
                    }
                }
            }
            Stmt::Return(Some(e)) => convert_to(*e, ret, &mut push),
            _ => {}
        }
    }
    for (i, e) in body.exprs.iter().enumerate() {
        let id = ExprId(i as u32);
        match e {
            Expr::Assign { op: None, lhs, rhs } => {
                let target = ty_of(r, *lhs).and_then(|t| integer(db, t));
                convert_to(*rhs, target, &mut push);
            }
            Expr::Call { args, .. } => {
                let Some(Callee::Entity(callee)) = r.calls.iter().find_map(|(site, c)| match site {
                    CallSite::Expr(x) if *x == id => Some(c),
                    _ => None,
                }) else {
                    continue;
                };
                let inst = match callee {
                    Entity::Fn(f) => instances::fn_instance(db, FnDecl::Fn(*f), None, Vec::new()),
                    Entity::FnInst(i) => *i,
                    _ => continue,
                };
                let Ok(sig) = instances::signature(db, inst) else { continue };
                for (a, p) in args.iter().zip(sig.params.iter()) {
                    convert_to(*a, integer(db, *p), &mut push);
                }
            }
            Expr::Binary { op, lhs, rhs } => {
                let (a, b) = (fold(body, *lhs, 0), fold(body, *rhs, 0));
                let op_at = |spelling: &str| operator_at(body, &text, *lhs, *rhs, spelling);
                match op {
                    B::Add | B::Sub | B::Mul => {
                        if let (Some(a), Some(b)) = (a, b)
                            && arith(*op, a, b).is_some_and(|(raw, t)| !is_unsigned(t) && convert(raw, t) != raw)
                            && let Some(at) = op_at(op.spelling())
                        {
                            push(at, INTEGER_OVERFLOW);
                        }
                    }
                    B::Shl | B::Shr => {
                        let left = a.map(|a| a.ty).or_else(|| ty_of(r, *lhs).and_then(|t| integer(db, t)));
                        if let (Some(l), Some(b)) = (left, b)
                            && bits(promote(l)) < 128
                            && b.v >= i128::from(bits(promote(l)))
                        {
                            push(start(*rhs), SHIFT_TOO_LARGE);
                        }
                    }
                    B::Div | B::Rem if b.is_some_and(|b| b.v == 0) => match (a, op) {
                        (Some(_), _) => {
                            if let Some(at) = op_at(op.spelling()) {
                                push(at, DIVIDE_BY_ZERO);
                            }
                        }
                        (None, B::Rem) if ty_of(r, *lhs).and_then(|t| integer(db, t)).is_some() => {
                            push(start(*rhs), MOD_BY_ZERO);
                        }
                        _ => {}
                    },
                    B::Lt | B::Ge | B::Gt | B::Le => {
                        let zero = |e: ExprId| matches!(body.expr(e), Expr::Literal(Literal::Int(0, _)));
                        let unsigned_var = |e: ExprId| {
                            fold(body, e, 0).is_none()
                                && ty_of(r, e)
                                    .and_then(|t| integer(db, t))
                                    .is_some_and(|t| is_unsigned(promote(t)) && t != Builtin::Bool)
                        };
                        let pointless = match op {
                            B::Lt | B::Ge => zero(*rhs) && unsigned_var(*lhs),
                            _ => zero(*lhs) && unsigned_var(*rhs),
                        };
                        if pointless && let Some(at) = op_at(op.spelling()) {
                            push(at, UNSIGNED_WITH_ZERO);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    out.extend(narrowing);
    out.sort_by_key(|r| r.at);
    out.dedup_by_key(|r| (r.at, r.id));
    out
}

/// A floating literal (possibly negated): its type.
/// The element types of a simple aggregate, in order: an integral field
/// (not `bool`) as its builtin, any other as None. The class is complete,
/// not a template, without bases, constructors, virtual functions or
/// anonymous members; other classes are None.
fn aggregate_fields(db: &dyn SourceDatabase, t: TyId) -> Option<Vec<Option<Builtin>>> {
    let TyKind::Class(k) = canonical(db, t).kind(db) else { return None };
    let k = cufront_hir::scopes::def_map(db, k.item(db).tu(db)).class_definition(*k);
    let tree = cufront_hir::item_tree_of(db, k.item(db));
    let data = tree.classes.get(k.idx(db) as usize)?;
    let simple = data.is_definition
        && data.tparams.is_none()
        && data.spec_args.is_none()
        && data.bases.is_empty()
        && !data.user_ctor
        && !data.has_virtual_fn
        && data.fields.iter().all(|f| f.anonymous.is_none() && f.access == cufront_hir::item_tree::Access::Public);
    if !simple {
        return None;
    }
    Some(
        data.fields
            .iter()
            .map(|f| match f.ty {
                TypeRef::Builtin(b) if b != Builtin::Bool && is_integral(b) => Some(b),
                _ => None,
            })
            .collect(),
    )
}

fn floating_literal(body: &Body, e: ExprId) -> Option<Builtin> {
    match body.expr(e) {
        Expr::Literal(Literal::Float(b)) => Some(*b),
        Expr::Unary { op: UnaryOp::Neg | UnaryOp::Plus, expr } => floating_literal(body, *expr),
        _ => None,
    }
}

/// Whether a constant is written as a bit pattern: a hexadecimal, octal or
/// binary literal, or a bitwise operator (`~0`, `(1 << 31) | 1`,
/// `0xFFFFFFFF`), outside any cast. EDG does not warn when converting
/// those (checked against the real front end); a shift alone is no
/// pattern (`1 << 31` is warned), and a cast's result is an ordinary value
/// (`(int)0x80000000` is warned).
fn bit_pattern(body: &Body, text: &str, e: ExprId, depth: u32) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    match body.expr(e) {
        Expr::Literal(_) => {
            let r = body.expr_ranges[e.0 as usize];
            let t = text.get(usize::from(r.start())..usize::from(r.end())).unwrap_or_default().as_bytes();
            t.first() == Some(&b'0') && t.get(1).is_some_and(|c| c.is_ascii_alphanumeric())
        }
        Expr::Unary { op: UnaryOp::BitNot, .. } | Expr::Binary { op: B::BitAnd | B::BitOr | B::BitXor, .. } => true,
        Expr::Unary { expr, .. } => bit_pattern(body, text, *expr, depth + 1),
        Expr::Binary { lhs, rhs, .. } => {
            bit_pattern(body, text, *lhs, depth + 1) || bit_pattern(body, text, *rhs, depth + 1)
        }
        _ => false,
    }
}

/// An integer constant and its type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Int {
    pub(crate) v: i128,
    ty: Builtin,
}

/// Maximum nesting folded (deeper gives no constant).
const MAX_DEPTH: u32 = 64;

pub(crate) fn fold(body: &Body, e: ExprId, depth: u32) -> Option<Int> {
    if depth > MAX_DEPTH {
        return None;
    }
    let int = |v: i128, ty: Builtin| (bits(ty) < 128).then_some(Int { v, ty });
    match body.expr(e) {
        Expr::Literal(Literal::Int(v, b)) if is_integral(*b) => int(i128::try_from(*v).ok()?, *b),
        Expr::Unary { op, expr } => {
            let x = fold(body, *expr, depth + 1)?;
            let t = promote(x.ty);
            match op {
                UnaryOp::Neg => int(convert(x.v.wrapping_neg(), t), t),
                UnaryOp::Plus => int(convert(x.v, t), t),
                UnaryOp::BitNot => int(convert(!x.v, t), t),
                UnaryOp::Not => int((x.v == 0) as i128, Builtin::Bool),
                _ => None,
            }
        }
        Expr::Binary { op, lhs, rhs } => {
            let (a, b) = (fold(body, *lhs, depth + 1)?, fold(body, *rhs, depth + 1)?);
            match op {
                B::Lt | B::Le | B::Gt | B::Ge | B::Eq | B::Ne => {
                    let t = common(a.ty, b.ty);
                    let (x, y) = (convert(a.v, t), convert(b.v, t));
                    let v = match op {
                        B::Lt => x < y,
                        B::Le => x <= y,
                        B::Gt => x > y,
                        B::Ge => x >= y,
                        B::Eq => x == y,
                        _ => x != y,
                    };
                    int(v as i128, Builtin::Bool)
                }
                B::And => int((a.v != 0 && b.v != 0) as i128, Builtin::Bool),
                B::Or => int((a.v != 0 || b.v != 0) as i128, Builtin::Bool),
                // An overflowing signed operation (61) gives no constant
                // to convert (EDG warns once).
                B::Add | B::Sub | B::Mul => arith(*op, a, b)
                    .filter(|&(raw, t)| is_unsigned(t) || convert(raw, t) == raw)
                    .and_then(|(raw, t)| int(raw, t)),
                _ => arith(*op, a, b).and_then(|(raw, t)| int(convert(raw, t), t)),
            }
        }
        Expr::Cast { ty, expr, .. } => {
            let t = match ty {
                TypeRef::Builtin(b) => *b,
                TypeRef::Cv(inner, _) => match **inner {
                    TypeRef::Builtin(b) => b,
                    _ => return None,
                },
                _ => return None,
            };
            let x = fold(body, *expr, depth + 1)?;
            (is_integral(t) && t != Builtin::Bool).then_some(())?;
            int(convert(x.v, t), t)
        }
        _ => None,
    }
}

/// An arithmetic operation on two constants: its exact result and the
/// type it has (`None` for an operation not folded, a zero divisor, a
/// shift count out of range).
fn arith(op: B, a: Int, b: Int) -> Option<(i128, Builtin)> {
    if matches!(op, B::Shl | B::Shr) {
        let t = promote(a.ty);
        let n = b.v;
        if !(0..i128::from(bits(t))).contains(&n) {
            return None;
        }
        let x = convert(a.v, t);
        return Some((if op == B::Shl { x.checked_shl(n as u32)? } else { x >> n }, t));
    }
    let t = common(a.ty, b.ty);
    if bits(t) >= 128 {
        return None;
    }
    let (x, y) = (convert(a.v, t), convert(b.v, t));
    let raw = match op {
        B::Add => x + y,
        B::Sub => x - y,
        B::Mul => x.checked_mul(y)?,
        B::Div if y != 0 => x / y,
        B::Rem if y != 0 => x % y,
        B::BitAnd => x & y,
        B::BitOr => x | y,
        B::BitXor => x ^ y,
        _ => return None,
    };
    Some((raw, t))
}

/// The offset of a binary operator: in the text between its operands,
/// past closing parentheses and blanks.
fn operator_at(body: &Body, text: &str, lhs: ExprId, rhs: ExprId, spelling: &str) -> Option<u32> {
    let from = usize::from(body.expr_ranges[lhs.0 as usize].end());
    let to = usize::from(body.expr_ranges[rhs.0 as usize].start());
    let gap = text.get(from..to)?;
    let skipped = gap.len() - gap.trim_start_matches(|c: char| c.is_whitespace() || c == ')').len();
    gap[skipped..].starts_with(spelling).then(|| (from + skipped) as u32)
}

/// An expression's type as inferred.
fn ty_of(r: &InferenceResult, e: ExprId) -> Option<TyId> {
    r.expr_tys.get(e.0 as usize).copied().flatten()
}

/// The integer builtin a type is (cv and typedefs seen through; an
/// enumeration is not one).
fn integer(db: &dyn SourceDatabase, t: TyId) -> Option<Builtin> {
    let mut t = canonical(db, t);
    loop {
        match t.kind(db) {
            TyKind::Qualified(inner, _) => t = canonical(db, *inner),
            TyKind::Builtin(b) if is_integral(*b) => return Some(*b),
            _ => return None,
        }
    }
}

fn signed(t: Builtin) -> Builtin {
    match t {
        Builtin::UChar | Builtin::Char8 => Builtin::SChar,
        Builtin::UShort | Builtin::Char16 => Builtin::Short,
        Builtin::UInt | Builtin::Char32 => Builtin::Int,
        Builtin::ULong => Builtin::Long,
        Builtin::ULongLong => Builtin::LongLong,
        b => b,
    }
}

fn unsigned(t: Builtin) -> Builtin {
    match t {
        Builtin::Char | Builtin::SChar => Builtin::UChar,
        Builtin::Short => Builtin::UShort,
        Builtin::Int | Builtin::WChar => Builtin::UInt,
        Builtin::Long => Builtin::ULong,
        Builtin::LongLong => Builtin::ULongLong,
        b => b,
    }
}
