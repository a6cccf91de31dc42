//! `%n has already been defined (previous definition %p)` (EDG 3369, an
//! error): a second definition of a function or a variable in the same
//! namespace scope, at the second one's name.
//!
//! Certainty: functions are matched by `hir::exec_space::redeclarations`
//! (same scope, name and written parameter types) and both must be
//! namespace-scope definitions (whatever their execution spaces: nvcc
//! rejects a `__host__` and a `__device__` definition of one signature
//! too), neither GNU `extern inline`, neither a friend; variables are two non-`extern`
//! definitions of one name in one namespace scope (the def map's).
//! Member functions and templates are not checked.
//!
//! Classes and enums (`class "S" has already been defined`, `union`,
//! `enum`): two definitions of one name in one scope of the scope graph
//! (namespace or class scope; reopened namespaces are one scope), neither a
//! template nor in a templated scope, both of one kind (class or struct,
//! union, enum); the caret at the later one's name, the previous
//! definition the latest one before it (EDG replaces the class with each
//! redefinition). Block scopes are left out (the graph has one per
//! function, not per block).

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Pos, Severity};
use cufront_hir::exec_space;
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::{ClassKey, TemplateKind};
use cufront_hir::scopes::{DeclKey, Def, DefMap, ScopeKind, def_map};
use cufront_hir::{FnId, ItemId, VarId};
use rustc_hash::FxHashMap;

use crate::Found;

const ALREADY_DEFINED: DiagId = DiagId(3369);

