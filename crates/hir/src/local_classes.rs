//! Classes defined at block scope (spec 50 §8, Itanium `<local-name>`):
//! `struct _Guard {…} __guard(this);` in a function body.
//!
//! A local class is an item of its own: an `ItemId` marked local (its
//! ordinal has `LOCAL_BIT`) whose source is the class's declaration, taken
//! from the parsed body of the function that holds it. Its tree is lowered
//! like any item's (members, layout, bodies), and `def_map` hangs it in a
//! block scope (`ScopeKind::Block`) of that function, whose parent is the
//! function's own scope: lookup from the body finds the class, lookup from
//! its members finds the function's class and namespaces. In a template
//! (the function is one, or a member of one) the block scope is templated
//! and adds the function's own template parameters to the chain, so a local
//! class of an instance is an `Inst` with the enclosing function's
//! arguments, and its members are instances like those of any class
//! template specialization.
//!
//! Only bodies whose text has a class key are parsed here; the item tree
//! still never reads a body (this is a query of its own, cut off by
//! equality after a body edit that leaves the local classes alone).
//!
//! Not modelled: classes local to a lambda's body, local enums, and
//! declaration order (the class is visible in the whole body).

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_syntax::green;
use cufront_syntax::{GreenNode, SyntaxKind as K, SyntaxNode};
use rustc_hash::FxHashMap;

use crate::instances::FnDecl;
use crate::item_tree::Item;
use crate::scopes::{self, DefMap, Pending, ScopeIdx, ScopeKind};
use crate::syntax_util::Pack;
use crate::{ClassId, FnId, FnTemplateId, ItemId, ItemSource};

/// The ordinal bit of local items (top-level ordinals count items with the
/// same head: never this large).
pub const LOCAL_BIT: u32 = 1 << 31;

pub fn is_local_item(db: &dyn SourceDatabase, item: ItemId) -> bool {
    item.ordinal(db) & LOCAL_BIT != 0
}

/// A class defined in a body of a top-level item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalClass {
    pub id: ItemId,
    /// The declaration that defines the class (a `SIMPLE_DECL`).
    pub green: GreenNode,
    /// The enclosing function: `(is a template, index into the item tree's
    /// fns or fn_templates)`.
    pub owner: (bool, u32),
    /// Where the declaration starts in the top-level item (the local
    /// item's offsets are relative to it).
    pub at: u32,
}

impl LocalClass {
    pub fn owner_decl(&self, db: &dyn SourceDatabase, item: ItemId) -> FnDecl {
        match self.owner {
            (false, i) => FnDecl::Fn(FnId::new(db, item, i)),
            (true, i) => FnDecl::Template(FnTemplateId::new(db, item, i)),
        }
    }
}

/// Whether an unparsed body may define a class: a class key as a word in
/// its text (one `BODY_TEXT` token). `template <class T>` and elaborated
/// type specifiers pass too; the parse decides.
fn may_define_class(lazy: &rowan::GreenNodeData) -> bool {
    green::any_token(lazy, &mut |t| {
        let text = t.text();
        ["struct", "class", "union"].iter().any(|k| {
            text.match_indices(k).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + k.len()..].chars().next();
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                !word(before) && !word(after)
            })
        })
    })
}

/// Whether one of the outermost bodies of an item may define a class: the
/// test `item_local_classes` applies to each body, made on the green tree
/// first. It runs for every item of the unit and most have no local class;
/// a green walk builds no syntax nodes, where a cursor walk allocates one
/// per node visited.
fn any_body_may_define_class(node: &rowan::GreenNodeData) -> bool {
    let kind = |raw: rowan::SyntaxKind| K::from(raw.0);
    node.children().any(|child| match child {
        rowan::NodeOrToken::Token(_) => false,
        rowan::NodeOrToken::Node(n) => match kind(n.kind()) {
            K::LAZY_BODY => may_define_class(n),
            K::FUNCTION_BODY => has_class_specifier(n),
            _ => any_body_may_define_class(n),
        },
    })
}

/// Whether a green subtree holds a class specifier.
fn has_class_specifier(node: &rowan::GreenNodeData) -> bool {
    node.children().any(|child| match child {
        rowan::NodeOrToken::Token(_) => false,
        rowan::NodeOrToken::Node(n) => K::from(n.kind().0) == K::CLASS_SPECIFIER || has_class_specifier(n),
    })
}

