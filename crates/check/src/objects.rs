//! The types of declared objects (errors, at the object's name; checked
//! against cudafe++):
//!
//! - `incomplete type %t is not allowed` (70): a variable defined, or a
//!   non-static data member declared, with `void` or with a class type
//!   that has no definition before it (an `extern` declaration of a class
//!   type is not a definition; `void` is refused even there);
//! - `array of reference is not allowed` (251), typedefs looked through;
//! - `object of abstract class type %t is not allowed:` (322) with one
//!   note per pure virtual function left: `%n is a pure virtual function`
//!   (858) for the class's own, `pure virtual %n has no overrider` (859)
//!   for those of its bases;
//! - `cannot deduce "auto" type (initializer required)` (1593): `auto`,
//!   `const auto`, `auto *` without an initializer;
//! - `const %n requires an initializer` (257) for a `static constexpr`
//!   data member without one (`const member "S::n"`);
//! - a member access through a pointer to a class not defined before it
//!   (`pointer or reference to incomplete type %t is not allowed`, 833)
//!   or on an object of such a class (70), at the object expression.
//!
//! Certainty: the type must be written as the class's own name (a typedef
//! may be spelled otherwise by EDG), the class must be outside unnamed
//! namespaces and blocks (its printed name is then its qualified name),
//! the declaration outside templates (templated bodies are skipped by
//! `infer`); an abstract class is judged only when all its bases resolve
//! to defined classes, when every signature compares, and when its notes
//! are all of one kind (their order is then the declaration order); a
//! virtual base leaves it unjudged.
//! "Before" compares positions in the unit: top-level items in order,
//! offsets within an item.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::body::{Expr, Init, Stmt};
use cufront_hir::infer::{self, InferOwner};
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::{Builtin, FnName, Item, TemplateKind, TypeRef};
use cufront_hir::layout::ClassRef;
use cufront_hir::scopes::{self, DeclKey, DefMap, ScopeIdx, ScopeKind, def_map};
use cufront_hir::ty::{self, TyId, TyKind, canonical};
use cufront_hir::{ClassId, FnId, ItemId};

use crate::Raw;

const INCOMPLETE: DiagId = DiagId(70);
const POINTER_TO_INCOMPLETE: DiagId = DiagId(833);
const ARRAY_OF_REFERENCE: DiagId = DiagId(251);
const CONST_REQUIRES_INIT: DiagId = DiagId(257);
const ABSTRACT_OBJECT: DiagId = DiagId(322);
const PURE_VIRTUAL: DiagId = DiagId(858);
const NO_OVERRIDER: DiagId = DiagId(859);
const AUTO_REQUIRES_INIT: DiagId = DiagId(1593);

/// Where a declaration is: its top-level item and the offset in it.
#[derive(Clone, Copy)]
pub(crate) struct Place {
    pub(crate) item: ItemId,
    pub(crate) at: u32,
}

/// What the rules need to know about one declared object.
struct Object<'a> {
    written: &'a TypeRef,
    /// Its type lowered (`None`: not known).
    ty: Option<TyId>,
    /// A definition (an object is created), not an `extern` declaration.
    defines: bool,
    has_init: bool,
    place: Place,
}

