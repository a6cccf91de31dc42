//! A light item index for mangling: the namespaces, classes, enums and
//! typedefs a unit declares at namespace and class scope, and the types that
//! declarations spell, resolved through them.
//!
//! This is the part of `hir` the module id needs (spec 50 §8): names are
//! looked up as C++ does for the common cases (enclosing scopes, inline
//! namespaces, using-directives, anonymous namespaces); what it cannot
//! resolve becomes [`Ty::Unknown`] and mangling reports it instead of guessing.

use cufront_cuda::decl::{self, Deriv};
use cufront_cuda::walk::{self, Seg};
use cufront_syntax::{SyntaxKind as K, SyntaxNode};
use rustc_hash::{FxHashMap, FxHashSet};

mod consts;
mod lazy;

pub use lazy::LazyItems;

/// A scope as a path of names (`{anon}` for an anonymous namespace).
pub type ScopeKey = Vec<String>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SegKind {
    Namespace,
    AnonNamespace,
    Class,
    Enum,
}

/// One component of a qualified entity name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathSeg {
    pub name: String,
    pub kind: SegKind,
    /// Template arguments of a class template specialization.
    pub args: Option<Vec<TArg>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TArg {
    Type(Ty),
    /// An integral or enumeration constant: its type (a builtin or an
    /// enum) and value in Itanium's spelling (`-1` is `n1`).
    Int(Ty, String),
    /// The arguments of a template parameter pack.
    Pack(Vec<TArg>),
}

