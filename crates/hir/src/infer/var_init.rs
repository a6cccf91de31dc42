//! The initialization of variables with static storage duration
//! ([basic.start.static], [basic.start.dynamic]): what a namespace-scope
//! variable, a static data member or a variable template specialization
//! calls when it is initialized at run time (`int use = f(1);` requires
//! `f<int>`), and the destructor g++ registers with `__cxa_atexit` for an
//! object of class type.
//!
//! Invariants:
//! - A definition's initializer is an inference owner of its own
//!   (`InferOwner::Var`, `InferOwner::VarInst`): its body is one block
//!   declaring one unnamed local of the variable's type with the written
//!   initializer (`body::lower_var_init`), so `infer` does what it does for
//!   a local: construction, conversions, temporaries, lambdas; then the
//!   destruction at exit (`Infer::destroy_at_exit`).
//! - The item tree reads no initializer: `item_tree::Offsets::var_inits`
//!   (outside the tree) says where each is, and `var_init_body` lowers it
//!   from the item's green tree on demand, so an edit inside an
//!   initializer invalidates only that body.
//! - A constant-initialized variable (`constexpr`, or an initializer the
//!   constant interpreter evaluates) calls nothing at run time: of what its
//!   initialization requires only destructors stay ([basic.start.static]/2;
//!   g++ at -O0 does not reference a constexpr constructor used there).
//!   When the interpreter cannot decide, the initialization is dynamic: the
//!   calls are kept (a superset, never a missing name).
//! - Closures in an initializer are numbered in the variable's body (one
//!   per variable) and named in the variable's context as g++ does
//!   (`instances::local::var_context_name`: `_ZNK4lam3MUliE_clEi`).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextSize};

use crate::body::{self, Body, Stmt};
use crate::consteval::interp;
use crate::instances::{self, VarDecl};
use crate::item_tree::{Cv, FnName, VarData};
use crate::scopes::{DeclKey, ScopeIdx, ScopeKind, def_map};
use crate::templates::ClassRefT;
use crate::{Entity, VarId, item_tree_of};

use super::{Infer, InferOwner, OwnerInfo, infer};
use crate::body::LocalId;
use crate::ty::{TyId, TyKind, canonical};

/// The body of variable declaration `d`'s definition: one declaration of
/// one unnamed local of its type with its initializer (none: default
/// initialization).
#[salsa::tracked(returns(clone))]
pub fn var_init_body(db: &dyn SourceDatabase, d: VarDecl) -> Arc<Body> {
    let Some(data) = d.data(db) else { return Arc::default() };
    let item = d.item(db);
    let Some(src) = crate::item_source(db, item).as_ref().cloned() else { return Arc::default() };
    let root = SyntaxNode::new_root(src.green.clone());
    let offs = crate::item_offsets(db, item);
    let (list, idx) = match d {
        VarDecl::Var(v) => (&offs.var_inits, v.idx(db)),
        VarDecl::Template(t) => (&offs.var_template_inits, t.idx(db)),
    };
    let node = match list.iter().find(|(k, _)| *k == idx) {
        Some(&(_, at)) => match init_declarator_at(&root, at) {
            Some(n) => Some(n),
            // An initializer that cannot be found is never taken for none.
            None => return Arc::default(),
        },
        None => None,
    };
    Arc::new(body::lower_var_init(node.as_ref(), data.ty))
}

/// The init-declarator starting at `at` that holds an initializer.
fn init_declarator_at(root: &SyntaxNode, at: u32) -> Option<SyntaxNode> {
    let tok = cufront_syntax::green::token_at(root, TextSize::from(at))?;
    tok.parent_ancestors()
        .take_while(|n| u32::from(n.text_range().start()) == at)
        .find(|n| n.children().any(|c| matches!(c.kind(), K::EQUAL_INITIALIZER | K::INITIALIZER | K::INIT_LIST)))
}

