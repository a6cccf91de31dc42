//! Block-scope declarations of names in a body being inferred: aliases and
//! typedefs (bound in the inference environment, so that later types and
//! names see them), using-declarations (`using N::f;`: the functions
//! unqualified lookup then finds first) and using-directives (`using
//! namespace N;`: searched when ordinary lookup finds nothing).
//!
//! Names are visible from their declaration to the end of the function
//! (block ends are not tracked: a later declaration of the same name wins).

use super::*;
use crate::body::LocalDecl;

/// The using-directives seen so far (using-declarations are in the
/// environment, `Env::usings`, where type lowering sees them too).
#[derive(Default)]
pub(super) struct LocalNames {
    directives: Vec<ScopeIdx>,
}

impl Infer<'_> {
    /// Applies the declarations of statement `s` (a `Stmt::Other`).
    pub(super) fn local_decl_stmt(&mut self, s: StmtId) {
        let body = self.body;
        for (_, d) in body.local_decls.iter().filter(|(at, _)| *at == s) {
            match d {
                LocalDecl::Alias { name, ty } => {
                    let t = canonical(self.db, self.lower(ty));
                    self.env.get_or_insert_with(Env::default).names.push((name.clone(), TemplateArg::Type(t)));
                }
                LocalDecl::Using(p) => {
                    // `using core::detail::AgentLauncher;`: a type or class
                    // template is bound like an alias, so that later types
                    // (`AgentLauncher<A>`, `get_plan<A>::type`) name it.
                    // Anything else is looked up through the declaration
                    // (`templates::resolve`), also from the template
                    // arguments of later aliases (`_If<enable_promotion<…>(), int, AccumT>`).
                    let bound = self.using_type(p);
                    let env = self.env.get_or_insert_with(Env::default);
                    match bound {
                        Some((name, arg)) => env.names.push((name, arg)),
                        None => env.usings.push(p.clone()),
                    }
                }
                LocalDecl::Enumerators(list) => {
                    let mut env = self.env.take().unwrap_or_default();
                    let cx = LowerCx { db: self.db, map: self.map, item: self.item, scope: self.scope, env: None };
                    templates::bind_enumerators(cx, &mut env, list);
                    self.env = Some(env);
                }
                LocalDecl::UsingNamespace(p) => {
                    if let Some(Def::Namespace(n)) = scopes::resolve_path(self.db, self.map, self.scope, p, Ns::Scope) {
                        self.local_names.directives.push(n);
                    }
                }
            }
        }
    }

    /// The type or namespace-scope template a using-declaration names, as
    /// the template argument its name is then bound to (None for functions,
    /// variables, and what does not resolve).
    fn using_type(&self, p: &Path) -> Option<(String, TemplateArg)> {
        let name = p.segments.last()?.name.clone();
        let arg = match templates::resolve(self.lcx(), p, Ns::Type).ok()? {
            templates::Resolved::Ty(t) => TemplateArg::Type(canonical(self.db, t)),
            // Members of namespaces only: a member template of a class
            // would need the class's arguments.
            templates::Resolved::Def(Def::ClassTemplate(c), ..) if self.in_namespace(DeclKey::Class(c)) => {
                TemplateArg::Template(templates::TemplateRef::Class(c))
            }
            templates::Resolved::Def(Def::AliasTemplate(t), ..) if self.in_namespace(DeclKey::Typedef(t)) => {
                TemplateArg::Template(templates::TemplateRef::Alias(t))
            }
            templates::Resolved::Def(d @ (Def::Class(_) | Def::Typedef(_) | Def::Enum(_)), env, from) => {
                let t = templates::def_to_ty(self.lcx(), d, env.as_ref(), from, None);
                TemplateArg::Type(canonical(self.db, t))
            }
            _ => return None,
        };
        if let TemplateArg::Type(t) = &arg
            && matches!(t.kind(self.db), TyKind::Error(_) | TyKind::Dependent(_))
        {
            return None;
        }
        Some((name, arg))
    }

    fn in_namespace(&self, k: DeclKey) -> bool {
        self.map
            .parent
            .get(&k)
            .is_some_and(|&s| matches!(self.map.scope(s).kind, ScopeKind::Namespace { .. } | ScopeKind::Root))
    }

    /// The functions a block-scope using-declaration of `name` brings in
    /// (`None` when none names it).
    pub(super) fn local_using_fns(&self, name: &str) -> Option<Vec<FnDecl>> {
        let mut out = Vec::new();
        let usings = self.env.as_ref().map(|e| e.usings.as_slice()).unwrap_or_default();
        for p in usings.iter().rev() {
            if p.segments.last().is_none_or(|s| s.name != name) {
                continue;
            }
            let mut q = p.clone();
            q.segments.pop();
            let target = if q.segments.is_empty() {
                Some(scopes::ROOT)
            } else {
                scopes::resolve_path(self.db, self.map, self.scope, &q, Ns::Scope)
                    .and_then(|d| scopes::scope_of(self.db, self.map, &d))
            };
            if let Some(t) = target {
                for f in scopes::own_fns(self.db, self.map, t, name) {
                    if !out.contains(&f) {
                        out.push(f);
                    }
                }
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// The functions named `name` in the namespaces of block-scope
    /// using-directives.
    pub(super) fn directive_fns(&self, name: &str) -> Vec<FnDecl> {
        let mut out = Vec::new();
        for &n in &self.local_names.directives {
            for f in scopes::own_fns(self.db, self.map, n, name) {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        out
    }
}
