//! Expression typing and call resolution over a `Body` (rust-analyzer's
//! `hir-ty` `InferenceResult`, adapted): the type and value category of
//! every expression, what every name and call resolves to (locals,
//! variables, enumerators, functions chosen by overload resolution with
//! template argument deduction), the implicit constructor and destructor
//! calls of locals and temporaries, and `required`: every function and
//! variable the body odr-uses, in first-use order (what the instantiation
//! closure follows).
//!
//! The owner is a function or an *instance* (a function template
//! specialization or a member of a class template specialization): types
//! written in the body are lowered in the definition's scope through the
//! instance's `Env`, so dependent expressions are typed only after
//! substitution. A templated body without an instance is not inferred.
//!
//! Errors are values: an expression that cannot be typed gets
//! `TyKind::Error`, a call that cannot be resolved `Callee::Unresolved`;
//! nothing panics. Overload resolution is an approximation of [over.match]
//! (viability by arity, ranks exact / promotion / conversion /
//! user-defined / ellipsis, reference-binding tie-breaks, non-template over
//! template, a crude "more specialized" by the number of bare parameter
//! types); deduction covers `T`, `T&`, `const T&`, forwarding `T&&`, `T*`,
//! `X<T…>`, arrays, function types and trailing packs.

use crate::consteval::is_integral as is_int;

mod constraint_vars;
pub(crate) mod constraints;
pub use constraint_vars::{class_constraint_var_uses, completion_var_uses, constraint_var_uses};
pub use constraints::constraints_satisfied;
pub(crate) use constraints::{spec_constraint_weight, spec_constraints_satisfied};
mod requires;
pub(crate) use requires::requires_satisfied;
mod noexcept;
pub(crate) use noexcept::noexcept_operand;
mod conversions;
mod decltype;
mod decltype_body;
mod friends;
mod local_decls;
pub use decltype::decltype_text;
pub(crate) use decltype_body::{alias_operand_decltype, call_target, operand_body_for, unevaluated_operand_type};
mod aggregate;
mod aliases;
mod bindings;
mod cast_call;
mod const_cond;
mod const_locals;
mod constructible;
pub(crate) mod deduce_call;
mod explicit_inst;
pub use explicit_inst::explicit_instances;
mod deduce_conv;
mod default_args;
mod enum_operands;
mod init_list;
mod non_deduced;
mod nttp_sfinae;
mod object_param;
pub(crate) mod packs;
mod partial_order;
pub(crate) use constructible::class_constructible;
mod assignable;
mod defaulted_assign;
mod nsdmi;
pub(crate) use assignable::class_assignable;
pub use defaulted_assign::implicit_assign_required;
pub use nsdmi::{field_init_bodies, field_init_required};
mod trivially;
use std::cell::RefCell;
use std::sync::Arc;
pub(crate) use trivially::{class_trivially_assignable, class_trivially_constructible};

use cufront_base_db::SourceDatabase;
use rustc_hash::FxHashMap;

use crate::body::{self, Body, Cond, Expr, ExprId, Init, Literal, LocalId, Stmt, StmtId, UnaryOp};
use crate::instances::{self, FnDecl, FnInstanceId};
use crate::item_tree::{
    Builtin, Cv, FnName, Path, PathSegment, TemplateArgRef, TemplateParam, TemplateParamKind, TypeRef,
};
use crate::scopes::{self, DeclKey, Def, DefMap, Ns, ScopeIdx, ScopeKind, def_map};
use crate::templates::{self, ClassRefT, Env, InstId, TemplateArg, TemplateRef};
use crate::ty::{self, FnSig, LowerCx, TyId, TyKind, canonical, mk};
use crate::{Entity, FnId, ItemId, VarId, item_tree_of};

thread_local! {
    /// The variables and data members whose declared types are being
    /// lowered on this thread (`Infer::var_ty`, `Infer::field_decl`),
    /// innermost last: the cycle guard (as `templates::nested` keeps the
    /// instantiation depth). Empty again whenever no lowering is under way,
    /// so no query's answer depends on another's.
    static DECLARED_TYS_UNDER_WAY: RefCell<Vec<Declared>> = const { RefCell::new(Vec::new()) };
}

/// A declaration whose written type is being lowered.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Declared {
    Var(VarId),
    /// A class (or specialization) and the index of its data member.
    Field(ClassRefT, usize),
}

/// Runs `f`, the lowering of `d`'s declared type, unless that lowering is
/// already under way on this thread: `decltype(a) a;` (with `a` found
/// again, or by declarations that name each other) is a type that depends
/// on itself, an error found on the way in. Without the guard each level
/// retried its operand (short reader, then the full inference) down to the
/// depth limit: time exponential in that limit.
fn lowering_declared<T>(d: Declared, f: impl FnOnce() -> T) -> Option<T> {
    if DECLARED_TYS_UNDER_WAY.with(|u| u.borrow().contains(&d)) {
        return None;
    }
    // Popped on every way out, unwinding included (a stale entry would
    // make later lowerings fail).
    Some(crate::guard::with_pushed(&DECLARED_TYS_UNDER_WAY, d, f))
}

mod auto_ret;
mod certain_deduction;
mod closure;
mod ctad;
mod ext_lambda;
pub use ext_lambda::{ExtLambda, ExtLambdaKind, extended_lambda_of};
mod fold;
mod folded;
pub use folded::folded_calls;
mod rewritten;
pub mod var_init;
pub(crate) use closure::closure_shape;
pub use closure::{
    ClosureFnId, ClosureFnKind, ClosureId, closure_declared_params, closure_fn_sig, closure_variadic,
    closure_written_ret, lambda_index, lambda_predecessors, owner_body, owner_tu,
};

/// What `infer` runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, salsa::Supertype)]
pub enum InferOwner {
    /// A function that is not templated.
    Fn(FnId),
    /// A function template specialization or a member of a class template specialization.
    Inst(FnInstanceId),
    /// The `operator()` of a closure (`infer/closure.rs`).
    Closure(ClosureFnId),
    /// The initialization of a variable the unit defines (`infer/var_init.rs`).
    Var(VarId),
    /// The initialization of a variable template specialization or a
    /// static data member of a class template specialization.
    VarInst(instances::VarInstanceId),
}

/// lvalue, xvalue or prvalue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    LValue,
    XValue,
    PRValue,
}

/// What a function call (or an implicit one) resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    Entity(Entity),
    /// A builtin operator, a call through a pointer or closure, a pseudo-destructor.
    Builtin,
    Unresolved(Unresolved),
}

/// Why a call has no callee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// Overload resolution selected this deleted function: the call is
    /// ill-formed ([dcl.fct.def.delete]/2), as the program wrote it.
    Deleted(Entity),
    /// The model could not resolve the call. The text says why for people
    /// (probes, test output); nothing branches on it.
    Unknown(String),
}

impl From<String> for Unresolved {
    fn from(why: String) -> Unresolved {
        Unresolved::Unknown(why)
    }
}

impl From<&str> for Unresolved {
    fn from(why: &str) -> Unresolved {
        Unresolved::Unknown(why.to_string())
    }
}

impl std::fmt::Display for Unresolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unresolved::Deleted(_) => f.write_str("call of a deleted function"),
            Unresolved::Unknown(why) => f.write_str(why),
        }
    }
}

/// What a name (or member name) denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    Local(LocalId),
    Entity(Entity),
    Enumerator,
    /// A non-static data member.
    Field,
    /// A non-type template argument.
    TemplateValue,
    Type(TyId),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InferenceResult {
    /// The type of each expression (references stripped: see `categories`).
    pub expr_tys: Vec<Option<TyId>>,
    pub categories: Vec<Category>,
    /// The type of each local (after `auto` deduction).
    pub local_tys: Vec<Option<TyId>>,
    pub resolutions: FxHashMap<ExprId, Resolution>,
    /// Calls: explicit (call expressions, operators, `new`/`delete`) and
    /// implicit (constructors of declarations and temporaries), by the
    /// expression or local they belong to, in the order met.
    pub calls: Vec<(CallSite, Callee)>,
    /// Every function and variable the body odr-uses, first use first.
    pub required: Vec<Entity>,
    /// Why the owner was not inferred, if it was not.
    pub skipped: Option<String>,
    /// The locals visible at each lambda expression (what its body sees).
    pub lambda_scopes: FxHashMap<ExprId, Vec<(String, LocalId)>>,
    /// The `Env` at each lambda expression, where block-scope aliases
    /// precede it (`closure::lambda_env`).
    pub lambda_envs: FxHashMap<ExprId, Env>,
    /// The deduced return type of each non-generic lambda without a
    /// trailing return type (walked in place).
    pub closure_rets: FxHashMap<ExprId, TyId>,
    /// What cudafe++'s wrapper type of each extended lambda is made of, in
    /// both views (the host's lambda has the wrapper's type; the device's
    /// keeps its closure type, and the stub spells the wrapper).
    pub ext_lambdas: FxHashMap<ExprId, ExtLambda>,
    /// The type of the owner's first `return` with a value (what `auto`
    /// return type deduction starts from).
    pub returned: Option<TyId>,
    /// That `return`'s value category, and the declared type of what it
    /// names when it is an id-expression (a local or a variable): what
    /// `decltype(auto)` and `auto&&` return types read.
    pub returned_cat: Option<(Category, Option<TyId>)>,
    /// Variable template specializations that inferring the body
    /// instantiated (checking the constraints of candidates, selected or
    /// not, requires-expressions, traits) and that g++ emits unasked
    /// (`infer/constraint_vars.rs`).
    pub instantiated_vars: Vec<Entity>,
    /// Elements of aggregate braced lists whose designation breaks EDG's
    /// rules (`infer/aggregate.rs`), in the order met: the `Designated`
    /// element, or for `Mixed` the value EDG points at.
    pub designation_errors: Vec<(ExprId, DesignationError)>,
    /// The constructors `std::initializer_list<E>::initializer_list(const
    /// E*, size_t)` of the lists the body makes from braced lists (a
    /// range-for over `{a, b}`, an initializer-list constructor or
    /// parameter): EDG calls it, cicc's device listing keeps it; g++ builds
    /// the object in place, so it is not in `required`.
    pub init_list_ctors: Vec<Entity>,
}

/// What is wrong with a designated element of an aggregate's braced list
/// (C++20's rules, which EDG applies in every mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DesignationError {
    /// `{.b = 1, .a = 2}`: a member before one already initialized
    /// (2904, at the designator's name).
    OutOfOrder,
    /// `{.a = 1, .a = 2}`, or a second designator in a union's list (2906,
    /// at the name).
    Duplicate,
    /// `{.a = 1, 2}`, `{1, .b = 2}`: designated and plain elements mixed
    /// (2903, at the value of the first element unlike the first one).
    Mixed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallSite {
    Expr(ExprId),
    /// The initialization or destruction of a local.
    Local(LocalId),
    /// A member initializer (index) of a constructor, or a base/member's implicit one.
    MemInit(u32),
    /// The owner itself (implicit member destructors of a destructor).
    Owner,
}

impl InferenceResult {
    pub fn ty(&self, e: ExprId) -> Option<TyId> {
        self.expr_tys.get(e.0 as usize).copied().flatten()
    }
}

/// Infers a body. Cached per owner.
#[salsa::tracked(returns(clone), cycle_result = infer_cycle)]
pub fn infer(db: &dyn SourceDatabase, owner: InferOwner) -> Arc<InferenceResult> {
    let (mut r, uses) = crate::consteval::var_template::recording(|| infer_owner(db, owner));
    r.instantiated_vars = constraint_vars::emitted_uses(db, &uses);
    Arc::new(r)
}

/// A body whose inference needs itself (a generic lambda handed to itself
/// and called: its return type depends on its own inference).
fn infer_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _owner: InferOwner) -> Arc<InferenceResult> {
    Arc::new(InferenceResult { skipped: Some("inference cycle".into()), ..Default::default() })
}

/// Where a body is read: the definition, its scope, item and environment.
struct OwnerInfo {
    body: Arc<Body>,
    item: ItemId,
    scope: ScopeIdx,
    env: Option<Env>,
    /// The class of a member function (the instance for members of specializations).
    class: Option<ClassRefT>,
    is_static: bool,
    method_cv: Cv,
    name: FnName,
    /// The signature (return type for `auto` deduction is not attempted).
    ret: Option<TyId>,
}

/// The owner's info as the lambda of closure `c` sees it: its `Env`
/// with the block-scope aliases declared before the lambda expression
/// (`using KV = Pair<int, float>;` then `[](const KV& a, …)`).
fn closure_site_info(db: &dyn SourceDatabase, c: closure::ClosureId) -> Result<OwnerInfo, crate::SemaError> {
    let mut info = owner_info(db, c.owner(db))?;
    if let Some(env) = closure::lambda_env(db, c) {
        info.env = Some(env);
    }
    Ok(info)
}

fn owner_info(db: &dyn SourceDatabase, owner: InferOwner) -> Result<OwnerInfo, crate::SemaError> {
    let (decl, outer, inst) = match owner {
        InferOwner::Fn(f) => (FnDecl::Fn(f), None, None),
        InferOwner::Inst(i) => (i.decl(db), i.outer(db), Some(i)),
        // A closure's body is read where its owner's is.
        InferOwner::Closure(f) => return closure_site_info(db, f.closure(db)).map(|i| OwnerInfo { ret: None, ..i }),
        InferOwner::Var(_) | InferOwner::VarInst(_) => return var_init::var_owner_info(db, owner),
    };
    let def = match inst {
        Some(i) => instances::inst_definition(db, i),
        None => instances::fn_definition(db, decl),
    }
    .ok_or("no definition in the unit")?;
    let data = def.data(db).ok_or("no such function")?;
    let map = def_map(db, decl.tu(db));
    let scope = instances::fn_scope(db, def).ok_or("unresolved qualifier")?;
    let env = match inst {
        Some(i) => Some(instances::instance_env(db, i)?),
        None => {
            if map.templated.contains(&scope) || !data.outer_tparams.is_empty() || matches!(def, FnDecl::Template(_)) {
                return Err("templated (inferred per instance)".into());
            }
            None
        }
    };
    let body = decl_body(db, def);
    let class = match map.scope(scope).kind {
        ScopeKind::Class(c) => Some(match outer {
            Some(o) => ClassRefT::Inst(o),
            None => ClassRefT::Class(map.class_definition(c)),
        }),
        _ => None,
    };
    // A body that defines classes is read in its block scope (they are
    // found from it; in an instance, with the function's own arguments).
    let (scope, env) = match map.blocks.get(&def) {
        Some(&b) => {
            let env = env.map(|mut e| {
                e.scopes.push(b);
                if let Some(i) = inst.filter(|_| matches!(def, FnDecl::Template(_))) {
                    e.args.extend(i.args(db).iter().cloned());
                }
                e
            });
            (b, env)
        }
        None => (scope, env),
    };
    let ret = match inst {
        Some(i) => instances::signature(db, i).ok().map(|s| s.ret),
        None => instances::signature(db, instances::fn_instance(db, decl, None, Vec::new())).ok().map(|s| s.ret),
    };
    Ok(OwnerInfo {
        body,
        item: def.item(db),
        scope,
        env,
        class,
        // A hidden friend has its class's scope but no `this`.
        is_static: data.linkage.is_static || data.friend,
        method_cv: data.ty.cv,
        name: data.name.clone(),
        ret,
    })
}

/// The body of a function or function template declaration.
pub fn decl_body(db: &dyn SourceDatabase, d: FnDecl) -> Arc<Body> {
    match d {
        FnDecl::Fn(f) => body::fn_body(db, f),
        FnDecl::Template(t) => fn_template_body(db, t),
    }
}

/// The body of a function template (found like `fn_body`, through the
/// offsets of the item's function templates).
#[salsa::tracked(returns(clone))]
pub fn fn_template_body(db: &dyn SourceDatabase, t: crate::FnTemplateId) -> Arc<Body> {
    let item = t.item(db);
    let offs = crate::item_offsets(db, item);
    match offs.fn_templates.get(t.idx(db) as usize) {
        Some(&at) => Arc::new(body::body_at(db, item, at).unwrap_or_default()),
        None => Arc::default(),
    }
}

fn infer_owner(db: &dyn SourceDatabase, owner: InferOwner) -> InferenceResult {
    infer_owner_until(db, owner, None)
}

/// `infer_owner`, stopped at the lambda expression `stop` if it has one
/// (`closure::lambda_site`).
fn infer_owner_until(db: &dyn SourceDatabase, owner: InferOwner, stop: Option<ExprId>) -> InferenceResult {
    let info = match owner_info(db, owner) {
        Ok(i) => i,
        Err(e) => return InferenceResult { skipped: Some(e.to_string()), ..Default::default() },
    };
    if let InferOwner::Closure(f) = owner {
        return closure::infer_closure(db, f, info, stop);
    }
    let tu = info.item.tu(db);
    let map = def_map(db, tu);
    let body = info.body.clone();
    let mut cx = new_infer(db, &map, &body, &info, Some(owner));
    cx.stop_at = stop;
    for &p in &body.params {
        let t = cx.local_declared_ty(p, None);
        cx.res.local_tys[p.0 as usize] = Some(t);
        cx.bind_local(p);
    }
    for p in body.params.clone() {
        if let Some(d) = body.local(p).default {
            cx.expr(d);
        }
    }
    // Defaults written on the declaration the definition is not.
    let decl = match owner {
        InferOwner::Fn(f) => Some(FnDecl::Fn(f)),
        InferOwner::Inst(i) => Some(i.decl(db)),
        InferOwner::Closure(_) | InferOwner::Var(_) | InferOwner::VarInst(_) => None,
    };
    if let Some(dbody) = decl.and_then(|d| default_args::declared_defaults(db, d)) {
        let mut dcx = new_infer(db, &map, &dbody, &info, Some(owner));
        for &p in &dbody.params {
            let t = dcx.local_declared_ty(p, None);
            dcx.res.local_tys[p.0 as usize] = Some(t);
            dcx.bind_local(p);
        }
        for &p in &dbody.params {
            if let Some(d) = dbody.local(p).default {
                dcx.expr(d);
            }
        }
        for e in std::mem::take(&mut dcx.res.required) {
            cx.require(e);
        }
    }
    // Constructors: member initializers, then the implicit ones.
    if matches!(info.name, FnName::Ctor) {
        cx.ctor_inits();
    }
    if let Some(r) = body.root {
        cx.stmt(r);
    }
    if let Some(e) = body.root_expr {
        cx.expr(e);
    }
    if matches!(owner, InferOwner::Var(_) | InferOwner::VarInst(_)) {
        cx.destroy_at_exit();
    }
    if matches!(info.name, FnName::Dtor) {
        cx.dtor_members();
    }
    if body.defaulted && matches!(&info.name, FnName::Operator(o) if o == "=") {
        cx.defaulted_assign();
    }
    cx.res
}

fn new_infer<'a>(
    db: &'a dyn SourceDatabase,
    map: &'a DefMap,
    body: &'a Body,
    info: &OwnerInfo,
    owner: Option<InferOwner>,
) -> Infer<'a> {
    Infer {
        db,
        map,
        body,
        item: info.item,
        scope: info.scope,
        env: info.env.clone(),
        class: info.class,
        this_cv: info.method_cv,
        has_this: info.class.is_some() && !info.is_static,
        ret: info.ret,
        res: InferenceResult {
            expr_tys: vec![None; body.exprs.len()],
            categories: vec![Category::PRValue; body.exprs.len()],
            local_tys: vec![None; body.locals.len()],
            ..Default::default()
        },
        scopes: vec![Vec::new()],
        seen: Default::default(),
        depth: 0,
        implicit_depth: 0,
        owner,
        returns: Vec::new(),
        ns_aliases: Vec::new(),
        local_names: Default::default(),
        stop_at: None,
        const_locals: Vec::new(),
        lambda_packs: Vec::new(),
    }
}

struct Infer<'a> {
    db: &'a dyn SourceDatabase,
    map: &'a DefMap,
    body: &'a Body,
    item: ItemId,
    scope: ScopeIdx,
    env: Option<Env>,
    class: Option<ClassRefT>,
    this_cv: Cv,
    has_this: bool,
    ret: Option<TyId>,
    res: InferenceResult,
    /// Block scopes: the locals visible, innermost last.
    scopes: Vec<Vec<(String, LocalId)>>,
    seen: rustc_hash::FxHashSet<Entity>,
    depth: u32,
    /// Nesting of implicit conversions being resolved.
    implicit_depth: u32,
    /// Block-scope using-declarations and using-directives.
    local_names: local_decls::LocalNames,
    /// What is inferred (none: a type-level query such as `sizeof_call`).
    owner: Option<InferOwner>,
    /// The first returned type of each lambda body being walked, innermost last.
    returns: Vec<Option<TyId>>,
    /// Block-scope namespace aliases seen so far (`namespace rv = std::views;`).
    ns_aliases: Vec<(String, Path)>,
    /// Stop at this lambda expression (`closure::lambda_site`): what its
    /// body sees is known there, and what follows may need the closure.
    stop_at: Option<ExprId>,
    /// Values of the block-scope variables usable in constant expressions seen so far.
    const_locals: Vec<(LocalId, crate::consteval::interp::CValue)>,
    /// A generic lambda's `auto...` parameter packs (its `operator()`'s
    /// inference): each with its type as written, `auto` named as the
    /// invented pack parameter the `Env` binds (`closure::bind_lambda_packs`).
    lambda_packs: Vec<(LocalId, TypeRef)>,
}

