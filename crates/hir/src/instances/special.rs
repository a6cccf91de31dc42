//! Implicitly declared special member functions (default constructor,
//! copy and move constructors, copy and move assignments, destructor) as
//! entities: what g++ defines in a unit when one is odr-used and not
//! trivial ([class.ctor], [class.copy.ctor], [class.copy.assign],
//! [class.dtor]). A class that declares a constructor (destructor) has no
//! implicit one of that family here: overload resolution among declared
//! ones is `infer`'s. An assignment's implicit member is used only where
//! no declared `operator=` is viable (`implicit_assign`); a declared copy
//! constructor, copy assignment, move constructor or destructor suppresses
//! the implicit move assignment, and a move then copies.
//!
//! Triviality follows the standard's recursion over bases and non-static
//! data members (arrays by element), with `ClassData`'s facts for the
//! class itself (`user_dtor`: a destructor that is not `= default`;
//! `user_ctor`; `has_virtual_fn`; default member initializers); it is a
//! query with a cycle fallback, and depth-limited.

use cufront_base_db::SourceDatabase;

use crate::item_tree::{ClassData, TypeRef};
use crate::scopes::{self, def_map};
use crate::templates::{self, ClassRefT};
use crate::ty::{self, LowerCx, TyId, TyKind, canonical};
use crate::{Entity, item_tree_of};

use super::{FnDecl, fn_instance};

/// Which implicit special member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialKind {
    DefaultCtor,
    CopyCtor,
    MoveCtor,
    Dtor,
    CopyAssign,
    MoveAssign,
}

impl SpecialKind {
    fn is_assign(self) -> bool {
        matches!(self, SpecialKind::CopyAssign | SpecialKind::MoveAssign)
    }
}

/// An implicitly declared special member function of a class or of a
/// class template specialization.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct SpecialMemberId {
    #[returns(copy)]
    pub class: ClassRefT,
    #[returns(copy)]
    pub kind: SpecialKind,
}

fn pattern_data(db: &dyn SourceDatabase, c: ClassRefT) -> Option<(crate::ClassId, ClassData)> {
    let k = match c {
        ClassRefT::Class(k) => k,
        ClassRefT::Inst(i) => i.class(db),
    };
    let map = def_map(db, k.tu(db));
    let k = map.class_definition(k);
    let tree = item_tree_of(db, k.item(db));
    tree.classes.get(k.idx(db) as usize).filter(|d| d.is_definition).map(|d| (k, d.clone()))
}

/// Whether the class declares the special member `kind` (so that there
/// is no implicit one): a destructor; any constructor for the default
/// constructor; a constructor taking one lvalue (rvalue) reference for the
/// copy (move) constructor — a declared copy constructor also suppresses
/// the implicit move constructor.
fn declares(db: &dyn SourceDatabase, c: ClassRefT, kind: SpecialKind) -> bool {
    let Some((k, _)) = pattern_data(db, c) else { return true };
    let map = def_map(db, k.tu(db));
    let Some(&s) = map.class_scope.get(&k) else { return true };
    let key = match kind {
        SpecialKind::Dtor => scopes::DTOR_KEY,
        SpecialKind::CopyAssign | SpecialKind::MoveAssign => "operator=",
        _ => scopes::CTOR_KEY,
    };
    let fns = scopes::own_fns(db, &map, s, key);
    let one_ref = |lref: bool| {
        fns.iter()
            .any(|f| matches!(f, FnDecl::Fn(_)) && f.data(db).is_some_and(|d| own_ref_param(db, c, &d.ty.params, lref)))
    };
    match kind {
        SpecialKind::Dtor | SpecialKind::DefaultCtor => !fns.is_empty(),
        SpecialKind::CopyCtor => one_ref(true),
        SpecialKind::MoveCtor => one_ref(false) || one_ref(true),
        SpecialKind::CopyAssign => one_ref(true),
        SpecialKind::MoveAssign => one_ref(false),
    }
}

/// Whether the class's constructor without parameters is declared and
/// defaulted (`C() = default;`), and no other constructor without
/// parameters is (a constructor template could be the default one).
fn defaulted_default_ctor(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    let Some((k, _)) = pattern_data(db, c) else { return false };
    let map = def_map(db, k.tu(db));
    let Some(&s) = map.class_scope.get(&k) else { return false };
    let fns = scopes::own_fns(db, &map, s, scopes::CTOR_KEY);
    let mut nullary =
        fns.iter().filter(|f| !matches!(f, FnDecl::Fn(_)) || f.data(db).is_none_or(|d| d.ty.params.is_empty()));
    matches!((nullary.next(), nullary.next()), (Some(f @ FnDecl::Fn(_)), None) if f.data(db).is_some_and(|d| d.defaulted))
}

