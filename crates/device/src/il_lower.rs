//! Lowers the kept entities of a unit's device view ([`keep::kept`]) to the
//! device IL ([`il`]): types from `hir`'s types and layouts, bodies from
//! `hir`'s expression store with the types, categories, resolutions and
//! calls of `hir::infer` — each body's inference is a query, so lowering
//! reads memoized results.
//!
//! What is made explicit: a call names the function overload resolution
//! chose (an overloaded operator is a call, a member function's object is
//! its first argument); an argument, an initializer, a returned value or
//! an assigned value whose type differs from its target's (references and
//! top-level qualifiers aside) is wrapped in a `Conv` to the target type;
//! `sizeof`/`alignof` of an expression or a type is folded from `hir`'s layout. What
//! the model does not lower yet is an `Unsupported` node that says what.

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::body::{self as hb, Body, ExprId, StmtId};
use cufront_hir::infer::{self, CallSite, Category, InferOwner, InferenceResult, Resolution};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::item_tree::Builtin;
use cufront_hir::templates::TemplateArg;
use cufront_hir::{DefMap, Entity, EnumId, ItemId, TyId, TyKind, def_map, item_tree_of, symbols};
use cufront_syntax::SyntaxKind as K;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::il::{self, Cat, ExprKind, Init, Stmt, Type};
use crate::keep::{self, KeepOptions};
use crate::registry;

/// The device IL of the unit's device view: the kept entities in the
/// listing's order, each function and variable from its own query (an
/// edit inside one body re-lowers that body only), then the classes they
/// name, in first-use order, and the classes those name.
pub fn device_il(db: &dyn SourceDatabase, tu: TranslationUnit, opts: &KeepOptions) -> il::Module {
    let kept = keep::kept(db, tu, opts);
    let mut module = il::Module::default();
    let mut named: Vec<TyId> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut note = |ts: &[TyId], named: &mut Vec<TyId>| {
        for &t in ts {
            if seen.insert(t) {
                named.push(t);
            }
        }
    };
    for k in kept.iter() {
        match k.kind {
            "variable" => {
                let v = var_il(db, tu, k.entity, opts.clone());
                note(&v.classes, &mut named);
                module.vars.push(il::Var { name: k.name.clone(), ..v.var.clone() });
            }
            "kernel" | "function" => {
                let f = func_il(db, tu, k.entity, opts.clone());
                note(&f.classes, &mut named);
                let mut func = f.func.clone();
                func.name = k.name.clone();
                if k.kind == "kernel" {
                    func.kind = il::FuncKind::Kernel;
                    func.attrs = kernel_attrs(db, tu, k.entity);
                }
                module.funcs.push(func);
            }
            _ => {}
        }
    }
    // The classes, each once (by mangled name), with those their bases
    // and fields name after them.
    let map = def_map(db, tu);
    let names = device_names(db, tu, opts.clone());
    let mut cx = Cx { db, map: &map, names: &names, named: Vec::new() };
    let mut mangled_seen = rustc_hash::FxHashSet::default();
    let mut i = 0;
    while i < named.len() {
        let t = named[i];
        i += 1;
        let class = cx.class_def(t);
        if mangled_seen.insert(class.mangled.clone()) {
            module.classes.push(class);
        }
        let more = std::mem::take(&mut cx.named);
        note(&more, &mut named);
    }
    module
}

/// Each kept entity's device name (an entity listed twice, a
/// constructor's complete-object and base-object names, is called by its
/// first, complete-object, name).
#[salsa::tracked(returns(clone))]
fn device_names(db: &dyn SourceDatabase, tu: TranslationUnit, opts: KeepOptions) -> Arc<FxHashMap<Entity, String>> {
    let mut names: FxHashMap<Entity, String> = FxHashMap::default();
    for k in keep::kept(db, tu, &opts).iter() {
        names.entry(k.entity).or_insert_with(|| k.name.clone());
    }
    Arc::new(names)
}

/// One function lowered (its name and kind are the assembly's), with the
/// class types it names.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FuncIl {
    func: il::Func,
    classes: Vec<TyId>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct VarIl {
    var: il::Var,
    classes: Vec<TyId>,
}

#[salsa::tracked(returns(clone))]
fn func_il(db: &dyn SourceDatabase, tu: TranslationUnit, e: Entity, opts: KeepOptions) -> Arc<FuncIl> {
    let map = def_map(db, tu);
    let names = device_names(db, tu, opts);
    let mut cx = Cx { db, map: &map, names: &names, named: Vec::new() };
    let func = cx.func(e);
    Arc::new(FuncIl { func, classes: cx.named })
}

#[salsa::tracked(returns(clone))]
fn var_il(db: &dyn SourceDatabase, tu: TranslationUnit, e: Entity, opts: KeepOptions) -> Arc<VarIl> {
    let map = def_map(db, tu);
    let names = device_names(db, tu, opts);
    let mut cx = Cx { db, map: &map, names: &names, named: Vec::new() };
    let var = cx.var(e);
    Arc::new(VarIl { var, classes: cx.named })
}

struct Cx<'a> {
    db: &'a dyn SourceDatabase,
    map: &'a DefMap,
    names: &'a FxHashMap<Entity, String>,
    /// The class types named, in first-use order.
    named: Vec<TyId>,
}

