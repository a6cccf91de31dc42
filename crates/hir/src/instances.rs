//! Function templates, members of class template specializations and
//! variable templates as entities (spec 50 §4, §8), and the instantiation
//! closure of a unit.
//!
//! An instance is interned: `FnInstanceId` = declaration (a function or a
//! function template) + the class template specialization it is a member of
//! (`outer`) + its own template arguments; `VarInstanceId` likewise. Nothing
//! is instantiated eagerly: `signature` substitutes a declaration's written
//! types through `instance_env`, `symbols::mangled_name` spells an instance.
//!
//! The closure (`required_entities`) starts from what g++ emits without
//! being asked (non-inline functions defined in the unit, namespace-scope
//! variables) and follows what each emitted body odr-uses (`infer`'s
//! `required`), depth- and count-limited, deterministic (first-use order).
//!
//! Invariants: no panics on any input (errors are `Err(String)` values);
//! every walk has an explicit limit.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use rustc_hash::FxHashSet;

use crate::item_tree::{FnData, FnName, Path, TemplateArgRef, TemplateParam, TemplateParamKind, TypeRef, VarData};
use crate::scopes::{self, DeclKey, Def, DefMap, ScopeIdx, ScopeKind, def_map};
use crate::templates::{self, ClassRefT, Env, InstId, TemplateArg};
use crate::ty::{self, FnSig, LowerCx, TyId, TyKind};
mod auto_var;
pub use auto_var::var_decl_type;
pub mod inherited;
pub(crate) mod local;
mod redecl;
pub(crate) use redecl::positional_text;
mod special;
pub mod stub;

pub use local::{LocalStaticId, closure_fn_name, closure_type_name, local_static_name};

pub use special::{
    SpecialKind, SpecialMemberId, class_of_object, default_init_runs_code, implicit_assign, implicit_special,
    is_polymorphic, special_nontrivial, special_required, vtable_entities,
};
pub(crate) use special::{declares_move, implicitly_declared, member_classes, move_assign_suppressed, own_ref_param};

use crate::infer::{InferOwner, infer};
use crate::{Entity, FnId, FnTemplateId, ItemId, VarId, VarTemplateId, item_tree_of};

/// A function declaration: a function, or a function template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, salsa::Supertype)]
pub enum FnDecl {
    Fn(FnId),
    Template(FnTemplateId),
}

/// A variable declaration: a variable (or static data member), or a
/// variable template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, salsa::Supertype)]
pub enum VarDecl {
    Var(VarId),
    Template(VarTemplateId),
}

/// A function of the program that is not written as such: a function
/// template specialization (`args` non-empty), a member of a class template
/// specialization (`outer`), or both (a member template of a
/// specialization).
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct FnInstanceId {
    #[returns(copy)]
    pub decl: FnDecl,
    /// The class template specialization the function is a member of.
    #[returns(copy)]
    pub outer: Option<InstId>,
    /// The function's own template arguments (empty: not a template).
    #[returns(ref)]
    pub args: Vec<TemplateArg>,
}

/// A variable template specialization or a static data member of a class
/// template specialization.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct VarInstanceId {
    #[returns(copy)]
    pub decl: VarDecl,
    #[returns(copy)]
    pub outer: Option<InstId>,
    #[returns(ref)]
    pub args: Vec<TemplateArg>,
}

/// The instance of `decl` (a member of `outer` when given) with its own
/// template arguments `args` (normalised: canonical types, packs grouped).
pub fn fn_instance(
    db: &dyn SourceDatabase,
    decl: FnDecl,
    outer: Option<InstId>,
    args: Vec<TemplateArg>,
) -> FnInstanceId {
    FnInstanceId::new(db, decl, outer, args)
}

pub fn var_instance(
    db: &dyn SourceDatabase,
    decl: VarDecl,
    outer: Option<InstId>,
    args: Vec<TemplateArg>,
) -> VarInstanceId {
    VarInstanceId::new(db, decl, outer, args)
}

impl FnDecl {
    pub fn item(self, db: &dyn SourceDatabase) -> ItemId {
        match self {
            FnDecl::Fn(f) => f.item(db),
            FnDecl::Template(t) => t.item(db),
        }
    }
    pub fn tu(self, db: &dyn SourceDatabase) -> TranslationUnit {
        self.item(db).tu(db)
    }
    /// The function as declared.
    pub fn data(self, db: &dyn SourceDatabase) -> Option<FnDataRef> {
        let tree = item_tree_of(db, self.item(db));
        let (template, idx) = match self {
            FnDecl::Fn(f) => (false, f.idx(db) as usize),
            FnDecl::Template(t) => (true, t.idx(db) as usize),
        };
        let exists = if template { idx < tree.fn_templates.len() } else { idx < tree.fns.len() };
        exists.then_some(FnDataRef { tree, template, idx })
    }
    /// Its own template parameters (empty for a function).
    pub fn tparams(self, db: &dyn SourceDatabase) -> Vec<TemplateParam> {
        match self {
            FnDecl::Fn(_) => Vec::new(),
            FnDecl::Template(t) => item_tree_of(db, t.item(db))
                .fn_templates
                .get(t.idx(db) as usize)
                .map(|d| d.tparams.clone())
                .unwrap_or_default(),
        }
    }
    fn key(self) -> DeclKey {
        match self {
            FnDecl::Fn(f) => DeclKey::Fn(f),
            FnDecl::Template(t) => DeclKey::FnTemplate(t),
        }
    }
    /// The scope the declaration appears in (for an out-of-line
    /// definition: where it is written, not the class it names).
    pub fn parent(self, db: &dyn SourceDatabase, map: &DefMap) -> ScopeIdx {
        let _ = db;
        map.parent.get(&self.key()).copied().unwrap_or(scopes::ROOT)
    }
}