/// Out-of-line definitions of static data members of class templates
/// (`template<class T> int W<T>::m = e;`): (the class template's scope,
/// the member's name, the definition).
#[salsa::tracked(returns(clone))]
pub fn member_var_definitions(
    db: &dyn SourceDatabase,
    tu: cufront_base_db::TranslationUnit,
) -> Arc<Vec<(ScopeIdx, String, VarId)>> {
    let map = def_map(db, tu);
    let mut out = Vec::new();
    for (k, &parent) in &map.parent {
        let DeclKey::Var(v) = *k else { continue };
        let tree = item_tree_of(db, v.item(db));
        let Some(d) = tree.vars.get(v.idx(db) as usize) else { continue };
        if d.outer_tparams.is_empty() || d.qualifier.is_none() {
            continue;
        }
        if let Some(scope) = instances::decl_scope(db, &map, v.item(db), parent, d.qualifier.as_ref()) {
            out.push((scope, d.name.clone(), v));
        }
    }
    out.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    Arc::new(out)
}

/// The declaration that defines an owner's variable, with its data: the
/// variable itself, or for a static data member of a class template
/// declared in the class, its out-of-line definition.
fn definition(db: &dyn SourceDatabase, owner: InferOwner) -> Option<(VarDecl, VarData)> {
    let decl = match owner {
        InferOwner::Var(v) => VarDecl::Var(v),
        InferOwner::VarInst(i) => i.decl(db),
        _ => return None,
    };
    let data = decl.data(db)?;
    if data.linkage.is_definition {
        return Some((decl, data));
    }
    let (VarDecl::Var(v), InferOwner::VarInst(_)) = (decl, owner) else { return None };
    let tu = v.item(db).tu(db);
    let class = *def_map(db, tu).parent.get(&DeclKey::Var(v))?;
    let defs = member_var_definitions(db, tu);
    let &(_, _, d) = defs.iter().find(|(s, n, _)| *s == class && *n == data.name)?;
    let dd = VarDecl::Var(d).data(db).filter(|x| x.linkage.is_definition)?;
    Some((VarDecl::Var(d), dd))
}

/// Where a variable's initializer is inferred: the scope its name belongs
/// to (a static member's class, without `this`), through the instance's
/// `Env` for a specialization.
pub(super) fn var_owner_info(db: &dyn SourceDatabase, owner: InferOwner) -> Result<OwnerInfo, crate::SemaError> {
    let inst = match owner {
        InferOwner::VarInst(i) => Some(i),
        _ => None,
    };
    let (decl, data) = definition(db, owner).ok_or("no definition in the unit")?;
    let map = def_map(db, decl.item(db).tu(db));
    let key = match decl {
        VarDecl::Var(v) => DeclKey::Var(v),
        VarDecl::Template(t) => DeclKey::VarTemplate(t),
    };
    let parent = *map.parent.get(&key).ok_or("no scope")?;
    let scope = instances::decl_scope(db, &map, decl.item(db), parent, data.qualifier.as_ref())
        .ok_or("unresolved qualifier")?;
    let env = match inst {
        Some(i) => {
            let mut env = instances::var_instance_env(db, i)?;
            // An out-of-line definition names the class template's
            // parameters its own way (`template<class U> int W<U>::m`).
            let names: Vec<Option<String>> = data.outer_tparams.iter().flatten().map(|p| p.name.clone()).collect();
            for (n, a) in names.into_iter().zip(env.args.clone()) {
                if let Some(n) = n {
                    env.names.push((n, a));
                }
            }
            Some(env)
        }
        None => {
            if map.templated.contains(&scope) || !data.outer_tparams.is_empty() {
                return Err("templated (inferred per instance)".into());
            }
            None
        }
    };
    let class = match map.scope(scope).kind {
        ScopeKind::Class(c) => Some(match inst.and_then(|i| i.outer(db)) {
            Some(o) => ClassRefT::Inst(o),
            None => ClassRefT::Class(map.class_definition(c)),
        }),
        _ => None,
    };
    Ok(OwnerInfo {
        body: var_init_body(db, decl),
        item: decl.item(db),
        scope,
        env,
        class,
        is_static: true,
        method_cv: Cv::default(),
        name: FnName::Ident(data.name.clone()),
        ret: None,
    })
}

/// The scope a variable's initializer is read in (`None`: no definition).
pub fn var_init_scope(db: &dyn SourceDatabase, owner: InferOwner) -> Option<ScopeIdx> {
    var_owner_info(db, owner).ok().map(|i| i.scope)
}