/// A candidate function: its declaration and the specialization it is a member of.
type Cand = (FnDecl, Option<InstId>);

/// An argument as overload resolution sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arg {
    ty: TyId,
    cat: Category,
    /// A literal `0` / `nullptr`-like null pointer constant.
    null: bool,
    /// A braced list (converts to classes and aggregates).
    braced: bool,
}

impl Arg {
    /// A value of type `ty` (what the constant interpreter passes).
    pub(crate) fn prvalue(ty: TyId) -> Arg {
        Arg { ty, cat: Category::PRValue, null: false, braced: false }
    }
}

/// What a name in value position denotes.
enum Value {
    Local(LocalId),
    Var(Entity, TyId),
    /// A data member of the enclosing class: its type, and whether `mutable`.
    Field(TyId, bool),
    Enumerator(TyId),
    TemplateValue(TyId),
    Fns(Vec<Cand>, Option<Vec<TemplateArgRef>>),
    Type(TyId),
    /// The name denotes nothing the model knows (why; a substitution
    /// failure when the name is a member that does not exist).
    Unknown(crate::SemaError),
}

const MAX_EXPR_DEPTH: u32 = 300;

impl<'a> Infer<'a> {
    fn lcx(&self) -> LowerCx<'_> {
        LowerCx { db: self.db, map: self.map, item: self.item, scope: self.scope, env: self.env.as_ref() }
    }

    fn error(&self, why: impl Into<crate::SemaError>) -> TyId {
        mk(self.db, TyKind::Error(why.into()))
    }

    fn builtin(&self, b: Builtin) -> TyId {
        mk(self.db, TyKind::Builtin(b))
    }

    fn lower(&self, t: &TypeRef) -> TyId {
        templates::nested(|| Ok(ty::lower(self.lcx(), t))).unwrap_or_else(|e| self.error(e))
    }

    fn require(&mut self, e: Entity) {
        if self.seen.insert(e) {
            // Selecting a function instantiates its `noexcept(expr)`: what
            // that evaluates counts as this body's (`instantiated_vars`).
            if let Entity::FnInst(i) = e {
                crate::consteval::var_template::record_uses(&constraint_vars::noexcept_var_uses(self.db, i));
            }
            self.res.required.push(e);
        }
    }

    fn entity_of(&self, c: Cand, args: Vec<TemplateArg>) -> Entity {
        match (c, args.is_empty()) {
            ((FnDecl::Fn(f), None), true) => Entity::Fn(f),
            ((d, outer), _) => Entity::FnInst(instances::fn_instance(self.db, d, outer, args)),
        }
    }

    fn set(&mut self, e: ExprId, t: TyId, cat: Category) -> TyId {
        if let Some(slot) = self.res.expr_tys.get_mut(e.0 as usize) {
            *slot = Some(t);
        }
        if let Some(slot) = self.res.categories.get_mut(e.0 as usize) {
            *slot = cat;
        }
        t
    }

    /// The type of an expression of declared type `t` (references stripped) and its category.
    fn of_declared(&self, t: TyId) -> (TyId, Category) {
        let c = collapse(self.db, canonical(self.db, t));
        match c.kind(self.db) {
            TyKind::LRef(x) => (*x, Category::LValue),
            // A named rvalue reference is an lvalue ([expr.prim.id.unqual]/3):
            // `forward<T>(t)` binds its `remove_reference_t<T>&` parameter.
            TyKind::RRef(x) => (*x, Category::LValue),
            _ => (t, Category::LValue),
        }
    }

    /// The type and category of a call returning `t`.
    fn of_return(&self, t: TyId) -> (TyId, Category) {
        let c = collapse(self.db, canonical(self.db, t));
        match c.kind(self.db) {
            TyKind::LRef(x) => (*x, Category::LValue),
            TyKind::RRef(x) => (*x, Category::XValue),
            _ => (t, Category::PRValue),
        }
    }

    fn bind_local(&mut self, l: LocalId) {
        if let Some(n) = &self.body.local(l).name {
            if let Some(s) = self.scopes.last_mut() {
                s.push((n.clone(), l));
            }
            // `decltype(x)` of a local in a type written later in the body
            // (CUB's `ThreadReduce<decltype(array), …>`, `Prep<decltype(l)>
            // p(l);` with a local lambda): its declared type, found by
            // `ty::lower` under that text, in any body, templated or not.
            if let Some(t) = self.res.local_tys.get(l.0 as usize).copied().flatten() {
                let c = canonical(self.db, t);
                if !ty_has_placeholder(self.db, c, 0) && !matches!(c.kind(self.db), TyKind::Dependent(_)) {
                    self.env
                        .get_or_insert_with(Env::default)
                        .names
                        .push((format!("decltype({n})"), TemplateArg::Type(t)));
                }
            }
        }
    }

    fn find_local(&self, name: &str) -> Option<LocalId> {
        for s in self.scopes.iter().rev() {
            if let Some((_, l)) = s.iter().rev().find(|(n, _)| n == name) {
                return Some(*l);
            }
        }
        None
    }

    // ---- statements

    fn block<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        self.scopes.push(Vec::new());
        let aliases = self.alias_mark();
        let r = f(self);
        self.alias_release(aliases);
        // Locals of class type are destroyed at the end of their block.
        if let Some(locals) = self.scopes.pop() {
            for (_, l) in locals.into_iter().rev() {
                if self.body.local(l).is_static {
                    // Local statics: destroyed at exit (still a use of the destructor).
                }
                if let Some(t) = self.res.local_tys[l.0 as usize]
                    && !matches!(canonical(self.db, t).kind(self.db), TyKind::LRef(_) | TyKind::RRef(_))
                {
                    self.destroy(CallSite::Local(l), t);
                }
            }
        }
        r
    }

    fn stmt(&mut self, s: StmtId) {
        if self.depth > MAX_EXPR_DEPTH {
            return;
        }
        self.depth += 1;
        self.stmt_inner(s);
        self.depth -= 1;
    }

    fn stmt_inner(&mut self, s: StmtId) {
        let body = self.body;
        match body.stmt(s).clone() {
            Stmt::Compound(ss) => self.block(|cx| {
                for x in ss {
                    cx.stmt(x);
                }
            }),
            Stmt::Expr(e) | Stmt::StaticAssert(e) => {
                self.expr(e);
            }
            Stmt::Decl(ls) => {
                for l in ls {
                    self.local(l);
                }
            }
            Stmt::Alias(aliases) => self.local_aliases(&aliases),
            Stmt::NamespaceAlias(n, p) => self.ns_aliases.push((n, p)),
            Stmt::Other(_) => self.local_decl_stmt(s),
            Stmt::Null | Stmt::Break | Stmt::Continue | Stmt::Goto(_) => {}
            Stmt::If { init, cond, then, els, constexpr } => self.block(|cx| {
                if let Some(i) = init {
                    cx.stmt(i);
                }
                let c = cx.cond(&cond);
                if constexpr {
                    // Only the branch the condition selects is instantiated.
                    if let Some(v) = c.and_then(|e| cx.const_bool(e).or_else(|| cx.const_bool_interp(e))) {
                        if v {
                            cx.stmt(then);
                        } else if let Some(e) = els {
                            cx.stmt(e);
                        }
                        return;
                    }
                }
                cx.block(|cx| cx.stmt(then));
                if let Some(e) = els {
                    cx.block(|cx| cx.stmt(e));
                }
            }),
            Stmt::Switch { init, cond, body } => self.block(|cx| {
                if let Some(i) = init {
                    cx.stmt(i);
                }
                cx.cond(&cond);
                cx.stmt(body);
            }),
            Stmt::While { cond, body } => self.block(|cx| {
                cx.cond(&cond);
                cx.stmt(body);
            }),
            Stmt::Do { body, cond } => {
                self.block(|cx| cx.stmt(body));
                self.expr(cond);
            }
            Stmt::For { init, cond, step, body } => self.block(|cx| {
                if let Some(i) = init {
                    cx.stmt(i);
                }
                if let Some(c) = &cond {
                    cx.cond(c);
                }
                if let Some(s) = step {
                    cx.expr(s);
                }
                cx.block(|cx| cx.stmt(body));
            }),
            Stmt::RangeFor { init, var, range, body } => self.block(|cx| {
                if let Some(i) = init {
                    cx.stmt(i);
                }
                let (rt, rc) = cx.expr_cat(range);
                // `for (x : {a, b})`: the list is a `std::initializer_list<E>`.
                let (rt, rc) = match cx.braced_list_ty(range) {
                    Some(t) => {
                        cx.materialized_init_list(t);
                        (t, Category::PRValue)
                    }
                    None => (rt, rc),
                };
                let elem = cx.range_elem(range, rt, rc);
                if let Some(v) = var {
                    let t = cx.local_declared_ty(v, elem.map(|t| (t, Category::LValue)));
                    cx.res.local_tys[v.0 as usize] = Some(t);
                    cx.bind_local(v);
                    // `for (auto& [k, v] : m)`: the bindings of the hidden element.
                    for b in cx.bindings_of(v) {
                        cx.local(b);
                    }
                }
                cx.block(|cx| cx.stmt(body));
            }),
            Stmt::Return(e) => {
                if let Some(e) = e {
                    let a = self.arg(e);
                    match self.returns.last_mut() {
                        Some(slot @ None) => *slot = Some(a.ty),
                        Some(_) => {}
                        None => {
                            if self.res.returned.is_none() {
                                self.res.returned = Some(a.ty);
                                let declared = self.id_expr_declared_ty(e);
                                self.res.returned_cat = Some((a.cat, declared));
                            }
                        }
                    }
                    // Returning another type into a class: a converting construction.
                    if let Some(r) = self.ret {
                        if self.is_class(r)
                            && !self.same_class(r, a.ty)
                            && !matches!(canonical(self.db, r).kind(self.db), TyKind::LRef(_) | TyKind::RRef(_))
                        {
                            // `return {…};` of an aggregate: aggregate initialization.
                            if let Expr::InitList(xs) = self.body.expr(e).clone()
                                && self.aggregate_init(r, &xs)
                            {
                                return;
                            }
                            let args: Vec<Arg> = match self.body.expr(e).clone() {
                                Expr::InitList(xs) => xs.iter().map(|x| self.arg(*x)).collect(),
                                Expr::Path(p) if self.implicitly_movable(&p) => {
                                    vec![Arg { cat: Category::XValue, ..a }]
                                }
                                _ => vec![a],
                            };
                            self.construct(CallSite::Expr(e), r, &args, a.braced);
                        } else if self.is_class(r)
                            && self.same_class(r, a.ty)
                            && a.cat != Category::PRValue
                            && self.returns.is_empty()
                        {
                            // The same class from a glvalue: copied or moved
                            // (`return std::move(_M_storage);`), except a local
                            // object returned by name, which g++ constructs in
                            // place (NRVO); a parameter by name is moved.
                            let arg = match self.body.expr(e) {
                                Expr::Path(p) if self.implicitly_movable(p) => {
                                    let l = self.find_local(&norm_name(&p.segments[0].name));
                                    if l.is_some_and(|l| !self.body.params.contains(&l)) {
                                        None
                                    } else {
                                        Some(Arg { cat: Category::XValue, ..a })
                                    }
                                }
                                _ => Some(a),
                            };
                            if let Some(arg) = arg {
                                self.construct(CallSite::Expr(e), r, &[arg], false);
                            }
                        }
                    }
                }
            }
            Stmt::Label { stmt, .. } | Stmt::Case { stmt, .. } | Stmt::Default(stmt) => {
                if let Stmt::Case { value, .. } = body.stmt(s) {
                    self.expr(*value);
                }
                self.stmt(stmt);
            }
            Stmt::Try { body: b, handlers } => {
                self.stmt(b);
                for h in handlers {
                    self.block(|cx| {
                        if let Some(p) = h.param {
                            let t = cx.local_declared_ty(p, None);
                            cx.res.local_tys[p.0 as usize] = Some(t);
                            cx.bind_local(p);
                        }
                        cx.stmt(h.body);
                    });
                }
            }
            Stmt::Asm(es) => {
                for e in es {
                    self.expr(e);
                }
            }
        }
    }

    fn cond(&mut self, c: &Cond) -> Option<ExprId> {
        match c {
            Cond::Expr(e) => {
                // A condition of class type is contextually converted to
                // `bool` by its (possibly explicit, possibly inherited)
                // conversion function (`while (in >> word)`: `basic_ios::operator bool`).
                let (t, c) = self.expr_cat(*e);
                if self.is_class(t) {
                    let b = self.builtin(Builtin::Bool);
                    self.conversion(*e, t, c, b);
                }
                Some(*e)
            }
            Cond::Decl(l) => {
                self.local(*l);
                None
            }
        }
    }

    /// A `bool` constant condition (`if constexpr`), when it evaluates.
    fn const_bool(&mut self, e: ExprId) -> Option<bool> {
        match self.body.expr(e) {
            Expr::Literal(Literal::Int(v, _)) => Some(*v != 0),
            Expr::Unary { op: UnaryOp::Not, expr } => self.const_bool(*expr).map(|b| !b),
            Expr::Path(p) => {
                // `X<T>::value` and friends through the item-tree evaluator.
                let cx = self.lcx();
                let ce = crate::item_tree::ConstExpr::Path(p.clone());
                crate::consteval::eval(&crate::consteval::EvalCx::new(cx), &ce).ok().map(|v| v.v != 0)
            }
            Expr::Builtin { name, tys, .. } => {
                let tys: Vec<TyId> = tys.iter().map(|t| canonical(self.db, self.lower(t))).collect();
                templates::type_trait(self.db, name.trim_start_matches('_'), &tys).ok()
            }
            Expr::Binary { op: body::BinaryOp::And, lhs, rhs } => {
                Some(self.const_bool(*lhs)? && self.const_bool(*rhs)?)
            }
            Expr::Binary { op: body::BinaryOp::Or, lhs, rhs } => Some(self.const_bool(*lhs)? || self.const_bool(*rhs)?),
            // Comparisons and arithmetic (`infer/const_cond.rs`).
            Expr::Binary { .. } | Expr::Cond { .. } => self.const_int(e, 0).map(|v| v != 0),
            _ => None,
        }
    }

    /// The element type of a range-for over `range`.
    fn range_elem(&mut self, range: ExprId, t: TyId, cat: Category) -> Option<TyId> {
        let c = strip_cv(self.db, canonical(self.db, t));
        match c.kind(self.db) {
            TyKind::Array(e, _) => Some(*e),
            _ => {
                let class = self.class_ref(c)?;
                let arg = Arg { ty: t, cat, null: false, braced: false };
                let (it, _) = self.member_call(CallSite::Expr(range), class, arg, "begin", &[], None)?;
                let end = self.member_call(CallSite::Expr(range), class, arg, "end", &[], None);
                let it_c = strip_cv(self.db, canonical(self.db, it));
                match it_c.kind(self.db) {
                    TyKind::Ptr(x) => Some(*x),
                    _ => {
                        let ic = self.class_ref(it_c)?;
                        let ia = Arg { ty: it, cat: Category::LValue, null: false, braced: false };
                        let (e, _) = self.member_call(CallSite::Expr(range), ic, ia, "operator*", &[], None)?;
                        let _ = self.member_call(CallSite::Expr(range), ic, ia, "operator++", &[], None);
                        // `__begin != __end` is an expression: members, then non-members and ADL
                        // (`__gnu_cxx::operator!=(const __normal_iterator&, …)`).
                        // The end may be a sentinel of another type (`take_view`'s).
                        let ea =
                            end.map_or(ia, |(t, _)| Arg { ty: t, cat: Category::LValue, null: false, braced: false });
                        let _ = self.operator(range, "operator!=", &[ia, ea]);
                        Some(e)
                    }
                }
            }
        }
    }

    // ---- locals

    /// The type of a local as declared, `auto` deduced from `init` (type, category).
    fn local_declared_ty(&mut self, l: LocalId, init: Option<(TyId, Category)>) -> TyId {
        let loc = self.body.local(l).clone();
        if let Some((hidden, _)) = loc.binding_of {
            let _ = hidden;
            return mk(self.db, TyKind::Dependent("structured binding".into()));
        }
        if contains_auto(&loc.ty) {
            return match init {
                Some((t, cat)) => self.deduce_auto(&loc.ty, t, cat),
                None => mk(self.db, TyKind::Dependent("auto".into())),
            };
        }
        if loc.pack {
            // A function parameter pack: its type is per element (see `pack_elems`).
            return mk(self.db, TyKind::Dependent("pack".into()));
        }
        // `decltype(e) x;`: `e` names the body's locals (`infer/aliases.rs`).
        if let Some(t) = self.alias_decltype(&loc.ty) {
            return t;
        }
        self.bind_nested_decltypes(&loc.ty);
        self.lower(&loc.ty)
    }

    fn deduce_auto(&self, t: &TypeRef, a: TyId, cat: Category) -> TyId {
        let db = self.db;
        match t {
            TypeRef::Opaque(s) if s.contains("decltype") => match cat {
                Category::LValue => mk(db, TyKind::LRef(a)),
                Category::XValue => mk(db, TyKind::RRef(a)),
                Category::PRValue => a,
            },
            TypeRef::Opaque(_) => decay(db, strip_cv(db, canonical(db, a))),
            TypeRef::Cv(x, cv) => {
                let inner = self.deduce_auto(x, a, cat);
                mk(db, TyKind::Qualified(inner, *cv))
            }
            TypeRef::LRef(x) => {
                let inner = match &**x {
                    TypeRef::Cv(_, cv) => mk(db, TyKind::Qualified(strip_cv(db, canonical(db, a)), *cv)),
                    _ => a,
                };
                mk(db, TyKind::LRef(inner))
            }
            TypeRef::RRef(x) if matches!(&**x, TypeRef::Opaque(_)) => {
                // `auto&&`: a forwarding reference.
                if cat == Category::LValue { mk(db, TyKind::LRef(a)) } else { mk(db, TyKind::RRef(a)) }
            }
            TypeRef::Ptr(_) => strip_cv(db, canonical(db, a)),
            _ => strip_cv(db, canonical(db, a)),
        }
    }

    fn local(&mut self, l: LocalId) {
        let loc = self.body.local(l).clone();
        if loc.is_static {
            self.local_static(l);
        }
        if let Some((hidden, i)) = loc.binding_of {
            self.binding(l, hidden, i);
            return;
        }
        let init_ty = match &loc.init {
            Init::Assign(e) => Some(self.expr_cat(*e)),
            Init::Paren(a) | Init::Brace(a) if a.len() == 1 && contains_auto(&loc.ty) => Some(self.expr_cat(a[0])),
            _ => None,
        };
        let t = self.local_declared_ty(l, init_ty);
        let t = self.bound_from_init(t, &loc.init, init_ty);
        let t = if loc.is_constexpr { const_locals::constexpr_ty(self.db, t) } else { t };
        self.res.local_tys[l.0 as usize] = Some(t);
        // The initializer is in scope of the name (`int x = x;`), bind first.
        self.bind_local(l);
        self.const_local(l, t);
        let site = CallSite::Local(l);
        match &loc.init {
            Init::None => {
                self.construct(site, t, &[], false);
            }
            Init::Assign(e) => {
                let (et, ec) = init_ty.unwrap_or((self.error("init"), Category::PRValue));
                self.closure_to_pointer(et, t);
                // Copy-initialization: from a prvalue of the same class, elided.
                if !self.same_class(t, et) || ec != Category::PRValue {
                    let braced = matches!(self.body.expr(*e), Expr::InitList(_));
                    if let Expr::InitList(xs) = self.body.expr(*e).clone()
                        && self.aggregate_init(t, &xs)
                    {
                        return;
                    }
                    let args: Vec<Arg> = if braced {
                        match self.body.expr(*e).clone() {
                            Expr::InitList(xs) => self.args(&xs),
                            _ => Vec::new(),
                        }
                    } else {
                        vec![Arg { ty: et, cat: ec, null: self.is_null(*e), braced: false }]
                    };
                    self.construct(site, t, &args, braced);
                    if let Expr::InitList(xs) = self.body.expr(*e).clone() {
                        self.init_list_elements(t, &xs);
                    }
                }
            }
            Init::Paren(a) | Init::Brace(a) => {
                let braced = matches!(loc.init, Init::Brace(_));
                // Pack expansions give one argument per element
                // (`_Auto_node __z(*this, std::forward<_Args>(__args)...)`).
                let args: Vec<Arg> = self.args(a);
                if braced && self.aggregate_init(t, a) {
                    return;
                }
                self.construct(site, t, &args, braced);
                if braced {
                    self.init_list_elements(t, a);
                }
            }
        }
    }

    /// An array of unknown bound takes its bound from the initializer
    /// ([dcl.init.aggr]/7: `size_t sizes[]{a, b, c}`, `char s[] = "ab"`), so
    /// that `T (&)[N]` deduces `N` from it.
    fn bound_from_init(&self, t: TyId, init: &Init, init_ty: Option<(TyId, Category)>) -> TyId {
        let db = self.db;
        let c = canonical(db, t);
        let TyKind::Array(e, None) = c.kind(db) else { return t };
        let n = match list_bound(db, self.body, *e, init) {
            Ok(Some(n)) => n,
            Ok(None) => match init_ty.map(|(it, _)| canonical(db, it).kind(db).clone()) {
                Some(TyKind::Array(_, Some(n))) => n,
                _ => return t,
            },
            Err(()) => return t,
        };
        mk(db, TyKind::Array(*e, Some(n)))
    }

    /// Constructs an object of type `t` from `args` (a constructor call when `t` is a class).
    fn construct(&mut self, site: CallSite, t: TyId, args: &[Arg], braced: bool) -> Option<Callee> {
        if self.stopped() {
            return None;
        }
        let c = strip_cv(self.db, canonical(self.db, t));
        if let TyKind::Array(e, _) = c.kind(self.db) {
            // Arrays: each element default- or copy-constructed.
            let e = *e;
            if args.is_empty() {
                return self.construct(site, e, &[], false);
            }
            return None;
        }
        let class = self.class_ref(c)?;
        // Copy/move from the same class: prvalues are elided.
        if args.len() == 1 && !args[0].braced && self.same_class(args[0].ty, c) && args[0].cat == Category::PRValue {
            return None;
        }
        let mut ctors = instances::member_fns(self.db, class, scopes::CTOR_KEY);
        // Inherited constructors (`using B::B;`) are candidates beside the
        // declared ones; the implicit default, copy and move constructors
        // hide the base's.
        let inherited = instances::inherited::inherited_ctors(self.db, class, 0);
        let implicit_only = match args {
            [] => !braced,
            [a] => !a.braced && self.same_class(a.ty, c),
            _ => false,
        };
        if ctors.is_empty() && (inherited.is_empty() || implicit_only) {
            // An aggregate or a class with only implicit constructors: the
            // implicit one, which g++ defines when it is not trivial
            // (`instances::implicit_special`; hir-inst).
            let kind = match args {
                [] if !braced => Some(instances::SpecialKind::DefaultCtor),
                [a] if !a.braced && self.same_class(a.ty, c) => Some(if a.cat == Category::LValue {
                    instances::SpecialKind::CopyCtor
                } else {
                    instances::SpecialKind::MoveCtor
                }),
                _ => None,
            };
            if let Some(e) = kind.and_then(|k| instances::implicit_special(self.db, class, k)) {
                self.require(e);
                self.res.calls.push((site, Callee::Entity(e)));
                return Some(Callee::Entity(e));
            }
            return None;
        }
        let n_own = ctors.len();
        ctors.extend(inherited);
        let own = ctors[..n_own].to_vec();
        // The entity a chosen candidate names: an inherited one is the
        // derived class's inheriting constructor.
        let db = self.db;
        let wrap = |cand: Cand, e: Entity| {
            if own.contains(&cand) {
                e
            } else {
                Entity::Inherited(instances::inherited::InheritedCtorId::new(db, class, e))
            }
        };
        if braced && let Some(cand) = self.init_list_ctor(&ctors, args) {
            if let Ok(sig) = instances::signature(db, instances::fn_instance(db, cand.0, cand.1, Vec::new()))
                && let Some(&first) = sig.params.first()
            {
                self.materialized_init_list(first);
            }
            let e = wrap(cand, self.entity_of(cand, Vec::new()));
            self.require(e);
            self.res.calls.push((site, Callee::Entity(e)));
            return Some(Callee::Entity(e));
        }
        if braced && args.iter().all(|a| !a.braced) {
            // Aggregates are not modelled: try constructors, quietly.
            let r = self.resolve_overload(&ctors, None, args, None);
            return match r {
                Ok((cand, targs, _)) => {
                    let e = wrap(cand, self.entity_of(cand, targs));
                    self.require(e);
                    self.res.calls.push((site, Callee::Entity(e)));
                    Some(Callee::Entity(e))
                }
                Err(_) => None,
            };
        }
        // A copy or move of a class that declares neither constructor and no
        // constructor template: the implicit one binds the argument exactly,
        // every declared constructor needs a conversion (`::new (__e)
        // _Ex2(__ex)` copies a `future_error`, not `future_error(error_code)`).
        if let [a] = args {
            let plain = ctors.iter().all(|&cand| {
                matches!(cand.0, FnDecl::Fn(_)) && constructible::copy_or_move_ctor(self, cand, c).is_none()
            });
            if !a.braced && self.same_class(a.ty, c) && plain {
                let kind = if a.cat == Category::LValue {
                    instances::SpecialKind::CopyCtor
                } else {
                    instances::SpecialKind::MoveCtor
                };
                match instances::implicit_special(self.db, class, kind) {
                    Some(e) => {
                        self.require(e);
                        self.res.calls.push((site, Callee::Entity(e)));
                        return Some(Callee::Entity(e));
                    }
                    None => return None,
                }
            }
        }
        let mut converted = None;
        let callee = match self.resolve_overload(&ctors, None, args, None) {
            Ok((cand, _, sig)) if self.implicit_copy_beats(class, c, cand, &sig, args) => {
                let lvalue = args[0].cat == Category::LValue;
                let kind =
                    if !lvalue && instances::implicitly_declared(self.db, class, instances::SpecialKind::MoveCtor) {
                        instances::SpecialKind::MoveCtor
                    } else {
                        instances::SpecialKind::CopyCtor
                    };
                match instances::implicit_special(self.db, class, kind) {
                    Some(e) => {
                        self.require(e);
                        Callee::Entity(e)
                    }
                    // Trivial: no call.
                    None => return None,
                }
            }
            Ok((cand, targs, sig)) => {
                let e = wrap(cand, self.entity_of(cand, targs));
                self.require(e);
                converted = Some(sig);
                Callee::Entity(e)
            }
            // The implicitly declared copy or move constructor is a candidate
            // beside the declared ones (a class that declares neither).
            Err(e)
                if !matches!(e, Unresolved::Deleted(_))
                    && matches!(args, [a] if !a.braced && (self.same_class(a.ty, c) || self.derives(a.ty, c))) =>
            {
                let kind = if args[0].cat == Category::LValue {
                    instances::SpecialKind::CopyCtor
                } else {
                    instances::SpecialKind::MoveCtor
                };
                match instances::implicit_special(self.db, class, kind) {
                    Some(e) => {
                        self.require(e);
                        Callee::Entity(e)
                    }
                    // Trivial: no call.
                    None => return None,
                }
            }
            Err(e) => Callee::Unresolved(e),
        };
        self.res.calls.push((site, callee.clone()));
        // Arguments converted by a converting constructor of a class
        // parameter (a lambda passed as `std::function`), as for calls.
        if let Some(sig) = converted {
            self.convert_args(site, &sig, args);
        }
        Some(callee)
    }

    /// Whether the implicitly declared copy constructor beats `cand`, the
    /// declared constructor overload resolution chose, for one argument of
    /// the class itself: `cand` is a non-template taking something other
    /// than a reference to the class (`no_throw_allocator(const
    /// BaseAllocator&)`: a derived-to-base conversion), while the implicit
    /// one binds `const C&` directly (an exact match, [over.ics.rank]); or
    /// `cand` is a constructor template whose deduced first parameter is
    /// `const C&` (thrust's `normal_iterator(const normal_iterator<O>&,
    /// enable_if<…>* = 0)` with `O` the class's own argument): the same
    /// conversions, and a non-template beats a template specialization
    /// ([over.match.best]/2.4); for an rvalue the implicit move
    /// constructor's `C&&` is the better binding anyway.
    fn implicit_copy_beats(&self, class: ClassRefT, c: TyId, cand: Cand, sig: &FnSig, args: &[Arg]) -> bool {
        let [a] = args else { return false };
        if a.braced || !self.same_class(a.ty, c) {
            return false;
        }
        if !instances::implicitly_declared(self.db, class, instances::SpecialKind::CopyCtor) {
            return false;
        }
        if !matches!(cand.0, FnDecl::Fn(_)) {
            let Some(&first) = sig.params.first() else { return false };
            let TyKind::LRef(inner) = canonical(self.db, first).kind(self.db) else { return false };
            let inner = canonical(self.db, *inner);
            return cv_of(self.db, inner).c && !cv_of(self.db, inner).v && self.same_class(inner, c);
        }
        let Some(data) = cand.0.data(self.db) else { return false };
        let params: &[TypeRef] = data.ty.params.get(..1).unwrap_or(&[]);
        !params.is_empty()
            && !instances::own_ref_param(self.db, class, params, true)
            && !instances::own_ref_param(self.db, class, params, false)
    }

    /// The destructor call of an object of type `t` (classes with a declared destructor).
    fn destroy(&mut self, site: CallSite, t: TyId) {
        let c = strip_cv(self.db, canonical(self.db, t));
        let c = match c.kind(self.db) {
            TyKind::Array(e, _) => strip_cv(self.db, canonical(self.db, *e)),
            _ => c,
        };
        let Some(class) = self.class_ref(c) else { return };
        let dtors = instances::member_fns(self.db, class, scopes::DTOR_KEY);
        if let Some(&(d, outer)) = dtors.first() {
            let e = self.entity_of((d, outer), Vec::new());
            self.require(e);
            self.res.calls.push((site, Callee::Entity(e)));
        } else {
            if let Some(e) = instances::implicit_special(self.db, class, instances::SpecialKind::Dtor) {
                // The implicit destructor, when not trivial (hir-inst).
                self.require(e);
                self.res.calls.push((site, Callee::Entity(e)));
            }
        }
    }

    /// Member initializers of a constructor, and the default construction of
    /// bases and members it does not name.
    fn ctor_inits(&mut self) {
        let Some(class) = self.class else { return };
        let db = self.db;
        let body = self.body;
        let mut named: Vec<String> = Vec::new();
        let mut inited: Vec<TyId> = Vec::new();
        for (i, m) in body.mem_inits.iter().enumerate() {
            if m.pack {
                // `__tuple_leaf<_Indx, _Tp>(forward<_Up>(__u))...`: one base
                // per element of the packs the initializer names.
                let mut names = Vec::new();
                for s in &m.name.segments {
                    for a in s.args.iter().flatten() {
                        packs::template_arg_names(a, &mut names);
                    }
                }
                for &a in &m.args {
                    self.pack_names(a, &mut names, 0);
                }
                self.for_each_pack_element(&names, |cx| {
                    let t = cx.lower(&TypeRef::Path(m.name.clone()));
                    if matches!(t.kind(db), TyKind::Error(_)) {
                        return;
                    }
                    let args: Vec<Arg> = cx.args(&m.args);
                    inited.push(t);
                    cx.construct(CallSite::MemInit(i as u32), t, &args, m.braced);
                });
                continue;
            }
            let args: Vec<Arg> = self.args(&m.args);
            let name = m.name.last().unwrap_or_default().to_string();
            named.push(name.clone());
            // A member, else a base (or a delegating constructor).
            let t = match self.field_ty(class, &name) {
                Some(t) => Some(t),
                None => {
                    let t = self.lower(&TypeRef::Path(m.name.clone()));
                    (!matches!(t.kind(db), TyKind::Error(_))).then_some(t)
                }
            };
            if let Some(t) = t {
                inited.push(t);
                // `_M_func{{std::forward<_Args>(__args)...}}`: an aggregate
                // member is initialized element by element.
                if m.braced && self.aggregate_init(t, &m.args) {
                    continue;
                }
                self.construct(CallSite::MemInit(i as u32), t, &args, m.braced);
            }
        }
        // A delegating constructor initializes nothing else.
        let own = class_ty(db, class);
        if inited.iter().any(|t| self.same_class(*t, own)) {
            return;
        }
        // A defaulted copy or move constructor copies or moves its bases
        // and members; a user-provided one default-initializes what it
        // does not name ([class.base.init]/9, [class.copy.ctor]/14).
        let from = match body.params.as_slice() {
            [p] if body.defaulted => self.res.local_tys[p.0 as usize].and_then(|t| {
                let cv = |x: TyId| match canonical(db, x).kind(db) {
                    TyKind::Qualified(_, cv) => *cv,
                    _ => Cv::default(),
                };
                match collapse(db, canonical(db, t)).kind(db) {
                    TyKind::LRef(x) if self.same_class(*x, own) => Some((Category::LValue, cv(*x))),
                    TyKind::RRef(x) if self.same_class(*x, own) => Some((Category::XValue, cv(*x))),
                    _ => None,
                }
            }),
            _ => None,
        };
        let n = body.mem_inits.len() as u32;
        for (k, (name, t)) in self.fields_and_bases(class).into_iter().enumerate() {
            match &name {
                Some(nm) => {
                    if named.contains(nm) {
                        continue;
                    }
                    // A member it does not name is initialized from its default
                    // member initializer, unless the constructor is a defaulted
                    // copy or move.
                    if from.is_none() && self.field_has_init(class, nm) {
                        for e in nsdmi::field_init_required(db, class, nm) {
                            self.require(e);
                        }
                        continue;
                    }
                }
                None => {
                    if inited.iter().any(|x| self.same_class(*x, t)) {
                        continue;
                    }
                }
            }
            let args: Vec<Arg> = match from {
                Some((cat, cv)) => {
                    // The source's subobjects have its cv-qualification: a
                    // `const C&` copy passes const lvalues, so a template
                    // constructor by value (`__shared_count(_Ptr)`) does not
                    // beat the copy constructor. A reference member stays as is.
                    let is_ref = matches!(canonical(db, t).kind(db), TyKind::LRef(_) | TyKind::RRef(_));
                    let ty = if (cv.c || cv.v) && !is_ref {
                        let own = match canonical(db, t).kind(db) {
                            TyKind::Qualified(_, m) => *m,
                            _ => Cv::default(),
                        };
                        mk(
                            db,
                            TyKind::Qualified(
                                strip_cv(db, canonical(db, t)),
                                Cv { c: cv.c || own.c, v: cv.v || own.v, r: own.r },
                            ),
                        )
                    } else {
                        t
                    };
                    vec![Arg { ty, cat, null: false, braced: false }]
                }
                None => Vec::new(),
            };
            let site = CallSite::MemInit(n + k as u32);
            // Implicit initializations that do not resolve are not errors of the body.
            let before = self.res.calls.len();
            self.construct(site, t, &args, false);
            if let Some((_, Callee::Unresolved(_))) = self.res.calls.get(before) {
                self.res.calls.truncate(before);
            }
        }
    }

    /// Members and bases of the owner's class are destroyed by its destructor.
    fn dtor_members(&mut self) {
        let Some(class) = self.class else { return };
        for (_, t) in self.fields_and_bases(class) {
            self.destroy(CallSite::Owner, t);
        }
    }

    /// Non-static data members (with names) and bases (None) of a class, types lowered.
    fn fields_and_bases(&self, class: ClassRefT) -> Vec<(Option<String>, TyId)> {
        let mut out = Vec::new();
        for b in templates::class_bases_of(self.db, class).iter() {
            if let Some(t) = b.ty {
                out.push((None, t));
            }
        }
        let (c, env) = match class {
            ClassRefT::Class(c) => (c, None),
            ClassRefT::Inst(i) => (i.class(self.db), templates::inst_env(self.db, i).ok()),
        };
        let c = self.map.class_definition(c);
        let Some(&s) = self.map.class_scope.get(&c) else { return out };
        let tree = item_tree_of(self.db, c.item(self.db));
        let Some(data) = tree.classes.get(c.idx(self.db) as usize) else { return out };
        let cx = LowerCx { db: self.db, map: self.map, item: c.item(self.db), scope: s, env: env.as_ref() };
        for f in &data.fields {
            if f.name.is_some() {
                let t = templates::nested(|| Ok(ty::lower(cx, &f.ty))).unwrap_or_else(|e| self.error(e));
                out.push((f.name.clone(), t));
            }
        }
        out
    }

    fn field_has_init(&self, class: ClassRefT, name: &str) -> bool {
        let c = match class {
            ClassRefT::Class(c) => c,
            ClassRefT::Inst(i) => i.class(self.db),
        };
        let c = self.map.class_definition(c);
        let tree = item_tree_of(self.db, c.item(self.db));
        tree.classes
            .get(c.idx(self.db) as usize)
            .is_some_and(|d| d.fields.iter().any(|f| f.name.as_deref() == Some(name) && f.has_init))
    }

    /// The type of a non-static data member of a class (or its bases).
    fn field_ty(&self, class: ClassRefT, name: &str) -> Option<TyId> {
        self.field_decl(class, name, 0).map(|(t, _)| t)
    }

    /// A data member's declared type, and whether it is `mutable` (a
    /// `const` object's cv does not reach it).
    fn field_decl(&self, class: ClassRefT, name: &str, depth: u32) -> Option<(TyId, bool)> {
        if depth > 32 {
            return None;
        }
        let (c, env) = match class {
            ClassRefT::Class(c) => (c, None),
            ClassRefT::Inst(i) => (i.class(self.db), templates::inst_env(self.db, i).ok()),
        };
        let c = self.map.class_definition(c);
        let s = *self.map.class_scope.get(&c)?;
        let tree = item_tree_of(self.db, c.item(self.db));
        let data = tree.classes.get(c.idx(self.db) as usize)?;
        for (k, f) in data.fields.iter().enumerate() {
            if f.name.as_deref() == Some(name) {
                let cx = LowerCx { db: self.db, map: self.map, item: c.item(self.db), scope: s, env: env.as_ref() };
                let t = lowering_declared(Declared::Field(class, k), || {
                    templates::nested(|| Ok(ty::lower(cx, &f.ty))).unwrap_or_else(|e| self.error(e))
                })
                .unwrap_or_else(|| self.error("a data member's type that depends on itself"));
                return Some((t, f.mutable));
            }
            // Members of anonymous structs/unions are members of the class.
            if let Some(idx) = f.anonymous {
                let inner = crate::ClassId::new(self.db, c.item(self.db), idx);
                // In an instance, the anonymous class is one of its classes
                // (`union { T m; }` of `InputValue<int>` has an `int`).
                let inner = match class {
                    ClassRefT::Inst(i) => ClassRefT::Inst(InstId::new(self.db, inner, i.args(self.db).clone())),
                    ClassRefT::Class(_) => ClassRefT::Class(inner),
                };
                if let Some(t) = self.field_decl(inner, name, depth + 1) {
                    return Some(t);
                }
            }
        }
        for b in templates::class_bases_of(self.db, class).iter() {
            if let Some(bc) = b.class
                && let Some(t) = self.field_decl(bc, name, depth + 1)
            {
                return Some(t);
            }
        }
        None
    }

    // ---- expressions

    fn expr(&mut self, e: ExprId) -> TyId {
        self.expr_cat(e).0
    }

    fn arg(&mut self, e: ExprId) -> Arg {
        let (ty, cat) = self.expr_cat(e);
        Arg { ty, cat, null: self.is_null(e), braced: matches!(self.body.expr(e), Expr::InitList(_)) }
    }

    fn is_null(&self, e: ExprId) -> bool {
        matches!(self.body.expr(e), Expr::Literal(Literal::Int(0, _)) | Expr::Literal(Literal::Nullptr))
    }

    fn expr_cat(&mut self, e: ExprId) -> (TyId, Category) {
        if self.depth > MAX_EXPR_DEPTH {
            return (self.error("nested too deeply"), Category::PRValue);
        }
        self.depth += 1;
        let (t, c) = self.expr_inner(e);
        self.depth -= 1;
        self.set(e, t, c);
        (t, c)
    }

    fn expr_inner(&mut self, e: ExprId) -> (TyId, Category) {
        let db = self.db;
        let body = self.body;
        if !body.expr_decltypes.is_empty() {
            self.bind_expr_decltypes(e);
        }
        let pr = Category::PRValue;
        match body.expr(e).clone() {
            Expr::Missing(s) => (self.error(format!("not lowered: {s}")), pr),
            Expr::Literal(l) => match l {
                Literal::Int(_, b) | Literal::Float(b) => (self.builtin(b), pr),
                Literal::String(b, n) => {
                    let c = mk(db, TyKind::Qualified(self.builtin(b), Cv { c: true, v: false, r: false }));
                    (mk(db, TyKind::Array(c, Some(n as u64))), Category::LValue)
                }
                Literal::Nullptr => (self.builtin(Builtin::NullPtr), pr),
            },
            Expr::This => match self.class {
                Some(c) if self.has_this => {
                    let t = class_ty(db, c);
                    let t = if self.this_cv.is_empty() { t } else { mk(db, TyKind::Qualified(t, self.this_cv)) };
                    (mk(db, TyKind::Ptr(t)), pr)
                }
                _ => (self.error("`this` outside a member function"), pr),
            },
            Expr::Path(p) => {
                let v = self.resolve_value(&p);
                self.value_expr(e, v)
            }
            Expr::Member { base, arrow, name } => {
                let (bt, bc) = self.expr_cat(base);
                let (obj, cat) = self.object_of(bt, bc, arrow, e);
                let Some(class) = self.class_ref(strip_cv(db, canonical(db, obj))) else {
                    return (self.error("member of a non-class"), pr);
                };
                let last = name.last().unwrap_or_default().to_string();
                if let Some((ft, mutable)) = self.field_decl(class, &last, 0) {
                    self.res.resolutions.insert(e, Resolution::Field);
                    // A reference member names its referee, whatever the
                    // object's cv; a `mutable` one is not made `const` by it.
                    let cv = if is_ref(db, ft) {
                        Cv::default()
                    } else {
                        let cv = cv_of(db, canonical(db, obj));
                        if mutable { Cv { c: false, ..cv } } else { cv }
                    };
                    let (t, _) = self.of_declared(ft);
                    let t = if cv.is_empty() { t } else { mk(db, TyKind::Qualified(t, cv)) };
                    let c = if matches!(canonical(db, ft).kind(db), TyKind::LRef(_)) { Category::LValue } else { cat };
                    return (t, c);
                }
                if let Some((Def::Var(v), env, _)) = templates::member_of(db, class, &last, Ns::Value, 0) {
                    let ent = self.var_entity(v, class_inst(class), env.as_ref());
                    self.require(ent);
                    self.res.resolutions.insert(e, Resolution::Entity(ent));
                    let t = self.var_ty(v, env.as_ref());
                    return self.of_declared(t);
                }
                // A member function: typed at the call.
                (mk(db, TyKind::Dependent(format!("member function {last}"))), pr)
            }
            Expr::Call { callee, args } => self.call(e, callee, &args),
            Expr::KernelLaunch { callee, config, args } => {
                let r = self.call(e, callee, &args);
                self.launch_configuration(&config);
                r
            }
            Expr::Construct { ty, args, braced } => {
                // `X::template f<N>(op)` parsed as a functional cast (`infer/cast_call.rs`).
                if let Some(r) = self.construct_as_call(e, &ty, &args, braced) {
                    return r;
                }
                let mut t = self.lower(&ty);
                let a: Vec<Arg> = self.args(&args);
                // `C(args)` naming a class template: its arguments deduced (`infer/ctad.rs`).
                if !matches!(canonical(db, t).kind(db), TyKind::App(_) | TyKind::Inst(_))
                    && let Some(d) = self.ctad_template(&ty).and_then(|c| self.ctad(c, &a))
                {
                    t = d;
                }
                // `T{}`: value-initialization (g++ calls an aggregate's
                // implicit default constructor when it is not trivial).
                let braced = braced && !args.is_empty();
                if braced && self.aggregate_init(t, &args) {
                    self.destroy(CallSite::Expr(e), t);
                    if self.list_narrows(t, &args) {
                        return (self.error("narrowing conversion in list-initialization"), Category::PRValue);
                    }
                } else if braced && self.list_narrows(t, &args) {
                    // `T{x}` of a scalar `T`.
                    return (self.error("narrowing conversion in list-initialization"), Category::PRValue);
                } else if self.class_ref(strip_cv(db, canonical(db, t))).is_some() {
                    self.construct(CallSite::Expr(e), t, &a, braced);
                    if braced {
                        self.init_list_elements(t, &args);
                    }
                    self.destroy(CallSite::Expr(e), t);
                }
                let (t2, c) = self.of_return(t);
                (t2, c)
            }
            Expr::Unary { op, expr } => {
                let (t, c) = self.expr_cat(expr);
                self.unary(e, op, t, c)
            }
            Expr::Binary { op, lhs, rhs } => {
                let l = self.arg(lhs);
                let r = self.arg(rhs);
                self.binary(e, op, l, r)
            }
            Expr::Assign { op, lhs, rhs } => {
                let l = self.arg(lhs);
                let r = self.arg(rhs);
                let name = match op {
                    None => "operator=".to_string(),
                    Some(o) => format!("operator{}=", o.spelling()),
                };
                if let Some(r) = self.operator(e, &name, &[l, r]) {
                    return r;
                }
                // No viable declared `operator=`: the class's implicit copy
                // or move assignment, defined when not trivial.
                if op.is_none()
                    && self.same_class(strip_cv(db, canonical(db, r.ty)), strip_cv(db, canonical(db, l.ty)))
                    && let Some(class) = self.class_ref(strip_cv(db, canonical(db, l.ty)))
                    && let Some(ent) = instances::implicit_assign(db, class, r.cat != Category::LValue)
                {
                    self.require(ent);
                    self.res.calls.push((CallSite::Expr(e), Callee::Entity(ent)));
                }
                // `__once_call = [] { … };`: a captureless closure assigned to
                // a pointer to function converts through its conversion function.
                if op.is_none() {
                    self.closure_to_pointer(r.ty, strip_cv(db, canonical(db, l.ty)));
                }
                (l.ty, Category::LValue)
            }
            Expr::Cond { cond, then, els } => {
                self.expr(cond);
                let (t, c) = self.expr_cat(then);
                let (t2, c2) = self.expr_cat(els);
                if matches!(t.kind(db), TyKind::Error(_)) || is_null_ty(db, t) {
                    return (t2, c2);
                }
                (t, if c == c2 { c } else { pr })
            }
            Expr::Comma { lhs, rhs } => {
                let l = self.arg(lhs);
                let r = self.arg(rhs);
                if (self.is_class(l.ty) || self.is_class(r.ty))
                    && let Some(res) = self.operator(e, "operator,", &[l, r])
                {
                    return res;
                }
                (r.ty, r.cat)
            }
            Expr::Cast { ty, expr, .. } => {
                let (st, sc) = self.expr_cat(expr);
                let t = self.lower(&ty);
                let ct = strip_cv(db, canonical(db, t));
                if self.class_ref(ct).is_some() && !self.same_class(ct, st) {
                    let a = Arg { ty: st, cat: sc, null: false, braced: false };
                    self.construct(CallSite::Expr(e), t, &[a], false);
                } else if self.is_class(st)
                    && self.class_ref(ct).is_none()
                    && !matches!(ct.kind(db), TyKind::LRef(_) | TyKind::RRef(_) | TyKind::Ptr(_))
                {
                    // A conversion function of the operand.
                    self.conversion(e, st, sc, ct);
                }
                self.of_return(t)
            }
            Expr::Index { base, index } => {
                let b = self.arg(base);
                let i = self.arg(index);
                if self.is_class(b.ty)
                    && let Some(r) = self.operator(e, "operator[]", &[b, i])
                {
                    return r;
                }
                let bt = canonical(db, b.ty);
                match strip_cv(db, bt).kind(db) {
                    TyKind::Array(x, _) | TyKind::Ptr(x) => (*x, Category::LValue),
                    _ => match strip_cv(db, canonical(db, i.ty)).kind(db) {
                        TyKind::Array(x, _) | TyKind::Ptr(x) => (*x, Category::LValue),
                        _ => (self.error("subscript of a non-pointer"), Category::LValue),
                    },
                }
            }
            Expr::New { placement, ty, args, braced, array } => {
                let mut pa: Vec<Arg> = Vec::new();
                let size_t = self.builtin(Builtin::ULong);
                pa.push(Arg { ty: size_t, cat: pr, null: false, braced: false });
                for p in placement {
                    pa.push(self.arg(p));
                }
                let t = self.lower(&ty);
                let elem = match canonical(db, t).kind(db) {
                    TyKind::Array(x, _) => *x,
                    _ => t,
                };
                let name = if array { "operator new[]" } else { "operator new" };
                self.global_operator(e, name, &pa, self.class_ref(strip_cv(db, canonical(db, elem))));
                let exprs = args.unwrap_or_default();
                let a = self.args(&exprs);
                // `new T{}`: value-initialization, as `T{}`.
                let braced = braced && !a.is_empty();
                if braced && !array && self.aggregate_init(elem, &exprs) {
                } else if self.class_ref(strip_cv(db, canonical(db, elem))).is_some() {
                    self.construct(CallSite::Expr(e), elem, &a, braced);
                }
                (mk(db, TyKind::Ptr(elem)), pr)
            }
            Expr::Delete { expr, array } => {
                let t = self.expr(expr);
                let pointee = match strip_cv(db, canonical(db, t)).kind(db) {
                    TyKind::Ptr(x) => Some(*x),
                    _ => None,
                };
                if let Some(p) = pointee {
                    self.destroy(CallSite::Expr(e), p);
                }
                let void_ptr = mk(db, TyKind::Ptr(self.builtin(Builtin::Void)));
                let size_t = self.builtin(Builtin::ULong);
                let name = if array { "operator delete[]" } else { "operator delete" };
                let class = pointee.and_then(|p| self.class_ref(strip_cv(db, canonical(db, p))));
                // Sized deallocation (C++14) first, as g++ does for complete types.
                let sized = [
                    Arg { ty: void_ptr, cat: pr, null: false, braced: false },
                    Arg { ty: size_t, cat: pr, null: false, braced: false },
                ];
                if !self.global_operator(e, name, &sized, class) {
                    self.global_operator(e, name, &sized[..1], class);
                }
                (self.builtin(Builtin::Void), pr)
            }
            Expr::Throw(x) => {
                if let Some(x) = x {
                    self.expr(x);
                }
                (self.builtin(Builtin::Void), pr)
            }
            Expr::SizeofType(t) | Expr::AlignofType(t) => {
                let _ = self.lower(&t);
                (self.builtin(Builtin::ULong), pr)
            }
            Expr::SizeofExpr(_) | Expr::AlignofExpr(_) | Expr::SizeofPack(_) => (self.builtin(Builtin::ULong), pr),
            Expr::Noexcept(_) => (self.builtin(Builtin::Bool), pr),
            Expr::TypeidType(_) | Expr::TypeidExpr(_) => {
                (mk(db, TyKind::Dependent("std::type_info".into())), Category::LValue)
            }
            Expr::Builtin { name, args, .. } => {
                for a in args {
                    self.expr(a);
                }
                let n = name.trim_start_matches('_');
                if n.starts_with("is_") || n.starts_with("has_") {
                    (self.builtin(Builtin::Bool), pr)
                } else if n.starts_with("builtin_offsetof") {
                    (self.builtin(Builtin::ULong), pr)
                } else {
                    (mk(db, TyKind::Dependent(name)), pr)
                }
            }
            Expr::InitList(xs) => {
                for x in xs {
                    self.expr(x);
                }
                (mk(db, TyKind::Dependent("init-list".into())), pr)
            }
            Expr::Designated { value, .. } => self.expr_cat(value),
            Expr::Lambda { .. } => self.lambda_expr(e),
            Expr::Fold { op, lhs, rhs } => self.fold(e, op, lhs, rhs),
            Expr::PackExpansion(x) => {
                self.pack_elems(x);
                (mk(db, TyKind::Dependent("pack expansion".into())), pr)
            }
            Expr::Requires { .. } => (self.builtin(Builtin::Bool), pr),
            Expr::StmtExpr(s) => {
                self.block(|cx| cx.stmt(s));
                // The value of the last expression statement.
                let last = match body.stmt(s) {
                    Stmt::Compound(ss) => ss.last().and_then(|x| match body.stmt(*x) {
                        Stmt::Expr(e) => Some(*e),
                        _ => None,
                    }),
                    _ => None,
                };
                match last.and_then(|x| self.res.ty(x)) {
                    Some(t) => (t, pr),
                    None => (self.builtin(Builtin::Void), pr),
                }
            }
        }
    }

    fn args(&mut self, xs: &[ExprId]) -> Vec<Arg> {
        let mut out = Vec::new();
        for &x in xs {
            if let Expr::PackExpansion(p) = self.body.expr(x) {
                let p = *p;
                let elems = self.pack_elems(p);
                self.set(x, mk(self.db, TyKind::Dependent("pack expansion".into())), Category::PRValue);
                out.extend(elems);
                continue;
            }
            out.push(self.arg(x));
        }
        out
    }

    /// Infers a pack expansion's pattern once per element of the packs it
    /// names (parameter packs of the function, template parameter packs).
    fn pack_elems(&mut self, pattern: ExprId) -> Vec<Arg> {
        let mut names: Vec<String> = Vec::new();
        self.pack_names(pattern, &mut names, 0);
        let mut out = Vec::new();
        if !self.for_each_pack_element(&names, |cx| out.push(cx.arg(pattern))) {
            self.expr(pattern);
        }
        out
    }

    /// Runs `f` once per element of the first of `names` bound to a pack,
    /// with every pack of that length bound to its element and the
    /// function parameter packs typed accordingly; false (and `f` never
    /// run) when none of `names` is a pack here.
    fn for_each_pack_element(&mut self, names: &[String], mut f: impl FnMut(&mut Self)) -> bool {
        let Some(env) = self.env.clone() else { return false };
        let mut len = None;
        for n in names {
            if let Some(TemplateArg::Pack(v)) = env.get(n) {
                len = Some(v.len());
                break;
            }
        }
        let Some(len) = len else { return false };
        for i in 0..len.min(256) {
            let mut e2 = env.clone();
            for (n, a) in env.names.iter() {
                if let TemplateArg::Pack(v) = a
                    && v.len() == len
                {
                    e2.names.push((n.clone(), v[i].clone()));
                }
            }
            let saved = self.env.replace(e2);
            // Function parameter packs: their element type under this binding.
            let mut packs: Vec<(LocalId, TypeRef)> = self
                .body
                .params
                .iter()
                .filter(|p| self.body.local(**p).pack)
                .map(|p| (*p, self.body.local(*p).ty.clone()))
                .collect();
            packs.extend(self.lambda_packs.iter().cloned());
            let saved_tys: Vec<(LocalId, Option<TyId>)> =
                packs.iter().map(|(p, _)| (*p, self.res.local_tys[p.0 as usize])).collect();
            for (p, written) in &packs {
                let t = self.lower(written);
                self.res.local_tys[p.0 as usize] = Some(t);
            }
            f(self);
            for (p, t) in saved_tys {
                self.res.local_tys[p.0 as usize] = t;
            }
            self.env = saved;
        }
        true
    }

    /// Names of packs a pattern mentions: its parameter packs' type names and template arguments.
    fn pack_names(&self, e: ExprId, out: &mut Vec<String>, depth: u32) {
        if depth > 64 {
            return;
        }
        let body = self.body;
        let sub = |x: ExprId, out: &mut Vec<String>| self.pack_names(x, out, depth + 1);
        match body.expr(e) {
            Expr::Path(p) => {
                if p.segments.len() == 1 && !p.global {
                    if let Some(l) = self.find_local(&p.segments[0].name) {
                        if let Some((_, written)) = self.lambda_packs.iter().find(|(x, _)| *x == l) {
                            instances::typeref_names(written, out);
                        } else if body.local(l).pack {
                            instances::typeref_names(&body.local(l).ty, out);
                        }
                    }
                    out.push(p.segments[0].name.clone());
                }
                for s in &p.segments {
                    for a in s.args.iter().flatten() {
                        packs::template_arg_names(a, out);
                    }
                }
            }
            Expr::Call { callee, args } => {
                sub(*callee, out);
                for a in args {
                    sub(*a, out);
                }
            }
            Expr::Member { base, name, .. } => {
                sub(*base, out);
                for s in &name.segments {
                    for a in s.args.iter().flatten() {
                        packs::template_arg_names(a, out);
                    }
                }
            }
            // CUB's `(..., (v == Archs ? (e = f<Archs>(op)) : ok))`.
            Expr::Cond { cond, then, els } => {
                sub(*cond, out);
                sub(*then, out);
                sub(*els, out);
            }
            Expr::Comma { lhs, rhs } | Expr::Index { base: lhs, index: rhs } => {
                sub(*lhs, out);
                sub(*rhs, out);
            }
            Expr::SizeofExpr(x) | Expr::Designated { value: x, .. } => sub(*x, out),
            Expr::InitList(xs) => {
                for a in xs {
                    sub(*a, out);
                }
            }
            Expr::Unary { expr, .. } | Expr::Cast { expr, .. } => {
                sub(*expr, out);
                if let Expr::Cast { ty, .. } = body.expr(e) {
                    instances::typeref_names(ty, out);
                }
            }
            Expr::Binary { lhs, rhs, .. } | Expr::Assign { lhs, rhs, .. } => {
                sub(*lhs, out);
                sub(*rhs, out);
            }
            Expr::Construct { ty, args, .. } => {
                instances::typeref_names(ty, out);
                for a in args {
                    sub(*a, out);
                }
            }
            Expr::SizeofType(t) => instances::typeref_names(t, out),
            _ => {}
        }
    }

    /// The object a member access designates: `*base` for `->`.
    fn object_of(&mut self, bt: TyId, bc: Category, arrow: bool, e: ExprId) -> (TyId, Category) {
        let db = self.db;
        if !arrow {
            return (bt, bc);
        }
        let c = strip_cv(db, canonical(db, bt));
        match c.kind(db) {
            TyKind::Ptr(x) => (*x, Category::LValue),
            _ => {
                // `operator->` of a class (smart pointers, iterators), chained.
                let mut cur = bt;
                let mut cat = bc;
                for _ in 0..8 {
                    let cc = strip_cv(db, canonical(db, cur));
                    if let TyKind::Ptr(x) = cc.kind(db) {
                        return (*x, Category::LValue);
                    }
                    let Some(class) = self.class_ref(cc) else { break };
                    let a = Arg { ty: cur, cat, null: false, braced: false };
                    match self.member_call(CallSite::Expr(e), class, a, "operator->", &[], None) {
                        Some((t, c)) => {
                            cur = t;
                            cat = c;
                        }
                        None => break,
                    }
                }
                (self.error("operator-> not resolved"), Category::LValue)
            }
        }
    }

    fn value_expr(&mut self, e: ExprId, v: Value) -> (TyId, Category) {
        let db = self.db;
        match v {
            Value::Local(l) => {
                self.res.resolutions.insert(e, Resolution::Local(l));
                let t = self.res.local_tys[l.0 as usize].unwrap_or_else(|| self.error("local"));
                self.of_declared(t)
            }
            Value::Var(ent, t) => {
                self.require(ent);
                self.res.resolutions.insert(e, Resolution::Entity(ent));
                self.of_declared(t)
            }
            Value::Field(t, mutable) => {
                self.res.resolutions.insert(e, Resolution::Field);
                // A reference member names its referee; a `mutable` one
                // is not made `const` by `this`.
                let cv = match (is_ref(db, t), mutable) {
                    (true, _) => Cv::default(),
                    (false, true) => Cv { c: false, ..self.this_cv },
                    (false, false) => self.this_cv,
                };
                let (t, _) = self.of_declared(t);
                let t = if cv.is_empty() { t } else { mk(db, TyKind::Qualified(t, cv)) };
                (t, Category::LValue)
            }
            Value::Enumerator(t) => {
                self.res.resolutions.insert(e, Resolution::Enumerator);
                (t, Category::PRValue)
            }
            Value::TemplateValue(t) => {
                self.res.resolutions.insert(e, Resolution::TemplateValue);
                (t, Category::PRValue)
            }
            Value::Type(t) => {
                self.res.resolutions.insert(e, Resolution::Type(t));
                (t, Category::PRValue)
            }
            Value::Fns(cands, targs) => {
                // A function named without a call: its address (a use when the set has one member).
                if let [c] = cands.as_slice() {
                    let args = match (c.0, &targs) {
                        (FnDecl::Template(_), Some(ta)) => match self.explicit_args(*c, ta) {
                            Ok((a, true)) => Some(a),
                            // The rest from their defaults (CUB's kernels:
                            // `&DeviceScanKernel<…>` with `RealInitValueT = …`).
                            Ok((_, false)) => c.0.data(db).and_then(|d| self.deduce(*c, &d, Some(ta), &[]).ok()),
                            _ => None,
                        },
                        (FnDecl::Template(_), None) => None,
                        _ => Some(Vec::new()),
                    };
                    if let Some(a) = args {
                        let ent = self.entity_of(*c, a);
                        self.require(ent);
                        self.res.resolutions.insert(e, Resolution::Entity(ent));
                        if let Entity::Fn(_) | Entity::FnInst(_) = ent
                            && let Some(mut sig) = self.sig_of_entity(ent)
                        {
                            // `&f<A>` whose signature does not substitute names no
                            // function ([temp.deduct.general]/8: a failure in the
                            // return type removes the specialization).
                            if let Some(why) = sig_substitution_failure(db, &sig) {
                                let why = why.within("substitution failure in the signature of a function named");
                                return (mk(db, TyKind::Error(why)), Category::LValue);
                            }
                            // The function's type: parameters without top-level cv or `restrict`.
                            for p in &mut sig.params {
                                *p = strip_cv(db, canonical(db, *p));
                            }
                            return (mk(db, TyKind::Func(sig)), Category::LValue);
                        }
                    }
                }
                (mk(db, TyKind::Dependent("overload set".into())), Category::LValue)
            }
            Value::Unknown(s) => (mk(db, TyKind::Error(s)), Category::LValue),
        }
    }

    fn sig_of_entity(&self, e: Entity) -> Option<FnSig> {
        let inst = match e {
            Entity::Fn(f) => instances::fn_instance(self.db, FnDecl::Fn(f), None, Vec::new()),
            Entity::FnInst(i) => i,
            _ => return None,
        };
        instances::signature(self.db, inst).ok()
    }

    // ---- names

    /// `return x;` naming a local object or parameter (automatic, not a
    /// reference): overload resolution first treats it as an rvalue
    /// ([class.copy.elision]/3), so `optional<int>`'s `optional(_Up&&)`
    /// takes `int&&`, not `int&`.
    fn implicitly_movable(&self, p: &Path) -> bool {
        if p.global || p.segments.len() != 1 || p.segments[0].args.is_some() {
            return false;
        }
        let Some(l) = self.find_local(&norm_name(&p.segments[0].name)) else { return false };
        if self.body.local(l).is_static {
            return false;
        }
        let t = self.res.local_tys.get(l.0 as usize).copied().flatten();
        !t.is_some_and(|t| matches!(canonical(self.db, t).kind(self.db), TyKind::LRef(_) | TyKind::RRef(_)))
    }

    fn resolve_value(&mut self, p: &Path) -> Value {
        let expanded = self.expand_ns_alias(p);
        let p = expanded.as_ref().unwrap_or(p);
        let db = self.db;
        let Some(last) = p.segments.last() else { return Value::Unknown(crate::SemaError::gap("empty path")) };
        let name = norm_name(&last.name);
        if p.segments.len() == 1 && !p.global {
            if last.args.is_none() {
                if let Some(l) = self.find_local(&name) {
                    return Value::Local(l);
                }
                if let Some(a) = self.env.as_ref().and_then(|e| e.get(&name)).cloned() {
                    match a {
                        TemplateArg::Value(_, t) => return Value::TemplateValue(t),
                        // `F(x)` with `F` bound to `&helper`: naming the
                        // parameter names the function (odr-uses it), so the
                        // instantiation closure and the device view keep it.
                        TemplateArg::Addr(ent, t) => {
                            self.require(ent);
                            return Value::TemplateValue(t);
                        }
                        TemplateArg::Type(t) => return Value::Type(t),
                        TemplateArg::ValueParam { .. } | TemplateArg::Dependent(_) | TemplateArg::Pack(_) => {
                            return Value::TemplateValue(self.builtin(Builtin::Int));
                        }
                        TemplateArg::Template(_) => {}
                    }
                }
            }
            // Block-scope using-declarations come before class members.
            if let Some(fns) = self.local_using_fns(&name) {
                return Value::Fns(fns.into_iter().map(|f| (f, None)).collect(), last.args.clone());
            }
            // Members of the class (and its bases), instances included.
            if let Some(class) = self.class {
                if let Some((t, mutable)) = self.field_decl(class, &name, 0) {
                    return Value::Field(t, mutable);
                }
                let fns = instances::member_fns(db, class, &name);
                if !fns.is_empty() {
                    return Value::Fns(fns, last.args.clone());
                }
                if let Some((d, env, _)) = templates::member_of(db, class, &name, Ns::Value, 0)
                    && let Some(v) = self.def_value(d, env.as_ref(), class_inst(class))
                {
                    return v;
                }
                // Then the enclosing classes' members, as members of the
                // enclosing specializations (`policy_hub<…>::Policy900`
                // calling `policy_hub`'s `select_agent_policy<…>`).
                for outer in self.enclosing_classes(class) {
                    let fns = instances::member_fns(db, outer, &name);
                    if !fns.is_empty() {
                        return Value::Fns(fns, last.args.clone());
                    }
                }
            }
            let d = scopes::lookup(db, self.map, self.scope, &name, Ns::Value);
            return match d {
                Some(Def::Fn(_) | Def::FnTemplate(_)) => {
                    let fns = scopes::lookup_fns(db, self.map, self.scope, &name);
                    Value::Fns(fns.into_iter().map(|f| (f, None)).collect(), last.args.clone())
                }
                Some(d) => self
                    .def_value_args(d, None, None, last.args.as_deref())
                    .unwrap_or_else(|| Value::Unknown(crate::error::gap!("`{name}`"))),
                None => {
                    let mut fns = scopes::lookup_fns(db, self.map, self.scope, &name);
                    if fns.is_empty() {
                        fns = self.directive_fns(&name);
                    }
                    if !fns.is_empty() {
                        return Value::Fns(fns.into_iter().map(|f| (f, None)).collect(), last.args.clone());
                    }
                    // A type name used as a value (`S(1)` parsed as a call).
                    let t = self.lower(&TypeRef::Path(p.clone()));
                    if !matches!(t.kind(db), TyKind::Error(_)) {
                        return Value::Type(t);
                    }
                    Value::Unknown(crate::SemaError::not_found(format!("unresolved name `{name}`")))
                }
            };
        }
        // Qualified: resolve the qualifier to a namespace or a class.
        let mut q = p.clone();
        q.segments.pop();
        if q.segments.is_empty() {
            // `::name`
            let fns = scopes::own_fns(db, self.map, scopes::ROOT, &name);
            if !fns.is_empty() {
                return Value::Fns(fns.into_iter().map(|f| (f, None)).collect(), last.args.clone());
            }
            return match scopes::lookup_member(db, self.map, scopes::ROOT, &name, Ns::Value) {
                Some(d) => self
                    .def_value_args(d, None, None, last.args.as_deref())
                    .unwrap_or_else(|| Value::Unknown(crate::error::gap!("`::{name}`"))),
                None => Value::Unknown(crate::error::gap!("unresolved `::{name}`")),
            };
        }
        let r = templates::resolve(self.lcx(), &q, Ns::Scope);
        let target: Result<Result<ScopeIdx, TyId>, crate::SemaError> = match r {
            Ok(templates::Resolved::Def(Def::Namespace(s), _, _)) => Ok(Ok(s)),
            Ok(templates::Resolved::Def(d, env, from)) => {
                let t = templates::def_to_ty(self.lcx(), d, env.as_ref(), from, None);
                Ok(Err(t))
            }
            Ok(templates::Resolved::Ty(t)) => Ok(Err(t)),
            Ok(templates::Resolved::Value(_)) => Err("a value as qualifier".into()),
            Err(k) => Err(crate::error::gap!("qualifier: {k:?}")),
        };
        match target {
            Ok(Ok(ns)) => {
                let fns = scopes::own_fns(db, self.map, ns, &name);
                if !fns.is_empty() {
                    return Value::Fns(fns.into_iter().map(|f| (f, None)).collect(), last.args.clone());
                }
                match scopes::lookup_member(db, self.map, ns, &name, Ns::Value) {
                    Some(d) => self
                        .def_value_args(d, None, None, last.args.as_deref())
                        .unwrap_or_else(|| Value::Unknown(crate::error::gap!("`{p}`"))),
                    None => {
                        let t = self.lower(&TypeRef::Path(p.clone()));
                        if !matches!(t.kind(db), TyKind::Error(_)) {
                            return Value::Type(t);
                        }
                        Value::Unknown(crate::error::gap!("unresolved `{p}`"))
                    }
                }
            }
            Ok(Err(t)) => {
                let c = strip_cv(db, canonical(db, t));
                if let TyKind::Enum(en) = c.kind(db) {
                    let _ = en;
                    return Value::Enumerator(c);
                }
                let Some(class) = self.class_ref(c) else {
                    return Value::Unknown(crate::error::subst_failure!("`{p}`: qualifier is not a class"));
                };
                let key = if name.starts_with('~') { scopes::DTOR_KEY.to_string() } else { name.clone() };
                let fns = instances::member_fns(db, class, &key);
                if !fns.is_empty() {
                    return Value::Fns(fns, last.args.clone());
                }
                if let Some((t, mutable)) = self.field_decl(class, &name, 0) {
                    return Value::Field(t, mutable);
                }
                match templates::member_of(db, class, &name, Ns::Value, 0)
                    .and_then(|(d, env, _)| self.def_value(d, env.as_ref(), class_inst(class)))
                {
                    Some(v) => v,
                    // A member type (`common_type<A, B>::type()`, found in a base).
                    None => {
                        let t = self.lower(&TypeRef::Path(p.clone()));
                        if !matches!(t.kind(db), TyKind::Error(_)) {
                            return Value::Type(t);
                        }
                        Value::Unknown(crate::error::subst_failure!("no member `{name}`"))
                    }
                }
            }
            Err(e) => Value::Unknown(e),
        }
    }

    fn def_value(&mut self, d: Def, env: Option<&Env>, outer: Option<InstId>) -> Option<Value> {
        self.def_value_args(d, env, outer, None)
    }

    fn def_value_args(
        &mut self,
        d: Def,
        env: Option<&Env>,
        outer: Option<InstId>,
        args: Option<&[TemplateArgRef]>,
    ) -> Option<Value> {
        let db = self.db;
        Some(match d {
            Def::Var(v) => {
                let ent = self.var_entity(v, outer, env);
                let t = self.var_ty(v, env);
                Value::Var(ent, t)
            }
            Def::Enumerator(en, _) => Value::Enumerator(mk(db, TyKind::Enum(en))),
            // A concept-id is a `bool` prvalue, not a variable.
            Def::VarTemplate(vt) if constraints::is_concept(db, vt) => {
                Value::TemplateValue(self.builtin(Builtin::Bool))
            }
            Def::VarTemplate(vt) => {
                let written = args.unwrap_or(&[]);
                let out = match crate::consteval::var_template::var_template_args(self.lcx(), vt, written) {
                    Ok(out) => out,
                    // `requires_<false>` with `template <bool B, enable_if_t<B, int> = 0>`:
                    // the template-id names no specialization (libcu++'s concept emulation).
                    Err(e) if e.is_substitution_failure() => return Some(Value::Unknown(e)),
                    Err(_) => return None,
                };
                // A partial specialization when one matches (`declval<T>` of libcu++).
                let (vt, out) = match outer {
                    None => crate::consteval::var_template::select_var_template(db, self.map, vt, &out),
                    Some(_) => (vt, out),
                };
                let decl = instances::VarDecl::Template(vt);
                let inst = instances::var_instance(db, decl, outer, out);
                let t = instances::var_type(db, inst).unwrap_or_else(|e| self.error(e));
                let t = match inst.decl(db).data(db) {
                    Some(d) => const_locals::constexpr_object_ty(db, t, &d),
                    None => t,
                };
                Value::Var(Entity::VarInst(inst), t)
            }
            Def::Fn(f) => Value::Fns(vec![(FnDecl::Fn(f), outer)], args.map(<[_]>::to_vec)),
            Def::FnTemplate(f) => Value::Fns(vec![(FnDecl::Template(f), outer)], args.map(<[_]>::to_vec)),
            _ => return None,
        })
    }

    /// The classes enclosing `class`, innermost first; those of a
    /// specialization as specializations, with the leading part of its
    /// arguments their own chain takes.
    fn enclosing_classes(&self, class: ClassRefT) -> Vec<ClassRefT> {
        let db = self.db;
        let map = self.map;
        let mut out = Vec::new();
        let mut cur = class;
        for _ in 0..16 {
            let k = match cur {
                ClassRefT::Inst(i) => i.class(db),
                ClassRefT::Class(k) => k,
            };
            let Some(&parent) = map.parent.get(&DeclKey::Class(map.class_definition(k))) else { break };
            let ScopeKind::Class(pk) = map.scope(parent).kind else { break };
            let pk = map.class_definition(pk);
            let n = templates::outer_arity(db, map, parent);
            cur = match class {
                ClassRefT::Inst(i) if n > 0 && n <= i.args(db).len() => {
                    ClassRefT::Inst(InstId::new(db, pk, i.args(db)[..n].to_vec()))
                }
                _ if n > 0 => break,
                _ => ClassRefT::Class(pk),
            };
            out.push(cur);
        }
        out
    }

    /// A variable as an entity: a static data member of a specialization is an instance.
    fn var_entity(&self, v: VarId, outer: Option<InstId>, env: Option<&Env>) -> Entity {
        let templated = self.map.parent.get(&DeclKey::Var(v)).is_some_and(|s| self.map.templated.contains(s));
        match (templated, outer.or_else(|| env.and(None))) {
            (true, Some(o)) => {
                Entity::VarInst(instances::var_instance(self.db, instances::VarDecl::Var(v), Some(o), Vec::new()))
            }
            _ => Entity::Var(v),
        }
    }

    fn var_ty(&self, v: VarId, env: Option<&Env>) -> TyId {
        let tree = item_tree_of(self.db, v.item(self.db));
        let Some(data) = tree.vars.get(v.idx(self.db) as usize) else { return self.error("var") };
        let scope = self.map.parent.get(&DeclKey::Var(v)).copied().unwrap_or(scopes::ROOT);
        let cx = LowerCx { db: self.db, map: self.map, item: v.item(self.db), scope, env };
        // `auto` is deduced from the initializer (`decltype(x)` of
        // `constexpr auto x = sizeof_bits_v<T>;`).
        let t = lowering_declared(Declared::Var(v), || {
            templates::nested(|| Ok(instances::var_decl_type(self.db, cx, data))).unwrap_or_else(|e| self.error(e))
        })
        .unwrap_or_else(|| self.error("a variable's type that depends on itself"));
        let t = match t.kind(self.db) {
            TyKind::Error(_) | TyKind::Dependent(_) if env.is_none() => {
                var_init::deduced_from_inference(self.db, v, data).unwrap_or(t)
            }
            _ => t,
        };
        const_locals::constexpr_object_ty(self.db, t, data)
    }

    // ---- calls

    fn call(&mut self, e: ExprId, callee: ExprId, args: &[ExprId]) -> (TyId, Category) {
        let db = self.db;
        let pr = Category::PRValue;
        match self.body.expr(callee).clone() {
            Expr::Path(p) => {
                let a = self.args(args);
                let v = self.resolve_value(&p);
                match v {
                    Value::Fns(cands, targs) => {
                        let mut cands = cands;
                        // Unqualified non-member calls also look in the arguments' namespaces.
                        if p.segments.len() == 1 && !p.global && cands.iter().all(|c| c.1.is_none()) {
                            let name = norm_name(&p.segments[0].name);
                            let member = cands.first().is_some_and(|c| self.is_member(c.0));
                            if !member {
                                for c in self.adl(&name, &a) {
                                    if !cands.contains(&c) {
                                        cands.push(c);
                                    }
                                }
                            }
                        }
                        // Members called without an object: `this->f()`.
                        let this_arg = self.class.filter(|_| self.has_this).map(|c| {
                            let t = class_ty(db, c);
                            let t =
                                if self.this_cv.is_empty() { t } else { mk(db, TyKind::Qualified(t, self.this_cv)) };
                            Arg { ty: t, cat: Category::LValue, null: false, braced: false }
                        });
                        self.set(callee, mk(db, TyKind::Dependent("overload set".into())), Category::LValue);
                        self.finish_call(e, &cands, targs.as_deref(), &a, this_arg)
                    }
                    Value::Type(t) => {
                        let ctad =
                            |s: &mut Self| s.ctad_template(&TypeRef::Path(p.clone())).and_then(|c| s.ctad(c, &a));
                        let t = if matches!(canonical(db, t).kind(db), TyKind::App(_) | TyKind::Inst(_)) {
                            t
                        } else {
                            ctad(self).unwrap_or(t)
                        };
                        self.res.resolutions.insert(callee, Resolution::Type(t));
                        if self.class_ref(strip_cv(db, canonical(db, t))).is_some() {
                            self.construct(CallSite::Expr(e), t, &a, false);
                            self.destroy(CallSite::Expr(e), t);
                        }
                        self.of_return(t)
                    }
                    Value::Unknown(_)
                        if p.segments.len() == 1 && !p.global && is_nvvm_intrinsic(&p.segments[0].name) =>
                    {
                        let x = Entity::Intrinsic(IntrinsicId::new(db, p.segments[0].name.clone()));
                        self.res.calls.push((CallSite::Expr(e), Callee::Entity(x)));
                        self.require(x);
                        (self.error("the result of an NVVM builtin"), pr)
                    }
                    Value::Unknown(_) if p.segments.len() == 1 && is_builtin_fn(&p.segments[0].name) => {
                        self.res.calls.push((CallSite::Expr(e), Callee::Builtin));
                        self.builtin_call(&p.segments[0].name, &a)
                    }
                    Value::Unknown(why) if p.segments.len() == 1 && !p.global => {
                        // Found only by argument-dependent lookup.
                        let name = norm_name(&p.segments[0].name);
                        let cands = self.adl(&name, &a);
                        if cands.is_empty() {
                            let why = friends::adl_only_miss(self, &name, &a)
                                .map_or_else(|| why.clone(), crate::SemaError::gap);
                            self.res.calls.push((CallSite::Expr(e), Callee::Unresolved(why.to_string().into())));
                            return (self.error(why), pr);
                        }
                        let targs = p.segments[0].args.clone();
                        self.finish_call(e, &cands, targs.as_deref(), &a, None)
                    }
                    other => {
                        let (t, c) = self.value_expr(callee, other);
                        self.set(callee, t, c);
                        self.call_object(e, t, c, &a)
                    }
                }
            }
            Expr::Member { base, arrow, name } => {
                let (bt, bc) = self.expr_cat(base);
                let a = self.args(args);
                let (obj, cat) = self.object_of(bt, bc, arrow, callee);
                let oc = strip_cv(db, canonical(db, obj));
                let last = name.last().unwrap_or_default().to_string();
                let last = norm_name(&last);
                if last.starts_with('~') {
                    // An explicit destructor call (pseudo-destructor for scalars).
                    self.destroy(CallSite::Expr(e), oc);
                    return (self.builtin(Builtin::Void), pr);
                }
                let Some(class) = self.class_ref(oc) else {
                    return (self.error("member call on a non-class"), pr);
                };
                if let Some(ft) = self.field_ty(class, &last) {
                    // A data member called: a pointer to function or a functor.
                    let (t, c) = self.of_declared(ft);
                    self.set(callee, t, c);
                    return self.call_object(e, t, c, &a);
                }
                let obj_arg = Arg { ty: obj, cat, null: false, braced: false };
                let targs = name.segments.last().and_then(|s| s.args.clone());
                match self.member_call(CallSite::Expr(e), class, obj_arg, &last, &a, targs.as_deref()) {
                    Some(r) => r,
                    None => (self.error("unresolved member call"), pr),
                }
            }
            _ => {
                let (t, c) = self.expr_cat(callee);
                let a = self.args(args);
                self.call_object(e, t, c, &a)
            }
        }
    }

    /// The type of a call of a compiler builtin (`__builtin_*`, `__atomic_*`, `__sync_*`).
    fn builtin_call(&self, name: &str, a: &[Arg]) -> (TyId, Category) {
        let db = self.db;
        let pr = Category::PRValue;
        let n = name.trim_start_matches("__builtin_");
        let arg0 = a.first().map(|x| strip_cv(db, canonical(db, x.ty)));
        let void_ptr = || mk(db, TyKind::Ptr(self.builtin(Builtin::Void)));
        let t = match n {
            "addressof" => {
                return (mk(db, TyKind::Ptr(a.first().map_or_else(|| self.error("addressof"), |x| x.ty))), pr);
            }
            "launder" | "assume_aligned" => return (arg0.unwrap_or_else(void_ptr), pr),
            "expect" | "expect_with_probability" => arg0.unwrap_or_else(|| self.builtin(Builtin::Long)),
            "unreachable" | "trap" | "abort" | "prefetch" => self.builtin(Builtin::Void),
            "memcpy" | "memmove" | "memset" | "alloca" | "malloc" | "__memcpy_chk" | "__memmove_chk"
            | "__memset_chk" => void_ptr(),
            "strlen" | "object_size" | "dynamic_object_size" => self.builtin(Builtin::ULong),
            "constant_p" | "strcmp" | "memcmp" | "strncmp" | "clz" | "clzl" | "clzll" | "ctz" | "ctzl" | "ctzll"
            | "popcount" | "popcountl" | "popcountll" | "ffs" | "ffsl" | "ffsll" | "parity" | "fpclassify"
            | "isinf_sign" => self.builtin(Builtin::Int),
            "is_constant_evaluated" => self.builtin(Builtin::Bool),
            _ if n.starts_with("is") || n.starts_with("signbit") => self.builtin(Builtin::Int),
            _ if n.starts_with("huge_val") || n.starts_with("inf") || n.starts_with("nan") => match n.chars().last() {
                Some('f') => self.builtin(Builtin::Float),
                Some('l') => self.builtin(Builtin::LongDouble),
                _ => self.builtin(Builtin::Double),
            },
            _ if name.starts_with("__atomic_") || name.starts_with("__sync_") => {
                if n.contains("test_and_set")
                    || n.contains("compare_exchange")
                    || n.contains("bool_compare")
                    || n.contains("always_lock_free")
                    || n.contains("is_lock_free")
                {
                    self.builtin(Builtin::Bool)
                } else if n.ends_with("fence") || n.ends_with("clear") || n.ends_with("store") || n.ends_with("store_n")
                {
                    self.builtin(Builtin::Void)
                } else {
                    match arg0.map(|t| t.kind(db).clone()) {
                        Some(TyKind::Ptr(x)) => strip_cv(db, canonical(db, x)),
                        _ => self.builtin(Builtin::Int),
                    }
                }
            }
            _ => arg0.unwrap_or_else(|| self.builtin(Builtin::Int)),
        };
        (t, pr)
    }

    /// A call of an object: a pointer to function, a function, or a class with `operator()`.
    fn call_object(&mut self, e: ExprId, t: TyId, c: Category, a: &[Arg]) -> (TyId, Category) {
        let db = self.db;
        let ct = strip_cv(db, canonical(db, t));
        let f = match ct.kind(db) {
            TyKind::Func(f) => Some(f.clone()),
            TyKind::Ptr(x) => match canonical(db, *x).kind(db) {
                TyKind::Func(f) => Some(f.clone()),
                _ => None,
            },
            _ => None,
        };
        if let Some(f) = f {
            self.res.calls.push((CallSite::Expr(e), Callee::Builtin));
            return self.of_return(f.ret);
        }
        if let TyKind::Closure(k) = ct.kind(db) {
            return self.call_closure(e, *k, a);
        }
        if let Some(class) = self.class_ref(ct) {
            let obj = Arg { ty: t, cat: c, null: false, braced: false };
            if let Some(r) = self.member_call(CallSite::Expr(e), class, obj, "operator()", a, None) {
                return r;
            }
        }
        self.res.calls.push((CallSite::Expr(e), Callee::Unresolved("call of a non-function".into())));
        (self.error("call of a non-function"), Category::PRValue)
    }

    /// Calls member `name` of `class` on `obj`.
    fn member_call(
        &mut self,
        site: CallSite,
        class: ClassRefT,
        obj: Arg,
        name: &str,
        a: &[Arg],
        targs: Option<&[TemplateArgRef]>,
    ) -> Option<(TyId, Category)> {
        let cands = instances::member_fns(self.db, class, name);
        if cands.is_empty() {
            return None;
        }

        match self.resolve_overload(&cands, targs, a, Some(obj)) {
            Ok((cand, ta, sig)) => {
                let ent = self.entity_of(cand, ta);
                self.require(ent);
                self.res.calls.push((site, Callee::Entity(ent)));
                self.convert_args(site, &sig, a);
                let ret = self.deduced_return(ent, sig.ret);
                Some(self.returned(site, ret))
            }
            Err(err) => {
                self.res.calls.push((site, Callee::Unresolved(err)));
                None
            }
        }
    }

    /// The result of a call returning `ret`: a class temporary is destroyed.
    fn returned(&mut self, site: CallSite, ret: TyId) -> (TyId, Category) {
        let (t, c) = self.of_return(ret);
        if c == Category::PRValue && self.is_class(t) {
            self.destroy(site, t);
        }
        (t, c)
    }

    fn finish_call(
        &mut self,
        e: ExprId,
        cands: &[Cand],
        targs: Option<&[TemplateArgRef]>,
        a: &[Arg],
        this_arg: Option<Arg>,
    ) -> (TyId, Category) {
        match self.resolve_overload(cands, targs, a, this_arg) {
            Ok((cand, ta, sig)) => {
                let ent = self.entity_of(cand, ta);
                self.require(ent);
                self.res.calls.push((CallSite::Expr(e), Callee::Entity(ent)));
                for (arg, &p) in a.iter().zip(&sig.params) {
                    if arg.braced && self.init_list_elem(p).is_some() {
                        self.materialized_init_list(p);
                    }
                }
                self.convert_args(CallSite::Expr(e), &sig, a);
                self.braced_aggregate_args(e, &sig);
                let ret = self.deduced_return(ent, sig.ret);
                self.returned(CallSite::Expr(e), ret)
            }
            Err(err) => {
                let why = err.to_string();
                self.res.calls.push((CallSite::Expr(e), Callee::Unresolved(err)));
                (self.error(&why), Category::PRValue)
            }
        }
    }

    /// Braced arguments of call `e` that initialize an aggregate class
    /// parameter (by value or by reference to a temporary): aggregate
    /// initialization (`k({.b = 1})`). Other braced arguments are left alone.
    fn braced_aggregate_args(&mut self, e: ExprId, sig: &FnSig) {
        let db = self.db;
        let Expr::Call { args, .. } = self.body.expr(e).clone() else { return };
        if args.iter().any(|x| matches!(self.body.expr(*x), Expr::PackExpansion(_))) {
            return;
        }
        for (x, p) in args.iter().zip(&sig.params) {
            let Expr::InitList(xs) = self.body.expr(*x).clone() else { continue };
            let pc = collapse(db, canonical(db, *p));
            let target = match pc.kind(db) {
                TyKind::LRef(t) | TyKind::RRef(t) => strip_cv(db, canonical(db, *t)),
                _ => strip_cv(db, pc),
            };
            if self.class_ref(target).is_some() {
                self.aggregate_init(target, &xs);
            }
        }
    }

    /// A launch's configuration (`k<<<grid, block, shmem, stream>>>(…)`):
    /// cudafe++ and cicc rewrite the launch as
    /// `(__cudaPushCallConfiguration(grid, block, shmem, stream)) ? (void)0 : k(…)`
    /// (spec 20 §9), so the configuration is that call's arguments: the
    /// function is required and the integers converted to `dim3` by its
    /// constructor. Without the declaration (no CUDA runtime header) the
    /// expressions are only typed.
    fn launch_configuration(&mut self, config: &[ExprId]) {
        let a = self.args(config);
        let push = Path {
            global: true,
            segments: vec![PathSegment { name: "__cudaPushCallConfiguration".into(), args: None }],
        };
        let Value::Fns(cands, _) = self.resolve_value(&push) else { return };
        let Ok((cand, ta, sig)) = self.resolve_overload(&cands, None, &a, None) else { return };
        let ent = self.entity_of(cand, ta);
        self.require(ent);
        // Each argument's conversion at its own expression (`folded_calls`
        // folds those of constant arguments).
        for ((&c, arg), &p) in config.iter().zip(&a).zip(&sig.params) {
            let one = FnSig { params: vec![p], ..sig.clone() };
            self.convert_args(CallSite::Expr(c), &one, std::slice::from_ref(arg));
        }
    }

    /// Arguments converted to a class parameter by a converting constructor
    /// (a user-defined conversion): the constructor, and the temporary's destructor.
    fn convert_args(&mut self, site: CallSite, sig: &FnSig, a: &[Arg]) {
        let db = self.db;
        if self.implicit_depth > 2 {
            return;
        }
        self.implicit_depth += 1;
        for (arg, p) in a.iter().zip(&sig.params) {
            if arg.braced {
                continue;
            }
            if let TyKind::Closure(k) = strip_cv(db, canonical(db, arg.ty)).kind(db)
                && matches!(canonical(db, *p).kind(db), TyKind::Ptr(_))
            {
                self.closure_conversion(*k);
            }
            let pc = collapse(db, canonical(db, *p));
            let target = match pc.kind(db) {
                TyKind::LRef(x) | TyKind::RRef(x) => strip_cv(db, canonical(db, *x)),
                _ => strip_cv(db, pc),
            };
            if self.class_ref(target).is_none() {
                continue;
            }
            let at = strip_cv(db, canonical(db, arg.ty));
            if matches!(at.kind(db), TyKind::Error(_) | TyKind::Dependent(_)) {
                continue;
            }
            // A reference binds an object of its class (or a derived one)
            // directly; a class parameter is copy- or move-constructed from
            // a glvalue (a prvalue of its own class initializes it in place).
            let by_value = !matches!(pc.kind(db), TyKind::LRef(_) | TyKind::RRef(_));
            let related = self.same_class(at, target) || self.derives(at, target);
            if related && (!by_value || (arg.cat == Category::PRValue && self.same_class(at, target))) {
                continue;
            }
            // A trivially copyable class is copied bitwise: its defaulted
            // copy and move constructors have no symbol
            // (`pair<_Base_ptr, _Base_ptr>` passed by value).
            if related {
                let trivial = self.class_ref(target).is_some_and(|c| {
                    crate::templates::trivial::class_is(db, c, crate::templates::trivial::Trivially::Copyable, 0)
                        .unwrap_or(false)
                });
                if trivial {
                    continue;
                }
            }
            let before = self.res.calls.len();
            self.construct(site, target, &[*arg], false);
            if let Some((_, Callee::Unresolved(_))) = self.res.calls.get(before) {
                self.res.calls.truncate(before);
            } else {
                self.destroy(site, target);
            }
        }
        self.implicit_depth -= 1;
    }

    /// Functions named `name` in the namespaces associated with the
    /// arguments' classes (and their bases), and the hidden friends of
    /// those classes.
    fn adl(&self, name: &str, a: &[Arg]) -> Vec<Cand> {
        let db = self.db;
        let mut nss: Vec<ScopeIdx> = Vec::new();
        let mut classes: Vec<ClassRefT> = Vec::new();
        for x in a {
            let mut stack = vec![strip_cv(db, canonical(db, x.ty))];
            let mut n = 0;
            while let Some(t) = stack.pop() {
                n += 1;
                if n > 16 {
                    break;
                }
                let t = strip_cv(db, canonical(db, t));
                if matches!(t.kind(db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_)) {
                    self.push_base_nss(&mut nss, t);
                }
                match t.kind(db) {
                    TyKind::Ptr(y) | TyKind::LRef(y) | TyKind::RRef(y) | TyKind::Array(y, _) => stack.push(*y),
                    TyKind::Class(c) => {
                        self.push_ns(&mut nss, DeclKey::Class(*c));
                        friends::push_class(&mut classes, ClassRefT::Class(self.map.class_definition(*c)));
                    }
                    TyKind::Enum(en) => self.push_ns(&mut nss, DeclKey::Enum(*en)),
                    TyKind::App(app) => {
                        self.push_ns(&mut nss, DeclKey::Class(app.template(db)));
                        if let Some(c) = self.class_ref(t) {
                            friends::push_class(&mut classes, c);
                        }
                        for ta in app.args(db) {
                            if let TemplateArg::Type(t) = ta {
                                stack.push(*t);
                            }
                        }
                    }
                    TyKind::Inst(i) => {
                        self.push_ns(&mut nss, DeclKey::Class(i.class(db)));
                        friends::push_class(&mut classes, ClassRefT::Inst(*i));
                    }
                    _ => {}
                }
            }
        }
        // The bases of the associated classes are associated too.
        for k in friends::with_bases(db, &mut classes) {
            self.push_ns(&mut nss, DeclKey::Class(k));
        }
        let mut out = Vec::new();
        for ns in nss {
            for f in scopes::own_fns(db, self.map, ns, name) {
                if !self.is_member(f) {
                    out.push((f, None));
                }
            }
        }
        for c in friends::hidden_friends(db, self.map, &classes, name) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// [basic.lookup.argdep]/3: the namespaces of a class's direct and
    /// indirect bases are associated too (not their template arguments'):
    /// thrust's `derived_cast(policy)` is found in `thrust::detail` through
    /// `execution_policy_base<D>`.
    fn push_base_nss(&self, out: &mut Vec<ScopeIdx>, t: TyId) {
        let db = self.db;
        let Ok(c) = templates::class_of(db, t) else { return };
        let mut stack = vec![c];
        let mut seen = 0;
        while let Some(c) = stack.pop() {
            seen += 1;
            if seen > 64 {
                break;
            }
            for b in templates::class_bases_of(db, c).iter() {
                if let Some(bc) = b.class {
                    let k = match bc {
                        ClassRefT::Class(k) => k,
                        ClassRefT::Inst(i) => i.class(db),
                    };
                    self.push_ns(out, DeclKey::Class(k));
                    stack.push(bc);
                }
            }
        }
    }

    fn push_ns(&self, out: &mut Vec<ScopeIdx>, k: DeclKey) {
        let mut s = self.map.parent.get(&k).copied();
        while let Some(x) = s {
            if !matches!(self.map.scope(x).kind, ScopeKind::Class(_)) {
                if !out.contains(&x) {
                    out.push(x);
                }
                return;
            }
            s = self.map.scope(x).parent;
        }
    }

    fn is_member(&self, f: FnDecl) -> bool {
        let Some(data) = f.data(self.db) else { return false };
        !data.friend
            && (data.in_class
                || instances::fn_scope(self.db, f).is_some_and(|s| instances::is_class_scope(self.map, s)))
    }

    /// Overloaded operator `name` for `args` (the first is the object for members), if any.
    fn operator(&mut self, e: ExprId, name: &str, args: &[Arg]) -> Option<(TyId, Category)> {
        let db = self.db;
        if !args.iter().any(|a| self.is_class(a.ty) || self.is_enum(a.ty)) {
            return None;
        }
        let mut cands: Vec<Cand> = Vec::new();
        let first_class = self.class_ref(strip_cv(db, canonical(db, args[0].ty)));
        let members = match first_class {
            Some(c) => instances::member_fns(db, c, name),
            None => Vec::new(),
        };
        for f in scopes::lookup_fns(db, self.map, self.scope, name) {
            if !self.is_member(f) {
                cands.push((f, None));
            }
        }
        for c in self.adl(name, args) {
            if !cands.contains(&c) {
                cands.push(c);
            }
        }
        // Enumeration operands only (`infer/enum_operands.rs`).
        if first_class.is_none() && !args.iter().any(|a| self.is_class(a.ty)) {
            cands.retain(|c| self.enum_operator_candidate(*c, args));
        }
        // Members take the first operand as the object; try both sets together.
        let mut best: Option<(Cand, Vec<TemplateArg>, FnSig, Vec<Rank>)> = None;
        if !members.is_empty()
            && let Ok(r) = self.resolve_overload_ranked(&members, None, &args[1..], Some(args[0]))
        {
            best = Some(r);
        }
        if !cands.is_empty()
            && let Ok(r) = self.resolve_overload_ranked(&cands, None, args, None)
        {
            let better = match &best {
                None => true,
                Some(b) => compare(&r.3, &b.3) == std::cmp::Ordering::Less,
            };
            if better {
                best = Some(r);
            }
        }
        let Some((cand, ta, sig, _)) = best else { return self.rewritten_operator(e, name, args) };
        let ent = self.entity_of(cand, ta);
        self.require(ent);
        self.res.calls.push((CallSite::Expr(e), Callee::Entity(ent)));
        // `friend constexpr auto operator|(R&&, Self&&)`: the deduced type.
        let ret = self.deduced_return(ent, sig.ret);
        Some(self.returned(CallSite::Expr(e), ret))
    }

    /// `operator new`/`operator delete`: the class's own, else the global ones.
    fn global_operator(&mut self, e: ExprId, name: &str, args: &[Arg], class: Option<ClassRefT>) -> bool {
        let db = self.db;
        // Scopes know operators by their name keys (`operatornew`).
        let name = &norm_name(name);
        let mut cands: Vec<Cand> = Vec::new();
        if let Some(c) = class {
            cands = instances::member_fns(db, c, name);
        }
        if cands.is_empty() {
            cands = scopes::own_fns(db, self.map, scopes::ROOT, name).into_iter().map(|f| (f, None)).collect();
        }
        if cands.is_empty() {
            return false;
        }
        let exact: Vec<Cand> = cands
            .iter()
            .copied()
            .filter(|c| {
                c.0.data(db).is_some_and(|d| {
                    d.ty.params.len() == args.len() || (d.ty.params.len() > args.len() && args.len() > 1)
                })
            })
            .collect();
        if exact.is_empty() {
            return false;
        }
        match self.resolve_overload(&exact, None, args, None) {
            Ok((cand, ta, _)) => {
                let ent = self.entity_of(cand, ta);
                self.require(ent);
                self.res.calls.push((CallSite::Expr(e), Callee::Entity(ent)));
                true
            }
            Err(_) => false,
        }
    }

    /// A class operand converted to a non-class type: its conversion function.
    fn conversion(&mut self, e: ExprId, from: TyId, cat: Category, to: TyId) {
        let db = self.db;
        let Some(class) = self.class_ref(strip_cv(db, canonical(db, from))) else { return };
        let cands = instances::member_fns(db, class, scopes::CONV_KEY);
        let obj = Arg { ty: from, cat, null: false, braced: false };
        let mut best: Option<(Cand, u32)> = None;
        for c in cands {
            let Ok(sig) = instances::signature(db, instances::fn_instance(db, c.0, c.1, Vec::new())) else { continue };
            let r = strip_cv(db, canonical(db, sig.ret));
            let score = if r == to {
                0
            } else if is_arith(db, r) && is_arith(db, to) {
                1
            } else {
                2
            };
            if best.is_none_or(|(_, s)| score < s) {
                best = Some((c, score));
            }
        }
        let _ = obj;
        if let Some((c, _)) = best {
            let ent = self.entity_of(c, Vec::new());
            self.require(ent);
            self.res.calls.push((CallSite::Expr(e), Callee::Entity(ent)));
        }
    }

    fn unary(&mut self, e: ExprId, op: UnaryOp, t: TyId, c: Category) -> (TyId, Category) {
        let db = self.db;
        let pr = Category::PRValue;
        let a = Arg { ty: t, cat: c, null: false, braced: false };
        let name = match op {
            UnaryOp::Neg => "operator-",
            UnaryOp::Plus => "operator+",
            UnaryOp::Not => "operator!",
            UnaryOp::BitNot => "operator~",
            UnaryOp::Deref => "operator*",
            // An overloaded unary `operator&` (thrust's `reference<T>`
            // gives its `pointer<T>`), unless `&C::m` forms a member pointer.
            UnaryOp::AddrOf if !self.names_field(e) => "operator&",
            UnaryOp::AddrOf => "",
            UnaryOp::PreInc | UnaryOp::PostInc => "operator++",
            UnaryOp::PreDec | UnaryOp::PostDec => "operator--",
            UnaryOp::Other => "",
        };
        if !name.is_empty() && (self.is_class(t) || self.is_enum(t)) {
            let int = Arg { ty: self.builtin(Builtin::Int), cat: pr, null: true, braced: false };
            let args: Vec<Arg> = if matches!(op, UnaryOp::PostInc | UnaryOp::PostDec) { vec![a, int] } else { vec![a] };
            if let Some(r) = self.operator(e, name, &args) {
                return r;
            }
        }
        let ct = canonical(db, t);
        match op {
            UnaryOp::Deref => match strip_cv(db, ct).kind(db) {
                TyKind::Ptr(x) | TyKind::Array(x, _) => (*x, Category::LValue),
                TyKind::Func(_) => (t, Category::LValue),
                _ => (self.error("dereference of a non-pointer"), Category::LValue),
            },
            UnaryOp::AddrOf => {
                // Only a qualified name forms a pointer to member
                // ([expr.unary.op]/4): `&m` in a member function is `&this->m`.
                if let Expr::Path(p) = self.body.expr(self.inner_operand(e)) {
                    if let (true, Some(Resolution::Field)) =
                        (p.segments.len() > 1, self.res.resolutions.get(&self.inner_operand(e)))
                    {
                        // `&S::m`: a pointer to member of the class the
                        // qualifier names (`std::string Measurement::*`).
                        let mut q = p.clone();
                        q.segments.pop();
                        let class = strip_cv(db, canonical(db, self.lower(&TypeRef::Path(q))));
                        if self.class_ref(class).is_some() {
                            return (mk(db, TyKind::MemPtr { class, pointee: strip_cv(db, canonical(db, t)) }), pr);
                        }
                        return (mk(db, TyKind::Dependent("pointer to member".into())), pr);
                    }
                    // `&C::f` of a non-static member function: a pointer to
                    // member function (`void (C::*)(A) const`), what
                    // `call_once(flag, &C::f, this, a)` deduces.
                    if let (true, Some(Resolution::Entity(ent)), TyKind::Func(_)) =
                        (p.segments.len() > 1, self.res.resolutions.get(&self.inner_operand(e)).cloned(), ct.kind(db))
                    {
                        let decl = match ent {
                            Entity::Fn(f) => Some(FnDecl::Fn(f)),
                            Entity::FnInst(i) => Some(i.decl(db)),
                            _ => None,
                        };
                        if decl.is_some_and(|d| self.is_member(d) && d.data(db).is_some_and(|x| !x.linkage.is_static)) {
                            let mut q = p.clone();
                            q.segments.pop();
                            let class = strip_cv(db, canonical(db, self.lower(&TypeRef::Path(q))));
                            if self.class_ref(class).is_some() {
                                return (mk(db, TyKind::MemPtr { class, pointee: ct }), pr);
                            }
                        }
                    }
                }
                (mk(db, TyKind::Ptr(t)), pr)
            }
            UnaryOp::Not => (self.builtin(Builtin::Bool), pr),
            UnaryOp::Neg | UnaryOp::Plus | UnaryOp::BitNot => (promote(db, strip_cv(db, ct)), pr),
            UnaryOp::PreInc | UnaryOp::PreDec => (t, Category::LValue),
            UnaryOp::PostInc | UnaryOp::PostDec => (strip_cv(db, ct), pr),
            UnaryOp::Other => (t, c),
        }
    }

    /// Whether the operand of `&` is a name that resolved to a field.
    fn names_field(&self, e: ExprId) -> bool {
        let x = self.inner_operand(e);
        matches!(self.body.expr(x), Expr::Path(_)) && matches!(self.res.resolutions.get(&x), Some(Resolution::Field))
    }

    fn inner_operand(&self, e: ExprId) -> ExprId {
        match self.body.expr(e) {
            Expr::Unary { expr, .. } => *expr,
            _ => e,
        }
    }

    fn binary(&mut self, e: ExprId, op: body::BinaryOp, l: Arg, r: Arg) -> (TyId, Category) {
        use body::BinaryOp as B;
        let db = self.db;
        let pr = Category::PRValue;
        if !matches!(op, B::PtrMem | B::PtrMemArrow)
            && (self.is_class(l.ty) || self.is_class(r.ty) || self.is_enum(l.ty) || self.is_enum(r.ty))
            && let Some(res) = self.operator(e, &format!("operator{}", op.spelling()), &[l, r])
        {
            return res;
        }
        let lt = strip_cv(db, canonical(db, l.ty));
        let rt = strip_cv(db, canonical(db, r.ty));
        match op {
            B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge | B::And | B::Or => (self.builtin(Builtin::Bool), pr),
            B::Spaceship => (mk(db, TyKind::Dependent("std::strong_ordering".into())), pr),
            B::PtrMem | B::PtrMemArrow => match rt.kind(db) {
                TyKind::MemPtr { pointee, .. } => (*pointee, Category::LValue),
                _ => (self.error("pointer to member"), Category::LValue),
            },
            B::Shl | B::Shr => (promote(db, lt), pr),
            B::Add | B::Sub => {
                let lp = matches!(lt.kind(db), TyKind::Ptr(_) | TyKind::Array(..));
                let rp = matches!(rt.kind(db), TyKind::Ptr(_) | TyKind::Array(..));
                match (lp, rp) {
                    (true, true) => (self.builtin(Builtin::Long), pr),
                    (true, false) => (decay(db, lt), pr),
                    (false, true) => (decay(db, rt), pr),
                    _ => (arith(db, lt, rt), pr),
                }
            }
            _ => (arith(db, lt, rt), pr),
        }
    }

    // ---- overload resolution

    fn resolve_overload(
        &mut self,
        cands: &[Cand],
        targs: Option<&[TemplateArgRef]>,
        args: &[Arg],
        obj: Option<Arg>,
    ) -> Result<(Cand, Vec<TemplateArg>, FnSig), Unresolved> {
        self.resolve_overload_ranked(cands, targs, args, obj).map(|(c, a, s, _)| (c, a, s))
    }

    fn resolve_overload_ranked(
        &mut self,
        cands: &[Cand],
        targs: Option<&[TemplateArgRef]>,
        args: &[Arg],
        obj: Option<Arg>,
    ) -> Result<(Cand, Vec<TemplateArg>, FnSig, Vec<Rank>), Unresolved> {
        if self.stopped() {
            return Err("stopped at a lambda".into());
        }
        let db = self.db;
        let mut viable: Vec<(Cand, Vec<TemplateArg>, FnSig, Vec<Rank>)> = Vec::new();
        let mut why = crate::SemaError::gap("no viable candidate");
        for &c in cands.iter().take(256) {
            let Some(data) = c.0.data(db) else { continue };
            // Non-static members need an object; static ones and non-members ignore it.
            let is_static_member = data.linkage.is_static;
            let member = !data.friend
                && (data.in_class
                    || c.1.is_some()
                    || instances::fn_scope(db, c.0).is_some_and(|s| instances::is_class_scope(self.map, s)));
            let takes_obj = member && !is_static_member && !matches!(data.name, FnName::Ctor);
            if data.ty.params.len() < args.len() && !data.ty.variadic && data.pack_params.is_empty() {
                continue;
            }
            // Too few arguments: the missing ones must have defaults.
            if data.pack_params.is_empty() && args.len() < data.ty.params.len() {
                let defaults = param_defaults(db, c.0);
                if args.len() + (defaults as usize) < data.ty.params.len() {
                    why = "too few arguments".into();
                    continue;
                }
            }
            let (targs_v, sig) = match c.0 {
                FnDecl::Fn(_) => {
                    if targs.is_some() {
                        continue;
                    }
                    match instances::signature(db, instances::fn_instance(db, c.0, c.1, Vec::new())) {
                        Ok(s) => (Vec::new(), s),
                        Err(e) => {
                            why = e;
                            continue;
                        }
                    }
                }
                FnDecl::Template(_) => match self.deduce(c, &data, targs, args) {
                    Ok(a) => match instances::signature(db, instances::fn_instance(db, c.0, c.1, a.clone())) {
                        Ok(s) => (a, s),
                        Err(e) => {
                            why = e;
                            continue;
                        }
                    },
                    Err(e) => {
                        why = e;
                        continue;
                    }
                },
            };
            if sig.params.len() < args.len() && !sig.variadic {
                continue;
            }
            // Missing arguments must have defaults (not recorded: assumed, ranked last).
            let missing = sig.params.len().saturating_sub(args.len());
            let mut ranks = Vec::new();
            let mut ok = true;
            if takes_obj {
                if let Some(o) = obj {
                    // The implicit object parameter: cv of the method must cover the object's.
                    let ocv = cv_of(db, canonical(db, o.ty));
                    if (ocv.c && !sig.cv.c) || (ocv.v && !sig.cv.v) {
                        ok = false;
                    }
                    if sig.ref_qual == 1 && o.cat != Category::LValue && !sig.cv.c {
                        ok = false;
                    }
                    if sig.ref_qual == 2 && o.cat == Category::LValue {
                        ok = false;
                    }
                    ranks.push(self.object_rank(c, o, sig.cv));
                } else {
                    ranks.push(Rank { reference: false, major: 0, minor: 0 });
                }
            }
            for (i, a) in args.iter().enumerate() {
                let r = match sig.params.get(i) {
                    Some(p) => self.conv_rank(*a, *p),
                    None => Some(Rank { reference: false, major: 4, minor: 0 }),
                };
                match r {
                    Some(r) => ranks.push(r),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                why = "no conversion for an argument".into();
                continue;
            }
            // Tie-breaks: defaults used, templates, generality.
            let generic = match c.0 {
                FnDecl::Template(_) => 1 + self.generic_params(&data) as u16,
                FnDecl::Fn(_) => 0,
            };
            ranks.push(Rank { reference: false, major: 0, minor: missing as u16 });
            ranks.push(Rank { reference: false, major: 0, minor: generic });
            viable.push((c, targs_v, sig, ranks));
        }
        if viable.is_empty() {
            return Err(why.to_string().into());
        }
        // Substitution failures (error types in a signature) lose to clean candidates (SFINAE).
        if viable.iter().any(|v| !sig_has_error(db, &v.2)) {
            viable.retain(|v| !sig_has_error(db, &v.2));
        }
        // Candidates whose constraints are false are not viable
        // ([over.match.viable]/3). When every candidate is rejected so, the
        // model is more likely wrong than the program: all are kept.
        if viable.len() > 1 {
            let unsat: Vec<bool> = viable
                .iter()
                .map(|v| {
                    v.0.0.data(db).is_some_and(|d| !d.constraints.is_empty())
                        && constraints::constraints_satisfied(db, instances::fn_instance(db, v.0.0, v.0.1, v.1.clone()))
                            == Some(false)
                })
                .collect();
            if unsat.iter().any(|u| !u) {
                let mut k = 0;
                viable.retain(|_| {
                    k += 1;
                    !unsat[k - 1]
                });
            }
        }
        let mut best = 0;
        for i in 1..viable.len() {
            if compare(&viable[i].3, &viable[best].3) == std::cmp::Ordering::Less {
                best = i;
            }
        }
        best = partial_order::prefer_more_specialized(self, &viable, best, args.len());
        // Otherwise equal candidates: the more constrained wins (those
        // left whose constraints are false are the all-false case above).
        if viable.iter().enumerate().any(|(i, v)| i != best && v.3 == viable[best].3) {
            let tied: Vec<usize> = (0..viable.len()).filter(|&i| viable[i].3 == viable[best].3).collect();
            let unsat = |v: &(Cand, Vec<TemplateArg>, FnSig, Vec<Rank>)| {
                v.0.0.data(db).is_some_and(|d| !d.constraints.is_empty())
                    && constraints::constraints_satisfied(db, instances::fn_instance(db, v.0.0, v.0.1, v.1.clone()))
                        == Some(false)
            };
            let sat: Vec<usize> = tied.iter().copied().filter(|&i| !unsat(&viable[i])).collect();
            let pool = if sat.is_empty() { tied } else { sat };
            let w = |v: &(Cand, Vec<TemplateArg>, FnSig, Vec<Rank>)| constraints::weight(db, self.map, v.0.0);
            // The partial-ordering winner stays unless a candidate is more constrained.
            best = if pool.contains(&best) { best } else { pool[0] };
            let mut bw = w(&viable[best]);
            for &i in &pool {
                let wi = w(&viable[i]);
                if wi > bw {
                    best = i;
                    bw = wi;
                }
            }
        }
        // A deleted function takes part in overload resolution; selecting
        // it makes the call ill-formed ([dcl.fct.def.delete]/2).
        if viable[best].0.0.data(db).is_some_and(|d| d.deleted) {
            let (cand, targs) = (viable[best].0, viable[best].1.clone());
            return Err(Unresolved::Deleted(self.entity_of(cand, targs)));
        }
        Ok(viable.swap_remove(best))
    }

    /// Parameters whose written type is a bare template parameter (`T`, `T&&`, `const T&`): less specialized.
    fn generic_params(&self, data: &crate::item_tree::FnData) -> usize {
        data.ty
            .params
            .iter()
            .filter(|p| {
                let mut t = *p;
                loop {
                    match t {
                        TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) => t = x,
                        TypeRef::Path(p) => {
                            return p.segments.len() == 1
                                && p.segments[0].args.is_none()
                                && p.segments[0].name.len() <= 2;
                        }
                        _ => return false,
                    }
                }
            })
            .count()
    }

    /// Explicit template arguments of a candidate (all of them given: `true`).
    fn explicit_args(&self, c: Cand, written: &[TemplateArgRef]) -> Result<(Vec<TemplateArg>, bool), crate::SemaError> {
        deduce_call::explicit_args(self.lcx(), c.0, written)
    }

    /// Deduces a function template's arguments from a call (explicit ones first, then defaults).
    fn deduce(
        &self,
        c: Cand,
        data: &crate::item_tree::FnData,
        targs: Option<&[TemplateArgRef]>,
        args: &[Arg],
    ) -> Result<Vec<TemplateArg>, crate::SemaError> {
        let outer = match c.1 {
            Some(o) => templates::inst_env(self.db, o)?,
            None => Env::default(),
        };
        deduce_call::deduce(self.lcx(), c.0, &outer, data, targs, args)
    }

    /// The implicit conversion sequence rank from argument `a` to parameter type `p` (None: no conversion).
    fn conv_rank(&self, a: Arg, p: TyId) -> Option<Rank> {
        let db = self.db;
        // A parameter declared as an array or function is a pointer ([dcl.fct]/5).
        let pc = decay(db, collapse(db, canonical(db, p)));
        let at = canonical(db, a.ty);
        let unknown = |t: TyId| {
            matches!(
                t.kind(db),
                TyKind::Error(_) | TyKind::Dependent(_) | TyKind::TemplateParam { .. } | TyKind::Specialization(_)
            )
        };
        // Reference parameters.
        let (target, refk) = match pc.kind(db) {
            TyKind::LRef(x) => (canonical(db, *x), 1),
            TyKind::RRef(x) => (canonical(db, *x), 2),
            _ => (pc, 0),
        };
        if unknown(target) || unknown(strip_cv(db, target)) {
            return Some(Rank { reference: false, major: 2, minor: 5 });
        }
        // The cv of an array is its elements' ([basic.type.qualifier]/3):
        // a reference to `const T[N]` binds a `T[N]` lvalue directly.
        let (tcv, tb) = array_cv(db, target);
        // A braced list has no type of its own (ranked before `unknown`).
        if a.braced {
            // The list initializes a temporary, an rvalue: binding it to
            // `&&` beats `const&` as for any temporary (`unordered_map::
            // operator[](key_type&&)` over `(const key_type&)` for
            // `grid[{3, 4}]`, [over.ics.rank]/3.3 with /3.2.3).
            let minor = u16::from(refk == 1);
            return if self.class_ref(tb).is_some() || matches!(tb.kind(db), TyKind::Array(..)) {
                Some(Rank { reference: false, major: 3, minor })
            } else {
                Some(Rank { reference: false, major: 2, minor })
            };
        }
        if unknown(at) || unknown(strip_cv(db, at)) {
            return Some(Rank { reference: false, major: 2, minor: 5 });
        }
        let (acv, ab) = array_cv(db, at);
        let same = tb == ab || self.same_class(tb, ab);
        let derived = !same && self.derives(ab, tb);
        match refk {
            1 if !tcv.c || tcv.v => {
                // Non-const lvalue reference: binds lvalues of the same (or derived) type only.
                if a.cat != Category::LValue || (acv.c && !tcv.c) || (acv.v && !tcv.v) {
                    return None;
                }
                if same {
                    return Some(Rank { reference: true, major: 0, minor: 0 });
                }
                if derived {
                    return Some(Rank { reference: false, major: 2, minor: self.base_distance_penalty(ab, tb) });
                }
                return None;
            }
            1 | 2 => {
                if refk == 2 && a.cat == Category::LValue && (same || derived) {
                    // An rvalue reference does not bind an lvalue.
                    return None;
                }
                if same || derived {
                    if (acv.c && !tcv.c) || (acv.v && !tcv.v) {
                        return None;
                    }
                    // Binding an rvalue to `&&` beats `const&`; an lvalue to `&` beats `const&`.
                    let minor = if refk == 2 {
                        0
                    } else if a.cat == Category::LValue {
                        1
                    } else {
                        2
                    };
                    let minor = if same { minor } else { minor + self.base_distance_penalty(ab, tb) };
                    return Some(Rank { reference: true, major: if same { 0 } else { 2 }, minor });
                }
                // A temporary is made: the rank of the value conversion. The
                // temporary is an rvalue: binding it to `&&` beats `const&`
                // ([over.ics.rank]/3.2.3; `unique_ptr(p, D&&)` over
                // `unique_ptr(p, const D&)` from a lambda).
                let r = self.value_rank(a, ab, tb)?;
                return Some(Rank { reference: false, major: r.major, minor: r.minor + 3 + u16::from(refk == 1) });
            }
            _ => {}
        }
        if same {
            // A class passed by value from a const lvalue: no better than
            // binding it to `const C&` (minor 1 above; the ranks between
            // reference bindings, [over.ics.rank]/3.2.6, do not prefer a
            // copy), so `template<class P> S(P)` does not beat `S(const S&)`.
            if a.cat == Category::LValue && acv.c && self.class_ref(tb).is_some() {
                return Some(Rank { reference: false, major: 0, minor: 1 });
            }
            return Some(Rank { reference: false, major: 0, minor: 0 });
        }
        if derived && self.class_ref(tb).is_some() {
            // Copying a derived object into a base parameter (slicing, via the copy constructor).
            return Some(Rank { reference: false, major: 2, minor: self.base_distance_penalty(ab, tb) });
        }
        self.value_rank(a, ab, tb)
    }

    fn value_rank(&self, a: Arg, from: TyId, to: TyId) -> Option<Rank> {
        let db = self.db;
        if from == to || self.same_class(from, to) {
            return Some(Rank { reference: false, major: 0, minor: 0 });
        }
        let to_class = self.class_ref(to).is_some();
        let from_class = self.class_ref(from).is_some();
        if to_class || from_class {
            if to_class && from_class && self.derives(from, to) {
                return Some(Rank { reference: false, major: 2, minor: 0 });
            }
            // A user-defined conversion (constructor or conversion function).
            return self.user_conversion_possible(a, from, to).then_some(Rank { reference: false, major: 3, minor: 0 });
        }
        let f = decay(db, from);
        match (f.kind(db), to.kind(db)) {
            (TyKind::Builtin(x), TyKind::Builtin(y)) => {
                if x == y {
                    return Some(Rank { reference: false, major: 0, minor: 0 });
                }
                if *y == Builtin::NullPtr {
                    return None;
                }
                if *x == Builtin::NullPtr {
                    return if *y == Builtin::Bool {
                        Some(Rank { reference: false, major: 2, minor: 0 })
                    } else {
                        None
                    };
                }
                if *x == Builtin::Void || *y == Builtin::Void {
                    return None;
                }
                let promo = matches!((x, y), (Builtin::Float, Builtin::Double))
                    || (int_rank(*x) < int_rank(Builtin::Int) && *y == Builtin::Int && is_int(*x));
                Some(Rank { reference: false, major: if promo { 1 } else { 2 }, minor: 0 })
            }
            (TyKind::Enum(e), TyKind::Builtin(y)) => {
                if *y == Builtin::NullPtr || *y == Builtin::Void {
                    return None;
                }
                // [conv.prom]/3–4: to the promoted type, or to a fixed
                // underlying type, which is the better of the two
                // ([over.ics.rank]/4.2); any other integral type is a
                // conversion.
                let info = ty::enum_info(db, *e);
                Some(if info.fixed && *y == info.underlying {
                    Rank { reference: false, major: 1, minor: 0 }
                } else if *y == info.promoted {
                    Rank { reference: false, major: 1, minor: u16::from(info.fixed) }
                } else {
                    Rank { reference: false, major: 2, minor: 0 }
                })
            }
            (TyKind::Enum(x), TyKind::Enum(y)) => (x == y).then_some(Rank { reference: false, major: 0, minor: 0 }),
            (TyKind::Builtin(_), TyKind::Enum(_)) => None,
            (TyKind::Ptr(x), TyKind::Ptr(y)) => {
                let (x, y) = (canonical(db, *x), canonical(db, *y));
                let (xb, yb) = (strip_cv(db, x), strip_cv(db, y));
                let (xcv, ycv) = (cv_of(db, x), cv_of(db, y));
                if (xcv.c && !ycv.c) || (xcv.v && !ycv.v) {
                    return None;
                }
                if xb == yb || self.same_class(xb, yb) {
                    return Some(Rank { reference: false, major: 0, minor: if xcv == ycv { 0 } else { 1 } });
                }
                // The function pointer conversion: `noexcept` dropped (exact match rank).
                if let (TyKind::Func(fx), TyKind::Func(fy)) = (xb.kind(db), yb.kind(db))
                    && fx.noexcept
                    && !fy.noexcept
                    && mk(db, TyKind::Func(ty::FnSig { noexcept: false, ..fx.clone() })) == yb
                {
                    return Some(Rank { reference: false, major: 0, minor: 1 });
                }
                if matches!(yb.kind(db), TyKind::Builtin(Builtin::Void)) {
                    return Some(Rank { reference: false, major: 2, minor: 1 });
                }
                if self.derives(xb, yb) {
                    return Some(Rank { reference: false, major: 2, minor: 0 });
                }
                None
            }
            (TyKind::Builtin(Builtin::NullPtr), TyKind::Ptr(_) | TyKind::MemPtr { .. }) => {
                Some(Rank { reference: false, major: 2, minor: 0 })
            }
            (TyKind::Builtin(b), TyKind::Ptr(_)) if a.null && is_int(*b) => {
                Some(Rank { reference: false, major: 2, minor: 0 })
            }
            (TyKind::Ptr(_) | TyKind::MemPtr { .. }, TyKind::Builtin(Builtin::Bool)) => {
                Some(Rank { reference: false, major: 2, minor: 2 })
            }
            (TyKind::Func(_), TyKind::Ptr(y)) if matches!(canonical(db, *y).kind(db), TyKind::Func(_)) => {
                Some(Rank { reference: false, major: 0, minor: 0 })
            }
            (TyKind::MemPtr { .. }, TyKind::MemPtr { .. }) => Some(Rank { reference: false, major: 0, minor: 1 }),
            (TyKind::Vector(..), _) | (_, TyKind::Vector(..)) => Some(Rank { reference: false, major: 2, minor: 0 }),
            (TyKind::Complex(_), _) | (_, TyKind::Complex(_)) => Some(Rank { reference: false, major: 2, minor: 0 }),
            // A captureless closure's conversion function.
            (TyKind::Closure(_), TyKind::Ptr(y)) if matches!(canonical(db, *y).kind(db), TyKind::Func(_)) => {
                Some(Rank { reference: false, major: 3, minor: 0 })
            }
            _ => None,
        }
    }

    // ---- classes

    fn class_ref(&self, t: TyId) -> Option<ClassRefT> {
        let t = strip_cv(self.db, canonical(self.db, t));
        match t.kind(self.db) {
            TyKind::Class(c) => Some(ClassRefT::Class(self.map.class_definition(*c))),
            TyKind::App(_) | TyKind::Inst(_) => templates::class_of(self.db, t).ok(),
            _ => None,
        }
    }

    fn is_class(&self, t: TyId) -> bool {
        self.class_ref(t).is_some()
    }

    fn is_enum(&self, t: TyId) -> bool {
        matches!(strip_cv(self.db, canonical(self.db, t)).kind(self.db), TyKind::Enum(_))
    }

    fn same_class(&self, a: TyId, b: TyId) -> bool {
        let (a, b) = (strip_cv(self.db, canonical(self.db, a)), strip_cv(self.db, canonical(self.db, b)));
        if a == b {
            return true;
        }
        match (self.class_ref(a), self.class_ref(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }

    /// Whether class `d` derives (directly or not) from class `b`.
    fn derives(&self, d: TyId, b: TyId) -> bool {
        let (Some(dc), Some(bc)) = (self.class_ref(d), self.class_ref(b)) else { return false };
        let mut stack = vec![(dc, 0u32)];
        while let Some((c, depth)) = stack.pop() {
            if depth > 32 {
                continue;
            }
            for base in templates::class_bases_of(self.db, c).iter() {
                if let Some(x) = base.class {
                    if x == bc {
                        return true;
                    }
                    stack.push((x, depth + 1));
                }
            }
        }
        false
    }
}

fn sig_has_error(db: &dyn SourceDatabase, s: &FnSig) -> bool {
    s.params.iter().chain(std::iter::once(&s.ret)).any(|t| ty_has_error(db, *t, 0))
}

/// The reason a signature's parameter or return type failed to substitute,
/// when one did (an error that is a substitution failure, not a gap).
fn sig_substitution_failure(db: &dyn SourceDatabase, s: &FnSig) -> Option<crate::SemaError> {
    s.params.iter().chain(std::iter::once(&s.ret)).find_map(|t| match canonical(db, *t).kind(db) {
        TyKind::Error(e) if e.is_substitution_failure() => Some(e.clone()),
        _ => None,
    })
}

fn ty_has_error(db: &dyn SourceDatabase, t: TyId, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    match t.kind(db) {
        TyKind::Error(_) => true,
        TyKind::Ptr(x) | TyKind::LRef(x) | TyKind::RRef(x) | TyKind::Qualified(x, _) | TyKind::Array(x, _) => {
            ty_has_error(db, *x, depth + 1)
        }
        _ => false,
    }
}

impl<'a> Infer<'a> {
    /// An inference context for a question asked at type level (`sizeof(f<T>(0))`,
    /// `decltype(call)`): no body of its own, the class of `cx`'s scope (as an
    /// instance when `cx` is inside one) for member lookup.
    pub(crate) fn type_level(cx: LowerCx<'a>, body: &'a Body) -> Infer<'a> {
        let db = cx.db;
        let class = match cx.map.scope(cx.scope).kind {
            ScopeKind::Class(c) => Some(match cx.env {
                Some(e) if e.scopes.contains(&cx.scope) => ClassRefT::Inst(InstId::new(db, c, e.args.clone())),
                _ => ClassRefT::Class(cx.map.class_definition(c)),
            }),
            _ => None,
        };
        Infer {
            db,
            map: cx.map,
            body,
            item: cx.item,
            scope: cx.scope,
            env: cx.env.cloned(),
            class,
            this_cv: Cv::default(),
            has_this: false,
            ret: None,
            res: InferenceResult::default(),
            scopes: vec![Vec::new()],
            seen: Default::default(),
            depth: 0,
            implicit_depth: 0,
            local_names: Default::default(),
            owner: None,
            returns: Vec::new(),
            ns_aliases: Vec::new(),
            stop_at: None,
            const_locals: Vec::new(),
            lambda_packs: Vec::new(),
        }
    }
}

/// The value of `sizeof(f<Args>(0))` written in a constant expression (the
/// detection idiom: which overload of `f` a null pointer argument selects,
/// substitution failures removing candidates), read from its text in the
/// scope and environment of `cx`. None when the text is not of that shape.
pub fn sizeof_call(cx: LowerCx<'_>, text: &str) -> Option<u64> {
    sizeof_null_call(cx, text)
        .or_else(|| decltype::sizeof_text(cx, text))
        .or_else(|| decltype_body::sizeof_full(cx, text))
}

fn sizeof_null_call(cx: LowerCx<'_>, text: &str) -> Option<u64> {
    let db = cx.db;
    let inner = text.trim().strip_prefix("sizeof")?.trim();
    let inner = inner.strip_prefix('(')?.strip_suffix(')')?.trim();
    let toks = crate::type_tokens(inner);
    let mut pos = 0;
    let path = crate::read_path(&toks, &mut pos)?;
    if toks.get(pos).map(String::as_str) != Some("(") {
        return None;
    }
    pos += 1;
    let mut args = Vec::new();
    while let Some(t) = toks.get(pos) {
        match t.as_str() {
            ")" => break,
            "," => {}
            "0" => args.push(Arg {
                ty: mk(db, TyKind::Builtin(Builtin::Int)),
                cat: Category::PRValue,
                null: true,
                braced: false,
            }),
            "nullptr" => args.push(Arg {
                ty: mk(db, TyKind::Builtin(Builtin::NullPtr)),
                cat: Category::PRValue,
                null: true,
                braced: false,
            }),
            _ => return None,
        }
        pos += 1;
    }
    if pos + 1 != toks.len() {
        return None;
    }
    let body = Body::default();
    let mut inf = Infer::type_level(cx, &body);
    let r = templates::nested(|| {
        let Value::Fns(cands, targs) = inf.resolve_value(&path) else {
            return Err(crate::SemaError::gap("not a function"));
        };
        inf.resolve_overload(&cands, targs.as_deref(), &args, None)
            .map(|(_, _, sig)| sig.ret)
            .map_err(|e| crate::SemaError::gap(e.to_string()))
    });
    let ret = r.ok()?;
    let mut t = canonical(db, ret);
    if let TyKind::LRef(x) | TyKind::RRef(x) = t.kind(db) {
        t = *x;
    }
    crate::layout::size_align(db, t).ok().map(|(size, _)| size)
}

/// The number of trailing parameters of a declaration that have default arguments.
pub fn param_defaults(db: &dyn SourceDatabase, d: FnDecl) -> u32 {
    let (item, idx, tmpl) = match d {
        FnDecl::Fn(f) => (f.item(db), f.idx(db), false),
        FnDecl::Template(t) => (t.item(db), t.idx(db), true),
    };
    let all = body::item_param_defaults(db, item);
    let v = if tmpl { &all.1 } else { &all.0 };
    v.get(idx as usize).copied().unwrap_or(0)
}

/// One implicit conversion sequence's rank: `major` exact 0 / promotion 1 /
/// conversion 2 / user-defined 3 / ellipsis 4, `minor` the tie-breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    /// A direct reference binding of the argument (same or derived type):
    /// its `minor` (`T&` over `const T&` for an lvalue, `&&` over
    /// `const&` for an rvalue) orders it against other reference bindings
    /// only ([over.ics.rank]/3.2.3, /3.2.6; `conversion_keys`).
    reference: bool,
    major: u8,
    minor: u16,
}