impl Cx<'_> {
    fn name(&self, e: Entity) -> String {
        match self.names.get(&e) {
            Some(n) => n.clone(),
            None => symbols::mangled_name(self.db, e).unwrap_or_else(|why| format!("<unnamed: {why}>")),
        }
    }

    fn ty(&mut self, t: TyId) -> Type {
        let db = self.db;
        match t.kind(db) {
            TyKind::Builtin(b) => prim(*b).map_or_else(|| Type::Unknown(format!("{b:?}")), Type::Prim),
            TyKind::Ptr(x) => Type::Ptr(Box::new(self.ty(*x))),
            TyKind::LRef(x) => Type::LRef(Box::new(self.ty(*x))),
            TyKind::RRef(x) => Type::RRef(Box::new(self.ty(*x))),
            TyKind::Array(x, n) => Type::Array(Box::new(self.ty(*x)), *n),
            TyKind::Func(f) => {
                let f = f.clone();
                Type::Func(Box::new(il::FnType {
                    ret: self.ty(f.ret),
                    params: f.params.iter().map(|p| self.ty(*p)).collect(),
                    variadic: f.variadic,
                }))
            }
            TyKind::Typedef(td) => self.ty(cufront_hir::ty::typedef_ty(db, *td)),
            TyKind::Qualified(x, cv) => Type::Qual(Box::new(self.ty(*x)), il::Quals { c: cv.c, v: cv.v, r: cv.r }),
            TyKind::Enum(e) => Type::Enum {
                name: cufront_hir::ty::display(db, t),
                underlying: prim(cufront_hir::ty::enum_info(db, *e).underlying).unwrap_or(il::Prim::Int),
            },
            TyKind::Vector(x, n) => Type::Vector(Box::new(self.ty(*x)), *n),
            TyKind::MemPtr { class, pointee } => {
                Type::MemPtr { class: Box::new(self.ty(*class)), pointee: Box::new(self.ty(*pointee)) }
            }
            TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) => {
                let t = cufront_hir::ty::canonical(db, t);
                if !self.named.contains(&t) {
                    self.named.push(t);
                }
                Type::Class(class_mangled(db, self.map, t))
            }
            TyKind::Closure(_) => Type::Closure(class_mangled(db, self.map, t)),
            _ => Type::Unknown(cufront_hir::ty::display(db, t)),
        }
    }

    /// A class with its layout (the classes its bases and fields name are
    /// noted in `named`).
    fn class_def(&mut self, t: TyId) -> il::Class {
        let db = self.db;
        let mut class =
            il::Class { mangled: class_mangled(db, self.map, t), name: cufront_hir::ty::display(db, t), layout: None };
        if let Ok(l) = cufront_hir::layout::ty_layout(db, t) {
            let bases = l
                .bases
                .iter()
                .filter_map(|b| {
                    let ty = b.ty?;
                    let Type::Class(name) = self.ty(ty) else { return None };
                    Some(il::Base { class: name, offset: b.offset, is_virtual: b.is_virtual })
                })
                .collect();
            let fields = l
                .fields
                .iter()
                .map(|f| il::Field {
                    name: f.name.clone(),
                    ty: self.ty(f.ty),
                    offset_bits: f.offset_bits,
                    bit_width: f.bit_width,
                })
                .collect();
            class.layout = Some(il::ClassLayout { size: l.size, align: l.align, bases, fields });
        }
        class
    }

    fn var(&mut self, e: Entity) -> il::Var {
        let db = self.db;
        let (ty, space, external, init) = match e {
            Entity::Var(v) => {
                let tree = item_tree_of(db, v.item(db));
                let Some(data) = tree.vars.get(v.idx(db) as usize) else {
                    return unknown_var("no such variable");
                };
                let scope = self
                    .map
                    .parent
                    .get(&cufront_hir::scopes::DeclKey::Var(v))
                    .copied()
                    .unwrap_or(cufront_hir::scopes::ROOT);
                let lcx = cufront_hir::ty::LowerCx { db, map: self.map, item: v.item(db), scope, env: None };
                let ty = instances::var_decl_type(db, lcx, data);
                let c = data.linkage.cuda;
                let space = if c.constant {
                    il::Space::Constant
                } else if c.managed {
                    il::Space::Managed
                } else if c.shared {
                    il::Space::Shared
                } else {
                    il::Space::Device
                };
                let external = data.linkage.is_extern && !data.linkage.is_definition;
                // The initializer is the one local of the variable's
                // initialization body (`hir::infer::var_init`).
                let owner = InferOwner::Var(v);
                let body = infer::owner_body(db, owner);
                let (init, value) = match body.root.and_then(|s| body.stmts.get(s.0 as usize)) {
                    Some(hb::Stmt::Decl(ls)) if ls.len() == 1 => {
                        let r = infer::infer(db, owner);
                        let init = FnCx::new(self, owner, &body, &r).init(ls[0]);
                        // The value, by the one constant interpreter.
                        let value = infer::var_init::var_init_scope(db, owner).and_then(|scope| {
                            let site = (v.item(db), scope, None);
                            cufront_hir::consteval::interp::eval_local_init(db, self.map, site, &body, &[], ls[0])
                                .ok()
                                .and_then(|v| constant(&v))
                                .and_then(|c| complete(db, ty, c))
                        });
                        (init, value)
                    }
                    _ => (None, None),
                };
                return il::Var { name: String::new(), ty: self.ty(ty), space, external, init, value };
            }
            // A block-scope `__shared__` or `static` variable: a local of
            // the function that declares it (its initializer is there).
            Entity::LocalStatic(ls) => {
                let r = infer::infer(db, ls.owner(db));
                let body = infer::owner_body(db, ls.owner(db));
                let Some(ty) = r.local_tys.get(ls.local(db).0 as usize).copied().flatten() else {
                    return unknown_var("the local's type");
                };
                let space = match body.locals.get(ls.local(db).0 as usize).map(|l| l.cuda) {
                    Some(c) if c.shared => il::Space::Shared,
                    Some(c) if c.constant => il::Space::Constant,
                    _ => il::Space::Device,
                };
                (ty, space, false, None)
            }
            Entity::VarInst(i) => match instances::var_type(db, i) {
                Ok(ty) => (ty, il::Space::Device, false, None),
                Err(why) => return unknown_var(why.why()),
            },
            _ => return unknown_var("not a namespace-scope variable"),
        };
        il::Var { name: String::new(), ty: self.ty(ty), space, external, init, value: None }
    }

    fn func(&mut self, e: Entity) -> il::Func {
        let db = self.db;
        let ret_ty = fn_ret(db, e);
        let mut func = il::Func {
            name: String::new(),
            kind: il::FuncKind::Device,
            ret: ret_ty.map_or_else(|| Type::Unknown("return type".into()), |t| self.ty(t)),
            params: Vec::new(),
            locals: Vec::new(),
            attrs: il::KernelAttrs::default(),
            body: Err("no body".into()),
        };
        if ret_ty.is_none() && is_ctor_or_dtor(db, e) {
            func.ret = Type::Prim(il::Prim::Void);
        }
        let Some(owner) = instances::body_owner(db, e) else {
            func.body = Err("the function has no body in the unit".into());
            return func;
        };
        let body = infer::owner_body(db, owner);
        let r = infer::infer(db, owner);
        if let Some(why) = &r.skipped {
            func.body = Err(format!("not inferred: {why}"));
            return func;
        }
        let (params, root) = match owner {
            InferOwner::Closure(c) => match body.exprs.get(c.closure(db).expr(db).0 as usize) {
                Some(hb::Expr::Lambda { params, body: Some(root), .. }) => (params.clone(), Some(*root)),
                _ => (Vec::new(), None),
            },
            _ => (body.params.clone(), body.root),
        };
        let mut f = FnCx::new(self, owner, &body, &r);
        f.ret = ret_ty;
        // A lambda's `operator()` shares its enclosing function's body: its
        // locals are its parameters, its init-captures and those declared
        // inside it; the enclosing ones it names are its captures.
        let lambda = match owner {
            InferOwner::Closure(c) => Some(c.closure(db).expr(db)),
            _ => None,
        };
        f.own = Some(owned_locals(&body, lambda));
        let own: Vec<usize> = f.own.iter().flatten().map(|l| l.0 as usize).collect();
        let locals: Vec<il::Local> = own.iter().map(|&i| f.local(i)).collect();
        // `f(void)` declares no parameter.
        let void_list = matches!(params.as_slice(), [p] if body.locals.get(p.0 as usize).is_some_and(|l| l.name.is_none())
            && matches!(&locals.get(f.lid(*p) as usize).map(|l| &l.ty), Some(Type::Prim(il::Prim::Void))));
        if !void_list {
            func.params = params.iter().map(|&p| f.lid(p)).collect();
        }
        func.body = match root {
            Some(root) => {
                let inits: Vec<Stmt> = (0..body.mem_inits.len()).map(|i| f.mem_init(i)).collect();
                match f.stmt(root) {
                    Stmt::Block(ss) if !inits.is_empty() => Ok(Stmt::Block(inits.into_iter().chain(ss).collect())),
                    s if !inits.is_empty() => Ok(Stmt::Block(inits.into_iter().chain([s]).collect())),
                    s => Ok(s),
                }
            }
            None => Err("no body statement".into()),
        };
        func.locals = locals;
        func
    }
}

fn unknown_var(why: &str) -> il::Var {
    il::Var {
        name: String::new(),
        ty: Type::Unknown(why.to_string()),
        space: il::Space::Device,
        external: false,
        init: None,
        value: None,
    }
}

/// A value of the constant interpreter as an IL constant (`None`: not a
/// value, or one the IL does not hold: a pack, an uninitialized object).
fn constant(v: &cufront_hir::consteval::interp::CValue) -> Option<il::Const> {
    use cufront_hir::consteval::interp::CValue;
    Some(match v {
        CValue::Int(x) => il::Const::Int(x.v),
        CValue::Float(f, _) => il::Const::Float(format!("{f:?}")),
        CValue::NullPtr => il::Const::Null,
        CValue::Array(es) => il::Const::Array(es.iter().map(constant).collect::<Option<_>>()?),
        CValue::Object(_, ms) => {
            il::Const::Object(ms.iter().map(|(n, v)| Some((n.clone(), constant(v)?))).collect::<Option<_>>()?)
        }
        CValue::Pack(_) | CValue::Void | CValue::Uninit => return None,
    })
}