/// A function's `FnData`, read in place in its item tree (`FnDecl::data`):
/// overload resolution looks at every candidate's declaration, and a copy
/// of its types each time was a measurable share of a large unit's run.
pub struct FnDataRef {
    tree: Arc<crate::item_tree::ItemTree>,
    /// Index into `fn_templates` (else into `fns`), checked on creation.
    template: bool,
    idx: usize,
}

impl std::ops::Deref for FnDataRef {
    type Target = FnData;
    fn deref(&self) -> &FnData {
        if self.template { &self.tree.fn_templates[self.idx].f } else { &self.tree.fns[self.idx] }
    }
}

impl std::fmt::Debug for FnDataRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        FnData::fmt(self, f)
    }
}

impl VarDecl {
    pub fn item(self, db: &dyn SourceDatabase) -> ItemId {
        match self {
            VarDecl::Var(v) => v.item(db),
            VarDecl::Template(t) => t.item(db),
        }
    }
    pub fn data(self, db: &dyn SourceDatabase) -> Option<VarData> {
        let tree = item_tree_of(db, self.item(db));
        match self {
            VarDecl::Var(v) => tree.vars.get(v.idx(db) as usize).cloned(),
            VarDecl::Template(t) => tree.var_templates.get(t.idx(db) as usize).map(|d| d.var.clone()),
        }
    }
    pub fn tparams(self, db: &dyn SourceDatabase) -> Vec<TemplateParam> {
        match self {
            VarDecl::Var(_) => Vec::new(),
            VarDecl::Template(t) => item_tree_of(db, t.item(db))
                .var_templates
                .get(t.idx(db) as usize)
                .map(|d| d.tparams.clone())
                .unwrap_or_default(),
        }
    }
    fn key(self) -> DeclKey {
        match self {
            VarDecl::Var(v) => DeclKey::Var(v),
            VarDecl::Template(t) => DeclKey::VarTemplate(t),
        }
    }
}

/// The scope a declaration's name belongs to: its parent, or the scope its
/// qualifier names (`void S::f()`, `template<class T> void S<T>::f()`).
pub fn decl_scope(
    db: &dyn SourceDatabase,
    map: &DefMap,
    item: ItemId,
    parent: ScopeIdx,
    qualifier: Option<&crate::item_tree::Path>,
) -> Option<ScopeIdx> {
    let Some(q) = qualifier else { return Some(parent) };
    if let Some(&s) = map.spec_qualifiers.get(&(parent, q.clone())) {
        return Some(s);
    }
    if q.segments.is_empty() {
        return Some(scopes::ROOT);
    }
    let _ = item;
    let mut cur: Option<ScopeIdx> = None;
    for (i, seg) in q.segments.iter().enumerate() {
        let path = crate::item_tree::Path {
            global: false,
            segments: vec![crate::item_tree::PathSegment { name: seg.name.clone(), args: None }],
        };
        let d = if i == 0 {
            if q.global {
                scopes::lookup_member(db, map, scopes::ROOT, &seg.name, scopes::Ns::Scope)
                    .or_else(|| scopes::lookup_member(db, map, scopes::ROOT, &seg.name, scopes::Ns::Type))
            } else {
                scopes::resolve_path(db, map, parent, &path, scopes::Ns::Scope)
                    .or_else(|| scopes::resolve_path(db, map, parent, &path, scopes::Ns::Type))
            }
        } else {
            let s = cur?;
            scopes::lookup_member(db, map, s, &seg.name, scopes::Ns::Scope)
                .or_else(|| scopes::lookup_member(db, map, s, &seg.name, scopes::Ns::Type))
        };
        cur = match d? {
            Def::ClassTemplate(c) => {
                let c = map.template_def.get(&c).copied().unwrap_or(c);
                map.class_scope.get(&c).copied()
            }
            d => scopes::scope_of(db, map, &d),
        };
    }
    cur
}

/// The scope a function's name belongs to (its class for a member).
pub fn fn_scope(db: &dyn SourceDatabase, decl: FnDecl) -> Option<ScopeIdx> {
    let map = def_map(db, decl.tu(db));
    let data = decl.data(db)?;
    decl_scope(db, &map, decl.item(db), decl.parent(db, &map), data.qualifier.as_ref())
}

crate::consteval::var_template::recorded_query! {
    /// The declaration that defines `decl` (has its body): itself when it
    /// does, else an out-of-line definition of the same name in the scope it
    /// belongs to, matched by parameter count (and written types when several
    /// match). `None`: the unit does not define it.
    pub fn fn_definition(decl: FnDecl) -> Option<FnDecl> = fn_definition_of;
    tracked fn_definition_uses;
}