/// The keys two candidates' conversions of one argument compare by: their
/// `(major, minor)`, except that an identity conversion by value and a
/// direct reference binding of the same type are indistinguishable
/// ([over.ics.rank]/3.2 orders reference bindings among themselves):
/// CUB's `ExclusiveScan(T, T&, const T&, ScanOp)` and `ExclusiveScan(T,
/// T&, ScanOp, CB&)` tie on an lvalue `T` initial value, and partial
/// ordering picks the first.
fn conversion_keys(a: &Rank, b: &Rank) -> ((u8, u16), (u8, u16)) {
    if a.major == 0 && b.major == 0 && a.reference != b.reference {
        let by_value = if a.reference { b } else { a };
        if by_value.minor == 0 {
            return ((0, 0), (0, 0));
        }
    }
    ((a.major, a.minor), (b.major, b.minor))
}

/// Whether two candidates' conversions of every argument (all ranks but
/// the last `tail`, the tie-breaks) are indistinguishable.
fn same_conversions(a: &[Rank], b: &[Rank], tail: usize) -> bool {
    a.len() == b.len()
        && (0..a.len().saturating_sub(tail)).all(|i| {
            let (x, y) = conversion_keys(&a[i], &b[i]);
            x == y
        })
}

/// `Less`: `a` is the better candidate (lexicographic on major ranks summed, then the tie-breaks).
/// Orders two viable candidates by their ranks (one per argument, the
/// implicit object's first when both have one, then the two tie-breaks:
/// defaults used, template generality). A candidate whose every conversion
/// is at least as good and one better wins ([over.match.best]/2.1: an
/// identity beats a qualification adjustment, whatever the tie-breaks
/// say); otherwise (equal, or ambiguous) the tie-breaks, then totals.
fn compare(a: &[Rank], b: &[Rank]) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    if a.len() == b.len() && a.len() >= 2 {
        let n = a.len() - 2;
        let a_better = (0..n).any(|i| {
            let (x, y) = conversion_keys(&a[i], &b[i]);
            x < y
        });
        let b_better = (0..n).any(|i| {
            let (x, y) = conversion_keys(&a[i], &b[i]);
            y < x
        });
        match (a_better, b_better) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
    }
    let worst = |r: &[Rank]| r.iter().map(|x| x.major).max().unwrap_or(0);
    // The totals count each argument by the keys it compares by.
    let (mut sa, mut sb) = (0u32, 0u32);
    for i in 0..a.len().max(b.len()) {
        let (x, y) = match (a.get(i), b.get(i)) {
            (Some(p), Some(q)) => conversion_keys(p, q),
            (Some(p), None) => ((p.major, p.minor), (0, 0)),
            (None, Some(q)) => ((0, 0), (q.major, q.minor)),
            (None, None) => ((0, 0), (0, 0)),
        };
        sa += x.0 as u32 * 100 + x.1 as u32;
        sb += y.0 as u32 * 100 + y.1 as u32;
    }
    worst(a).cmp(&worst(b)).then(sa.cmp(&sb))
}