/// A constant of type `t` with the elements a short braced list leaves
/// out (value-initialized: zero) written, for arrays of arithmetic type;
/// `None` when it cannot be completed that surely (an array of classes).
fn complete(db: &dyn SourceDatabase, t: TyId, c: il::Const) -> Option<il::Const> {
    let t = cufront_hir::ty::canonical(db, t);
    let TyKind::Array(elem, Some(n)) = t.kind(db).clone() else { return Some(c) };
    let il::Const::Array(mut es) = c else { return Some(c) };
    let zero = match cufront_hir::ty::canonical(db, elem).kind(db) {
        TyKind::Builtin(b)
            if !cufront_hir::consteval::is_integral(*b) && !matches!(b, Builtin::Void | Builtin::NullPtr) =>
        {
            il::Const::Float("0.0".into())
        }
        TyKind::Builtin(_) | TyKind::Enum(_) => il::Const::Int(0),
        TyKind::Ptr(_) => il::Const::Null,
        TyKind::Array(..) => {
            es = es.into_iter().map(|e| complete(db, elem, e)).collect::<Option<_>>()?;
            if es.len() as u64 == n {
                return Some(il::Const::Array(es));
            }
            return None;
        }
        _ if es.len() as u64 == n => return Some(il::Const::Array(es)),
        _ => return None,
    };
    while (es.len() as u64) < n {
        es.push(zero.clone());
    }
    Some(il::Const::Array(es))
}

/// A class type's name mangled as a data name (`_Z4Pair`), the key the IL
/// names it by.
fn class_mangled(db: &dyn SourceDatabase, map: &DefMap, t: TyId) -> String {
    match symbols::mangle_ty(db, map, t) {
        Ok(cufront_mangle::Type::Named(n)) => {
            cufront_mangle::mangle(&cufront_mangle::Encoding::Data(n)).unwrap_or_else(|why| format!("<unnamed: {why}>"))
        }
        Ok(_) => "<not a named type>".to_string(),
        Err(why) => format!("<unnamed: {why}>"),
    }
}

/// A function's parameter types, as its type holds them.
fn entity_params(db: &dyn SourceDatabase, e: Entity) -> Option<Vec<TyId>> {
    match e {
        Entity::FnInst(i) => instances::signature(db, i).ok().map(|s| s.params),
        Entity::Closure(c) => infer::closure_fn_sig(db, c).ok().map(|s| s.params),
        Entity::Fn(f) => {
            let (_, params) = registry::declared_signature(db, f).ok()?;
            Some(params.into_iter().map(|p| cufront_hir::ty::adjust_param(db, p)).collect())
        }
        _ => None,
    }
}

/// The locals of a function (`lambda`: `None`) or of a lambda's
/// `operator()` that are its own, in order: not those of the lambdas
/// inside it.
fn owned_locals(body: &Body, lambda: Option<ExprId>) -> Vec<hb::LocalId> {
    let mut own: Vec<hb::LocalId> = match lambda {
        Some(e) => lambda_locals(body, e),
        None => (0..body.locals.len() as u32).map(hb::LocalId).collect(),
    };
    let range = lambda.and_then(|e| body.expr_ranges.get(e.0 as usize).copied());
    for (i, x) in body.exprs.iter().enumerate() {
        let inner = ExprId(i as u32);
        if !matches!(x, hb::Expr::Lambda { .. }) || Some(inner) == lambda {
            continue;
        }
        let nested = match (range, body.expr_ranges.get(i)) {
            (Some(outer), Some(r)) => outer.contains_range(*r),
            (None, _) => true,
            _ => false,
        };
        if nested {
            let theirs = lambda_locals(body, inner);
            own.retain(|l| !theirs.contains(l));
        }
    }
    own
}

/// A lambda's own locals, in order: its parameters, its init-captures and
/// the locals declared inside it.
fn lambda_locals(body: &Body, lambda: ExprId) -> Vec<hb::LocalId> {
    let Some(hb::Expr::Lambda { params, captures, .. }) = body.exprs.get(lambda.0 as usize) else { return Vec::new() };
    let mut own = params.clone();
    own.extend(captures.iter().filter_map(|c| match c {
        hb::Capture::Var { local, .. } => *local,
        _ => None,
    }));
    if let Some(&range) = body.expr_ranges.get(lambda.0 as usize) {
        for (i, n) in body.local_names.iter().enumerate() {
            let l = hb::LocalId(i as u32);
            if n.is_some_and(|n| range.contains_range(n)) && !own.contains(&l) {
                own.push(l);
            }
        }
    }
    own
}

/// The type of `this` in a member function (`const C*` in a `const`
/// member function; in a member of a class template specialization, a
/// pointer to the specialization), as inference types it; in a lambda, the
/// enclosing function's (the `this` it captures).
fn this_ty(db: &dyn SourceDatabase, map: &DefMap, owner: InferOwner) -> Option<TyId> {
    let (class, data) = match owner {
        InferOwner::Closure(c) => return this_ty(db, map, c.closure(db).owner(db)),
        InferOwner::Fn(f) => {
            let scope = instances::fn_scope(db, FnDecl::Fn(f))?;
            let cufront_hir::scopes::ScopeKind::Class(c) = map.scope(scope).kind else { return None };
            let data = item_tree_of(db, f.item(db)).fns.get(f.idx(db) as usize)?.clone();
            (TyId::new(db, TyKind::Class(map.class_definition(c))), data)
        }
        InferOwner::Inst(i) => {
            let outer = i.outer(db)?;
            (TyId::new(db, TyKind::Inst(outer)), i.decl(db).data(db)?.clone())
        }
        _ => return None,
    };
    if data.linkage.is_static {
        return None;
    }
    let cv = data.ty.cv;
    let class = if cv.c || cv.v { TyId::new(db, TyKind::Qualified(class, cv)) } else { class };
    Some(TyId::new(db, TyKind::Ptr(class)))
}

fn is_ctor_or_dtor(db: &dyn SourceDatabase, e: Entity) -> bool {
    let name = match e {
        Entity::Fn(f) => item_tree_of(db, f.item(db)).fns.get(f.idx(db) as usize).map(|d| d.name.clone()),
        Entity::FnInst(i) => i.decl(db).data(db).map(|d| d.name.clone()),
        _ => None,
    };
    matches!(name, Some(cufront_hir::item_tree::FnName::Ctor | cufront_hir::item_tree::FnName::Dtor))
}

/// A function's return type.
fn fn_ret(db: &dyn SourceDatabase, e: Entity) -> Option<TyId> {
    match e {
        Entity::FnInst(i) => instances::signature(db, i).ok().map(|s| s.ret),
        Entity::Fn(f) => {
            let (t, _) = registry::declared_signature(db, f).ok()?;
            // `auto`: what the body returns.
            match t.kind(db) {
                TyKind::Dependent(_) => instances::body_owner(db, e).and_then(|o| infer::infer(db, o).returned),
                _ => Some(t),
            }
        }
        Entity::Closure(c) => infer::closure_fn_sig(db, c).ok().map(|s| s.ret),
        _ => instances::body_owner(db, e).and_then(|o| infer::infer(db, o).returned),
    }
}

/// The value of the enumerator `name` of the enumeration type `t`.
fn enumerator_value(db: &dyn SourceDatabase, t: TyId, name: &str) -> Option<i128> {
    let TyKind::Enum(e) = cufront_hir::ty::canonical(db, t).kind(db).clone() else { return None };
    let tree = item_tree_of(db, e.item(db));
    let i = tree.enums.get(e.idx(db) as usize)?.enumerators.iter().position(|(n, _)| n == name)?;
    cufront_hir::ty::enum_info(db, e).values.get(i)?.clone().ok()
}

/// The values of the enumerators of an enumeration declared in the class
/// template whose specialization `owner` is a member of (`BLOCK_THREADS`
/// in a member function of CUB's `AgentReduce<…>`).
fn instance_enumerators(
    db: &dyn SourceDatabase,
    map: &DefMap,
    owner: InferOwner,
    e: EnumId,
) -> Option<Arc<Vec<(String, i128)>>> {
    let mut owner = owner;
    while let InferOwner::Closure(c) = owner {
        owner = c.closure(db).owner(db);
    }
    let InferOwner::Inst(i) = owner else { return None };
    let outer = i.outer(db)?;
    let scope = *map.parent.get(&cufront_hir::scopes::DeclKey::Enum(e))?;
    // Only an enumeration of the specialization's own class.
    let cufront_hir::scopes::ScopeKind::Class(c) = map.scope(scope).kind else { return None };
    if map.class_definition(c) != map.class_definition(outer.class(db)) {
        return None;
    }
    enum_values_in(db, outer, e)
}

