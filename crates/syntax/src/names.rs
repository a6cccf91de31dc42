//! The name-kind oracle: what the declarations seen so far say an identifier
//! is (type, template, namespace, value). C++ cannot be parsed without it
//! (`a<b>(c)`, `T * x;`).
//!
//! `Names` is an arena of persistent scopes (`ScopeId`): a namespace keeps one
//! scope however often it is reopened, a class keeps its members (and its
//! non-dependent bases) so that `C::x`, inherited members and out-of-line
//! definitions (`void C::f() {}` re-enters `C`) can be looked up later, and a
//! lazily parsed function body re-enters the scope it was written in.
//!
//! Every mutation (declarations, new scopes, using-directives, bases, the
//! current-scope pointer) is journaled so that the parser can rewind a
//! tentative parse exactly (`journal_len` / `rewind`).
//!
//! Names are interned (`Sym`): a lookup hashes its string once, then probes
//! each scope it walks with a number; a name never declared anywhere is not
//! interned, and its lookup stops at the first probe.
//!
//! Every declaration and using-directive carries its time (the journal
//! length when it was made), and a redeclaration keeps the version it
//! replaces (`Slot::prev`). A function body parsed after the declaration
//! pass hides the times between its horizon and the end of that pass
//! (`set_hidden`): it sees exactly the names declared before it, plus its
//! class's members for a member body (the horizon is then the end of the
//! outermost class), however late it is parsed.
//!
//! The rules and the residual heuristics are described in `docs/name-oracle.md`.

use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    Type,
    /// Any template (class, alias, function, variable): `<` after it opens arguments.
    Template,
    Namespace,
    Value,
    Concept,
}

/// Persistent scope handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopeId(u32);

impl ScopeId {
    /// The global namespace.
    pub const GLOBAL: ScopeId = ScopeId(0);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScopeKind {
    Namespace,
    Class,
    Enum,
    /// `template<...>`: the template parameters.
    Template,
    /// Function parameters (and, for a body, its outermost block).
    Function,
    Block,
    /// Re-entry into classes for an out-of-line member (`void A::B::f() {...}`):
    /// transparent, looks into `imports` before its parent.
    Reactivation,
}

/// What a name denotes, as far as parsing needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    pub kind: NameKind,
    /// The scope that a qualified name looks into (`N::x`, `C::x`, `E::x`).
    pub scope: Option<ScopeId>,
    /// A template type parameter (or a type made from one): `T::x` is
    /// dependent, so it is a value unless `typename` says otherwise.
    pub dependent: bool,
    /// A template whose specializations are types (class or alias template,
    /// template template parameter). Without arguments it still names a type
    /// (injected class name, class template argument deduction).
    pub type_template: bool,
}

impl Entry {
    pub fn new(kind: NameKind) -> Entry {
        Entry { kind, scope: None, dependent: false, type_template: false }
    }
    pub fn with_scope(kind: NameKind, scope: ScopeId) -> Entry {
        Entry { scope: Some(scope), ..Entry::new(kind) }
    }
    /// Does the name denote a type when used without template arguments?
    pub fn is_type(&self) -> bool {
        self.kind == NameKind::Type || (self.kind == NameKind::Template && self.type_template)
    }
    pub fn is_template(&self) -> bool {
        matches!(self.kind, NameKind::Template | NameKind::Concept)
    }
}

/// An interned name (`Names::symbols`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Sym(u32);

/// A point of the declaration history: the journal length when a
/// declaration was made. Lazy bodies record theirs (`horizon`).
pub type Time = u32;

/// One version of a name in a scope: what it denotes, since when, and the
/// version it replaced (an index into `Names::history`, `NO_PREV` if none).
#[derive(Clone, Copy, Debug)]
struct Slot {
    entry: Entry,
    time: Time,
    prev: u32,
}

const NO_PREV: u32 = u32::MAX;

