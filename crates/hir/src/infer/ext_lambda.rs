//! Extended lambdas in host code (spec 30 §5.2): cudafe++ replaces a
//! `__device__` lambda by `__nv_dl_wrapper_t<TAG, captures…>(TAG{}, values…)`
//! and wraps a `__host__ __device__` one as
//! `__nv_hdl_create_wrapper_t<IsMutable, HasFuncPtrConv, TAG, captures…>
//! ::__nv_hdl_create_wrapper(lambda, values…)`, with
//! `TAG = __nv_dl_tag<FT, &QN, N>`: the enclosing function's pointer type
//! and address, and the lambda's 1-based index among that function's
//! extended lambdas. The expression then has the wrapper's type, which is
//! what templates it is handed to are instantiated with. The templates are
//! the unit's `lambda_wrappers` model; without it (no `--extended-lambda`)
//! the lambda keeps its closure type.

use super::{Arg, CallSite, Callee, Category, Infer, InferOwner};
use crate::body::{Body, Capture, Expr, ExprId, Stmt, StmtId};
use crate::item_tree::{Builtin, Cv};
use crate::scopes::{self, Def, Ns};
use crate::templates::{AppId, TemplateArg};
use crate::ty::{FnSig, TyId, TyKind, canonical, mk};
use crate::{ClassId, Entity};

use super::closure::LambdaData;

/// An extended lambda as cudafe++'s wrapper type for it names it:
/// `__nv_dl_wrapper_t<__nv_dl_tag<decltype(&parent), &parent, index>,
/// captures…>`, `__nv_dl_trailing_return_tag<…, R, index>` for a trailing
/// return type, `__nv_hdl_wrapper_t<mutable, fptr_conv, noexcept, TAG,
/// R(P…), captures…>` for a host-device one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtLambda {
    pub kind: ExtLambdaKind,
    /// The enclosing function (`Fn` or `FnInst`).
    pub parent: Entity,
    /// The type of `&parent`.
    pub parent_ptr: TyId,
    /// 1-based, among the enclosing function's extended lambdas.
    pub index: u32,
    pub captures: Vec<TyId>,
    /// Which capture is `*this` (cicc spells its type apart: `const Gl`).
    pub this_copy: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExtLambdaKind {
    Device,
    /// A `__device__` lambda with a trailing return type.
    Trailing(TyId),
    HostDevice {
        mutable: bool,
        fptr_conv: bool,
        noexcept: bool,
        sig: TyId,
    },
}

/// The wrapper parts of closure `c`'s lambda, if it is an extended one.
pub fn extended_lambda_of(db: &dyn cufront_base_db::SourceDatabase, c: crate::infer::ClosureId) -> Option<ExtLambda> {
    super::infer(db, c.owner(db)).ext_lambdas.get(&c.expr(db)).cloned()
}

