//! Operands of the wrong kind of type, errors in every body cudafe++ parses
//! (checked against the real front end):
//!
//! - 153 `expression must have class type but it has type %t`: `x.m` on a
//!   scalar or pointer (caret at the start of the member expression);
//! - 135 `class "S" has no member "m"` (`union "U"`): `s.m` / `p->m` where
//!   neither the complete class nor any base declares `m` (caret at `m`);
//! - 266 `"D::v" is ambiguous`: `d.v` where `v` is a data member of more
//!   than one base class subobject (caret at `v`);
//! - 75 `operand of "*" must be a pointer but has type %t`: `*x` on an
//!   arithmetic operand, its cv dropped (caret at the operand);
//! - 142 `expression must have pointer-to-object type but it has type %t`:
//!   `a[i]` with two arithmetic operands, at the index and of its type when
//!   the base is integral (EDG tries `i[a]`), else at the base;
//! - 109 `expression preceding parentheses of apparent call must have
//!   (pointer-to-) function type`: calling a scalar, a pointer to an object
//!   or a pointer to member (caret at the call);
//! - 711 `expression must have bool type (or be convertible to bool)`: a
//!   condition (`if`, `while`, `for`, `do`, `?:`) of a class type without
//!   conversion functions, its bases' included;
//! - 258 `"this" may only be used inside a nonstatic member function`:
//!   `this` in a function at namespace scope or a friend defined in its
//!   class (a static member defined out of its class is not recognized).
//!
//! Certainty: only what `infer` typed, in a body it did not skip. Class
//! and enumeration operands of `*`, `[]` and calls are overload
//! resolution's (`no operator "*" matches these operands`, `operators.rs`
//! for classes), not reported here; a class with a base that did not
//! resolve, or that is not complete, is not looked into; a type this
//! crate cannot spell as EDG does (`spell.rs`) gives no finding.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Entity, EntityKind, Severity};
use cufront_hir::FnId;
use cufront_hir::body::{Body, Cond, Expr, ExprId, Stmt, UnaryOp};
use cufront_hir::infer::{self, InferOwner, InferenceResult};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::item_tree::{Builtin, ClassKey};
use cufront_hir::scopes::{CONV_KEY, ScopeKind, def_map};
use cufront_hir::templates::{ClassRefT, class_bases_of};
use cufront_hir::ty::{TyId, TyKind, canonical};
use cufront_hir::{ClassId, item_tree_of};

use crate::Raw;
use crate::spell;
use cufront_hir::infer::strip_cv;

const NOT_POINTER: DiagId = DiagId(75);
const NOT_FUNCTION: DiagId = DiagId(109);
const NO_MEMBER: DiagId = DiagId(135);
const NOT_POINTER_TO_OBJECT: DiagId = DiagId(142);
const NOT_CLASS: DiagId = DiagId(153);
const NOT_BOOL: DiagId = DiagId(711);
const THIS_OUTSIDE_MEMBER: DiagId = DiagId(258);
const AMBIGUOUS: DiagId = DiagId(266);

/// The operands of one body whose type does not allow the operation.
#[salsa::tracked(returns(clone))]
pub fn fn_operand_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    if !body.exprs.iter().any(interesting) && !body.stmts.iter().any(|s| condition(s).is_some()) {
        return Arc::default();
    }
    let member = is_nonstatic_member(db, decl);
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let cx = Cx { db, body: &body, r: &r, item: f.item(db) };
    let mut out = Vec::new();
    for (i, e) in body.exprs.iter().enumerate() {
        let at = u32::from(body.expr_ranges[i].start());
        let finding = match e {
            Expr::Member { base, arrow, name } => cx.member(at, *base, *arrow, name, ExprId(i as u32)),
            Expr::Unary { op: UnaryOp::Deref, expr } => cx.deref(*expr),
            Expr::Index { base, index } => cx.index(*base, *index),
            Expr::Call { callee, .. } => cx.call(at, *callee),
            Expr::Cond { cond, .. } => cx.condition(*cond),
            Expr::This if member == Some(false) => Some(cx.raw(at, THIS_OUTSIDE_MEMBER, Vec::new())),
            _ => None,
        };
        out.extend(finding);
    }
    for s in &body.stmts {
        if let Some(c) = condition(s) {
            out.extend(cx.condition(c));
        }
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

fn interesting(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Member { .. }
            | Expr::Unary { op: UnaryOp::Deref, .. }
            | Expr::Index { .. }
            | Expr::Call { .. }
            | Expr::Cond { .. }
            | Expr::This
    )
}