/// A using-directive (or what acts as one: an inline or unnamed namespace,
/// `using enum`).
#[derive(Clone, Copy, Debug)]
struct Using {
    /// The nominated scope.
    ns: ScopeId,
    time: Time,
    /// Where unqualified lookup sees its names: the nearest enclosing
    /// namespace that contains both the directive and `ns`
    /// ([namespace.udir]/2), or the directive's own scope for `using enum`.
    at: ScopeId,
}

#[derive(Debug, Clone)]
struct Scope {
    kind: ScopeKind,
    parent: Option<ScopeId>,
    name: Box<str>,
    names: FxHashMap<Sym, Slot>,
    /// Namespaces named by using-directives here (and inline namespaces, which
    /// behave as if nominated by one).
    using: Vec<Using>,
    /// Non-dependent base classes (classes), or re-entered classes (reactivation).
    bases: Vec<ScopeId>,
    /// Has at least one dependent base: unqualified lookup does not look
    /// there (two-phase lookup), qualified lookup that misses is dependent.
    dependent_bases: bool,
}

#[derive(Debug, Clone)]
enum Op {
    Declare { scope: ScopeId, name: Sym, old: Option<Slot> },
    NewScope,
    Using { scope: ScopeId },
    Base { scope: ScopeId },
    DependentBase { scope: ScopeId, old: bool },
    Current { old: ScopeId },
    Parent { scope: ScopeId, old: Option<ScopeId> },
}

#[derive(Debug, Clone)]
pub struct Names {
    scopes: Vec<Scope>,
    current: ScopeId,
    journal: Vec<Op>,
    /// Every name ever declared (rewinding keeps them: a symbol without
    /// declarations is harmless).
    symbols: FxHashMap<Box<str>, Sym>,
    /// Versions replaced by a redeclaration (`Slot::prev`); pushed and
    /// popped with the journal's `Declare` entries that replace one.
    history: Vec<Slot>,
    /// Time windows `[from, to)` whose declarations and using-directives
    /// lookup does not see (`set_hidden`).
    hidden: Vec<(Time, Time)>,
}

impl Default for Names {
    fn default() -> Self {
        Names::new()
    }
}

/// Bound on the nesting of using-directives and bases followed by one lookup
/// (cycles are legal: `namespace a { using namespace b; }` and vice versa).
const MAX_INDIRECTION: u32 = 12;

/// Bound on the scopes (beyond the first) that one lookup step visits through
/// using-directives and bases.
const MAX_VISITS: u32 = 256;

impl Names {
    /// Gives back what growing reserved beyond the lengths: a parse keeps
    /// its table for the bodies parsed later, as long as the unit lives.
    pub fn shrink_to_fit(&mut self) {
        self.scopes.shrink_to_fit();
        for s in &mut self.scopes {
            s.using.shrink_to_fit();
            s.bases.shrink_to_fit();
        }
        self.journal.shrink_to_fit();
        self.history.shrink_to_fit();
        self.hidden.shrink_to_fit();
    }

    pub fn new() -> Names {
        let global = Scope {
            kind: ScopeKind::Namespace,
            parent: None,
            name: "".into(),
            names: FxHashMap::default(),
            using: Vec::new(),
            bases: Vec::new(),
            dependent_bases: false,
        };
        let mut names = Names {
            scopes: vec![global],
            current: ScopeId::GLOBAL,
            journal: Vec::new(),
            symbols: FxHashMap::default(),
            history: Vec::new(),
            hidden: Vec::new(),
        };
        // Types the GNU dialect provides without a declaration.
        for builtin in ["__builtin_va_list", "__int128_t", "__uint128_t"] {
            let sym = names.intern(builtin);
            names.scopes[0].names.insert(sym, Slot { entry: Entry::new(NameKind::Type), time: 0, prev: NO_PREV });
        }
        names
    }

    /// The symbol of `name`, if it was ever declared.
    fn sym(&self, name: &str) -> Option<Sym> {
        self.symbols.get(name).copied()
    }

