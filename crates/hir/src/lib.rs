//! cufront-hir: the semantic model of a translation unit — items, scopes,
//! lookup, types, integral constant evaluation and class layout — as salsa
//! queries over `cufront-base-db`.
//!
//! Query graph (each arrow a salsa query; see `docs/architecture.md`):
//!
//! ```text
//! parse(tu) ──> top_level_items(tu)            ids + green node + #pragma pack state per top-level item
//!           ──> item_ids(tu)                   the ids alone (cut off after a body edit)
//!           ──> item_tree(item)                what one top-level item declares (plain data)
//!           ──> def_map(tu)                    the scope graph of the TU (all item trees)
//!           ──> typedef_ty / enum_info / var_value / class_info   (lowered on demand)
//!           ──> select(app) / inst_layout(inst)  class template specializations
//!           ──> layout(class)                  Itanium layout, EDG's deviations
//! ```
//!
//! Ids are interned (`ItemId` = unit + key of a top-level item, `ClassId` =
//! item + index into its item tree, `TyId` = interned `TyKind`), so they
//! survive edits that do not touch what they name. Nothing is computed for an
//! entity until someone asks.
//!
//! Invariants:
//! - The item tree never reads a function body and holds no offsets: editing
//!   a body re-runs `parse` and `top_level_items`, then stops (tested in
//!   `tests/incremental.rs`).
//! - Errors are values (`TyKind::Error`, `ConstError`, `LayoutError`); no
//!   input makes a query panic. They are typed (`error::SemaError`): SFINAE
//!   and every other decision branches on an error's kind (a substitution
//!   failure, a name not found, a limit, a gap of the model), never on its
//!   text. Cycles (a class containing itself, a
//!   self-referential constant) end in an error value through salsa's cycle
//!   fallback.
//! - No I/O, no global state.
//!
//! Class templates (`templates.rs`): template-ids are interned types
//! (`AppId`), `select` picks the specialization, and lowering inside an
//! instance substitutes through an `Env`; only what layout or lookup asks for
//! is instantiated.
//!
//! Functions and variables (`symbols.rs`): non-template functions (members,
//! ctors/dtors, operators, conversions) and variables are item-tree
//! entities (`FnData`, `VarData`, signatures as written); `mangled_name`
//! gives their host-side linkage names through `cufront-mangle`.
//!
//! Bodies (`body.rs`, `infer.rs`): `fn_body` lowers a definition (the
//! item's green tree; a lazy body parsed in place) into expression,
//! statement and local arenas; `infer` types it in the definition's scope
//! (through the instance's `Env`), resolves names and calls (overload
//! resolution, template argument deduction, implicit constructor and
//! destructor calls) and lists what it odr-uses (`required`), which the
//! instantiation closure follows.
//!
//! Instances (`instances.rs`): function templates, member templates and
//! variable templates are item-tree entities too; `FnInstanceId` /
//! `VarInstanceId` (declaration + outer specialization + own arguments) and
//! implicit special members are `Entity`s that `mangled_name` spells as
//! g++ does; `required_entities(tu)` is the instantiation closure over
//! `infer`'s `required`.
//!
//! Local classes (`local_classes.rs`): a class defined in a function body
//! is an item of its own, in a block scope of the function (`def_map`),
//! instantiated with the enclosing instance.
//!
//! Out of scope so far: declaration order (lookup sees the whole unit).

pub mod body;
pub mod consteval;
pub mod error;
pub mod exec_space;
mod guard;
pub mod infer;
pub mod instances;
pub mod item_tree;
pub mod lambda_wrappers;
pub mod layout;
pub mod local_classes;
pub mod local_uses;
pub mod locate;
pub mod scopes;
pub mod static_asserts;
pub mod symbols;
pub mod syntax_util;
pub mod templates;
mod templates_params;
pub mod ty;

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_syntax::{GreenNode, SyntaxKind as K, SyntaxNode};
use rustc_hash::FxHashMap;

pub use crate::error::{ErrorKind, SemaError};
pub use crate::item_tree::ItemTree;
pub use crate::layout::{Layout, LayoutError};
pub use crate::scopes::{Def, DefMap, ScopeIdx, def_map};
use crate::syntax_util::Pack;
pub use crate::ty::{TyId, TyKind};