/// A C++ type as far as mangling needs it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A builtin type, by its mangled code (`i`, `Dn`, `DF16_`).
    Builtin(&'static str),
    Named(Vec<PathSeg>),
    Ptr(Box<Ty>),
    LRef(Box<Ty>),
    RRef(Box<Ty>),
    /// restrict, volatile, const.
    Cv {
        r: bool,
        v: bool,
        c: bool,
        inner: Box<Ty>,
    },
    /// Extent as decimal text; `None` for `[]`.
    Array(Option<String>, Box<Ty>),
    Func(Box<FnTy>),
    MemPtr(Box<Ty>, Box<Ty>),
    /// Something the index cannot resolve (a template parameter, `decltype`,
    /// a non-literal array bound...); the text says what.
    Unknown(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnTy {
    pub ret: Ty,
    pub params: Vec<Ty>,
    pub variadic: bool,
    /// cv-qualifiers of a member function: (restrict, volatile, const).
    pub cv: (bool, bool, bool),
    /// `&` = 1, `&&` = 2.
    pub ref_qual: u8,
    pub noexcept: bool,
}

impl Ty {
    pub fn cv(self, r: bool, v: bool, c: bool) -> Ty {
        if !(r || v || c) {
            return self;
        }
        match self {
            Ty::Cv {
                r: r0,
                v: v0,
                c: c0,
                inner,
            } => Ty::Cv {
                r: r || r0,
                v: v || v0,
                c: c || c0,
                inner,
            },
            // cv on an array applies to its elements.
            Ty::Array(n, e) => Ty::Array(n, Box::new(e.cv(r, v, c))),
            t => Ty::Cv {
                r,
                v,
                c,
                inner: Box::new(t),
            },
        }
    }
    /// The first unresolved part, if any.
    pub fn unknown(&self) -> Option<&str> {
        match self {
            Ty::Unknown(s) => Some(s),
            Ty::Builtin(_) => None,
            Ty::Named(p) => p
                .iter()
                .flat_map(|s| s.args.iter().flatten())
                .find_map(TArg::unknown),
            Ty::Ptr(t) | Ty::LRef(t) | Ty::RRef(t) | Ty::Array(_, t) => t.unknown(),
            Ty::Cv { inner, .. } => inner.unknown(),
            Ty::MemPtr(a, b) => a.unknown().or_else(|| b.unknown()),
            Ty::Func(f) => f
                .ret
                .unknown()
                .or_else(|| f.params.iter().find_map(|p| p.unknown())),
        }
    }
    /// The type of a parameter after adjustment: arrays and functions decay,
    /// top-level cv-qualifiers go.
    pub fn param_adjusted(self) -> Ty {
        match self {
            Ty::Array(_, e) => Ty::Ptr(e),
            Ty::Func(f) => Ty::Ptr(Box::new(Ty::Func(f))),
            Ty::Cv { inner, .. } => inner.param_adjusted_no_cv(),
            t => t,
        }
    }
    fn param_adjusted_no_cv(self) -> Ty {
        match self {
            Ty::Array(_, e) => Ty::Ptr(e),
            t => t,
        }
    }
}

impl TArg {
    /// The first unresolved part, if any.
    pub fn unknown(&self) -> Option<&str> {
        match self {
            TArg::Type(t) | TArg::Int(t, _) => t.unknown(),
            TArg::Pack(v) => v.iter().find_map(TArg::unknown),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Entity {
    Namespace {
        inline: bool,
    },
    Type(SegKind),
    Typedef(Ty),
    /// A named constant the evaluator can read.
    Value(consts::Value),
}

/// What the unit declares, by scope.
#[derive(Clone, Debug, Default)]
pub struct Items {
    entities: FxHashMap<(ScopeKey, String), Entity>,
    /// using-directives (and the implicit ones of anonymous and inline namespaces).
    usings: FxHashMap<ScopeKey, Vec<ScopeKey>>,
    /// Template parameter lists of class templates, defaults merged over
    /// redeclarations.
    templates: FxHashMap<(ScopeKey, String), Vec<consts::TParamDecl>>,
    /// Template parameters bound while a default argument is resolved.
    bindings: std::cell::RefCell<Vec<FxHashMap<String, TArg>>>,
    /// Only entities with these names are indexed (`None`: all); namespaces
    /// and using-directives always are. See [`LazyItems`].
    only: Option<FxHashSet<String>>,
    /// The names read (looked up, or a scope component's kind asked for)
    /// since recording started: what a result of an index built with
    /// `only` depends on.
    consulted: std::cell::RefCell<Option<FxHashSet<String>>>,
}

pub fn scope_key(scope: &[Seg]) -> ScopeKey {
    scope
        .iter()
        .map(|s| match s {
            Seg::Namespace { name: Some(n), .. } | Seg::Class(n) => n.clone(),
            Seg::Namespace { name: None, .. } => "{anon}".to_string(),
        })
        .collect()
}

impl Items {
    /// Indexes `root` in source order (a typedef is resolved where it is declared).
    pub fn build(root: &SyntaxNode) -> Items {
        let mut items = Items::default();
        walk::walk(root, &mut |node, ctx| items.add(node, &scope_key(&ctx.scope), ctx.templated));
        items
    }

    /// Is an entity named `name` indexed?
    fn wants(&self, name: &str) -> bool {
        self.only.as_ref().is_none_or(|w| w.contains(name))
    }

    /// Notes that a result depends on the entities named `name`.
    fn consult(&self, name: &str) {
        if let Some(c) = self.consulted.borrow_mut().as_mut()
            && !c.contains(name)
        {
            c.insert(name.to_string());
        }
    }

    /// Adds what the declaration `node` (in `scope`, inside a template if
    /// `templated`) declares. With `only`, entities with other names are left
    /// out before their types are resolved; what is added is what a full
    /// index has for those names, as long as every name it reads is wanted too.
    fn add(&mut self, node: &SyntaxNode, scope: &ScopeKey, templated: bool) {
        let scope = scope.clone();
        match node.kind() {
            K::NAMESPACE_DEF => {
                let inline = node
                    .children_with_tokens()
                    .any(|t| t.kind() == K::INLINE_KW);
                // `namespace a::b {` has one NAME per component.
                let names: Vec<String> = node
                    .children()
                    .filter(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME))
                    .flat_map(|n| walk::identifiers(&n))
                    .collect();
                let mut s = scope.clone();
                if names.is_empty() {
                    let mut inner = s.clone();
                    inner.push("{anon}".into());
                    self.entities.insert(
                        (s.clone(), "{anon}".into()),
                        Entity::Namespace { inline: true },
                    );
                    self.add_using(s.clone(), inner);
                }
                for n in names {
                    self.entities
                        .entry((s.clone(), n.clone()))
                        .or_insert(Entity::Namespace { inline });
                    let mut inner = s.clone();
                    inner.push(n);
                    if inline {
                        self.add_using(s.clone(), inner.clone());
                    }
                    s = inner;
                }
            }
            K::USING_DIRECTIVE => {
                let names = walk::identifiers(node);
                if let Some(target) = self.resolve_scope(&scope, &names) {
                    self.add_using(scope, target);
                }
            }
            K::ALIAS_DECL => {
                let name = node
                    .children()
                    .find(|c| c.kind() == K::NAME)
                    .and_then(|n| walk::last_component(&n));
                if name.as_ref().is_none_or(|n| !self.wants(n)) {
                    return;
                }
                let ty = node
                    .children()
                    .find(|c| c.kind() == K::TYPE_ID)
                    .map(|t| self.type_id(&t, &scope));
                if let (Some(n), Some(t)) = (name, ty) {
                    if !templated {
                        self.entities.insert((scope, n), Entity::Typedef(t));
                    }
                }
            }
            K::SIMPLE_DECL | K::FUNCTION_DEF => {
                let Some(specs) = node.children().find(|c| c.kind() == K::DECL_SPECIFIERS) else {
                    return;
                };
                self.add_template(node, &specs, &scope);
                self.add_values(node, &specs, &scope, templated);
                for c in specs.children() {
                    let kind = match c.kind() {
                        K::CLASS_SPECIFIER => SegKind::Class,
                        K::ENUM_SPECIFIER => SegKind::Enum,
                        K::ELABORATED_TYPE_SPECIFIER => {
                            // `struct S;` or `struct S *p;` declares S here if it is new.
                            if let Some(n) = walk::last_component(&c)
                                && self.wants(&n)
                            {
                                let is_enum =
                                    c.children_with_tokens().any(|t| t.kind() == K::ENUM_KW);
                                if self.lookup(&scope, &n).is_none()
                                    && !c.children().any(|n| n.kind() == K::QUALIFIED_NAME)
                                {
                                    let k = if is_enum {
                                        SegKind::Enum
                                    } else {
                                        SegKind::Class
                                    };
                                    self.entities.insert((scope.clone(), n), Entity::Type(k));
                                }
                            }
                            continue;
                        }
                        _ => continue,
                    };
                    let name = match kind {
                        SegKind::Class => walk::class_name(&c),
                        _ => c
                            .children()
                            .find(|n| n.kind() == K::NAME)
                            .and_then(|n| walk::last_component(&n)),
                    };
                    if let Some(n) = name
                        && self.wants(&n)
                    {
                        self.entities.insert((scope.clone(), n), Entity::Type(kind));
                    }
                }
                if decl::has_keyword(Some(&specs), &[K::TYPEDEF_KW]) && !templated {
                    let mut base = None;
                    for (_, d) in cufront_cuda::spaces::declarators(node) {
                        let Some(name) = decl::name_node(&d).and_then(|n| walk::last_component(&n))
                        else {
                            continue;
                        };
                        if !self.wants(&name) {
                            continue;
                        }
                        let base = base.get_or_insert_with(|| self.specifier_type(&specs, &scope)).clone();
                        let ty = self.declarator_type(base, &d, &scope);
                        // `typedef struct {...} S;` names the class S for linkage.
                        let ty = match (
                            &ty,
                            specs.children().find(|c| {
                                c.kind() == K::CLASS_SPECIFIER || c.kind() == K::ENUM_SPECIFIER
                            }),
                        ) {
                            (Ty::Unknown(_), Some(_)) => {
                                Ty::Named(self.path_of(&scope, &name, SegKind::Class))
                            }
                            _ => ty,
                        };
                        self.entities
                            .insert((scope.clone(), name), Entity::Typedef(ty));
                    }
                }
            }
            _ => {}
        }
    }

    fn add_using(&mut self, from: ScopeKey, to: ScopeKey) {
        let v = self.usings.entry(from).or_default();
        if !v.contains(&to) {
            v.push(to);
        }
    }

    /// Finds `name` visible from `scope`: the scope itself (and what it
    /// nominates), then each enclosing scope. Returns the scope it lives in.
    fn lookup(&self, scope: &ScopeKey, name: &str) -> Option<(ScopeKey, Entity)> {
        let mut s = scope.clone();
        loop {
            if let Some(hit) = self.lookup_in(&s, name, 0) {
                return Some(hit);
            }
            if s.pop().is_none() {
                return None;
            }
        }
    }

    /// The scope where `name`, looked up from `from`, is declared.
    pub fn scope_of(&self, from: &ScopeKey, name: &str) -> Option<ScopeKey> {
        self.lookup(from, name).map(|(s, _)| s)
    }

    /// Qualified lookup in one scope, through inline namespaces and using-directives.
    fn lookup_in(&self, scope: &ScopeKey, name: &str, depth: u32) -> Option<(ScopeKey, Entity)> {
        self.consult(name);
        if let Some(e) = self.entities.get(&(scope.clone(), name.to_string())) {
            return Some((scope.clone(), e.clone()));
        }
        if depth > 8 {
            return None;
        }
        for u in self.usings.get(scope).into_iter().flatten() {
            if let Some(hit) = self.lookup_in(u, name, depth + 1) {
                return Some(hit);
            }
        }
        None
    }

    /// The scope a nested-name-specifier names (`a::b` from `scope`).
    fn resolve_scope(&self, scope: &ScopeKey, names: &[String]) -> Option<ScopeKey> {
        let (first, rest) = names.split_first()?;
        let (mut s, e) = self.lookup(scope, first)?;
        if matches!(e, Entity::Typedef(_) | Entity::Value(_)) {
            return None;
        }
        s.push(first.clone());
        for n in rest {
            let (mut found, _) = self.lookup_in(&s, n, 0)?;
            found.push(n.clone());
            s = found;
        }
        Some(s)
    }

    /// The path of entity `name` declared in `scope`.
    pub fn path_of(&self, scope: &ScopeKey, name: &str, kind: SegKind) -> Vec<PathSeg> {
        let mut out = Vec::new();
        for i in 0..scope.len() {
            let parent = scope[..i].to_vec();
            let n = &scope[i];
            let k = if n == "{anon}" {
                SegKind::AnonNamespace
            } else {
                self.consult(n);
                match self.entities.get(&(parent, n.clone())) {
                    Some(Entity::Type(k)) => *k,
                    _ => SegKind::Namespace,
                }
            };
            out.push(PathSeg {
                name: n.clone(),
                kind: k,
                args: None,
            });
        }
        out.push(PathSeg {
            name: name.to_string(),
            kind,
            args: None,
        });
        out
    }

    /// The path of the scope `scope` itself (for members: the class).
    pub fn scope_path(&self, scope: &ScopeKey) -> Vec<PathSeg> {
        match scope.split_last() {
            Some((last, parent)) => {
                self.consult(last);
                let kind = match self.entities.get(&(parent.to_vec(), last.clone())) {
                    Some(Entity::Type(k)) => *k,
                    _ if last == "{anon}" => SegKind::AnonNamespace,
                    _ => SegKind::Namespace,
                };
                self.path_of(&parent.to_vec(), last, kind)
            }
            None => Vec::new(),
        }
    }

    /// Resolves a qualifier list (`A::B` of `A::B::f`) from `scope`.
    pub fn qualified_scope(&self, scope: &ScopeKey, quals: &[String]) -> Option<ScopeKey> {
        if quals.is_empty() {
            return Some(scope.clone());
        }
        self.resolve_scope(scope, quals)
    }

    /// The type that a `DECL_SPECIFIERS` node spells, in `scope`.
    pub fn specifier_type(&self, specs: &SyntaxNode, scope: &ScopeKey) -> Ty {
        let (mut c, mut v) = (false, false);
        let mut words: Vec<K> = Vec::new();
        let mut named: Option<Ty> = None;
        for e in specs.children_with_tokens() {
            match e {
                rowan::NodeOrToken::Token(t) => match t.kind() {
                    K::CONST_KW | K::CONST2_KW | K::CONST3_KW => c = true,
                    K::VOLATILE_KW | K::VOLATILE2_KW | K::VOLATILE3_KW => v = true,
                    k if k.is_keyword() => words.push(k),
                    _ => {}
                },
                rowan::NodeOrToken::Node(n) => match n.kind() {
                    K::SIMPLE_TYPE_SPECIFIER => {
                        let kw: Vec<K> = n
                            .children_with_tokens()
                            .filter_map(|t| t.into_token())
                            .map(|t| t.kind())
                            .filter(|k| k.is_keyword())
                            .collect();
                        if n.text().to_string().replace(' ', "") == "decltype(nullptr)" {
                            named = Some(Ty::Builtin("Dn"));
                        } else if n.children().next().is_none() {
                            words.extend(kw);
                        } else {
                            named = Some(self.named_type(&n, scope));
                        }
                    }
                    K::CV_QUALIFIER => {
                        let t = n.text().to_string();
                        c |= t.contains("const");
                        v |= t.contains("volatile");
                    }
                    K::ELABORATED_TYPE_SPECIFIER => named = Some(self.named_type(&n, scope)),
                    K::CLASS_SPECIFIER => {
                        named = walk::class_name(&n)
                            .map(|name| self.named_in(scope, &name, SegKind::Class))
                    }
                    K::ENUM_SPECIFIER => {
                        named = n
                            .children()
                            .find(|x| x.kind() == K::NAME)
                            .and_then(|x| walk::last_component(&x))
                            .map(|name: String| self.named_in(scope, &name, SegKind::Enum))
                    }
                    K::DECLTYPE_SPECIFIER => {
                        let inner = n.text().to_string();
                        named = Some(if inner.replace(' ', "") == "decltype(nullptr)" {
                            Ty::Builtin("Dn")
                        } else {
                            Ty::Unknown(inner)
                        })
                    }
                    K::TYPENAME_SPECIFIER | K::TYPEOF_SPECIFIER | K::ATOMIC_SPECIFIER => {
                        named = Some(Ty::Unknown(n.text().to_string()))
                    }
                    _ => {}
                },
            }
        }
        let base = match named {
            Some(t) => t,
            None => builtin(&words),
        };
        base.cv(false, v, c)
    }

    fn named_in(&self, scope: &ScopeKey, name: &str, kind: SegKind) -> Ty {
        match self.lookup(scope, name) {
            Some((s, Entity::Type(k))) => Ty::Named(self.path_of(&s, name, k)),
            Some((_, Entity::Typedef(t))) => t,
            _ => Ty::Named(self.path_of(scope, name, kind)),
        }
    }

    /// A type named by a (possibly qualified, possibly template-id) name.
    fn named_type(&self, n: &SyntaxNode, scope: &ScopeKey) -> Ty {
        let mut comps: Vec<SyntaxNode> = Vec::new();
        flatten_name(n, &mut comps);
        let Some((last, quals)) = comps.split_last() else {
            return Ty::Unknown(n.text().to_string());
        };
        let qual_names: Vec<String> = quals.iter().filter_map(comp_name).collect();
        let Some(name) = comp_name(last) else {
            return Ty::Unknown(n.text().to_string());
        };
        let global = n
            .descendants_with_tokens()
            .next()
            .is_some_and(|t| t.kind() == K::COLON2);
        if qual_names.is_empty()
            && !global
            && last.kind() != K::TEMPLATE_ID
            && let Some(TArg::Type(t)) = self.binding(&name)
        {
            return t;
        }
        let hit = if qual_names.is_empty() {
            if global {
                self.lookup_in(&Vec::new(), &name, 0)
            } else {
                self.lookup(scope, &name)
            }
        } else {
            let base = if global { Some(Vec::new()) } else { None };
            let s = match base {
                Some(b) => self.resolve_scope_from_root(&b, &qual_names),
                None => self.resolve_scope(scope, &qual_names),
            };
            s.and_then(|s| self.lookup_in(&s, &name, 0))
        };
        let is_tid = last.kind() == K::TEMPLATE_ID;
        match hit {
            Some((s, Entity::Type(k))) => {
                let args = is_tid.then(|| self.class_template_args(&s, &name, last, scope));
                let mut p = self.path_of(&s, &name, k);
                if let Some(a) = args {
                    p.last_mut().expect("path_of ends with the name").args = Some(a);
                }
                Ty::Named(p)
            }
            Some((_, Entity::Typedef(t))) if !is_tid => t,
            _ => Ty::Unknown(n.text().to_string()),
        }
    }

    fn resolve_scope_from_root(&self, root: &ScopeKey, names: &[String]) -> Option<ScopeKey> {
        let mut s = root.clone();
        for n in names {
            let (mut found, _) = self.lookup_in(&s, n, 0)?;
            found.push(n.clone());
            s = found;
        }
        Some(s)
    }

    /// The arguments of a template-id as written (no parameter list known).
    fn template_args(&self, tid: &SyntaxNode, scope: &ScopeKey) -> Vec<TArg> {
        let Some(list) = tid.children().find(|c| c.kind() == K::TEMPLATE_ARG_LIST) else {
            return Vec::new();
        };
        list.children()
            .filter(|a| a.kind() == K::TEMPLATE_ARG)
            .map(|a| {
                if let Some(t) = a.children().find(|c| c.kind() == K::TYPE_ID) {
                    return TArg::Type(self.type_id(&t, scope));
                }
                literal_arg(&a).unwrap_or_else(|| TArg::Type(Ty::Unknown(a.text().to_string())))
            })
            .collect()
    }

    /// The type of a `TYPE_ID`.
    pub fn type_id(&self, t: &SyntaxNode, scope: &ScopeKey) -> Ty {
        let base = match t.children().find(|c| c.kind() == K::DECL_SPECIFIERS) {
            Some(s) => self.specifier_type(&s, scope),
            None => Ty::Unknown(t.text().to_string()),
        };
        match t.children().find(|c| c.kind() == K::ABSTRACT_DECLARATOR) {
            Some(d) => self.declarator_type(base, &d, scope),
            None => base,
        }
    }

    /// The type a declarator gives its name, from the specifiers' type.
    pub fn declarator_type(&self, base: Ty, declarator: &SyntaxNode, scope: &ScopeKey) -> Ty {
        let derivs = decl::derivations(declarator);
        let mut ty = base;
        for d in derivs.iter().rev() {
            ty = match d {
                Deriv::Ptr(p) => self.ptr(ty, p, scope),
                Deriv::Array(a) => {
                    let size = a
                        .children()
                        .find(|c| c.kind() != K::GNU_ATTRIBUTE)
                        .map(|e| e.text().to_string());
                    match size {
                        None => Ty::Array(None, Box::new(ty)),
                        Some(s) => match int_value(s.trim()) {
                            Some(n) => Ty::Array(Some(n), Box::new(ty)),
                            None => Ty::Unknown(format!("array bound {s}")),
                        },
                    }
                }
                Deriv::Function(f) => Ty::Func(Box::new(self.function_type(ty, f, scope))),
            };
        }
        ty
    }

    fn ptr(&self, ty: Ty, p: &SyntaxNode, scope: &ScopeKey) -> Ty {
        let (mut c, mut v, mut r) = (false, false, false);
        let mut kind = K::STAR;
        let mut class: Option<Ty> = None;
        for e in p.children_with_tokens() {
            match e.kind() {
                K::STAR | K::AMP | K::AMP2 => kind = e.kind(),
                K::CONST_KW | K::CONST2_KW | K::CONST3_KW => c = true,
                K::VOLATILE_KW | K::VOLATILE2_KW | K::VOLATILE3_KW => v = true,
                K::RESTRICT_KW | K::RESTRICT2_KW | K::RESTRICT3_KW => r = true,
                K::QUALIFIED_NAME | K::NESTED_NAME_SPECIFIER | K::NAME_REF => {
                    if let Some(n) = e.as_node() {
                        class = Some(self.member_pointer_class(n, scope));
                    }
                }
                K::IDENT => {
                    if let Some(t) = e.as_token() {
                        class = Some(self.named_in(scope, t.text(), SegKind::Class));
                    }
                }
                _ => {}
            }
        }
        let t = match (kind, class) {
            (K::STAR, Some(cl)) => Ty::MemPtr(Box::new(cl), Box::new(ty)),
            (K::STAR, None) => Ty::Ptr(Box::new(ty)),
            (K::AMP, _) => Ty::LRef(Box::new(ty)),
            _ => Ty::RRef(Box::new(ty)),
        };
        t.cv(r, v, c)
    }

    fn member_pointer_class(&self, n: &SyntaxNode, scope: &ScopeKey) -> Ty {
        let names = walk::identifiers(n);
        match names.split_last() {
            Some((last, [])) => self.named_in(scope, last, SegKind::Class),
            Some((last, quals)) => match self.resolve_scope(scope, quals) {
                Some(s) => match self.lookup_in(&s, last, 0) {
                    Some((s2, Entity::Type(k))) => Ty::Named(self.path_of(&s2, last, k)),
                    Some((_, Entity::Typedef(t))) => t,
                    _ => Ty::Unknown(n.text().to_string()),
                },
                None => Ty::Unknown(n.text().to_string()),
            },
            None => Ty::Unknown(n.text().to_string()),
        }
    }

    pub fn function_type(&self, ret: Ty, f: &SyntaxNode, scope: &ScopeKey) -> FnTy {
        let mut params = Vec::new();
        for p in decl::params(f) {
            let base = match p.children().find(|c| c.kind() == K::DECL_SPECIFIERS) {
                Some(s) => self.specifier_type(&s, scope),
                None => Ty::Unknown(p.text().to_string()),
            };
            let d = p
                .children()
                .find(|c| matches!(c.kind(), K::DECLARATOR | K::ABSTRACT_DECLARATOR));
            let t = match d {
                Some(d) => self.declarator_type(base, &d, scope),
                None => base,
            };
            params.push(t.param_adjusted());
        }
        // `(void)` is no parameters.
        if params.len() == 1 && params[0] == Ty::Builtin("v") {
            params.clear();
        }
        let variadic = f
            .children()
            .find(|c| c.kind() == K::PARAM_LIST)
            .is_some_and(|l| l.children_with_tokens().any(|t| t.kind() == K::DOT3));
        let (mut cr, mut cv, mut cc, mut ref_qual, mut noexcept) =
            (false, false, false, 0u8, false);
        let mut ret = ret;
        for e in f.children_with_tokens() {
            match e.kind() {
                K::CONST_KW => cc = true,
                K::VOLATILE_KW => cv = true,
                K::RESTRICT_KW | K::RESTRICT2_KW | K::RESTRICT3_KW => cr = true,
                K::REF_QUALIFIER => {
                    ref_qual = if e
                        .as_node()
                        .is_some_and(|n| n.text().to_string().contains("&&"))
                    {
                        2
                    } else {
                        1
                    }
                }
                K::NOEXCEPT_SPEC => {
                    let t = e
                        .as_node()
                        .map(|n| n.text().to_string().replace(' ', ""))
                        .unwrap_or_default();
                    noexcept = t == "noexcept" || t == "noexcept(true)";
                }
                K::TRAILING_RETURN_TYPE => {
                    if let Some(t) = e
                        .as_node()
                        .and_then(|n| n.children().find(|c| c.kind() == K::TYPE_ID))
                    {
                        ret = self.type_id(&t, scope);
                    }
                }
                _ => {}
            }
        }
        FnTy {
            ret,
            params,
            variadic,
            cv: (cr, cv, cc),
            ref_qual,
            noexcept,
        }
    }
}

/// The components of a qualified name, in order.
fn flatten_name(n: &SyntaxNode, out: &mut Vec<SyntaxNode>) {
    for c in n.children() {
        match c.kind() {
            K::NAME_REF | K::TEMPLATE_ID => out.push(c),
            K::QUALIFIED_NAME | K::NESTED_NAME_SPECIFIER | K::NAME => flatten_name(&c, out),
            _ => {}
        }
    }
}

fn comp_name(c: &SyntaxNode) -> Option<String> {
    walk::last_component(c).or_else(|| walk::identifiers(c).into_iter().next())
}

/// A literal template argument (`3`, `-1`, `5ul`, `true`, `'a'`).
fn literal_arg(a: &SyntaxNode) -> Option<TArg> {
    let text: String = a
        .descendants_with_tokens()
        .filter_map(|t| t.into_token())
        .filter(|t| !t.kind().is_trivia())
        .map(|t| t.text().to_string())
        .collect();
    match text.as_str() {
        "true" => return Some(TArg::Int(Ty::Builtin("b"), "1".into())),
        "false" => return Some(TArg::Int(Ty::Builtin("b"), "0".into())),
        _ => {}
    }
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.as_str()),
    };
    let lower = digits.to_ascii_lowercase();
    let num = lower.trim_end_matches(['u', 'l']);
    let suffix = &lower[num.len()..];
    let value = int_value(num)?;
    let code = match (suffix.contains('u'), suffix.matches('l').count()) {
        (false, 0) => "i",
        (true, 0) => "j",
        (false, 1) => "l",
        (true, 1) => "m",
        (false, _) => "x",
        (true, _) => "y",
    };
    Some(TArg::Int(
        Ty::Builtin(code),
        if neg { format!("n{value}") } else { value },
    ))
}

/// The decimal value of an integer literal (decimal, hex, octal, binary; suffixes ignored).
fn int_value(s: &str) -> Option<String> {
    let v = cufront_syntax::literal::IntLiteral::parse(s)?.value;
    Some(v.to_string())
}

/// The builtin type that a list of type keywords spells.
fn builtin(words: &[K]) -> Ty {
    let count = |k: K| words.iter().filter(|w| **w == k).count();
    let unsigned = count(K::UNSIGNED_KW) > 0;
    let signed = count(K::SIGNED_KW) + count(K::SIGNED2_KW) + count(K::SIGNED3_KW) > 0;
    let longs = count(K::LONG_KW);
    let code = if count(K::VOID_KW) > 0 {
        "v"
    } else if count(K::BOOL_KW) + count(K::BOOL_C_KW) > 0 {
        "b"
    } else if count(K::CHAR_KW) > 0 {
        if unsigned {
            "h"
        } else if signed {
            "a"
        } else {
            "c"
        }
    } else if count(K::WCHAR_T_KW) > 0 {
        "w"
    } else if count(K::CHAR8_T_KW) > 0 {
        "Du"
    } else if count(K::CHAR16_T_KW) > 0 {
        "Ds"
    } else if count(K::CHAR32_T_KW) > 0 {
        "Di"
    } else if count(K::FLOAT_KW) > 0 {
        "f"
    } else if count(K::DOUBLE_KW) > 0 {
        if longs > 0 { "e" } else { "d" }
    } else if count(K::FLOAT128_GNU_KW) > 0 {
        "g"
    } else if count(K::FLOAT16_KW) > 0 {
        "DF16_"
    } else if count(K::INT128_KW) > 0 {
        if unsigned { "o" } else { "n" }
    } else if count(K::SHORT_KW) > 0 {
        if unsigned { "t" } else { "s" }
    } else if longs >= 2 {
        if unsigned { "y" } else { "x" }
    } else if longs == 1 {
        if unsigned { "m" } else { "l" }
    } else if unsigned {
        "j"
    } else if signed || count(K::INT_KW) > 0 {
        "i"
    } else if count(K::AUTO_KW) > 0 {
        return Ty::Unknown("auto".into());
    } else {
        return Ty::Unknown("no type specifier".into());
    };
    Ty::Builtin(code)
}