    fn intern(&mut self, name: &str) -> Sym {
        if let Some(sym) = self.sym(name) {
            return sym;
        }
        let sym = Sym(self.symbols.len() as u32);
        self.symbols.insert(name.into(), sym);
        sym
    }

    // ---- journal

    pub fn journal_len(&self) -> usize {
        self.journal.len()
    }

    /// The current time: declarations made from now on have this time or later.
    pub fn now(&self) -> Time {
        self.journal.len() as Time
    }

    /// Hides the declarations and using-directives made in the windows
    /// `[from, to)` from every lookup, until the next call (an empty list
    /// shows everything). A body parsed after the declaration pass hides
    /// `[its horizon, the end of the pass)`.
    pub fn set_hidden(&mut self, windows: Vec<(Time, Time)>) {
        self.hidden = windows;
    }

    fn is_hidden(&self, time: Time) -> bool {
        self.hidden.iter().any(|&(from, to)| from <= time && time < to)
    }

    /// The newest version of `slot` that is not hidden.
    fn visible(&self, slot: &Slot) -> Option<Entry> {
        let mut s = slot;
        loop {
            if !self.is_hidden(s.time) {
                return Some(s.entry);
            }
            if s.prev == NO_PREV {
                return None;
            }
            s = &self.history[s.prev as usize];
        }
    }

    fn get_visible(&self, scope: ScopeId, name: Sym) -> Option<Entry> {
        let slot = self.scope(scope).names.get(&name)?;
        if self.hidden.is_empty() { Some(slot.entry) } else { self.visible(slot) }
    }

    pub fn rewind(&mut self, len: usize) {
        while self.journal.len() > len {
            match self.journal.pop().unwrap() {
                Op::Declare { scope, name, old } => {
                    let names = &mut self.scopes[scope.0 as usize].names;
                    match old {
                        Some(slot) => {
                            names.insert(name, slot);
                            // `set` pushed it when it was replaced.
                            self.history.pop();
                        }
                        None => {
                            names.remove(&name);
                        }
                    }
                }
                Op::NewScope => {
                    self.scopes.pop();
                }
                Op::Using { scope } => {
                    self.scopes[scope.0 as usize].using.pop();
                }
                Op::Base { scope } => {
                    self.scopes[scope.0 as usize].bases.pop();
                }
                Op::DependentBase { scope, old } => self.scopes[scope.0 as usize].dependent_bases = old,
                Op::Current { old } => self.current = old,
                Op::Parent { scope, old } => self.scopes[scope.0 as usize].parent = old,
            }
        }
    }

    // ---- scopes

    pub fn current_scope(&self) -> ScopeId {
        self.current
    }

    /// Makes `id` the current scope; returns the previous one (give it back to `enter_scope` to restore).
    pub fn enter_scope(&mut self, id: ScopeId) -> ScopeId {
        let old = self.current;
        if old != id {
            self.journal.push(Op::Current { old });
            self.current = id;
        }
        old
    }

    /// Creates a scope whose parent is the current scope (not entered).
    pub fn new_scope(&mut self, kind: ScopeKind, name: &str) -> ScopeId {
        let parent = self.current;
        self.scopes.push(Scope {
            kind,
            parent: Some(parent),
            name: name.into(),
            names: FxHashMap::default(),
            using: Vec::new(),
            bases: Vec::new(),
            dependent_bases: false,
        });
        self.journal.push(Op::NewScope);
        ScopeId(self.scopes.len() as u32 - 1)
    }

    /// Creates a scope of `kind` inside the current one and enters it; returns the previous scope.
    pub fn push_scope(&mut self, kind: ScopeKind) -> ScopeId {
        let id = self.new_scope(kind, "");
        self.enter_scope(id)
    }

    pub fn push_block_scope(&mut self) -> ScopeId {
        self.push_scope(ScopeKind::Block)
    }

    /// Leaves the current scope for its parent.
    pub fn pop_scope(&mut self) {
        if let Some(parent) = self.scope(self.current).parent {
            self.enter_scope(parent);
        }
    }