/// The values of the enumerators of `e`, a member of the class template
/// whose specialization `outer` is, evaluated with its arguments (`hir`
/// evaluates them only for the pattern, where they are dependent). A query:
/// every member function of the specialization asks for the same values.
#[salsa::tracked(returns(clone))]
fn enum_values_in(
    db: &dyn SourceDatabase,
    outer: cufront_hir::templates::InstId,
    e: EnumId,
) -> Option<Arc<Vec<(String, i128)>>> {
    let map = def_map(db, e.item(db).tu(db));
    let scope = *map.parent.get(&cufront_hir::scopes::DeclKey::Enum(e))?;
    let env = cufront_hir::templates::inst_env(db, outer).ok()?;
    let tree = item_tree_of(db, e.item(db));
    let data = tree.enums.get(e.idx(db) as usize)?;
    let mut values: Vec<i128> = Vec::new();
    for (_, init) in &data.enumerators {
        let lower = cufront_hir::ty::LowerCx { db, map: &map, item: e.item(db), scope, env: Some(&env) };
        let cx = cufront_hir::consteval::EvalCx { lower, enum_override: Some((e, &values)) };
        let v = match init {
            Some(x) => cufront_hir::consteval::eval(&cx, x).ok()?.v,
            None => values.last().map_or(0, |p| p + 1),
        };
        values.push(v);
    }
    Some(Arc::new(data.enumerators.iter().map(|(n, _)| n.clone()).zip(values).collect()))
}

/// The value of the template parameter `name` in the instance `owner`
/// infers: a parameter of the function template, or of the class template
/// specialization it is a member of.
fn template_value(db: &dyn SourceDatabase, owner: InferOwner, name: &str) -> Option<i128> {
    fn lookup(params: &[cufront_hir::item_tree::TemplateParam], args: &[TemplateArg], name: &str) -> Option<i128> {
        let i = params.iter().position(|p| p.name.as_deref() == Some(name))?;
        match args.get(i)? {
            TemplateArg::Value(v, _) => Some(*v),
            _ => None,
        }
    }
    match owner {
        InferOwner::Closure(c) => template_value(db, c.closure(db).owner(db), name),
        InferOwner::Inst(i) => {
            if let FnDecl::Template(t) = i.decl(db)
                && let Some(d) = item_tree_of(db, t.item(db)).fn_templates.get(t.idx(db) as usize)
                && let Some(v) = lookup(&d.tparams, i.args(db), name)
            {
                return Some(v);
            }
            let inst = i.outer(db)?;
            let class = inst.class(db);
            let tree = item_tree_of(db, class.item(db));
            let tparams = tree.classes.get(class.idx(db) as usize)?.tparams.as_ref()?;
            let args = inst.args(db);
            // The class's own arguments come last (outer templates' first).
            lookup(tparams, &args[args.len().checked_sub(tparams.len())?..], name)
        }
        _ => None,
    }
}

/// The IL's spelling of a builtin type (`None`: none yet).
fn prim(b: Builtin) -> Option<il::Prim> {
    use il::Prim as P;
    Some(match b {
        Builtin::Void => P::Void,
        Builtin::Bool => P::Bool,
        Builtin::Char => P::Char,
        Builtin::SChar => P::SChar,
        Builtin::UChar => P::UChar,
        Builtin::WChar => P::WChar,
        Builtin::Char8 => P::Char8,
        Builtin::Char16 => P::Char16,
        Builtin::Char32 => P::Char32,
        Builtin::Short => P::Short,
        Builtin::UShort => P::UShort,
        Builtin::Int => P::Int,
        Builtin::UInt => P::UInt,
        Builtin::Long => P::Long,
        Builtin::ULong => P::ULong,
        Builtin::LongLong => P::LongLong,
        Builtin::ULongLong => P::ULongLong,
        Builtin::Int128 => P::Int128,
        Builtin::UInt128 => P::UInt128,
        Builtin::Float16 => P::Half,
        Builtin::BF16 => P::BF16,
        Builtin::Float | Builtin::Float32 => P::Float,
        Builtin::Double | Builtin::Float64 => P::Double,
        Builtin::LongDouble => P::LongDouble,
        Builtin::Float128 => P::Float128,
        Builtin::NullPtr => P::NullPtr,
        Builtin::Float32x | Builtin::Float64x => return None,
    })
}

/// The item whose text an owner's expression ranges are relative to.
fn owner_item(db: &dyn SourceDatabase, owner: InferOwner) -> Option<ItemId> {
    match owner {
        InferOwner::Fn(f) => Some(f.item(db)),
        InferOwner::Var(v) => Some(v.item(db)),
        InferOwner::Inst(i) => match i.decl(db) {
            FnDecl::Fn(f) => Some(f.item(db)),
            FnDecl::Template(t) => Some(t.item(db)),
        },
        InferOwner::VarInst(i) => match i.decl(db) {
            instances::VarDecl::Var(v) => Some(v.item(db)),
            instances::VarDecl::Template(t) => Some(t.item(db)),
        },
        InferOwner::Closure(c) => owner_item(db, c.closure(db).owner(db)),
    }
}

/// Lowering one body.
struct FnCx<'c, 'a> {
    cx: &'c mut Cx<'a>,
    body: &'c Body,
    r: &'c InferenceResult,
    /// The calls of the body by site.
    calls: FxHashMap<CallSite, &'c infer::Callee>,
    /// The item's text, for literals' spellings.
    /// The item's tree, for literals' spellings (read by range: an item
    /// may be a whole namespace).
    item: Option<cufront_syntax::SyntaxNode>,
    ret: Option<TyId>,
    owner: InferOwner,
    /// The template arguments of the instance, for types written in it.
    env: Option<Option<cufront_hir::templates::Env>>,
    /// The values of class template enumerations in this instance.
    enums: FxHashMap<EnumId, Option<Arc<Vec<(String, i128)>>>>,
    /// A lambda's own locals (`None`: every local of the body is the
    /// function's); the IL numbers them in this order.
    own: Option<Vec<hb::LocalId>>,
}

impl<'c, 'a> FnCx<'c, 'a> {
    fn new(cx: &'c mut Cx<'a>, owner: InferOwner, body: &'c Body, r: &'c InferenceResult) -> Self {
        let db = cx.db;
        let item = owner_item(db, owner).and_then(|item| {
            cufront_hir::item_source(db, item).as_ref().map(|s| cufront_syntax::SyntaxNode::new_root(s.green.clone()))
        });
        let mut calls = FxHashMap::default();
        for (site, callee) in &r.calls {
            calls.entry(*site).or_insert(callee);
        }
        FnCx { cx, body, r, calls, item, ret: None, owner, env: None, enums: FxHashMap::default(), own: None }
    }

    fn local(&mut self, i: usize) -> il::Local {
        let l = &self.body.locals[i];
        let ty = match self.r.local_tys.get(i).copied().flatten() {
            Some(t) => self.cx.ty(t),
            None => Type::Unknown("local's type".into()),
        };
        let space = if l.cuda.shared {
            il::Space::Shared
        } else if l.cuda.constant {
            il::Space::Constant
        } else if l.cuda.device && l.is_static {
            il::Space::Device
        } else {
            il::Space::Local
        };
        il::Local { name: l.name.clone(), ty, space, is_static: l.is_static, grid_constant: l.cuda.grid_constant }
    }

    fn spelling(&self, e: ExprId) -> String {
        let range = self.body.expr_ranges.get(e.0 as usize);
        match (&self.item, range) {
            (Some(item), Some(&r)) if item.text_range().contains_range(r) => {
                let text = item.covering_element(r).to_string();
                text.trim().to_string()
            }
            _ => "?".to_string(),
        }
    }

    fn expr_ty(&mut self, e: ExprId) -> (Type, Cat) {
        let ty = match self.r.ty(e) {
            Some(t) => self.cx.ty(t),
            None => Type::Unknown("expression's type".into()),
        };
        let cat = match self.r.categories.get(e.0 as usize) {
            Some(Category::LValue) => Cat::LValue,
            Some(Category::XValue) => Cat::XValue,
            _ => Cat::PRValue,
        };
        (ty, cat)
    }

