//! The declarations of a unit, per top-level item, with their CUDA meaning.
//!
//! `item_decls(item)` walks one top-level item (bodies excluded, as
//! `cufront_cuda::walk` does) and lists what it declares: namespaces,
//! classes, enums and enumerators, functions, variables, fields, typedefs
//! and concepts, each with its name range, its enclosing scopes and its own
//! CUDA attributes. Ranges are relative to the item, so an edit elsewhere
//! (or inside a body: bodies are not read) leaves the result equal and
//! salsa cuts off everything built on it.
//!
//! `unit_spaces(tu)` merges function attributes over redeclarations
//! (spec 20 §3.1: an attribute on any declaration applies to all), keyed by
//! `cufront_cuda::spaces::function_key`; `name_index(tu)` finds declarations
//! by name.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_cuda::{Ctx, CudaAttrs, ExecSpace, MemSpace, Seg, attrs, decl, spaces, walk};
use cufront_hir::ItemId;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextRange, TextSize};
use rustc_hash::FxHashMap;

/// What a declaration declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclKind {
    Namespace,
    Class,
    Struct,
    Union,
    Enum,
    Enumerator,
    Function,
    Variable,
    Field,
    Typedef,
    Concept,
}

/// One declaration of a top-level item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    pub name: String,
    pub kind: DeclKind,
    /// Enclosing namespaces and classes, outermost first (`""` for an
    /// anonymous namespace), plus the qualifiers of an out-of-line name.
    pub scope: Vec<String>,
    /// The name, relative to the item.
    pub name_range: TextRange,
    /// The whole declaration (body included), relative to the item.
    pub full_range: TextRange,
    /// The attributes on this declaration only.
    pub attrs: CudaAttrs,
    /// Functions: the redeclaration key (`unit_spaces`).
    pub fn_key: Option<String>,
    pub constexpr: bool,
    pub templated: bool,
    /// A function with a body, a class with members, a variable that is not `extern`.
    pub definition: bool,
    /// Directly in a class.
    pub member: bool,
    /// The declaration as written up to its body or initializer, blanks
    /// collapsed, CUDA attributes spelled as the CUDA keywords.
    pub signature: String,
}

impl Decl {
    pub fn qualified_name(&self) -> String {
        let mut s = String::new();
        for p in &self.scope {
            s.push_str(if p.is_empty() { "(anonymous namespace)" } else { p });
            s.push_str("::");
        }
        s.push_str(&self.name);
        s
    }
    pub fn is_function(&self) -> bool {
        self.kind == DeclKind::Function
    }
    pub fn mem_space(&self) -> Option<MemSpace> {
        matches!(self.kind, DeclKind::Variable | DeclKind::Field).then(|| MemSpace::from_attrs(&self.attrs))
    }
}