/// A top-level item of a translation unit: identified by a hash of its
/// first tokens and its rank among the items with the same hash, so that
/// edits elsewhere keep its id.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct ItemId {
    #[returns(copy)]
    pub tu: TranslationUnit,
    #[returns(copy)]
    pub key: u64,
    #[returns(copy)]
    pub ordinal: u32,
}

macro_rules! local_ids {
    ($($(#[$m:meta])* $name:ident),*) => {$(
        $(#[$m])*
        #[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
        pub struct $name {
            #[returns(copy)]
            pub item: ItemId,
            /// Index into the arena of the item's tree.
            #[returns(copy)]
            pub idx: u32,
        }
    )*};
}

local_ids!(
    /// A class, struct or union (declaration or definition).
    ClassId,
    EnumId,
    /// A typedef or alias declaration.
    TypedefId,
    /// A variable at namespace scope or a static data member.
    VarId,
    /// A function (not a template), member or not.
    FnId,
    /// A function template or member function template.
    FnTemplateId,
    /// A variable template.
    VarTemplateId
);

/// A function or variable: what has a linkage name (`symbols::mangled_name`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, salsa::Supertype)]
pub enum Entity {
    Fn(FnId),
    Var(VarId),
    /// A function template specialization, or a member (template or not)
    /// of a class template specialization (`instances.rs`).
    FnInst(instances::FnInstanceId),
    /// A variable template specialization, or a static data member of a
    /// class template specialization.
    VarInst(instances::VarInstanceId),
    /// An implicitly declared special member function that g++ defines
    /// when used (`instances::implicit_special`).
    Special(instances::SpecialMemberId),
    /// A member function of a closure type (`infer/closure.rs`).
    Closure(infer::ClosureFnId),
    /// A static local variable (`instances/local.rs`).
    LocalStatic(instances::LocalStaticId),
    /// A function a kernel's host stub brings in (`instances::stub`): a
    /// kernel template's `__wrapper__device_stub_…`, `__cudaAddressOf<T>`.
    Stub(instances::stub::StubEntityId),
    /// A constructor a class inherits (`using B::B;`,
    /// `instances::inherited`).
    Inherited(instances::inherited::InheritedCtorId),
    /// A builtin function cicc's front end declares itself (`__nvvm_*`,
    /// `infer::IntrinsicId`): named in device code without a declaration.
    Intrinsic(infer::IntrinsicId),
}

/// The top-level items of a unit, in order, with their sources.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TopLevel {
    pub items: Vec<ItemId>,
    sources: FxHashMap<ItemId, ItemSource>,
}

/// What lowering one top-level item reads: its green tree (no offsets) and
/// the `#pragma pack` state before it.
#[derive(Clone, Debug, Eq)]
pub struct ItemSource {
    pub green: GreenNode,
    pub pack: Pack,
}

/// Unchanged items share their trees with the previous parse: compared
/// without walking what is shared (`green_eq`).
impl PartialEq for ItemSource {
    fn eq(&self, other: &ItemSource) -> bool {
        self.pack == other.pack && cufront_syntax::green_eq(&self.green, &other.green)
    }
}

/// Splits the tree of `tu` into top-level items. Re-runs on every edit; it
/// reads only the first tokens of each item.
#[salsa::tracked(returns(ref))]
pub fn top_level_items(db: &dyn SourceDatabase, tu: TranslationUnit) -> TopLevel {
    let parse = cufront_base_db::parse(db, tu);
    let root = parse.syntax_node();
    let text = tu.text(db);
    let pragmas = pack_pragmas(text);
    let mut next_pragma = 0;
    let mut pack = Pack::default();
    let mut seen: FxHashMap<u64, u32> = FxHashMap::default();
    let mut out = TopLevel::default();
    for node in root.children() {
        let start: usize = node.text_range().start().into();
        while next_pragma < pragmas.len() && pragmas[next_pragma].0 < start {
            pack.apply(pragmas[next_pragma].1);
            next_pragma += 1;
        }
        let key = item_key(&node);
        let ordinal = seen.entry(key).or_insert(0);
        let id = ItemId::new(db, tu, key, *ordinal);
        *ordinal += 1;
        out.items.push(id);
        out.sources.insert(id, ItemSource { green: node.green().into_owned(), pack: pack.clone() });
    }
    // Extended lambdas' wrapper templates (`lambda_wrappers`), after the unit's items.
    if let Some(model) = lambda_wrappers::unit_wrapper_parse(db, tu) {
        for node in model.syntax_node().children() {
            let key = item_key(&node);
            let ordinal = seen.entry(key).or_insert(0);
            let id = ItemId::new(db, tu, key, *ordinal);
            *ordinal += 1;
            out.items.push(id);
            out.sources.insert(id, ItemSource { green: node.green().into_owned(), pack: Pack::default() });
        }
    }
    out
}

/// `#pragma pack` lines of the text, with their offsets (they are trivia,
/// possibly inside items: the state before an item counts all of them).
fn pack_pragmas(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("pragma") {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line = &text[line_start..line_end];
        if line.trim_start().starts_with('#') && line.contains("pack") {
            out.push((line_start, line));
        }
    }
    out.dedup_by_key(|(s, _)| *s);
    out
}

/// A hash of the first significant tokens of an item (its "head"), never
/// from a function body or initializer, so that body edits keep the id.
fn item_key(node: &SyntaxNode) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    node.kind().hash(&mut h);
    let mut taken = 0;
    let mut walk = node.preorder_with_tokens();
    while let Some(ev) = walk.next() {
        let rowan::WalkEvent::Enter(el) = ev else { continue };
        match el {
            rowan::NodeOrToken::Node(n) => {
                if matches!(n.kind(), K::FUNCTION_BODY | K::LAZY_BODY | K::CTOR_INITIALIZER | K::FUNCTION_TRY_BLOCK) {
                    walk.skip_subtree();
                }
            }
            rowan::NodeOrToken::Token(t) => {
                if !t.kind().is_trivia() {
                    t.text().hash(&mut h);
                    taken += 1;
                    if taken == 6 {
                        break;
                    }
                }
            }
        }
    }
    h.finish()
}