    /// `value` converted to `target` when their types differ (references
    /// and top-level qualifiers aside).
    fn conv(&mut self, value: il::Expr, target: TyId) -> il::Expr {
        let t = self.cx.ty(target);
        if strip(&t) == strip(&value.ty)
            || matches!(strip(&t), Type::Unknown(_))
            || matches!(strip(&value.ty), Type::Unknown(_))
        {
            return value;
        }
        il::Expr { ty: strip(&t).clone(), cat: Cat::PRValue, kind: ExprKind::Conv(Box::new(value)) }
    }

    fn callee_entity(&self, site: CallSite) -> Option<Entity> {
        match self.calls.get(&site) {
            Some(infer::Callee::Entity(e)) => Some(*e),
            _ => None,
        }
    }

    fn callee(&mut self, site: CallSite, callee_expr: Option<ExprId>) -> il::Callee {
        // A name nothing declares (`__builtin_sinf`).
        if let Some(c) = callee_expr
            && let Some(hb::Expr::Path(p)) = self.body.exprs.get(c.0 as usize)
            && !self.r.resolutions.contains_key(&c)
            && !matches!(self.calls.get(&site), Some(infer::Callee::Entity(_)))
        {
            let name = p.segments.iter().map(|s| s.name.to_string()).collect::<Vec<_>>().join("::");
            return il::Callee::Undeclared(name);
        }
        match self.calls.get(&site) {
            Some(infer::Callee::Entity(e)) => il::Callee::Direct(self.cx.name(*e)),
            Some(infer::Callee::Builtin) => match callee_expr {
                Some(c) => il::Callee::Indirect(Box::new(self.expr(c))),
                None => il::Callee::Builtin,
            },
            Some(infer::Callee::Unresolved(why)) => il::Callee::Unresolved(why.to_string()),
            None => il::Callee::Unresolved("no call recorded".into()),
        }
    }

    /// Arguments, each converted to its parameter's type when the callee's
    /// type is known.
    fn args(&mut self, args: &[ExprId], params: Option<Vec<TyId>>) -> Vec<il::Expr> {
        args.iter()
            .enumerate()
            .map(|(i, &a)| {
                let v = self.expr(a);
                match params.as_ref().and_then(|p| p.get(i)) {
                    Some(&p) => self.conv(v, p),
                    None => v,
                }
            })
            .collect()
    }

    /// The parameter types of the function a call at `site` calls, or of
    /// the function type of the callee expression.
    fn params_of(&self, site: CallSite, callee: ExprId) -> Option<Vec<TyId>> {
        let db = self.cx.db;
        if let Some(e) = self.callee_entity(site) {
            return entity_params(db, e);
        }
        let t = self.r.ty(callee)?;
        let t = cufront_hir::ty::canonical(db, t);
        let t = match t.kind(db) {
            TyKind::Ptr(x) => cufront_hir::ty::canonical(db, *x),
            _ => t,
        };
        match t.kind(db) {
            TyKind::Func(f) => Some(f.params.clone()),
            _ => None,
        }
    }

    fn expr(&mut self, e: ExprId) -> il::Expr {
        let (ty, cat) = self.expr_ty(e);
        let kind = self.expr_kind(e);
        il::Expr { ty, cat, kind }
    }

    fn boxed(&mut self, e: ExprId) -> Box<il::Expr> {
        Box::new(self.expr(e))
    }