/// The local classes of a top-level item, in source order.
#[salsa::tracked(returns(clone))]
pub fn item_local_classes(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<LocalClass>> {
    let mut out = Vec::new();
    if is_local_item(db, item) {
        return Arc::new(out);
    }
    let Some(src) = crate::item_source(db, item).as_ref().cloned() else { return Arc::new(out) };
    if !any_body_may_define_class(&src.green) {
        return Arc::new(out);
    }
    let root = SyntaxNode::new_root(src.green.clone());
    // The outermost bodies: parsed in place (`FUNCTION_BODY`) or left lazy.
    let mut bodies = Vec::new();
    let mut walk = root.preorder();
    while let Some(ev) = walk.next() {
        let rowan::WalkEvent::Enter(n) = ev else { continue };
        if matches!(n.kind(), K::FUNCTION_BODY | K::LAZY_BODY) {
            walk.skip_subtree();
            bodies.push(n);
        }
    }
    let mut offsets = None;
    for b in bodies {
        let may = match b.kind() {
            K::LAZY_BODY => may_define_class(&b.green()),
            _ => b.descendants().any(|n| n.kind() == K::CLASS_SPECIFIER),
        };
        if !may {
            continue;
        }
        let Some(def) = b.parent().filter(|p| p.kind() == K::FUNCTION_DEF) else { continue };
        let offs = offsets.get_or_insert_with(|| crate::item_offsets(db, item));
        let at_def = |at: &u32| crate::body::function_def_at(&root, *at).is_some_and(|d| d == def);
        let owner = match offs.fns.iter().position(at_def) {
            Some(i) => (false, i as u32),
            None => match offs.fn_templates.iter().position(at_def) {
                Some(i) => (true, i as u32),
                None => continue,
            },
        };
        let (body, base) = match b.kind() {
            K::LAZY_BODY => match crate::body::parse_lazy(db, item, &b) {
                Some((body, at)) => (body, u32::from(at)),
                None => continue,
            },
            _ => (b.clone(), 0),
        };
        for spec in body.descendants().filter(|n| n.kind() == K::CLASS_SPECIFIER) {
            // Classes nested in a local class belong to its tree; those in
            // a lambda's body to the closure (not modelled).
            let mut decl = None;
            let mut skip = false;
            for a in spec.ancestors().skip(1) {
                match a.kind() {
                    K::CLASS_SPECIFIER | K::LAMBDA_EXPR => {
                        skip = true;
                        break;
                    }
                    K::SIMPLE_DECL if decl.is_none() => decl = Some(a),
                    _ => {}
                }
            }
            let Some(decl) = decl.filter(|_| !skip) else { continue };
            let n = out.len() as u32;
            let key = {
                use std::hash::{Hash, Hasher};
                let mut h = rustc_hash::FxHasher::default();
                ("local class", item.key(db), item.ordinal(db)).hash(&mut h);
                h.finish()
            };
            let id = ItemId::new(db, item.tu(db), key, LOCAL_BIT | n);
            let at = base + u32::from(decl.text_range().start());
            out.push(LocalClass { id, green: decl.green().into_owned(), owner, at });
        }
    }
    Arc::new(out)
}

/// Every local class of a unit, by its item (with the item that holds it).
#[salsa::tracked(returns(ref))]
pub fn unit_local_classes(db: &dyn SourceDatabase, tu: TranslationUnit) -> FxHashMap<ItemId, (ItemId, LocalClass)> {
    let mut out = FxHashMap::default();
    for &item in crate::item_ids(db, tu).iter() {
        for c in item_local_classes(db, item).iter() {
            out.insert(c.id, (item, c.clone()));
        }
    }
    out
}

/// The source of a local item.
pub(crate) fn local_item_source(db: &dyn SourceDatabase, item: ItemId) -> Option<ItemSource> {
    let (_, c) = unit_local_classes(db, item.tu(db)).get(&item)?;
    Some(ItemSource { green: c.green.clone(), pack: Pack::default() })
}

/// Hangs the unit's local classes in block scopes of the functions that
/// define them (during `def_map`'s first pass; `place_blocks` sets the
/// parent of an out-of-line definition's block once qualifiers resolve).
pub(crate) fn collect_blocks(
    db: &dyn SourceDatabase,
    map: &mut DefMap,
    pending: &mut Vec<Pending>,
    tu: TranslationUnit,
) -> Vec<(ScopeIdx, FnDecl)> {
    let mut out = Vec::new();
    for &item in crate::item_ids(db, tu).iter() {
        let locals = item_local_classes(db, item);
        for c in locals.iter() {
            let owner = c.owner_decl(db, item);
            let Some(data) = owner.data(db) else { continue };
            let block = match map.blocks.get(&owner) {
                Some(b) => *b,
                None => {
                    let lexical = owner.parent(db, map);
                    let b = map.new_scope(ScopeKind::Block(owner), Some(lexical));
                    // A template's body, or a member's of a class template.
                    if map.templated.contains(&lexical)
                        || matches!(owner, FnDecl::Template(_))
                        || !data.outer_tparams.is_empty()
                    {
                        map.templated.insert(b);
                    }
                    map.blocks.insert(owner, b);
                    out.push((b, owner));
                    b
                }
            };
            let templated = map.templated.contains(&block);
            let tree = crate::item_tree_of(db, c.id);
            let top = tree.top.clone();
            // Local classes have no layout or linkage of their own to list
            // (`classes` is what layout checks walk).
            let listed = map.classes.len();
            scopes::collect(db, map, pending, c.id, &tree, &top, block, templated);
            map.classes.truncate(listed);
            for it in &top {
                if let Item::Class(i) = it {
                    map.block_classes.entry(block).or_default().push(ClassId::new(db, c.id, *i));
                }
            }
        }
    }
    out
}

/// The parent of each block scope: the scope of the function's name (the
/// class an out-of-line member definition names).
pub(crate) fn place_blocks(db: &dyn SourceDatabase, map: &mut DefMap, blocks: Vec<(ScopeIdx, FnDecl)>) {
    for (b, owner) in blocks {
        let Some(data) = owner.data(db) else { continue };
        let Some(q) = &data.qualifier else { continue };
        let lexical = owner.parent(db, map);
        if let Some(t) = scopes::qualifier_scope_in_map(map, lexical, q) {
            map.scopes[b.0 as usize].parent = Some(t);
        }
    }
}

/// The declaration a definition defines (itself, or the in-class
/// declaration an out-of-line member definition matches): what g++ names
/// the function by.
fn declaration_of(db: &dyn SourceDatabase, map: &DefMap, def: FnDecl) -> FnDecl {
    let Some(data) = def.data(db) else { return def };
    if data.qualifier.is_none() {
        return def;
    }
    let Some(block) = map.blocks.get(&def) else { return def };
    let Some(parent) = map.scope(*block).parent else { return def };
    let key = scopes::fn_name_key(&data.name);
    for d in map.scope(parent).names.get(&key).into_iter().flatten() {
        let d = match d {
            scopes::Def::Fn(f) => FnDecl::Fn(*f),
            scopes::Def::FnTemplate(t) => FnDecl::Template(*t),
            _ => continue,
        };
        if d != def && crate::instances::fn_definition(db, d) == Some(def) {
            return d;
        }
    }
    def
}

/// The name of the function a local class of `block` is local to, with
/// the discriminator of `class` among the same-named classes of the body:
/// `Z <function encoding> E` (the class's own component is the caller's).
/// `args`: the arguments of the class's template chain (the enclosing
/// classes', then the function's own).
pub(crate) fn local_root(
    db: &dyn SourceDatabase,
    map: &DefMap,
    block: ScopeIdx,
    class: ClassId,
    args: &[crate::templates::TemplateArg],
) -> Result<cufront_mangle::Name, crate::SemaError> {
    use crate::infer::InferOwner;
    let ScopeKind::Block(def) = map.scope(block).kind else { return Err("not a block scope".into()) };
    let decl = declaration_of(db, map, def);
    let owner = if map.templated.contains(&block) {
        let parent = map.scope(block).parent.unwrap_or(scopes::ROOT);
        let n_outer = crate::templates::outer_arity(db, map, parent);
        if n_outer > args.len() {
            return Err("too few arguments for a local class".into());
        }
        let outer = match map.scope(parent).kind {
            ScopeKind::Class(k) if n_outer > 0 || map.templated.contains(&parent) => {
                Some(crate::templates::InstId::new(db, map.class_definition(k), args[..n_outer].to_vec()))
            }
            _ => None,
        };
        InferOwner::Inst(crate::instances::fn_instance(db, decl, outer, args[n_outer..].to_vec()))
    } else {
        match decl {
            FnDecl::Fn(f) => InferOwner::Fn(f),
            FnDecl::Template(_) => return Err("a local class of an uninstantiated template".into()),
        }
    };
    let func = crate::instances::local::context_encoding(db, owner)?;
    let name_of =
        |c: ClassId| crate::item_tree_of(db, c.item(db)).classes.get(c.idx(db) as usize).and_then(|d| d.name.clone());
    let own = name_of(class);
    let disc = map
        .block_classes
        .get(&block)
        .map_or(0, |cs| cs.iter().take_while(|c| **c != class).filter(|c| name_of(**c) == own).count())
        as u32;
    Ok(cufront_mangle::Name { root: cufront_mangle::Root::Local { func: Box::new(func), disc }, comps: Vec::new() })
}
