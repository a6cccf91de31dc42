//! Integral constant conditions of `if constexpr` over literals, template
//! value arguments and the item-tree evaluator's names: comparisons,
//! arithmetic, `?:` (CUB's policy chain: `if constexpr (DevicePtxVersion <
//! PolicyPtxVersion)`, the function's own value argument against the
//! class's). Only the selected branch is instantiated ([stmt.if]/2), so an
//! undecided condition walks both and instantiates too much.

use super::*;

/// Nesting of the evaluated expression beyond which it is left undecided.
const MAX_DEPTH: u32 = 32;

impl Infer<'_> {
    /// An integral constant expression's value, when it evaluates here.
    pub(super) fn const_int(&mut self, e: ExprId, depth: u32) -> Option<i128> {
        use body::BinaryOp as B;
        if depth > MAX_DEPTH {
            return None;
        }
        match self.body.expr(e).clone() {
            Expr::Literal(Literal::Int(v, _)) => Some(v as i128),
            Expr::Path(p) => {
                let cx = self.lcx();
                let ce = crate::item_tree::ConstExpr::Path(p);
                crate::consteval::eval(&crate::consteval::EvalCx::new(cx), &ce).ok().map(|v| v.v)
            }
            Expr::Builtin { .. } => self.const_bool(e).map(|b| b as i128),
            Expr::SizeofPack(n) => self.pack_len(&n).map(|k| k as i128),
            Expr::Call { args, .. } if args.is_empty() => self.const_call(e),
            Expr::Unary { op: UnaryOp::Neg, expr } => self.const_int(expr, depth + 1).map(|v| v.wrapping_neg()),
            Expr::Unary { op: UnaryOp::Plus, expr } => self.const_int(expr, depth + 1),
            Expr::Unary { op: UnaryOp::Not, expr } => self.const_int(expr, depth + 1).map(|v| (v == 0) as i128),
            Expr::Unary { op: UnaryOp::BitNot, expr } => self.const_int(expr, depth + 1).map(|v| !v),
            // `static_cast<int>(N)`: the value (the comparisons this serves stay in range).
            Expr::Cast { expr, .. } => self.const_int(expr, depth + 1),
            Expr::Cond { cond, then, els } => {
                if self.const_int(cond, depth + 1)? != 0 {
                    self.const_int(then, depth + 1)
                } else {
                    self.const_int(els, depth + 1)
                }
            }
            Expr::Binary { op, lhs, rhs } => {
                let a = self.const_int(lhs, depth + 1)?;
                // `&&`/`||` short-circuit.
                match op {
                    B::And if a == 0 => return Some(0),
                    B::Or if a != 0 => return Some(1),
                    _ => {}
                }
                let b = self.const_int(rhs, depth + 1)?;
                Some(match op {
                    B::Add => a.wrapping_add(b),
                    B::Sub => a.wrapping_sub(b),
                    B::Mul => a.wrapping_mul(b),
                    B::Div if b != 0 => a / b,
                    B::Rem if b != 0 => a % b,
                    B::BitAnd => a & b,
                    B::BitOr => a | b,
                    B::BitXor => a ^ b,
                    B::Shl if (0..64).contains(&b) => a.wrapping_shl(b as u32),
                    B::Shr if (0..64).contains(&b) => a >> b,
                    B::And | B::Or => (b != 0) as i128,
                    B::Lt => (a < b) as i128,
                    B::Gt => (a > b) as i128,
                    B::Le => (a <= b) as i128,
                    B::Ge => (a >= b) as i128,
                    B::Eq => (a == b) as i128,
                    B::Ne => (a != b) as i128,
                    _ => return None,
                })
            }
            _ => None,
        }
    }

    /// A condition the folding above leaves undecided, evaluated by the
    /// constant interpreter over the body with the constant locals known so
    /// far (`if constexpr (__variant::__never_valueless<_Types...>())`).
    pub(super) fn const_bool_interp(&mut self, e: ExprId) -> Option<bool> {
        let env = self.env.clone();
        let known = self.const_known();
        crate::consteval::interp::eval_body_condition(
            self.db,
            self.map,
            (self.item, self.scope, env.as_ref()),
            self.body,
            &known,
            e,
        )
        .ok()
    }

    /// `sizeof...(n)`: a template parameter pack of the environment, or a
    /// function (or generic lambda) parameter pack, whose length is that of
    /// the first template pack its declared type names (`Vs... vs`).
    pub(super) fn pack_len(&self, n: &str) -> Option<usize> {
        let env = self.env.as_ref()?;
        if let Some(k) = templates::sizeof_pack(Some(env), n) {
            return Some(k);
        }
        let l = self.find_local(n)?;
        let written = match self.lambda_packs.iter().find(|(x, _)| *x == l) {
            Some((_, w)) => w.clone(),
            None if self.body.local(l).pack => self.body.local(l).ty.clone(),
            None => return None,
        };
        let mut names = Vec::new();
        instances::typeref_names(&written, &mut names);
        names.iter().find_map(|x| templates::sizeof_pack(Some(env), x))
    }

    /// A call (already resolved by the condition's inference) of a
    /// `constexpr` function without parameters whose body is `return N;`
    /// (`wrapped_policy.GetAlgorithm()` returning `StaticPolicyT::algorithm`,
    /// CUB's transform dispatch): `N` evaluated in the callee's instance.
    fn const_call(&mut self, e: ExprId) -> Option<i128> {
        let db = self.db;
        let ent = self.res.calls.iter().find_map(|(site, c)| match (site, c) {
            (CallSite::Expr(x), Callee::Entity(ent)) if *x == e => Some(*ent),
            _ => None,
        })?;
        let (decl, env) = match ent {
            Entity::FnInst(i) => (i.decl(db), Some(instances::instance_env(db, i).ok()?)),
            Entity::Fn(f) => (FnDecl::Fn(f), None),
            _ => return None,
        };
        let def = instances::fn_definition(db, decl)?;
        let data = def.data(db)?;
        if !data.linkage.is_constexpr || !data.ty.params.is_empty() {
            return None;
        }
        let body = decl_body(db, def);
        let Stmt::Compound(ss) = body.stmt(body.root?) else { return None };
        let [s] = ss.as_slice() else { return None };
        let Stmt::Return(Some(r)) = body.stmt(*s) else { return None };
        let ce = match body.expr(*r) {
            Expr::Path(p) => crate::item_tree::ConstExpr::Path(p.clone()),
            Expr::Literal(Literal::Int(v, _)) => return Some(*v as i128),
            _ => return None,
        };
        let scope = instances::fn_scope(db, def)?;
        let map = def_map(db, decl.tu(db));
        let cx = LowerCx { db, map: &map, item: def.item(db), scope, env: env.as_ref() };
        crate::consteval::eval(&crate::consteval::EvalCx::new(cx), &ce).ok().map(|v| v.v)
    }
}