    fn expr_kind(&mut self, e: ExprId) -> ExprKind {
        let body = self.body;
        let Some(x) = body.exprs.get(e.0 as usize) else { return ExprKind::Unsupported("no such expression".into()) };
        let site = CallSite::Expr(e);
        // An overloaded operator or a user-defined conversion the model
        // resolved: a call of that function.
        let operator_call = |this: &mut Self, operands: &[ExprId]| -> Option<ExprKind> {
            let f = this.callee_entity(site)?;
            let name = this.cx.name(f);
            let args = operands.iter().map(|&o| this.expr(o)).collect();
            Some(ExprKind::Call { callee: il::Callee::Direct(name), args })
        };
        match x {
            hb::Expr::Missing(what) => ExprKind::Unsupported(format!("not lowered: {what}")),
            // A literal above `i128::MAX` can only be an `unsigned __int128`
            // one: its bits.
            hb::Expr::Literal(hb::Literal::Int(v, _)) => ExprKind::Int(*v as i128),
            hb::Expr::Literal(hb::Literal::Float(_)) => ExprKind::Float(self.spelling(e)),
            hb::Expr::Literal(hb::Literal::String(..)) => ExprKind::Str(self.spelling(e)),
            hb::Expr::Literal(hb::Literal::Nullptr) => ExprKind::Nullptr,
            hb::Expr::Path(p) => match self.r.resolutions.get(&e) {
                Some(Resolution::Local(l)) => self.local_ref(*l),
                Some(Resolution::Entity(x)) => ExprKind::Global(self.cx.name(*x)),
                Some(Resolution::Field) => {
                    let name = p.segments.last().map(|s| s.name.to_string()).unwrap_or_default();
                    let ty = match this_ty(self.cx.db, self.cx.map, self.owner) {
                        Some(t) => self.cx.ty(t),
                        None => Type::Unknown("this".into()),
                    };
                    let this = il::Expr { ty, cat: Cat::PRValue, kind: ExprKind::This };
                    ExprKind::Field { base: Box::new(this), arrow: true, name }
                }
                Some(Resolution::Enumerator) => {
                    let name = p.segments.last().map(|s| s.name.to_string()).unwrap_or_default();
                    let value = self.r.ty(e).and_then(|t| {
                        enumerator_value(self.cx.db, t, &name).or_else(|| self.instance_enumerator(t, &name))
                    });
                    match value {
                        Some(v) => ExprKind::Int(v),
                        None => ExprKind::Unsupported(format!("enumerator {name}")),
                    }
                }
                Some(Resolution::TemplateValue) => {
                    let name = p.segments.last().map(|s| s.name.to_string()).unwrap_or_default();
                    match template_value(self.cx.db, self.owner, &name) {
                        Some(v) => ExprKind::Int(v),
                        None => ExprKind::Unsupported(format!("template argument {name}")),
                    }
                }
                Some(Resolution::Type(_)) => ExprKind::Unsupported("a type as an expression".into()),
                None => ExprKind::Unsupported("unresolved name".into()),
            },
            hb::Expr::This => ExprKind::This,
            hb::Expr::Member { base, arrow, name } => match self.r.resolutions.get(&e) {
                Some(Resolution::Entity(x)) => ExprKind::Global(self.cx.name(*x)),
                _ => {
                    let name = name.segments.last().map(|s| s.name.to_string()).unwrap_or_default();
                    ExprKind::Field { base: self.boxed(*base), arrow: *arrow, name }
                }
            },
            hb::Expr::Call { callee, args } => {
                let params = self.params_of(site, *callee);
                // A member function's object is its first argument: the
                // object of `o.f(…)`, or `o` itself in `o(…)` (a call
                // operator, a closure's included).
                let object = match body.exprs.get(callee.0 as usize) {
                    Some(hb::Expr::Member { base, .. }) if self.callee_entity(site).is_some() => Some(*base),
                    _ if self.callee_entity(site).is_some() && self.is_object(*callee) => Some(*callee),
                    _ => None,
                };
                let callee_il = self.callee(site, Some(*callee));
                let mut out = Vec::new();
                if let Some(o) = object {
                    out.push(self.expr(o));
                }
                out.extend(self.args(args, params));
                ExprKind::Call { callee: callee_il, args: out }
            }
            hb::Expr::KernelLaunch { callee, config, args } => {
                let params = self.params_of(site, *callee);
                let callee_il = self.callee(site, Some(*callee));
                let config = config.iter().map(|&c| self.expr(c)).collect();
                let args = self.args(args, params);
                ExprKind::Launch { callee: callee_il, config, args }
            }
            hb::Expr::Construct { args, .. } => {
                let ctor = self.callee_entity(site).map(|f| self.cx.name(f));
                let args = args.iter().map(|&a| self.expr(a)).collect();
                ExprKind::Construct { ctor, args }
            }
            hb::Expr::Unary { op, expr } => {
                if let Some(call) = operator_call(self, &[*expr]) {
                    return call;
                }
                let op = match op {
                    hb::UnaryOp::Neg => il::UnOp::Neg,
                    hb::UnaryOp::Plus => il::UnOp::Plus,
                    hb::UnaryOp::Not => il::UnOp::Not,
                    hb::UnaryOp::BitNot => il::UnOp::BitNot,
                    hb::UnaryOp::Deref => il::UnOp::Deref,
                    hb::UnaryOp::AddrOf => il::UnOp::AddrOf,
                    hb::UnaryOp::PreInc => il::UnOp::PreInc,
                    hb::UnaryOp::PreDec => il::UnOp::PreDec,
                    hb::UnaryOp::PostInc => il::UnOp::PostInc,
                    hb::UnaryOp::PostDec => il::UnOp::PostDec,
                    hb::UnaryOp::Other => return ExprKind::Unsupported("GNU unary operator".into()),
                };
                ExprKind::Unary { op, expr: self.boxed(*expr) }
            }
            hb::Expr::Binary { op, lhs, rhs } => {
                if let Some(call) = operator_call(self, &[*lhs, *rhs]) {
                    return call;
                }
                let (mut l, mut r) = (self.expr(*lhs), self.expr(*rhs));
                // The usual arithmetic conversions: both operands of an
                // arithmetic operator to the result's type (not shifts, whose
                // operands are promoted each on its own, nor comparisons).
                let arithmetic = matches!(
                    op,
                    hb::BinaryOp::Add
                        | hb::BinaryOp::Sub
                        | hb::BinaryOp::Mul
                        | hb::BinaryOp::Div
                        | hb::BinaryOp::Rem
                        | hb::BinaryOp::BitAnd
                        | hb::BinaryOp::BitOr
                        | hb::BinaryOp::BitXor
                );
                if arithmetic
                    && let Some(t) = self.r.ty(e)
                    && matches!(cufront_hir::ty::canonical(self.cx.db, t).kind(self.cx.db), TyKind::Builtin(_))
                {
                    l = self.conv(l, t);
                    r = self.conv(r, t);
                }
                ExprKind::Binary { op: binop(*op), lhs: Box::new(l), rhs: Box::new(r) }
            }
            hb::Expr::Assign { op, lhs, rhs } => {
                if let Some(call) = operator_call(self, &[*lhs, *rhs]) {
                    return call;
                }
                let l = self.expr(*lhs);
                let r = self.expr(*rhs);
                let r = match (op, self.r.ty(*lhs)) {
                    (None, Some(t)) => self.conv(r, t),
                    _ => r,
                };
                ExprKind::Assign { op: op.map(binop), lhs: Box::new(l), rhs: Box::new(r) }
            }
            hb::Expr::Cond { cond, then, els } => {
                ExprKind::Cond { cond: self.boxed(*cond), then: self.boxed(*then), els: self.boxed(*els) }
            }
            hb::Expr::Comma { lhs, rhs } => ExprKind::Comma { lhs: self.boxed(*lhs), rhs: self.boxed(*rhs) },
            hb::Expr::Cast { kind, expr, .. } => {
                let kind = match kind {
                    hb::CastKind::CStyle => il::CastKind::CStyle,
                    hb::CastKind::Static => il::CastKind::Static,
                    hb::CastKind::Const => il::CastKind::Const,
                    hb::CastKind::Reinterpret => il::CastKind::Reinterpret,
                    hb::CastKind::Dynamic => il::CastKind::Dynamic,
                };
                ExprKind::Cast { kind, expr: self.boxed(*expr) }
            }
            hb::Expr::Index { base, index } => {
                if let Some(call) = operator_call(self, &[*base, *index]) {
                    return call;
                }
                ExprKind::Index { base: self.boxed(*base), index: self.boxed(*index) }
            }
            hb::Expr::InitList(es) => ExprKind::InitList(es.iter().map(|&x| self.expr(x)).collect()),
            hb::Expr::SizeofExpr(x) | hb::Expr::AlignofExpr(x) => {
                let sizeof = matches!(body.exprs[e.0 as usize], hb::Expr::SizeofExpr(_));
                match self.r.ty(*x).map(|t| cufront_hir::layout::size_align(self.cx.db, t)) {
                    Some(Ok((size, align))) => ExprKind::Size(if sizeof { size } else { align }),
                    _ => ExprKind::Unsupported("sizeof or alignof of an expression without a layout".into()),
                }
            }
            hb::Expr::SizeofType(t) | hb::Expr::AlignofType(t) => {
                let sizeof = matches!(x, hb::Expr::SizeofType(_));
                match self.lower_type(t).map(|t| cufront_hir::layout::size_align(self.cx.db, t)) {
                    Some(Ok((size, align))) => ExprKind::Size(if sizeof { size } else { align }),
                    _ => ExprKind::Unsupported("sizeof or alignof of a type without a layout".into()),
                }
            }
            hb::Expr::Lambda { captures, params, .. } => self.closure(e, captures, params),
            hb::Expr::New { .. } => ExprKind::Unsupported("new-expression".into()),
            hb::Expr::Delete { .. } => ExprKind::Unsupported("delete-expression".into()),
            hb::Expr::Throw(_) => ExprKind::Unsupported("throw-expression".into()),
            hb::Expr::Builtin { name, .. } => ExprKind::Unsupported(format!("builtin {name}")),
            hb::Expr::Designated { .. } => ExprKind::Unsupported("designated initializer".into()),
            hb::Expr::StmtExpr(_) => ExprKind::Unsupported("statement expression".into()),
            _ => ExprKind::Unsupported("expression form".into()),
        }
    }

    /// The `i`th member initializer of a constructor.
    fn mem_init(&mut self, i: usize) -> Stmt {
        let m = &self.body.mem_inits[i];
        let name = m.name.segments.last().map(|s| s.name.to_string()).unwrap_or_default();
        if m.pack {
            return Stmt::Unsupported(format!("pack expansion of initializers of {name}"));
        }
        let ctor = self.callee_entity(CallSite::MemInit(i as u32)).map(|f| self.cx.name(f));
        let args: Vec<il::Expr> = m.args.iter().map(|&a| self.expr(a)).collect();
        let init = match (ctor, args.len(), m.braced) {
            (Some(ctor), _, _) => Init::Construct { ctor: Some(ctor), args },
            (None, 1, false) => Init::Expr(args.into_iter().next().expect("one argument")),
            (None, _, _) => Init::List(args),
        };
        Stmt::MemberInit { name, init }
    }

    /// A type written in the body, lowered where the function is declared
    /// (in an instance, with its template arguments).
    fn lower_type(&mut self, t: &cufront_hir::item_tree::TypeRef) -> Option<TyId> {
        let db = self.cx.db;
        let mut owner = self.owner;
        while let InferOwner::Closure(c) = owner {
            owner = c.closure(db).owner(db);
        }
        let decl = match owner {
            InferOwner::Fn(f) => FnDecl::Fn(f),
            InferOwner::Inst(i) => {
                if self.env.is_none() {
                    self.env = Some(instances::instance_env(db, i).ok());
                }
                i.decl(db)
            }
            _ => return None,
        };
        let env = match (owner, &self.env) {
            (InferOwner::Inst(_), Some(None)) => return None,
            (InferOwner::Inst(_), Some(Some(env))) => Some(env),
            _ => None,
        };
        let scope = instances::fn_scope(db, decl)?;
        let item = owner_item(db, owner)?;
        let cx = cufront_hir::ty::LowerCx { db, map: self.cx.map, item, scope, env };
        let t = cufront_hir::ty::lower(cx, t);
        (!matches!(t.kind(db), TyKind::Error(_) | TyKind::Dependent(_))).then_some(t)
    }