    /// Re-enters the classes `classes` (outermost first) for an out-of-line
    /// member definition, on top of the current scope; returns the previous scope.
    pub fn push_reactivation(&mut self, classes: &[ScopeId]) -> ScopeId {
        let id = self.new_scope(ScopeKind::Reactivation, "");
        for &c in classes.iter().rev() {
            self.add_base(id, c);
        }
        self.enter_scope(id)
    }

    pub fn scope_kind(&self, id: ScopeId) -> ScopeKind {
        self.scope(id).kind
    }

    pub fn scope_parent(&self, id: ScopeId) -> Option<ScopeId> {
        self.scope(id).parent
    }

    pub fn scope_name(&self, id: ScopeId) -> &str {
        &self.scope(id).name
    }

    /// The innermost class scope around the current scope (through template,
    /// function and block scopes), or a re-entered class.
    pub fn enclosing_class(&self) -> Option<ScopeId> {
        let mut s = Some(self.current);
        while let Some(id) = s {
            let sc = self.scope(id);
            match sc.kind {
                ScopeKind::Class => return Some(id),
                ScopeKind::Reactivation => return sc.bases.last().copied(),
                ScopeKind::Namespace => return None,
                _ => {}
            }
            s = sc.parent;
        }
        None
    }

    /// The innermost namespace or class scope: where a declaration's name goes
    /// when it is not a block-scope declaration.
    pub fn enclosing_decl_scope(&self) -> ScopeId {
        let mut s = self.current;
        loop {
            let sc = self.scope(s);
            match sc.kind {
                ScopeKind::Namespace | ScopeKind::Class | ScopeKind::Block | ScopeKind::Function => return s,
                _ => match sc.parent {
                    Some(p) => s = p,
                    None => return s,
                },
            }
        }
    }

    /// Where a declaration written at the current point puts its name: the
    /// current scope, skipping template parameter scopes (`template<class T>
    /// struct X` declares `X` around the parameters).
    pub fn declaration_scope(&self) -> ScopeId {
        let mut s = self.current;
        loop {
            let sc = self.scope(s);
            if !matches!(sc.kind, ScopeKind::Template | ScopeKind::Reactivation) {
                return s;
            }
            match sc.parent {
                Some(p) => s = p,
                None => return s,
            }
        }
    }

    /// Is the declaration being parsed a template declaration (directly inside `template<...>`)?
    pub fn at_template_declaration(&self) -> bool {
        self.scope(self.current).kind == ScopeKind::Template
    }

    /// Lookup in `scope` alone (no bases, no using-directives).
    pub fn lookup_local(&self, scope: ScopeId, name: &str) -> Option<Entry> {
        self.get_visible(scope, self.sym(name)?)
    }

    /// The innermost namespace scope.
    pub fn enclosing_namespace(&self) -> ScopeId {
        let mut s = self.current;
        loop {
            let sc = self.scope(s);
            if sc.kind == ScopeKind::Namespace {
                return s;
            }
            match sc.parent {
                Some(p) => s = p,
                None => return s,
            }
        }
    }

    /// Is the current scope inside a template (a template parameter scope or a templated class)?
    pub fn in_template(&self) -> bool {
        self.in_template_at(self.current, 0)
    }

    /// `depth` counts the re-entered classes followed: a class's own parent
    /// chain may pass through another reactivation scope, and those links are
    /// not kept acyclic, so they get the same bound as bases.
    fn in_template_at(&self, start: ScopeId, depth: u32) -> bool {
        let mut s = Some(start);
        while let Some(id) = s {
            let sc = self.scope(id);
            match sc.kind {
                ScopeKind::Template => return true,
                ScopeKind::Reactivation
                    if depth < MAX_INDIRECTION
                        && sc.bases.iter().any(|&b| {
                            self.scope(b).kind != ScopeKind::Reactivation && self.in_template_at(b, depth + 1)
                        }) =>
                {
                    return true;
                }
                _ => {}
            }
            s = sc.parent;
        }
        false
    }