fn fn_definition_of(db: &dyn SourceDatabase, decl: FnDecl) -> Option<FnDecl> {
    let data = decl.data(db)?;
    if data.linkage.is_definition {
        return Some(decl);
    }
    let map = def_map(db, decl.tu(db));
    let scope = decl_scope(db, &map, decl.item(db), decl.parent(db, &map), data.qualifier.as_ref())?;
    let key = scopes::fn_name_key(&data.name);
    // Out-of-line definitions (`void S::f() {}`), then redeclarations in
    // the scope itself (`template<class T> T f(T);` … `template<class T> T f(T) {…}`).
    let mut cands: Vec<FnDecl> = map.qualified_fns.get(&(scope, key.clone())).cloned().unwrap_or_default();
    let out_of_line = cands.len();
    for d in map.scope(scope).names.get(&key).into_iter().flatten() {
        if let Some(f) = def_fn(d)
            && !cands.contains(&f)
        {
            cands.push(f);
        }
    }
    let is_template = matches!(decl, FnDecl::Template(_));
    let head = decl.tparams(db);
    let mut best: Option<FnDecl> = None;
    let mut fits = 0;
    let mut best_out_of_line = false;
    for (i, c) in cands.into_iter().enumerate() {
        if matches!(c, FnDecl::Template(_)) != is_template || !redecl::same_head_kinds(&c.tparams(db), &head) {
            continue;
        }
        let Some(cd) = c.data(db) else { continue };
        if !cd.linkage.is_definition
            || cd.ty.params.len() != data.ty.params.len()
            || cd.ty.cv != data.ty.cv
            || cd.ty.ref_qual != data.ty.ref_qual
        {
            continue;
        }
        if cd.ty.params == data.ty.params || redecl::same_params_renamed(db, decl, c) {
            return Some(c);
        }
        fits += 1;
        if best.is_none() {
            best = Some(c);
            best_out_of_line = i < out_of_line;
        }
    }
    // Written otherwise (other parameter names): a redeclaration only when unambiguous.
    if fits == 1 || best_out_of_line { best } else { None }
}

/// The definition an instance of `inst.decl` walks: an explicit
/// specialization of the member for the instance's class (`template<> void
/// S<A>::f() {}`, [temp.expl.spec]) when the unit has one, else the
/// declaration's own definition ([`fn_definition`]).
pub fn inst_definition(db: &dyn SourceDatabase, inst: FnInstanceId) -> Option<FnDecl> {
    member_spec_of(db, inst).or_else(|| fn_definition(db, inst.decl(db)))
}

/// The explicit specialization of a non-template member for the class
/// instance `inst` is a member of: its qualifier, lowered where it is
/// written, selects that instance, and its parameters are the declaration's.
fn member_spec_of(db: &dyn SourceDatabase, inst: FnInstanceId) -> Option<FnDecl> {
    let outer = inst.outer(db)?;
    let decl = inst.decl(db);
    if !matches!(decl, FnDecl::Fn(_)) || !inst.args(db).is_empty() {
        return None;
    }
    let data = decl.data(db)?;
    let map = def_map(db, decl.tu(db));
    let scope = fn_scope(db, decl)?;
    let cands = map.member_specs.get(&(scope, scopes::fn_name_key(&data.name)))?;
    cands.iter().copied().find(|&c| {
        let Some(cd) = c.data(db) else { return false };
        let Some(q) = cd.qualifier.as_ref() else { return false };
        if !cd.linkage.is_definition
            || cd.ty.params.len() != data.ty.params.len()
            || cd.ty.cv != data.ty.cv
            || cd.ty.ref_qual != data.ty.ref_qual
        {
            return false;
        }
        let cx = LowerCx { db, map: &map, item: c.item(db), scope: c.parent(db, &map), env: None };
        let t = ty::canonical(db, ty::lower(cx, &TypeRef::Path(q.clone())));
        matches!(templates::class_of(db, t), Ok(ClassRefT::Inst(i)) if i == outer)
    })
}

/// The substitution in effect inside an instance: the outer
/// specialization's, plus the function's own parameters bound to `args`,
/// plus (for an out-of-line definition) the names its template heads give
/// the outer parameters.
pub fn instance_env(db: &dyn SourceDatabase, inst: FnInstanceId) -> Result<Env, crate::SemaError> {
    let decl = inst.decl(db);
    let mut env = match inst.outer(db) {
        Some(o) => templates::inst_env(db, o)?,
        None => Env::default(),
    };
    if let Some(def) = inst_definition(db, inst)
        && def != decl
        && let Some(d) = def.data(db)
    {
        let names: Vec<Option<String>> = d.outer_tparams.iter().flatten().map(|p| p.name.clone()).collect();
        for (n, a) in names.into_iter().zip(env.args.clone()) {
            if let Some(n) = n {
                env.names.push((n, a));
            }
        }
    }
    bind_own(&mut env, &decl.tparams(db), inst.args(db))?;
    // A definition apart from the declaration may name its own parameters
    // differently: its body reads its names.
    if let Some(def) = inst_definition(db, inst).filter(|d| *d != decl) {
        let _ = bind_own(&mut env, &def.tparams(db), inst.args(db));
    }
    Ok(env)
}

/// The environment of a variable instance.
pub fn var_instance_env(db: &dyn SourceDatabase, inst: VarInstanceId) -> Result<Env, crate::SemaError> {
    let mut env = match inst.outer(db) {
        Some(o) => templates::inst_env(db, o)?,
        None => Env::default(),
    };
    bind_own(&mut env, &inst.decl(db).tparams(db), inst.args(db))?;
    Ok(env)
}

fn bind_own(env: &mut Env, params: &[TemplateParam], args: &[TemplateArg]) -> Result<(), crate::SemaError> {
    if args.len() > params.len() {
        return Err("too many template arguments".into());
    }
    for (p, a) in params.iter().zip(args) {
        if let Some(n) = &p.name {
            env.names.push((n.clone(), a.clone()));
        }
    }
    if args.len() < params.len() {
        return Err(crate::error::gap!("too few template arguments ({} of {})", args.len(), params.len()));
    }
    Ok(())
}

