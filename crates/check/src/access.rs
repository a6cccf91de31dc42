//! `%nd is inaccessible` (EDG 265), an error: a function at namespace
//! scope names a private or protected member of a class, `c.secret` or
//! `c.m()` (caret at the member's name); `%nfd is inaccessible` (330): a
//! variable of such a function or of a namespace is constructed by a
//! private or protected constructor (`C c;` at the name, `C c(1, 2);` at
//! the first argument). Checked against the real front end.
//!
//! Certainty: the function is no member and no friend of anything (its
//! scope is a namespace), the object's class is complete, no template,
//! declares no friend, and declares the member itself (a data member, or
//! the only function of that name; members of bases are left alone: a
//! using-declaration can change their access).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Entity, EntityKind, Severity};
use cufront_hir::body::{Body, Expr, ExprId, Init};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner, InferenceResult};
use cufront_hir::instances::{self, FnDecl, VarDecl};
use cufront_hir::item_tree::{Access, FnName};
use cufront_hir::scopes::{DeclKey, Def, ScopeKind, def_map};
use cufront_hir::ty::{TyKind, canonical};
use cufront_hir::{ClassId, Entity as HirEntity, FnId, VarId, item_offsets, item_tree_of};

use crate::spell;
use cufront_hir::infer::strip_cv;

const INACCESSIBLE: DiagId = DiagId(265);
const INACCESSIBLE_SPECIAL: DiagId = DiagId(330);

/// A use of a member the function has no access to: where (relative to the
/// function's item), and the member (its class, and the field or function).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inaccessible {
    pub at: u32,
    pub class: ClassId,
    pub member: Member,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Member {
    Field(u32),
    Fn(FnId),
    Ctor(FnId),
}

/// The inaccessible member uses of one body.
#[salsa::tracked(returns(clone))]
pub fn fn_inaccessible(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Inaccessible>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    if !body.exprs.iter().any(|e| matches!(e, Expr::Member { .. })) && body.locals.is_empty() {
        return Arc::default();
    }
    let Some(data) = decl.data(db) else { return Arc::default() };
    let Some(scope) = instances::fn_scope(db, decl) else { return Arc::default() };
    let map = def_map(db, decl.tu(db));
    if data.friend || !matches!(map.scope(scope).kind, ScopeKind::Namespace { .. } | ScopeKind::Root) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let mut out = constructions(db, &body, &r, None);
    for (i, e) in body.exprs.iter().enumerate() {
        let Expr::Member { base, arrow, name } = e else { continue };
        let [seg] = name.segments.as_slice() else { continue };
        if name.global || seg.args.is_some() {
            continue;
        }
        let Some(t) = r.ty(*base) else { continue };
        let mut object = strip_cv(db, canonical(db, t));
        if *arrow {
            let TyKind::Ptr(p) = object.kind(db) else { continue };
            object = strip_cv(db, canonical(db, *p));
        }
        let TyKind::Class(k) = object.kind(db) else { continue };
        let k = map.class_definition(*k);
        let Some(member) = non_public_member(db, k, &seg.name) else { continue };
        let end = u32::from(body.expr_ranges[ExprId(i as u32).0 as usize].end());
        let Some(at) = end.checked_sub(seg.name.len() as u32) else { continue };
        out.push(Inaccessible { at, class: k, member });
    }
    Arc::new(out)
}

/// The same for the initialization of a variable at namespace scope.
#[salsa::tracked(returns(clone))]
pub fn var_inaccessible(db: &dyn SourceDatabase, v: VarId) -> Arc<Vec<Inaccessible>> {
    let tree = item_tree_of(db, v.item(db));
    let Some(data) = tree.vars.get(v.idx(db) as usize) else { return Arc::default() };
    if !data.linkage.is_definition || data.qualifier.is_some() || !data.outer_tparams.is_empty() {
        return Arc::default();
    }
    let map = def_map(db, v.item(db).tu(db));
    let Some(&scope) = map.parent.get(&DeclKey::Var(v)) else { return Arc::default() };
    if !matches!(map.scope(scope).kind, ScopeKind::Namespace { .. } | ScopeKind::Root) {
        return Arc::default();
    }
    let body = infer::var_init::var_init_body(db, VarDecl::Var(v));
    let r = infer::infer(db, InferOwner::Var(v));
    if r.skipped.is_some() {
        return Arc::default();
    }
    // The variable's local is unnamed: the caret goes to its declarator.
    let name_at = item_offsets(db, v.item(db)).vars.get(v.idx(db) as usize).copied();
    Arc::new(constructions(db, &body, &r, name_at))
}

