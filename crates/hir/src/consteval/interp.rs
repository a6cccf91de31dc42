//! The constexpr interpreter: evaluates a `Body` (a `static_assert`
//! condition, a constexpr function, a constructor) with EDG's limits (spec
//! 50 §6.2): 256 call frames and about a million steps (statements and
//! loop iterations), past which the note is "expression not folded to a
//! constant due to excessive constexpr function call complexity".
//!
//! Values are scalars (integers with their builtin type, floating-point
//! numbers), class objects (fields by name, bases' fields first) and arrays.
//! Names resolve to the current frame's locals, then the members of `this`,
//! then the enclosing function's constexpr locals (for a `static_assert` in
//! a body), then through `templates::resolve` in the frame's scope and
//! `Env`. Calls pick among the functions of the name by arity and argument
//! kinds; function templates get an `Env` deduced from the arguments' types.
//! Errors are values (`ConstError`): whatever is not modelled is
//! `Unsupported` with what it was, never a panic.

use crate::consteval::is_floating as is_float;
use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_syntax::{SyntaxKind as K, SyntaxNode};

use super::{ConstError, Value, binary, convert};
use crate::body::{self, BinaryOp, Body, Cond, Expr, ExprId, Init, Literal, LocalId, Stmt, StmtId, UnaryOp};
use crate::instances::FnDecl;
use crate::item_tree::{BinOp, Builtin, FnName, Path, TemplateParamKind, TypeRef};
use crate::scopes::{self, DeclKey, Def, DefMap, Ns, ScopeIdx};
use crate::syntax_util as su;
use crate::templates::{self, ClassRefT, Env, Resolved, TemplateArg};
use crate::ty::{self, LowerCx, TyId, TyKind};
use crate::{FnTemplateId, ItemId, item_tree_of};

mod pattern_packs;

/// EDG's call depth limit.
pub const MAX_CALL_DEPTH: usize = 256;
/// EDG's cost limit, counted here in statements and loop iterations.
pub const MAX_STEPS: u64 = 1_000_000;

/// A value of the interpreter.
#[derive(Clone, Debug, PartialEq)]
pub enum CValue {
    Int(Value),
    Float(f64, Builtin),
    /// A class object: its type (when known) and fields by name.
    Object(Option<TyId>, Vec<(String, CValue)>),
    Array(Vec<CValue>),
    /// The elements of a function parameter pack.
    Pack(Vec<CValue>),
    NullPtr,
    Void,
    /// Not initialized yet (reading it is an error, note 2751).
    Uninit,
}

impl CValue {
    fn int(v: i128, ty: Builtin) -> CValue {
        CValue::Int(Value { v, ty })
    }
    fn boolean(b: bool) -> CValue {
        CValue::int(b as i128, Builtin::Bool)
    }
}

/// Where a `static_assert` is evaluated.
pub struct Site<'a> {
    pub item: ItemId,
    pub scope: ScopeIdx,
    pub env: Option<&'a Env>,
    /// The text the condition's ranges index (float literals are read from it).
    pub text: Arc<str>,
    /// The function whose body holds the assert: its constexpr locals
    /// declared before `before` (an offset in the item) are visible.
    pub func: Option<FnDecl>,
    pub before: u32,
}

/// A frame's body: a callee's, shared with the query that lowered it, or
/// the caller's own (`eval_body_condition`), borrowed so that asking a
/// condition of the body being inferred does not copy it.
#[derive(Clone)]
enum FrameBody<'a> {
    Shared(Arc<Body>),
    Borrowed(&'a Body),
}

impl std::ops::Deref for FrameBody<'_> {
    type Target = Body;
    fn deref(&self) -> &Body {
        match self {
            FrameBody::Shared(b) => b,
            FrameBody::Borrowed(b) => b,
        }
    }
}

struct Frame<'a> {
    body: FrameBody<'a>,
    text: Arc<str>,
    item: ItemId,
    scope: ScopeIdx,
    env: Option<Env>,
    locals: Vec<CValue>,
    this: Option<CValue>,
    /// Values visible by name (an enclosing function's constexpr locals).
    named: Vec<(String, CValue)>,
    /// While a pack expansion is evaluated: the element index.
    pack_index: Option<usize>,
    /// How many of `env`'s names the frame was entered with: the rest are
    /// the body's own (aliases, `constexpr` locals), which a member it
    /// calls does not see.
    outer_names: usize,
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return(CValue),
}

struct Interp<'a> {
    db: &'a dyn SourceDatabase,
    map: &'a DefMap,
    steps: u64,
    frames: Vec<Frame<'a>>,
    /// The explicit template arguments of the call being made (`f<T>()`),
    /// with the caller's item, scope and environment to lower them in.
    explicit: Option<Explicit>,
    /// The call expression of the current frame's body whose overloads are
    /// being picked (`call_overloads` takes it): where a tie of the
    /// interpreter's ranking asks the full overload resolution.
    call_at: Option<ExprId>,
}

#[derive(Clone)]
struct Explicit {
    written: Vec<crate::item_tree::TemplateArgRef>,
    item: ItemId,
    scope: ScopeIdx,
    env: Option<Env>,
}

type R<T> = Result<T, ConstError>;

fn unsupported<T>(s: impl Into<String>) -> R<T> {
    Err(ConstError::Unsupported(s.into()))
}

