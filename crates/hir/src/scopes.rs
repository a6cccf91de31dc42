//! The scope graph of a translation unit and name lookup over it.
//!
//! `def_map(tu)` merges every item tree into one graph of scopes: the global
//! namespace, namespaces (reopenings merged, inline and anonymous ones
//! nominated by their parent like a using-directive), classes (with their
//! injected name) and enums (their enumerators, for `E::A`). Using-directives,
//! namespace aliases and out-of-line class definitions (`struct A::B {…}`)
//! are resolved in a second pass, in source order.
//!
//! Lookup: `lookup` (unqualified: the scope chain outwards, each scope with
//! what it nominates; class scopes also search their bases) and
//! `resolve_path` (qualified). Lookup sees the whole unit, not only what is
//! declared before the use (a simplification that valid code rarely notices).

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::instances::FnDecl;
use crate::item_tree::{FnName, Item, ItemTree, Path, TemplateKind, UsingData};
use crate::{ClassId, EnumId, FnId, FnTemplateId, ItemId, TypedefId, VarId, VarTemplateId, item_ids, item_tree_of};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopeIdx(pub u32);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    Root,
    Namespace {
        name: Option<String>,
        inline: bool,
    },
    Class(ClassId),
    Enum(EnumId),
    /// The body of a function definition that defines local classes
    /// (`local_classes`).
    Block(FnDecl),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    pub kind: ScopeKind,
    pub parent: Option<ScopeIdx>,
    pub names: FxHashMap<String, Vec<Def>>,
    /// Nominated namespaces: using-directives, inline and anonymous namespaces.
    pub usings: Vec<ScopeIdx>,
}

/// What a name denotes in a scope.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Def {
    Namespace(ScopeIdx),
    Class(ClassId),
    /// A class template (found, never instantiated yet).
    ClassTemplate(ClassId),
    /// An alias template.
    AliasTemplate(TypedefId),
    /// A template the tree does not model.
    Template,
    Enum(EnumId),
    Enumerator(EnumId, u32),
    Typedef(TypedefId),
    Var(VarId),
    /// `using a::b;` written in the scope: resolved when looked up.
    UsingDecl(ScopeIdx, Path),
    /// A function or another value the model does not describe.
    Value,
    /// A function (one of the overload set the scope's list of `Def`s
    /// holds for the name: see `lookup_fns`). Constructors are listed
    /// under `CTOR_KEY`, destructors `DTOR_KEY`, conversion functions
    /// `CONV_KEY`, operators as `operator+`.
    Fn(FnId),
    FnTemplate(FnTemplateId),
    VarTemplate(VarTemplateId),
}

/// The name keys of special member functions in a class scope (braces:
/// never an identifier).
pub const CTOR_KEY: &str = "{ctor}";
pub const DTOR_KEY: &str = "{dtor}";
pub const CONV_KEY: &str = "{conv}";

/// The key a function's name is listed under in its scope.
pub fn fn_name_key(n: &FnName) -> String {
    match n {
        FnName::Ident(s) => s.clone(),
        FnName::Ctor => CTOR_KEY.to_string(),
        FnName::Dtor => DTOR_KEY.to_string(),
        FnName::Operator(op) => format!("operator{op}"),
        FnName::Conversion(_) => CONV_KEY.to_string(),
        FnName::Literal(s) => format!("operator\"\"{s}"),
    }
}

