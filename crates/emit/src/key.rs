//! The module id's key: the linkage name of the first eligible definition
//! outside system headers (spec 30 §4.2), where a definition is in a system
//! header when its declarator-id's last component is.
//!
//! Eligibility is read from the declaration's syntax (specifiers, context,
//! initializer); what needs types — the linkage name, whether a variable's
//! type is const, whether its default initialization runs code — is asked of
//! the semantic model (`hir`) for the entity whose declarator name starts at
//! that offset. A name the model cannot give is no name: the id falls back.

use cufront_cuda::decl;
use cufront_cuda::spaces::declarators;
use cufront_cuda::walk::{self, Ctx};
use cufront_hir::Entity;

pub use crate::Sema;
use cufront_syntax::source_map::SourceMap;
use cufront_syntax::{SyntaxKind as K, SyntaxNode};

fn keywords(specs: Option<&SyntaxNode>, kinds: &[K]) -> bool {
    decl::has_keyword(specs, kinds)
}

const INLINE: &[K] = &[K::INLINE_KW, K::INLINE2_KW, K::INLINE3_KW];

/// What a declarator is for the key.
enum Candidate {
    /// Not eligible.
    No,
    /// The eligible entity.
    Entity(Entity),
    /// Eligible by its syntax, but the semantic model declares nothing there.
    Unnamed,
}

/// Whether a declarator is eligible as the key, and its entity if so.
fn candidate(sema: Sema<'_>, node: &SyntaxNode, specs: Option<&SyntaxNode>, d: &SyntaxNode, ctx: &Ctx) -> Candidate {
    if ineligible(node, specs, d, ctx) {
        return Candidate::No;
    }
    let entity = sema.entity(d);
    if decl::function_declarator(d).is_some() {
        return entity.map_or(Candidate::Unnamed, Candidate::Entity);
    }
    let Some(Entity::Var(var)) = entity else {
        return Candidate::No;
    };
    let init = d.parent().is_some_and(|i| {
        i.kind() == K::INIT_DECLARATOR
            && i.children().any(|c| matches!(c.kind(), K::EQUAL_INITIALIZER | K::INITIALIZER | K::INIT_LIST))
    });
    // A definition without an initializer counts when its default
    // initialization calls a non-trivial constructor or registers a
    // non-trivial destructor (`Image img;`): EDG gives it an initializer
    // then (found by differential testing).
    if !init
        && (keywords(specs, &[K::EXTERN_KW])
            || cufront_hir::instances::default_init_runs_code(sema.db, var) != Some(true))
    {
        return Candidate::No;
    }
    // Namespace-scope const without `extern` has internal linkage.
    if !keywords(specs, &[K::EXTERN_KW]) && cufront_hir::symbols::var_is_const(sema.db, var) != Some(false) {
        return Candidate::No;
    }
    Candidate::Entity(Entity::Var(var))
}

/// Whether a declarator is not eligible as the key by its syntax alone.
fn ineligible(node: &SyntaxNode, specs: Option<&SyntaxNode>, d: &SyntaxNode, ctx: &Ctx) -> bool {
    if ctx.templated || ctx.specialization || ctx.instantiation || ctx.member || ctx.in_anonymous_namespace() {
        return true;
    }
    if keywords(specs, &[K::STATIC_KW, K::TYPEDEF_KW, K::CONSTEXPR_KW, K::CONSTEVAL_KW, K::FRIEND_KW])
        || keywords(specs, INLINE)
    {
        return true;
    }
    let Some(name) = decl::name_node(d) else {
        return true;
    };
    if name.descendants().any(|n| n.kind() == K::TEMPLATE_ID) && decl::function_declarator(d).is_some() {
        return true;
    }
    match decl::function_declarator(d) {
        Some(f) => {
            if node.kind() != K::FUNCTION_DEF {
                return true;
            }
            if node.children().any(|c| c.kind() == K::DELETED_BODY) {
                return true;
            }
            let trailing = f.children().any(|c| c.kind() == K::TRAILING_RETURN_TYPE);
            let auto = keywords(specs, &[K::AUTO_KW])
                || specs.is_some_and(|s| {
                    s.children().any(|c| {
                        c.kind() == K::DECLTYPE_SPECIFIER && c.text().to_string().replace(' ', "") == "decltype(auto)"
                    })
                });
            auto && !trailing
        }
        // Variables: a simple declaration that is not `auto`; the rest needs
        // types (`candidate`).
        None => node.kind() != K::SIMPLE_DECL || keywords(specs, &[K::AUTO_KW]),
    }
}