/// Where the types of a function's declaration are read: its item, and the
/// scope its name belongs to (a class's for members, so that member types
/// are found).
fn fn_lower_scope(
    db: &dyn SourceDatabase,
    map: &DefMap,
    decl: FnDecl,
    data: &FnData,
) -> Result<ScopeIdx, crate::SemaError> {
    decl_scope(db, map, decl.item(db), decl.parent(db, map), data.qualifier.as_ref())
        .ok_or_else(|| crate::SemaError::gap("unresolved qualifier"))
}

/// A signature that needs itself (`decltype` of a call of the function in
/// its own return type).
fn signature_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _inst: FnInstanceId) -> Result<FnSig, crate::SemaError> {
    Err("signature refers to itself".into())
}

crate::consteval::var_template::recorded_query! {
    /// The parameter and return types of an instance after substitution
    /// (parameters as declared: not adjusted; pack expansions expanded).
    pub fn signature(inst: FnInstanceId) -> Result<FnSig, crate::SemaError> = signature_under_way_of;
    tracked signature_uses;
    cycle signature_uses_cycle => signature_cycle;
}

/// [`signature_of`] with `inst` on the stack of signatures under way.
fn signature_under_way_of(db: &dyn SourceDatabase, inst: FnInstanceId) -> Result<FnSig, crate::SemaError> {
    crate::guard::with_pushed(&SIGNATURES_UNDER_WAY, inst, || signature_of(db, inst))
}

thread_local! {
    /// The instances whose signatures are being substituted on this
    /// thread, innermost last (see [`signature_under_way`]).
    static SIGNATURES_UNDER_WAY: std::cell::RefCell<Vec<FnInstanceId>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether the signature of some instance of `decl` is being substituted
/// further up this thread's stack (a cheap test before deducing one).
pub(crate) fn decl_signature_under_way(db: &dyn SourceDatabase, decl: FnDecl) -> bool {
    SIGNATURES_UNDER_WAY.with(|s| s.borrow().iter().any(|i| i.decl(db) == decl))
}

/// Whether `inst`'s signature is being substituted further up this
/// thread's stack: a question asked from inside that substitution (does
/// the argument convert, through this very constructor template?) meets
/// the class template specializations it is instantiating while they are
/// still incomplete, which in a SFINAE context removes the candidate
/// ([temp.deduct.general]/8). Asking `signature` again would instead
/// close a query cycle whose fallback poisons every query on it.
pub(crate) fn signature_under_way(inst: FnInstanceId) -> bool {
    SIGNATURES_UNDER_WAY.with(|s| s.borrow().contains(&inst))
}

fn signature_of(db: &dyn SourceDatabase, inst: FnInstanceId) -> Result<FnSig, crate::SemaError> {
    let decl = inst.decl(db);
    let data = decl.data(db).ok_or("no such function")?;
    let map = def_map(db, decl.tu(db));
    let scope = fn_lower_scope(db, &map, decl, &data)?;
    let env = instance_env(db, inst)?;
    templates::nested(|| {
        let cx = LowerCx { db, map: &map, item: decl.item(db), scope, env: Some(&env) };
        let ret = match data.name {
            FnName::Ctor | FnName::Dtor => ty::mk(db, TyKind::Builtin(crate::item_tree::Builtin::Void)),
            FnName::Conversion(ref t) => ty::lower(cx, t),
            _ => ty::lower(cx, &data.ty.ret),
        };
        let mut params = Vec::new();
        for (i, p) in data.ty.params.iter().enumerate() {
            if data.pack_params.contains(&(i as u32)) {
                params.extend(expand_param(cx, &env, p)?);
            } else {
                params.push(ty::lower(cx, p));
            }
        }
        Ok(FnSig {
            ret,
            params,
            variadic: data.ty.variadic,
            noexcept: data.ty.noexcept,
            cv: data.ty.cv,
            ref_qual: data.ty.ref_qual,
        })
    })
}

/// An instance's parameter types as EDG keeps them: alias template
/// specializations written in the declaration stay as sugar
/// (`TyKind::AliasSpec`, under pointers, references and cv), where
/// [`signature`] has the types they denote. cicc's stub spells a kernel
/// instance's parameters so (`_ZN4meta11scalar_of_tI6float4EE *` for
/// `meta::scalar_of_t<T> *`). Each type is canonically the signature's;
/// pack expansions are the signature's.
pub fn declared_params(db: &dyn SourceDatabase, inst: FnInstanceId) -> Result<Vec<TyId>, crate::SemaError> {
    let sig = signature(db, inst)?;
    let decl = inst.decl(db);
    let data = decl.data(db).ok_or("no such function")?;
    if !data.pack_params.is_empty() || data.ty.params.len() != sig.params.len() {
        return Ok(sig.params);
    }
    let map = def_map(db, decl.tu(db));
    let scope = fn_lower_scope(db, &map, decl, &data)?;
    let env = instance_env(db, inst)?;
    let cx = LowerCx { db, map: &map, item: decl.item(db), scope, env: Some(&env) };
    let params = templates::nested(|| Ok(data.ty.params.iter().map(|p| sugared(cx, p)).collect::<Vec<_>>()))?;
    Ok(params
        .into_iter()
        .zip(sig.params)
        .map(|(sugared, plain)| if ty::canonical(db, sugared) == ty::canonical(db, plain) { sugared } else { plain })
        .collect())
}

/// `t` lowered with the alias template specializations it is written with
/// kept as sugar (see [`declared_params`]).
fn sugared(cx: LowerCx<'_>, t: &TypeRef) -> TyId {
    let db = cx.db;
    match t {
        TypeRef::Ptr(x) => ty::mk(db, TyKind::Ptr(sugared(cx, x))),
        TypeRef::LRef(x) => ty::mk(db, TyKind::LRef(sugared(cx, x))),
        TypeRef::RRef(x) => ty::mk(db, TyKind::RRef(sugared(cx, x))),
        TypeRef::Cv(x, cv) => ty::mk(db, TyKind::Qualified(sugared(cx, x), *cv)),
        TypeRef::Path(p) => {
            let ty = ty::lower(cx, t);
            match alias_spec(cx, p) {
                Some((alias, args)) if !matches!(ty.kind(db), TyKind::Error(_) | TyKind::Dependent(_)) => {
                    ty::mk(db, TyKind::AliasSpec { alias, args, ty })
                }
                _ => ty,
            }
        }
        _ => ty::lower(cx, t),
    }
}

/// The alias template of a namespace and its arguments, when `p` names a
/// specialization of one (`meta::scalar_of_t<T>`, arguments substituted).
fn alias_spec(cx: LowerCx<'_>, p: &crate::item_tree::Path) -> Option<(crate::TypedefId, Vec<TemplateArg>)> {
    let (last, front) = p.segments.split_last()?;
    let written = last.args.as_ref()?;
    if front.iter().any(|s| s.args.is_some()) {
        return None;
    }
    let mut bare = p.clone();
    bare.segments.last_mut()?.args = None;
    let Some(crate::scopes::Def::AliasTemplate(alias)) =
        crate::scopes::resolve_path(cx.db, cx.map, cx.scope, &bare, crate::scopes::Ns::Type)
    else {
        return None;
    };
    let args = templates::alias::bind_args(cx, alias, written).ok()?;
    let concrete = args.iter().all(|a| match a {
        TemplateArg::Type(t) => !matches!(t.kind(cx.db), TyKind::Error(_) | TyKind::Dependent(_)),
        TemplateArg::Dependent(_) | TemplateArg::ValueParam { .. } => false,
        _ => true,
    });
    concrete.then_some((alias, args))
}

/// The parameter types of a function type as written, pack expansions
/// (`Args...`) expanded over the packs of the environment (kept as one
/// parameter when it binds none).
pub(crate) fn lower_fn_type_params(cx: LowerCx<'_>, f: &crate::item_tree::FnRef) -> Vec<TyId> {
    let mut out = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        match cx.env {
            Some(env) if f.pack_params.contains(&(i as u32)) => match expand_param(cx, env, p) {
                Ok(v) => out.extend(v),
                Err(_) => out.push(ty::lower(cx, p)),
            },
            _ => out.push(ty::lower(cx, p)),
        }
    }
    out
}

