//! Which local each unqualified name of a body denotes, by the block
//! scopes of the body alone (no types, no lookup outside the body): a
//! plain walk in declaration order, as [basic.scope.block] puts it. What a
//! lambda's captures need (which enclosing locals its body uses) and what
//! works on templated bodies, which `infer` does not type.
//!
//! A name the walk does not find among the locals is not a local use (a
//! member, a namespace-scope name, or something the body does not
//! declare); the caller decides what that means.

use crate::body::{Body, Cond, Expr, ExprId, Init, LocalId, Stmt, StmtId};

/// One use of a local by an unqualified name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalUse {
    pub expr: ExprId,
    pub local: LocalId,
    /// Inside an unevaluated operand (`sizeof`, `alignof`, `noexcept`,
    /// `typeid`'s): not an odr-use.
    pub unevaluated: bool,
}

/// What a walk of a body finds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalUses {
    /// The uses, in walk order.
    pub uses: Vec<LocalUse>,
    /// Per local (by index): the innermost lambda expression whose
    /// parameters, init-captures or body declare it (`None`: the function's own).
    pub owner: Vec<Option<ExprId>>,
}

/// Bounds the walk's recursion (the lowering's own nesting bound is lower).
const MAX_DEPTH: u32 = 512;

/// The local uses of a body.
pub fn local_uses(body: &Body) -> LocalUses {
    let mut w = Walk { body, scopes: vec![Vec::new()], lambdas: Vec::new(), unevaluated: 0, out: LocalUses::default() };
    w.out.owner = vec![None; body.locals.len()];
    for &p in &body.params {
        w.declare(p);
    }
    if let Some(r) = body.root {
        w.stmt(r, 0);
    }
    if let Some(e) = body.root_expr {
        w.expr(e, 0);
    }
    w.out
}

struct Walk<'a> {
    body: &'a Body,
    /// Block scopes, innermost last: the locals declared so far.
    scopes: Vec<Vec<(&'a str, LocalId)>>,
    /// The lambda expressions being walked, innermost last.
    lambdas: Vec<ExprId>,
    unevaluated: u32,
    out: LocalUses,
}

impl<'a> Walk<'a> {
    fn declare(&mut self, l: LocalId) {
        if let Some(slot) = self.out.owner.get_mut(l.0 as usize) {
            *slot = self.lambdas.last().copied();
        }
        if let Some(name) = self.body.locals.get(l.0 as usize).and_then(|x| x.name.as_deref())
            && let Some(s) = self.scopes.last_mut()
        {
            s.push((name, l));
        }
    }