/// The owner of variable `e`'s initialization, when the unit defines it
/// (a variable template specialization: its template's definition).
pub fn var_init_owner(db: &dyn SourceDatabase, e: Entity) -> Option<InferOwner> {
    let owner = match e {
        Entity::Var(v) => InferOwner::Var(v),
        Entity::VarInst(i) => InferOwner::VarInst(i),
        _ => return None,
    };
    // A `constexpr` variable is constant-initialized and of a literal
    // type (a trivial destructor in C++17): nothing runs, nothing to infer.
    // A `__device__`/`__constant__`/`__managed__` variable's initializer
    // is device code, a constant: the host initializes nothing at run time.
    definition(db, owner).filter(|(_, d)| !d.linkage.is_constexpr && !d.linkage.device_var())?;
    Some(owner)
}

/// What the initialization (and destruction at exit) of a variable
/// requires: everything its initializer's inference requires, or, when it
/// is constant-initialized, only the destructors.
pub fn var_init_required(db: &dyn SourceDatabase, owner: InferOwner) -> Vec<Entity> {
    let r = infer(db, owner);
    if r.skipped.is_some() {
        return Vec::new();
    }
    let mut required = r.required.clone();
    required.extend(r.instantiated_vars.iter().copied());
    if required.iter().any(|&e| is_call(e) && !is_dtor(db, e)) && constant_initialized(db, owner) {
        required.retain(|&e| !is_call(e) || is_dtor(db, e));
    }
    required
}

/// Whether the variable is constant-initialized: declared `constexpr`, or
/// its initializer evaluates as a constant expression.
fn constant_initialized(db: &dyn SourceDatabase, owner: InferOwner) -> bool {
    let Some((_, data)) = definition(db, owner) else { return false };
    if data.linkage.is_constexpr {
        return true;
    }
    let Ok(info) = var_owner_info(db, owner) else { return false };
    let Some(l) = the_local(&info.body) else { return false };
    let map = def_map(db, info.item.tu(db));
    crate::consteval::var_template::isolated(|| {
        interp::eval_local_init(db, &map, (info.item, info.scope, info.env.as_ref()), &info.body, &[], l)
    })
    .is_ok()
}

/// A function (something run), as opposed to a variable.
fn is_call(e: Entity) -> bool {
    !matches!(e, Entity::Var(_) | Entity::VarInst(_) | Entity::LocalStatic(_))
}

/// A destructor (declared or implicit).
fn is_dtor(db: &dyn SourceDatabase, e: Entity) -> bool {
    match e {
        Entity::Fn(f) => instances::FnDecl::Fn(f).data(db).is_some_and(|d| matches!(d.name, FnName::Dtor)),
        Entity::FnInst(i) => i.decl(db).data(db).is_some_and(|d| matches!(d.name, FnName::Dtor)),
        Entity::Special(s) => matches!(s.kind(db), instances::SpecialKind::Dtor),
        _ => false,
    }
}

/// The local standing for the variable in its initializer's body.
fn the_local(body: &Body) -> Option<LocalId> {
    match body.root.map(|r| body.stmt(r)) {
        Some(Stmt::Decl(ls)) => ls.first().copied(),
        _ => None,
    }
}

impl Infer<'_> {
    /// The destruction of the variable at exit (g++ registers its
    /// destructor with `__cxa_atexit`); a reference destroys nothing.
    pub(super) fn destroy_at_exit(&mut self) {
        let Some(l) = the_local(self.body) else { return };
        let Some(t) = self.res.local_tys.get(l.0 as usize).copied().flatten() else { return };
        if !matches!(canonical(self.db, t).kind(self.db), TyKind::LRef(_) | TyKind::RRef(_)) {
            self.destroy(super::CallSite::Local(l), t);
        }
    }
}

/// The type of `auto` variable `v` as its initializer's own inference
/// deduces it, for the initializers the declaration readers cannot type
/// (a lambda: `auto cmp = [](int a, int b) { … };` has a closure type of
/// its own, which only the body's inference creates).
pub(crate) fn deduced_from_inference(db: &dyn SourceDatabase, v: VarId, data: &VarData) -> Option<TyId> {
    if !matches!(&data.ty, crate::item_tree::TypeRef::Opaque(s) if s == "auto") {
        return None;
    }
    let local = the_local(&var_init_body(db, VarDecl::Var(v)))?;
    let r = infer(db, InferOwner::Var(v));
    let t = (*r.local_tys.get(local.0 as usize)?)?;
    (!matches!(t.kind(db), TyKind::Error(_) | TyKind::Dependent(_))).then_some(t)
}