/// A parameter `P...` expanded: one type per element of the packs it names.
pub(crate) fn expand_param(cx: LowerCx<'_>, env: &Env, p: &TypeRef) -> Result<Vec<TyId>, crate::SemaError> {
    let mut names = Vec::new();
    typeref_names(p, &mut names);
    let packs: Vec<(String, Vec<TemplateArg>)> = names
        .into_iter()
        .filter_map(|n| match env.get(&n) {
            Some(TemplateArg::Pack(v)) => Some((n, v.clone())),
            _ => None,
        })
        .collect();
    let Some(len) = packs.first().map(|(_, v)| v.len()) else {
        return Err("a pack expansion names no pack".into());
    };
    if packs.iter().any(|(_, v)| v.len() != len) {
        return Err("packs of different lengths".into());
    }
    let mut out = Vec::new();
    for i in 0..len {
        let mut e = env.clone();
        for (n, v) in &packs {
            e.names.push((n.clone(), v[i].clone()));
        }
        out.push(ty::lower(LowerCx { env: Some(&e), ..cx }, p));
    }
    Ok(out)
}

/// The first segment names of the paths a written type mentions.
pub(crate) fn typeref_names(t: &TypeRef, out: &mut Vec<String>) {
    match t {
        TypeRef::Path(p) => path_names(p, out),
        TypeRef::Ptr(x)
        | TypeRef::LRef(x)
        | TypeRef::RRef(x)
        | TypeRef::Cv(x, _)
        | TypeRef::Complex(x)
        | TypeRef::Array(x, _) => typeref_names(x, out),
        TypeRef::MemPtr(p, x) => {
            path_names(p, out);
            typeref_names(x, out);
        }
        TypeRef::Func(f) => {
            typeref_names(&f.ret, out);
            for p in &f.params {
                typeref_names(p, out);
            }
        }
        _ => {}
    }
}

fn path_names(p: &crate::item_tree::Path, out: &mut Vec<String>) {
    if let Some(s) = p.segments.first()
        && !p.global
        && !out.contains(&s.name)
    {
        out.push(s.name.clone());
    }
    for s in &p.segments {
        for a in s.args.iter().flatten() {
            match a {
                crate::item_tree::TemplateArgRef::Type(t) => typeref_names(t, out),
                crate::item_tree::TemplateArgRef::Expansion(x) => {
                    if let crate::item_tree::TemplateArgRef::Type(t) = &**x {
                        typeref_names(t, out)
                    }
                }
                // `integral_constant<size_t, __indices>()...`: a value
                // argument names the pack it expands.
                crate::item_tree::TemplateArgRef::Expr(e) => const_expr_names(e, out, 0),
            }
        }
    }
}

