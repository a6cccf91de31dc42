//! Block-scope declarations of names in a body being inferred: aliases and
//! typedefs (bound in the inference environment, so that later types and
//! names see them), using-declarations (`using N::f;`: the functions
//! unqualified lookup then finds first; of a type or a template, bound
//! like an alias) and using-directives (`using
//! namespace N;`: searched when ordinary lookup finds nothing).
//!
//! Names are visible from their declaration to the end of the function
//! (block ends are not tracked: a later declaration of the same name wins).

use super::*;
use crate::body::LocalDecl;

/// The using-declarations and using-directives seen so far.
#[derive(Default)]
pub(super) struct LocalNames {
    usings: Vec<Path>,
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
                    self.local_names.usings.push(p.clone());
                    self.bind_using_type(p);
                }
                LocalDecl::UsingNamespace(p) => {
                    if let Some(Def::Namespace(n)) = scopes::resolve_path(self.db, self.map, self.scope, p, Ns::Scope) {
                        self.local_names.directives.push(n);
                    }
                }
            }
        }
    }

    /// A block-scope using-declaration of a type or a template (`using
    /// __detail::__variant::__gen_vtable_impl;` in `std::__do_visit`):
    /// bound in the environment like an alias, so that later types and
    /// template-ids written with the bare name see it.
    fn bind_using_type(&mut self, p: &Path) {
        let Some(name) = p.segments.last().map(|s| s.name.clone()) else { return };
        let arg = match scopes::resolve_path(self.db, self.map, self.scope, p, Ns::Type) {
            Some(Def::ClassTemplate(c)) => TemplateArg::Template(TemplateRef::Class(c)),
            Some(Def::AliasTemplate(t)) => TemplateArg::Template(TemplateRef::Alias(t)),
            Some(Def::Class(_) | Def::Enum(_) | Def::Typedef(_)) => TemplateArg::Type(canonical(self.db, self.lower(&TypeRef::Path(p.clone())))),
            _ => return,
        };
        self.env.get_or_insert_with(Env::default).names.push((name, arg));
    }

    /// The functions a block-scope using-declaration of `name` brings in
    /// (`None` when none names it).
    pub(super) fn local_using_fns(&self, name: &str) -> Option<Vec<FnDecl>> {
        let mut out = Vec::new();
        for p in self.local_names.usings.iter().rev() {
            if p.segments.last().is_none_or(|s| s.name != name) {
                continue;
            }
            let mut q = p.clone();
            q.segments.pop();
            let target = if q.segments.is_empty() {
                Some(scopes::ROOT)
            } else {
                scopes::resolve_path(self.db, self.map, self.scope, &q, Ns::Scope).and_then(|d| scopes::scope_of(self.db, self.map, &d))
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
