//! Template parameter packs a pack expansion's pattern names where the
//! interpreter lowers types or resolves paths: `(is_same_v<T, Ts> && ...)`
//! (libcu++'s `array` deduction guide's default template argument),
//! `(is_same<T, Ts>::value && ...)`, `(sizeof(Ts) == 8 && ...)`. The
//! pattern's i-th element is evaluated with each such pack name bound to
//! its i-th element in the frame's environment ([temp.variadic]/8), which
//! shadows the pack (`Env::get` finds the last binding).

use super::*;
use crate::item_tree::{ConstExpr, ConstPart, TemplateArgRef};

/// How deep a pattern is walked (expressions and types).
const MAX_NODES: usize = 10_000;

impl Interp<'_> {
    /// The template parameter packs `e` names (in types, template
    /// arguments and paths), with their elements; empty outside templates.
    pub(super) fn pattern_packs(&self, e: ExprId) -> Vec<(String, Vec<TemplateArg>)> {
        let Some(env) = self.frame().env.clone() else { return Vec::new() };
        let body = self.frame().body.clone();
        let mut names: Vec<String> = Vec::new();
        let mut stack = vec![e];
        let mut seen = 0;
        while let Some(x) = stack.pop() {
            seen += 1;
            if seen > MAX_NODES {
                break;
            }
            match body.expr(x) {
                Expr::Path(p) => path_names(p, &mut names),
                Expr::SizeofType(t) => type_names(t, &mut names, 0),
                Expr::Builtin { tys, args, .. } => {
                    for t in tys {
                        type_names(t, &mut names, 0);
                    }
                    stack.extend(args.iter().copied());
                }
                Expr::Cast { ty, expr, .. } => {
                    type_names(ty, &mut names, 0);
                    stack.push(*expr);
                }
                Expr::Construct { ty, args, .. } => {
                    type_names(ty, &mut names, 0);
                    stack.extend(args.iter().copied());
                }
                Expr::Unary { expr, .. } | Expr::SizeofExpr(expr) => stack.push(*expr),
                Expr::Binary { lhs, rhs, .. } | Expr::Assign { lhs, rhs, .. } | Expr::Comma { lhs, rhs } => {
                    stack.extend([*lhs, *rhs])
                }
                Expr::Call { callee, args } => {
                    stack.push(*callee);
                    stack.extend(args.iter().copied());
                }
                Expr::Member { base, .. } => stack.push(*base),
                Expr::Cond { cond, then, els } => stack.extend([*cond, *then, *els]),
                Expr::Index { base, index } => stack.extend([*base, *index]),
                _ => {}
            }
        }
        let mut out: Vec<(String, Vec<TemplateArg>)> = Vec::new();
        for n in names {
            if out.iter().any(|(m, _)| *m == n) {
                continue;
            }
            if let Some(TemplateArg::Pack(v)) = env.get(&n) {
                out.push((n, v.clone()));
            }
        }
        out
    }

    /// Evaluates element `i` of the expansion of `pattern` whose named
    /// template parameter packs are `packs`.
    pub(super) fn expansion_element(
        &mut self,
        pattern: ExprId,
        i: usize,
        packs: &[(String, Vec<TemplateArg>)],
    ) -> R<CValue> {
        let saved_index = self.frame_mut().pack_index.replace(i);
        let saved_env = self.frame().env.clone();
        if let Some(env) = &mut self.frame_mut().env {
            for (n, elems) in packs {
                if let Some(el) = elems.get(i) {
                    env.names.push((n.clone(), el.clone()));
                }
            }
        }
        let v = self.expr(pattern);
        let f = self.frame_mut();
        f.pack_index = saved_index;
        f.env = saved_env;
        v
    }
}

fn path_names(p: &Path, out: &mut Vec<String>) {
    for (i, s) in p.segments.iter().enumerate() {
        if i == 0 && !p.global {
            out.push(s.name.clone());
        }
        for a in s.args.iter().flatten() {
            arg_names(a, out, 0);
        }
    }
}

fn arg_names(a: &TemplateArgRef, out: &mut Vec<String>, depth: u32) {
    match a {
        TemplateArgRef::Type(t) => type_names(t, out, depth + 1),
        TemplateArgRef::Expr(c) => const_names(c, out, depth + 1),
        // A nested expansion expands its own packs.
        TemplateArgRef::Expansion(_) => {}
    }
}

fn type_names(t: &TypeRef, out: &mut Vec<String>, depth: u32) {
    if depth > 64 {
        return;
    }
    match t {
        TypeRef::Path(p) => path_names(p, out),
        TypeRef::Ptr(x) | TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) | TypeRef::Complex(x) => {
            type_names(x, out, depth + 1)
        }
        TypeRef::Array(x, _) => type_names(x, out, depth + 1),
        TypeRef::MemPtr(p, x) => {
            path_names(p, out);
            type_names(x, out, depth + 1);
        }
        TypeRef::Func(f) => {
            type_names(&f.ret, out, depth + 1);
            for p in &f.params {
                type_names(p, out, depth + 1);
            }
        }
        _ => {}
    }
}

fn const_names(c: &ConstExpr, out: &mut Vec<String>, depth: u32) {
    c.for_each_part(depth, 64, &mut |part, d| match part {
        ConstPart::Path(p) => path_names(p, out),
        ConstPart::Type(t) => type_names(t, out, d),
        ConstPart::Pack(_) => {}
    });
}