impl Infer<'_> {
    /// The type of cudafe++'s replacement of the extended lambda `e`
    /// (closure type `closure`), its constructor or creation call
    /// required; `None` where the model does not apply.
    pub(super) fn extended_lambda(&mut self, e: ExprId, data: &LambdaData, closure: TyId) -> Option<TyId> {
        let db = self.db;
        let (parent, decl) = match self.owner? {
            InferOwner::Fn(f) => (Entity::Fn(f), crate::instances::FnDecl::Fn(f)),
            InferOwner::Inst(i) => (Entity::FnInst(i), i.decl(db)),
            // A lambda in a lambda: not a valid parent (spec 30 §5.3).
            InferOwner::Closure(_) => return None,
            // A namespace-scope initializer is no enclosing function.
            InferOwner::Var(_) | InferOwner::VarInst(_) => return None,
        };
        // In a `__device__` or `__global__` function the lambda is device
        // code, not extended: it keeps its closure type.
        if matches!(
            crate::exec_space::fn_exec_space(db, decl),
            crate::exec_space::ExecSpace::Device | crate::exec_space::ExecSpace::Global
        ) {
            return None;
        }
        let ft = self.parent_pointer_type(parent)?;
        let n = extended_index(self.body, e);
        let (caps, this_copy) = self.capture_types(e, data);
        let kind = if data.is_extended_device() {
            Some(match &data.ret {
                Some(r) => ExtLambdaKind::Trailing(self.lower(r)),
                None => ExtLambdaKind::Device,
            })
        } else {
            self.closure_call_type(e, data).map(|sig| ExtLambdaKind::HostDevice {
                mutable: data.mutable,
                fptr_conv: data.captures.is_empty(),
                noexcept: matches!(self.body.exprs.get(e.0 as usize), Some(Expr::Lambda { noexcept: Some(true), .. })),
                sig,
            })
        };
        if let Some(kind) = kind {
            self.res
                .ext_lambdas
                .insert(e, ExtLambda { kind, parent, parent_ptr: ft, index: n, captures: caps.clone(), this_copy });
        }
        let tag_t = self.wrapper_template("__nv_dl_tag")?;
        let uint = mk(db, TyKind::Builtin(Builtin::UInt));
        let tag = app(
            db,
            tag_t,
            vec![TemplateArg::Type(ft), TemplateArg::Addr(parent, ft), TemplateArg::Value(n as i128, uint)],
        );
        let pack = TemplateArg::Pack(caps.iter().map(|t| TemplateArg::Type(*t)).collect());
        let lvalue = |t: TyId| Arg { ty: t, cat: Category::LValue, null: false, braced: false };
        let site = CallSite::Expr(e);
        if data.is_extended_device() {
            let w = app(db, self.wrapper_template("__nv_dl_wrapper_t")?, vec![TemplateArg::Type(tag), pack]);
            let mut args = vec![Arg { ty: tag, cat: Category::PRValue, null: false, braced: false }];
            args.extend(caps.iter().map(|t| lvalue(*t)));
            self.construct(site, w, &args, false);
            return Some(w);
        }
        // `__host__ __device__`: HasFuncPtrConv when nothing is captured and
        // there is no capture-default.
        let fpc = data.captures.is_empty();
        let b = |v: bool| TemplateArg::Value(v as i128, mk(db, TyKind::Builtin(Builtin::Bool)));
        let cw = app(
            db,
            self.wrapper_template("__nv_hdl_create_wrapper_t")?,
            vec![b(data.mutable), b(fpc), TemplateArg::Type(tag), pack.clone()],
        );
        let class = self.class_ref(cw)?;
        let cands = crate::instances::member_fns(db, class, "__nv_hdl_create_wrapper");
        let mut args = vec![Arg { ty: closure, cat: Category::PRValue, null: false, braced: false }];
        args.extend(caps.iter().map(|t| lvalue(*t)));
        match self.resolve_overload(&cands, None, &args, None) {
            Ok((cand, targs, _)) => {
                let ent = self.entity_of(cand, targs);
                self.require(ent);
                self.res.calls.push((site, Callee::Entity(ent)));
            }
            Err(err) => {
                self.res.calls.push((site, Callee::Unresolved(format!("extended lambda wrapper: {err}").into())))
            }
        }
        // Its type, `__nv_hdl_wrapper_t<IsMutable, HasFuncPtrConv,
        // NeverThrows, TAG, R(P…), captures…>` (what the preamble's traits
        // compute from `&Lambda::operator()`), and what creating it calls.
        let sig = self.closure_call_type(e, data)?;
        let w = app(
            db,
            self.wrapper_template("__nv_hdl_wrapper_t")?,
            vec![b(data.mutable), b(fpc), b(false), TemplateArg::Type(tag), TemplateArg::Type(sig), pack],
        );
        let mut args = vec![
            Arg { ty: tag, cat: Category::PRValue, null: false, braced: false },
            Arg { ty: closure, cat: Category::XValue, null: false, braced: false },
        ];
        args.extend(caps.iter().map(|t| lvalue(*t)));
        self.construct(site, w, &args, false);
        Some(w)
    }

    /// A class template of the wrapper model, by name.
    fn wrapper_template(&self, name: &str) -> Option<ClassId> {
        let path = crate::item_tree::Path {
            global: true,
            segments: vec![crate::item_tree::PathSegment { name: name.into(), args: None }],
        };
        match scopes::resolve_path(self.db, self.map, scopes::ROOT, &path, Ns::Type)? {
            Def::ClassTemplate(c) => Some(self.map.template_def.get(&c).copied().unwrap_or(c)),
            _ => None,
        }
    }

    /// The type of `&parent`: a pointer to function, or to member function
    /// for a non-static member (`void (Saxpy::*)()`).
    fn parent_pointer_type(&self, parent: Entity) -> Option<TyId> {
        let db = self.db;
        let inst = match parent {
            Entity::Fn(f) => crate::instances::fn_instance(db, crate::instances::FnDecl::Fn(f), None, Vec::new()),
            Entity::FnInst(i) => i,
            _ => return None,
        };
        let sig = crate::instances::signature(db, inst).ok()?;
        let f = mk(
            db,
            TyKind::Func(FnSig {
                ret: sig.ret,
                params: sig.params,
                variadic: sig.variadic,
                noexcept: sig.noexcept,
                cv: self.this_cv,
                ref_qual: sig.ref_qual,
            }),
        );
        Some(match self.class {
            Some(c) if self.has_this => mk(db, TyKind::MemPtr { class: super::class_ty(db, c), pointee: f }),
            _ => mk(db, TyKind::Ptr(f)),
        })
    }

    /// The types of an extended lambda's captures in the closure's order:
    /// the explicit ones as written, then those of a capture-default in
    /// order of first use (spec 30 §5.2's table: a variable's declared
    /// type without reference, `this` as `C* const`, `*this` as `C const`
    /// unless `mutable`, an init-capture's initializer without reference and cv).
    /// The index of a `*this` capture comes with them.
    fn capture_types(&self, e: ExprId, data: &LambdaData) -> (Vec<TyId>, Option<u32>) {
        let db = self.db;
        let visible = self.res.lambda_scopes.get(&e).cloned().unwrap_or_default();
        let local_ty = |name: &str| -> Option<TyId> {
            let (_, l) = visible.iter().rev().find(|(n, _)| n == name)?;
            self.res.local_tys.get(l.0 as usize).copied().flatten()
        };
        let this_class = self.class.filter(|_| self.has_this).map(|c| super::class_ty(db, c));
        let mut out = Vec::new();
        let mut named: Vec<String> = Vec::new();
        let mut default = false;
        let mut this_done = false;
        let mut this_copy = None;
        for c in &data.captures {
            match c {
                Capture::Default { .. } => default = true,
                Capture::This { by_copy } => {
                    this_done = true;
                    let Some(ct) = this_class else { continue };
                    if *by_copy {
                        this_copy = Some(out.len() as u32);
                    }
                    out.push(if *by_copy {
                        if data.mutable {
                            ct
                        } else {
                            mk(db, TyKind::Qualified(ct, Cv { c: true, v: false, r: false }))
                        }
                    } else {
                        let this =
                            if self.this_cv.is_empty() { ct } else { mk(db, TyKind::Qualified(ct, self.this_cv)) };
                        mk(db, TyKind::Qualified(mk(db, TyKind::Ptr(this)), Cv { c: true, v: false, r: false }))
                    });
                }
                Capture::Var { name, init: Some(x), .. } => {
                    named.push(name.clone());
                    if let Some(t) = self.res.ty(*x) {
                        out.push(super::strip_cv(db, canonical(db, t)));
                    }
                }
                Capture::Var { name, .. } => {
                    named.push(name.clone());
                    if let Some(t) = local_ty(name) {
                        out.push(strip_ref(db, t));
                    }
                }
            }
        }
        if !default {
            return (out, this_copy);
        }
        let own = own_names(self.body, data);
        for (name, is_this) in used_names(self.body, e) {
            if is_this {
                if !this_done {
                    this_done = true;
                    if let Some(ct) = this_class {
                        let this =
                            if self.this_cv.is_empty() { ct } else { mk(db, TyKind::Qualified(ct, self.this_cv)) };
                        out.push(mk(
                            db,
                            TyKind::Qualified(mk(db, TyKind::Ptr(this)), Cv { c: true, v: false, r: false }),
                        ));
                    }
                }
                continue;
            }
            if named.contains(&name) || own.contains(&name) {
                continue;
            }
            if let Some(t) = local_ty(&name) {
                named.push(name);
                out.push(strip_ref(db, t));
            }
        }
        (out, this_copy)
    }
}