/// Whether the class declares a move constructor or a move assignment
/// operator: its implicit copy assignment is then defined as deleted
/// ([class.copy.assign]/2).
pub(crate) fn declares_move(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    let Some((k, _)) = pattern_data(db, c) else { return true };
    let map = def_map(db, k.tu(db));
    let Some(&s) = map.class_scope.get(&k) else { return true };
    [scopes::CTOR_KEY, "operator="].into_iter().any(|key| {
        scopes::own_fns(db, &map, s, key).iter().any(|f| {
            matches!(f, FnDecl::Fn(_)) && f.data(db).is_some_and(|d| own_ref_param(db, c, &d.ty.params, false))
        })
    })
}

/// Whether a parameter list is one lvalue (`lref`) or rvalue reference to
/// the class `c` itself, as a copy (move) constructor's or assignment's
/// is. A reference to another type (`no_throw_allocator(const
/// BaseAllocator&)`, a converting constructor from a base) leaves the
/// implicit copy constructor declared. The class's own name is taken on
/// sight; another name is lowered in the class (a typedef of it), and
/// kept as the class when it does not lower.
pub(crate) fn own_ref_param(db: &dyn SourceDatabase, c: ClassRefT, params: &[TypeRef], lref: bool) -> bool {
    let [p] = params else { return false };
    let inner = match (p, lref) {
        (TypeRef::LRef(x), true) | (TypeRef::RRef(x), false) => &**x,
        _ => return false,
    };
    let mut bare = inner;
    while let TypeRef::Cv(x, _) = bare {
        bare = x;
    }
    let TypeRef::Path(path) = bare else { return true };
    let Some((k, data)) = pattern_data(db, c) else { return true };
    if path.segments.last().is_some_and(|l| data.name.as_deref() == Some(l.name.as_str())) {
        return true;
    }
    let map = def_map(db, k.tu(db));
    let Some(&s) = map.class_scope.get(&k) else { return true };
    let env = match c {
        ClassRefT::Inst(i) => templates::inst_env(db, i).ok(),
        ClassRefT::Class(_) => None,
    };
    let cx = LowerCx { db, map: &map, item: k.item(db), scope: s, env: env.as_ref() };
    let t = templates::nested(|| Ok(ty::lower(cx, bare))).unwrap_or_else(|e| ty::mk(db, TyKind::Error(e)));
    match canonical(db, t).kind(db) {
        TyKind::Error(_) | TyKind::Dependent(_) => true,
        _ => class_of_object(db, t) == Some(c),
    }
}

/// Whether the class has an implicitly declared special member `kind`
/// (it declares none of that family).
pub(crate) fn implicitly_declared(db: &dyn SourceDatabase, c: ClassRefT, kind: SpecialKind) -> bool {
    !declares(db, c, kind)
}

/// Whether the implicit move assignment is not declared ([class.copy.assign]/4):
/// the class declares a copy constructor, copy assignment, move constructor
/// or destructor (a move then uses the copy assignment).
pub(crate) fn move_assign_suppressed(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    [SpecialKind::CopyCtor, SpecialKind::MoveCtor, SpecialKind::CopyAssign, SpecialKind::Dtor]
        .into_iter()
        .any(|k| declares(db, c, k))
}

/// The implicit assignment `x = y` uses when no declared `operator=` of
/// the class is viable: the move assignment for an rvalue `y` unless it is
/// suppressed, else the copy assignment; `None` when that one is declared
/// or trivial.
pub fn implicit_assign(db: &dyn SourceDatabase, class: ClassRefT, rvalue: bool) -> Option<Entity> {
    let kind =
        if rvalue && !move_assign_suppressed(db, class) { SpecialKind::MoveAssign } else { SpecialKind::CopyAssign };
    implicit_special(db, class, kind)
}

/// The implicit special member `kind` of `class` as the entity a use
/// requires: `None` when the class declares one of that family (the
/// declared one is the callee) or the implicit one is trivial (nothing
/// is emitted).
pub fn implicit_special(db: &dyn SourceDatabase, class: ClassRefT, kind: SpecialKind) -> Option<Entity> {
    if declares(db, class, kind) {
        return None;
    }
    let id = SpecialMemberId::new(db, class, kind);
    special_nontrivial(db, id).then_some(Entity::Special(id))
}