/// Which kinds of entity a lookup wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ns {
    /// A type name.
    Type,
    /// A value (enumerator, variable).
    Value,
    /// Something `::` can follow (namespace, class, enum, typedef).
    Scope,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DefMap {
    pub scopes: Vec<Scope>,
    /// The scope of each class definition.
    pub class_scope: FxHashMap<ClassId, ScopeIdx>,
    /// Namespaces declared with `abi_tag`s (libstdc++'s `__cxx11`).
    pub ns_abi_tags: FxHashMap<ScopeIdx, Vec<String>>,
    pub enum_scope: FxHashMap<EnumId, ScopeIdx>,
    /// The scope each class, enum, typedef and variable is declared in.
    pub parent: FxHashMap<DeclKey, ScopeIdx>,
    /// A declaration of a class → its definition (when the unit has one).
    pub definition: FxHashMap<ClassId, ClassId>,
    /// Every class with a scope (definitions) outside templates, in source order.
    pub classes: Vec<ClassId>,
    /// Class scopes of templates (primary and partial specialization
    /// patterns) and of everything nested in them.
    pub templated: FxHashSet<ScopeIdx>,
    /// A declaration of a class template → the declaration that defines it
    /// (or the first one).
    pub template_def: FxHashMap<ClassId, ClassId>,
    /// Every declaration of a class template (defaults may be on any), by its canonical id.
    pub template_decls: FxHashMap<ClassId, Vec<ClassId>>,
    /// Partial and explicit specializations of each class template (canonical id).
    pub specializations: FxHashMap<ClassId, Vec<ClassId>>,
    /// Functions and variables outside templates, in source order (what
    /// has a linkage name; out-of-line definitions and redeclarations too).
    pub entities: Vec<crate::Entity>,
    /// Out-of-line definitions (`void S::f() {}`, `template<class T> void
    /// S<T>::f() {}`, `void N::g() {}`), by the scope their qualifier names
    /// and their name key: what `instances::fn_definition` matches a
    /// declaration with.
    pub qualified_fns: FxHashMap<(ScopeIdx, String), Vec<FnDecl>>,
    /// An out-of-line member definition's qualifier (by the scope it is
    /// written in) that names a partial specialization
    /// (`template<class K> X<K, true>::f`) → that specialization's class
    /// scope: the qualifier's name alone finds the primary template.
    pub spec_qualifiers: FxHashMap<(ScopeIdx, Path), ScopeIdx>,
    /// Explicit specializations of members of class templates (`template<>
    /// void S<A>::f() {}`), by the primary template's class scope and name
    /// key: the definition of `f` for the instances their qualifier selects
    /// (`instances::inst_definition`), never for the others.
    pub member_specs: FxHashMap<(ScopeIdx, String), Vec<FnDecl>>,
    /// Function templates and variable templates outside templated scopes,
    /// in source order (roots of nothing: listed for `inspect`).
    pub fn_templates: Vec<FnTemplateId>,
    pub var_templates: Vec<VarTemplateId>,
    /// Hidden friends (`FnData::friend`) by the scope of the class that
    /// defines them: not names of any scope, found by argument-dependent
    /// lookup through the class (`infer`'s `adl`).
    pub friends: FxHashMap<ScopeIdx, Vec<FnDecl>>,
    /// Deduction guides (item, index into its `guides`) by the scope they
    /// are declared in and the template they name (`infer/ctad.rs`).
    pub guides: FxHashMap<(ScopeIdx, String), Vec<(ItemId, u32)>>,
    /// The block scope of each function definition with local classes
    /// (`local_classes`), and the local classes of each, in order.
    pub blocks: FxHashMap<FnDecl, ScopeIdx>,
    pub block_classes: FxHashMap<ScopeIdx, Vec<ClassId>>,
    /// Explicit instantiations of function templates (item, index into its
    /// `explicit_insts`) with the namespace they are declared in, in source
    /// order (`infer/explicit_inst.rs`).
    pub explicit_insts: Vec<(ScopeIdx, ItemId, u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclKey {
    Class(ClassId),
    Enum(EnumId),
    Typedef(TypedefId),
    Var(VarId),
    Fn(FnId),
    FnTemplate(FnTemplateId),
    VarTemplate(VarTemplateId),
}

pub const ROOT: ScopeIdx = ScopeIdx(0);

impl DefMap {
    pub fn scope(&self, s: ScopeIdx) -> &Scope {
        &self.scopes[s.0 as usize]
    }

    /// The definition of a class if the unit has one, else the class itself.
    pub fn class_definition(&self, c: ClassId) -> ClassId {
        self.definition.get(&c).copied().unwrap_or(c)
    }

    pub(crate) fn new_scope(&mut self, kind: ScopeKind, parent: Option<ScopeIdx>) -> ScopeIdx {
        self.scopes.push(Scope { kind, parent, names: FxHashMap::default(), usings: Vec::new() });
        ScopeIdx(self.scopes.len() as u32 - 1)
    }

    pub(crate) fn add(&mut self, s: ScopeIdx, name: &str, d: Def) {
        let v = self.scopes[s.0 as usize].names.entry(name.to_string()).or_default();
        if !v.contains(&d) {
            v.push(d);
        }
    }

    fn add_using(&mut self, from: ScopeIdx, to: ScopeIdx) {
        let u = &mut self.scopes[from.0 as usize].usings;
        if !u.contains(&to) && from != to {
            u.push(to);
        }
    }
}

/// Work left for the second pass, in source order.
pub(crate) enum Pending {
    Directive(ScopeIdx, Path),
    Alias(ScopeIdx, String, Path),
    QualifiedClass(ScopeIdx, ClassId, Path),
    /// A specialization of the template `name` declared in the scope (or in `qualifier`).
    Specialization(ScopeIdx, ClassId, String, Option<Path>),
    /// An out-of-line function definition `qualifier::name`.
    QualifiedFn(ScopeIdx, FnDecl, String, Path),
    /// `struct X` inside a declaration (`ClassData::elaborated`), seen in the scope.
    Elaborated(ScopeIdx, ClassId, String),
}

/// The scope graph of a translation unit.
#[salsa::tracked(returns(clone))]
pub fn def_map(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<DefMap> {
    let mut map = DefMap::default();
    map.new_scope(ScopeKind::Root, None);
    let mut pending = Vec::new();
    for &item in item_ids(db, tu).iter() {
        let tree = item_tree_of(db, item);
        let top = tree.top.clone();
        collect(db, &mut map, &mut pending, item, &tree, &top, ROOT, false);
    }
    let blocks = crate::local_classes::collect_blocks(db, &mut map, &mut pending, tu);
    // Class templates: the defining declaration of each (by scope and name).
    let mut groups: Vec<Vec<ClassId>> = Vec::new();
    for scope in &map.scopes {
        for list in scope.names.values() {
            let mut ts: Vec<ClassId> =
                list.iter().filter_map(|d| if let Def::ClassTemplate(c) = d { Some(*c) } else { None }).collect();
            ts.dedup();
            if !ts.is_empty() {
                groups.push(ts);
            }
        }
    }
    for ts in groups {
        let def = ts.iter().copied().find(|c| map.class_scope.contains_key(c)).unwrap_or(ts[0]);
        for &c in &ts {
            map.template_def.entry(c).or_insert(def);
        }
        // The injected-class-name lists the definition alone: keep the full list.
        map.template_decls.entry(def).or_insert(ts);
    }
    for p in pending {
        match p {
            Pending::Directive(s, path) => {
                if let Some(Def::Namespace(t)) = resolve_path_in_map(&map, s, &path) {
                    map.add_using(s, t);
                }
            }
            Pending::Alias(s, name, path) => {
                if let Some(Def::Namespace(t)) = resolve_path_in_map(&map, s, &path) {
                    map.add(s, &name, Def::Namespace(t));
                }
            }
            Pending::Specialization(s, c, name, qualifier) => {
                let target = match &qualifier {
                    None => Some(s),
                    Some(q) => match resolve_path_in_map(&map, s, q) {
                        Some(Def::Namespace(t)) => Some(t),
                        Some(Def::Class(k)) => map.class_scope.get(&map.class_definition(k)).copied(),
                        _ => None,
                    },
                };
                let mut found = None;
                let mut cur = target;
                while let Some(sc) = cur {
                    if let Some(t) = template_in_map(&map, sc, &name, &mut FxHashSet::default()) {
                        found = Some(t);
                        break;
                    }
                    if qualifier.is_some() {
                        break;
                    }
                    cur = map.scope(sc).parent;
                }
                if let Some(t) = found {
                    let t = map.template_def.get(&t).copied().unwrap_or(t);
                    map.specializations.entry(t).or_default().push(c);
                }
            }
            Pending::QualifiedFn(s, f, key, q) => {
                // `S<int>::f` (a member of an explicit specialization) is
                // not a member of the primary template's scope.
                let outer = match f {
                    FnDecl::Fn(x) => item_tree_of(db, x.item(db)).fns[x.idx(db) as usize].outer_tparams.clone(),
                    FnDecl::Template(x) => {
                        item_tree_of(db, x.item(db)).fn_templates[x.idx(db) as usize].f.outer_tparams.clone()
                    }
                };
                let has_args = q.segments.iter().any(|s| s.args.is_some());
                // `template<> void S<A>::f() {}`: the member of one
                // instance, not an out-of-line definition of the template's.
                if has_args && matches!(f, FnDecl::Fn(_)) && !outer.is_empty() && outer.iter().all(Vec::is_empty) {
                    if let Some(t) = qualifier_scope_in_map(&map, s, &q).filter(|t| map.templated.contains(t)) {
                        let v = map.member_specs.entry((t, key)).or_default();
                        if !v.contains(&f) {
                            v.push(f);
                        }
                    }
                    continue;
                }
                if outer.is_empty() && has_args {
                    continue;
                }
                if let Some(t) = qualifier_scope_in_map(&map, s, &q) {
                    let t = match partial_spec_named(db, &map, t, &q, f) {
                        Some(spec) => {
                            map.spec_qualifiers.insert((s, q.clone()), spec);
                            spec
                        }
                        None => t,
                    };
                    let v = map.qualified_fns.entry((t, key)).or_default();
                    if !v.contains(&f) {
                        v.push(f);
                    }
                }
            }
            Pending::Elaborated(s, c, name) => {
                // Declared in the nearest enclosing namespace when lookup
                // (types only, [basic.lookup.elab]) finds no `name`.
                if type_in_map(&map, s, &name) {
                    continue;
                }
                let mut ns = s;
                while let Some(p) = matches!(map.scope(ns).kind, ScopeKind::Class(_) | ScopeKind::Enum(_))
                    .then(|| map.scope(ns).parent)
                    .flatten()
                {
                    ns = p;
                }
                map.add(ns, &name, Def::Class(c));
                map.parent.insert(DeclKey::Class(c), ns);
            }
            Pending::QualifiedClass(s, c, path) => {
                let target = match resolve_path_in_map(&map, s, &path) {
                    Some(Def::Namespace(t)) => Some(t),
                    Some(Def::Class(k)) => map.class_scope.get(&map.class_definition(k)).copied(),
                    _ => None,
                };
                if let Some(t) = target {
                    let tree = item_tree_of(db, c.item(db));
                    let data = &tree.classes[c.idx(db) as usize];
                    if let Some(n) = &data.name {
                        map.add(t, n, Def::Class(c));
                    }
                    map.parent.insert(DeclKey::Class(c), t);
                    if let Some(&cs) = map.class_scope.get(&c) {
                        map.scopes[cs.0 as usize].parent = Some(t);
                    }
                }
            }
        }
    }
    crate::local_classes::place_blocks(db, &mut map, blocks);
    // Declarations of a class name → its definition in the same scope.
    let mut defs = Vec::new();
    for scope in &map.scopes {
        for list in scope.names.values() {
            let classes: Vec<ClassId> =
                list.iter().filter_map(|d| if let Def::Class(c) = d { Some(*c) } else { None }).collect();
            if classes.len() > 1
                && let Some(&def) = classes.iter().find(|c| map.class_scope.contains_key(c))
            {
                for c in classes.into_iter().filter(|c| *c != def) {
                    defs.push((c, def));
                }
            }
        }
    }
    map.definition.extend(defs);
    // The map lives as long as the unit: most names have one declaration,
    // and a vector pushed once holds four.
    for scope in &mut map.scopes {
        scope.names.values_mut().for_each(Vec::shrink_to_fit);
        scope.usings.shrink_to_fit();
    }
    map.scopes.shrink_to_fit();
    Arc::new(map)
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn collect(
    db: &dyn SourceDatabase,
    map: &mut DefMap,
    pending: &mut Vec<Pending>,
    item: ItemId,
    tree: &ItemTree,
    items: &[Item],
    scope: ScopeIdx,
    templated: bool,
) {
    for &it in items {
        match it {
            Item::Namespace(i) => {
                let ns = &tree.namespaces[i as usize];
                let key = ns.name.clone().unwrap_or_else(|| "{anon}".to_string());
                let existing = map.scope(scope).names.get(&key).and_then(|v| {
                    v.iter().find_map(|d| match d {
                        Def::Namespace(s) if matches!(map.scope(*s).kind, ScopeKind::Namespace { .. }) => Some(*s),
                        _ => None,
                    })
                });
                let child = match existing {
                    Some(c) => c,
                    None => {
                        let c = map
                            .new_scope(ScopeKind::Namespace { name: ns.name.clone(), inline: ns.inline }, Some(scope));
                        map.add(scope, &key, Def::Namespace(c));
                        c
                    }
                };
                if !ns.abi_tags.is_empty() {
                    let tags = map.ns_abi_tags.entry(child).or_default();
                    for t in &ns.abi_tags {
                        if !tags.contains(t) {
                            tags.push(t.clone());
                        }
                    }
                }
                if ns.inline || ns.name.is_none() {
                    map.add_using(scope, child);
                }
                collect(db, map, pending, item, tree, &ns.items, child, templated);
            }
            Item::Class(i) => {
                let data = &tree.classes[i as usize];
                let c = ClassId::new(db, item, i);
                let mut inner_templated = templated;
                match data.template {
                    TemplateKind::Specialization => {
                        if let Some(n) = &data.name {
                            pending.push(Pending::Specialization(scope, c, n.clone(), data.qualifier.clone()));
                        }
                        map.parent.insert(DeclKey::Class(c), scope);
                        inner_templated |= data.tparams.as_ref().is_some_and(|p| !p.is_empty());
                        if data.is_definition {
                            let cs = map.new_scope(ScopeKind::Class(c), Some(scope));
                            map.class_scope.insert(c, cs);
                            if inner_templated {
                                map.templated.insert(cs);
                            }
                            let nested = data.items.clone();
                            collect(db, map, pending, item, tree, &nested, cs, inner_templated);
                        }
                        continue;
                    }
                    TemplateKind::Primary => {
                        if let Some(n) = &data.name {
                            map.add(scope, n, Def::ClassTemplate(c));
                        }
                        map.parent.insert(DeclKey::Class(c), scope);
                        if data.is_definition && data.qualifier.is_none() {
                            let cs = map.new_scope(ScopeKind::Class(c), Some(scope));
                            map.class_scope.insert(c, cs);
                            map.templated.insert(cs);
                            if let Some(n) = &data.name {
                                // The injected-class-name: the current instantiation.
                                map.add(cs, n, Def::ClassTemplate(c));
                            }
                            let nested = data.items.clone();
                            collect(db, map, pending, item, tree, &nested, cs, true);
                        }
                        continue;
                    }
                    TemplateKind::None => {}
                }
                if data.elaborated {
                    if let Some(n) = &data.name {
                        pending.push(Pending::Elaborated(scope, c, n.clone()));
                    }
                    continue;
                }
                if let Some(q) = &data.qualifier {
                    pending.push(Pending::QualifiedClass(scope, c, q.clone()));
                } else {
                    if let Some(n) = &data.name {
                        map.add(scope, n, Def::Class(c));
                    }
                    map.parent.insert(DeclKey::Class(c), scope);
                }
                if data.is_definition {
                    let cs = map.new_scope(ScopeKind::Class(c), Some(scope));
                    map.class_scope.insert(c, cs);
                    if templated {
                        map.templated.insert(cs);
                    } else {
                        map.classes.push(c);
                    }
                    if let Some(n) = &data.name {
                        map.add(cs, n, Def::Class(c));
                    }
                    let nested = data.items.clone();
                    collect(db, map, pending, item, tree, &nested, cs, templated);
                }
            }
            Item::Enum(i) => {
                let data = &tree.enums[i as usize];
                let e = EnumId::new(db, item, i);
                if let Some(n) = &data.name {
                    map.add(scope, n, Def::Enum(e));
                }
                map.parent.insert(DeclKey::Enum(e), scope);
                let es = map.new_scope(ScopeKind::Enum(e), Some(scope));
                map.enum_scope.insert(e, es);
                for (k, (n, _)) in data.enumerators.iter().enumerate() {
                    map.add(es, n, Def::Enumerator(e, k as u32));
                    if !data.scoped {
                        map.add(scope, n, Def::Enumerator(e, k as u32));
                    }
                }
            }
            Item::Typedef(i) => {
                let t = TypedefId::new(db, item, i);
                let data = &tree.typedefs[i as usize];
                map.add(scope, &data.name, if data.templated { Def::AliasTemplate(t) } else { Def::Typedef(t) });
                map.parent.insert(DeclKey::Typedef(t), scope);
            }
            Item::Var(i) => {
                let v = VarId::new(db, item, i);
                let data = &tree.vars[i as usize];
                if data.qualifier.is_none() {
                    map.add(scope, &data.name, Def::Var(v));
                }
                map.parent.insert(DeclKey::Var(v), scope);
                if !templated && data.outer_tparams.is_empty() {
                    map.entities.push(crate::Entity::Var(v));
                }
            }
            Item::Fn(i) => {
                let f = FnId::new(db, item, i);
                let data = &tree.fns[i as usize];
                let key = fn_name_key(&data.name);
                match &data.qualifier {
                    None if data.friend => map.friends.entry(scope).or_default().push(FnDecl::Fn(f)),
                    None => map.add(scope, &key, Def::Fn(f)),
                    Some(q) => pending.push(Pending::QualifiedFn(scope, FnDecl::Fn(f), key, q.clone())),
                }
                map.parent.insert(DeclKey::Fn(f), scope);
                if !templated && data.outer_tparams.is_empty() {
                    map.entities.push(crate::Entity::Fn(f));
                }
            }
            Item::FnTemplate(i) => {
                let f = FnTemplateId::new(db, item, i);
                let data = &tree.fn_templates[i as usize];
                let key = fn_name_key(&data.f.name);
                match &data.f.qualifier {
                    None if data.f.friend => map.friends.entry(scope).or_default().push(FnDecl::Template(f)),
                    None => map.add(scope, &key, Def::FnTemplate(f)),
                    Some(q) => pending.push(Pending::QualifiedFn(scope, FnDecl::Template(f), key, q.clone())),
                }
                map.parent.insert(DeclKey::FnTemplate(f), scope);
                if !templated && data.f.outer_tparams.is_empty() {
                    map.fn_templates.push(f);
                }
            }
            Item::VarTemplate(i) => {
                let v = VarTemplateId::new(db, item, i);
                let data = &tree.var_templates[i as usize];
                if data.var.qualifier.is_none() {
                    map.add(scope, &data.var.name, Def::VarTemplate(v));
                }
                map.parent.insert(DeclKey::VarTemplate(v), scope);
                if !templated && data.var.outer_tparams.is_empty() {
                    map.var_templates.push(v);
                }
            }
            Item::Guide(i) => {
                let name = tree.guides[i as usize].template.clone();
                map.guides.entry((scope, name)).or_default().push((item, i));
            }
            Item::ExplicitInst(i) => map.explicit_insts.push((scope, item, i)),
            Item::Using(i) => match &tree.usings[i as usize] {
                UsingData::Directive(p) => pending.push(Pending::Directive(scope, p.clone())),
                UsingData::NamespaceAlias(n, p) => pending.push(Pending::Alias(scope, n.clone(), p.clone())),
                UsingData::Decl(p) => {
                    if let Some(last) = p.last() {
                        // `using B::operator ();` is found under `fn_name_key`'s spelling.
                        let key: String = if last.starts_with("operator") {
                            last.split_whitespace().collect()
                        } else {
                            last.to_string()
                        };
                        map.add(scope, &key, Def::UsingDecl(scope, p.clone()));
                    }
                }
                UsingData::Template(n) => map.add(scope, n, Def::Template),
                UsingData::Value(n) => map.add(scope, n, Def::Value),
            },
        }
    }
}

/// Qualified lookup during construction (namespaces and classes by name only).
fn resolve_path_in_map(map: &DefMap, from: ScopeIdx, path: &Path) -> Option<Def> {
    let (first, rest) = path.segments.split_first()?;
    let mut d = if path.global {
        member_in_map(map, ROOT, &first.name, &mut FxHashSet::default())?
    } else {
        let mut s = Some(from);
        loop {
            let cur = s?;
            if let Some(d) = member_in_map(map, cur, &first.name, &mut FxHashSet::default()) {
                break d;
            }
            s = map.scope(cur).parent;
        }
    };
    for seg in rest {
        let s = match d {
            Def::Namespace(s) => s,
            Def::Class(c) => *map.class_scope.get(&map.class_definition(c))?,
            _ => return None,
        };
        d = member_in_map(map, s, &seg.name, &mut FxHashSet::default())?;
    }
    Some(d)
}

/// The scope a qualifier names during construction: namespaces, classes,
/// and class templates (`S<T>::`: the primary template's scope).
pub(crate) fn qualifier_scope_in_map(map: &DefMap, from: ScopeIdx, q: &Path) -> Option<ScopeIdx> {
    if q.segments.is_empty() {
        return q.global.then_some(ROOT);
    }
    let mut cur: Option<ScopeIdx> = None;
    for (i, seg) in q.segments.iter().enumerate() {
        let find = |s: ScopeIdx| -> Option<ScopeIdx> {
            match member_in_map(map, s, &seg.name, &mut FxHashSet::default()) {
                Some(Def::Namespace(t)) => Some(t),
                Some(Def::Class(k)) => map.class_scope.get(&map.class_definition(k)).copied(),
                _ => {
                    let t = template_in_map(map, s, &seg.name, &mut FxHashSet::default())?;
                    let t = map.template_def.get(&t).copied().unwrap_or(t);
                    map.class_scope.get(&t).copied()
                }
            }
        };
        cur = Some(if i == 0 && !q.global {
            let mut s = Some(from);
            loop {
                let c = s?;
                if let Some(t) = find(c) {
                    break t;
                }
                s = map.scope(c).parent;
            }
        } else {
            find(cur.unwrap_or(ROOT))?
        });
    }
    cur
}

/// The partial specialization of the class template whose scope is
/// `primary` that an out-of-line definition `f` names by its qualifier's
/// last template-id (`template<class K, class V> auto X<K, pair<const K,
/// V>, true>::f() {…}`): the one whose written arguments are the
/// qualifier's once each side's template parameters are replaced by their
/// positions ([temp.class.spec.mfunc]; the names need not agree).
fn partial_spec_named(
    db: &dyn SourceDatabase,
    map: &DefMap,
    primary: ScopeIdx,
    q: &Path,
    f: FnDecl,
) -> Option<ScopeIdx> {
    let args = q.segments.last()?.args.as_ref()?;
    let ScopeKind::Class(k) = map.scope(primary).kind else { return None };
    let specs = map.specializations.get(&k)?;
    let heads = match f {
        FnDecl::Fn(x) => item_tree_of(db, x.item(db)).fns[x.idx(db) as usize].outer_tparams.clone(),
        FnDecl::Template(x) => item_tree_of(db, x.item(db)).fn_templates[x.idx(db) as usize].f.outer_tparams.clone(),
    };
    let head = heads.last()?;
    let written = crate::instances::positional_text(format!("{args:?}"), head);
    specs.iter().copied().find_map(|c| {
        let scope = *map.class_scope.get(&c)?;
        let tree = item_tree_of(db, c.item(db));
        let d = tree.classes.get(c.idx(db) as usize)?;
        let (tparams, spec_args) = (d.tparams.as_ref()?, d.spec_args.as_ref()?);
        (tparams.len() == head.len() && crate::instances::positional_text(format!("{spec_args:?}"), tparams) == written)
            .then_some(scope)
    })
}

fn member_in_map(map: &DefMap, s: ScopeIdx, name: &str, seen: &mut FxHashSet<ScopeIdx>) -> Option<Def> {
    if !seen.insert(s) {
        return None;
    }
    if let Some(v) = map.scope(s).names.get(name) {
        // A class definition before its declarations (the definition map is built later).
        let def = v.iter().find(|d| matches!(d, Def::Class(c) if map.class_scope.contains_key(c)));
        if let Some(d) = def.or_else(|| v.iter().find(|d| matches!(d, Def::Namespace(_) | Def::Class(_)))) {
            return Some(d.clone());
        }
    }
    for &u in &map.scope(s).usings.clone() {
        if let Some(d) = member_in_map(map, u, name, seen) {
            return Some(d);
        }
    }
    None
}

/// Whether unqualified lookup of `name` from `s` finds a type (a class,
/// class template, enum, typedef or using-declaration) during construction.
fn type_in_map(map: &DefMap, s: ScopeIdx, name: &str) -> bool {
    fn in_scope(map: &DefMap, s: ScopeIdx, name: &str, seen: &mut FxHashSet<ScopeIdx>) -> bool {
        if !seen.insert(s) {
            return false;
        }
        let here = map.scope(s).names.get(name).is_some_and(|v| {
            v.iter().any(|d| {
                matches!(
                    d,
                    Def::Class(_)
                        | Def::ClassTemplate(_)
                        | Def::Enum(_)
                        | Def::Typedef(_)
                        | Def::AliasTemplate(_)
                        | Def::UsingDecl(..)
                )
            })
        });
        here || map.scope(s).usings.iter().any(|&u| in_scope(map, u, name, seen))
    }
    let mut cur = Some(s);
    while let Some(c) = cur {
        if in_scope(map, c, name, &mut FxHashSet::default()) {
            return true;
        }
        cur = map.scope(c).parent;
    }
    false
}

/// A class template named `name` in scope `s` (or what it nominates).
fn template_in_map(map: &DefMap, s: ScopeIdx, name: &str, seen: &mut FxHashSet<ScopeIdx>) -> Option<ClassId> {
    if !seen.insert(s) {
        return None;
    }
    if let Some(v) = map.scope(s).names.get(name)
        && let Some(c) = v.iter().find_map(|d| if let Def::ClassTemplate(c) = d { Some(*c) } else { None })
    {
        return Some(c);
    }
    for &u in &map.scope(s).usings.clone() {
        if let Some(c) = template_in_map(map, u, name, seen) {
            return Some(c);
        }
    }
    None
}

/// Picks the entity a list of declarations of one name denotes for `ns`.
fn pick(db: &dyn SourceDatabase, map: &DefMap, defs: &[Def], ns: Ns, depth: u32) -> Option<Def> {
    let rank = |d: &Def| -> Option<u8> {
        match (ns, d) {
            (_, Def::Class(c)) if map.class_scope.contains_key(c) => Some(0),
            (_, Def::Class(_)) => Some(1),
            (Ns::Type | Ns::Scope, Def::Typedef(_)) => Some(2),
            (Ns::Type | Ns::Scope, Def::Enum(_)) => Some(3),
            (Ns::Type | Ns::Scope, Def::ClassTemplate(_) | Def::AliasTemplate(_) | Def::Template) => Some(4),
            (Ns::Scope, Def::Namespace(_)) => Some(0),
            (Ns::Value, Def::Var(_) | Def::Enumerator(..) | Def::Value | Def::VarTemplate(_)) => Some(0),
            (Ns::Value, Def::Fn(_) | Def::FnTemplate(_)) => Some(1),
            (_, Def::UsingDecl(..)) => Some(5),
            _ => None,
        }
    };
    let mut best: Option<(u8, &Def)> = None;
    for d in defs {
        if let Some(r) = rank(d)
            && best.is_none_or(|(b, _)| r < b)
        {
            best = Some((r, d));
        }
    }
    let (_, d) = best?;
    match d {
        Def::UsingDecl(from, path) if depth < 16 => resolve_path_depth(db, map, *from, path, ns, depth + 1),
        Def::UsingDecl(..) => None,
        // A class name hides nothing of its own: but in value lookup a class is not a value.
        Def::Class(_) if ns == Ns::Value => None,
        d => Some(d.clone()),
    }
}

/// Looks `name` up in scope `s` only: its names, what it nominates, and for a
/// class its bases.
pub fn lookup_member(db: &dyn SourceDatabase, map: &DefMap, s: ScopeIdx, name: &str, ns: Ns) -> Option<Def> {
    member(db, map, s, name, ns, &mut FxHashSet::default(), 0)
}

fn member(
    db: &dyn SourceDatabase,
    map: &DefMap,
    s: ScopeIdx,
    name: &str,
    ns: Ns,
    seen: &mut FxHashSet<ScopeIdx>,
    depth: u32,
) -> Option<Def> {
    if !seen.insert(s) || depth > 32 {
        return None;
    }
    let scope = map.scope(s);
    if let Some(v) = scope.names.get(name)
        && let Some(d) = pick(db, map, v, ns, depth)
    {
        return Some(d);
    }
    for &u in &scope.usings {
        if let Some(d) = member(db, map, u, name, ns, seen, depth + 1) {
            return Some(d);
        }
    }
    if let ScopeKind::Class(c) = scope.kind {
        for b in crate::ty::class_bases(db, c).iter() {
            if let Some(crate::layout::ClassRef::Class(bc)) = b.class
                && let Some(&bs) = map.class_scope.get(&bc)
                && let Some(d) = member(db, map, bs, name, ns, seen, depth + 1)
            {
                return Some(d);
            }
        }
    }
    None
}

/// Unqualified lookup from scope `s` outwards.
pub fn lookup(db: &dyn SourceDatabase, map: &DefMap, s: ScopeIdx, name: &str, ns: Ns) -> Option<Def> {
    lookup_depth(db, map, s, name, ns, 0)
}

fn lookup_depth(db: &dyn SourceDatabase, map: &DefMap, s: ScopeIdx, name: &str, ns: Ns, depth: u32) -> Option<Def> {
    let mut cur = Some(s);
    while let Some(c) = cur {
        if let Some(d) = member(db, map, c, name, ns, &mut FxHashSet::default(), depth) {
            return Some(d);
        }
        cur = map.scope(c).parent;
    }
    None
}

/// The scope a definition opens for `::` (typedefs to classes included).
pub fn scope_of(db: &dyn SourceDatabase, map: &DefMap, d: &Def) -> Option<ScopeIdx> {
    match d {
        Def::Namespace(s) => Some(*s),
        Def::Class(c) => map.class_scope.get(&map.class_definition(*c)).copied(),
        Def::Enum(e) => map.enum_scope.get(e).copied(),
        Def::Typedef(t) => {
            let ty = crate::ty::canonical(db, crate::ty::typedef_ty(db, *t));
            match ty.kind(db) {
                crate::TyKind::Class(c) => map.class_scope.get(&map.class_definition(*c)).copied(),
                crate::TyKind::Enum(e) => map.enum_scope.get(e).copied(),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Qualified (or unqualified, for one segment) lookup of `path` from `from`.
pub fn resolve_path(db: &dyn SourceDatabase, map: &DefMap, from: ScopeIdx, path: &Path, ns: Ns) -> Option<Def> {
    resolve_path_depth(db, map, from, path, ns, 0)
}

fn resolve_path_depth(
    db: &dyn SourceDatabase,
    map: &DefMap,
    from: ScopeIdx,
    path: &Path,
    ns: Ns,
    depth: u32,
) -> Option<Def> {
    let (last, quals) = path.segments.split_last()?;
    if quals.is_empty() {
        return if path.global {
            member(db, map, ROOT, &last.name, ns, &mut FxHashSet::default(), depth)
        } else {
            lookup_depth(db, map, from, &last.name, ns, depth)
        };
    }
    let first = &quals[0];
    if path.global {
        let d = member(db, map, ROOT, &first.name, Ns::Scope, &mut FxHashSet::default(), depth)?;
        return resolve_in(db, map, &d, path, ns, depth);
    }
    // The scope names have no points of declaration: the nearest namespace
    // `first` may be one declared after the name (`std::ranges::__detail`,
    // opened by `<ranges>` after `<concepts>` names `__detail::__class_or_enum`,
    // which lookup at the point of definition binds to `std::__detail`). In
    // a valid program a nearer namespace that lacks the rest of the path is
    // such a later one, so lookup of `first` goes on outside the scope that
    // declares it.
    let mut start = from;
    for _ in 0..16 {
        let d = lookup_depth(db, map, start, &first.name, Ns::Scope, depth)?;
        if let Some(r) = resolve_in(db, map, &d, path, ns, depth) {
            return Some(r);
        }
        let Def::Namespace(n) = d else { return None };
        let home = map.scope(n).parent?;
        if !encloses(map, home, start) {
            return None;
        }
        start = map.scope(home).parent?;
    }
    None
}

/// The rest of a qualified `path` (after its first segment) resolved in
/// the scope `first` denotes.
fn resolve_in(db: &dyn SourceDatabase, map: &DefMap, first: &Def, path: &Path, ns: Ns, depth: u32) -> Option<Def> {
    let (last, quals) = path.segments.split_last()?;
    if quals.first()?.args.is_some() {
        return None;
    }
    let mut s = scope_of(db, map, first)?;
    for seg in &quals[1..] {
        if seg.args.is_some() {
            return None;
        }
        let d = member(db, map, s, &seg.name, Ns::Scope, &mut FxHashSet::default(), depth)?;
        s = scope_of(db, map, &d)?;
    }
    member(db, map, s, &last.name, ns, &mut FxHashSet::default(), depth)
}

/// Whether `outer` is `s` or one of its enclosing scopes.
fn encloses(map: &DefMap, outer: ScopeIdx, s: ScopeIdx) -> bool {
    let mut cur = Some(s);
    for _ in 0..256 {
        match cur {
            Some(c) if c == outer => return true,
            Some(c) => cur = map.scope(c).parent,
            None => return false,
        }
    }
    false
}

/// The functions and function templates scope `s` itself declares under
/// `name` (`fn_name_key`), with what its using-declarations bring in and
/// (for a namespace) what it nominates. No bases: see
/// `instances::member_fns` for classes.
pub fn own_fns(db: &dyn SourceDatabase, map: &DefMap, s: ScopeIdx, name: &str) -> Vec<FnDecl> {
    let mut out = Vec::new();
    own_fns_into(db, map, s, name, &mut FxHashSet::default(), 0, &mut out);
    out
}

fn own_fns_into(
    db: &dyn SourceDatabase,
    map: &DefMap,
    s: ScopeIdx,
    name: &str,
    seen: &mut FxHashSet<ScopeIdx>,
    depth: u32,
    out: &mut Vec<FnDecl>,
) {
    if !seen.insert(s) || depth > 16 {
        return;
    }
    let scope = map.scope(s);
    for d in scope.names.get(name).into_iter().flatten() {
        match d {
            Def::Fn(f) => push_fn(out, FnDecl::Fn(*f)),
            Def::FnTemplate(t) => push_fn(out, FnDecl::Template(*t)),
            Def::UsingDecl(from, path) => {
                // `using N::f;` / `using Base::f;`: the functions of the named scope.
                let mut q = path.clone();
                let Some(last) = q.segments.pop() else { continue };
                let target = if q.segments.is_empty() {
                    if q.global { Some(ROOT) } else { None }
                } else {
                    resolve_path(db, map, *from, &q, Ns::Scope).and_then(|d| scope_of(db, map, &d))
                };
                if let Some(t) = target {
                    let mut inner = FxHashSet::default();
                    own_fns_into(db, map, t, &last.name, &mut inner, depth + 1, out);
                    if out.is_empty()
                        && let ScopeKind::Class(_) = map.scope(t).kind
                    {
                        // The depth goes on: a using-declaration that names
                        // its own class (or a cycle of them) would recurse
                        // without end.
                        for f in lookup_fns_depth(db, map, t, &last.name, depth + 1) {
                            push_fn(out, f);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if !matches!(scope.kind, ScopeKind::Class(_)) {
        for &u in &scope.usings {
            own_fns_into(db, map, u, name, seen, depth + 1, out);
        }
    }
}

fn push_fn(out: &mut Vec<FnDecl>, f: FnDecl) {
    if !out.contains(&f) {
        out.push(f);
    }
}

/// The overload set unqualified lookup of `name` finds from scope `s`: the
/// functions of the innermost enclosing scope that declares any (class
/// scopes with their non-template bases). Argument-dependent lookup is the
/// caller's (`own_fns` in the associated namespaces).
pub fn lookup_fns(db: &dyn SourceDatabase, map: &DefMap, s: ScopeIdx, name: &str) -> Vec<FnDecl> {
    lookup_fns_depth(db, map, s, name, 0)
}

/// `lookup_fns` inside a using-declaration's lookup `depth` levels deep.
fn lookup_fns_depth(db: &dyn SourceDatabase, map: &DefMap, s: ScopeIdx, name: &str, depth: u32) -> Vec<FnDecl> {
    if depth > 16 {
        return Vec::new();
    }
    let mut cur = Some(s);
    let mut steps = 0;
    while let Some(c) = cur {
        let mut out = Vec::new();
        own_fns_into(db, map, c, name, &mut FxHashSet::default(), depth, &mut out);
        if out.is_empty()
            && let ScopeKind::Class(k) = map.scope(c).kind
        {
            class_base_fns(db, map, k, name, 0, &mut out);
        }
        if !out.is_empty() {
            return out;
        }
        steps += 1;
        if steps > 256 {
            break;
        }
        cur = map.scope(c).parent;
    }
    Vec::new()
}

fn class_base_fns(db: &dyn SourceDatabase, map: &DefMap, c: ClassId, name: &str, depth: u32, out: &mut Vec<FnDecl>) {
    if depth > 32 {
        return;
    }
    for b in crate::ty::class_bases(db, c).iter() {
        if let Some(crate::layout::ClassRef::Class(bc)) = b.class
            && let Some(&bs) = map.class_scope.get(&bc)
        {
            let own = own_fns(db, map, bs, name);
            if own.is_empty() {
                class_base_fns(db, map, bc, name, depth + 1, out);
            } else {
                for f in own {
                    push_fn(out, f);
                }
            }
        }
    }
}

/// One scope of a qualifier as a printer writes it: a namespace (`None`
/// for an anonymous one) or a class, with the template parameters of a
/// class template's own definition as its arguments (`Collective<E, Ns...>`,
/// the current instantiation inside it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QualifierSeg {
    pub name: Option<String>,
    pub args: Option<Vec<String>>,
}

/// Where the type name `name`, looked up from the scope that the names
/// `from` reach from the global namespace (outermost first; `None` for an
/// anonymous namespace), is declared: that scope's qualifier, outermost
/// first. What a printer needs to qualify the name fully. `None` when a
/// scope or the name is not found, or a scope on the way is one the
/// printer could not spell (a partial specialization, an unnamed template
/// parameter).
pub fn declaring_scope_names(
    db: &dyn SourceDatabase,
    map: &DefMap,
    from: &[Option<String>],
    name: &str,
) -> Option<Vec<QualifierSeg>> {
    let mut cur = ROOT;
    for seg in from {
        cur = match seg {
            None => *map
                .scope(cur)
                .usings
                .iter()
                .find(|&&u| matches!(map.scope(u).kind, ScopeKind::Namespace { name: None, .. }))?,
            Some(n) => match lookup_member(db, map, cur, n, Ns::Scope)? {
                Def::Namespace(s) => s,
                Def::Class(c) | Def::ClassTemplate(c) => *map.class_scope.get(&map.class_definition(c))?,
                _ => return None,
            },
        };
    }
    let key = match lookup(db, map, cur, name, Ns::Type)? {
        Def::Class(c) | Def::ClassTemplate(c) => DeclKey::Class(c),
        Def::Typedef(t) | Def::AliasTemplate(t) => DeclKey::Typedef(t),
        Def::Enum(e) => DeclKey::Enum(e),
        _ => return None,
    };
    let mut s = *map.parent.get(&key)?;
    let mut names = Vec::new();
    while s != ROOT {
        let scope = map.scope(s);
        names.push(match &scope.kind {
            ScopeKind::Namespace { name, .. } => QualifierSeg { name: name.clone(), args: None },
            ScopeKind::Class(c) => {
                let tree = crate::item_tree_of(db, c.item(db));
                let data = tree.classes.get(c.idx(db) as usize)?;
                let args = match (&data.tparams, &data.spec_args) {
                    (_, Some(_)) => return None,
                    (Some(ps), None) => Some(
                        ps.iter()
                            .map(|p| p.name.as_ref().map(|n| if p.pack { format!("{n}...") } else { n.clone() }))
                            .collect::<Option<Vec<_>>>()?,
                    ),
                    (None, None) => None,
                };
                QualifierSeg { name: Some(data.name.clone()?), args }
            }
            _ => return None,
        });
        s = scope.parent?;
    }
    names.reverse();
    Some(names)
}