fn placeholder(db: &dyn SourceDatabase, p: &TemplateParam, i: u32) -> TemplateArg {
    match p.kind {
        TemplateParamKind::Type => TemplateArg::Type(mk(db, TyKind::TemplateParam { depth: 1, index: i })),
        TemplateParamKind::Value(_) => TemplateArg::ValueParam { depth: 1, index: i },
        TemplateParamKind::Template => TemplateArg::Template(TemplateRef::Param { depth: 1, index: i }),
    }
}

fn has_placeholder(db: &dyn SourceDatabase, a: &TemplateArg) -> bool {
    match a {
        TemplateArg::Type(t) => ty_has_placeholder(db, *t, 0),
        TemplateArg::ValueParam { .. } => true,
        TemplateArg::Template(TemplateRef::Param { .. }) => true,
        TemplateArg::Pack(v) => v.iter().any(|x| has_placeholder(db, x)),
        _ => false,
    }
}

fn ty_has_placeholder(db: &dyn SourceDatabase, t: TyId, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    match t.kind(db) {
        TyKind::TemplateParam { .. } | TyKind::ParamApp { .. } | TyKind::ParamArray { .. } => true,
        TyKind::Ptr(x) | TyKind::LRef(x) | TyKind::RRef(x) | TyKind::Qualified(x, _) | TyKind::Array(x, _) => {
            ty_has_placeholder(db, *x, depth + 1)
        }
        TyKind::App(a) => a.args(db).iter().any(|x| has_placeholder(db, x)),
        TyKind::Func(f) => {
            ty_has_placeholder(db, f.ret, depth + 1) || f.params.iter().any(|p| ty_has_placeholder(db, *p, depth + 1))
        }
        _ => false,
    }
}