/// The ids of the top-level items (equal after a body edit: cuts off the
/// scope graph).
#[salsa::tracked(returns(clone))]
pub fn item_ids(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<[ItemId]> {
    top_level_items(db, tu).items.iter().copied().collect()
}

/// The source of one item (re-runs after every edit; equal sources cut off).
#[salsa::tracked(returns(ref))]
pub fn item_source(db: &dyn SourceDatabase, item: ItemId) -> Option<ItemSource> {
    if local_classes::is_local_item(db, item) {
        return local_classes::local_item_source(db, item);
    }
    top_level_items(db, item.tu(db)).sources.get(&item).cloned()
}

/// One item lowered once: its tree and the offsets of its declarations.
/// Every reader goes through `item_tree_of` or `item_offsets`, which split
/// the pair so that each cuts off on its own (an edit that only moves
/// declarations changes the offsets, not the tree); lowering is costly
/// enough that doing it once per item, not once per reader, matters.
#[salsa::tracked(returns(clone))]
fn item_lowered(db: &dyn SourceDatabase, item: ItemId) -> (Arc<ItemTree>, Arc<item_tree::Offsets>) {
    let Some(src) = item_source(db, item) else { return Default::default() };
    let lower = || {
        let (tree, offsets) = item_tree::lower_with_offsets(&SyntaxNode::new_root(src.green.clone()), src.pack.clone());
        (Arc::new(tree), Arc::new(offsets))
    };
    if local_classes::is_local_item(db, item) {
        let (mut tree, offsets) = lower();
        // The objects a local class's declaration declares are the
        // body's locals, not items.
        Arc::make_mut(&mut tree).top.retain(|i| !matches!(i, item_tree::Item::Var(_)));
        return (tree, offsets);
    }
    // A top-level item's tree is a function of its green and the pack state
    // alone: units that share the green (the database's pool) share it.
    let Some(pool) = db.green_pool() else { return lower() };
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        src.pack.hash(&mut h);
        h.finish()
    };
    let shared = pool.derived(&src.green, key, || {
        let (tree, offsets) = lower();
        Arc::new(SharedLowering { pack: src.pack.clone(), tree, offsets })
    });
    match shared.downcast_ref::<SharedLowering>() {
        Some(s) if s.pack == src.pack => (s.tree.clone(), s.offsets.clone()),
        // Another pack state with the same hash: not shared.
        _ => lower(),
    }
}

/// What the green pool keeps of a lowered top-level item.
struct SharedLowering {
    pack: Pack,
    tree: Arc<ItemTree>,
    offsets: Arc<item_tree::Offsets>,
}