/// The class types of a class's non-static data members (arrays by
/// element; anonymous members' members), substituted for an instance.
pub(crate) fn member_classes(db: &dyn SourceDatabase, c: ClassRefT) -> Vec<(ClassRefT, bool)> {
    members(db, c).into_iter().map(|(_, m, has_init)| (m, has_init)).collect()
}

/// `member_classes`, with each member's name (the class itself stands for
/// a scalar member with a default member initializer).
fn members(db: &dyn SourceDatabase, c: ClassRefT) -> Vec<(Option<String>, ClassRefT, bool)> {
    let Some((k, data)) = pattern_data(db, c) else { return Vec::new() };
    let map = def_map(db, k.tu(db));
    let Some(&s) = map.class_scope.get(&k) else { return Vec::new() };
    let env = match c {
        ClassRefT::Inst(i) => templates::inst_env(db, i).ok(),
        ClassRefT::Class(_) => None,
    };
    let cx = LowerCx { db, map: &map, item: k.item(db), scope: s, env: env.as_ref() };
    let mut out = Vec::new();
    for f in &data.fields {
        if f.anonymous.is_some() {
            continue;
        }
        let t = templates::nested(|| Ok(ty::lower(cx, &f.ty))).unwrap_or_else(|e| ty::mk(db, TyKind::Error(e)));
        if let Some(fc) = class_of_object(db, t) {
            out.push((f.name.clone(), fc, f.has_init));
        } else if f.has_init {
            // A scalar with a default member initializer: the default constructor is not trivial.
            out.push((f.name.clone(), c, true));
        }
        let _ = matches!(f.ty, TypeRef::Builtin(_));
    }
    out
}

/// The class of an object type (arrays by element), if any.
pub fn class_of_object(db: &dyn SourceDatabase, t: TyId) -> Option<ClassRefT> {
    let mut t = canonical(db, t);
    for _ in 0..16 {
        match t.kind(db) {
            TyKind::Qualified(x, _) => t = canonical(db, *x),
            TyKind::Array(e, _) => t = canonical(db, *e),
            _ => break,
        }
    }
    match t.kind(db) {
        TyKind::Class(c) => {
            let map = def_map(db, c.tu(db));
            Some(ClassRefT::Class(map.class_definition(*c)))
        }
        TyKind::App(_) | TyKind::Inst(_) => templates::class_of(db, t).ok(),
        _ => None,
    }
}

/// Whether a class's special member of `kind` (declared or implicit) is
/// non-trivial, for the triviality of a class containing it.
fn sub_nontrivial(db: &dyn SourceDatabase, c: ClassRefT, kind: SpecialKind) -> bool {
    let Some((k, data)) = pattern_data(db, c) else { return false };
    if kind == SpecialKind::MoveAssign && !declares(db, c, kind) && move_assign_suppressed(db, c) {
        return sub_nontrivial(db, c, SpecialKind::CopyAssign);
    }
    if declares(db, c, kind) {
        return match kind {
            // Defaulted on its first declaration (`~__shared_ptr() = default;`):
            // trivial exactly when the implicit one would be.
            SpecialKind::Dtor if !data.user_dtor => special_nontrivial(db, SpecialMemberId::new(db, c, kind)),
            SpecialKind::Dtor => data.user_dtor,
            // `C() = default;` on its first declaration: trivial exactly when
            // the implicit one would be ([class.default.ctor]/3).
            SpecialKind::DefaultCtor if defaulted_default_ctor(db, c) => {
                special_nontrivial(db, SpecialMemberId::new(db, c, kind))
            }
            SpecialKind::DefaultCtor => data.user_ctor,
            // Declared copy/move constructors: taken as user-provided.
            SpecialKind::CopyCtor | SpecialKind::MoveCtor => true,
            // User-provided unless every declared one is `= default`.
            SpecialKind::CopyAssign | SpecialKind::MoveAssign => {
                let map = def_map(db, k.tu(db));
                let own =
                    map.class_scope.get(&k).map(|&s| scopes::own_fns(db, &map, s, "operator=")).unwrap_or_default();
                !own.iter().all(|f| f.data(db).is_some_and(|d| d.defaulted))
                    || special_nontrivial(db, SpecialMemberId::new(db, c, kind))
            }
        };
    }
    special_nontrivial(db, SpecialMemberId::new(db, c, kind))
}

crate::consteval::var_template::recorded_query! {
    /// Whether an implicit special member is non-trivial (what g++ defines).
    pub fn special_nontrivial(id: SpecialMemberId) -> bool = special_nontrivial_of;
    tracked special_nontrivial_uses;
    cycle special_nontrivial_uses_cycle => nontrivial_cycle;
}

