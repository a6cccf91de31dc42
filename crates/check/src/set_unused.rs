//! `variable "x" was set but never used` (EDG 550, a warning), which nvcc
//! prints from cicc's front end only (spec 61), for host and device
//! functions alike, when the function's body ends, among the
//! unreferenced-variable warnings (177, `unused`, and here those of
//! unreferenced closure objects: `fn_unreferenced_closures`) in EDG's order
//! ([`report_order`]). Checked against the real nvcc: every mention of the
//! variable is the left operand of a plain assignment (`x = 1`, `a[0] = 1`
//! for an array, `x = y = 1` for both), in a statement of its own, or the
//! operand of a statement that casts it to `void` (`(void)x;`, which EDG
//! does not count as a use: `int *p = &s; (void)p;` is set but never
//! used), and the variable is set (an assignment, or for a local its
//! initializer).
//!
//! Certainty: as `unused`, block-scope variables of scalar, pointer or
//! array type, not static, `const`, structured bindings or memory-space
//! variables; every whole-word spelling of the name in the body is one of
//! the assignments (or the declaration), none in a lambda, an unevaluated
//! operand or unlowered text; declared by a declaration statement (EDG
//! leaves a range-`for` variable alone), or a parameter of builtin or
//! pointer type without attributes (`parameter "p" was set but never
//! used`).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::FnId;
use cufront_hir::body::{Body, CastKind, Cond, Expr, ExprId, Init, LocalId, Stmt, StmtId, UnaryOp};
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::{Builtin, TypeRef};

use crate::Raw;
use crate::undefined::word_offsets;

const SET_NOT_USED: DiagId = DiagId(550);
const DECLARED_NOT_REFERENCED: DiagId = DiagId(177);