/// What one top-level item declares.
#[salsa::tracked(returns(clone))]
pub fn item_tree_of(db: &dyn SourceDatabase, item: ItemId) -> Arc<ItemTree> {
    item_lowered(db, item).0
}

/// Where each function, variable, function template and default member
/// initializer of an item's tree is declared, relative to the item
/// (`item_tree::Offsets`; kept out of the tree).
#[salsa::tracked(returns(clone))]
pub fn item_offsets(db: &dyn SourceDatabase, item: ItemId) -> Arc<item_tree::Offsets> {
    item_lowered(db, item).1
}

impl ClassId {
    pub fn data(self, db: &dyn SourceDatabase) -> Arc<ItemTree> {
        item_tree_of(db, self.item(db))
    }
    pub fn tu(self, db: &dyn SourceDatabase) -> TranslationUnit {
        self.item(db).tu(db)
    }
}

#[cfg(test)]
mod tests;

/// The class a qualified name (`a::b::S`, typedef names included) denotes.
pub fn find_class(db: &dyn SourceDatabase, tu: TranslationUnit, name: &str) -> Option<ClassId> {
    let map = def_map(db, tu);
    let mut path = item_tree::Path::default();
    let name = match name.strip_prefix("::") {
        Some(n) => {
            path.global = true;
            n
        }
        None => name,
    };
    for seg in name.split("::") {
        path.segments.push(item_tree::PathSegment { name: seg.trim().to_string(), args: None });
    }
    match scopes::resolve_path(db, &map, scopes::ROOT, &path, scopes::Ns::Type)? {
        Def::Class(c) => Some(map.class_definition(c)),
        Def::Typedef(t) => match ty::canonical(db, ty::typedef_ty(db, t)).kind(db) {
            TyKind::Class(c) => Some(map.class_definition(*c)),
            _ => None,
        },
        _ => None,
    }
}

/// The type a type-id written as text denotes in the global scope of `tu`
/// (`std::pair<int, double>`, `unsigned long`, `const S*`): a small reader
/// for names, template-ids, builtin type words, cv, `*` and `&`.
pub fn type_named(db: &dyn SourceDatabase, tu: TranslationUnit, text: &str) -> Option<TyId> {
    let t = type_named_or_error(db, tu, text)?;
    match t.kind(db) {
        TyKind::Error(_) => None,
        _ => Some(t),
    }
}

/// Like `type_named`, but a type that fails to lower is returned as its
/// error value (for probes that want the reason); `None` only when the text
/// is not read as a type.
pub fn type_named_or_error(db: &dyn SourceDatabase, tu: TranslationUnit, text: &str) -> Option<TyId> {
    let toks = type_tokens(text);
    let mut pos = 0;
    let t = read_type(&toks, &mut pos)?;
    if pos != toks.len() {
        return None;
    }
    let map = def_map(db, tu);
    let item = *item_ids(db, tu).first()?;
    let cx = ty::LowerCx { db, map: &map, item, scope: scopes::ROOT, env: None };
    Some(ty::lower(cx, &t))
}