fn app(db: &dyn cufront_base_db::SourceDatabase, template: ClassId, args: Vec<TemplateArg>) -> TyId {
    mk(db, TyKind::App(AppId::new(db, template, args)))
}

fn strip_ref(db: &dyn cufront_base_db::SourceDatabase, t: TyId) -> TyId {
    let t = canonical(db, t);
    match t.kind(db) {
        TyKind::LRef(x) | TyKind::RRef(x) => *x,
        _ => t,
    }
}

/// The 1-based index of extended lambda `e` among the extended lambdas of
/// its function, in order of appearance.
fn extended_index(body: &Body, e: ExprId) -> u32 {
    let Some(me) = body.expr_ranges.get(e.0 as usize) else { return 1 };
    let mut n = 1;
    for (i, x) in body.exprs.iter().enumerate() {
        if let Expr::Lambda { device: true, .. } = x
            && body.expr_ranges.get(i).is_some_and(|r| r.start() < me.start())
        {
            n += 1;
        }
    }
    n
}

/// The names the body of lambda `e` uses (single identifiers; `this` as
/// `(_, true)`), in order of appearance.
fn used_names(body: &Body, e: ExprId) -> Vec<(String, bool)> {
    let Some(&me) = body.expr_ranges.get(e.0 as usize) else { return Vec::new() };
    let mut uses: Vec<(cufront_syntax::TextSize, String, bool)> = Vec::new();
    for (i, x) in body.exprs.iter().enumerate() {
        let Some(r) = body.expr_ranges.get(i) else { continue };
        if i == e.0 as usize || !me.contains_range(*r) {
            continue;
        }
        match x {
            Expr::Path(p) if !p.global && p.segments.len() == 1 && p.segments[0].args.is_none() => {
                uses.push((r.start(), p.segments[0].name.clone(), false))
            }
            Expr::This => uses.push((r.start(), String::new(), true)),
            _ => {}
        }
    }
    uses.sort_by_key(|u| u.0);
    uses.into_iter().map(|(_, n, t)| (n, t)).collect()
}