/// Names a value expression of a template argument mentions (the first
/// segment of each path, and the names in its template arguments).
pub(crate) fn const_expr_names(e: &crate::item_tree::ConstExpr, out: &mut Vec<String>, depth: u32) {
    // Paths only: the types of casts, `sizeof` and traits are not read.
    e.for_each_part(depth, 32, &mut |part, _| {
        if let crate::item_tree::ConstPart::Path(p) = part {
            path_names(p, out);
        }
    });
}

/// The type of a variable instance.
pub fn var_type(db: &dyn SourceDatabase, inst: VarInstanceId) -> Result<TyId, crate::SemaError> {
    let decl = inst.decl(db);
    let data = decl.data(db).ok_or("no such variable")?;
    let map = def_map(db, decl.item(db).tu(db));
    let parent = map.parent.get(&decl.key()).copied().unwrap_or(scopes::ROOT);
    let scope = decl_scope(db, &map, decl.item(db), parent, data.qualifier.as_ref()).ok_or("unresolved qualifier")?;
    let env = var_instance_env(db, inst)?;
    let cx = LowerCx { db, map: &map, item: decl.item(db), scope, env: Some(&env) };
    if let Some(t) = auto_var::deduced_auto_type(db, cx, &data) {
        return Ok(t);
    }
    Ok(ty::lower(cx, &data.ty))
}

/// The functions named `name` that are members of a class or a class
/// template specialization (its own, else its bases', instantiated), each
/// with the specialization it is a member of.
pub fn member_fns(db: &dyn SourceDatabase, c: ClassRefT, name: &str) -> Vec<(FnDecl, Option<InstId>)> {
    member_fns_depth(db, c, name, 0)
}

/// `member_fns` with the class whose scope the lookup found them in (its
/// own declarations and using-declarations): the class of their implicit
/// object parameter ([over.match.funcs]/4).
pub(crate) fn member_fns_found(
    db: &dyn SourceDatabase,
    c: ClassRefT,
    name: &str,
) -> Option<(ClassRefT, Vec<(FnDecl, Option<InstId>)>)> {
    found_member_fns(db, c, name, 0)
}

fn member_fns_depth(db: &dyn SourceDatabase, c: ClassRefT, name: &str, depth: u32) -> Vec<(FnDecl, Option<InstId>)> {
    found_member_fns(db, c, name, depth).map(|(_, v)| v).unwrap_or_default()
}

fn found_member_fns(
    db: &dyn SourceDatabase,
    c: ClassRefT,
    name: &str,
    depth: u32,
) -> Option<(ClassRefT, Vec<(FnDecl, Option<InstId>)>)> {
    if depth > 32 {
        return None;
    }
    let (class, outer) = match c {
        ClassRefT::Class(k) => (k, None),
        ClassRefT::Inst(i) => (i.class(db), Some(i)),
    };
    let map = def_map(db, class.tu(db));
    let class = map.class_definition(class);
    let &s = map.class_scope.get(&class)?;
    let mut own: Vec<(FnDecl, Option<InstId>)> =
        scopes::own_fns(db, &map, s, name).into_iter().map(|f| (f, outer)).collect();
    using_declared_fns(db, &map, c, s, name, depth, &mut own);
    // Constructors, destructors and assignments are not found in bases: a
    // class without declared ones has implicit ones (`implicit_special`,
    // `implicit_assign`) that hide the bases' ([class.copy.assign]/8).
    if !own.is_empty() || name == scopes::CTOR_KEY || name == scopes::DTOR_KEY || name == "operator=" {
        return Some((c, own));
    }
    for b in templates::class_bases_of(db, c).iter() {
        if let Some(bc) = b.class
            && let Some(r) = found_member_fns(db, bc, name, depth + 1).filter(|r| !r.1.is_empty())
        {
            return Some(r);
        }
    }
    None
}

/// `using Base<T>::f;` in class `c` (scope `s`): the base's functions `f`
/// as members of the base specialization the derived class names (what
/// `own_fns` found through the pattern's scope is replaced).
fn using_declared_fns(
    db: &dyn SourceDatabase,
    map: &DefMap,
    c: ClassRefT,
    s: ScopeIdx,
    name: &str,
    depth: u32,
    own: &mut Vec<(FnDecl, Option<InstId>)>,
) {
    let usings: Vec<Path> = map
        .scope(s)
        .names
        .get(name)
        .into_iter()
        .flatten()
        .filter_map(|d| match d {
            Def::UsingDecl(_, p) => Some(p.clone()),
            _ => None,
        })
        .collect();
    if usings.is_empty() {
        return;
    }
    let env = match c {
        ClassRefT::Inst(i) => templates::inst_env(db, i).ok(),
        ClassRefT::Class(_) => None,
    };
    let item = match c {
        ClassRefT::Class(k) => k.item(db),
        ClassRefT::Inst(i) => i.class(db).item(db),
    };
    for mut q in usings {
        q.segments.pop();
        if q.segments.is_empty() {
            continue;
        }
        let base_name = q.last().map(str::to_string);
        let cx = LowerCx { db, map, item, scope: s, env: env.as_ref() };
        let written = TemplateArgRef::Type(TypeRef::Path(q));
        // A qualifier naming packs of the instance is a pack expansion
        // (`using _Build_FUN<_Ind, _Tp, _Ti>::_S_fun...;`): one base per element.
        let mut packs = Vec::new();
        if let Some(e) = &env {
            templates::packs_in(e, &written, &mut packs);
        }
        let bases: Vec<ClassRefT> = if packs.is_empty() {
            let TemplateArgRef::Type(q) = &written else { continue };
            let t = ty::canonical(db, ty::lower(cx, q));
            // The base's injected-class-name (`using _RangeAdaptor<_Filter>::operator();`
            // where `_RangeAdaptor` is only visible as the base's own name).
            match templates::class_of(db, t).ok().or_else(|| base_named(db, c, base_name.as_deref())) {
                Some(b) => vec![b],
                None => continue,
            }
        } else {
            let Ok(v) = templates::expand(cx, &written) else { continue };
            v.into_iter()
                .filter_map(|a| match a {
                    TemplateArg::Type(t) => templates::class_of(db, ty::canonical(db, t)).ok(),
                    _ => None,
                })
                .collect()
        };
        let mut from = Vec::new();
        for base in bases {
            for f in member_fns_depth(db, base, name, depth + 1) {
                if !from.contains(&f) {
                    from.push(f);
                }
            }
        }
        own.retain(|(f, _)| !from.iter().any(|(g, _)| g == f));
        own.extend(from);
    }
}