fn type_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    // Bytes, not chars: a byte of a multi-byte character continues a name
    // (extended identifiers), so no slice ends inside one.
    let name = |x: u8| x.is_ascii_alphanumeric() || x == b'_' || !x.is_ascii();
    while i < b.len() {
        let c = b[i] as char;
        if b[i].is_ascii_whitespace() {
            i += 1;
        } else if name(b[i]) {
            let s = i;
            while i < b.len() && name(b[i]) {
                i += 1;
            }
            out.push(text[s..i].to_string());
        } else if text[i..].starts_with("::") {
            out.push("::".into());
            i += 2;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

fn read_type(t: &[String], pos: &mut usize) -> Option<item_tree::TypeRef> {
    use item_tree::{Builtin as B, Cv, TypeRef};
    let mut cv = Cv::default();
    let mut words: Vec<&str> = Vec::new();
    let mut named = None;
    while let Some(w) = t.get(*pos) {
        match w.as_str() {
            "const" => cv.c = true,
            "volatile" => cv.v = true,
            "struct" | "class" | "union" | "enum" | "typename" => {}
            "unsigned" | "signed" | "int" | "long" | "short" | "char" | "bool" | "float" | "double" | "void"
            | "wchar_t" | "char16_t" | "char32_t" | "char8_t" | "__int128" => words.push(w.as_str()),
            _ if named.is_none()
                && words.is_empty()
                && (w == "::" || w.chars().next()?.is_alphabetic() || w.starts_with('_')) =>
            {
                named = Some(read_path(t, pos)?);
                continue;
            }
            _ => break,
        }
        *pos += 1;
    }
    let mut ty = match named {
        Some(p) => TypeRef::Path(p),
        None => {
            let has = |x: &str| words.contains(&x);
            let longs = words.iter().filter(|w| **w == "long").count();
            let u = has("unsigned");
            TypeRef::Builtin(if has("void") {
                B::Void
            } else if has("bool") {
                B::Bool
            } else if has("char") {
                if u {
                    B::UChar
                } else if has("signed") {
                    B::SChar
                } else {
                    B::Char
                }
            } else if has("wchar_t") {
                B::WChar
            } else if has("char16_t") {
                B::Char16
            } else if has("char32_t") {
                B::Char32
            } else if has("char8_t") {
                B::Char8
            } else if has("float") {
                B::Float
            } else if has("double") {
                if longs > 0 { B::LongDouble } else { B::Double }
            } else if has("__int128") {
                if u { B::UInt128 } else { B::Int128 }
            } else if has("short") {
                if u { B::UShort } else { B::Short }
            } else if longs >= 2 {
                if u { B::ULongLong } else { B::LongLong }
            } else if longs == 1 {
                if u { B::ULong } else { B::Long }
            } else if u {
                B::UInt
            } else if !words.is_empty() {
                B::Int
            } else {
                return None;
            })
        }
    };
    if !cv.is_empty() {
        ty = TypeRef::Cv(Box::new(ty), cv);
    }
    loop {
        match t.get(*pos).map(String::as_str) {
            Some("*") => ty = TypeRef::Ptr(Box::new(ty)),
            Some("&") => ty = TypeRef::LRef(Box::new(ty)),
            Some("const") => ty = TypeRef::Cv(Box::new(ty), Cv { c: true, v: false, r: false }),
            _ => break,
        }
        *pos += 1;
    }
    Some(ty)
}

fn read_path(t: &[String], pos: &mut usize) -> Option<item_tree::Path> {
    use item_tree::{ConstExpr, PathSegment, TemplateArgRef};
    let mut p = item_tree::Path::default();
    if t.get(*pos).map(String::as_str) == Some("::") {
        p.global = true;
        *pos += 1;
    }
    loop {
        let name = t.get(*pos)?.clone();
        *pos += 1;
        let mut seg = PathSegment { name, args: None };
        if t.get(*pos).map(String::as_str) == Some("<") {
            *pos += 1;
            let mut args = Vec::new();
            while t.get(*pos).map(String::as_str) != Some(">") {
                let w = t.get(*pos)?;
                let first = w.chars().next()?;
                if first.is_ascii_digit() || w == "-" || w == "(" || w == "true" || w == "false" {
                    // A value: digits, a sign, parentheses and casts, up to `,` or `>`.
                    let mut depth = 0;
                    let s = *pos;
                    while let Some(x) = t.get(*pos) {
                        match x.as_str() {
                            "(" => depth += 1,
                            ")" => depth -= 1,
                            "," | ">" if depth == 0 => break,
                            _ => {}
                        }
                        *pos += 1;
                    }
                    let text: Vec<&str> =
                        t[s..*pos].iter().map(String::as_str).filter(|x| *x != "(" && *x != ")").collect();
                    let e = match text.as_slice() {
                        ["true"] => ConstExpr::Int(1, item_tree::Builtin::Bool),
                        ["false"] => ConstExpr::Int(0, item_tree::Builtin::Bool),
                        ["-", n] => ConstExpr::Unary(item_tree::UnOp::Neg, Box::new(syntax_util::int_literal(n)?)),
                        [n] => syntax_util::int_literal(n)?,
                        [.., n] => syntax_util::int_literal(n)?,
                        [] => return None,
                    };
                    args.push(TemplateArgRef::Expr(e));
                } else {
                    args.push(TemplateArgRef::Type(read_type(t, pos)?));
                }
                if t.get(*pos).map(String::as_str) == Some(",") {
                    *pos += 1;
                }
            }
            *pos += 1;
            seg.args = Some(args);
        }
        p.segments.push(seg);
        if t.get(*pos).map(String::as_str) == Some("::") {
            *pos += 1;
        } else {
            break;
        }
    }
    Some(p)
}