    /// Is `id` a class template, or a class inside one?
    pub fn is_templated(&self, id: ScopeId) -> bool {
        matches!(self.scope(id).kind, ScopeKind::Class | ScopeKind::Enum) && self.in_template_at(id, 0)
    }

    fn scope(&self, id: ScopeId) -> &Scope {
        &self.scopes[id.0 as usize]
    }

    // ---- declaring

    /// Declares `name` in the current scope.
    pub fn declare(&mut self, name: &str, kind: NameKind) {
        self.declare_entry_in(self.current, name, Entry::new(kind));
    }

    pub fn declare_entry(&mut self, name: &str, entry: Entry) {
        self.declare_entry_in(self.current, name, entry);
    }

    /// Declares `name` in `scope`, following the hiding rules that matter for
    /// parsing: a class or enum name does not hide a function or variable of
    /// the same scope (`struct stat` / `int stat(...)`), and a function does
    /// not turn an overloaded function template back into a plain value.
    pub fn declare_entry_in(&mut self, scope: ScopeId, name: &str, entry: Entry) {
        if name.is_empty() {
            return;
        }
        let name = self.intern(name);
        let slot = self.scope(scope).names.get(&name).copied();
        let old = self.get_visible(scope, name);
        if let Some(old) = old {
            let keep_old = match (old.kind, entry.kind) {
                // A class/enum name (or a redeclaration of one) never hides a value.
                (NameKind::Value, NameKind::Type) if entry.scope.is_some() => true,
                (NameKind::Template, NameKind::Value) if !old.type_template => true,
                // `template<...> struct X;` then `struct X<int> {...}` style redeclarations keep the template.
                (NameKind::Template, NameKind::Type) if old.type_template && entry.scope.is_some() => {
                    if old.scope.is_none() {
                        // A forward-declared template gets its scope when defined.
                        let merged = Entry { scope: entry.scope, ..old };
                        self.set(scope, name, merged, slot);
                    }
                    true
                }
                (NameKind::Namespace, NameKind::Namespace) => old.scope == entry.scope,
                _ => old == entry,
            };
            if keep_old {
                return;
            }
        }
        self.set(scope, name, entry, slot);
    }

    /// Makes `entry` the newest version of `name` in `scope`, keeping `old`
    /// (the current slot) as the one before it.
    fn set(&mut self, scope: ScopeId, name: Sym, entry: Entry, old: Option<Slot>) {
        let prev = match old {
            Some(o) => {
                self.history.push(o);
                (self.history.len() - 1) as u32
            }
            None => NO_PREV,
        };
        let slot = Slot { entry, time: self.now(), prev };
        self.scopes[scope.0 as usize].names.insert(name, slot);
        self.journal.push(Op::Declare { scope, name, old });
    }

    /// The namespace `name` in the current scope: reopened if it exists, else created.
    pub fn namespace_scope(&mut self, name: &str, inline: bool) -> ScopeId {
        let cur = self.current;
        if !name.is_empty()
            && let Some(sym) = self.sym(name)
            && let Some(e) = self.scope(cur).names.get(&sym).map(|slot| slot.entry)
            && e.kind == NameKind::Namespace
            && let Some(s) = e.scope
            && self.scope(s).parent == Some(cur)
        {
            if inline && !self.scope(cur).using.iter().any(|u| u.ns == s) {
                self.add_using(cur, s);
            }
            return s;
        }
        let id = self.new_scope(ScopeKind::Namespace, name);
        if name.is_empty() {
            // The unnamed namespace: its members are visible in the enclosing one.
            self.add_using(cur, id);
        } else {
            self.declare_entry_in(cur, name, Entry::with_scope(NameKind::Namespace, id));
            if inline {
                self.add_using(cur, id);
            }
        }
        id
    }

    /// `using namespace N;` in the current scope.
    pub fn using_directive(&mut self, ns: ScopeId) {
        let cur = self.current;
        if cur != ns && !self.scope(cur).using.iter().any(|u| u.ns == ns) {
            self.add_using(cur, ns);
        }
    }