fn special_nontrivial_of(db: &dyn SourceDatabase, id: SpecialMemberId) -> bool {
    let c = id.class(db);
    let kind = id.kind(db);
    let Some((_, data)) = pattern_data(db, c) else { return false };
    // A virtual function makes constructors non-trivial; assignments too
    // ([class.copy.assign]/9).
    if kind != SpecialKind::Dtor && data.has_virtual_fn {
        return true;
    }
    if kind == SpecialKind::Dtor {
        // Overriding a virtual destructor.
        let mut keys = Vec::new();
        virtual_keys(db, c, 0, &mut keys);
        if keys.iter().any(|k| k == scopes::DTOR_KEY) {
            return true;
        }
    }
    for b in templates::class_bases_of(db, c).iter() {
        if b.is_virtual && kind != SpecialKind::Dtor {
            return true;
        }
        if let Some(bc) = b.class
            && sub_nontrivial(db, bc, kind)
        {
            return true;
        }
    }
    for (m, has_init) in member_classes(db, c) {
        if has_init && kind == SpecialKind::DefaultCtor {
            return true;
        }
        if m != c && sub_nontrivial(db, m, kind) {
            return true;
        }
    }
    false
}

fn nontrivial_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _s: SpecialMemberId) -> bool {
    false
}

/// The entity that performs `kind` for a subobject of class `c`: its
/// declared special member (the one that fits `kind` by its parameter
/// count and reference kind), else its implicit one when non-trivial.
fn sub_entity(db: &dyn SourceDatabase, c: ClassRefT, kind: SpecialKind) -> Option<Entity> {
    debug_assert!(!kind.is_assign());
    if !declares(db, c, kind) {
        return implicit_special(db, c, kind);
    }
    let key = if kind == SpecialKind::Dtor { scopes::DTOR_KEY } else { scopes::CTOR_KEY };
    let cands = super::member_fns(db, c, key);
    let fits = |f: &FnDecl| -> bool {
        let Some(d) = f.data(db) else { return false };
        if matches!(f, FnDecl::Template(_)) {
            return false;
        }
        match kind {
            SpecialKind::Dtor => true,
            SpecialKind::DefaultCtor => d.ty.params.is_empty(),
            SpecialKind::CopyCtor => own_ref_param(db, c, &d.ty.params, true),
            SpecialKind::MoveCtor => own_ref_param(db, c, &d.ty.params, false),
            SpecialKind::CopyAssign | SpecialKind::MoveAssign => false,
        }
    };
    let pick = cands.iter().find(|(f, _)| fits(f)).copied();
    // A declared copy constructor serves a move.
    let pick = pick.or_else(|| {
        (kind == SpecialKind::MoveCtor)
            .then(|| {
                cands
                    .iter()
                    .find(|(f, _)| f.data(db).is_some_and(|d| own_ref_param(db, c, &d.ty.params, true)))
                    .copied()
            })
            .flatten()
    });
    let (f, outer) = pick?;
    Some(match (f, outer) {
        (FnDecl::Fn(f), None) => Entity::Fn(f),
        (d, outer) => Entity::FnInst(fn_instance(db, d, outer, Vec::new())),
    })
}

/// What an implicit special member's definition uses: the same special
/// member of each base and non-static data member of class type.
pub fn special_required(db: &dyn SourceDatabase, id: SpecialMemberId) -> Vec<Entity> {
    let c = id.class(db);
    let kind = id.kind(db);
    // Each subobject's assignment is chosen by overload resolution over its
    // declared `operator=` (templated, conditionally typed) first.
    if kind.is_assign() {
        return crate::infer::implicit_assign_required(db, c, kind == SpecialKind::MoveAssign);
    }
    let mut out = Vec::new();
    for b in templates::class_bases_of(db, c).iter() {
        if let Some(bc) = b.class {
            out.extend(sub_entity(db, bc, kind));
        }
    }
    for (name, m, has_init) in members(db, c) {
        // The implicit default constructor initializes a member from its
        // default member initializer (`atomic<int> n{0};`), when it has one.
        if has_init && kind == SpecialKind::DefaultCtor {
            if let Some(name) = &name {
                out.extend(crate::infer::field_init_required(db, c, name));
            }
            continue;
        }
        if m != c {
            out.extend(sub_entity(db, m, kind));
        }
    }
    out
}

/// Whether a class (or a base) declares a virtual function.
pub fn is_polymorphic(db: &dyn SourceDatabase, c: ClassRefT) -> bool {
    polymorphic_depth(db, c, 0)
}