/// The base of `c` whose class is named `name`: a using-declaration names
/// a base by its injected-class-name, visible only from inside it
/// (`using _RangeAdaptor<_Filter>::operator();`, `using _Base::_Base;`).
pub(crate) fn base_named(db: &dyn SourceDatabase, c: ClassRefT, name: Option<&str>) -> Option<ClassRefT> {
    templates::class_bases_of(db, c).iter().filter_map(|b| b.class).find(|b| {
        let k = match b {
            ClassRefT::Class(k) => *k,
            ClassRefT::Inst(i) => i.class(db),
        };
        item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize).and_then(|d| d.name.as_deref()) == name
    })
}

/// The nearest scope around `s` (itself included) that is not a class: where
/// a hidden friend of a class in `s` is a member.
pub fn enclosing_namespace(map: &DefMap, s: ScopeIdx) -> ScopeIdx {
    let mut cur = s;
    for _ in 0..64 {
        match (&map.scope(cur).kind, map.scope(cur).parent) {
            (ScopeKind::Class(_), Some(p)) => cur = p,
            _ => break,
        }
    }
    cur
}

/// Whether a scope is a class scope.
pub fn is_class_scope(map: &DefMap, s: ScopeIdx) -> bool {
    matches!(map.scope(s).kind, ScopeKind::Class(_))
}

/// The largest number of entities the closure collects (a guard against
/// runaway instantiation; spec 50 §4.3's depth limit bounds each chain).
pub const MAX_ENTITIES: usize = 200_000;