fn normalize(db: &dyn SourceDatabase, a: TemplateArg) -> TemplateArg {
    match a {
        TemplateArg::Type(t) => TemplateArg::Type(canonical(db, t)),
        TemplateArg::Pack(v) => TemplateArg::Pack(v.into_iter().map(|x| normalize(db, x)).collect()),
        a => a,
    }
}

/// Deduces from one argument: P/A adjustments of [temp.deduct.call].
fn deduce_one(db: &dyn SourceDatabase, p: TyId, a: Arg, out: &mut [Option<TemplateArg>]) -> bool {
    let pc = canonical(db, p);
    let mut at = canonical(db, a.ty);
    // A parameter that names no template parameter left to deduce (all
    // given explicitly) takes no part in deduction ([temp.deduct.call]/1),
    // nor does one whose argument is a braced list (a non-deduced context,
    // unless `P` is an initializer list or array, not modelled here).
    if a.braced {
        return true;
    }
    if matches!(at.kind(db), TyKind::Error(_) | TyKind::Dependent(_)) {
        return !ty_has_placeholder(db, pc, 0);
    }
    let target = match pc.kind(db) {
        TyKind::RRef(x) if matches!(x.kind(db), TyKind::TemplateParam { .. }) => {
            // A forwarding reference: an lvalue deduces `A&`.
            if a.cat == Category::LValue {
                at = mk(db, TyKind::LRef(at));
            }
            *x
        }
        TyKind::LRef(x) | TyKind::RRef(x) => canonical(db, *x),
        _ => {
            // By value: arrays and functions decay, top-level cv dropped.
            at = decay(db, strip_cv(db, at));
            pc
        }
    };
    if templates::match_ty(db, target, at, 1, out) {
        return true;
    }
    // `const T*` from `int*`, `B<T>*` from `D*` ([temp.deduct.call]/4.2, 4.3).
    if deduce_conv::deduce_pointer_conversion(db, target, at, out) {
        return true;
    }
    // `const T&` from a non-const A: match without the parameter's qualifiers.
    if deduce_conv::deduce_more_qualified_array(db, target, at, out) {
        return true;
    }
    if let TyKind::Qualified(inner, _) = target.kind(db)
        && templates::match_ty(db, *inner, strip_cv(db, at), 1, out)
    {
        return true;
    }
    // A derived class deduces a base `B<T>`: try the bases.
    if let TyKind::App(_) = strip_cv(db, target).kind(db) {
        // Indirect bases too, nearest first ([temp.deduct.call]/4.3:
        // `_Tuple_impl<1, char>` from `tuple<int, char>`).
        let mut queue: std::collections::VecDeque<TyId> = std::collections::VecDeque::from([strip_cv(db, at)]);
        let mut seen = 0;
        while let Some(cur) = queue.pop_front() {
            seen += 1;
            if seen > 64 {
                break;
            }
            let Ok(c) = templates::class_of(db, cur) else { continue };
            for b in templates::class_bases_of(db, c).iter() {
                if let Some(bt) = b.ty {
                    let bt = canonical(db, bt);
                    let mut scratch = out.to_vec();
                    if templates::match_ty(db, strip_cv(db, target), bt, 1, &mut scratch) {
                        out.clone_from_slice(&scratch);
                        return true;
                    }
                    queue.push_back(bt);
                }
            }
        }
    }
    // A non-deduced context (or a conversion later): succeed when nothing is to be deduced.
    !ty_has_placeholder(db, target, 0)
}