/// The variables of one body that are set but never used (offsets
/// relative to the item), in declaration order.
#[salsa::tracked(returns(clone))]
pub fn fn_set_but_unused(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let body = cufront_hir::infer::decl_body(db, FnDecl::Fn(f));
    // `(void)x;` statements: their operand is a mention that is no use.
    let discarded: Vec<ExprId> = body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Expr(e) => match body.expr(*e) {
                Expr::Cast { kind: CastKind::CStyle | CastKind::Static, ty: TypeRef::Builtin(Builtin::Void), expr }
                    if matches!(body.expr(*expr), Expr::Path(_)) =>
                {
                    Some(*expr)
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    if discarded.is_empty() && !body.exprs.iter().any(|e| matches!(e, Expr::Assign { op: None, .. })) {
        return Arc::default();
    }
    if crate::device_code::templated(db, FnDecl::Fn(f)) {
        return Arc::default();
    }
    // The assignments that are statements of their own (or the right
    // operand of one: `x = y = 1`).
    let mut statements: Vec<ExprId> = Vec::new();
    for s in &body.stmts {
        match s {
            Stmt::Expr(e) => statements.push(*e),
            Stmt::For { step: Some(e), .. } => statements.push(*e),
            _ => {}
        }
    }
    let mut set_sites: Vec<ExprId> = Vec::new();
    let mut i = 0;
    while i < statements.len() {
        if let Expr::Assign { op: None, lhs, rhs } = body.expr(statements[i]) {
            set_sites.push(*lhs);
            statements.push(*rhs);
        }
        i += 1;
    }
    // Excluded regions: lambdas and unevaluated operands.
    let excluded: Vec<_> = body
        .exprs
        .iter()
        .zip(&body.expr_ranges)
        .filter_map(|(e, r)| match e {
            Expr::Lambda { .. } => Some(*r),
            Expr::SizeofExpr(x) | Expr::AlignofExpr(x) | Expr::Noexcept(x) | Expr::TypeidExpr(x) => {
                Some(body.expr_ranges[x.0 as usize])
            }
            _ => None,
        })
        .collect();
    let mut missing = String::new();
    for e in &body.exprs {
        if let Expr::Missing(t) = e {
            missing.push_str(t);
            missing.push(' ');
        }
    }
    let mut type_text = String::new();
    for l in &body.locals {
        type_text.push_str(&format!("{:?} ", l.ty));
    }
    for (_, t) in &body.local_types {
        type_text.push_str(&format!("{t:?} "));
    }
    for (_, d) in &body.local_decls {
        type_text.push_str(&format!("{d:?} "));
    }
    // The body's whole text (an `asm` operand is not lowered).
    let Some((root, _)) = crate::device_code::body_syntax(db, f) else { return Arc::default() };
    let text = root.text().to_string();
    let text = text.as_str();
    // Variables of declaration statements (not a range-`for` variable,
    // which EDG does not report, nor a condition's).
    let declared: rustc_hash::FxHashSet<u32> = body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Decl(locals) => Some(locals.iter().map(|l| l.0)),
            _ => None,
        })
        .flatten()
        .collect();
    let mut out = Vec::new();
    for (i, l) in body.locals.iter().enumerate() {
        if !declared.contains(&(i as u32)) {
            continue;
        }
        let (Some(name), Some(Some(at))) = (&l.name, body.local_names.get(i)) else { continue };
        if l.is_static || l.is_constexpr || l.binding_of.is_some() || l.pack || l.cuda.has_memory_space() {
            continue;
        }
        let array = matches!(l.ty, TypeRef::Array(..));
        let sites = Sites { set: &set_sites, discarded: &discarded, init: init_kind(&body, &l.init) };
        // `auto f = [...] {...};`: a closure object (checked).
        let closure = matches!(&l.ty, TypeRef::Opaque(t) if t == "auto")
            && matches!(&l.init, Init::Assign(e) if matches!(body.expr(*e), Expr::Lambda { .. }));
        if !(settable(&l.ty) || closure)
            || !is_set_only(&body, name, array, 1, text, &sites, &excluded, &missing, &type_text)
        {
            continue;
        }
        let entity = DiagEntity { kind: Some(EntityKind::Variable), name: name.clone(), ..DiagEntity::default() };
        let args = vec![Arg::Entity(entity)];
        out.push(Raw { at: u32::from(at.start()), id: SET_NOT_USED, severity: Severity::Warning, args });
    }
    // Parameters: declared outside the body's text.
    let params = crate::device_vla::param_names(db, f);
    for (k, &p) in body.params.iter().enumerate() {
        let l = body.local(p);
        let (Some(name), Some(Some((written, at)))) = (&l.name, params.get(k)) else { continue };
        if written != name || l.pack || !matches!(l.ty, TypeRef::Builtin(_) | TypeRef::Ptr(_)) {
            continue;
        }
        let sites = Sites { set: &set_sites, discarded: &discarded, init: InitKind::None };
        if is_set_only(&body, name, false, 0, text, &sites, &excluded, &missing, &type_text) {
            let entity = DiagEntity { kind: Some(EntityKind::Parameter), name: name.clone(), ..DiagEntity::default() };
            let args = vec![Arg::Entity(entity)];
            out.push(Raw { at: *at, id: SET_NOT_USED, severity: Severity::Warning, args });
        }
    }
    Arc::new(out)
}

/// The unreferenced (`unused`, 177) and set-but-unused (550) variables of
/// a body (none in a member of a class template), without those declared
/// `[[maybe_unused]]` and (177) those whose name the body's whole text
/// spells twice, in EDG's order when every one
/// is placed by [`report_order`] (else as found).
pub(crate) fn end_of_scope_warnings(db: &dyn SourceDatabase, f: FnId, unreferenced: &[Raw]) -> Vec<Raw> {
    // A member of a class template is reported only in its instances
    // (which are not checked): silence.
    let (set, closures) = (fn_set_but_unused(db, f), fn_unreferenced_closures(db, f));
    if (unreferenced.is_empty() && set.is_empty() && closures.is_empty())
        || crate::device_code::templated(db, FnDecl::Fn(f))
    {
        return Vec::new();
    }
    let mut raws: Vec<Raw> = unreferenced.iter().chain(set.iter()).chain(closures.iter()).cloned().collect();
    let body = cufront_hir::infer::decl_body(db, FnDecl::Fn(f));
    // A variable that may be unused, or whose name the body spells
    // elsewhere (an `asm` operand is not lowered), is not reported.
    if let Some((root, base)) = crate::device_code::body_syntax(db, f) {
        let text = root.text().to_string();
        raws.retain(|r| {
            let Some(cufront_diagnostics::Arg::Entity(e)) = r.args.first() else { return false };
            let written = word_offsets(&text, &e.name).count();
            let expected_once = r.id != SET_NOT_USED;
            !maybe_unused(&root, base, r.at) && (!expected_once || written == 1)
        });
    }
    if raws.len() < 2 {
        return raws;
    }
    let params = crate::device_vla::param_names(db, f);
    let position = |l: &LocalId| match body.params.iter().position(|p| p == l) {
        Some(k) => params.get(k).cloned().flatten().map(|(_, at)| at),
        None => body.local_names.get(l.0 as usize).copied().flatten().map(|r| u32::from(r.start())),
    };
    let order: Vec<Option<u32>> = report_order(&body).iter().map(position).collect();
    let rank = |at: u32| order.iter().position(|p| *p == Some(at));
    let ranks: Option<Vec<usize>> = raws.iter().map(|r| rank(r.at)).collect();
    if let Some(ranks) = ranks {
        let mut ranked: Vec<(usize, Raw)> = ranks.into_iter().zip(raws).collect();
        ranked.sort_by_key(|(k, _)| *k);
        raws = ranked.into_iter().map(|(_, r)| r).collect();
    }
    raws
}