/// The roots of the closure: every function and variable the unit
/// declares outside templates (they have linkage names whether or not
/// emitted: `nm` lists undefined references too), in source order.
pub fn roots(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<Entity> {
    def_map(db, tu).entities.clone()
}

/// The body g++ would emit for an entity, as what `infer` runs on: a
/// function defined in the unit (through its definition when `e` is a
/// declaration) or an instance. `None`: no body to walk.
pub fn body_owner(db: &dyn SourceDatabase, e: Entity) -> Option<InferOwner> {
    match e {
        Entity::Fn(f) => match fn_definition(db, FnDecl::Fn(f))? {
            FnDecl::Fn(d) => Some(InferOwner::Fn(d)),
            FnDecl::Template(_) => None,
        },
        Entity::FnInst(i) => {
            inst_definition(db, i)?;
            Some(InferOwner::Inst(i))
        }
        Entity::Closure(f) if f.kind(db) == crate::infer::ClosureFnKind::Call => Some(InferOwner::Closure(f)),
        Entity::Var(_) | Entity::VarInst(_) => crate::infer::var_init::var_init_owner(db, e),
        Entity::Special(_)
        | Entity::Closure(_)
        | Entity::LocalStatic(_)
        | Entity::Stub(_)
        | Entity::Inherited(_)
        | Entity::Intrinsic(_) => None,
    }
}

/// The class whose constructor `e` is.
pub fn ctor_class(db: &dyn SourceDatabase, e: Entity) -> Option<ClassRefT> {
    let (decl, outer) = match e {
        Entity::Fn(f) => (FnDecl::Fn(f), None),
        Entity::FnInst(i) => (i.decl(db), i.outer(db)),
        _ => return None,
    };
    if !matches!(decl.data(db)?.name, FnName::Ctor) {
        return None;
    }
    if let Some(o) = outer {
        return Some(ClassRefT::Inst(o));
    }
    let map = def_map(db, decl.tu(db));
    match map.scope(fn_scope(db, decl)?).kind {
        ScopeKind::Class(k) => Some(ClassRefT::Class(map.class_definition(k))),
        _ => None,
    }
}

/// Every entity the unit names: its own functions and variables (the
/// roots), then the instances and inline functions the bodies g++ emits
/// require, transitively (first-use order, no duplicates). A body is
/// walked once (`infer` on its definition); chains deeper than the
/// instantiation depth limit (spec 50 §4.3) and lists longer than
/// `MAX_ENTITIES` are cut.
#[salsa::tracked(returns(clone))]
pub fn required_entities(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<Entity>> {
    // What it evaluates is no caller's (`consteval::var_template`).
    crate::consteval::var_template::isolated(|| required_entities_of(db, tu))
}

fn required_entities_of(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<Entity>> {
    let mut seen: FxHashSet<Entity> = FxHashSet::default();
    let mut walked: FxHashSet<InferOwner> = FxHashSet::default();
    let mut out = Vec::new();
    let mut queue: std::collections::VecDeque<(Entity, u32)> = std::collections::VecDeque::new();
    for e in roots(db, tu) {
        if seen.insert(e) {
            out.push(e);
        }
        // What g++ emits unasked: functions defined in the unit that are
        // neither inline nor templated (inline ones only when used).
        // A variable defined in the unit is initialized (and destroyed)
        // whether used or not (an inline one too: g++ emits it with its
        // guard).
        if matches!(e, Entity::Var(_)) && crate::infer::var_init::var_init_owner(db, e).is_some() {
            queue.push_back((e, 0));
        }
        if let Entity::Fn(f) = e {
            let tree = item_tree_of(db, f.item(db));
            if let Some(d) = tree.fns.get(f.idx(db) as usize) {
                let inline = d.linkage.is_inline || d.linkage.is_constexpr || (d.in_class && d.qualifier.is_none());
                if d.linkage.is_definition && !inline {
                    queue.push_back((e, 0));
                }
            }
        }
    }
    // An explicit instantiation definition emits its specialization.
    for &(_, _, i) in crate::infer::explicit_instances(db, tu).iter() {
        let e = Entity::FnInst(i);
        if seen.insert(e) {
            out.push(e);
        }
        queue.push_back((e, 0));
    }
    // An entity is expanded once, at its least depth (the queue is breadth
    // first). Without this, an implicit constructor that requires itself
    // (a class with members of its own type whose default initializers are
    // braced lists, as error recovery leaves them) was queued again per
    // occurrence, doubling the queue per level up to the depth limit.
    let mut expanded: FxHashSet<Entity> = FxHashSet::default();
    while let Some((e, depth)) = queue.pop_front() {
        if out.len() >= MAX_ENTITIES {
            break;
        }
        if !expanded.insert(e) {
            continue;
        }
        if let Entity::Special(sp) = e {
            let mut required = special_required(db, sp);
            // A constructor emits the vtable (assignments and destructors do not).
            if matches!(sp.kind(db), SpecialKind::DefaultCtor | SpecialKind::CopyCtor | SpecialKind::MoveCtor) {
                required.extend(vtable_entities(db, sp.class(db)));
            }
            for x in required {
                if seen.insert(x) {
                    out.push(x);
                }
                if depth + 1 < templates::MAX_DEPTH {
                    queue.push_back((x, depth + 1));
                }
            }
            continue;
        }
        // An inheriting constructor calls the base constructor it inherits.
        if let Entity::Inherited(ic) = e {
            let x = inherited::forwarded(db, ic);
            if seen.insert(x) {
                out.push(x);
            }
            if depth + 1 < templates::MAX_DEPTH {
                queue.push_back((x, depth + 1));
            }
            continue;
        }
        // A kernel's host body is its stub's call (cudafe++ puts the
        // device body in `#if 0`): what the stubs require, not the body's.
        if stub::kernel_decl(db, e).is_some() {
            for x in stub::kernel_stub_entities(db, e) {
                if seen.insert(x) {
                    out.push(x);
                }
            }
            continue;
        }
        // A variable's initialization: what its initializer (and the
        // destructor registered at exit) requires.
        if let Some(owner) = crate::infer::var_init::var_init_owner(db, e) {
            if !walked.insert(owner) {
                continue;
            }
            for x in crate::infer::var_init::var_init_required(db, owner) {
                if seen.insert(x) {
                    out.push(x);
                }
                if depth + 1 < templates::MAX_DEPTH
                    && matches!(
                        x,
                        Entity::Fn(_)
                            | Entity::FnInst(_)
                            | Entity::Special(_)
                            | Entity::Closure(_)
                            | Entity::Inherited(_)
                            | Entity::VarInst(_)
                    )
                {
                    queue.push_back((x, depth + 1));
                }
            }
            continue;
        }
        // Checking its constraints instantiated variable templates that
        // g++ emits unasked (`infer/constraint_vars.rs`).
        if let Entity::FnInst(i) = e {
            let of_class = i.outer(db).map(|o| crate::infer::completion_var_uses(db, o)).unwrap_or_default();
            for x in crate::infer::constraint_var_uses(db, i).into_iter().chain(of_class) {
                if seen.insert(x) {
                    out.push(x);
                }
            }
        }
        let Some(owner) = body_owner(db, e) else { continue };
        if !walked.insert(owner) {
            continue;
        }
        let r = infer(db, owner);
        // A constructor emits its class's vtable, which refers to the
        // class's virtual functions.
        let mut required = r.required.clone();
        required.extend(r.instantiated_vars.iter().copied());
        if let Some(c) = ctor_class(db, e) {
            required.extend(vtable_entities(db, c));
        }
        for &x in &required {
            if seen.insert(x) {
                out.push(x);
            }
            if depth + 1 < templates::MAX_DEPTH
                && matches!(
                    x,
                    Entity::Fn(_)
                        | Entity::FnInst(_)
                        | Entity::Special(_)
                        | Entity::Closure(_)
                        | Entity::Inherited(_)
                        | Entity::VarInst(_)
                )
            {
                queue.push_back((x, depth + 1));
            }
        }
    }
    Arc::new(out)
}

/// Whether a `Def` is a function or a function template.
pub fn def_fn(d: &Def) -> Option<FnDecl> {
    match d {
        Def::Fn(f) => Some(FnDecl::Fn(*f)),
        Def::FnTemplate(t) => Some(FnDecl::Template(*t)),
        _ => None,
    }
}

#[allow(dead_code)]
fn kind_of(p: &TemplateParam) -> &TemplateParamKind {
    &p.kind
}