/// The declarations of one top-level item, in source order.
#[salsa::tracked(returns(clone))]
pub fn item_decls(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<Decl>> {
    let Some(src) = cufront_hir::item_source(db, item) else {
        return Arc::default();
    };
    let node = SyntaxNode::new_root(src.green.clone());
    Arc::new(decls_of(&node))
}

/// Walks an item (whose root is the item node itself).
pub fn decls_of(item: &SyntaxNode) -> Vec<Decl> {
    // `walk` visits the children of a root: give it a root that holds the item.
    let kind = rowan::SyntaxKind(K::SOURCE_FILE as u16);
    let wrapper = rowan::GreenNode::new(kind, [rowan::NodeOrToken::Node(item.green().into_owned())]);
    let root = SyntaxNode::new_root(wrapper);
    let mut out = Vec::new();
    walk::walk(&root, &mut |node, ctx| collect(node, ctx, &mut out));
    out
}

fn scope_names(ctx: &Ctx) -> Vec<String> {
    ctx.scope
        .iter()
        .map(|s| match s {
            Seg::Namespace { name, .. } => name.clone().unwrap_or_default(),
            Seg::Class(n) => n.clone(),
        })
        .collect()
}

fn collect(node: &SyntaxNode, ctx: &Ctx, out: &mut Vec<Decl>) {
    let scope = scope_names(ctx);
    let base = |name: String, kind, name_range, full: &SyntaxNode| Decl {
        name,
        kind,
        scope: scope.clone(),
        name_range,
        full_range: full.text_range(),
        attrs: CudaAttrs::default(),
        fn_key: None,
        constexpr: false,
        templated: ctx.templated,
        definition: true,
        member: ctx.member,
        signature: String::new(),
    };
    match node.kind() {
        K::NAMESPACE_DEF => {
            for n in node.children().filter(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME)) {
                for t in idents(&n) {
                    let mut d = base(t.text().to_string(), DeclKind::Namespace, t.text_range(), node);
                    d.signature = format!("namespace {}", t.text());
                    out.push(d);
                }
            }
        }
        K::SIMPLE_DECL | K::FUNCTION_DEF | K::FRIEND_DECL | K::MEMBER_DECL => {
            let specs = node.children().find(|c| c.kind() == K::DECL_SPECIFIERS);
            if let Some(specs) = &specs {
                for s in specs.children() {
                    match s.kind() {
                        K::CLASS_SPECIFIER => class_decl(&s, &scope, ctx, out),
                        K::ENUM_SPECIFIER => enum_decl(&s, &scope, ctx, out),
                        _ => {}
                    }
                }
            }
            let is_typedef = decl::has_keyword(specs.as_ref(), &[K::TYPEDEF_KW]);
            let constexpr = decl::has_keyword(specs.as_ref(), &[K::CONSTEXPR_KW, K::CONSTEVAL_KW]);
            let is_extern = decl::has_keyword(specs.as_ref(), &[K::EXTERN_KW]);
            for (specs, declarator) in spaces::declarators(node) {
                let Some(name) = decl::name_node(&declarator) else {
                    continue;
                };
                let Some(tok) = last_ident(&name) else {
                    continue;
                };
                let (quals, last) = spaces::name_parts(&name);
                let func = decl::function_declarator(&declarator).is_some();
                let kind = if is_typedef {
                    DeclKind::Typedef
                } else if func {
                    DeclKind::Function
                } else if ctx.member {
                    DeclKind::Field
                } else {
                    DeclKind::Variable
                };
                let mut a = attrs::of_declaration(specs.as_ref(), Some(&declarator));
                for g in node.children().filter(|c| c.kind() == K::GNU_ATTRIBUTE) {
                    attrs::add_gnu_attribute(&mut a, &g);
                }
                let mut d = base(last, kind, tok.text_range(), node);
                d.scope.extend(quals);
                d.attrs = a;
                d.constexpr = constexpr;
                d.fn_key = if func { spaces::function_key(&declarator, ctx) } else { None };
                d.definition = match kind {
                    DeclKind::Function => node.kind() == K::FUNCTION_DEF,
                    DeclKind::Variable => !is_extern,
                    _ => true,
                };
                d.signature = signature(node, specs.as_ref(), &declarator);
                if node.kind() == K::SIMPLE_DECL {
                    // One declaration may declare several names: each is its own.
                    let init =
                        declarator.parent().filter(|p| p.kind() == K::INIT_DECLARATOR).unwrap_or(declarator.clone());
                    let start = specs.as_ref().map_or(init.text_range().start(), |s| s.text_range().start());
                    d.full_range = TextRange::new(start.min(init.text_range().start()), init.text_range().end());
                }
                out.push(d);
            }
        }
        K::ALIAS_DECL => {
            if let Some(tok) = node.children().find(|c| c.kind() == K::NAME).and_then(|n| last_ident(&n)) {
                let mut d = base(tok.text().to_string(), DeclKind::Typedef, tok.text_range(), node);
                d.signature = compact(node);
                out.push(d);
            }
        }
        K::CONCEPT_DEF => {
            if let Some(tok) = node.children().find(|c| c.kind() == K::NAME).and_then(|n| last_ident(&n)) {
                let mut d = base(tok.text().to_string(), DeclKind::Concept, tok.text_range(), node);
                d.signature = compact(node);
                out.push(d);
            }
        }
        _ => {}
    }
}

fn class_decl(class: &SyntaxNode, scope: &[String], ctx: &Ctx, out: &mut Vec<Decl>) {
    let name = class.children().find(|c| c.kind() == K::NAME).or_else(|| {
        class.children().find(|c| c.kind() == K::CLASS_HEAD).and_then(|h| h.children().find(|c| c.kind() == K::NAME))
    });
    let Some(tok) = name.as_ref().and_then(last_ident) else {
        return;
    };
    let key = class.children_with_tokens().find_map(|t| match t.kind() {
        K::STRUCT_KW => Some(DeclKind::Struct),
        K::UNION_KW => Some(DeclKind::Union),
        K::CLASS_KW => Some(DeclKind::Class),
        _ => None,
    });
    let members = class.children().find(|c| c.kind() == K::MEMBER_LIST);
    let head_end = members.as_ref().map_or(class.text_range().end(), |m| m.text_range().start());
    let head = text_between(class, class.text_range().start(), head_end);
    out.push(Decl {
        name: tok.text().to_string(),
        kind: key.unwrap_or(DeclKind::Class),
        scope: scope.to_vec(),
        name_range: tok.text_range(),
        full_range: class.text_range(),
        attrs: attrs::of_class(class),
        fn_key: None,
        constexpr: false,
        templated: ctx.templated,
        definition: members.is_some(),
        member: ctx.member,
        signature: cuda_spelling(&head),
    });
}