/// `variable "l" was declared but never referenced` (177) for a local
/// `auto` (or `const auto`) initialized by a lambda expression that the
/// body never names: a closure object has nothing to construct or
/// destroy (what `unused` leaves out for class types). Offsets relative
/// to the item, in declaration order.
#[salsa::tracked(returns(clone))]
pub fn fn_unreferenced_closures(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let body = cufront_hir::infer::decl_body(db, FnDecl::Fn(f));
    let is_auto = |t: &TypeRef| match t {
        TypeRef::Opaque(a) => a == "auto",
        TypeRef::Cv(x, cv) => !cv.v && matches!(&**x, TypeRef::Opaque(a) if a == "auto"),
        _ => false,
    };
    let candidates: Vec<usize> = body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Decl(locals) => Some(locals.iter().map(|l| l.0 as usize)),
            _ => None,
        })
        .flatten()
        .filter(|&i| {
            let l = &body.locals[i];
            !l.is_static
                && l.binding_of.is_none()
                && is_auto(&l.ty)
                && matches!(l.init, cufront_hir::body::Init::Assign(e) if matches!(body.expr(e), Expr::Lambda { .. }))
        })
        .collect();
    if candidates.is_empty() {
        return Arc::default();
    }
    let Some((root, _)) = crate::device_code::body_syntax(db, f) else { return Arc::default() };
    let text = root.text().to_string();
    let mut out = Vec::new();
    for i in candidates {
        let l = &body.locals[i];
        let (Some(name), Some(Some(at))) = (&l.name, body.local_names.get(i)) else { continue };
        let named = body.exprs.iter().any(|e| match e {
            Expr::Path(p) => p.segments.iter().any(|s| s.name == *name),
            Expr::Lambda { captures, .. } => {
                captures.iter().any(|c| matches!(c, cufront_hir::body::Capture::Var { name: n, .. } if n == name))
            }
            Expr::Missing(t) => word_offsets(t, name).next().is_some(),
            _ => false,
        });
        if named || word_offsets(&text, name).count() != 1 {
            continue;
        }
        let entity = DiagEntity { kind: Some(EntityKind::Variable), name: name.clone(), ..DiagEntity::default() };
        let args = vec![Arg::Entity(entity)];
        out.push(Raw { at: u32::from(at.start()), id: DECLARED_NOT_REFERENCED, severity: Severity::Warning, args });
    }
    Arc::new(out)
}

/// Whether every mention of `name` in the body is a set (`declarations`:
/// how often the body's text spells it besides the mentions).
#[allow(clippy::too_many_arguments)]
/// Where a variable is mentioned without being used.
struct Sites<'a> {
    /// Left operands of plain assignment statements.
    set: &'a [ExprId],
    /// Operands of `(void)x;` statements.
    discarded: &'a [ExprId],
    init: InitKind,
}

/// How a local is initialized, as far as 550 with `(void)x;` is concerned:
/// a constant or a copy of another local is a set (`int *p = 0; (void)p;`,
/// `int *q = p; (void)q;` are reported, checked against the real nvcc);
/// an initializer with a side effect is not (`int z = (x = 1); (void)z;`
/// is silent), and others are not claimed (`int n2 = n; (void)n2;` of a
/// parameter is reported alone but not in a unit with errors).
#[derive(Clone, Copy, PartialEq, Eq)]
enum InitKind {
    None,
    Constant,
    Computed,
}