    /// A local named in the body: in a lambda, an enclosing function's
    /// local is its capture, a member of the closure object.
    fn local_ref(&mut self, l: hb::LocalId) -> ExprKind {
        match &self.own {
            Some(own) if !own.contains(&l) && self.closure_ty().is_some() => {
                let name = self.body.locals.get(l.0 as usize).and_then(|d| d.name.clone()).unwrap_or_default();
                let ty = match self.closure_ty() {
                    Some(t) => self.cx.ty(TyId::new(self.cx.db, TyKind::Ptr(t))),
                    None => Type::Unknown("closure".into()),
                };
                let this = il::Expr { ty, cat: Cat::PRValue, kind: ExprKind::This };
                ExprKind::Field { base: Box::new(this), arrow: true, name }
            }
            _ => ExprKind::Local(self.lid(l)),
        }
    }

    /// The IL's number of a local.
    fn lid(&self, l: hb::LocalId) -> u32 {
        match &self.own {
            Some(own) => own.iter().position(|&o| o == l).map_or(u32::MAX, |i| i as u32),
            None => l.0,
        }
    }

    /// The closure type whose `operator()` is lowered.
    fn closure_ty(&self) -> Option<TyId> {
        let InferOwner::Closure(c) = self.owner else { return None };
        Some(TyId::new(self.cx.db, TyKind::Closure(c.closure(self.cx.db))))
    }

    /// Whether `e` is an object of class or closure type (not a function).
    fn is_object(&self, e: ExprId) -> bool {
        let db = self.cx.db;
        self.r.ty(e).is_some_and(|t| {
            matches!(
                cufront_hir::ty::canonical(db, t).kind(db),
                TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) | TyKind::Closure(_)
            )
        })
    }

    /// A lambda's closure object: its explicit captures, then what a
    /// capture-default captures — the enclosing locals its body names
    /// (non-generic lambdas are inferred in place, so the names inside are
    /// resolved in this body), in first-use order.
    fn closure(&mut self, e: ExprId, captures: &[hb::Capture], params: &[hb::LocalId]) -> ExprKind {
        let body = self.body;
        let local = |this: &mut Self, l: hb::LocalId| {
            let ty = match this.r.local_tys.get(l.0 as usize).copied().flatten() {
                Some(t) => this.cx.ty(t),
                None => Type::Unknown("local's type".into()),
            };
            il::Expr { ty, cat: Cat::LValue, kind: this.local_ref(l) }
        };
        let this_expr = |this: &mut Self| {
            let ty = match this_ty(this.cx.db, this.cx.map, this.owner) {
                Some(t) => this.cx.ty(t),
                None => Type::Unknown("this".into()),
            };
            il::Expr { ty, cat: Cat::PRValue, kind: ExprKind::This }
        };
        let visible = self.r.lambda_scopes.get(&e).cloned().unwrap_or_default();
        let mut out = Vec::new();
        let mut own: Vec<hb::LocalId> = params.to_vec();
        let mut default = None;
        for c in captures {
            match c {
                hb::Capture::Default { by_ref } => default = Some(*by_ref),
                hb::Capture::This { by_copy } => {
                    let value = this_expr(self);
                    out.push(il::Capture { name: "this".into(), by_ref: !by_copy, value });
                }
                hb::Capture::Var { name, by_ref, init, local: init_local } => {
                    own.extend(init_local);
                    let value = match init {
                        Some(x) => self.expr(*x),
                        None => match visible.iter().rev().find(|(n, _)| n == name) {
                            Some(&(_, l)) => local(self, l),
                            None => il::Expr {
                                ty: Type::Unknown("capture".into()),
                                cat: Cat::LValue,
                                kind: ExprKind::Unsupported(format!("capture of {name}")),
                            },
                        },
                    };
                    out.push(il::Capture { name: name.clone(), by_ref: *by_ref, value });
                }
            }
        }
        if let Some(by_ref) = default
            && let Some(&range) = body.expr_ranges.get(e.0 as usize)
        {
            let inside = |r: Option<&cufront_syntax::TextRange>| r.is_some_and(|r| range.contains_range(*r));
            let mut seen: Vec<hb::LocalId> = out
                .iter()
                .filter_map(|c| match c.value.kind {
                    ExprKind::Local(l) => Some(hb::LocalId(l)),
                    _ => None,
                })
                .collect();
            for (i, r) in body.expr_ranges.iter().enumerate() {
                let x = ExprId(i as u32);
                if x == e || !range.contains_range(*r) {
                    continue;
                }
                let Some(Resolution::Local(l)) = self.r.resolutions.get(&x) else { continue };
                // A local of the lambda (a parameter, an init-capture, one
                // declared in its body) is no capture.
                if own.contains(l)
                    || seen.contains(l)
                    || inside(body.local_names.get(l.0 as usize).and_then(|n| n.as_ref()))
                {
                    continue;
                }
                seen.push(*l);
                let name = body.locals.get(l.0 as usize).and_then(|d| d.name.clone()).unwrap_or_default();
                let value = local(self, *l);
                out.push(il::Capture { name, by_ref, value });
            }
        }
        ExprKind::Closure(out)
    }

    /// [`instance_enumerators`], once per enumeration and body.
    fn instance_enumerator(&mut self, t: TyId, name: &str) -> Option<i128> {
        let db = self.cx.db;
        let TyKind::Enum(e) = cufront_hir::ty::canonical(db, t).kind(db).clone() else { return None };
        let (map, owner) = (self.cx.map, self.owner);
        let values = self.enums.entry(e).or_insert_with(|| instance_enumerators(db, map, owner, e));
        values.as_ref()?.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    fn init(&mut self, l: hb::LocalId) -> Option<Init> {
        let local = &self.body.locals[l.0 as usize];
        let target = self.r.local_tys.get(l.0 as usize).copied().flatten();
        let ctor = self.callee_entity(CallSite::Local(l)).map(|f| self.cx.name(f));
        match &local.init {
            hb::Init::None => ctor.map(|c| Init::Construct { ctor: Some(c), args: Vec::new() }),
            // `T x = {a, b}`: list-initialization.
            hb::Init::Assign(x)
                if ctor.is_none() && matches!(self.body.exprs.get(x.0 as usize), Some(hb::Expr::InitList(_))) =>
            {
                let Some(hb::Expr::InitList(es)) = self.body.exprs.get(x.0 as usize) else { return None };
                Some(Init::List(es.iter().map(|&e| self.expr(e)).collect()))
            }
            hb::Init::Assign(x) if ctor.is_none() => {
                let v = self.expr(*x);
                Some(Init::Expr(match target {
                    Some(t) => self.conv(v, t),
                    None => v,
                }))
            }
            hb::Init::Assign(x) => {
                let args = vec![self.expr(*x)];
                Some(Init::Construct { ctor, args })
            }
            hb::Init::Paren(args) | hb::Init::Brace(args) => {
                let args: Vec<il::Expr> = args.iter().map(|&a| self.expr(a)).collect();
                if ctor.is_some() {
                    return Some(Init::Construct { ctor, args });
                }
                match (args.len(), &local.init, target) {
                    (1, hb::Init::Paren(_), Some(t)) => {
                        let v = args.into_iter().next().expect("one argument");
                        Some(Init::Expr(self.conv(v, t)))
                    }
                    _ => Some(Init::List(args)),
                }
            }
        }
    }

    fn cond(&mut self, c: &hb::Cond, out: &mut Vec<Stmt>) -> il::Expr {
        match c {
            hb::Cond::Expr(x) => self.expr(*x),
            hb::Cond::Decl(l) => {
                let init = self.init(*l);
                out.push(Stmt::Decl(vec![(self.lid(*l), init)]));
                let ty = match self.r.local_tys.get(l.0 as usize).copied().flatten() {
                    Some(t) => self.cx.ty(t),
                    None => Type::Unknown("local's type".into()),
                };
                il::Expr { ty, cat: Cat::LValue, kind: ExprKind::Local(self.lid(*l)) }
            }
        }
    }

    /// A statement with the declarations and init-statements it needs
    /// before it (`if (int i = f())`, `if (init; cond)`) put in a block.
    fn with_prelude(prelude: Vec<Stmt>, s: Stmt) -> Stmt {
        if prelude.is_empty() {
            s
        } else {
            let mut ss = prelude;
            ss.push(s);
            Stmt::Block(ss)
        }
    }

    fn stmt(&mut self, s: StmtId) -> Stmt {
        let body = self.body;
        let Some(x) = body.stmts.get(s.0 as usize) else { return Stmt::Unsupported("no such statement".into()) };
        let b = |this: &mut Self, s: StmtId| Box::new(this.stmt(s));
        match x {
            hb::Stmt::Compound(ss) => Stmt::Block(ss.iter().map(|&s| self.stmt(s)).collect()),
            hb::Stmt::Expr(e) => Stmt::Expr(self.expr(*e)),
            hb::Stmt::Decl(ls) => Stmt::Decl(ls.iter().map(|&l| (self.lid(l), self.init(l))).collect()),
            hb::Stmt::Alias(_)
            | hb::Stmt::NamespaceAlias(..)
            | hb::Stmt::StaticAssert(_)
            | hb::Stmt::Other(_)
            | hb::Stmt::Null => Stmt::Null,
            hb::Stmt::If { init, cond, then, els, .. } => {
                let mut pre = Vec::new();
                if let Some(i) = init {
                    pre.push(self.stmt(*i));
                }
                let cond = self.cond(cond, &mut pre);
                let then = b(self, *then);
                let els = els.map(|e| b(self, e));
                Self::with_prelude(pre, Stmt::If { cond, then, els })
            }
            hb::Stmt::Switch { init, cond, body } => {
                let mut pre = Vec::new();
                if let Some(i) = init {
                    pre.push(self.stmt(*i));
                }
                let cond = self.cond(cond, &mut pre);
                let body = b(self, *body);
                Self::with_prelude(pre, Stmt::Switch { cond, body })
            }
            hb::Stmt::While { cond, body } => {
                let mut pre = Vec::new();
                let cond = self.cond(cond, &mut pre);
                let body = b(self, *body);
                Self::with_prelude(pre, Stmt::While { cond, body })
            }
            hb::Stmt::Do { body, cond } => Stmt::DoWhile { body: b(self, *body), cond: self.expr(*cond) },
            hb::Stmt::For { init, cond, step, body } => {
                let init = init.map(|i| b(self, i));
                let mut pre = Vec::new();
                let cond = cond.as_ref().map(|c| self.cond(c, &mut pre));
                let step = step.map(|s| self.expr(s));
                let body = b(self, *body);
                // A condition that declares a variable: the declaration
                // runs before each test, as the first statement of the loop.
                match pre.is_empty() {
                    true => Stmt::For { init, cond, step, body },
                    false => Stmt::Unsupported("for statement whose condition declares a variable".into()),
                }
            }
            hb::Stmt::RangeFor { init, var: Some(var), range, body } => {
                let init = init.map(|i| b(self, i));
                let iteration = self
                    .r
                    .calls
                    .iter()
                    .filter(|(s, _)| *s == CallSite::Expr(*range))
                    .filter_map(|(_, c)| match c {
                        infer::Callee::Entity(e) => Some(self.cx.name(*e)),
                        _ => None,
                    })
                    .collect();
                let decl = self.init(*var);
                let range = self.expr(*range);
                let var = self.lid(*var);
                let body = b(self, *body);
                // The loop variable is initialized from the iterator each
                // time: its initializer in the body is that (a `Decl` first).
                let body = match decl {
                    Some(init) => Box::new(Stmt::Block(vec![Stmt::Decl(vec![(var, Some(init))]), *body])),
                    None => body,
                };
                Stmt::RangeFor { init, var, range, iteration, body }
            }
            hb::Stmt::RangeFor { var: None, .. } => Stmt::Unsupported("range-based for without a variable".into()),
            hb::Stmt::Return(None) => Stmt::Return(None),
            hb::Stmt::Return(Some(e)) => {
                let v = self.expr(*e);
                Stmt::Return(Some(match self.ret {
                    Some(t) => self.conv(v, t),
                    None => v,
                }))
            }
            hb::Stmt::Break => Stmt::Break,
            hb::Stmt::Continue => Stmt::Continue,
            hb::Stmt::Goto(Some(l)) => Stmt::Goto(l.clone()),
            hb::Stmt::Goto(None) => Stmt::Unsupported("computed goto".into()),
            hb::Stmt::Label { name, stmt } => Stmt::Label { name: name.clone(), body: b(self, *stmt) },
            hb::Stmt::Case { value, stmt } => Stmt::Case { value: self.expr(*value), body: b(self, *stmt) },
            hb::Stmt::Default(s) => Stmt::Default(b(self, *s)),
            hb::Stmt::Try { .. } => Stmt::Unsupported("try block".into()),
            hb::Stmt::Asm(_) => Stmt::Unsupported("asm statement".into()),
        }
    }
}