/// Whether a function is a non-static member function (None: its scope
/// is not known).
fn is_nonstatic_member(db: &dyn SourceDatabase, decl: FnDecl) -> Option<bool> {
    let data = decl.data(db)?;
    let scope = instances::fn_scope(db, decl)?;
    let in_class = matches!(def_map(db, decl.tu(db)).scope(scope).kind, ScopeKind::Class(_));
    Some(in_class && !data.friend && !data.linkage.is_static)
}

/// The condition of a statement that is an expression (not a declaration).
fn condition(s: &Stmt) -> Option<ExprId> {
    match s {
        Stmt::If { cond: Cond::Expr(c), .. } | Stmt::While { cond: Cond::Expr(c), .. } => Some(*c),
        Stmt::For { cond: Some(Cond::Expr(c)), .. } => Some(*c),
        Stmt::Do { cond, .. } => Some(*cond),
        _ => None,
    }
}

struct Cx<'a> {
    db: &'a dyn SourceDatabase,
    body: &'a Body,
    r: &'a InferenceResult,
    item: cufront_hir::ItemId,
}

/// What kind of type an operand has.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Integral (`bool`, characters, integers).
    Integral,
    /// Floating.
    Floating,
    /// A pointer to an object (not `void`).
    ObjectPointer,
    Enum,
    /// `void *`, a pointer to function, to member, nullptr, void, arrays.
    Other,
    Class(ClassRefT),
    /// Dependent, unknown or erroneous: no finding.
    Unknown,
}