fn init_kind(body: &Body, init: &Init) -> InitKind {
    let e = match init {
        Init::None => return InitKind::None,
        Init::Assign(e) => *e,
        Init::Paren(xs) | Init::Brace(xs) => match xs[..] {
            [e] => e,
            _ => return InitKind::Computed,
        },
    };
    // A name of the body's locals (`params`: its parameters too).
    let local = |x: ExprId, params: bool| {
        matches!(body.expr(x), Expr::Path(p) if p.segments.len() == 1
        && body.locals.iter().enumerate().any(|(i, l)| {
            l.name.as_deref() == Some(p.segments[0].name.as_str())
                && (params || !body.params.iter().any(|q| q.0 as usize == i))
        }))
    };
    let param_named = |x: ExprId| {
        matches!(body.expr(x), Expr::Path(p) if body.params.iter().any(|q| {
            body.locals[q.0 as usize].name.as_deref() == Some(p.segments[0].name.as_str())
        }))
    };
    let constant = match body.expr(e) {
        Expr::Literal(_) => true,
        Expr::Unary { op: UnaryOp::Neg | UnaryOp::Plus, expr } => matches!(body.expr(*expr), Expr::Literal(_)),
        // The address of a variable that is not a local of the body.
        Expr::Unary { op: UnaryOp::AddrOf, expr } => matches!(body.expr(*expr), Expr::Path(_)) && !local(*expr, true),
        // A local's name that no parameter has (shadowing is not resolved here).
        Expr::Path(_) => local(e, false) && !param_named(e),
        // A closure object, whatever it captures (checked: by copy, by
        // reference, a parameter): making one has no other effect.
        Expr::Lambda { .. } => true,
        _ => false,
    };
    if constant { InitKind::Constant } else { InitKind::Computed }
}

fn is_set_only(
    body: &Body,
    name: &str,
    array: bool,
    declarations: usize,
    text: &str,
    sites: &Sites<'_>,
    excluded: &[cufront_syntax::TextRange],
    missing: &str,
    type_text: &str,
) -> bool {
    if word_offsets(missing, name).next().is_some() || word_offsets(type_text, name).next().is_some() {
        return false;
    }
    let mentions: Vec<usize> = body
        .exprs
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Expr::Path(p) if p.segments.len() == 1 && !p.global && p.segments[0].name == name))
        .map(|(k, _)| k)
        .collect();
    if mentions.is_empty() || word_offsets(text, name).count() != mentions.len() + declarations {
        return false;
    }
    let is_set = |k: usize| {
        sites.set.iter().any(|&s| {
            s.0 as usize == k || (array && matches!(body.expr(s), Expr::Index { base, .. } if base.0 as usize == k))
        })
    };
    let discarded = |k: usize| sites.discarded.iter().any(|s| s.0 as usize == k);
    let no_use = mentions.iter().all(|&k| {
        let range = body.expr_ranges[k];
        !excluded.iter().any(|x| x.contains_range(range)) && (is_set(k) || discarded(k))
    });
    // A `(void)x;` of a variable whose initializer computes: not claimed.
    if mentions.iter().any(|&k| discarded(k)) && sites.init == InitKind::Computed {
        return false;
    }
    no_use && (sites.init == InitKind::Constant || mentions.iter().any(|&k| is_set(k)))
}

/// Whether the declaration of the local named at `at` (relative to the
/// item) says it may be unused (`[[maybe_unused]]`,
/// `__attribute__((unused))`): EDG then reports neither 177 nor 550.
fn maybe_unused(root: &cufront_syntax::SyntaxNode, base: cufront_syntax::TextSize, at: u32) -> bool {
    use cufront_syntax::SyntaxKind as K;
    let Some(rel) = cufront_syntax::TextSize::from(at).checked_sub(base) else { return false };
    let Some(tok) = cufront_syntax::green::token_at(root, rel) else { return false };
    let Some(decl) = tok.parent_ancestors().find(|n| n.kind() == K::SIMPLE_DECL) else { return false };
    decl.descendants()
        .filter(|n| matches!(n.kind(), K::ATTRIBUTE | K::GNU_ATTRIBUTE))
        .flat_map(|a| a.descendants_with_tokens().filter_map(|e| e.into_token()).collect::<Vec<_>>())
        .any(|t| matches!(t.text(), "maybe_unused" | "unused" | "__unused__"))
}