fn polymorphic_depth(db: &dyn SourceDatabase, c: ClassRefT, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    let Some((_, data)) = pattern_data(db, c) else { return false };
    data.has_virtual_fn
        || templates::class_bases_of(db, c)
            .iter()
            .any(|b| b.class.is_some_and(|bc| polymorphic_depth(db, bc, depth + 1)))
}

/// The name keys of the virtual functions a class and its bases declare.
fn virtual_keys(db: &dyn SourceDatabase, c: ClassRefT, depth: u32, out: &mut Vec<String>) {
    if depth > 32 {
        return;
    }
    let Some((k, _)) = pattern_data(db, c) else { return };
    let map = def_map(db, k.tu(db));
    if let Some(&s) = map.class_scope.get(&k) {
        for (key, defs) in &map.scope(s).names {
            let virt = defs.iter().any(|d| match d {
                scopes::Def::Fn(f) => FnDecl::Fn(*f).data(db).is_some_and(|x| x.is_virtual),
                _ => false,
            });
            if (virt || out.contains(key)) && !out.contains(key) {
                out.push(key.clone());
            }
        }
    }
    for b in templates::class_bases_of(db, c).iter() {
        if let Some(bc) = b.class {
            virtual_keys(db, bc, depth + 1, out);
        }
    }
}

/// The functions a class's vtable refers to that the class itself
/// declares: its virtual functions and overriders (by name, in the order
/// of its scope), and its implicit destructor when a base's is virtual.
/// What emitting the vtable (done where a constructor is emitted) requires.
pub fn vtable_entities(db: &dyn SourceDatabase, c: ClassRefT) -> Vec<Entity> {
    if !is_polymorphic(db, c) {
        return Vec::new();
    }
    let Some((k, _)) = pattern_data(db, c) else { return Vec::new() };
    let map = def_map(db, k.tu(db));
    let Some(&s) = map.class_scope.get(&k) else { return Vec::new() };
    let mut keys = Vec::new();
    virtual_keys(db, c, 0, &mut keys);
    let outer = match c {
        ClassRefT::Inst(i) => Some(i),
        ClassRefT::Class(_) => None,
    };
    let mut out = Vec::new();
    let mut fns: Vec<FnDecl> = Vec::new();
    for key in &keys {
        fns.extend(scopes::own_fns(db, &map, s, key).into_iter().filter(|f| matches!(f, FnDecl::Fn(_))));
    }
    // Source order within the class, for determinism.
    fns.sort_by_key(|f| match f {
        FnDecl::Fn(x) => (x.item(db).ordinal(db), x.idx(db)),
        FnDecl::Template(x) => (x.item(db).ordinal(db), x.idx(db)),
    });
    for f in fns {
        out.push(match (f, outer) {
            (FnDecl::Fn(x), None) => Entity::Fn(x),
            (d, o) => Entity::FnInst(fn_instance(db, d, o, Vec::new())),
        });
    }
    if !declares(db, c, SpecialKind::Dtor) && keys.iter().any(|k| k == scopes::DTOR_KEY) {
        out.push(Entity::Special(SpecialMemberId::new(db, c, SpecialKind::Dtor)));
    }
    out
}

/// Whether default-initializing the namespace-scope variable `v` runs code:
/// its type (arrays by element) is a class whose default constructor or
/// destructor is non-trivial. cudafe++
/// keys the module id on such a definition written without an initializer
/// (`Image img;` with `Image()` user-provided), not on a trivial one (spec 30
/// §4.2). `None` when its type is not resolved: the caller must not guess.
pub fn default_init_runs_code(db: &dyn SourceDatabase, v: crate::VarId) -> Option<bool> {
    let item = v.item(db);
    let tree = item_tree_of(db, item);
    let data = tree.vars.get(v.idx(db) as usize)?;
    let map = def_map(db, item.tu(db));
    let scope = map.parent.get(&scopes::DeclKey::Var(v)).copied().unwrap_or(scopes::ROOT);
    let cx = LowerCx { db, map: &map, item, scope, env: None };
    let t = templates::nested(|| Ok::<_, crate::SemaError>(ty::lower(cx, &data.ty))).ok()?;
    if matches!(canonical(db, t).kind(db), TyKind::Error(_)) {
        return None;
    }
    let Some(c) = class_of_object(db, t) else { return Some(false) };
    Some(sub_nontrivial(db, c, SpecialKind::DefaultCtor) || sub_nontrivial(db, c, SpecialKind::Dtor))
}