thread_local! {
    /// Calls in progress on this thread, over every interpreter (an
    /// expression kept as text is evaluated by a nested one): EDG's depth
    /// limit, and a bound on the native stack.
    static CALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether one more call would pass EDG's 256 frames (`g(255)` recursing
/// down to `g(0)` is fine, `g(256)` is not).
fn calls_exhausted() -> bool {
    CALLS.with(|c| c.get()) >= MAX_CALL_DEPTH
}

/// Runs `f` as one more call in progress (restored on every way out:
/// `guard`).
fn one_call_deeper<R>(f: impl FnOnce() -> R) -> R {
    crate::guard::with_cell(&CALLS, CALLS.with(|c| c.get()) + 1, f)
}

fn too_complex() -> ConstError {
    ConstError::Limit("expression not folded to a constant due to excessive constexpr function call complexity".into())
}

/// Evaluates a `static_assert` condition (contextually converted to bool).
pub fn eval_condition(db: &dyn SourceDatabase, map: &DefMap, site: &Site<'_>, cond: &Body) -> Result<bool, ConstError> {
    let Some(root) = cond.root_expr else { return unsupported("no condition") };
    let mut it = Interp { db, map, steps: 0, frames: Vec::new(), explicit: None, call_at: None };
    let mut named = Vec::new();
    if let Some(f) = site.func {
        named = it.enclosing_locals(f, site)?;
    }
    it.frames.push(Frame {
        body: FrameBody::Borrowed(cond),
        text: site.text.clone(),
        item: site.item,
        scope: site.scope,
        env: site.env.cloned(),
        outer_names: site.env.map_or(0, |e| e.names.len()),
        locals: vec![CValue::Uninit; cond.locals.len()],
        this: None,
        named,
        pack_index: None,
    });
    let v = it.expr(root)?;
    it.truth(v)
}

/// Evaluates an expression (`cond.root_expr`) at a site to its value (an
/// object converted to its scalar when it has one): what
/// `consteval::text` needs for expressions the item tree keeps as text.
pub fn eval_value(db: &dyn SourceDatabase, map: &DefMap, site: &Site<'_>, cond: &Body) -> Result<CValue, ConstError> {
    let Some(root) = cond.root_expr else { return unsupported("no expression") };
    let mut it = Interp { db, map, steps: 0, frames: Vec::new(), explicit: None, call_at: None };
    it.frames.push(Frame {
        body: FrameBody::Borrowed(cond),
        text: site.text.clone(),
        item: site.item,
        scope: site.scope,
        env: site.env.cloned(),
        outer_names: site.env.map_or(0, |e| e.names.len()),
        locals: vec![CValue::Uninit; cond.locals.len()],
        this: None,
        named: Vec::new(),
        pack_index: None,
    });
    match it.expr(root)? {
        o @ CValue::Object(..) => Ok(it.object_scalar(&o)?.unwrap_or(o)),
        v => Ok(v),
    }
}

/// Evaluates the initializer of local `l` of `body`, a function body being
/// inferred, where it is usable in constant expressions: `known` holds the
/// values of the earlier such locals (`constexpr int B2 = BLOCK * 2;`).
pub fn eval_local_init(
    db: &dyn SourceDatabase,
    map: &DefMap,
    site: (ItemId, ScopeIdx, Option<&Env>),
    body: &Body,
    known: &[(LocalId, CValue)],
    l: LocalId,
) -> R<CValue> {
    let mut it = Interp::in_body(db, map, site, body, known);
    match it.init_value(l)? {
        o @ CValue::Object(..) => Ok(it.object_scalar(&o)?.unwrap_or(o)),
        v => Ok(v),
    }
}

/// Evaluates expression `e` of `body`, a function body being inferred,
/// contextually converted to `bool` (an `if constexpr` condition the
/// inference's own folding does not decide: a `constexpr` function called
/// with arguments, a trait over a block-scope alias). `known` holds the
/// values of the constant locals declared before it; any other local read
/// is not a constant and fails the evaluation.
pub fn eval_body_condition(
    db: &dyn SourceDatabase,
    map: &DefMap,
    site: (ItemId, ScopeIdx, Option<&Env>),
    body: &Body,
    known: &[(LocalId, CValue)],
    e: crate::body::ExprId,
) -> R<bool> {
    let mut it = Interp::in_body(db, map, site, body, known);
    let v = it.expr(e)?;
    it.truth(v)
}

/// The environment a whole body's constant evaluations see: `env` with
/// the body's aliases, typedefs and using-declarations bound, as a called
/// body's are (`if (enable_ternary_reduction<Input, Op, PromT>())` names
/// the block-scope `PromT`). For evaluations after the body's inference
/// (`infer::folded_calls`); inference binds them as it goes.
pub fn body_env(
    db: &dyn SourceDatabase,
    map: &DefMap,
    (item, scope, env): (ItemId, ScopeIdx, Option<&Env>),
    body: &Body,
) -> Option<Env> {
    let it = Interp { db, map, steps: 0, frames: Vec::new(), explicit: None, call_at: None };
    it.bind_local_types(body, item, scope, env.cloned())
}

/// Evaluates expression `e` of `body`, a function body being inferred, to
/// its value: whether a call there is a constant expression (EDG folds it,
/// `infer::folded_calls`). `known` as for `eval_body_condition`.
pub fn eval_body_expr(
    db: &dyn SourceDatabase,
    map: &DefMap,
    site: (ItemId, ScopeIdx, Option<&Env>),
    body: &Body,
    known: &[(LocalId, CValue)],
    e: crate::body::ExprId,
) -> R<CValue> {
    Interp::in_body(db, map, site, body, known).expr(e)
}

impl<'a> Interp<'a> {
    /// An interpreter with one frame: `body` at its site, the locals in
    /// `known` set, the others uninitialized.
    fn in_body(
        db: &'a dyn SourceDatabase,
        map: &'a DefMap,
        (item, scope, env): (ItemId, ScopeIdx, Option<&Env>),
        body: &'a Body,
        known: &[(LocalId, CValue)],
    ) -> Self {
        let mut it = Interp { db, map, steps: 0, frames: Vec::new(), explicit: None, call_at: None };
        let mut locals = vec![CValue::Uninit; body.locals.len()];
        for (k, v) in known {
            if let Some(slot) = locals.get_mut(k.0 as usize) {
                *slot = v.clone();
            }
        }
        it.frames.push(Frame {
            body: FrameBody::Borrowed(body),
            text: item_text(db, item),
            item,
            scope,
            env: env.cloned(),
            outer_names: env.map_or(0, |e| e.names.len()),
            locals,
            this: None,
            named: Vec::new(),
            pack_index: None,
        });
        it
    }
}

/// Evaluates a whole `Body` as a function call in a scope (for tests and
/// `inspect`): the result of its `return`.
pub fn eval_function_body(
    db: &dyn SourceDatabase,
    map: &DefMap,
    item: ItemId,
    scope: ScopeIdx,
    body: Arc<Body>,
    text: Arc<str>,
    args: Vec<CValue>,
) -> R<CValue> {
    let mut it = Interp { db, map, steps: 0, frames: Vec::new(), explicit: None, call_at: None };
    it.run_body(body, text, item, scope, None, args, None).map(|(v, _)| v)
}

impl<'a> Interp<'a> {
    fn frame(&self) -> &Frame<'a> {
        self.frames.last().expect("a frame")
    }

    fn frame_mut(&mut self) -> &mut Frame<'a> {
        self.frames.last_mut().expect("a frame")
    }

    fn cx(&self) -> (ItemId, ScopeIdx, Option<Env>) {
        let f = self.frame();
        (f.item, f.scope, f.env.clone())
    }

    fn step(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(too_complex());
        }
        Ok(())
    }

    /// Lowers a type written in the current frame.
    fn lower_ty(&self, t: &TypeRef) -> TyId {
        let f = self.frame();
        let cx = LowerCx { db: self.db, map: self.map, item: f.item, scope: f.scope, env: f.env.as_ref() };
        ty::canonical(self.db, ty::lower(cx, t))
    }

    /// The constexpr locals of `f`'s body declared before `before`.
    fn enclosing_locals(&mut self, f: FnDecl, site: &Site<'_>) -> R<Vec<(String, CValue)>> {
        let before = site.before;
        let Some(body) = fn_decl_body(self.db, f) else { return Ok(Vec::new()) };
        let text = item_text(self.db, f.item(self.db));
        let scope = match f {
            FnDecl::Fn(f) => crate::static_asserts::fn_scope(self.db, self.map, f),
            FnDecl::Template(_) => site.scope,
        };
        let outer_names = site.env.map_or(0, |e| e.names.len());
        let env = self.bind_local_types(&body, f.item(self.db), scope, site.env.cloned());
        self.frames.push(Frame {
            outer_names,
            body: FrameBody::Shared(body.clone()),
            text,
            item: f.item(self.db),
            scope,
            env,
            locals: vec![CValue::Uninit; body.locals.len()],
            this: None,
            named: Vec::new(),
            pack_index: None,
        });
        let mut out = Vec::new();
        for (i, l) in body.locals.iter().enumerate() {
            if !l.is_constexpr {
                continue;
            }
            let Some(name) = &l.name else { continue };
            let first = match &l.init {
                Init::Assign(e) => Some(*e),
                Init::Paren(v) | Init::Brace(v) => v.first().copied(),
                Init::None => None,
            };
            if first.is_some_and(|e| u32::from(body.expr_ranges[e.0 as usize].start()) >= before) {
                continue;
            }
            // Errors here only matter if the assert reads the local.
            if let Ok(v) = self.init_local(LocalId(i as u32)) {
                self.frame_mut().locals[i] = v.clone();
                out.push((name.clone(), v));
            }
        }
        self.frames.pop();
        Ok(out)
    }

    fn truth(&mut self, v: CValue) -> R<bool> {
        match v {
            CValue::Int(v) => Ok(v.v != 0),
            CValue::Float(f, _) => Ok(f != 0.0),
            CValue::NullPtr => Ok(false),
            o @ CValue::Object(..) => match self.object_scalar(&o)? {
                Some(v) => self.truth(v),
                None => unsupported("conversion of a class object to bool"),
            },
            CValue::Uninit => Err(ConstError::NotConstant("read of an uninitialized object".into())),
            _ => unsupported("not a scalar"),
        }
    }

    /// The scalar value of an object converted to its integral value: the
    /// `value` static member of its class (`std::integral_constant` and
    /// friends: their conversion operator returns it).
    fn object_scalar(&mut self, o: &CValue) -> R<Option<CValue>> {
        let CValue::Object(Some(t), _) = o else { return Ok(None) };
        let Ok(c) = templates::class_of(self.db, *t) else { return Ok(None) };
        match templates::member_of(self.db, c, "value", Ns::Value, 0) {
            Some((d @ (Def::Var(_) | Def::Enumerator(..)), env, scope)) => {
                let item = match &d {
                    Def::Var(v) => v.item(self.db),
                    Def::Enumerator(e, _) => e.item(self.db),
                    _ => unreachable!(),
                };
                let cx = LowerCx { db: self.db, map: self.map, item, scope, env: env.as_ref() };
                Ok(Some(CValue::Int(templates::member_value(cx, &d, env.as_ref())?)))
            }
            _ => Ok(None),
        }
    }

    // ---- expressions ----

    /// Evaluation recurses on the Rust stack (an operand, a call's body):
    /// 256 nested constexpr calls or a deeply nested expression must reach
    /// their limit or their value, not overflow a thread's stack, so the
    /// stack grows on demand as the parser's does.
    fn expr(&mut self, e: ExprId) -> R<CValue> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expr_inner(e))
    }

    fn expr_inner(&mut self, e: ExprId) -> R<CValue> {
        let body = self.frame().body.clone();
        let x = body.expr(e);
        match x {
            Expr::Missing(t) => unsupported(format!("`{t}`")),
            Expr::Literal(l) => match l {
                Literal::Int(v, b) => Ok(CValue::int(*v as i128, *b)),
                Literal::Float(b) => {
                    let r = body.expr_ranges[e.0 as usize];
                    let text =
                        self.frame().text.get(usize::from(r.start())..usize::from(r.end())).unwrap_or("").to_string();
                    match parse_float(&text) {
                        Some(f) => Ok(CValue::Float(f, *b)),
                        None => unsupported(format!("float literal `{text}`")),
                    }
                }
                Literal::Nullptr => Ok(CValue::NullPtr),
                Literal::String(..) => unsupported("string literal"),
            },
            Expr::Path(p) => self.path_value(p),
            Expr::This => match &self.frame().this {
                Some(v) => Ok(v.clone()),
                None => unsupported("`this` outside a member function"),
            },
            Expr::Member { base, name, .. } => {
                let b = self.expr(*base)?;
                self.member(b, name)
            }
            Expr::Call { callee, args } => self.call(e, *callee, args),
            Expr::Construct { ty, args, braced: _ } => {
                let t = self.lower_ty(ty);
                let args = self.args(args)?;
                self.construct(t, args)
            }
            Expr::Unary { op, expr } => self.unary(*op, *expr),
            Expr::Binary { op, lhs, rhs } => self.binary_expr(*op, *lhs, *rhs),
            Expr::Assign { op, lhs, rhs } => {
                let r = self.expr(*rhs)?;
                let place = self.place(*lhs)?;
                let v = match op {
                    None => r,
                    Some(op) => {
                        let cur = self.read_place(&place)?;
                        self.arith(*op, cur, r)?
                    }
                };
                // Keep the object's declared scalar type.
                let cur = self.read_place(&place).ok();
                let v = match (cur, v) {
                    (Some(CValue::Int(c)), CValue::Int(n)) => CValue::int(convert(n.v, c.ty), c.ty),
                    (Some(CValue::Int(c)), CValue::Float(f, _)) => CValue::int(convert(f.trunc() as i128, c.ty), c.ty),
                    (Some(CValue::Float(_, b)), CValue::Int(n)) => CValue::Float(int_to_f64(n), b),
                    (_, v) => v,
                };
                self.write_place(&place, v.clone())?;
                Ok(v)
            }
            Expr::Cond { cond, then, els } => {
                let c = self.expr(*cond)?;
                if self.truth(c)? { self.expr(*then) } else { self.expr(*els) }
            }
            Expr::Comma { lhs, rhs } => {
                self.expr(*lhs)?;
                self.expr(*rhs)
            }
            Expr::Cast { ty, expr, kind } => {
                if *kind == body::CastKind::Reinterpret {
                    return unsupported("reinterpret_cast in a constant expression");
                }
                let v = self.expr(*expr)?;
                let t = self.lower_ty(ty);
                self.convert_to(v, t)
            }
            Expr::Index { base, index } => {
                let b = self.expr(*base)?;
                let i = self.expr(*index)?;
                let CValue::Int(i) = i else { return unsupported("non-integral subscript") };
                match b {
                    CValue::Array(v) => v.get(i.v as usize).cloned().ok_or(ConstError::OutOfRange),
                    _ => unsupported("subscript of a non-array"),
                }
            }
            Expr::SizeofType(t) | Expr::AlignofType(t) => {
                let mut ty = self.lower_ty(t);
                if let TyKind::LRef(x) | TyKind::RRef(x) = ty.kind(self.db) {
                    ty = *x;
                }
                self.size_align(ty, matches!(x, Expr::SizeofType(_)))
            }
            Expr::SizeofExpr(inner) | Expr::AlignofExpr(inner) => {
                let sizeof = matches!(x, Expr::SizeofExpr(_));
                let t = match self.static_type(*inner) {
                    Some(t) => t,
                    None => {
                        let v = self.expr(*inner)?;
                        self.type_of(&v)
                            .ok_or(ConstError::Unsupported("sizeof of an expression of unknown type".into()))?
                    }
                };
                self.size_align(t, sizeof)
            }
            Expr::SizeofPack(n) => {
                if let Some(k) = templates::sizeof_pack(self.frame().env.as_ref(), n) {
                    return Ok(CValue::int(k as i128, Builtin::ULong));
                }
                match self.local_by_name(n) {
                    Some(l) => match &self.frame().locals[l.0 as usize] {
                        CValue::Pack(v) => Ok(CValue::int(v.len() as i128, Builtin::ULong)),
                        _ => unsupported(format!("sizeof...({n})")),
                    },
                    None => unsupported(format!("sizeof...({n})")),
                }
            }
            Expr::Builtin { name, tys, args } => self.builtin(name, tys, args),
            Expr::InitList(v) => {
                let vals = self.args(v)?;
                Ok(CValue::Array(vals))
            }
            Expr::Designated { value, .. } => self.expr(*value),
            Expr::Fold { op, lhs, rhs } => self.fold(*op, *lhs, *rhs),
            Expr::PackExpansion(_) => unsupported("pack expansion outside an argument list"),
            Expr::Noexcept(x) => self.noexcept(*x),
            Expr::Lambda { .. } => unsupported("lambda in a constant expression"),
            Expr::Requires { params, reqs } => self.requires(params, reqs),
            Expr::New { .. } | Expr::Delete { .. } => unsupported("new/delete in a constant expression"),
            Expr::Throw(_) => Err(ConstError::NotConstant("throw".into())),
            Expr::KernelLaunch { .. } => Err(ConstError::NotConstant("kernel launch".into())),
            Expr::TypeidType(_) | Expr::TypeidExpr(_) => unsupported("typeid"),
            Expr::StmtExpr(_) => unsupported("statement expression"),
        }
    }

    fn size_align(&self, t: TyId, sizeof: bool) -> R<CValue> {
        let (size, align) = crate::layout::size_align(self.db, t).map_err(|e| ConstError::Layout(e.to_string()))?;
        Ok(CValue::int(if sizeof { size } else { align } as i128, Builtin::ULong))
    }

    /// The declared type of a name expression, without evaluating it.
    /// The type of an unevaluated operand, inferred. Out of line: `expr`'s
    /// frame stays small for deep constexpr recursion.
    #[inline(never)]
    fn operand_type(&self, e: ExprId) -> Option<TyId> {
        let body = self.frame().body.clone();
        let (item, scope, env) = self.cx();
        let cx = LowerCx { db: self.db, map: self.map, item, scope, env: env.as_ref() };
        crate::infer::unevaluated_operand_type(cx, &body, e)
    }

    /// The function the call expression `e` of the current frame's body
    /// resolves to by the full overload rules (`infer::call_target`).
    #[inline(never)]
    fn call_target(&self, e: ExprId) -> Option<FnDecl> {
        let body = self.frame().body.clone();
        let (item, scope, env) = self.cx();
        let cx = LowerCx { db: self.db, map: self.map, item, scope, env: env.as_ref() };
        // Inference evaluates constexpr conditions in turn (a nested
        // interpreter): room for its frames before the next grow point.
        stacker::maybe_grow(1 << 20, 16 << 20, || crate::infer::call_target(cx, &body, e))
    }

    #[inline(never)]
    fn static_type(&self, e: ExprId) -> Option<TyId> {
        let body = self.frame().body.clone();
        match body.expr(e) {
            Expr::Path(p) if p.segments.len() == 1 && p.segments[0].args.is_none() => {
                let l = self.local_by_name(&p.segments[0].name)?;
                let t = self.lower_ty(&body.local(l).ty);
                // An array of unknown bound has its initializer's
                // (`size_t sizes[] = {a, b, c}; sizeof(sizes)`), as
                // inference types the local.
                if let TyKind::Array(elem, None) = ty::canonical(self.db, t).kind(self.db) {
                    let n = crate::infer::list_bound(self.db, &body, *elem, &body.local(l).init).ok()??;
                    return Some(ty::mk(self.db, TyKind::Array(*elem, Some(n))));
                }
                (!matches!(t.kind(self.db), TyKind::Dependent(_) | TyKind::Error(_))).then_some(t)
            }
            // A qualified name (a data member: libstdc++'s
            // `__alignof__(_Tp2::_M_t)`, which has no value) by its type.
            Expr::Path(p) if p.segments.len() > 1 => self.operand_type(e),
            _ => None,
        }
    }

    fn type_of(&self, v: &CValue) -> Option<TyId> {
        match v {
            CValue::Int(v) => Some(ty::mk(self.db, TyKind::Builtin(v.ty))),
            CValue::Float(_, b) => Some(ty::mk(self.db, TyKind::Builtin(*b))),
            CValue::Object(t, _) => *t,
            CValue::NullPtr => Some(ty::mk(self.db, TyKind::Builtin(Builtin::NullPtr))),
            _ => None,
        }
    }

    fn args(&mut self, args: &[ExprId]) -> R<Vec<CValue>> {
        let body = self.frame().body.clone();
        let mut out = Vec::new();
        for a in args {
            match body.expr(*a) {
                Expr::PackExpansion(p) => {
                    let n = self.pack_len(*p)?;
                    let packs = self.pattern_packs(*p);
                    for i in 0..n {
                        out.push(self.expansion_element(*p, i, &packs)?);
                    }
                }
                _ => out.push(self.expr(*a)?),
            }
        }
        Ok(out)
    }

    /// The length of the packs an expression expands (function parameter packs).
    fn pack_len(&self, e: ExprId) -> R<usize> {
        let body = self.frame().body.clone();
        let mut stack = vec![e];
        let mut n = None;
        let mut seen = 0;
        while let Some(x) = stack.pop() {
            seen += 1;
            if seen > 10_000 {
                break;
            }
            match body.expr(x) {
                Expr::Path(p) if p.segments.len() == 1 => {
                    if let Some(l) = self.local_by_name(&p.segments[0].name) {
                        if let CValue::Pack(v) = &self.frame().locals[l.0 as usize] {
                            n = Some(v.len());
                        }
                    } else if let Some(TemplateArg::Pack(v)) =
                        self.frame().env.as_ref().and_then(|e| e.get(&p.segments[0].name))
                    {
                        n = Some(v.len());
                    }
                }
                Expr::Unary { expr, .. } | Expr::Cast { expr, .. } => stack.push(*expr),
                Expr::Binary { lhs, rhs, .. } | Expr::Assign { lhs, rhs, .. } | Expr::Comma { lhs, rhs } => {
                    stack.push(*lhs);
                    stack.push(*rhs);
                }
                Expr::Call { callee, args } => {
                    stack.push(*callee);
                    stack.extend(args.iter().copied());
                }
                Expr::Construct { args, .. } => stack.extend(args.iter().copied()),
                // `__is_same(T, Ts)...`: a pack among a trait's types.
                Expr::Builtin { tys, args, .. } => {
                    for t in tys {
                        if let Some(TemplateArg::Pack(v)) =
                            super::traits::pack_head(t).and_then(|h| self.frame().env.as_ref().and_then(|e| e.get(h)))
                        {
                            n = Some(v.len());
                        }
                    }
                    stack.extend(args.iter().copied());
                }
                Expr::Member { base, .. } => stack.push(*base),
                Expr::Cond { cond, then, els } => stack.extend([*cond, *then, *els]),
                Expr::Index { base, index } => stack.extend([*base, *index]),
                _ => {}
            }
        }
        // Packs named in types and template arguments (`is_same_v<T, Ts>`).
        if n.is_none() {
            n = self.pattern_packs(e).first().map(|(_, v)| v.len());
        }
        n.ok_or(ConstError::Unsupported("pack expansion of a template parameter pack".into()))
    }

    fn fold(&mut self, op: Option<BinaryOp>, lhs: Option<ExprId>, rhs: Option<ExprId>) -> R<CValue> {
        let Some(op) = op else { return unsupported("fold without an operator") };
        // Which side is the pack: the one whose length is known.
        let (pack, init, right) = match (lhs, rhs) {
            (Some(l), None) => (l, None, true),
            (None, Some(r)) => (r, None, false),
            (Some(l), Some(r)) => match self.pack_len(l) {
                Ok(_) => (l, Some(r), true),
                Err(_) => (r, Some(l), false),
            },
            _ => return unsupported("empty fold"),
        };
        let n = self.pack_len(pack)?;
        let packs = self.pattern_packs(pack);
        let mut vals = Vec::new();
        for i in 0..n {
            vals.push(self.expansion_element(pack, i, &packs)?);
        }
        if let Some(i) = init {
            let v = self.expr(i)?;
            if right { vals.push(v) } else { vals.insert(0, v) }
        }
        if vals.is_empty() {
            return match op {
                BinaryOp::And => Ok(CValue::boolean(true)),
                BinaryOp::Or => Ok(CValue::boolean(false)),
                _ => unsupported("empty fold of a pack"),
            };
        }
        // `(E op ...)` folds to the right, `(... op E)` to the left; the
        // operators the corpus folds are associative, && and || short-circuit.
        let mut acc = vals.remove(0);
        for v in vals {
            acc = match op {
                BinaryOp::And => CValue::boolean(self.truth(acc)? && self.truth(v)?),
                BinaryOp::Or => CValue::boolean(self.truth(acc)? || self.truth(v)?),
                _ => self.arith(op, acc, v)?,
            };
        }
        Ok(acc)
    }

    fn unary(&mut self, op: UnaryOp, e: ExprId) -> R<CValue> {
        match op {
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let place = self.place(e)?;
                let old = self.read_place(&place)?;
                let one = CValue::int(1, Builtin::Int);
                let bop = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) { BinaryOp::Add } else { BinaryOp::Sub };
                let new = self.arith(bop, old.clone(), one)?;
                let new = match (&old, new) {
                    (CValue::Int(o), CValue::Int(n)) => CValue::int(convert(n.v, o.ty), o.ty),
                    (_, n) => n,
                };
                self.write_place(&place, new.clone())?;
                Ok(if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) { new } else { old })
            }
            UnaryOp::Deref => {
                // `*this` is the object.
                let body = self.frame().body.clone();
                if matches!(body.expr(e), Expr::This) {
                    return self.expr(e);
                }
                unsupported("dereference")
            }
            UnaryOp::AddrOf | UnaryOp::Other => unsupported("address or GNU operator"),
            UnaryOp::Neg | UnaryOp::Plus | UnaryOp::Not | UnaryOp::BitNot => {
                let v = self.expr(e)?;
                let v = match v {
                    o @ CValue::Object(..) => {
                        self.object_scalar(&o)?.ok_or(ConstError::Unsupported("operator on a class object".into()))?
                    }
                    v => v,
                };
                match (op, v) {
                    (UnaryOp::Not, v) => Ok(CValue::boolean(!self.truth(v)?)),
                    (UnaryOp::Neg, CValue::Float(f, b)) => Ok(CValue::Float(-f, b)),
                    (UnaryOp::Plus, CValue::Float(f, b)) => Ok(CValue::Float(f, b)),
                    (op, CValue::Int(a)) => {
                        let uop = match op {
                            UnaryOp::Neg => crate::item_tree::UnOp::Neg,
                            UnaryOp::Plus => crate::item_tree::UnOp::Plus,
                            _ => crate::item_tree::UnOp::BitNot,
                        };
                        super::unary(uop, a).map(CValue::Int)
                    }
                    _ => unsupported("operator on a non-scalar"),
                }
            }
        }
    }

    fn binary_expr(&mut self, op: BinaryOp, l: ExprId, r: ExprId) -> R<CValue> {
        // A left operand the model does not evaluate: a right one that
        // decides the result does (the program is well-formed).
        if matches!(op, BinaryOp::And | BinaryOp::Or) {
            return self.logical(op == BinaryOp::Or, l, r);
        }
        match op {
            BinaryOp::And => {
                let a = self.expr(l)?;
                if !self.truth(a)? {
                    return Ok(CValue::boolean(false));
                }
                let b = self.expr(r)?;
                Ok(CValue::boolean(self.truth(b)?))
            }
            BinaryOp::Or => {
                let a = self.expr(l)?;
                if self.truth(a)? {
                    return Ok(CValue::boolean(true));
                }
                let b = self.expr(r)?;
                Ok(CValue::boolean(self.truth(b)?))
            }
            _ => {
                let a = self.expr(l)?;
                let b = self.expr(r)?;
                self.arith(op, a, b)
            }
        }
    }

    /// `l || r` (`or`) or `l && r`. Kept out of `binary_expr`, whose
    /// frame every level of a recursive constexpr call holds.
    #[inline(never)]
    fn logical(&mut self, or: bool, l: ExprId, r: ExprId) -> R<CValue> {
        let a = self.expr(l).and_then(|a| self.truth(a));
        match a {
            Ok(a) if a == or => Ok(CValue::boolean(or)),
            Ok(_) => {
                let b = self.expr(r)?;
                Ok(CValue::boolean(self.truth(b)?))
            }
            Err(e) => match self.expr(r).and_then(|b| self.truth(b)) {
                Ok(b) if b == or => Ok(CValue::boolean(or)),
                _ => Err(e),
            },
        }
    }

    fn arith(&mut self, op: BinaryOp, a: CValue, b: CValue) -> R<CValue> {
        if (matches!(a, CValue::Object(..)) || matches!(b, CValue::Object(..)))
            && let Some(v) = self.overloaded_operator(op, &a, &b)?
        {
            return Ok(v);
        }
        let a = match a {
            o @ CValue::Object(..) => {
                self.object_scalar(&o)?.ok_or(ConstError::Unsupported("operator on class objects".into()))?
            }
            v => v,
        };
        let b = match b {
            o @ CValue::Object(..) => {
                self.object_scalar(&o)?.ok_or(ConstError::Unsupported("operator on class objects".into()))?
            }
            v => v,
        };
        let bop = match op {
            BinaryOp::Add => BinOp::Add,
            BinaryOp::Sub => BinOp::Sub,
            BinaryOp::Mul => BinOp::Mul,
            BinaryOp::Div => BinOp::Div,
            BinaryOp::Rem => BinOp::Rem,
            BinaryOp::Shl => BinOp::Shl,
            BinaryOp::Shr => BinOp::Shr,
            BinaryOp::BitAnd => BinOp::BitAnd,
            BinaryOp::BitOr => BinOp::BitOr,
            BinaryOp::BitXor => BinOp::BitXor,
            BinaryOp::And => BinOp::And,
            BinaryOp::Or => BinOp::Or,
            BinaryOp::Eq => BinOp::Eq,
            BinaryOp::Ne => BinOp::Ne,
            BinaryOp::Lt => BinOp::Lt,
            BinaryOp::Le => BinOp::Le,
            BinaryOp::Gt => BinOp::Gt,
            BinaryOp::Ge => BinOp::Ge,
            _ => return unsupported("operator <=> or pointer to member"),
        };
        match (a, b) {
            (CValue::Int(x), CValue::Int(y)) => {
                if matches!(bop, BinOp::And | BinOp::Or) {
                    let r = if bop == BinOp::And { x.v != 0 && y.v != 0 } else { x.v != 0 || y.v != 0 };
                    return Ok(CValue::boolean(r));
                }
                binary(bop, x, y).map(CValue::Int)
            }
            (CValue::Float(x, bx), CValue::Float(y, by)) => float_op(bop, x, y, wider(bx, by)),
            (CValue::Float(x, bx), CValue::Int(y)) => float_op(bop, x, int_to_f64(y), bx),
            (CValue::Int(x), CValue::Float(y, by)) => float_op(bop, int_to_f64(x), y, by),
            (CValue::NullPtr, CValue::NullPtr) => match bop {
                BinOp::Eq => Ok(CValue::boolean(true)),
                BinOp::Ne => Ok(CValue::boolean(false)),
                _ => unsupported("arithmetic on nullptr"),
            },
            (CValue::Uninit, _) | (_, CValue::Uninit) => {
                Err(ConstError::NotConstant("read of an uninitialized object".into()))
            }
            _ => unsupported("operator on non-scalars"),
        }
    }

    /// A binary operator on class operands: a member `operator@` of the
    /// left operand's class, else a non-member one found from here or in
    /// the operands' namespaces. `None`: there is none.
    fn overloaded_operator(&mut self, op: BinaryOp, a: &CValue, b: &CValue) -> R<Option<CValue>> {
        let sym = match op {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            _ => return Ok(None),
        };
        let key = format!("operator{sym}");
        let db = self.db;
        let path = Path::single(&key);
        // Non-members: from the current scope, and in the operands' namespaces.
        let mut cands = scopes::lookup_fns(db, self.map, self.frame().scope, &key);
        for v in [a, b] {
            let CValue::Object(Some(t), _) = v else { continue };
            let Ok(c) = templates::class_of(db, *t) else { continue };
            let mut s = self.map.parent.get(&DeclKey::Class(c.pattern(db))).copied();
            while let Some(x) = s {
                if !matches!(self.map.scope(x).kind, scopes::ScopeKind::Class(_)) {
                    break;
                }
                s = self.map.scope(x).parent;
            }
            if let Some(ns) = s {
                for f in scopes::own_fns(db, self.map, ns, &key) {
                    if !cands.contains(&f) {
                        cands.push(f);
                    }
                }
            }
        }
        cands.retain(|f| fn_data(db, *f).is_some_and(|(d, _)| !d.in_class || d.linkage.is_static));
        if !cands.is_empty() {
            match self.call_overloads(&cands, None, vec![a.clone(), b.clone()], None, &path) {
                Ok((v, _)) => return Ok(Some(v)),
                Err(ConstError::Unresolved(_)) => {}
                Err(e) => return Err(e),
            }
        }
        // Members of the left operand's class.
        if let CValue::Object(Some(t), _) = a
            && let Ok(c) = templates::class_of(db, *t)
        {
            let members = crate::instances::member_fns(db, c, &key);
            if let Some((_, outer)) = members.first() {
                let env = outer.and_then(|i| templates::inst_env(db, i).ok());
                let fs: Vec<FnDecl> = members.iter().map(|(f, _)| *f).collect();
                let (v, _) = self.call_overloads(&fs, env, vec![b.clone()], Some(a.clone()), &path)?;
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    // ---- names ----

    fn local_by_name(&self, n: &str) -> Option<LocalId> {
        let f = self.frame();
        // The latest initialized local of that name (shadowing by order).
        let mut found = None;
        for (i, l) in f.body.locals.iter().enumerate() {
            if l.name.as_deref() == Some(n) && (!matches!(f.locals[i], CValue::Uninit) || found.is_none()) {
                found = Some(LocalId(i as u32));
            }
        }
        found
    }

    fn path_value(&mut self, p: &Path) -> R<CValue> {
        if p.segments.len() == 1 && p.segments[0].args.is_none() && !p.global {
            let n = &p.segments[0].name;
            if let Some(l) = self.local_by_name(n) {
                let v = self.frame().locals[l.0 as usize].clone();
                return match v {
                    CValue::Pack(elems) => match self.frame().pack_index {
                        Some(i) => elems.get(i).cloned().ok_or(ConstError::OutOfRange),
                        None => unsupported(format!("unexpanded pack `{n}`")),
                    },
                    CValue::Uninit => Err(ConstError::NotConstant(format!("`{n}` is not initialized"))),
                    v => Ok(v),
                };
            }
            if let Some(CValue::Object(_, fields)) = &self.frame().this
                && let Some((_, v)) = fields.iter().find(|(f, _)| f == n)
            {
                return Ok(v.clone());
            }
            if let Some((_, v)) = self.frame().named.iter().rev().find(|(m, _)| m == n) {
                return Ok(v.clone());
            }
            if n == "true" || n == "false" {
                return Ok(CValue::boolean(n == "true"));
            }
        }
        // A template value parameter pack element.
        if let (Some(i), Some(TemplateArg::Pack(v))) = (
            self.frame().pack_index,
            self.frame().env.as_ref().and_then(|e| p.segments.first().and_then(|s| e.get(&s.name))),
        ) && p.segments.len() == 1
        {
            return match v.get(i) {
                Some(TemplateArg::Value(v, t)) => Ok(CValue::int(*v, templates::value_builtin(self.db, *t))),
                _ => unsupported("pack element"),
            };
        }
        let (item, scope, env) = self.cx();
        // A variable template specialization (`is_same_v<A, B>`).
        if let Some(written) = p.segments.last().and_then(|s| s.args.clone()) {
            let mut bare = p.clone();
            if let Some(l) = bare.segments.last_mut() {
                l.args = None;
            }
            if let Some(Def::VarTemplate(vt)) = scopes::resolve_path(self.db, self.map, scope, &bare, Ns::Value) {
                return self.var_template_value(vt, &written);
            }
        }
        let cx = LowerCx { db: self.db, map: self.map, item, scope, env: env.as_ref() };
        match templates::resolve(cx, p, Ns::Value) {
            Ok(Resolved::Value(TemplateArg::Value(v, t))) => Ok(CValue::int(v, templates::value_builtin(self.db, t))),
            Ok(Resolved::Value(_)) => Err(ConstError::NotConstant(format!("{p} (dependent)"))),
            Ok(Resolved::Def(d, denv, _)) => self.def_value(&d, denv.as_ref().or(env.as_ref()), p),
            Ok(Resolved::Ty(_)) => Err(ConstError::NotConstant(format!("{p} is a type"))),
            Err(TyKind::Error(e)) => Err(ConstError::Unresolved(e)),
            Err(k) => unsupported(format!("{k:?}")),
        }
    }

    fn def_value(&mut self, d: &Def, env: Option<&Env>, p: &Path) -> R<CValue> {
        match d {
            Def::Enumerator(..) => {
                let (item, scope, _) = self.cx();
                let cx = LowerCx { db: self.db, map: self.map, item, scope, env };
                templates::member_value(cx, d, env).map(CValue::Int)
            }
            Def::Var(v) => {
                let (item, scope, _) = self.cx();
                let cx = LowerCx { db: self.db, map: self.map, item, scope, env };
                match templates::member_value(cx, d, env) {
                    Ok(v) => Ok(CValue::Int(v)),
                    Err(first) => self.var_by_body(*v, env).map_err(|e| match e {
                        ConstError::Unsupported(_) => first,
                        e => e,
                    }),
                }
            }
            _ => Err(ConstError::NotConstant(p.to_string())),
        }
    }

    /// A requires-expression: its nested requirements evaluated here, the
    /// others checked by `infer::requires_satisfied` in the frame's
    /// environment; what neither decides leaves it not evaluated.
    /// `noexcept(e)`: a destructor call is non-throwing (destructors are
    /// implicitly `noexcept`: what `is_nothrow_destructible` asks, of
    /// `declval<T&>()`, itself `noexcept`; the object expression is not
    /// checked); other expressions by `infer::noexcept_operand`.
    #[inline(never)]
    fn noexcept(&mut self, x: ExprId) -> R<CValue> {
        let body = self.frame().body.clone();
        if let Expr::Call { callee, .. } = body.expr(x)
            && let (Expr::Member { .. }, Some(r)) = (body.expr(*callee), body.expr_ranges.get(callee.0 as usize))
        {
            // The lowered name drops the `~`: the text has it.
            let text = self.frame().text.get(usize::from(r.start())..usize::from(r.end())).unwrap_or("");
            let compact: String = text.split_whitespace().collect();
            if compact.contains(".~") || compact.contains("->~") {
                return Ok(CValue::boolean(true));
            }
        }
        // `noexcept(T(declval<A>()...))` (libcu++'s `is_nothrow_constructible`):
        // whether the construction is non-throwing is the builtin trait's question.
        if let Expr::Construct { ty, args, braced: false } = body.expr(x)
            && let Some(mut tys) = self.declval_types(&body, args)
        {
            let t = self.lower_ty(ty);
            if !matches!(t.kind(self.db), TyKind::Dependent(_) | TyKind::Error(_)) {
                tys.insert(0, t);
                let (item, scope, env) = self.cx();
                let cx = LowerCx { db: self.db, map: self.map, item, scope, env: env.as_ref() };
                if let Ok(b) = super::traits::eval_trait(cx, "is_nothrow_constructible", &tys) {
                    return Ok(CValue::boolean(b));
                }
            }
        }
        // Any other operand: inferred, non-throwing when every callee is.
        let (item, scope, env) = self.cx();
        let cx = LowerCx { db: self.db, map: self.map, item, scope, env: env.as_ref() };
        let text = match body.expr_ranges.get(x.0 as usize) {
            Some(r) => {
                self.frame().text.get(usize::from(r.start())..usize::from(r.end())).unwrap_or("throw").to_string()
            }
            None => "throw".to_string(),
        };
        let known = crate::infer::noexcept_operand(cx, &body, x, &text);
        match known {
            Some(b) => Ok(CValue::boolean(b)),
            None => unsupported("noexcept(expression)"),
        }
    }

    /// The types `A…` of operands that are all `declval<A>()` (or a pack
    /// expansion `declval<As>()...` of a bound pack): what a trait asks
    /// with such operands; None for any other operand.
    fn declval_types(&self, body: &Body, args: &[ExprId]) -> Option<Vec<TyId>> {
        let mut out = Vec::new();
        for &a in args {
            let (call, expand) = match body.expr(a) {
                Expr::PackExpansion(inner) => (*inner, true),
                _ => (a, false),
            };
            let Expr::Call { callee, args: call_args } = body.expr(call) else { return None };
            let Expr::Path(p) = body.expr(*callee) else { return None };
            let last = p.segments.last()?;
            if last.name != "declval" || !call_args.is_empty() {
                return None;
            }
            let [crate::item_tree::TemplateArgRef::Type(t)] = last.args.as_deref()? else { return None };
            if expand {
                let TypeRef::Path(tp) = t else { return None };
                let [seg] = tp.segments.as_slice() else { return None };
                let env = self.frame().env.as_ref()?;
                let Some(TemplateArg::Pack(items)) = env.get(&seg.name) else { return None };
                for i in items {
                    let TemplateArg::Type(it) = i else { return None };
                    out.push(*it);
                }
            } else {
                let t = self.lower_ty(t);
                if matches!(t.kind(self.db), TyKind::Dependent(_) | TyKind::Error(_)) {
                    return None;
                }
                out.push(t);
            }
        }
        Some(out)
    }

    #[inline(never)] // keeps `expr`'s frame small: constexpr recursion is deep
    fn requires(&mut self, params: &[LocalId], reqs: &[body::Requirement]) -> R<CValue> {
        let mut unknown = None;
        for r in reqs {
            if let body::Requirement::Nested(x) = r {
                match self.expr(*x).and_then(|v| self.truth(v)) {
                    Ok(false) => return Ok(CValue::boolean(false)),
                    Ok(true) => {}
                    Err(e) => unknown = Some(e),
                }
            }
        }
        let (item, scope, env) = self.cx();
        let body = self.frame().body.clone();
        let cx = LowerCx { db: self.db, map: self.map, item, scope, env: env.as_ref() };
        match crate::infer::requires_satisfied(cx, &body, params, reqs) {
            Some(false) => Ok(CValue::boolean(false)),
            Some(true) => match unknown {
                None => Ok(CValue::boolean(true)),
                Some(e) => Err(e),
            },
            None => unsupported("requires-expression (not decided)"),
        }
    }

    /// The value of a variable template specialization: its arguments
    /// lowered here, its initializer evaluated with them bound.
    fn var_template_value(
        &mut self,
        vt: crate::VarTemplateId,
        written: &[crate::item_tree::TemplateArgRef],
    ) -> R<CValue> {
        let db = self.db;
        let (item, scope, env) = self.cx();
        let cx = LowerCx { db, map: self.map, item, scope, env: env.as_ref() };
        let tree = item_tree_of(db, vt.item(db));
        let data = tree.var_templates.get(vt.idx(db) as usize).ok_or(ConstError::Cycle)?;
        // The specialization its arguments select (`is_same_v<A, A>`), as
        // the item-tree evaluator does; what it cannot bind, below.
        if let Ok(args) = super::var_template::var_template_args(cx, vt, written)
            && let Some(v) = super::var_template::eval_with_args(cx, vt, args)
        {
            return Ok(CValue::Int(v));
        }
        // A pack expansion supplies its elements to the parameters in
        // order, packs or not (`__same_types<invoke_result_t<V, X<Is>>...>`
        // binds `_Tp` to the first element); the rest are lowered by the
        // kind of the parameter they meet.
        use crate::infer::packs::{Written, expand_written};
        let flat = expand_written(cx, written).map_err(ConstError::unsupported)?;
        let lower = |kind: &TemplateParamKind, a: Written<'_>| match a {
            Written::Ref(a) => templates::lower_arg(cx, kind, a).map_err(ConstError::unsupported),
            Written::Done(a) => Ok(a),
        };
        let mut names = Vec::new();
        let mut w = flat.into_iter();
        for p in &data.tparams {
            let Some(name) = p.name.clone() else {
                w.next();
                continue;
            };
            if p.pack {
                let elems = w.by_ref().map(|a| lower(&p.kind, a)).collect::<R<Vec<_>>>()?;
                names.push((name, TemplateArg::Pack(elems)));
            } else if let Some(a) = w.next() {
                names.push((name, lower(&p.kind, a)?));
            } else {
                return unsupported(format!("default argument of variable template `{}`", data.var.name));
            }
        }
        if names.iter().any(|(_, a)| matches!(a, TemplateArg::Dependent(_))) {
            return Err(ConstError::NotConstant(format!("{} (dependent)", data.var.name)));
        }
        let venv = Env { names, ..Env::default() };
        let vscope = self.map.parent.get(&DeclKey::VarTemplate(vt)).copied().unwrap_or(scopes::ROOT);
        let vcx = LowerCx { db, map: self.map, item: vt.item(db), scope: vscope, env: Some(&venv) };
        let Some(init) = &data.var.init else { return Err(ConstError::NotConstant(data.var.name.clone())) };
        let v = templates::nested(|| {
            super::eval(&super::EvalCx::new(vcx), init).map_err(|e| crate::SemaError::gap(e.to_string()))
        })
        .map_err(ConstError::unsupported)?;
        let t = ty::canonical(db, ty::lower(vcx, &data.var.ty));
        let t = match t.kind(db) {
            TyKind::Qualified(x, _) => ty::canonical(db, *x),
            _ => t,
        };
        match t.kind(db) {
            TyKind::Builtin(b) if super::is_integral(*b) => Ok(CValue::int(convert(v.v, *b), *b)),
            _ => Ok(CValue::Int(v)),
        }
    }

    /// A constexpr variable whose initializer the item-tree evaluator does
    /// not model (a call, a class value): its initializer lowered as a body.
    fn var_by_body(&mut self, v: crate::VarId, env: Option<&Env>) -> R<CValue> {
        let db = self.db;
        let item = v.item(db);
        let tree = item_tree_of(db, item);
        let Some(data) = tree.vars.get(v.idx(db) as usize) else { return Err(ConstError::Cycle) };
        if !data.linkage.is_constexpr && !data.is_const {
            return Err(ConstError::NotConstant(data.name.clone()));
        }
        let Some(src) = crate::item_source(db, item) else { return Err(ConstError::Cycle) };
        let root = SyntaxNode::new_root(src.green.clone());
        let offsets = crate::item_offsets(db, item);
        let Some(&at) = offsets.vars.get(v.idx(db) as usize) else { return Err(ConstError::Cycle) };
        let parent = self.map.parent.get(&DeclKey::Var(v)).copied().unwrap_or(scopes::ROOT);
        let Some(init) = initializer_at(&root, at) else {
            // `static constexpr Product product;` (CuTe's function objects):
            // a constant of class type default-initialized.
            let t = ty::canonical(db, ty::lower(LowerCx { db, map: self.map, item, scope: parent, env }, &data.ty));
            if data.linkage.is_constexpr && matches!(t.kind(db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_)) {
                return self.construct(t, Vec::new());
            }
            return Err(ConstError::NotConstant(data.name.clone()));
        };
        let body = Arc::new(body::lower_expr_owner(&init));
        let text = item_text(db, item);
        if calls_exhausted() {
            return Err(too_complex());
        }
        let root_expr = body.root_expr.ok_or(ConstError::Cycle)?;
        self.frames.push(Frame {
            body: FrameBody::Shared(body.clone()),
            text,
            item,
            scope: parent,
            env: env.cloned(),
            outer_names: env.map_or(0, |e| e.names.len()),
            locals: vec![CValue::Uninit; body.locals.len()],
            this: None,
            named: Vec::new(),
            pack_index: None,
        });
        let r = one_call_deeper(|| self.expr(root_expr));
        let t = self.lower_ty(&data.ty);
        let r = r.and_then(|v| self.convert_to(v, t));
        self.frames.pop();
        r
    }

    fn member(&mut self, b: CValue, name: &Path) -> R<CValue> {
        let Some(n) = name.last() else { return unsupported("member without a name") };
        match &b {
            CValue::Object(t, fields) => {
                if let Some((_, v)) = fields.iter().find(|(f, _)| f == n) {
                    return match v {
                        CValue::Uninit => Err(ConstError::NotConstant(format!("member `{n}` is not initialized"))),
                        v => Ok(v.clone()),
                    };
                }
                // A static member.
                if let Some(t) = t
                    && let Ok(c) = templates::class_of(self.db, *t)
                    && let Some((d, env, _)) = templates::member_of(self.db, c, n, Ns::Value, 0)
                {
                    return self.def_value(&d, env.as_ref(), name);
                }
                unsupported(format!("member `{n}`"))
            }
            _ => unsupported(format!("member `{n}` of a non-object")),
        }
    }

    // ---- places (assignment targets) ----

    fn place(&mut self, e: ExprId) -> R<Place> {
        let body = self.frame().body.clone();
        match body.expr(e) {
            Expr::Path(p) if p.segments.len() == 1 && p.segments[0].args.is_none() => {
                let n = &p.segments[0].name;
                if let Some(l) = self.local_by_name(n) {
                    return Ok(Place { root: PlaceRoot::Local(l), path: Vec::new() });
                }
                if let Some(CValue::Object(_, fields)) = &self.frame().this
                    && fields.iter().any(|(f, _)| f == n)
                {
                    return Ok(Place { root: PlaceRoot::This, path: vec![Sel::Field(n.clone())] });
                }
                Err(ConstError::NotConstant(format!("assignment to `{n}`")))
            }
            Expr::This => Ok(Place { root: PlaceRoot::This, path: Vec::new() }),
            Expr::Unary { op: UnaryOp::Deref, expr } if matches!(body.expr(*expr), Expr::This) => {
                Ok(Place { root: PlaceRoot::This, path: Vec::new() })
            }
            Expr::Member { base, name, .. } => {
                let mut p = self.place(*base)?;
                p.path.push(Sel::Field(name.last().unwrap_or("").to_string()));
                Ok(p)
            }
            Expr::Index { base, index } => {
                let i = self.expr(*index)?;
                let CValue::Int(i) = i else { return unsupported("non-integral subscript") };
                let mut p = self.place(*base)?;
                p.path.push(Sel::Index(i.v as usize));
                Ok(p)
            }
            _ => unsupported("assignment to this kind of expression"),
        }
    }

    fn place_ref(&mut self, p: &Place) -> R<&mut CValue> {
        let f = self.frames.last_mut().expect("a frame");
        let mut cur = match p.root {
            PlaceRoot::Local(l) => &mut f.locals[l.0 as usize],
            PlaceRoot::This => f.this.as_mut().ok_or(ConstError::Unsupported("no `this`".into()))?,
        };
        for s in &p.path {
            cur = match (s, cur) {
                (Sel::Field(n), CValue::Object(_, fields)) => match fields.iter_mut().find(|(f, _)| f == n) {
                    Some((_, v)) => v,
                    None => return unsupported(format!("member `{n}`")),
                },
                (Sel::Index(i), CValue::Array(v)) => v.get_mut(*i).ok_or(ConstError::OutOfRange)?,
                _ => return unsupported("member or element of a non-aggregate"),
            };
        }
        Ok(cur)
    }

    fn read_place(&mut self, p: &Place) -> R<CValue> {
        let v = self.place_ref(p)?.clone();
        match v {
            CValue::Uninit => Err(ConstError::NotConstant("read of an uninitialized object".into())),
            v => Ok(v),
        }
    }

    fn write_place(&mut self, p: &Place, v: CValue) -> R<()> {
        *self.place_ref(p)? = v;
        Ok(())
    }

    // ---- conversions ----

    fn convert_to(&mut self, v: CValue, t: TyId) -> R<CValue> {
        let db = self.db;
        let mut t = ty::canonical(db, t);
        while let TyKind::Qualified(x, _) | TyKind::LRef(x) | TyKind::RRef(x) = t.kind(db) {
            t = ty::canonical(db, *x);
        }
        let v = match v {
            o @ CValue::Object(..) if matches!(t.kind(db), TyKind::Builtin(_) | TyKind::Enum(_)) => self
                .object_scalar(&o)?
                .ok_or(ConstError::Unsupported("conversion of a class object to a scalar".into()))?,
            v => v,
        };
        match (t.kind(db), v) {
            (TyKind::Builtin(b), CValue::Int(x)) if super::is_integral(*b) => Ok(CValue::int(convert(x.v, *b), *b)),
            (TyKind::Builtin(b), CValue::Float(f, _)) if super::is_integral(*b) => {
                if *b == Builtin::Bool {
                    return Ok(CValue::boolean(f != 0.0));
                }
                Ok(CValue::int(convert(f.trunc() as i128, *b), *b))
            }
            (TyKind::Builtin(b), CValue::Int(x)) if is_float(*b) => Ok(CValue::Float(round_to(int_to_f64(x), *b), *b)),
            (TyKind::Builtin(b), CValue::Float(f, _)) if is_float(*b) => Ok(CValue::Float(round_to(f, *b), *b)),
            (TyKind::Builtin(Builtin::Void), _) => Ok(CValue::Void),
            // `int x = {};`, a parameter `S = {}` with `S` an integer:
            // list-initialization of a scalar from at most one element.
            (TyKind::Builtin(_) | TyKind::Enum(_), CValue::Array(v)) if v.len() <= 1 => self.construct(t, v),
            (TyKind::Builtin(Builtin::Bool), CValue::NullPtr) => Ok(CValue::boolean(false)),
            (TyKind::Enum(e), CValue::Int(x)) => {
                let u = ty::enum_info(db, *e).underlying;
                Ok(CValue::int(convert(x.v, u), u))
            }
            (TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_), CValue::Object(_, f)) => {
                Ok(CValue::Object(Some(t), f))
            }
            (TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_), CValue::Array(args)) => self.construct(t, args),
            (TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_), v) => self.construct(t, vec![v]),
            (TyKind::Array(..), v @ CValue::Array(_)) => Ok(v),
            // Unknown targets (auto, dependent): keep the value.
            (TyKind::Dependent(_) | TyKind::Error(_) | TyKind::TemplateParam { .. }, v) => Ok(v),
            (_, v @ (CValue::Int(_) | CValue::Float(..))) => Ok(v),
            (k, _) => unsupported(format!("conversion to {k:?}")),
        }
    }

    // ---- calls ----

    fn call(&mut self, at: ExprId, callee: ExprId, args: &[ExprId]) -> R<CValue> {
        let body = self.frame().body.clone();
        let (item, scope, env) = self.cx();
        match body.expr(callee) {
            Expr::Path(p) => {
                let argv = self.args(args)?;
                // A local holding a class object (a function object
                // parameter): its `operator()`.
                if p.segments.len() == 1
                    && !p.global
                    && p.segments[0].args.is_none()
                    && self.local_by_name(&p.segments[0].name).is_some()
                {
                    let obj = self.path_value(p)?;
                    return self.call_object(at, obj, argv);
                }
                let cx = LowerCx { db: self.db, map: self.map, item, scope, env: env.as_ref() };
                // `f<A, B>(…)`: a function template with explicit arguments.
                if let Some(written) = p.segments.last().and_then(|s| s.args.clone()) {
                    let mut bare = p.clone();
                    if let Some(l) = bare.segments.last_mut() {
                        l.args = None;
                    }
                    if let Ok(Resolved::Def(d @ Def::FnTemplate(_), denv, _)) = templates::resolve(cx, &bare, Ns::Value)
                    {
                        let cands: Vec<FnDecl> = self
                            .overloads(&d, &bare)
                            .into_iter()
                            .filter(|f| matches!(f, FnDecl::Template(_)))
                            .collect();
                        let this = self.frame().this.clone();
                        let saved = self.explicit.replace(Explicit { written, item, scope, env: env.clone() });
                        self.call_at = Some(at);
                        let callee_env = self.callee_env(&d, denv, env);
                        let r = self.call_overloads(&cands, callee_env, argv, this, p);
                        self.explicit = saved;
                        return r.map(|(v, _)| v);
                    }
                }
                // A member function of the current class called without `this->`.
                let resolved = templates::resolve(cx, p, Ns::Value);
                match resolved {
                    Ok(Resolved::Def(d, denv, _)) => match d {
                        Def::Fn(_) | Def::FnTemplate(_) => {
                            let cands = self.overloads(&d, p);
                            let this = self.frame().this.clone();
                            self.call_at = Some(at);
                            let callee_env = self.callee_env(&d, denv, env);
                            let (v, _) = self.call_overloads(&cands, callee_env, argv, this, p)?;
                            Ok(v)
                        }
                        Def::Class(_) | Def::ClassTemplate(_) | Def::Typedef(_) => {
                            let t = ty::canonical(self.db, templates::def_to_ty(cx, d, denv.as_ref(), scope, None));
                            self.construct(t, argv)
                        }
                        Def::Value => unsupported(format!("call to `{p}` (not modelled)")),
                        // A function object (CuTe's `static constexpr
                        // Product product;`): its `operator()`.
                        Def::Var(_) => {
                            let obj = self.def_value(&d, denv.as_ref().or(env.as_ref()), p)?;
                            self.call_object(at, obj, argv)
                        }
                        _ => Err(ConstError::NotConstant(format!("call of `{p}`"))),
                    },
                    Ok(Resolved::Ty(t)) => {
                        let t = ty::canonical(self.db, t);
                        self.construct(t, argv)
                    }
                    Ok(Resolved::Value(_)) => unsupported(format!("call of a template parameter `{p}`")),
                    Err(TyKind::Error(e)) => Err(ConstError::Unresolved(e)),
                    Err(k) => unsupported(format!("call of `{p}`: {k:?}")),
                }
            }
            Expr::Member { base, name, .. } => {
                let obj = self.expr(*base)?;
                let argv = self.args(args)?;
                let Some(CValue::Object(Some(t), _)) = Some(&obj) else {
                    return unsupported("member call on a non-object");
                };
                let c = templates::class_of(self.db, *t).map_err(ConstError::unsupported)?;
                let n = name.last().unwrap_or("");
                let Some((d, denv, _)) = templates::member_of(self.db, c, n, Ns::Value, 0) else {
                    return Err(ConstError::Unresolved(crate::SemaError::gap(n.to_string())));
                };
                let cands = self.overloads(&d, name);
                self.call_at = Some(at);
                let (v, this) = self.call_overloads(&cands, denv, argv, Some(obj), name)?;
                // Write the object back (a non-const member function may change it).
                if let (Some(this), Ok(place)) = (this, self.place(*base)) {
                    let _ = self.write_place(&place, this);
                }
                Ok(v)
            }
            _ => unsupported("call through an expression"),
        }
    }

    /// A call of a class object: its `operator()` with the object as `this`.
    fn call_object(&mut self, at: ExprId, obj: CValue, argv: Vec<CValue>) -> R<CValue> {
        let CValue::Object(Some(t), _) = &obj else {
            return unsupported("call of a value that is not a class object");
        };
        let c = templates::class_of(self.db, *t).map_err(ConstError::unsupported)?;
        let name = Path::single("operator()");
        let Some((d, denv, _)) = templates::member_of(self.db, c, "operator()", Ns::Value, 0) else {
            return Err(ConstError::Unresolved(crate::SemaError::gap("operator()")));
        };
        let cands = self.overloads(&d, &name);
        self.call_at = Some(at);
        let (v, _) = self.call_overloads(&cands, denv, argv, Some(obj), &name)?;
        Ok(v)
    }

    /// The environment a call of the function(s) `d` runs in: the one its
    /// lookup found or the caller's (a member of the class being run,
    /// called without `this->`; a hidden friend). A
    /// namespace-scope function sees none of the caller's template
    /// parameters: `ceil_div(BLOCK_THREADS, 32)` evaluated while a member
    /// template's `Op` is still being deduced must not read as dependent.
    fn callee_env(&self, d: &Def, denv: Option<Env>, env: Option<Env>) -> Option<Env> {
        // The caller's environment without its body's own names.
        let outer = self.frame().outer_names;
        let env = denv.or_else(|| {
            env.map(|mut e| {
                e.names.truncate(outer);
                e.usings.clear();
                e
            })
        });
        let Some(f) = crate::instances::def_fn(d) else { return env };
        // A hidden friend's scope is its class's.
        let friend = fn_data(self.db, f).is_some_and(|(data, _)| data.friend);
        match self.map.scope(f.parent(self.db, self.map)).kind {
            scopes::ScopeKind::Root | scopes::ScopeKind::Namespace { .. } if !friend => None,
            _ => env,
        }
    }

    /// The functions of the name `d` was found by (its overload set): the
    /// functions of that name in the scope that declares it.
    fn overloads(&self, d: &Def, p: &Path) -> Vec<FnDecl> {
        let Some(first) = crate::instances::def_fn(d) else { return Vec::new() };
        let parent = first.parent(self.db, self.map);
        let mut out = scopes::own_fns(self.db, self.map, parent, p.last().unwrap_or(""));
        if !out.contains(&first) {
            out.insert(0, first);
        }
        out
    }

    /// Picks a function of `cands` for the arguments and calls it. Among
    /// several viable candidates, a constrained template whose constraints
    /// (with the arguments deduced from the call) are false is not viable
    /// ([over.match.viable]/3), and of candidates otherwise equal the more
    /// constrained wins ([over.match.best]/2.6, `infer::constraints::weight`).
    /// A tie between different signatures, or constraints that cannot be
    /// evaluated, is not decided.
    fn call_overloads(
        &mut self,
        cands: &[FnDecl],
        env: Option<Env>,
        args: Vec<CValue>,
        this: Option<CValue>,
        p: &Path,
    ) -> R<(CValue, Option<CValue>)> {
        let at = self.call_at.take();
        let mut viable: Vec<(i32, FnDecl)> =
            cands.iter().filter_map(|c| self.viability(*c, &args, env.as_ref()).map(|s| (s, *c))).collect();
        // A template whose deduction ends in a substitution failure is not a
        // candidate ([temp.deduct]/8): CuTe's `operator*(U, C<t>)` with
        // `enable_if<is_std_integral<U> && t == 0>` is not `32 * C<128>{}`'s
        // (a lone operator candidate competes with the built-in one).
        if viable.len() > 1 || p.segments.last().is_some_and(|s| s.name.starts_with("operator")) {
            viable.retain(|(_, g)| match g {
                FnDecl::Template(t) => !self.deduction_fails(*t, env.clone(), &args),
                FnDecl::Fn(_) => true,
            });
        }
        // The interpreter's ranking by argument kinds prefers a non-template
        // on a tie of kinds, which is wrong where the template is the better
        // match (`f(C<128>{})` against `f(long)`: the non-template needs a
        // user-defined conversion; `g(D<0>{})` against `g(...)`): where both
        // kinds compete, the full overload rules decide when they can.
        let templated = |g: &FnDecl| fn_data(self.db, *g).is_some_and(|(_, t)| t);
        if viable.iter().any(|(_, g)| templated(g))
            && viable.iter().any(|(_, g)| !templated(g))
            && let Some(g) = at.and_then(|e| self.call_target(e)).filter(|g| viable.iter().any(|(_, v)| v == g))
        {
            return self.invoke(g, env, args, this);
        }
        let constrained = |f: &FnDecl| matches!(f, FnDecl::Template(t) if template_def(self.db, *t).constrained);
        let any_constrained = viable.len() > 1 && viable.iter().any(|(_, g)| constrained(g));
        if any_constrained {
            let mut kept = Vec::new();
            for (s, g) in viable {
                match self.constraints_hold(g, env.as_ref(), &args) {
                    Some(true) => kept.push((s, g)),
                    Some(false) => {}
                    None => {
                        return unsupported(format!("call to `{p}`: constrained overloads (constraints not decided)"));
                    }
                }
            }
            viable = kept;
        }
        let Some(best) = viable.iter().map(|(s, _)| *s).max() else {
            return Err(ConstError::Unresolved(crate::error::gap!("no viable function `{p}`")));
        };
        let mut top: Vec<FnDecl> = viable.iter().filter(|(s, _)| *s == best).map(|(_, f)| *f).collect();
        if any_constrained && top.len() > 1 {
            let w: Vec<u32> = top.iter().map(|g| crate::infer::constraints::weight(self.db, self.map, *g)).collect();
            let max = w.iter().copied().max().unwrap_or(0);
            if w.iter().filter(|x| **x == max).count() > 1 {
                return unsupported(format!("call to `{p}`: constrained overloads not told apart"));
            }
            top = top.into_iter().zip(w).filter(|(_, x)| *x == max).map(|(g, _)| g).collect();
        }
        let mut f = top[0];
        let sig = |f: FnDecl| fn_data(self.db, f).map(|(d, t)| (d.ty.params, t));
        if top.iter().any(|g| sig(*g) != sig(f)) {
            match at.and_then(|e| self.call_target(e)).filter(|g| top.contains(g)) {
                Some(g) => f = g,
                None => return unsupported(format!("call to `{p}`: overloads not told apart")),
            }
        }
        self.invoke(f, env, args, this)
    }

    /// Whether the constraints of candidate `f` hold for a call with
    /// `args`: a template's with its arguments deduced from them (`None`:
    /// not deduced, or not evaluated).
    fn constraints_hold(&self, f: FnDecl, env: Option<&Env>, args: &[CValue]) -> Option<bool> {
        let db = self.db;
        let (data, _) = fn_data(db, f)?;
        if data.constraints.is_empty() {
            return Some(true);
        }
        let env = match f {
            FnDecl::Template(t) => self.deduce(t, env.cloned(), args, self.explicit.as_ref()).ok()?,
            FnDecl::Fn(_) => env.cloned().unwrap_or_default(),
        };
        let cx = LowerCx { db, map: self.map, item: f.item(db), scope: decl_scope(db, f), env: Some(&env) };
        crate::infer::constraints::all_hold(cx, &data.constraints)
    }

    /// A score for calling `f` with `args` (None: not viable by arity).
    fn viability(&self, f: FnDecl, args: &[CValue], env: Option<&Env>) -> Option<i32> {
        let db = self.db;
        let (data, templated) = fn_data(db, f)?;
        let n = data.ty.params.len();
        let has_pack = !data.pack_params.is_empty();
        let min = match f {
            FnDecl::Fn(f) => {
                n - body::fn_body(db, f)
                    .params
                    .iter()
                    .rev()
                    .take_while(|l| body::fn_body(db, f).local(**l).default.is_some())
                    .count()
                    .min(n)
            }
            // A template's trailing defaults too (`template <int M, class
            // S> bool is_major(S = {})` called as `is_major<1, S>()`).
            FnDecl::Template(_) => n
                .saturating_sub(if has_pack { 1 } else { 0 })
                .saturating_sub(crate::infer::param_defaults(db, f) as usize),
        };
        if args.len() < min || (args.len() > n && !has_pack && !data.ty.variadic) {
            return None;
        }
        // A class parameter takes an object of that class (or a derived one).
        if !templated {
            let scope = crate::instances::fn_scope(db, f).unwrap_or(scopes::ROOT);
            let cx = LowerCx { db, map: self.map, item: f.item(db), scope, env };
            for (a, pt) in args.iter().zip(&data.ty.params) {
                let CValue::Object(Some(at), _) = a else { continue };
                let TypeRef::Path(_) = strip_ref(pt) else { continue };
                let mut t = ty::canonical(db, ty::lower(cx, strip_ref(pt)));
                if let TyKind::Qualified(x, _) = t.kind(db) {
                    t = ty::canonical(db, *x);
                }
                if !matches!(t.kind(db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_)) {
                    continue;
                }
                let same = ty::canonical(db, *at) == t;
                let derived = || match (templates::class_of(db, *at), templates::class_of(db, t)) {
                    (Ok(d), Ok(b)) => super::traits::derives(db, d, b, 0),
                    _ => false,
                };
                if !same && !derived() {
                    return None;
                }
            }
        }
        // A template-id parameter (`X<T>`) takes only a class object, of a
        // specialization of X (or a class derived from one): `duration`'s
        // `operator<` is not `time_point`'s.
        if templated {
            for (a, pt) in args.iter().zip(&data.ty.params) {
                if let TypeRef::Path(p) = strip_ref(pt)
                    && p.segments.last().is_some_and(|s| s.args.is_some())
                {
                    let CValue::Object(Some(at), _) = a else { return None };
                    if let Some(x) = self.named_template(f, p)
                        && !self.specializes(*at, x, 0)
                    {
                        return None;
                    }
                }
            }
        }
        // Prefer a parameter list whose scalar kinds match; non-templates win ties.
        let mut score = if templated { 0 } else { 1 };
        for (a, pt) in args.iter().zip(&data.ty.params) {
            let want_float = matches!(strip_ref(pt), TypeRef::Builtin(b) if is_float(*b));
            let want_int = matches!(strip_ref(pt), TypeRef::Builtin(b) if super::is_integral(*b));
            match a {
                CValue::Float(..) if want_float => score += 4,
                CValue::Int(v) if want_int && matches!(strip_ref(pt), TypeRef::Builtin(b) if *b == v.ty) => score += 4,
                CValue::Int(_) if want_int => score += 2,
                CValue::Float(..) if want_int => score -= 1,
                CValue::Int(_) if want_float => score -= 1,
                _ => {}
            }
        }
        Some(score)
    }

    /// The class template a parameter's template-id names, looked up
    /// where `f` is declared.
    fn named_template(&self, f: FnDecl, p: &Path) -> Option<crate::ClassId> {
        let mut bare = p.clone();
        bare.segments.last_mut()?.args = None;
        match scopes::resolve_path(self.db, self.map, decl_scope(self.db, f), &bare, Ns::Type)? {
            Def::ClassTemplate(c) => Some(self.map.template_def.get(&c).copied().unwrap_or(c)),
            _ => None,
        }
    }

    /// Whether `t` is a specialization of the class template `x` or derives from one.
    fn specializes(&self, t: TyId, x: crate::ClassId, depth: u32) -> bool {
        let db = self.db;
        let canon = |c: crate::ClassId| self.map.template_def.get(&c).copied().unwrap_or(c);
        let Ok(c) = templates::class_of(db, t) else { return false };
        let own = match ty::canonical(db, t).kind(db) {
            TyKind::App(a) => Some(canon(a.template(db))),
            _ => None,
        };
        let pattern = canon(c.pattern(db));
        if own == Some(x)
            || pattern == x
            || self.map.specializations.get(&x).is_some_and(|v| v.contains(&c.pattern(db)) || v.contains(&pattern))
        {
            return true;
        }
        depth < 16
            && templates::class_bases_of(db, c).iter().filter_map(|b| b.ty).any(|b| self.specializes(b, x, depth + 1))
    }

    /// Calls `f` (its definition): binds the parameters, runs the body.
    /// Returns the result and the object `this` ended as.
    fn invoke(
        &mut self,
        f: FnDecl,
        outer_env: Option<Env>,
        args: Vec<CValue>,
        this: Option<CValue>,
    ) -> R<(CValue, Option<CValue>)> {
        let db = self.db;
        if calls_exhausted() {
            return Err(too_complex());
        }
        let (data, _) = fn_data(db, f).ok_or(ConstError::Cycle)?;
        if !data.linkage.is_constexpr {
            return Err(ConstError::NotConstant(format!("call to non-constexpr function `{}`", fn_name(&data))));
        }
        let (def, body) =
            definition(db, f).ok_or_else(|| ConstError::NotConstant(format!("`{}` is not defined", fn_name(&data))))?;
        let item = def.item(db);
        let scope = decl_scope(db, def);
        // Function templates: the environment deduced from the arguments.
        let mut env = outer_env;
        // Explicit arguments belong to this call only, not to the calls its body makes.
        let explicit = self.explicit.take();
        if let FnDecl::Template(t) = f {
            env = Some(self.deduce(t, env, &args, explicit.as_ref())?);
        }
        let text = item_text(db, item);
        let ret_env = env.clone();
        let (v, this) = self.run_body(body, text, item, scope, env, args, this)?;
        // The declared return type converts the result (unless deduced).
        let v = match &data.ty.ret {
            TypeRef::Opaque(_) => v,
            r => {
                let cx = LowerCx { db, map: self.map, item, scope, env: ret_env.as_ref() };
                let t = ty::canonical(db, ty::lower(cx, r));
                let class = |t: TyId| matches!(t.kind(db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_));
                match t.kind(db) {
                    TyKind::Builtin(_) | TyKind::Enum(_) => self.convert_to(v, t)?,
                    TyKind::Qualified(x, _) if matches!(x.kind(db), TyKind::Builtin(_)) => self.convert_to(v, t)?,
                    // `return {};` / `return {a, b};` / `return 3;` in a
                    // function returning a class: copy-list- or
                    // copy-initialization of the returned object (CuTe's
                    // `getv_cr` returns an empty `C<N>` as `{}`). An object
                    // keeps its fields (the copy or the slicing is the same
                    // value to the interpreter).
                    TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_)
                        if matches!(v, CValue::Array(_) | CValue::Int(_) | CValue::Float(..)) =>
                    {
                        self.convert_to(v, t)?
                    }
                    TyKind::Qualified(x, _)
                        if class(*x) && matches!(v, CValue::Array(_) | CValue::Int(_) | CValue::Float(..)) =>
                    {
                        self.convert_to(v, t)?
                    }
                    _ => v,
                }
            }
        };
        Ok((v, this))
    }

    /// Binds a function template's parameters, in order, to the explicit
    /// arguments of a call (a pack parameter takes the rest; a pack
    /// expansion argument contributes its elements).
    fn explicit_args(
        &self,
        t: FnTemplateId,
        tparams: &[crate::item_tree::TemplateParam],
        x: &Explicit,
    ) -> R<Vec<(String, TemplateArg)>> {
        let cx = LowerCx { db: self.db, map: self.map, item: x.item, scope: x.scope, env: x.env.as_ref() };
        let (args, _) = crate::infer::deduce_call::explicit_args(cx, FnDecl::Template(t), &x.written)
            .map_err(ConstError::unsupported)?;
        Ok(tparams.iter().zip(args).filter_map(|(p, a)| p.name.clone().map(|n| (n, a))).collect())
    }

    /// Deduces a function template's arguments from call arguments: a
    /// parameter declared `T`, `const T&`, `T&&`, `Ts...` binds the argument's type.
    fn deduce(&self, t: FnTemplateId, outer: Option<Env>, args: &[CValue], explicit: Option<&Explicit>) -> R<Env> {
        if let Some(env) = self.deduce_as_call(t, outer.clone(), args, explicit) {
            return Ok(env);
        }
        let db = self.db;
        let tree = item_tree_of(db, t.item(db));
        let data = tree.fn_templates.get(t.idx(db) as usize).ok_or(ConstError::Cycle)?;
        let mut env = outer.unwrap_or_default();
        let mut bound: Vec<(String, TemplateArg)> = match explicit {
            Some(x) => self.explicit_args(t, &data.tparams, x)?,
            None => Vec::new(),
        };
        for (i, pt) in data.f.ty.params.iter().enumerate() {
            let is_pack = data.f.pack_params.contains(&(i as u32));
            let TypeRef::Path(p) = strip_ref(pt) else { continue };
            // `X<A, B>` against an argument of a specialization of X: its arguments by position.
            if let Some(written) = p.segments.last().and_then(|s| s.args.as_ref()) {
                let Some(at) = args.get(i).and_then(|a| self.type_of(a)) else { continue };
                let given: Vec<TemplateArg> = match ty::canonical(db, at).kind(db) {
                    TyKind::App(app) => app.args(db).clone(),
                    TyKind::Inst(inst) => inst.args(db).clone(),
                    _ => continue,
                };
                for (w, g) in written.iter().zip(given) {
                    use crate::item_tree::{ConstExpr, TemplateArgRef as W};
                    let name = match w {
                        W::Type(TypeRef::Path(q)) | W::Expr(ConstExpr::Path(q))
                            if q.segments.len() == 1 && q.segments[0].args.is_none() =>
                        {
                            &q.segments[0].name
                        }
                        _ => continue,
                    };
                    if data.tparams.iter().any(|tp| tp.name.as_deref() == Some(name.as_str()))
                        && !bound.iter().any(|(n, _)| n == name)
                    {
                        bound.push((name.clone(), g));
                    }
                }
                continue;
            }
            if p.segments.len() != 1 {
                continue;
            }
            let name = &p.segments[0].name;
            if !data
                .tparams
                .iter()
                .any(|tp| tp.name.as_deref() == Some(name.as_str()) && tp.kind == TemplateParamKind::Type)
            {
                continue;
            }
            if bound.iter().any(|(n, _)| n == name) {
                continue;
            }
            if is_pack {
                let tys: Vec<TemplateArg> =
                    args[i.min(args.len())..].iter().filter_map(|a| self.type_of(a)).map(TemplateArg::Type).collect();
                bound.push((name.clone(), TemplateArg::Pack(tys)));
            } else if let Some(a) = args.get(i) {
                let Some(t) = self.type_of(a) else { continue };
                bound.push((name.clone(), TemplateArg::Type(t)));
            }
        }
        for tp in &data.tparams {
            let Some(n) = &tp.name else { continue };
            if !bound.iter().any(|(b, _)| b == n) {
                // A pack no function parameter deduces and no explicit
                // argument gives is empty ([temp.arg.explicit]/4: CuTe's
                // `size<int... Is>(a)` called as `size(x)`); anything else
                // undeduced (a default or unused) is dependent, failing only
                // if used.
                let a = if tp.pack && !crate::infer::packs::in_deduced_context(tp, &data.f) {
                    TemplateArg::Pack(Vec::new())
                } else {
                    TemplateArg::Dependent(n.clone())
                };
                bound.push((n.clone(), a));
            }
        }
        env.names.extend(bound);
        Ok(env)
    }

    /// Whether deducing `t` from `args` certainly fails by a substitution
    /// failure (every argument's type known; a gap of the model is no failure).
    fn deduction_fails(&self, t: FnTemplateId, outer: Option<Env>, args: &[CValue]) -> bool {
        matches!(self.deduce_typed(t, outer, args, self.explicit.as_ref()),
            Some(Err(e)) if e.is_substitution_failure())
    }

    /// The environment of a call of `t` with `args`, deduced as overload
    /// resolution deduces it (`infer::deduce_call`): through alias
    /// templates, nested template-ids and packs. `None` where an argument's
    /// type is unknown or deduction fails; `deduce` then binds what it can
    /// by position.
    fn deduce_as_call(
        &self,
        t: FnTemplateId,
        outer: Option<Env>,
        args: &[CValue],
        explicit: Option<&Explicit>,
    ) -> Option<Env> {
        self.deduce_typed(t, outer, args, explicit)?.ok()
    }

    /// `infer::deduce_call` on the arguments' types: `None` where one is
    /// unknown, else what deduction says (the deduction error's text).
    fn deduce_typed(
        &self,
        t: FnTemplateId,
        outer: Option<Env>,
        args: &[CValue],
        explicit: Option<&Explicit>,
    ) -> Option<Result<Env, crate::SemaError>> {
        let db = self.db;
        let args: Vec<crate::infer::Arg> =
            args.iter().map(|a| self.type_of(a).map(crate::infer::Arg::prvalue)).collect::<Option<_>>()?;
        let tree = item_tree_of(db, t.item(db));
        let data = tree.fn_templates.get(t.idx(db) as usize)?;
        let f = self.frame();
        let caller = match explicit {
            Some(x) => LowerCx { db, map: self.map, item: x.item, scope: x.scope, env: x.env.as_ref() },
            None => LowerCx { db, map: self.map, item: f.item, scope: f.scope, env: f.env.as_ref() },
        };
        let mut env = outer.unwrap_or_default();
        let targs = explicit.map(|x| &x.written[..]);
        let deduced = match crate::infer::deduce_call::deduce(caller, FnDecl::Template(t), &env, &data.f, targs, &args)
        {
            Ok(d) => d,
            Err(e) => return Some(Err(e)),
        };
        for (p, a) in data.tparams.iter().zip(deduced) {
            if let Some(n) = &p.name {
                env.names.push((n.clone(), a));
            }
        }
        Some(Ok(env))
    }

    /// Runs a function body in a new frame: the parameters bound to `args`
    /// (a trailing pack parameter takes the rest), member initializers of a
    /// constructor applied to `this`.
    #[allow(clippy::too_many_arguments)]
    fn run_body(
        &mut self,
        body: Arc<Body>,
        text: Arc<str>,
        item: ItemId,
        scope: ScopeIdx,
        env: Option<Env>,
        args: Vec<CValue>,
        this: Option<CValue>,
    ) -> R<(CValue, Option<CValue>)> {
        if calls_exhausted() {
            return Err(too_complex());
        }
        let mut locals = vec![CValue::Uninit; body.locals.len()];
        let mut args = args.into_iter();
        let nparams = body.params.len();
        let mut pending_defaults = Vec::new();
        for (k, l) in body.params.iter().enumerate() {
            let local = body.local(*l);
            if local.pack {
                locals[l.0 as usize] = CValue::Pack(args.by_ref().collect());
                continue;
            }
            match args.next() {
                Some(v) => locals[l.0 as usize] = v,
                None => pending_defaults.push(*l),
            }
            let _ = (k, nparams);
        }
        let outer_names = env.as_ref().map_or(0, |e| e.names.len());
        let env = self.bind_local_types(&body, item, scope, env);
        self.frames.push(Frame {
            outer_names,
            body: FrameBody::Shared(body.clone()),
            text,
            item,
            scope,
            env,
            locals,
            this,
            named: Vec::new(),
            pack_index: None,
        });
        let r = one_call_deeper(|| self.run_in_frame(&body, &pending_defaults));
        let frame = self.frames.pop().expect("frame");
        r.map(|v| (v, frame.this))
    }

    /// A body's typedefs and alias declarations bound by name, like
    /// template parameters (a type cufront cannot compute stays unknown),
    /// and its using-declarations.
    fn bind_local_types(&self, body: &Body, item: ItemId, scope: ScopeIdx, env: Option<Env>) -> Option<Env> {
        let usings = body.local_decls.iter().filter_map(|(_, d)| match d {
            crate::body::LocalDecl::Using(p) => Some(p.clone()),
            _ => None,
        });
        let usings: Vec<_> = usings.collect();
        let enums = body.local_decls.iter().filter_map(|(_, d)| match d {
            crate::body::LocalDecl::Enumerators(list) => Some(list),
            _ => None,
        });
        let enums: Vec<_> = enums.collect();
        if body.local_types.is_empty() && usings.is_empty() && enums.is_empty() {
            return env;
        }
        let db = self.db;
        let mut e = env.unwrap_or_default();
        // Block-scope using-declarations (`using cub::detail::is_one_of;`)
        // and enumerators are in effect for the whole body, as its aliases are.
        e.usings.extend(usings);
        for list in enums {
            let cx = LowerCx { db, map: self.map, item, scope, env: None };
            templates::bind_enumerators(cx, &mut e, list);
        }
        for (name, t) in &body.local_types {
            let cx = LowerCx { db, map: self.map, item, scope, env: Some(&e) };
            // `using _Prom = decltype(_Tp{} / _Up{});`: the operand typed
            // as the body's (`ty::lower` reads only namespace-scope
            // operands).
            let operand = match t {
                TypeRef::Opaque(text) if text.starts_with("decltype(") => {
                    crate::infer::alias_operand_decltype(cx, body, text)
                }
                _ => None,
            };
            let ty = ty::canonical(db, operand.unwrap_or_else(|| ty::lower(cx, t)));
            let arg = match ty.kind(db) {
                TyKind::Dependent(_) | TyKind::Error(_) => TemplateArg::Dependent(name.clone()),
                _ => TemplateArg::Type(ty),
            };
            e.names.push((name.clone(), arg));
        }
        Some(e)
    }

    fn run_in_frame(&mut self, body: &Body, defaults: &[LocalId]) -> R<CValue> {
        // Parameters: converted to their declared types; defaults evaluated.
        for (i, l) in body.params.clone().into_iter().enumerate() {
            let local = body.local(l).clone();
            if defaults.contains(&l) {
                let Some(d) = local.default else { return unsupported("missing argument") };
                let v = self.expr(d)?;
                self.frame_mut().locals[l.0 as usize] = v;
            }
            if local.pack {
                continue;
            }
            let t = self.lower_ty(&local.ty);
            let v = self.frame().locals[l.0 as usize].clone();
            let v = self.convert_to(v, t)?;
            self.frame_mut().locals[l.0 as usize] = v;
            let _ = i;
        }
        // Member initializers (constructors).
        for m in body.mem_inits.clone() {
            let args = self.args(&m.args)?;
            let name = m.name.last().unwrap_or("").to_string();
            let field_ty = self.field_type(&name);
            let is_field =
                matches!(&self.frame().this, Some(CValue::Object(_, f)) if f.iter().any(|(n, _)| *n == name));
            if is_field {
                let v = match (field_ty, args.len()) {
                    (Some(t), _) => self.convert_to(
                        if args.len() == 1 {
                            args.into_iter().next().unwrap_or(CValue::Void)
                        } else {
                            CValue::Array(args)
                        },
                        t,
                    )?,
                    (None, 1) => args.into_iter().next().unwrap_or(CValue::Void),
                    (None, _) => return unsupported(format!("initializer of member `{name}`")),
                };
                if let Some(CValue::Object(_, f)) = &mut self.frame_mut().this
                    && let Some(slot) = f.iter_mut().find(|(n, _)| *n == name)
                {
                    slot.1 = v;
                }
            } else {
                // A base class: construct it and take its fields.
                let t = self.lower_ty(&TypeRef::Path(m.name.clone()));
                let b = self.construct(t, args)?;
                if let (CValue::Object(_, bf), Some(CValue::Object(_, f))) = (b, &mut self.frame_mut().this) {
                    for (n, v) in bf {
                        if let Some(slot) = f.iter_mut().find(|(x, _)| *x == n) {
                            slot.1 = v;
                        }
                    }
                }
            }
        }
        match body.root {
            Some(root) => match self.stmt(root)? {
                Flow::Return(v) => Ok(v),
                _ => Ok(CValue::Void),
            },
            None => Ok(CValue::Void),
        }
    }

    /// The declared type of a field of `this`'s class.
    fn field_type(&self, name: &str) -> Option<TyId> {
        let Some(CValue::Object(Some(t), _)) = &self.frame().this else { return None };
        let c = templates::class_of(self.db, *t).ok()?;
        let l = crate::layout::layout_ref(self.db, c).ok()?;
        l.fields.iter().find(|f| f.name.as_deref() == Some(name)).map(|f| f.ty)
    }

    /// Constructs a value of type `t` from arguments: scalars convert, a
    /// class runs the constructor its arguments select, or is aggregate-
    /// or value-initialized when it has none.
    fn construct(&mut self, t: TyId, args: Vec<CValue>) -> R<CValue> {
        let db = self.db;
        let mut t = ty::canonical(db, t);
        if let TyKind::Qualified(x, _) = t.kind(db) {
            t = ty::canonical(db, *x);
        }
        match t.kind(db) {
            TyKind::Builtin(b) => {
                let b = *b;
                match args.len() {
                    0 => Ok(if is_float(b) { CValue::Float(0.0, b) } else { CValue::int(0, b) }),
                    _ => {
                        let v = args.into_iter().next().unwrap_or(CValue::Void);
                        self.convert_to(v, t)
                    }
                }
            }
            TyKind::Enum(_) => match args.into_iter().next() {
                Some(v) => self.convert_to(v, t),
                None => self.convert_to(CValue::int(0, Builtin::Int), t),
            },
            TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) => {
                let c = templates::class_of(db, t).map_err(ConstError::unsupported)?;
                // Copy: one argument of the same class.
                if args.len() == 1
                    && let CValue::Object(Some(at), f) = &args[0]
                    && ty::canonical(db, *at) == t
                {
                    return Ok(CValue::Object(Some(t), f.clone()));
                }
                let layout = crate::layout::layout_ref(db, c).map_err(|e| ConstError::Layout(e.to_string()))?;
                let mut fields: Vec<(String, CValue)> = Vec::new();
                collect_fields(db, c, &mut fields, 0);
                let _ = &layout;
                let obj = CValue::Object(Some(t), fields.clone());
                // Constructors.
                let pattern = c.pattern(db);
                let map = self.map;
                let ctors: Vec<FnDecl> = map
                    .class_scope
                    .get(&map.class_definition(pattern))
                    .and_then(|s| map.scope(*s).names.get(scopes::CTOR_KEY))
                    .map(|v| {
                        v.iter()
                            .filter_map(|d| match d {
                                Def::Fn(f) => Some(FnDecl::Fn(*f)),
                                Def::FnTemplate(t) => Some(FnDecl::Template(*t)),
                                _ => None,
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let env = match c {
                    ClassRefT::Inst(i) => templates::inst_env(db, i).ok(),
                    ClassRefT::Class(_) => None,
                };
                let class_name = item_tree_of(db, pattern.item(db))
                    .classes
                    .get(pattern.idx(db) as usize)
                    .and_then(|d| d.name.clone());
                let user: Vec<FnDecl> = ctors
                    .into_iter()
                    .filter(|f| fn_data(db, *f).is_some_and(|(d, _)| !is_copy_or_move(&d, class_name.as_deref())))
                    .collect();
                // `X() = default;` is constexpr when it can be ([dcl.fct.def.default]):
                // value-initialization below, not a call (CUTLASS's
                // `StageCountAutoCarveout<N>{}` beside an explicit `X(Int<N>)`).
                let defaulted_default = args.is_empty()
                    && user.iter().any(|f| fn_data(db, *f).is_some_and(|(d, _)| d.defaulted && d.ty.params.is_empty()));
                if !user.is_empty() && !defaulted_default {
                    let p = Path::single("constructor");
                    let (_, this) = self.call_overloads(&user, env, args, Some(obj), &p)?;
                    return this.ok_or(ConstError::Cycle);
                }
                // An aggregate (or value-initialization): fields in order.
                let mut with_init = Vec::new();
                fields_with_init(db, c, &mut with_init, 0);
                let mut args = args.into_iter();
                let mut out = Vec::new();
                for (n, _) in fields {
                    let v = match args.next() {
                        Some(v) => {
                            let ft = layout.fields.iter().find(|f| f.name.as_deref() == Some(n.as_str())).map(|f| f.ty);
                            match ft {
                                Some(ft) => self.convert_to(v, ft)?,
                                None => v,
                            }
                        }
                        // A default member initializer is not evaluated
                        // here: unknown rather than a wrong zero.
                        None if with_init.contains(&n) => return unsupported("default member initializer"),
                        None => {
                            let ft = layout.fields.iter().find(|f| f.name.as_deref() == Some(n.as_str())).map(|f| f.ty);
                            match ft {
                                Some(ft) => self.construct(ft, Vec::new()).unwrap_or(CValue::Uninit),
                                None => CValue::Uninit,
                            }
                        }
                    };
                    out.push((n, v));
                }
                Ok(CValue::Object(Some(t), out))
            }
            TyKind::Array(..) => Ok(CValue::Array(args)),
            TyKind::Dependent(s) => unsupported(format!("construction of dependent type {s}")),
            TyKind::Error(e) => Err(ConstError::Unresolved(e.clone())),
            k => unsupported(format!("construction of {k:?}")),
        }
    }

    // ---- builtins ----

    fn builtin(&mut self, name: &str, tys: &[TypeRef], args: &[ExprId]) -> R<CValue> {
        let trimmed = name.trim_start_matches('_').trim_end_matches('_');
        if tys.is_empty() || trimmed.starts_with("builtin") {
            let argv = self.args(args)?;
            let int = |i: usize| -> R<Value> {
                match argv.get(i) {
                    Some(CValue::Int(v)) => Ok(*v),
                    _ => unsupported(format!("{name} argument")),
                }
            };
            return match trimmed {
                "builtin_is_constant_evaluated" => Ok(CValue::boolean(true)),
                "builtin_expect" | "builtin_expect_with_probability" => {
                    argv.into_iter().next().ok_or(ConstError::Unsupported(name.into()))
                }
                "builtin_clz" | "builtin_clzl" | "builtin_clzll" | "builtin_ctz" | "builtin_ctzl" | "builtin_ctzll"
                | "builtin_popcount" | "builtin_popcountl" | "builtin_popcountll" => {
                    let bits = if trimmed.ends_with("ll") || trimmed.ends_with('l') { 64 } else { 32 };
                    let x = (int(0)?.v as u128) & ((1u128 << bits) - 1);
                    // EDG folds clz(0)/ctz(0) to the width (spec 50 §6.3).
                    let r = if trimmed.contains("clz") {
                        if x == 0 { bits } else { x.leading_zeros() as i128 - (128 - bits) }
                    } else if trimmed.contains("ctz") {
                        if x == 0 { bits } else { x.trailing_zeros() as i128 }
                    } else {
                        x.count_ones() as i128
                    };
                    Ok(CValue::int(r, Builtin::Int))
                }
                _ => unsupported(format!("builtin {name}")),
            };
        }
        let tys: Vec<TyId> = {
            let f = self.frame();
            let cx = LowerCx { db: self.db, map: self.map, item: f.item, scope: f.scope, env: f.env.as_ref() };
            super::traits::lower_trait_args_at(cx, tys, f.pack_index)
                .into_iter()
                .map(|t| ty::canonical(self.db, t))
                .collect()
        };
        let f = self.frame();
        let cx = LowerCx { db: self.db, map: self.map, item: f.item, scope: f.scope, env: f.env.as_ref() };
        match super::traits::eval_trait(cx, trimmed, &tys) {
            Ok(b) => Ok(CValue::boolean(b)),
            Err(e) => unsupported(e.to_string()),
        }
    }

    // ---- statements ----

    fn stmt(&mut self, s: StmtId) -> R<Flow> {
        self.step()?;
        let body = self.frame().body.clone();
        match body.stmt(s) {
            Stmt::Compound(v) => {
                for x in v {
                    match self.stmt(*x)? {
                        Flow::Normal => {}
                        f => return Ok(f),
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::Expr(e) => {
                self.expr(*e)?;
                Ok(Flow::Normal)
            }
            Stmt::Decl(ls) => {
                for l in ls {
                    let v = self.init_local(*l)?;
                    // A `constexpr` integral local is a constant in later
                    // template arguments (`constexpr auto length = …;`
                    // then `enable_sm90_simd_reduction<T, Op, length>()`),
                    // as inference binds it (`const_locals`).
                    let local = self.frame().body.local(*l).clone();
                    if local.is_constexpr
                        && let (Some(name), CValue::Int(i)) = (local.name, &v)
                    {
                        let t = ty::mk(self.db, TyKind::Builtin(i.ty));
                        self.frame_mut()
                            .env
                            .get_or_insert_with(Env::default)
                            .names
                            .push((name, TemplateArg::Value(i.v, t)));
                    }
                    self.frame_mut().locals[l.0 as usize] = v;
                }
                Ok(Flow::Normal)
            }
            // Checked where the function is defined, not when it runs.
            Stmt::StaticAssert(_) | Stmt::Other(_) | Stmt::Alias(_) | Stmt::NamespaceAlias(..) | Stmt::Null => {
                Ok(Flow::Normal)
            }
            Stmt::If { init, cond, then, els, .. } => {
                if let Some(i) = init
                    && let f @ (Flow::Return(_) | Flow::Break | Flow::Continue) = self.stmt(*i)?
                {
                    return Ok(f);
                }
                let c = self.cond(cond)?;
                if c {
                    self.stmt(*then)
                } else if let Some(e) = els {
                    self.stmt(*e)
                } else {
                    Ok(Flow::Normal)
                }
            }
            Stmt::While { cond, body: b } => {
                loop {
                    self.step()?;
                    if !self.cond(cond)? {
                        break;
                    }
                    match self.stmt(*b)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::Do { body: b, cond } => {
                loop {
                    self.step()?;
                    match self.stmt(*b)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    let c = self.expr(*cond)?;
                    if !self.truth(c)? {
                        break;
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::For { init, cond, step, body: b } => {
                if let Some(i) = init {
                    self.stmt(*i)?;
                }
                loop {
                    self.step()?;
                    if let Some(c) = cond
                        && !self.cond(c)?
                    {
                        break;
                    }
                    match self.stmt(*b)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    if let Some(e) = step {
                        self.expr(*e)?;
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.expr(*e)?,
                    None => CValue::Void,
                };
                Ok(Flow::Return(v))
            }
            Stmt::Break => Ok(Flow::Break),
            Stmt::Continue => Ok(Flow::Continue),
            Stmt::Switch { init, cond, body: b } => {
                if let Some(i) = init {
                    self.stmt(*i)?;
                }
                let v = match cond {
                    Cond::Expr(e) => self.expr(*e)?,
                    Cond::Decl(l) => {
                        let v = self.init_local(*l)?;
                        self.frame_mut().locals[l.0 as usize] = v.clone();
                        v
                    }
                };
                let CValue::Int(v) = v else { return unsupported("switch on a non-integer") };
                self.switch(*b, v.v)
            }
            Stmt::RangeFor { .. } => unsupported("range-based for"),
            Stmt::Goto(_) | Stmt::Label { .. } => unsupported("goto"),
            Stmt::Case { stmt, .. } | Stmt::Default(stmt) => self.stmt(*stmt),
            Stmt::Try { body: b, .. } => self.stmt(*b),
            Stmt::Asm(_) => Err(ConstError::NotConstant("asm".into())),
        }
    }

    /// Runs a switch body from the matching case (or default).
    fn switch(&mut self, b: StmtId, v: i128) -> R<Flow> {
        let body = self.frame().body.clone();
        let Stmt::Compound(stmts) = body.stmt(b) else { return unsupported("switch without a compound body") };
        let mut start = None;
        let mut default = None;
        for (i, s) in stmts.iter().enumerate() {
            let mut cur = *s;
            // Labels may nest: `case 1: case 2: stmt`.
            loop {
                match body.stmt(cur) {
                    Stmt::Case { value, stmt } => {
                        let cv = self.expr(*value)?;
                        if start.is_none() && matches!(cv, CValue::Int(c) if c.v == v) {
                            start = Some(i);
                        }
                        cur = *stmt;
                    }
                    Stmt::Default(stmt) => {
                        default.get_or_insert(i);
                        cur = *stmt;
                    }
                    _ => break,
                }
            }
        }
        let Some(from) = start.or(default) else { return Ok(Flow::Normal) };
        for s in &stmts[from..] {
            match self.stmt(*s)? {
                Flow::Normal => {}
                Flow::Break => return Ok(Flow::Normal),
                f => return Ok(f),
            }
        }
        Ok(Flow::Normal)
    }

    fn cond(&mut self, c: &Cond) -> R<bool> {
        match c {
            Cond::Expr(e) => {
                let v = self.expr(*e)?;
                self.truth(v)
            }
            Cond::Decl(l) => {
                let v = self.init_local(*l)?;
                self.frame_mut().locals[l.0 as usize] = v.clone();
                self.truth(v)
            }
        }
    }

    /// The initial value of a local: its initializer converted to its type.
    fn init_local(&mut self, l: LocalId) -> R<CValue> {
        let body = self.frame().body.clone();
        let local = body.local(l);
        if local.is_static {
            return Err(ConstError::NotConstant("static local in a constant expression".into()));
        }
        self.init_value(l)
    }

    /// The value a local's initializer gives it.
    fn init_value(&mut self, l: LocalId) -> R<CValue> {
        let body = self.frame().body.clone();
        let local = body.local(l);
        let t = self.lower_ty(&local.ty);
        let is_auto = matches!(t.kind(self.db), TyKind::Dependent(_)) || matches!(&local.ty, TypeRef::Opaque(_));
        match &local.init {
            Init::None => {
                if is_auto {
                    return unsupported("auto without initializer");
                }
                match t.kind(self.db) {
                    TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) => self.construct(t, Vec::new()),
                    _ => Ok(CValue::Uninit),
                }
            }
            Init::Assign(e) => {
                let v = self.expr(*e)?;
                if is_auto { Ok(v) } else { self.convert_to(v, t) }
            }
            Init::Paren(v) | Init::Brace(v) => {
                let args = self.args(v)?;
                if is_auto {
                    return args.into_iter().next().ok_or(ConstError::Unsupported("auto x{}".into()));
                }
                self.construct(t, args)
            }
        }
    }
}

#[derive(Clone, Debug)]
enum PlaceRoot {
    Local(LocalId),
    This,
}

#[derive(Clone, Debug)]
enum Sel {
    Field(String),
    Index(usize),
}

#[derive(Clone, Debug)]
struct Place {
    root: PlaceRoot,
    path: Vec<Sel>,
}

/// The fields of a class, its bases' first (by name; unnamed ones left out).
/// The names of the data members of `c` and its bases that have a default
/// member initializer.
fn fields_with_init(db: &dyn SourceDatabase, c: ClassRefT, out: &mut Vec<String>, depth: u32) {
    if depth > 32 {
        return;
    }
    for b in templates::class_bases_of(db, c).iter() {
        if let Some(bc) = b.class {
            fields_with_init(db, bc, out, depth + 1);
        }
    }
    let pattern = c.pattern(db);
    if let Some(d) = item_tree_of(db, pattern.item(db)).classes.get(pattern.idx(db) as usize) {
        out.extend(d.fields.iter().filter(|f| f.has_init).filter_map(|f| f.name.clone()));
    }
}

fn collect_fields(db: &dyn SourceDatabase, c: ClassRefT, out: &mut Vec<(String, CValue)>, depth: u32) {
    if depth > 32 {
        return;
    }
    for b in templates::class_bases_of(db, c).iter() {
        if let Some(bc) = b.class {
            collect_fields(db, bc, out, depth + 1);
        }
    }
    if let Ok(l) = crate::layout::layout_ref(db, c) {
        for f in &l.fields {
            if let Some(n) = &f.name
                && !out.iter().any(|(x, _)| x == n)
            {
                out.push((n.clone(), CValue::Uninit));
            }
        }
    }
}

/// The item tree data of a function or function template, and whether it is a template.
fn fn_data(db: &dyn SourceDatabase, f: FnDecl) -> Option<(crate::item_tree::FnData, bool)> {
    match f {
        FnDecl::Fn(f) => item_tree_of(db, f.item(db)).fns.get(f.idx(db) as usize).cloned().map(|d| (d, false)),
        FnDecl::Template(t) => {
            item_tree_of(db, t.item(db)).fn_templates.get(t.idx(db) as usize).map(|d| (d.f.clone(), true))
        }
    }
}

fn fn_name(d: &crate::item_tree::FnData) -> String {
    match &d.name {
        FnName::Ident(s) => s.clone(),
        n => format!("{n:?}"),
    }
}

/// A copy or move constructor: one parameter, a reference to the class
/// itself (its injected name); copies of objects are made directly.
fn is_copy_or_move(d: &crate::item_tree::FnData, class: Option<&str>) -> bool {
    d.ty.params.len() == 1
        && matches!(&d.ty.params[0], TypeRef::LRef(x) | TypeRef::RRef(x)
            if matches!(strip_cv(x), TypeRef::Path(p) if p.segments.last().is_some_and(|s| s.args.is_none() && Some(s.name.as_str()) == class)))
}

fn strip_cv(t: &TypeRef) -> &TypeRef {
    match t {
        TypeRef::Cv(x, _) => strip_cv(x),
        t => t,
    }
}

fn strip_ref(t: &TypeRef) -> &TypeRef {
    match t {
        TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) => strip_ref(x),
        t => t,
    }
}

/// The scope a function's body is read in.
fn decl_scope(db: &dyn SourceDatabase, f: FnDecl) -> ScopeIdx {
    crate::instances::fn_scope(db, f).unwrap_or(scopes::ROOT)
}

/// The definition of a function (itself, or its out-of-line definition) and its body.
fn definition(db: &dyn SourceDatabase, f: FnDecl) -> Option<(FnDecl, Arc<Body>)> {
    let def = crate::instances::fn_definition(db, f)?;
    let body = fn_decl_body(db, def)?;
    Some((def, body))
}

fn fn_decl_body(db: &dyn SourceDatabase, f: FnDecl) -> Option<Arc<Body>> {
    match f {
        FnDecl::Fn(f) => Some(body::fn_body(db, f)),
        FnDecl::Template(t) => template_def(db, t).body.clone(),
    }
}

/// A function template's definition as syntax gives it: its body (None:
/// declared only) and whether it is constrained (a requires-clause, or a
/// type-constraint on a parameter), which overload choice does not model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateDef {
    pub body: Option<Arc<Body>>,
    pub constrained: bool,
    /// Offset (in the item) of the declarator's name.
    pub at: Option<u32>,
}

/// The definition of a function template: its `FUNCTION_DEF` (or
/// declaration) found by name and rank among the item's function templates
/// of that name.
#[salsa::tracked(returns(clone))]
pub fn template_def(db: &dyn SourceDatabase, t: FnTemplateId) -> Arc<TemplateDef> {
    let none = || Arc::new(TemplateDef { body: None, constrained: false, at: None });
    let item = t.item(db);
    let tree = item_tree_of(db, item);
    let Some(data) = tree.fn_templates.get(t.idx(db) as usize) else { return none() };
    let name = scopes::fn_name_key(&data.f.name);
    let rank = tree.fn_templates[..t.idx(db) as usize].iter().filter(|x| x.f.name == data.f.name).count();
    let Some(src) = crate::item_source(db, item).as_ref().cloned() else { return none() };
    let root = SyntaxNode::new_root(src.green.clone());
    let mut k = 0;
    let mut walk = root.preorder();
    while let Some(ev) = walk.next() {
        let rowan::WalkEvent::Enter(n) = ev else { continue };
        match n.kind() {
            K::FUNCTION_BODY | K::LAZY_BODY | K::CTOR_INITIALIZER | K::FUNCTION_TRY_BLOCK => walk.skip_subtree(),
            K::FUNCTION_DEF | K::SIMPLE_DECL | K::MEMBER_DECL
                if n.parent().is_some_and(|p| p.kind() == K::TEMPLATE_DECL) =>
            {
                let d = su::declarators(&n).into_iter().find(su::is_function_declarator);
                if d.as_ref().and_then(|d| syntax_fn_key(&n, d)).as_deref() == Some(name.as_str()) {
                    if k == rank {
                        let head = n.parent().expect("checked");
                        let constrained = su::child(&head, K::REQUIRES_CLAUSE).is_some()
                            || su::child(&n, K::REQUIRES_CLAUSE).is_some()
                            || su::child(&head, K::TEMPLATE_PARAM_LIST).is_some_and(|l| {
                                l.children().filter(|p| p.kind() == K::TYPE_TEMPLATE_PARAM).any(|p| {
                                    p.children_with_tokens().find(|t| !t.kind().is_trivia()).is_some_and(|t| {
                                        t.kind() == K::NAME_REF
                                            || t.kind() == K::QUALIFIED_NAME
                                            || t.kind() == K::TEMPLATE_ID
                                    })
                                })
                            });
                        let body = (n.kind() == K::FUNCTION_DEF).then(|| Arc::new(body::lower_function(db, item, &n)));
                        let at = d.as_ref().and_then(crate::static_asserts::name_offset);
                        return Arc::new(TemplateDef { body, constrained, at });
                    }
                    k += 1;
                }
            }
            _ => {}
        }
    }
    none()
}

/// The name key (`scopes::fn_name_key`) of a function declarator: a
/// constructor is named after its class.
fn syntax_fn_key(decl: &SyntaxNode, d: &SyntaxNode) -> Option<String> {
    let inner = su::innermost(d);
    if let Some(op) = inner.descendants().find(|c| c.kind() == K::OPERATOR_NAME) {
        let toks: String =
            su::tokens(&op).filter(|t| t.kind() != K::OPERATOR_KW).map(|t| t.text().to_string()).collect();
        return Some(format!("operator{toks}"));
    }
    let n = su::declarator_name(d)?;
    let class = decl.ancestors().find(|a| a.kind() == K::CLASS_SPECIFIER);
    let class_name = class.and_then(|c| {
        let head = su::child(&c, K::CLASS_HEAD).unwrap_or(c);
        let nn = head.children().find(|x| matches!(x.kind(), K::NAME | K::QUALIFIED_NAME | K::TEMPLATE_ID))?;
        su::path_of(&nn)?.last().map(str::to_string)
    });
    if class_name.as_deref() == Some(n.as_str()) {
        return Some(scopes::CTOR_KEY.to_string());
    }
    Some(n)
}

/// The text of an item (what its bodies' ranges index).
#[salsa::tracked(returns(clone))]
pub fn item_text(db: &dyn SourceDatabase, item: ItemId) -> Arc<str> {
    match crate::item_source(db, item) {
        Some(src) => Arc::from(cufront_syntax::green::text(&src.green)),
        None => Arc::from(""),
    }
}

/// The initializer expression of the variable whose declarator is at `at`.
fn initializer_at(root: &SyntaxNode, at: u32) -> Option<SyntaxNode> {
    let tok = cufront_syntax::green::token_at(root, cufront_syntax::TextSize::from(at))?;
    let mut cur = tok.parent();
    while let Some(n) = cur {
        if n.kind() == K::INIT_DECLARATOR {
            if let Some(e) = su::child(&n, K::EQUAL_INITIALIZER) {
                return e.children().find(|c| su::is_expr(c.kind()));
            }
            if let Some(i) = su::child(&n, K::INITIALIZER) {
                return i
                    .children()
                    .find(|c| su::is_expr(c.kind()) || c.kind() == K::INIT_LIST || c.kind() == K::ARG_LIST);
            }
            return None;
        }
        cur = n.parent();
    }
    None
}

fn wider(a: Builtin, b: Builtin) -> Builtin {
    let rank = |x: Builtin| match x {
        Builtin::Float16 | Builtin::BF16 => 0,
        Builtin::Float | Builtin::Float32 => 1,
        Builtin::Double | Builtin::Float64 | Builtin::Float32x => 2,
        _ => 3,
    };
    if rank(a) >= rank(b) { a } else { b }
}

fn round_to(f: f64, b: Builtin) -> f64 {
    match b {
        Builtin::Float | Builtin::Float32 => f as f32 as f64,
        _ => f,
    }
}

fn int_to_f64(v: Value) -> f64 {
    v.v as f64
}

fn float_op(op: BinOp, x: f64, y: f64, t: Builtin) -> R<CValue> {
    let f = |v: f64| Ok(CValue::Float(round_to(v, t), t));
    match op {
        BinOp::Add => f(x + y),
        BinOp::Sub => f(x - y),
        BinOp::Mul => f(x * y),
        // EDG folds 1.0/0.0 to +inf (spec 50 §6.3).
        BinOp::Div => f(x / y),
        BinOp::Eq => Ok(CValue::boolean(x == y)),
        BinOp::Ne => Ok(CValue::boolean(x != y)),
        BinOp::Lt => Ok(CValue::boolean(x < y)),
        BinOp::Le => Ok(CValue::boolean(x <= y)),
        BinOp::Gt => Ok(CValue::boolean(x > y)),
        BinOp::Ge => Ok(CValue::boolean(x >= y)),
        BinOp::And => Ok(CValue::boolean(x != 0.0 && y != 0.0)),
        BinOp::Or => Ok(CValue::boolean(x != 0.0 || y != 0.0)),
        _ => unsupported("integer operator on floating-point operands"),
    }
}

/// A floating literal's value (decimal; hex floats too).
pub fn parse_float(text: &str) -> Option<f64> {
    let t = text.replace('\'', "");
    let t = t.trim_end_matches(['f', 'F', 'l', 'L', 'q', 'Q', 'w', 'W']);
    let t = t.strip_suffix("f16").or_else(|| t.strip_suffix("bf16")).unwrap_or(t);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        let (mant, exp) = h.split_once(['p', 'P'])?;
        let (ip, fp) = mant.split_once('.').unwrap_or((mant, ""));
        let mut v = 0f64;
        for c in ip.chars() {
            v = v * 16.0 + c.to_digit(16)? as f64;
        }
        let mut scale = 1.0 / 16.0;
        for c in fp.chars() {
            v += c.to_digit(16)? as f64 * scale;
            scale /= 16.0;
        }
        let e: i32 = exp.parse().ok()?;
        return Some(v * 2f64.powi(e));
    }
    t.parse().ok()
}