/// A non-`const` builtin, pointer, or array of them.
fn settable(t: &TypeRef) -> bool {
    match t {
        TypeRef::Builtin(_) | TypeRef::Ptr(_) => true,
        TypeRef::Array(x, _) => settable(x),
        _ => false,
    }
}

/// The locals of a body in the order EDG reports their end-of-scope
/// warnings: a block's variables when the block closes (inner blocks
/// first), the variables of a statement's own scope (`for`, `if`,
/// `switch`, `while` conditions, handlers) when it ends, the outermost
/// block's last.
pub(crate) fn report_order(body: &Body) -> Vec<LocalId> {
    let mut out = Vec::new();
    match body.root.map(|r| (r, body.stmt(r))) {
        // The parameters close with the outermost block, before its own
        // variables.
        Some((_, Stmt::Compound(children))) => {
            let mut own = Vec::new();
            for &c in children {
                match body.stmt(c) {
                    Stmt::Decl(locals) => own.extend(locals.iter().copied()),
                    _ => walk(body, c, &mut out),
                }
            }
            out.extend(body.params.iter().copied());
            out.extend(own);
        }
        Some((root, _)) => {
            walk(body, root, &mut out);
            out.extend(body.params.iter().copied());
        }
        None => {}
    }
    out
}

fn walk(body: &Body, s: StmtId, out: &mut Vec<LocalId>) {
    let cond = |c: &Cond, own: &mut Vec<LocalId>| {
        if let Cond::Decl(l) = c {
            own.push(*l);
        }
    };
    match body.stmt(s) {
        Stmt::Compound(children) => {
            let mut own = Vec::new();
            for &c in children {
                match body.stmt(c) {
                    Stmt::Decl(locals) => own.extend(locals.iter().copied()),
                    _ => walk(body, c, out),
                }
            }
            out.extend(own);
        }
        Stmt::If { init, cond: c, then, els, .. } => {
            let mut own = Vec::new();
            if let Some(i) = init {
                scope_stmt(body, *i, &mut own, out);
            }
            cond(c, &mut own);
            walk(body, *then, out);
            if let Some(e) = els {
                walk(body, *e, out);
            }
            out.extend(own);
        }
        Stmt::Switch { init, cond: c, body: b } => {
            let mut own = Vec::new();
            if let Some(i) = init {
                scope_stmt(body, *i, &mut own, out);
            }
            cond(c, &mut own);
            walk(body, *b, out);
            out.extend(own);
        }
        Stmt::While { cond: c, body: b } => {
            let mut own = Vec::new();
            cond(c, &mut own);
            walk(body, *b, out);
            out.extend(own);
        }
        Stmt::For { init, cond: c, body: b, .. } => {
            let mut own = Vec::new();
            if let Some(i) = init {
                scope_stmt(body, *i, &mut own, out);
            }
            if let Some(c) = c {
                cond(c, &mut own);
            }
            walk(body, *b, out);
            out.extend(own);
        }
        Stmt::RangeFor { init, var, body: b, .. } => {
            let mut own = Vec::new();
            if let Some(i) = init {
                scope_stmt(body, *i, &mut own, out);
            }
            own.extend(var.iter().copied());
            walk(body, *b, out);
            out.extend(own);
        }
        Stmt::Do { body: b, .. } => walk(body, *b, out),
        Stmt::Label { stmt, .. } | Stmt::Case { stmt, .. } | Stmt::Default(stmt) => walk(body, *stmt, out),
        Stmt::Try { body: b, handlers } => {
            walk(body, *b, out);
            for h in handlers {
                walk(body, h.body, out);
                out.extend(h.param.iter().copied());
            }
        }
        Stmt::Decl(locals) => out.extend(locals.iter().copied()),
        _ => {}
    }
}

/// An init-statement: its declarations belong to the enclosing statement's scope.
fn scope_stmt(body: &Body, s: StmtId, own: &mut Vec<LocalId>, out: &mut Vec<LocalId>) {
    match body.stmt(s) {
        Stmt::Decl(locals) => own.extend(locals.iter().copied()),
        _ => walk(body, s, out),
    }
}