/// The names a lambda declares itself: its parameters and the locals of its body.
fn own_names(body: &Body, data: &LambdaData) -> Vec<String> {
    let mut out: Vec<String> = data.params.iter().filter_map(|p| body.local(*p).name.clone()).collect();
    if let Some(b) = data.body {
        decls_in(body, b, &mut out, 0);
    }
    out
}

fn decls_in(body: &Body, s: StmtId, out: &mut Vec<String>, depth: u32) {
    if depth > 200 {
        return;
    }
    let Some(st) = body.stmts.get(s.0 as usize) else { return };
    let sub = |x: StmtId, out: &mut Vec<String>| decls_in(body, x, out, depth + 1);
    match st {
        Stmt::Compound(ss) => ss.iter().for_each(|x| sub(*x, out)),
        Stmt::Decl(ls) => out.extend(ls.iter().filter_map(|l| body.local(*l).name.clone())),
        Stmt::If { init, then, els, .. } => init.iter().chain(Some(then)).chain(els.iter()).for_each(|x| sub(*x, out)),
        Stmt::Switch { init, body: b, .. } => init.iter().chain(Some(b)).for_each(|x| sub(*x, out)),
        Stmt::While { body: b, .. } | Stmt::Do { body: b, .. } => sub(*b, out),
        Stmt::For { init, body: b, .. } => init.iter().chain(Some(b)).for_each(|x| sub(*x, out)),
        Stmt::RangeFor { init, var, body: b, .. } => {
            out.extend(var.iter().filter_map(|l| body.local(*l).name.clone()));
            init.iter().chain(Some(b)).for_each(|x| sub(*x, out));
        }
        Stmt::Label { stmt, .. } | Stmt::Case { stmt, .. } | Stmt::Default(stmt) => sub(*stmt, out),
        Stmt::Try { body: b, handlers } => {
            sub(*b, out);
            handlers.iter().for_each(|h| sub(h.body, out));
        }
        _ => {}
    }
}
