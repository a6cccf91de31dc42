//! The host file as salsa queries, per top-level item (`hir`'s items):
//! an item's plan (`ItemPlan`, offsets relative to the item) is computed
//! from its tree and from unit facts that an edit inside a function body
//! leaves equal — the unit's CUDA entities (`unit_refs`), the names that
//! make a body worth parsing (`unit_needs`), the body parser (the
//! declaration pass's name table) — so that a rebuild after such an edit
//! plans the edited item again and merges (`host::merge`), nothing more.
//!
//! What crosses items is merged, not threaded through the plans: the
//! `__T<n>` numbering (an item's plan depends on the numbers before it
//! only when it uses some: it is asked again with its bases then), the
//! runtime header after the first global `size_t` typedef, the extended
//! lambdas' preamble, the host-reference arrays.

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::ItemId;
use cufront_syntax::green;
use cufront_syntax::{BodyParser, LazyBodyContext, SyntaxKind as K, SyntaxNode, TextRange, TextSize};
use rowan::GreenNodeData;
use rustc_hash::FxHashMap;

use super::bodies::BodyNeeds;
use super::refs::Refs;
use super::{HostFile, HostOptions, ItemPlan};
use crate::Sema;

/// The options of one host file of one unit.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
struct HostKey {
    #[returns(copy)]
    tu: TranslationUnit,
    #[returns(ref)]
    opts: HostOptions,
}

/// One item's plan as asked for: the item, the options, the `__T<n>`
/// numbers before it in each phase, and the lazy bodies a rule reads
/// (relative ranges, with what parsing each needs).
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
struct PlanKey {
    #[returns(copy)]
    item: ItemId,
    #[returns(copy)]
    host: HostKey,
    #[returns(copy)]
    t_decls: u32,
    #[returns(copy)]
    t_lambdas: u32,
    #[returns(ref)]
    bodies: Vec<(TextRange, LazyBodyContext)>,
}

/// The host file of `tu` printed with `opts` (the final query of the
/// cudafe++ mode's back end).
pub fn host_file<'db>(db: &'db dyn SourceDatabase, tu: TranslationUnit, opts: &HostOptions) -> &'db HostFile {
    host_file_of(db, HostKey::new(db, tu, opts.clone()))
}

#[salsa::tracked(returns(ref))]
fn host_file_of(db: &dyn SourceDatabase, key: HostKey) -> HostFile {
    let tu = key.tu(db);
    let opts = key.opts(db);
    let text = tu.text(db);
    let map = cufront_base_db::source_map(db, tu);
    let parse = cufront_base_db::parse(db, tu);
    let ranges = cufront_hir::locate::item_ranges(db, tu);
    let items = &cufront_hir::top_level_items(db, tu).items;
    // Each item's plan with no `__T<n>` before it, then again with its
    // bases where it uses some.
    let mut keys = Vec::with_capacity(ranges.len());
    for (&item, &(start, _)) in items.iter().zip(ranges) {
        let bodies: Vec<(TextRange, LazyBodyContext)> = item_needed_bodies(db, item, key)
            .iter()
            .filter_map(|&r| Some((r, parse.lazy_body_context(r.start() + TextSize::from(start))?)))
            .collect();
        keys.push((item, start, bodies));
    }
    let mut plans: Vec<(u32, &ItemPlan)> = Vec::with_capacity(keys.len());
    let mut uses_t = Vec::new();
    let mut t_decls_total = 0;
    for (i, (item, start, bodies)) in keys.iter().enumerate() {
        let plan = item_plan(db, PlanKey::new(db, *item, key, 0, 0, bodies.clone()));
        if plan.uses_t() {
            uses_t.push(i);
            t_decls_total += plan.t_decls;
        }
        plans.push((*start, plan));
    }
    let (mut t_decls, mut t_lambdas) = (0, t_decls_total);
    for i in uses_t {
        let (item, _, bodies) = &keys[i];
        let (d, l) = (plans[i].1.t_decls, plans[i].1.t_lambdas);
        if (t_decls, t_lambdas) != (0, 0) {
            plans[i].1 = item_plan(db, PlanKey::new(db, *item, key, t_decls, t_lambdas, bodies.clone()));
        }
        t_decls += d;
        t_lambdas += l;
    }
    let sentinel = super::lambda::sentinel(text, &parse.syntax_node());
    super::merge(text, map, opts, &plans, sentinel)
}