/// The locals of `body` constructed by a constructor that is not public.
fn constructions(db: &dyn SourceDatabase, body: &Body, r: &InferenceResult, name_at: Option<u32>) -> Vec<Inaccessible> {
    let mut out = Vec::new();
    for (site, callee) in &r.calls {
        let (CallSite::Local(l), Callee::Entity(HirEntity::Fn(ctor))) = (site, callee) else { continue };
        let Some(data) = FnDecl::Fn(*ctor).data(db) else { continue };
        if !matches!(data.name, FnName::Ctor) || data.access == Access::Public {
            continue;
        }
        let Some(k) = class_of(db, *ctor) else { continue };
        let Some(cd) = item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize).cloned() else { continue };
        if cd.has_friends || cd.tparams.is_some() || cd.spec_args.is_some() {
            continue;
        }
        let at = match &body.local(*l).init {
            Init::None => {
                body.local_names.get(l.0 as usize).copied().flatten().map(|r| u32::from(r.start())).or(name_at)
            }
            Init::Paren(args) => args.first().map(|a| u32::from(body.expr_ranges[a.0 as usize].start())),
            _ => None,
        };
        if let Some(at) = at {
            out.push(Inaccessible { at, class: k, member: Member::Ctor(*ctor) });
        }
    }
    out
}

/// The class a member function belongs to.
fn class_of(db: &dyn SourceDatabase, f: FnId) -> Option<ClassId> {
    let decl = FnDecl::Fn(f);
    let map = def_map(db, decl.tu(db));
    match map.scope(instances::fn_scope(db, decl)?).kind {
        ScopeKind::Class(k) => Some(map.class_definition(k)),
        _ => None,
    }
}

/// The member `name` that class `k` itself declares, when it is not public
/// and the class is one whose access this check decides.
fn non_public_member(db: &dyn SourceDatabase, k: ClassId, name: &str) -> Option<Member> {
    let tree = item_tree_of(db, k.item(db));
    let data = tree.classes.get(k.idx(db) as usize)?;
    if !data.is_definition || data.has_friends || data.tparams.is_some() || data.spec_args.is_some() {
        return None;
    }
    if let Some(i) = data.fields.iter().position(|f| f.name.as_deref() == Some(name)) {
        return (data.fields[i].access != Access::Public).then_some(Member::Field(i as u32));
    }
    let map = def_map(db, k.tu(db));
    let scope = *map.class_scope.get(&k)?;
    let [Def::Fn(f)] = map.scope(scope).names.get(name)?.as_slice() else { return None };
    let fd = FnDecl::Fn(*f).data(db)?;
    (fd.access != Access::Public && !fd.friend).then_some(Member::Fn(*f))
}

/// The finding for `u`, found in the item at `start`: the member named
/// as EDG names it, with where it is declared.
pub(crate) fn finding(
    db: &dyn SourceDatabase,
    tu: cufront_base_db::TranslationUnit,
    starts: &rustc_hash::FxHashMap<cufront_hir::ItemId, u32>,
    u: &Inaccessible,
    start: u32,
) -> Option<crate::Found> {
    let class = spell::spell(db, cufront_hir::ty::mk(db, TyKind::Class(u.class)))?;
    let (kind, name, item, rel) = match u.member {
        Member::Field(i) => {
            let tree = item_tree_of(db, u.class.item(db));
            let field = tree.classes.get(u.class.idx(db) as usize)?.fields.get(i as usize)?;
            let offsets = item_offsets(db, u.class.item(db));
            let at = offsets.fields.iter().find(|(c, f, _)| *c == u.class.idx(db) && *f == i)?.2;
            (Some(EntityKind::Member), field.name.clone()?, u.class.item(db), at)
        }
        Member::Fn(f) => {
            let FnName::Ident(n) = &FnDecl::Fn(f).data(db)?.name else { return None };
            let at = *item_offsets(db, f.item(db)).fns.get(f.idx(db) as usize)?;
            (Some(EntityKind::Function), n.clone(), f.item(db), at)
        }
        // `"C::C(int, const char *)"`: no kind word, the parameter types.
        Member::Ctor(f) => {
            let sig = instances::signature(db, instances::fn_instance(db, FnDecl::Fn(f), None, Vec::new())).ok()?;
            let params: Option<Vec<String>> = sig.params.iter().map(|p| spell::spell(db, *p)).collect();
            let own = class.rsplit("::").next().unwrap_or(&class).to_string();
            let at = *item_offsets(db, f.item(db)).fns.get(f.idx(db) as usize)?;
            (None, format!("{own}({})", params?.join(", ")), f.item(db), at)
        }
    };
    let declared = starts.get(&item)? + rel;
    let entity = Entity {
        kind,
        name: format!("{class}::{name}"),
        declared_at: Some(crate::redefinition::position(db, tu, declared)),
        ..Entity::default()
    };
    let at = start + u.at;
    let id = if matches!(u.member, Member::Ctor(_)) { INACCESSIBLE_SPECIAL } else { INACCESSIBLE };
    Some(crate::Found::new(at, id, Severity::Error, vec![Arg::Entity(entity)]))
}
