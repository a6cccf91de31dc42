//! From a place in the unit's text to what the model declares there: the
//! top-level item that holds an offset, and the function, function template
//! or variable whose declarator name starts at an offset. Clients that walk
//! the syntax tree of the unit (the host printer, the module id's key) name
//! hir's declarations this way, then ask hir's queries about them.
//!
//! Each lookup is two binary searches: the items by where they start
//! (`item_ranges`, re-run after every edit: it reads offsets), then the
//! item's declarations by offset (`item_decls`, re-run only when that
//! item's `item_offsets` change).
//!
//! What the item tree does not lower has no declaration here (an explicit
//! specialization of a function template, a friend declaration without a
//! body, a declaration in a function body): `None`.

use cufront_base_db::{SourceDatabase, TranslationUnit};

use crate::instances::FnDecl;
use crate::{Entity, FnId, FnTemplateId, ItemId, VarId};

/// The text range (start, end) of each top-level item of the unit's tree,
/// in order (the items `top_level_items` makes of the tree's children; the
/// wrapper items it appends after them have no place in the text).
#[salsa::tracked(returns(ref))]
pub fn item_ranges(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<(u32, u32)> {
    let parse = cufront_base_db::parse(db, tu);
    parse
        .syntax_node()
        .children()
        .map(|n| (u32::from(n.text_range().start()), u32::from(n.text_range().end())))
        .collect()
}

/// The top-level item whose text holds unit offset `at`, and where it starts.
pub fn item_at(db: &dyn SourceDatabase, tu: TranslationUnit, at: u32) -> Option<(ItemId, u32)> {
    let ranges = item_ranges(db, tu);
    let i = ranges.partition_point(|&(start, _)| start <= at).checked_sub(1)?;
    let (start, end) = ranges[i];
    if at >= end {
        return None;
    }
    let item = *crate::top_level_items(db, tu).items.get(i)?;
    Some((item, start))
}

/// The declarations of one item by where their declarator's name starts
/// (relative to the item), each list sorted by offset.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ItemDecls {
    fns: Vec<(u32, FnDecl)>,
    vars: Vec<(u32, VarId)>,
}

#[salsa::tracked(returns(ref))]
pub fn item_decls(db: &dyn SourceDatabase, item: ItemId) -> ItemDecls {
    let offs = crate::item_offsets(db, item);
    let mut fns: Vec<(u32, FnDecl)> =
        offs.fns.iter().enumerate().map(|(i, &at)| (at, FnDecl::Fn(FnId::new(db, item, i as u32)))).collect();
    fns.extend(
        offs.fn_templates
            .iter()
            .enumerate()
            .map(|(i, &at)| (at, FnDecl::Template(FnTemplateId::new(db, item, i as u32)))),
    );
    // Stable: of two declarations at one offset, the first lowered wins,
    // as a scan in index order would find it.
    fns.sort_by_key(|&(at, _)| at);
    let mut vars: Vec<(u32, VarId)> =
        offs.vars.iter().enumerate().map(|(i, &at)| (at, VarId::new(db, item, i as u32))).collect();
    vars.sort_by_key(|&(at, _)| at);
    ItemDecls { fns, vars }
}

fn find<T: Copy>(list: &[(u32, T)], at: u32) -> Option<T> {
    let i = list.partition_point(|&(o, _)| o < at);
    list.get(i).filter(|&&(o, _)| o == at).map(|&(_, t)| t)
}

/// The function or function template whose declarator name starts at unit
/// offset `name_at` (at any depth of its item: namespace members, class
/// members, out-of-line definitions).
pub fn fn_decl_at(db: &dyn SourceDatabase, tu: TranslationUnit, name_at: u32) -> Option<FnDecl> {
    let (item, start) = item_at(db, tu, name_at)?;
    fn_decl_in(db, item, name_at - start)
}

/// The function or variable whose declarator name starts at unit offset
/// `name_at` (a function template is no entity: `None`).
pub fn entity_at(db: &dyn SourceDatabase, tu: TranslationUnit, name_at: u32) -> Option<Entity> {
    let (item, start) = item_at(db, tu, name_at)?;
    entity_in(db, item, name_at - start)
}

/// [`fn_decl_at`] for an offset `rel` relative to the start of `item`
/// (a client that walks one item's tree: offsets that do not move when
/// other items do).
pub fn fn_decl_in(db: &dyn SourceDatabase, item: ItemId, rel: u32) -> Option<FnDecl> {
    find(&item_decls(db, item).fns, rel)
}

/// [`entity_at`] for an offset relative to the start of `item`.
pub fn entity_in(db: &dyn SourceDatabase, item: ItemId, rel: u32) -> Option<Entity> {
    let decls = item_decls(db, item);
    match find(&decls.fns, rel) {
        Some(FnDecl::Fn(f)) => Some(Entity::Fn(f)),
        Some(FnDecl::Template(_)) => None,
        None => find(&decls.vars, rel).map(Entity::Var),
    }
}

/// Where function `f` is declared in the unit's declaration order: its
/// item's rank among the unit's items (`item_ids`, unchanged by body edits),
/// then its index in the item. What decides which of two redeclarations is
/// the first, whose linkage counts ([dcl.link]/5).
pub(crate) fn fn_order(db: &dyn SourceDatabase, f: FnId) -> (usize, u32) {
    let item = f.item(db);
    let rank = crate::item_ids(db, item.tu(db)).iter().position(|&i| i == item).unwrap_or(usize::MAX);
    (rank, f.idx(db))
}