fn enum_decl(e: &SyntaxNode, scope: &[String], ctx: &Ctx, out: &mut Vec<Decl>) {
    let name = e.children().find(|c| c.kind() == K::NAME).and_then(|n| last_ident(&n));
    let list = e.children().find(|c| c.kind() == K::ENUMERATOR_LIST);
    let mut inner = scope.to_vec();
    if let Some(tok) = &name {
        let head_end = list.as_ref().map_or(e.text_range().end(), |l| l.text_range().start());
        out.push(Decl {
            name: tok.text().to_string(),
            kind: DeclKind::Enum,
            scope: scope.to_vec(),
            name_range: tok.text_range(),
            full_range: e.text_range(),
            attrs: CudaAttrs::default(),
            fn_key: None,
            constexpr: false,
            templated: ctx.templated,
            definition: list.is_some(),
            member: ctx.member,
            signature: text_between(e, e.text_range().start(), head_end),
        });
        let scoped = e.children_with_tokens().any(|t| matches!(t.kind(), K::CLASS_KW | K::STRUCT_KW));
        if scoped {
            inner.push(tok.text().to_string());
        }
    }
    for en in list.iter().flat_map(|l| l.children()).filter(|c| c.kind() == K::ENUMERATOR) {
        let Some(tok) = en.descendants_with_tokens().filter_map(|t| t.into_token()).find(|t| t.kind() == K::IDENT)
        else {
            continue;
        };
        out.push(Decl {
            name: tok.text().to_string(),
            kind: DeclKind::Enumerator,
            scope: inner.clone(),
            name_range: tok.text_range(),
            full_range: en.text_range(),
            attrs: CudaAttrs::default(),
            fn_key: None,
            constexpr: true,
            templated: ctx.templated,
            definition: true,
            member: false,
            signature: compact(&en),
        });
    }
}

fn idents(n: &SyntaxNode) -> Vec<cufront_syntax::SyntaxToken> {
    n.descendants_with_tokens().filter_map(|t| t.into_token()).filter(|t| t.kind() == K::IDENT).collect()
}

/// The identifier a declarator-id ends with (`A<T>::f` → `f`); `None` for
/// operators and conversion functions, whose names are not one identifier.
fn last_ident(name: &SyntaxNode) -> Option<cufront_syntax::SyntaxToken> {
    // Template arguments of the last component are not its name.
    let mut last = None;
    for el in name.descendants_with_tokens() {
        if let Some(t) = el.as_token()
            && t.kind() == K::IDENT
            && !t.parent_ancestors().any(|a| {
                a.kind() == K::TEMPLATE_ARG_LIST && a.text_range().start() >= name.text_range().start() && a != *name
            })
        {
            last = Some(t.clone());
        }
    }
    let last = last?;
    // `operator+`, `~S`: the name node's own text, not an identifier.
    if last
        .parent_ancestors()
        .any(|a| matches!(a.kind(), K::OPERATOR_NAME | K::CONVERSION_NAME | K::LITERAL_OPERATOR_NAME))
    {
        return None;
    }
    Some(last)
}

/// The declaration up to its body or initializer.
fn signature(node: &SyntaxNode, specs: Option<&SyntaxNode>, declarator: &SyntaxNode) -> String {
    let start = specs.map_or(declarator.text_range().start(), |s| s.text_range().start());
    let mut text = String::new();
    if let Some(s) = specs {
        text.push_str(&compact(s));
        text.push(' ');
    }
    text.push_str(&compact(declarator));
    let _ = (node, start);
    cuda_spelling(&text)
}

/// The text of `node` between two offsets, compacted.
fn text_between(node: &SyntaxNode, start: TextSize, end: TextSize) -> String {
    let mut s = String::new();
    for t in node.descendants_with_tokens().filter_map(|e| e.into_token()) {
        let r = t.text_range();
        if r.start() >= start && r.end() <= end {
            push_token(&mut s, t.kind(), t.text());
        }
    }
    cuda_spelling(s.trim())
}

/// The text of a node, trivia collapsed to single spaces where needed.
pub fn compact(node: &SyntaxNode) -> String {
    let mut s = String::new();
    for t in node.descendants_with_tokens().filter_map(|e| e.into_token()) {
        push_token(&mut s, t.kind(), t.text());
    }
    s.trim().to_string()
}