impl Cx<'_> {
    fn ty(&self, e: ExprId) -> Option<TyId> {
        self.r.ty(e)
    }

    fn kind(&self, t: TyId) -> Kind {
        let db = self.db;
        let c = strip_cv(db, canonical(db, t));
        match c.kind(db) {
            TyKind::Builtin(Builtin::Void | Builtin::NullPtr) => Kind::Other,
            TyKind::Builtin(b) if is_floating(*b) => Kind::Floating,
            TyKind::Builtin(_) => Kind::Integral,
            TyKind::Ptr(p) => match strip_cv(db, canonical(db, *p)).kind(db) {
                TyKind::Builtin(Builtin::Void) | TyKind::Func(_) => Kind::Other,
                TyKind::Builtin(_) | TyKind::Ptr(_) | TyKind::Enum(_) | TyKind::Class(_) | TyKind::Inst(_) => {
                    Kind::ObjectPointer
                }
                _ => Kind::Unknown,
            },
            TyKind::Enum(_) => Kind::Enum,
            TyKind::MemPtr { .. } | TyKind::Array(..) => Kind::Other,
            TyKind::Class(k) => Kind::Class(ClassRefT::Class(*k)),
            TyKind::Inst(i) => Kind::Class(ClassRefT::Inst(*i)),
            _ => Kind::Unknown,
        }
    }

    fn raw(&self, at: u32, id: DiagId, args: Vec<Arg>) -> Raw {
        Raw { at, id, severity: Severity::Error, args }
    }

    fn start(&self, e: ExprId) -> u32 {
        u32::from(self.body.expr_ranges[e.0 as usize].start())
    }

    fn member(
        &self,
        at: u32,
        base: ExprId,
        arrow: bool,
        name: &cufront_hir::item_tree::Path,
        e: ExprId,
    ) -> Option<Raw> {
        let db = self.db;
        if crate::operators::guessed_type(db, self.body, self.r, base) {
            return None;
        }
        let t = self.ty(base)?;
        let object = if arrow {
            match strip_cv(db, canonical(db, t)).kind(db) {
                TyKind::Ptr(p) => *p,
                _ => return None,
            }
        } else {
            t
        };
        match self.kind(object) {
            Kind::Class(c) => {
                // A simple name (not `~S`, `operator+`, `B::m`, `m<1>`).
                let [seg] = name.segments.as_slice() else { return None };
                if name.global || seg.args.is_some() || !is_identifier(&seg.name) {
                    return None;
                }
                let ClassRefT::Class(k) = c else { return None };
                let data = item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize)?.clone();
                let spelled = spell::spell(db, cufront_hir::ty::mk(db, TyKind::Class(k)))?;
                // A class not defined before the use is `objects.rs`'s (833, 70).
                definition(db, c)?;
                let place = crate::objects::Place { item: self.item, at };
                if !crate::objects::defined_before(db, &def_map(db, k.item(db).tu(db)), k, place)? {
                    return None;
                }
                // The injected class name.
                if data.name.as_deref() == Some(seg.name.as_str()) {
                    return None;
                }
                let end = u32::from(self.body.expr_ranges[e.0 as usize].end());
                let name_at = end.checked_sub(seg.name.len() as u32)?;
                if has_member(db, c, &seg.name, 0)? {
                    // Found in more than one base subobject: ambiguous.
                    if field_subobjects(db, c, &seg.name, 0)? < 2 {
                        return None;
                    }
                    let entity = Entity::new(EntityKind::Field, format!("{spelled}::{}", seg.name));
                    return Some(self.raw(name_at, AMBIGUOUS, vec![Arg::Entity(entity)]));
                }
                let kind = if data.key == ClassKey::Union { EntityKind::Union } else { EntityKind::Class };
                let args = vec![Arg::Entity(Entity::new(kind, spelled)), Arg::Str(seg.name.clone())];
                Some(self.raw(name_at, NO_MEMBER, args))
            }
            Kind::Integral | Kind::Floating | Kind::ObjectPointer | Kind::Enum if !arrow => {
                Some(self.raw(at, NOT_CLASS, vec![spell::type_arg(db, t)?]))
            }
            _ => None,
        }
    }

    fn deref(&self, operand: ExprId) -> Option<Raw> {
        let db = self.db;
        let t = self.ty(operand)?;
        if !matches!(self.kind(t), Kind::Integral | Kind::Floating) {
            return None;
        }
        // The operand is converted to a prvalue first: its cv goes.
        Some(self.raw(self.start(operand), NOT_POINTER, vec![spell::type_arg(db, strip_cv(db, t))?]))
    }

    fn index(&self, base: ExprId, index: ExprId) -> Option<Raw> {
        let db = self.db;
        let (bt, it) = (self.ty(base)?, self.ty(index)?);
        let arithmetic = |k| matches!(k, Kind::Integral | Kind::Floating);
        let (bk, ik) = (self.kind(bt), self.kind(it));
        if !arithmetic(bk) || !arithmetic(ik) {
            return None;
        }
        let (at, t) = if bk == Kind::Integral { (index, it) } else { (base, bt) };
        Some(self.raw(self.start(at), NOT_POINTER_TO_OBJECT, vec![spell::type_arg(db, strip_cv(db, t))?]))
    }

    fn call(&self, at: u32, callee: ExprId) -> Option<Raw> {
        let db = self.db;
        let t = self.ty(callee)?;
        let c = strip_cv(db, canonical(db, t));
        // Only what certainly cannot be called: a scalar, a pointer to an
        // object, a pointer to member.
        let callable = match c.kind(db) {
            TyKind::Builtin(Builtin::NullPtr | Builtin::Void) => true,
            TyKind::Builtin(_) | TyKind::MemPtr { .. } => false,
            TyKind::Ptr(p) => !matches!(
                strip_cv(db, canonical(db, *p)).kind(db),
                TyKind::Builtin(_) | TyKind::Ptr(_) | TyKind::Class(_) | TyKind::Inst(_) | TyKind::Enum(_)
            ),
            _ => true,
        };
        (!callable).then(|| self.raw(at, NOT_FUNCTION, Vec::new()))
    }

    fn condition(&self, cond: ExprId) -> Option<Raw> {
        let db = self.db;
        let Kind::Class(c) = self.kind(self.ty(cond)?) else { return None };
        if converts(db, c, 0)? {
            return None;
        }
        Some(self.raw(self.start(cond), NOT_BOOL, Vec::new()))
    }
}

