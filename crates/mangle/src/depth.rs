//! How deeply a tree nests, counted only up to a bound: the mangler refuses
//! a tree deeper than `MAX_DEPTH` before it starts, because its candidate
//! lookups hash each subtree on the way down (work of size times depth).
//! The walk stops at the bound, so its own recursion is bounded too.
//!
//! A level is a type or an expression, as the mangler counts them.

use crate::tree::*;

/// Does `e` nest types or expressions more than `limit` levels deep?
pub(crate) fn exceeds(e: &Encoding, limit: u32) -> bool {
    Walk { limit }.encoding(e, 0)
}

struct Walk {
    limit: u32,
}

impl Walk {
    fn encoding(&self, e: &Encoding, d: u32) -> bool {
        match e {
            Encoding::Function(n, f) => self.name(n, d) || self.fn_type(f, d),
            Encoding::Data(n) => self.name(n, d),
            Encoding::Special(s) => match &**s {
                Special::Vtable(t) | Special::Vtt(t) | Special::TypeInfo(t) | Special::TypeInfoName(t) => self.ty(t, d),
                Special::Guard(n) | Special::TlsInit(n) | Special::TlsWrapper(n) => self.name(n, d),
                Special::ConstructionVtable { complete, base } => self.ty(complete, d) || self.ty(base, d),
            },
        }
    }

    fn name(&self, n: &Name, d: u32) -> bool {
        let root = match &n.root {
            Root::Global | Root::Param(_) => false,
            Root::Local { func, .. } => self.encoding(func, d),
            Root::Decltype(e) => self.expr(e, d),
        };
        root || n.comps.iter().any(|c| self.component(c, d))
    }

    fn component(&self, c: &Component, d: u32) -> bool {
        let name = match &c.name {
            Unqualified::InheritingCtor(_, t) | Unqualified::Conversion(t) => self.ty(t, d),
            Unqualified::Lambda { params, .. } => params.iter().any(|t| self.ty(t, d)),
            Unqualified::VendorLambda(v) => {
                let kind = match &v.kind {
                    VendorLambdaKind::Device => false,
                    VendorLambdaKind::Trailing(r) => self.ty(r, d),
                    VendorLambdaKind::HostDevice { ret, params, .. } => {
                        self.ty(ret, d) || params.iter().any(|t| self.ty(t, d))
                    }
                };
                kind || self.ty(&v.fn_ptr, d) || self.encoding(&v.func, d) || v.captures.iter().any(|t| self.ty(t, d))
            }
            _ => false,
        };
        name || self.args(c.args.as_deref(), d)
    }

    fn args(&self, args: Option<&[TArg]>, d: u32) -> bool {
        args.is_some_and(|a| a.iter().any(|a| self.targ(a, d)))
    }

    fn targ(&self, a: &TArg, d: u32) -> bool {
        match a {
            TArg::Type(t) => self.ty(t, d),
            TArg::Literal(l) => self.ty(&l.ty, d),
            TArg::Expr(e) => self.expr(e, d),
            TArg::Pack(v) => v.iter().any(|a| self.targ(a, d)),
            TArg::Template(n) => self.name(n, d),
        }
    }

    fn fn_type(&self, f: &FnType, d: u32) -> bool {
        let spec = match &f.exception {
            ExceptionSpec::Computed(e) => self.expr(e, d),
            _ => false,
        };
        spec || self.ty(&f.ret, d) || f.params.iter().any(|t| self.ty(t, d))
    }

    fn ty(&self, t: &Type, d: u32) -> bool {
        let d = d + 1;
        if d > self.limit {
            return true;
        }
        match t {
            Type::Builtin(_) | Type::Vendor(_) | Type::Param(_) => false,
            Type::Named(n) => self.name(n, d),
            Type::Qualified(_, x) | Type::Ptr(x) | Type::LRef(x) | Type::RRef(x) | Type::PackExpansion(x) => {
                self.ty(x, d)
            }
            Type::Array(b, x) => matches!(b, ArrayBound::Expr(e) if self.expr(e, d)) || self.ty(x, d),
            Type::Func(f) => self.fn_type(f, d),
            Type::MemPtr(c, m) => self.ty(c, d) || self.ty(m, d),
            Type::ParamApp(_, a) => self.args(Some(a), d),
            Type::Decltype(e) => self.expr(e, d),
        }
    }

    fn expr(&self, e: &Expr, d: u32) -> bool {
        let d = d + 1;
        if d > self.limit {
            return true;
        }
        let exprs = |v: &[Expr]| v.iter().any(|x| self.expr(x, d));
        match e {
            Expr::Literal(l) => self.ty(&l.ty, d),
            Expr::Entity(enc) => self.encoding(enc, d),
            Expr::FnParam { .. } | Expr::TParam(_) | Expr::SizeofPack(_) => false,
            Expr::Unary(_, x)
            | Expr::SizeofExpr(x)
            | Expr::AlignofExpr(x)
            | Expr::PackExpansion(x)
            | Expr::Noexcept(x) => self.expr(x, d),
            Expr::Binary(_, x, y) => self.expr(x, d) || self.expr(y, d),
            Expr::Cond(x, y, z) => self.expr(x, d) || self.expr(y, d) || self.expr(z, d),
            Expr::Call(f, a) => self.expr(f, d) || exprs(a),
            Expr::Member { object, args, .. } => self.expr(object, d) || self.args(args.as_deref(), d),
            Expr::Id(_, args) | Expr::NsId { args, .. } => self.args(args.as_deref(), d),
            Expr::VarTemplateId { template, args } => self.name(template, d) || self.args(Some(args), d),
            Expr::Scoped { ty, args, .. } => self.ty(ty, d) || self.args(args.as_deref(), d),
            Expr::SizeofType(t) | Expr::AlignofType(t) => self.ty(t, d),
            Expr::Cast(_, t, a) | Expr::Braced(t, a) => self.ty(t, d) || exprs(a),
            Expr::New { placement, ty, init, .. } => {
                exprs(placement) || self.ty(ty, d) || init.as_deref().is_some_and(exprs)
            }
            Expr::Fold { pack, init, .. } => self.expr(pack, d) || init.as_ref().is_some_and(|i| self.expr(i, d)),
        }
    }
}