    fn add_using(&mut self, scope: ScopeId, ns: ScopeId) {
        let using = Using { ns, time: self.now(), at: self.nominated_at(scope, ns) };
        self.scopes[scope.0 as usize].using.push(using);
        self.journal.push(Op::Using { scope });
    }

    /// The nearest namespace enclosing both `scope` and the namespace `ns`
    /// (`scope` itself when `ns` is not a namespace: `using enum`).
    fn nominated_at(&self, scope: ScopeId, ns: ScopeId) -> ScopeId {
        if self.scope(ns).kind != ScopeKind::Namespace {
            return scope;
        }
        let mut a = Some(ns);
        while let Some(x) = a {
            if self.scope(x).kind == ScopeKind::Namespace && self.is_ancestor_or_self(x, scope) {
                return x;
            }
            a = self.scope(x).parent;
        }
        ScopeId::GLOBAL
    }

    /// Makes `parent` the parent of `scope` (a class defined after its forward
    /// declaration sees the template parameters of its definition).
    ///
    /// Refused when `scope` is `parent` or one of its ancestors: the parent
    /// links must stay a tree, since every outward walk (lookup, enclosing
    /// scopes) follows them to the root. Ill-formed code asks for such a link,
    /// e.g. `struct A { template<class T> struct ::A {}; }` or a member class
    /// named like its class inside `template<...>`.
    pub fn reparent(&mut self, scope: ScopeId, parent: ScopeId) {
        let old = self.scope(scope).parent;
        if old == Some(parent) || self.is_ancestor_or_self(scope, parent) {
            return;
        }
        self.scopes[scope.0 as usize].parent = Some(parent);
        self.journal.push(Op::Parent { scope, old });
    }

    /// Is `ancestor` the scope `id` or one of its enclosing scopes? The walk ends
    /// because the parent links form a tree (`new_scope` links to an existing
    /// scope, `reparent` refuses cycles).
    fn is_ancestor_or_self(&self, ancestor: ScopeId, id: ScopeId) -> bool {
        let mut s = Some(id);
        while let Some(cur) = s {
            if cur == ancestor {
                return true;
            }
            s = self.scope(cur).parent;
        }
        false
    }

    /// Records a non-dependent base class of class `class`.
    pub fn add_base(&mut self, class: ScopeId, base: ScopeId) {
        if class == base {
            return;
        }
        self.scopes[class.0 as usize].bases.push(base);
        self.journal.push(Op::Base { scope: class });
    }

    /// Records that class `class` has a dependent base.
    pub fn add_dependent_base(&mut self, class: ScopeId) {
        let old = self.scope(class).dependent_bases;
        self.scopes[class.0 as usize].dependent_bases = true;
        self.journal.push(Op::DependentBase { scope: class, old });
    }

    // ---- looking up

    /// Unqualified lookup from the current scope.
    pub fn lookup(&self, name: &str) -> Option<NameKind> {
        self.lookup_entry(name).map(|e| e.kind)
    }