/// The plan of one item (`host::plan_item`) over its tree with the bodies
/// the rules read parsed.
#[salsa::tracked(returns(ref))]
fn item_plan(db: &dyn SourceDatabase, key: PlanKey) -> ItemPlan {
    let item = key.item(db);
    let host = key.host(db);
    let tu = host.tu(db);
    let Some(src) = cufront_hir::item_source(db, item) else {
        return ItemPlan::default();
    };
    let mut root = SyntaxNode::new_root(src.green.clone());
    let bodies = key.bodies(db);
    if !bodies.is_empty() {
        let parser = body_parser(db, tu);
        let mut lazy = Vec::new();
        lazy_bodies(&src.green, TextSize::from(0), &mut lazy);
        let parsed: Vec<_> = bodies
            .iter()
            .filter_map(|&(r, cx)| {
                let (_, g) = lazy.iter().find(|(lr, _)| *lr == r)?;
                Some((r, parser.parse(cx, &lazy_text(g))))
            })
            .collect();
        root = SyntaxNode::new_root(cufront_syntax::splice_bodies(&root, &parsed));
    }
    let sema = Sema::new(db, tu).of_item(item);
    let classes = |name: &str| {
        let &(at, range) = class_index(db, tu).get(name)?;
        let tree = if at == item {
            root.clone()
        } else {
            SyntaxNode::new_root(cufront_hir::item_source(db, at).as_ref()?.green.clone())
        };
        let n = match tree.covering_element(range) {
            rowan::NodeOrToken::Node(n) => n,
            rowan::NodeOrToken::Token(t) => t.parent()?,
        };
        n.ancestors().take_while(|a| a.text_range() == range).find(|a| a.kind() == K::CLASS_SPECIFIER)
    };
    let (t_decls, t_lambdas) = (key.t_decls(db), key.t_lambdas(db));
    super::plan_item(&root, host.opts(db), sema, unit_refs(db, tu), &classes, t_decls, t_lambdas)
}

/// The class definitions of one item by name (the first of each name, in
/// preorder), with their ranges in the item.
#[salsa::tracked(returns(ref))]
fn item_classes(db: &dyn SourceDatabase, item: ItemId) -> Vec<(String, TextRange)> {
    let Some(src) = cufront_hir::item_source(db, item) else {
        return Vec::new();
    };
    let root = SyntaxNode::new_root(src.green.clone());
    let mut out: Vec<(String, TextRange)> = Vec::new();
    let mut pick = |kind: K, g: &GreenNodeData| {
        kind == K::CLASS_SPECIFIER
            && g.children().any(|c| c.as_node().is_some_and(|n| green::node_kind(n) == K::MEMBER_LIST))
    };
    super::find::nodes(&root, &mut pick, &mut |c| {
        if let Some(name) = cufront_cuda::walk::class_name(&c)
            && !out.iter().any(|(n, _)| *n == name)
        {
            out.push((name, c.text_range()));
        }
    });
    out
}

/// The unit's first definition of each class name: (item, range in it).
#[salsa::tracked(returns(ref))]
fn class_index(db: &dyn SourceDatabase, tu: TranslationUnit) -> FxHashMap<String, (ItemId, TextRange)> {
    let mut index = FxHashMap::default();
    for &item in text_items(db, tu) {
        for (name, range) in item_classes(db, item) {
            index.entry(name.clone()).or_insert((item, *range));
        }
    }
    index
}