/// Whether a complete class or one of its bases declares `name` (a data
/// member, also of an anonymous member; anything its scope lists: member
/// functions, static members, types, enumerators, using-declarations).
/// None when that is not certain (incomplete, a base not resolved).
fn has_member(db: &dyn SourceDatabase, c: ClassRefT, name: &str, depth: u32) -> Option<bool> {
    if depth > 32 {
        return None;
    }
    let k = definition(db, c)?;
    let map = def_map(db, k.tu(db));
    let scope = *map.class_scope.get(&k)?;
    if map.scope(scope).names.contains_key(name) || field_named(db, k, name, 0) {
        return Some(true);
    }
    for b in class_bases_of(db, c).iter() {
        if has_member(db, b.class?, name, depth + 1)? {
            return Some(true);
        }
    }
    Some(false)
}

/// How many base class subobjects of `c` have `name` as a data member,
/// each path stopping at the first class that declares the name (1 when
/// `c` declares it itself). None when that is not certain: a virtual base
/// (one subobject for every path), a base not resolved, or a class on the
/// way that declares the name otherwise (a static member, a type or an
/// enumerator found twice is no ambiguity).
fn field_subobjects(db: &dyn SourceDatabase, c: ClassRefT, name: &str, depth: u32) -> Option<usize> {
    if depth > 32 {
        return None;
    }
    let k = definition(db, c)?;
    let map = def_map(db, k.tu(db));
    let scope = *map.class_scope.get(&k)?;
    match (field_named(db, k, name, 0), map.scope(scope).names.contains_key(name)) {
        (true, false) => return Some(1),
        (_, true) => return None,
        (false, false) => {}
    }
    let mut n = 0;
    for b in class_bases_of(db, c).iter() {
        if b.is_virtual {
            return None;
        }
        n += field_subobjects(db, b.class?, name, depth + 1)?;
    }
    Some(n)
}

/// Whether a complete class or a base declares a conversion function.
pub(crate) fn converts(db: &dyn SourceDatabase, c: ClassRefT, depth: u32) -> Option<bool> {
    if depth > 32 {
        return None;
    }
    let k = definition(db, c)?;
    let map = def_map(db, k.tu(db));
    let scope = *map.class_scope.get(&k)?;
    if map.scope(scope).names.contains_key(CONV_KEY) {
        return Some(true);
    }
    for b in class_bases_of(db, c).iter() {
        if converts(db, b.class?, depth + 1)? {
            return Some(true);
        }
    }
    Some(false)
}

/// The class's definition, when it has one.
fn definition(db: &dyn SourceDatabase, c: ClassRefT) -> Option<ClassId> {
    let k = match c {
        ClassRefT::Class(k) => k,
        ClassRefT::Inst(i) => i.class(db),
    };
    let k = def_map(db, k.tu(db)).class_definition(k);
    let tree = item_tree_of(db, k.item(db));
    tree.classes.get(k.idx(db) as usize)?.is_definition.then_some(k)
}

/// Whether a data member of `k` (or of an anonymous struct or union in it)
/// is named `name`.
fn field_named(db: &dyn SourceDatabase, k: ClassId, name: &str, depth: u32) -> bool {
    let tree = item_tree_of(db, k.item(db));
    let Some(data) = tree.classes.get(k.idx(db) as usize) else { return true };
    data.fields.iter().any(|f| {
        f.name.as_deref() == Some(name)
            || (depth < 32
                && f.anonymous.is_some_and(|idx| field_named(db, ClassId::new(db, k.item(db), idx), name, depth + 1)))
    })
}

fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && s.chars().all(|c| c == '_' || c.is_alphanumeric())
}

fn is_floating(b: Builtin) -> bool {
    use Builtin::*;
    matches!(b, Float | Double | LongDouble | Float128 | Float16 | BF16 | Float32 | Float64 | Float32x | Float64x)
}