    /// Unqualified lookup from the current scope, walking outwards.
    ///
    /// Cost: one hash probe per enclosing scope (the parent links form a
    /// tree, see `reparent`, whose depth the parser's nesting bound limits),
    /// plus at most `MAX_VISITS` scopes reached through using-directives and
    /// bases from each of them. The budget is per enclosing scope on purpose:
    /// a shared one would let directives in inner blocks hide the names that
    /// an outer scope's directives make visible.
    ///
    /// A using-directive's names are seen at the namespace it nominates them
    /// into (`Using::at`), not where it is written: in `namespace
    /// cutlass::gemm::collective { using namespace cute; }`, `gemm` is still
    /// `cutlass::gemm`, found in `cutlass` before `cute::gemm` at the global
    /// namespace. The directives met on the way wait in `pending` (each
    /// nominated namespace once) until the walk reaches their namespace.
    pub fn lookup_entry(&self, name: &str) -> Option<Entry> {
        let name = self.sym(name)?;
        let mut pending: Vec<Using> = Vec::new();
        let mut s = Some(self.current);
        while let Some(id) = s {
            let sc = self.scope(id);
            match sc.kind {
                ScopeKind::Namespace | ScopeKind::Block | ScopeKind::Function => {
                    let own = self.get_visible(id, name);
                    if let Some(e) = own
                        && e.kind != NameKind::Value
                    {
                        return Some(e);
                    }
                    for u in sc.using.iter() {
                        if !self.is_hidden(u.time) && !pending.iter().any(|p| p.ns == u.ns) {
                            pending.push(*u);
                        }
                    }
                    let mut budget = MAX_VISITS;
                    for u in pending.iter().filter(|u| u.at == id) {
                        match (own, self.find_in_budget(u.ns, name, false, 1, &mut budget)) {
                            (None, Some(e)) => return Some(e),
                            // A function here and a function template nominated
                            // here are one overload set, which has a template
                            // in it (`::select` and `cute::select<0,1>`).
                            (Some(_), Some(e)) if e.kind == NameKind::Template && !e.type_template => return Some(e),
                            _ => {}
                        }
                    }
                    if own.is_some() {
                        return own;
                    }
                }
                _ => {
                    if let Some(e) = self.find_in(id, name, false, 0) {
                        return Some(e);
                    }
                }
            }
            s = sc.parent;
        }
        None
    }

    /// Qualified lookup `scope::name` (members, bases, using-directives, inline namespaces).
    pub fn lookup_in(&self, scope: ScopeId, name: &str) -> Option<Entry> {
        self.find_in(scope, self.sym(name)?, true, 0)
    }

    /// Does qualified lookup into `scope` miss only because the scope is
    /// dependent (a member of a class template may come from a specialization
    /// or a dependent base)?
    pub fn is_dependent_scope(&self, scope: ScopeId) -> bool {
        self.scope(scope).dependent_bases || self.is_templated(scope)
    }

    fn find_in(&self, id: ScopeId, name: Sym, qualified: bool, depth: u32) -> Option<Entry> {
        let mut budget = MAX_VISITS;
        self.find_in_budget(id, name, qualified, depth, &mut budget)
    }

    /// `budget` bounds the scopes one lookup visits: diamonds of
    /// using-directives or bases would otherwise be walked once per path.
    fn find_in_budget(&self, id: ScopeId, name: Sym, qualified: bool, depth: u32, budget: &mut u32) -> Option<Entry> {
        let sc = self.scope(id);
        if let Some(e) = self.get_visible(id, name) {
            return Some(e);
        }
        if depth >= MAX_INDIRECTION || *budget == 0 {
            return None;
        }
        *budget -= 1;
        match sc.kind {
            ScopeKind::Class | ScopeKind::Reactivation => {
                for &s in sc.bases.iter() {
                    if let Some(e) = self.find_in_budget(s, name, qualified, depth + 1, budget) {
                        return Some(e);
                    }
                }
            }
            ScopeKind::Namespace | ScopeKind::Block | ScopeKind::Function => {
                for u in sc.using.iter() {
                    if self.is_hidden(u.time) {
                        continue;
                    }
                    if let Some(e) = self.find_in_budget(u.ns, name, qualified, depth + 1, budget) {
                        return Some(e);
                    }
                }
            }
            _ => {}
        }
        None
    }

    /// The scope named by a declared name (a namespace, class or enum), looked up unqualified.
    pub fn scope_of(&self, name: &str) -> Option<ScopeId> {
        self.lookup_entry(name).and_then(|e| e.scope)
    }