fn push_token(s: &mut String, kind: K, text: &str) {
    if kind.is_trivia() {
        if !s.is_empty() && !s.ends_with(' ') {
            s.push(' ');
        }
        return;
    }
    s.push_str(text);
}

/// nvcc's headers spell CUDA keywords as GNU attributes: show them as the
/// user wrote them.
pub fn cuda_spelling(text: &str) -> String {
    let mut s = text.to_string();
    for (attr, kw) in [
        ("__attribute__((global))", "__global__"),
        ("__attribute__((device))", "__device__"),
        ("__attribute__((host))", "__host__"),
        ("__attribute__((shared))", "__shared__"),
        ("__attribute__((constant))", "__constant__"),
        ("__attribute__((managed))", "__managed__"),
        ("__attribute__((__global__))", "__global__"),
        ("__attribute__((__device__))", "__device__"),
        ("__attribute__((__host__))", "__host__"),
    ] {
        s = s.replace(attr, kw);
    }
    s
}

/// Merged attributes and constexpr-ness of every function some declaration
/// annotates, by redeclaration key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitSpaces {
    pub functions: FxHashMap<String, (CudaAttrs, bool)>,
}

#[salsa::tracked(returns(clone))]
pub fn unit_spaces(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<UnitSpaces> {
    let mut out = UnitSpaces::default();
    for &item in cufront_hir::item_ids(db, tu).iter() {
        for d in item_decls(db, item).iter() {
            let Some(key) = &d.fn_key else { continue };
            if d.attrs == CudaAttrs::default() && !d.constexpr {
                continue;
            }
            let slot = out.functions.entry(key.clone()).or_default();
            slot.0 = slot.0.merge(d.attrs);
            slot.1 |= d.constexpr;
        }
    }
    Arc::new(out)
}

/// Where a function runs, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpaceInfo {
    pub space: ExecSpace,
    /// Not written on any declaration: unannotated (host), or `constexpr`
    /// under `--expt-relaxed-constexpr` (host and device).
    pub implicit: bool,
    pub constexpr: bool,
}

/// The execution space of a function declaration, merged over its redeclarations.
pub fn exec_space(spaces: &UnitSpaces, d: &Decl, relaxed_constexpr: bool) -> SpaceInfo {
    let (attrs, constexpr) =
        d.fn_key.as_ref().and_then(|k| spaces.functions.get(k)).copied().unwrap_or((d.attrs, d.constexpr));
    let space = ExecSpace::from_attrs(&attrs);
    // Unannotated constexpr functions are host and device only with
    // --expt-relaxed-constexpr (spec 20 §6).
    if space == ExecSpace::ImplicitHost && constexpr && relaxed_constexpr {
        return SpaceInfo { space: ExecSpace::HostDevice, implicit: true, constexpr };
    }
    SpaceInfo { space, implicit: space == ExecSpace::ImplicitHost, constexpr }
}

/// Top-level items with their start offsets in the unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ItemStarts {
    pub list: Vec<(ItemId, u32)>,
    map: FxHashMap<ItemId, u32>,
}

impl ItemStarts {
    pub fn start_of(&self, item: ItemId) -> Option<u32> {
        self.map.get(&item).copied()
    }
}

#[salsa::tracked(returns(clone))]
pub fn item_starts(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<ItemStarts> {
    let parse = cufront_base_db::parse(db, tu);
    let items = cufront_hir::item_ids(db, tu);
    let starts = parse.syntax_node().children().map(|n| u32::from(n.text_range().start()));
    let list: Vec<(ItemId, u32)> = items.iter().copied().zip(starts).collect();
    let map = list.iter().copied().collect();
    Arc::new(ItemStarts { list, map })
}

/// The item holding `offset`, with its start.
pub fn item_at(starts: &ItemStarts, offset: u32) -> Option<(ItemId, u32)> {
    let starts = &starts.list;
    let i = match starts.binary_search_by(|(_, s)| s.cmp(&offset)) {
        Ok(i) => i,
        Err(0) => return None,
        Err(i) => i - 1,
    };
    starts.get(i).copied()
}

/// Declarations by name: (item, index into `item_decls`).
#[salsa::tracked(returns(clone))]
pub fn name_index(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<FxHashMap<String, Vec<(ItemId, u32)>>> {
    let mut out: FxHashMap<String, Vec<(ItemId, u32)>> = FxHashMap::default();
    for &item in cufront_hir::item_ids(db, tu).iter() {
        for (i, d) in item_decls(db, item).iter().enumerate() {
            out.entry(d.name.clone()).or_default().push((item, i as u32));
        }
    }
    Arc::new(out)
}