/// Reference collapsing (`T&&` with `T = int&` is `int&`).
fn collapse(db: &dyn SourceDatabase, t: TyId) -> TyId {
    match t.kind(db) {
        TyKind::LRef(x) | TyKind::RRef(x) => {
            let inner = collapse(db, canonical(db, *x));
            match inner.kind(db) {
                TyKind::LRef(_) => inner,
                TyKind::RRef(y) if matches!(t.kind(db), TyKind::RRef(_)) => mk(db, TyKind::RRef(*y)),
                TyKind::RRef(y) => mk(db, TyKind::LRef(*y)),
                _ => t,
            }
        }
        _ => t,
    }
}

fn contains_auto(t: &TypeRef) -> bool {
    match t {
        TypeRef::Opaque(s) => s == "auto" || s.contains("decltype(auto)"),
        TypeRef::Ptr(x) | TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) => contains_auto(x),
        _ => false,
    }
}

fn class_ty(db: &dyn SourceDatabase, c: ClassRefT) -> TyId {
    match c {
        ClassRefT::Class(k) => mk(db, TyKind::Class(k)),
        ClassRefT::Inst(i) => mk(db, TyKind::Inst(i)),
    }
}

fn class_inst(c: ClassRefT) -> Option<InstId> {
    match c {
        ClassRefT::Inst(i) => Some(i),
        ClassRefT::Class(_) => None,
    }
}