    /// Does `name` name the class whose scope is `class` (its injected class name)?
    pub fn is_class_name(&self, class: ScopeId, name: &str) -> bool {
        let sc = self.scope(class);
        sc.kind == ScopeKind::Class && &*sc.name == name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_reopen_and_using_directives_make_members_visible() {
        let mut n = Names::new();
        let std = n.namespace_scope("std", false);
        let old = n.enter_scope(std);
        n.declare("vector", NameKind::Template);
        n.enter_scope(old);
        assert_eq!(n.lookup("vector"), None);
        assert_eq!(n.lookup_in(std, "vector").map(|e| e.kind), Some(NameKind::Template));
        assert_eq!(n.namespace_scope("std", false), std);
        n.using_directive(std);
        assert_eq!(n.lookup("vector"), Some(NameKind::Template));
    }

    #[test]
    fn rewind_restores_names_scopes_and_current() {
        let mut n = Names::new();
        n.declare("a", NameKind::Type);
        let len = n.journal_len();
        let ns = n.namespace_scope("x", true);
        n.enter_scope(ns);
        n.declare("b", NameKind::Value);
        n.enter_scope(ScopeId::GLOBAL);
        n.declare("a", NameKind::Value);
        assert_eq!(n.lookup("b"), Some(NameKind::Value));
        n.rewind(len);
        assert_eq!(n.current_scope(), ScopeId::GLOBAL);
        assert_eq!(n.lookup("a"), Some(NameKind::Type));
        assert_eq!(n.lookup("b"), None);
        assert_eq!(n.lookup("x"), None);
    }

    #[test]
    fn reparent_never_makes_a_cycle() {
        let mut n = Names::new();
        let a = n.new_scope(ScopeKind::Class, "A");
        n.enter_scope(a);
        n.push_scope(ScopeKind::Template);
        let inner = n.current_scope();
        // `struct A { template<class T> struct ::A {}; }` asks for A's parent to be inside A.
        n.reparent(a, inner);
        n.reparent(a, a);
        assert_eq!(n.scope_parent(a), Some(ScopeId::GLOBAL));
        // Outward walks end.
        assert_eq!(n.lookup("nothing"), None);
        assert!(n.in_template());
        // A legal re-parenting still happens.
        let b = n.new_scope(ScopeKind::Class, "B");
        n.reparent(b, ScopeId::GLOBAL);
        assert_eq!(n.scope_parent(b), Some(ScopeId::GLOBAL));
    }

    #[test]
    fn deep_blocks_with_using_directives_stay_bounded() {
        let mut n = Names::new();
        // A namespace reachable through a wide fan of directives.
        let hub = n.namespace_scope("hub", false);
        let old = n.enter_scope(hub);
        for i in 0..300 {
            let leaf = n.namespace_scope(&format!("leaf{i}"), false);
            n.using_directive(leaf);
        }
        n.enter_scope(old);
        let target = n.namespace_scope("target", false);
        let old = n.enter_scope(target);
        n.declare("found", NameKind::Type);
        n.enter_scope(old);
        n.using_directive(target);
        // 400 nested blocks, each nominating the hub.
        for _ in 0..400 {
            n.push_block_scope();
            n.using_directive(hub);
        }
        // A miss ends (at most `MAX_VISITS` indirect visits per enclosing
        // scope), and a name that an outer scope's directive makes visible
        // is still found past the inner blocks' directives.
        assert_eq!(n.lookup("missing"), None);
        assert_eq!(n.lookup("found"), Some(NameKind::Type));
    }

    #[test]
    fn bases_and_hiding() {
        let mut n = Names::new();
        let b = n.new_scope(ScopeKind::Class, "B");
        n.declare_entry("B", Entry::with_scope(NameKind::Type, b));
        n.enter_scope(b);
        n.declare("type", NameKind::Type);
        n.pop_scope();
        let d = n.new_scope(ScopeKind::Class, "D");
        n.add_base(d, b);
        n.enter_scope(d);
        assert_eq!(n.lookup("type"), Some(NameKind::Type));
        n.pop_scope();
        // A function hides a class of the same scope in either order.
        n.declare("stat", NameKind::Value);
        let s = n.new_scope(ScopeKind::Class, "stat");
        n.declare_entry("stat", Entry::with_scope(NameKind::Type, s));
        assert_eq!(n.lookup("stat"), Some(NameKind::Value));
    }
}