/// The findings on the namespace-scope variables, static data members and
/// fields one item declares (offsets relative to the item).
#[salsa::tracked(returns(clone))]
pub fn item_object_findings(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<Raw>> {
    let tree = cufront_hir::item_tree_of(db, item);
    let offsets = cufront_hir::item_offsets(db, item);
    let map = def_map(db, item.tu(db));
    let mut out = Vec::new();
    for (i, v) in tree.vars.iter().enumerate() {
        let Some(&at) = offsets.vars.get(i) else { continue };
        if v.qualifier.is_some() || !v.outer_tparams.is_empty() {
            continue;
        }
        let me = cufront_hir::VarId::new(db, item, i as u32);
        let Some(&scope) = map.parent.get(&DeclKey::Var(me)) else { continue };
        if in_template(&map, scope) {
            continue;
        }
        let has_init = offsets.var_inits.iter().any(|&(k, _)| k == i as u32);
        let member = matches!(map.scope(scope).kind, ScopeKind::Class(_));
        if member && v.linkage.is_static {
            // `static constexpr int n;`: a constant member needs its value here.
            if v.linkage.is_constexpr
                && !has_init
                && let Some(name) = qualified(db, item.tu(db), &map, scope, &v.name)
            {
                let entity = DiagEntity { kind: Some(EntityKind::Member), name, ..DiagEntity::default() };
                out.push(Raw {
                    at,
                    id: CONST_REQUIRES_INIT,
                    severity: Severity::Error,
                    args: vec![Arg::Entity(entity)],
                });
            }
            continue;
        }
        let cx = ty::LowerCx { db, map: &map, item, scope, env: None };
        let object = Object {
            written: &v.ty,
            ty: Some(canonical(db, ty::lower(cx, &v.ty))),
            defines: !v.linkage.is_extern,
            has_init,
            place: Place { item, at },
        };
        check(db, item.tu(db), &map, &object, &mut out);
    }
    for (at, field, ty) in concrete_fields(db, item) {
        let object = Object {
            written: &field.ty,
            ty: Some(ty),
            defines: true,
            // A default member initializer does not make `auto` a type.
            has_init: true,
            place: Place { item, at },
        };
        check(db, item.tu(db), &map, &object, &mut out);
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

/// The findings on the local variables of one body (offsets relative to
/// the item); none for a body `infer` skips (templated).
#[salsa::tracked(returns(clone))]
pub fn fn_object_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    let declared: Vec<_> = body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Decl(ls) => Some(ls.iter().copied()),
            _ => None,
        })
        .flatten()
        .filter(|&l| body.local(l).binding_of.is_none())
        .collect();
    if declared.is_empty() {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let item = f.item(db);
    let map = def_map(db, item.tu(db));
    let mut out = Vec::new();
    for l in declared {
        let local = body.local(l);
        let Some(Some(range)) = body.local_names.get(l.0 as usize) else { continue };
        let object = Object {
            written: &local.ty,
            ty: r.local_tys.get(l.0 as usize).copied().flatten().map(|t| canonical(db, t)),
            defines: true,
            has_init: !matches!(local.init, Init::None),
            place: Place { item: f.item(db), at: u32::from(range.start()) },
        };
        check(db, item.tu(db), &map, &object, &mut out);
    }
    Arc::new(out)
}

/// The member accesses of one body whose object's class is incomplete
/// there (offsets relative to the item); none for a body `infer` skips.
#[salsa::tracked(returns(clone))]
pub fn fn_member_access_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let decl = FnDecl::Fn(f);
    let body = infer::decl_body(db, decl);
    if !body.exprs.iter().any(|e| matches!(e, Expr::Member { .. })) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let item = f.item(db);
    let tu = item.tu(db);
    let map = def_map(db, tu);
    let mut out = Vec::new();
    for e in body.exprs.iter() {
        let Expr::Member { base, arrow, .. } = e else { continue };
        let Some(ty) = r.expr_tys.get(base.0 as usize).copied().flatten() else { continue };
        let ty = canonical(db, ty);
        let (class, id) = match (ty.kind(db), arrow) {
            (TyKind::Ptr(p), true) => match canonical(db, *p).kind(db) {
                TyKind::Class(c) => (*c, POINTER_TO_INCOMPLETE),
                _ => continue,
            },
            (TyKind::Class(c), false) => (*c, INCOMPLETE),
            (TyKind::LRef(p) | TyKind::RRef(p), false) => match canonical(db, *p).kind(db) {
                TyKind::Class(c) => (*c, INCOMPLETE),
                _ => continue,
            },
            _ => continue,
        };
        let Some(range) = body.expr_ranges.get(base.0 as usize) else { continue };
        let at = u32::from(range.start());
        if defined_before(db, &map, class, Place { item, at }) != Some(false) {
            continue;
        }
        let Some(name) = class_display(db, tu, &map, class) else { continue };
        let args = vec![Arg::Type { spelling: name, aka: None }];
        out.push(Raw { at, id, severity: Severity::Error, args });
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

/// The rules on one object.
fn check(db: &dyn SourceDatabase, tu: TranslationUnit, map: &DefMap, o: &Object<'_>, out: &mut Vec<Raw>) {
    let at = o.place.at;
    let mut push = |id, severity, args| out.push(Raw { at, id, severity, args });
    match o.written {
        TypeRef::Builtin(Builtin::Void) => {
            let void = Arg::Type { spelling: "void".into(), aka: None };
            push(INCOMPLETE, Severity::Error, vec![void]);
        }
        t if is_auto(t) && !o.has_init => push(AUTO_REQUIRES_INIT, Severity::Error, vec![]),
        TypeRef::Array(..) => {
            if let Some(t) = o.ty
                && let TyKind::Array(elem, _) = t.kind(db)
                && matches!(canonical(db, *elem).kind(db), TyKind::LRef(_) | TyKind::RRef(_))
            {
                push(ARRAY_OF_REFERENCE, Severity::Error, vec![]);
            }
        }
        TypeRef::Path(p) if o.defines => {
            let Some(TyKind::Class(c)) = o.ty.map(|t| t.kind(db).clone()) else { return };
            let Some(data) = class_data(db, c) else { return };
            if data.name.as_deref() != p.last() {
                return;
            }
            let Some(name) = class_display(db, tu, map, c) else { return };
            let spelled = Arg::Type { spelling: name, aka: None };
            match defined_before(db, map, c, o.place) {
                Some(false) => push(INCOMPLETE, Severity::Error, vec![spelled]),
                Some(true) => {
                    let Some(pure) = pure_left(db, map, c, 0) else { return };
                    if pure.is_empty() {
                        return;
                    }
                    let own = pure[0].1;
                    if pure.iter().any(|&(_, o)| o != own) {
                        return;
                    }
                    let Some(names) = pure.iter().map(|&(g, _)| fn_display(db, tu, map, g)).collect::<Option<Vec<_>>>()
                    else {
                        return;
                    };
                    push(ABSTRACT_OBJECT, Severity::Error, vec![spelled]);
                    for name in names {
                        let entity = DiagEntity { kind: Some(EntityKind::Function), name, ..DiagEntity::default() };
                        let id = if own { PURE_VIRTUAL } else { NO_OVERRIDER };
                        push(id, Severity::Note, vec![Arg::Entity(entity)]);
                    }
                }
                None => {}
            }
        }
        _ => {}
    }
}

/// `auto`, `const auto`, `auto *` (a reference is told 252 first).
fn is_auto(t: &TypeRef) -> bool {
    let auto = |t: &TypeRef| matches!(t, TypeRef::Opaque(a) if a == "auto");
    match t {
        TypeRef::Cv(inner, _) | TypeRef::Ptr(inner) => auto(inner),
        t => auto(t),
    }
}

/// The data members of an item's classes that are no templates (nor in
/// one): where each is declared (relative to the item), and its type.
pub(crate) fn concrete_fields(
    db: &dyn SourceDatabase,
    item: ItemId,
) -> Vec<(u32, cufront_hir::item_tree::Field, TyId)> {
    let tree = cufront_hir::item_tree_of(db, item);
    let offsets = cufront_hir::item_offsets(db, item);
    let map = def_map(db, item.tu(db));
    let mut out = Vec::new();
    for &(ci, fi, at) in &offsets.fields {
        let c = ClassId::new(db, item, ci);
        let Some(&scope) = map.class_scope.get(&c) else { continue };
        if in_template(&map, scope) {
            continue;
        }
        let Some(field) = tree.classes.get(ci as usize).and_then(|d| d.fields.get(fi as usize)) else { continue };
        let cx = ty::LowerCx { db, map: &map, item, scope, env: None };
        out.push((at, field.clone(), canonical(db, ty::lower(cx, &field.ty))));
    }
    out
}

/// Whether a scope is a template's or inside one.
pub(crate) fn in_template(map: &DefMap, mut s: ScopeIdx) -> bool {
    loop {
        if map.templated.contains(&s) {
            return true;
        }
        match map.scope(s).parent {
            Some(p) => s = p,
            None => return false,
        }
    }
}

fn class_data(db: &dyn SourceDatabase, c: ClassId) -> Option<cufront_hir::item_tree::ClassData> {
    cufront_hir::item_tree_of(db, c.item(db)).classes.get(c.idx(db) as usize).cloned()
}

/// `N::S`: a class's qualified name, when EDG prints exactly that (not in
/// an unnamed namespace, a block or a template).
fn class_display(db: &dyn SourceDatabase, tu: TranslationUnit, map: &DefMap, c: ClassId) -> Option<String> {
    let data = class_data(db, c)?;
    // A template's specialization is printed with its arguments: not spelt here.
    if data.template != TemplateKind::None || data.spec_args.is_some() {
        return None;
    }
    let name = data.name?;
    let scope = *map.parent.get(&DeclKey::Class(c))?;
    qualified(db, tu, map, scope, &name)
}

/// `name` qualified by scope `s` and the scopes around it.
fn qualified(db: &dyn SourceDatabase, tu: TranslationUnit, map: &DefMap, s: ScopeIdx, name: &str) -> Option<String> {
    if in_template(map, s) {
        return None;
    }
    let mut k = Some(s);
    while let Some(cur) = k {
        if matches!(map.scope(cur).kind, ScopeKind::Namespace { name: None, .. } | ScopeKind::Block(_)) {
            return None;
        }
        k = map.scope(cur).parent;
    }
    let chain = crate::names::scope_chain(db, tu, s)?;
    Some(chain.into_iter().map(|(_, n)| format!("{n}::")).chain([name.to_string()]).collect())
}

/// Whether class `c` is defined before `place` (`None`: not known).
pub(crate) fn defined_before(db: &dyn SourceDatabase, map: &DefMap, c: ClassId, place: Place) -> Option<bool> {
    let def = map.class_definition(c);
    if !map.class_scope.contains_key(&def) {
        // No definition in the unit at all.
        return Some(false);
    }
    let at = *cufront_hir::item_offsets(db, def.item(db)).classes.get(def.idx(db) as usize)?;
    if def.item(db) == place.item {
        return Some(at < place.at);
    }
    let items = &cufront_hir::top_level_items(db, place.item.tu(db)).items;
    let index = |i: ItemId| items.iter().position(|&x| x == i);
    Some(index(def.item(db))? < index(place.item)?)
}

/// The pure virtual functions of class `c` (a definition) that have no
/// final overrider in it, each flagged when `c` declares it; `None` when
/// the model is not sure.
fn pure_left(db: &dyn SourceDatabase, map: &DefMap, c: ClassId, depth: u32) -> Option<Vec<(FnDecl, bool)>> {
    if depth > 32 {
        return None;
    }
    let c = map.class_definition(c);
    let s = *map.class_scope.get(&c)?;
    if in_template(map, s) {
        return None;
    }
    let tree = cufront_hir::item_tree_of(db, c.item(db));
    let data = tree.classes.get(c.idx(db) as usize)?;
    let members: Vec<FnDecl> = data
        .items
        .iter()
        .filter_map(|it| match it {
            Item::Fn(i) => Some(FnDecl::Fn(FnId::new(db, c.item(db), *i))),
            _ => None,
        })
        .filter(|f| f.data(db).is_some_and(|d| !d.friend && !d.linkage.is_static))
        .collect();
    let mut out: Vec<(FnDecl, bool)> =
        members.iter().filter(|f| f.data(db).is_some_and(|d| d.virt.pure)).map(|&f| (f, true)).collect();
    for b in ty::class_bases(db, c).iter() {
        // A virtual base's final overrider may come from a sibling: not modelled.
        let (Some(ClassRef::Class(base)), false) = (b.class, b.is_virtual) else { return None };
        for (g, _) in pure_left(db, map, base, depth + 1)? {
            let gd = g.data(db)?;
            if matches!(gd.name, FnName::Dtor) {
                // The implicit destructor overrides it.
                continue;
            }
            let key = scopes::fn_name_key(&gd.name);
            let mut overridden = false;
            for &m in &members {
                let md = m.data(db)?;
                if scopes::fn_name_key(&md.name) == key && crate::overrides::sure_same_signature(db, m, g)? {
                    overridden = true;
                }
            }
            if !overridden && !out.iter().any(|&(h, _)| h == g) {
                out.push((g, false));
            }
        }
    }
    Some(out)
}

/// `N::A::f`, `D::~D`.
fn fn_display(db: &dyn SourceDatabase, tu: TranslationUnit, map: &DefMap, f: FnDecl) -> Option<String> {
    let data = f.data(db)?;
    let ScopeKind::Class(c) = map.scope(f.parent(db, map)).kind else { return None };
    let class = class_data(db, c)?.name?;
    let own = match &data.name {
        FnName::Ident(n) => n.clone(),
        FnName::Dtor => format!("~{class}"),
        FnName::Operator(op) => format!("operator{op}"),
        _ => return None,
    };
    Some(format!("{}::{own}", class_display(db, tu, map, c)?))
}