/// The unit's lazy-body parser (equal while the declaration pass's name
/// table is: after an edit inside a body).
#[salsa::tracked(returns(ref))]
fn body_parser(db: &dyn SourceDatabase, tu: TranslationUnit) -> BodyParser {
    cufront_base_db::parse(db, tu).body_parser()
}

/// The namespace-scope CUDA entities one item declares.
#[salsa::tracked(returns(ref))]
fn item_refs(db: &dyn SourceDatabase, item: ItemId) -> Refs {
    let Some(src) = cufront_hir::item_source(db, item) else {
        return Refs::default();
    };
    let sema = Sema::new(db, item.tu(db)).of_item(item);
    Refs::of_item(&SyntaxNode::new_root(src.green.clone()), sema)
}

/// The namespace-scope CUDA entities of the unit's items, in order.
#[salsa::tracked(returns(ref))]
fn unit_refs(db: &dyn SourceDatabase, tu: TranslationUnit) -> Refs {
    let mut refs = Refs::default();
    for &item in text_items(db, tu) {
        refs.append(item_refs(db, item));
    }
    refs
}

#[salsa::tracked(returns(ref))]
fn item_needs(db: &dyn SourceDatabase, item: ItemId) -> BodyNeeds {
    match cufront_hir::item_source(db, item) {
        Some(src) => BodyNeeds::of_item(&SyntaxNode::new_root(src.green.clone())),
        None => BodyNeeds::default(),
    }
}

/// What makes a body worth parsing, over the unit's items.
#[salsa::tracked(returns(ref))]
fn unit_needs(db: &dyn SourceDatabase, tu: TranslationUnit) -> BodyNeeds {
    let mut needs = BodyNeeds::default();
    for &item in text_items(db, tu) {
        needs.extend(item_needs(db, item).clone());
    }
    needs
}

/// The lazy bodies of one item that a rule of the host file reads (all of
/// them with `HostOptions::all_bodies`), relative to the item.
#[salsa::tracked(returns(ref))]
fn item_needed_bodies(db: &dyn SourceDatabase, item: ItemId, key: HostKey) -> Vec<TextRange> {
    let Some(src) = cufront_hir::item_source(db, item) else {
        return Vec::new();
    };
    let mut lazy = Vec::new();
    lazy_bodies(&src.green, TextSize::from(0), &mut lazy);
    if lazy.is_empty() || key.opts(db).all_bodies {
        return lazy.into_iter().map(|(r, _)| r).collect();
    }
    let tu = item.tu(db);
    let needs = unit_needs(db, tu);
    let lex = cufront_base_db::parse_options(db, tu.options(db)).lex;
    lazy.into_iter().filter(|(_, g)| needs.needs(&lazy_text(g), lex)).map(|(r, _)| r).collect()
}

/// The text of a `LAZY_BODY` (one token: borrowed).
fn lazy_text(g: &GreenNodeData) -> std::borrow::Cow<'_, str> {
    match g.children().next() {
        Some(rowan::NodeOrToken::Token(t)) if g.children().len() == 1 => std::borrow::Cow::Borrowed(t.text()),
        _ => std::borrow::Cow::Owned(green::text(g)),
    }
}

/// The `LAZY_BODY` nodes under `n` (whose text starts at `at`), with their ranges.
fn lazy_bodies<'g>(n: &'g GreenNodeData, mut at: TextSize, out: &mut Vec<(TextRange, &'g GreenNodeData)>) {
    for c in n.children() {
        if let rowan::NodeOrToken::Node(c) = c {
            if cufront_syntax::green::node_kind(c) == K::LAZY_BODY {
                out.push((TextRange::at(at, c.text_len()), c));
            } else {
                lazy_bodies(c, at, out);
            }
        }
        at += c.text_len();
    }
}

/// The items written in the unit's text (`top_level_items` appends the
/// extended lambdas' wrapper templates after them).
fn text_items(db: &dyn SourceDatabase, tu: TranslationUnit) -> &[ItemId] {
    let n = cufront_hir::locate::item_ranges(db, tu).len();
    &cufront_hir::top_level_items(db, tu).items[..n]
}