/// `t` without its top-level cv-qualifiers (and `__restrict`).
pub fn strip_cv(db: &dyn SourceDatabase, t: TyId) -> TyId {
    match t.kind(db) {
        TyKind::Qualified(x, _) => strip_cv(db, *x),
        _ => t,
    }
}

/// The cv of an object type and the type without it, arrays by element
/// (`const int[4]` is `int[4]` with `const`).
fn array_cv(db: &dyn SourceDatabase, t: TyId) -> (Cv, TyId) {
    match t.kind(db) {
        TyKind::Array(e, n) => {
            let e = canonical(db, *e);
            (cv_of(db, e), mk(db, TyKind::Array(strip_cv(db, e), *n)))
        }
        _ => (cv_of(db, t), strip_cv(db, t)),
    }
}

fn cv_of(db: &dyn SourceDatabase, t: TyId) -> Cv {
    match t.kind(db) {
        TyKind::Qualified(_, cv) => *cv,
        _ => Cv::default(),
    }
}

fn decay(db: &dyn SourceDatabase, t: TyId) -> TyId {
    match t.kind(db) {
        TyKind::Array(e, _) => mk(db, TyKind::Ptr(*e)),
        TyKind::Func(_) => mk(db, TyKind::Ptr(t)),
        _ => t,
    }
}