fn binop(op: hb::BinaryOp) -> il::BinOp {
    use hb::BinaryOp as B;
    use il::BinOp as O;
    match op {
        B::Add => O::Add,
        B::Sub => O::Sub,
        B::Mul => O::Mul,
        B::Div => O::Div,
        B::Rem => O::Rem,
        B::Shl => O::Shl,
        B::Shr => O::Shr,
        B::BitAnd => O::BitAnd,
        B::BitOr => O::BitOr,
        B::BitXor => O::BitXor,
        B::And => O::And,
        B::Or => O::Or,
        B::Eq => O::Eq,
        B::Ne => O::Ne,
        B::Lt => O::Lt,
        B::Le => O::Le,
        B::Gt => O::Gt,
        B::Ge => O::Ge,
        B::Spaceship => O::Cmp,
        B::PtrMem | B::PtrMemArrow => O::PtrMem,
    }
}

/// A type without references and top-level qualifiers.
fn strip(t: &Type) -> &Type {
    match t {
        Type::LRef(x) | Type::RRef(x) | Type::Qual(x, _) => strip(x),
        _ => t,
    }
}

/// A kernel's launch attributes, read from its declaration's GNU
/// attributes (`__launch_bounds__(256, 2)` is
/// `__attribute__((launch_bounds(256, 2)))` in the preprocessed unit).
fn kernel_attrs(db: &dyn SourceDatabase, tu: TranslationUnit, e: Entity) -> il::KernelAttrs {
    let mut out = il::KernelAttrs::default();
    let Some(&pos) = registry::positions(db, tu).get(&e) else { return out };
    let Some(at) = registry::unit_offset(db, tu, pos) else { return out };
    let parse = cufront_base_db::parse(db, tu);
    let root = parse.syntax_node();
    let Some(tok) = root.token_at_offset(at.into()).right_biased() else { return out };
    let Some(decl) = tok.parent_ancestors().find(|n| matches!(n.kind(), K::FUNCTION_DEF | K::SIMPLE_DECL)) else {
        return out;
    };
    // Attributes before the body (on the specifiers or the declarator).
    let mut walk = decl.preorder();
    while let Some(ev) = walk.next() {
        let rowan::WalkEvent::Enter(n) = ev else { continue };
        if matches!(n.kind(), K::FUNCTION_BODY | K::LAZY_BODY) {
            walk.skip_subtree();
            continue;
        }
        if n.kind() != K::ATTRIBUTE {
            continue;
        }
        let list = match cufront_cuda::attrs::attribute_name(&n).as_deref() {
            Some("launch_bounds") => &mut out.launch_bounds,
            Some("cluster_dims") => &mut out.cluster_dims,
            Some("maxnreg") => &mut out.maxnreg,
            _ => continue,
        };
        for t in n.descendants_with_tokens().filter_map(|t| t.into_token()) {
            if t.kind() == K::INT_NUMBER
                && let Some(v) = int_literal(t.text())
            {
                list.push(v);
            }
        }
    }
    out
}

/// An integer literal's value (decimal, hexadecimal, octal or binary,
/// with any suffix).
fn int_literal(s: &str) -> Option<u64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L', 'z', 'Z']).replace('\'', "");
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse().ok()
    }
}