    fn lookup(&self, name: &str) -> Option<LocalId> {
        self.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|(n, _)| *n == name).map(|&(_, l)| l)
    }

    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(Vec::new());
        f(self);
        self.scopes.pop();
    }

    /// A local's initializer, then the local itself.
    fn local(&mut self, l: LocalId, d: u32) {
        let init = self.body.locals.get(l.0 as usize).map(|x| x.init.clone());
        match init {
            Some(Init::Assign(e)) => self.expr(e, d),
            Some(Init::Paren(es) | Init::Brace(es)) => es.iter().for_each(|e| self.expr(*e, d)),
            _ => {}
        }
        self.declare(l);
    }

    fn cond(&mut self, c: &Cond, d: u32) {
        match c {
            Cond::Expr(e) => self.expr(*e, d),
            Cond::Decl(l) => self.local(*l, d),
        }
    }

    fn stmt(&mut self, s: StmtId, d: u32) {
        if d > MAX_DEPTH {
            return;
        }
        let d = d + 1;
        let body = self.body;
        let Some(st) = body.stmts.get(s.0 as usize) else { return };
        match st {
            Stmt::Compound(ss) => self.scoped(|w| ss.iter().for_each(|x| w.stmt(*x, d))),
            Stmt::Expr(e) | Stmt::StaticAssert(e) => self.expr(*e, d),
            Stmt::Decl(ls) => ls.iter().for_each(|l| self.local(*l, d)),
            Stmt::If { init, cond, then, els, .. } => self.scoped(|w| {
                init.iter().for_each(|x| w.stmt(*x, d));
                w.cond(cond, d);
                w.scoped(|w| w.stmt(*then, d));
                els.iter().for_each(|x| w.scoped(|w| w.stmt(*x, d)));
            }),
            Stmt::Switch { init, cond, body: b } => self.scoped(|w| {
                init.iter().for_each(|x| w.stmt(*x, d));
                w.cond(cond, d);
                w.scoped(|w| w.stmt(*b, d));
            }),
            Stmt::While { cond, body: b } => self.scoped(|w| {
                w.cond(cond, d);
                w.scoped(|w| w.stmt(*b, d));
            }),
            Stmt::Do { body: b, cond } => {
                self.scoped(|w| w.stmt(*b, d));
                self.expr(*cond, d);
            }
            Stmt::For { init, cond, step, body: b } => self.scoped(|w| {
                init.iter().for_each(|x| w.stmt(*x, d));
                cond.iter().for_each(|c| w.cond(c, d));
                step.iter().for_each(|e| w.expr(*e, d));
                w.scoped(|w| w.stmt(*b, d));
            }),
            Stmt::RangeFor { init, var, range, body: b } => self.scoped(|w| {
                init.iter().for_each(|x| w.stmt(*x, d));
                w.expr(*range, d);
                var.iter().for_each(|l| w.declare(*l));
                w.scoped(|w| w.stmt(*b, d));
            }),
            Stmt::Return(e) => e.iter().for_each(|e| self.expr(*e, d)),
            Stmt::Label { stmt, .. } | Stmt::Default(stmt) => self.stmt(*stmt, d),
            Stmt::Case { value, stmt } => {
                self.expr(*value, d);
                self.stmt(*stmt, d);
            }
            Stmt::Try { body: b, handlers } => {
                self.scoped(|w| w.stmt(*b, d));
                for h in handlers {
                    self.scoped(|w| {
                        h.param.iter().for_each(|l| w.declare(*l));
                        w.stmt(h.body, d);
                    });
                }
            }
            Stmt::Asm(es) => es.iter().for_each(|e| self.expr(*e, d)),
            Stmt::Alias(_) | Stmt::NamespaceAlias(..) | Stmt::Other(_) | Stmt::Null | Stmt::Break | Stmt::Continue => {}
            Stmt::Goto(_) => {}
        }
    }

    fn unevaluated(&mut self, e: ExprId, d: u32) {
        self.unevaluated += 1;
        self.expr(e, d);
        self.unevaluated -= 1;
    }

    fn expr(&mut self, e: ExprId, d: u32) {
        if d > MAX_DEPTH {
            return;
        }
        let d = d + 1;
        let body = self.body;
        let Some(x) = body.exprs.get(e.0 as usize) else { return };
        let each = |w: &mut Self, es: &[ExprId]| es.iter().for_each(|x| w.expr(*x, d));
        match x {
            Expr::Path(p) => {
                if !p.global
                    && let [seg] = p.segments.as_slice()
                    && seg.args.is_none()
                    && let Some(local) = self.lookup(&seg.name)
                {
                    self.out.uses.push(LocalUse { expr: e, local, unevaluated: self.unevaluated > 0 });
                }
            }
            Expr::Missing(_) | Expr::Literal(_) | Expr::This | Expr::SizeofPack(_) => {}
            Expr::SizeofType(_) | Expr::AlignofType(_) | Expr::TypeidType(_) => {}
            Expr::Member { base, .. } => self.expr(*base, d),
            Expr::Call { callee, args } => {
                self.expr(*callee, d);
                each(self, args);
            }
            Expr::KernelLaunch { callee, config, args } => {
                self.expr(*callee, d);
                each(self, config);
                each(self, args);
            }
            Expr::Construct { args, .. } | Expr::Builtin { args, .. } | Expr::InitList(args) => each(self, args),
            Expr::Unary { expr, .. } | Expr::Cast { expr, .. } | Expr::Delete { expr, .. } => self.expr(*expr, d),
            Expr::Designated { value: x, .. } | Expr::PackExpansion(x) => self.expr(*x, d),
            Expr::Binary { lhs, rhs, .. } | Expr::Assign { lhs, rhs, .. } | Expr::Comma { lhs, rhs } => {
                self.expr(*lhs, d);
                self.expr(*rhs, d);
            }
            Expr::Cond { cond, then, els } => each(self, &[*cond, *then, *els]),
            Expr::Index { base, index } => each(self, &[*base, *index]),
            Expr::New { placement, args, .. } => {
                each(self, placement);
                args.iter().for_each(|a| each(self, a));
            }
            Expr::Throw(x) => x.iter().for_each(|x| self.expr(*x, d)),
            Expr::SizeofExpr(x) | Expr::AlignofExpr(x) | Expr::Noexcept(x) | Expr::TypeidExpr(x) => {
                self.unevaluated(*x, d)
            }
            Expr::Fold { lhs, rhs, .. } => lhs.iter().chain(rhs.iter()).for_each(|x| self.expr(*x, d)),
            Expr::Requires { params, .. } => self.scoped(|w| params.iter().for_each(|l| w.declare(*l))),
            Expr::StmtExpr(s) => self.stmt(*s, d),
            Expr::Lambda { captures, params, body: b, .. } => {
                // Init-captures are evaluated where the lambda is; they and the
                // parameters are the lambda's own, seen by its body only.
                for c in captures {
                    if let crate::body::Capture::Var { init: Some(x), .. } = c {
                        self.expr(*x, d);
                    }
                }
                self.lambdas.push(e);
                self.scoped(|w| {
                    for c in captures {
                        if let crate::body::Capture::Var { local: Some(l), .. } = c {
                            w.declare(*l);
                        }
                    }
                    params.iter().for_each(|l| w.declare(*l));
                    b.iter().for_each(|s| w.stmt(*s, d));
                });
                self.lambdas.pop();
            }
        }
    }
}