/// The redefinitions among the user's namespace-scope definitions.
pub(crate) fn findings(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<Found> {
    let starts: FxHashMap<ItemId, u32> = crate::calls::item_starts(db, tu).into_iter().collect();
    let map = def_map(db, tu);
    let pos = |at: u32| Arg::Pos(position(db, tu, at));
    let mut out = Vec::new();
    let mut push = |at: u32, kind: EntityKind, name: String, prev: u32| {
        let entity = DiagEntity { kind: Some(kind), name, ..DiagEntity::default() };
        let args = vec![Arg::Entity(entity), pos(prev)];
        out.push(Found::new(at, ALREADY_DEFINED, Severity::Error, args));
    };
    for (item, start) in crate::calls::user_items(db, tu) {
        let tree = cufront_hir::item_tree_of(db, item);
        let offsets = cufront_hir::item_offsets(db, item);
        for (i, f) in tree.fns.iter().enumerate() {
            let Some(&at) = offsets.fns.get(i) else { continue };
            if !plain_definition(f) {
                continue;
            }
            let here = start + at;
            let decl = FnDecl::Fn(FnId::new(db, item, i as u32));
            let earlier = exec_space::redeclarations(db, decl).into_iter().find_map(|d| {
                let FnDecl::Fn(g) = d else { return None };
                let gd = d.data(db)?;
                if !plain_definition(&gd) {
                    return None;
                }
                let at =
                    starts.get(&g.item(db))? + cufront_hir::item_offsets(db, g.item(db)).fns.get(g.idx(db) as usize)?;
                (at < here).then_some(at)
            });
            if let (Some(prev), Some(name)) = (earlier, fn_name(db, decl, &f.name)) {
                push(here, EntityKind::Function, name, prev);
            }
        }
        for (i, v) in tree.vars.iter().enumerate() {
            let Some(&at) = offsets.vars.get(i) else { continue };
            if !v.linkage.is_definition || v.linkage.is_extern || v.qualifier.is_some() {
                continue;
            }
            let here = start + at;
            let me = VarId::new(db, item, i as u32);
            let Some(&scope) = map.parent.get(&cufront_hir::scopes::DeclKey::Var(me)) else { continue };
            let earlier = map.scope(scope).names.get(&v.name).into_iter().flatten().find_map(|d| {
                let Def::Var(w) = d else { return None };
                let wt = cufront_hir::item_tree_of(db, w.item(db));
                let wd = wt.vars.get(w.idx(db) as usize)?;
                if *w == me || !wd.linkage.is_definition || wd.linkage.is_extern {
                    return None;
                }
                let at =
                    starts.get(&w.item(db))? + cufront_hir::item_offsets(db, w.item(db)).vars.get(w.idx(db) as usize)?;
                (at < here).then_some(at)
            });
            if let Some(prev) = earlier {
                push(here, EntityKind::Variable, v.name.clone(), prev);
            }
        }
    }
    types(db, tu, &map, &starts, &mut push);
    out
}

/// Redefinitions of classes and enums, through `push(at, kind, name, previous)`.
fn types(
    db: &dyn SourceDatabase,
    tu: TranslationUnit,
    map: &DefMap,
    starts: &FxHashMap<ItemId, u32>,
    push: &mut dyn FnMut(u32, EntityKind, String, u32),
) {
    let source = cufront_base_db::source_map(db, tu);
    let toolkit = source.toolkit_files();
    let mut found = Vec::new();
    for (idx, scope) in map.scopes.iter().enumerate() {
        let s = cufront_hir::scopes::ScopeIdx(idx as u32);
        if !matches!(scope.kind, ScopeKind::Root | ScopeKind::Namespace { .. } | ScopeKind::Class(_))
            || map.templated.contains(&s)
        {
            continue;
        }
        for (name, defs) in &scope.names {
            // Definitions by kind, with where their names are.
            let mut by_kind: [Vec<u32>; 3] = Default::default();
            for d in defs {
                let (kind, at) = match d {
                    Def::Class(c)
                        if map.class_scope.contains_key(c) && map.parent.get(&DeclKey::Class(*c)) == Some(&s) =>
                    {
                        let tree = cufront_hir::item_tree_of(db, c.item(db));
                        let Some(data) = tree.classes.get(c.idx(db) as usize) else { continue };
                        if data.template != TemplateKind::None || data.name.as_deref() != Some(name) {
                            continue;
                        }
                        let offsets = cufront_hir::item_offsets(db, c.item(db));
                        let Some(at) = offsets.classes.get(c.idx(db) as usize) else { continue };
                        (usize::from(data.key == ClassKey::Union), starts.get(&c.item(db)).map(|s| s + at))
                    }
                    Def::Enum(e) if map.parent.get(&DeclKey::Enum(*e)) == Some(&s) => {
                        let tree = cufront_hir::item_tree_of(db, e.item(db));
                        let Some(data) = tree.enums.get(e.idx(db) as usize) else { continue };
                        if !data.is_definition || data.name.as_deref() != Some(name) {
                            continue;
                        }
                        let offsets = cufront_hir::item_offsets(db, e.item(db));
                        let Some(at) = offsets.enums.get(e.idx(db) as usize) else { continue };
                        (2, starts.get(&e.item(db)).map(|s| s + at))
                    }
                    _ => continue,
                };
                by_kind[kind].extend(at);
            }
            for (kind, mut ats) in by_kind.into_iter().enumerate() {
                if ats.len() < 2 {
                    continue;
                }
                ats.sort_unstable();
                ats.dedup();
                let Some(qual) = crate::names::scope_chain(db, tu, s) else { continue };
                let full: String = qual.into_iter().map(|(_, n)| format!("{n}::")).chain([name.clone()]).collect();
                let kind = [EntityKind::Class, EntityKind::Union, EntityKind::Enum][kind];
                for w in ats.windows(2) {
                    if source.is_user_code(w[1], &toolkit) {
                        found.push((w[1], kind, full.clone(), w[0]));
                    }
                }
            }
        }
    }
    // Scopes and names are in hash order: report in source order.
    found.sort_by_key(|f| f.0);
    for (at, kind, name, prev) in found {
        push(at, kind, name, prev);
    }
}

/// A `%p` or `%nd` position: the presumed file and line of an offset of the unit.
pub(crate) fn position(db: &dyn SourceDatabase, tu: TranslationUnit, at: u32) -> Pos {
    let source = cufront_base_db::source_map(db, tu);
    let loc = source.location(at);
    Pos::At { file: source.file_name(loc.file).to_string(), line: loc.line }
}

/// A namespace-scope function definition that a second one conflicts with.
fn plain_definition(f: &cufront_hir::item_tree::FnData) -> bool {
    f.linkage.is_definition
        && !f.in_class
        && !f.friend
        && f.qualifier.is_none()
        && f.outer_tparams.is_empty()
        && !(f.linkage.is_extern && f.linkage.is_inline)
}

fn fn_name(db: &dyn SourceDatabase, decl: FnDecl, name: &cufront_hir::item_tree::FnName) -> Option<String> {
    let simple = match name {
        cufront_hir::item_tree::FnName::Ident(n) => n.clone(),
        _ => return None,
    };
    let qual: String = crate::names::scope_names(db, decl)?.into_iter().map(|(_, n)| format!("{n}::")).collect();
    Some(format!("{qual}{simple}"))
}