/// The key of the module id: the linkage name of the first eligible
/// definition outside system headers, or `None` when there is none.
/// `Err` when the first eligible entity cannot be named (yet).
///
/// With `--device-c`, cudafe++ fixes the id when host code first names an
/// entity whose host-reference entry carries the id (`__nv_static_<id>_`:
/// static or anonymous-namespace kernels and device variables, any
/// template kernel); an eligible definition must start before that point,
/// else the id is the fallback (found by differential testing, spec 30 §4.2).
pub fn module_key(
    root: &SyntaxNode,
    map: &SourceMap,
    device_c: bool,
    sema: Sema<'_>,
) -> Option<Result<String, cufront_hir::SemaError>> {
    let limit =
        if device_c { crate::host::refs::Refs::build(root, sema).first_internal_host_ref(root, sema) } else { None };
    let (db, tu) = (sema.db, sema.tu);
    let items = &cufront_hir::top_level_items(db, tu).items;
    for (&item, &(start, end)) in items.iter().zip(cufront_hir::locate::item_ranges(db, tu)) {
        // Top-level declarations wholly inside system headers hold no
        // candidate: not entered (most of a unit's text).
        if map.all_system(start, end) {
            continue;
        }
        let limit = match limit {
            Some(l) if l < start => return None,
            l => l.map(|l| l - start),
        };
        match item_key(db, ItemKeyArgs::new(db, item, map.system_spans(start, end), limit)) {
            ItemKey::Found(key) => return Some(key.clone()),
            ItemKey::TooLate => return None,
            ItemKey::None => {}
        }
    }
    None
}

/// One item's part of the key: the item, the parts of it in system headers
/// and the `--device-c` limit (relative to the item's start).
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
struct ItemKeyArgs {
    #[returns(copy)]
    item: cufront_hir::ItemId,
    #[returns(ref)]
    system: Vec<(u32, u32)>,
    #[returns(copy)]
    limit: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ItemKey {
    /// The first eligible definition of the item (or why it has no name).
    Found(Result<String, cufront_hir::SemaError>),
    /// A definition starts after the limit first.
    TooLate,
    None,
}

/// The key as one item gives it (equal after an edit in another item).
#[salsa::tracked(returns(ref))]
fn item_key(db: &dyn cufront_base_db::SourceDatabase, args: ItemKeyArgs) -> ItemKey {
    let item = args.item(db);
    let Some(src) = cufront_hir::item_source(db, item) else {
        return ItemKey::None;
    };
    let sema = Sema::new(db, item.tu(db)).of_item(item);
    let system = args.system(db);
    let in_system = |at: u32| {
        let i = system.partition_point(|&(s, _)| s <= at);
        i > 0 && at < system[i - 1].1
    };
    let limit = args.limit(db);
    let mut out = ItemKey::None;
    walk::walk_top_level(&SyntaxNode::new_root(src.green.clone()), &mut |node, ctx| {
        if out != ItemKey::None || !matches!(node.kind(), K::FUNCTION_DEF | K::SIMPLE_DECL) {
            return;
        }
        if limit.is_some_and(|l| u32::from(node.text_range().start()) > l) {
            out = ItemKey::TooLate;
            return;
        }
        for (specs, d) in declarators(node) {
            // A system header's entity is one whose name is there, however
            // the declaration starts (`HD int f()` with `HD` from a user
            // header, spec 30 §4.2).
            if decl::name_start(&d).is_none_or(|at| in_system(at.into())) {
                continue;
            }
            match candidate(sema, node, specs.as_ref(), &d, ctx) {
                Candidate::No => {}
                Candidate::Entity(e) => {
                    out = ItemKey::Found(cufront_hir::symbols::source_linkage_name(sema.db, e));
                    return;
                }
                Candidate::Unnamed => {
                    out =
                        ItemKey::Found(Err(cufront_hir::SemaError::gap("the semantic model declares no entity here")));
                    return;
                }
            }
        }
    });
    out
}