/// A reference type (a member of it is not made const by a const object).
fn is_ref(db: &dyn SourceDatabase, t: TyId) -> bool {
    matches!(canonical(db, t).kind(db), TyKind::LRef(_) | TyKind::RRef(_))
}

fn is_null_ty(db: &dyn SourceDatabase, t: TyId) -> bool {
    matches!(t.kind(db), TyKind::Builtin(Builtin::NullPtr))
}

fn is_arith(db: &dyn SourceDatabase, t: TyId) -> bool {
    matches!(t.kind(db), TyKind::Builtin(b) if *b != Builtin::Void && *b != Builtin::NullPtr)
}

fn int_rank(b: Builtin) -> u8 {
    use Builtin::*;
    match b {
        Bool => 0,
        Char | SChar | UChar | Char8 => 1,
        Short | UShort | Char16 | WChar => 2,
        Int | UInt | Char32 => 3,
        Long | ULong => 4,
        LongLong | ULongLong => 5,
        Int128 | UInt128 => 6,
        _ => 7,
    }
}

fn promote(db: &dyn SourceDatabase, t: TyId) -> TyId {
    match t.kind(db) {
        TyKind::Builtin(b) if is_int(*b) && int_rank(*b) < 3 => mk(db, TyKind::Builtin(Builtin::Int)),
        TyKind::Enum(e) => mk(db, TyKind::Builtin(ty::enum_info(db, *e).promoted)),
        _ => t,
    }
}

/// The usual arithmetic conversions (approximate).
fn arith(db: &dyn SourceDatabase, a: TyId, b: TyId) -> TyId {
    let (a, b) = (promote(db, a), promote(db, b));
    let fl = |b: Builtin| match b {
        Builtin::LongDouble | Builtin::Float128 => 3,
        Builtin::Double | Builtin::Float64 => 2,
        Builtin::Float | Builtin::Float32 | Builtin::Float16 | Builtin::BF16 => 1,
        _ => 0,
    };
    match (a.kind(db), b.kind(db)) {
        (TyKind::Builtin(x), TyKind::Builtin(y)) => {
            if fl(*x) > 0 || fl(*y) > 0 {
                return if fl(*x) >= fl(*y) { a } else { b };
            }
            let unsigned =
                |b: Builtin| matches!(b, Builtin::UInt | Builtin::ULong | Builtin::ULongLong | Builtin::UInt128);
            match int_rank(*x).cmp(&int_rank(*y)) {
                std::cmp::Ordering::Greater => a,
                std::cmp::Ordering::Less => b,
                std::cmp::Ordering::Equal => {
                    if unsigned(*y) {
                        b
                    } else {
                        a
                    }
                }
            }
        }
        (TyKind::Builtin(_), _) => a,
        _ => b,
    }
}

/// A builtin function of cicc's front end, called by name in device code
/// without any declaration (`__nvvm_vote_all_sync` in the toolkit's
/// `__all_sync`): its listing declares each one it uses
/// (`__device_builtin__ … int __nvvm_vote_all_sync(unsigned, int);`). Its
/// type is not modelled: a call has an unknown result.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct IntrinsicId {
    #[returns(ref)]
    pub name: String,
}

/// Whether an undeclared name is one of cicc's NVVM builtins.
fn is_nvvm_intrinsic(name: &str) -> bool {
    name.starts_with("__nvvm_")
}

fn is_builtin_fn(name: &str) -> bool {
    name.starts_with("__builtin_") || name.starts_with("__atomic_") || name.starts_with("__sync_")
}

/// A name as the scope graph keys it (`operator +` → `operator+`).
fn norm_name(s: &str) -> String {
    if s.starts_with("operator") || s.starts_with('~') {
        s.chars().filter(|c| !c.is_whitespace()).collect()
    } else {
        s.to_string()
    }
}

/// A readable dump of what a body's calls resolved to (tests, `inspect`).
pub fn render_calls(db: &dyn SourceDatabase, r: &InferenceResult) -> String {
    let mut out = String::new();
    if let Some(s) = &r.skipped {
        out.push_str(&format!("skipped: {s}\n"));
    }
    for e in &r.required {
        let name = crate::symbols::mangled_name(db, *e).unwrap_or_else(|x| format!("<{x}>"));
        out.push_str(&format!("{name}\n"));
    }
    for (site, c) in &r.calls {
        if let Callee::Unresolved(why) = c {
            out.push_str(&format!("unresolved {site:?}: {why}\n"));
        }
    }
    out
}

#[allow(dead_code)]
fn unused(_: PathSegment) {}

/// The bound an array of unknown bound with element type `elem` takes from
/// a braced initializer `init` (its element count; [dcl.init.aggr]/7):
/// `Ok(None)` when `init` is not braced, `Err` when the count is not the
/// bound (a pack expansion, designators, brace elision in
/// `int a[][2] = {1, 2, 3}`).
pub(crate) fn list_bound(db: &dyn SourceDatabase, body: &Body, elem: TyId, init: &Init) -> Result<Option<u64>, ()> {
    let xs = match init {
        Init::Brace(xs) => xs,
        Init::Assign(x) => match body.expr(*x) {
            Expr::InitList(xs) => xs,
            _ => return Ok(None),
        },
        Init::Paren(_) | Init::None => return Ok(None),
    };
    if xs.iter().any(|x| matches!(body.expr(*x), Expr::PackExpansion(_) | Expr::Designated { .. })) {
        return Err(());
    }
    if matches!(canonical(db, elem).kind(db), TyKind::Array(..))
        && xs.iter().any(|x| !matches!(body.expr(*x), Expr::InitList(_)))
    {
        return Err(());
    }
    Ok(Some(xs.len() as u64))
}
