//! Class template parameter lists with their defaults, and a small
//! integral constant evaluator over the item index: what spelling a class
//! template specialization needs, since its mangled name lists every
//! argument, defaulted ones included (`span<int>` is
//! `span<int, dynamic_extent>` = `…IiLm18446744073709551615EE`), and packs
//! as `J…E`.
//!
//! The evaluator knows literals, casts, arithmetic, comparisons, `?:`,
//! `sizeof` of builtins, enumerators, `const`/`constexpr` variables and the
//! template parameters bound so far. Anything else is `None`, and the
//! argument becomes [`Ty::Unknown`]: mangling then fails instead of guessing.

use cufront_cuda::decl;
use cufront_cuda::walk;
use cufront_syntax::{SyntaxKind as K, SyntaxNode};
use rustc_hash::FxHashMap;

use super::{Entity, Items, ScopeKey, SegKind, TArg, Ty};

/// A named constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Value {
    /// A `const`/`constexpr` variable: its initializer and declared type.
    Const {
        init: SyntaxNode,
        ty: Ty,
        scope: ScopeKey,
    },
    /// The `index`th enumerator of the `ENUMERATOR_LIST` `list`.
    Enumerator {
        list: SyntaxNode,
        index: usize,
        scope: ScopeKey,
    },
}

#[derive(Clone, Debug)]
pub(super) struct TParamDecl {
    name: Option<String>,
    kind: TParamKind,
    pack: bool,
    default: Option<SyntaxNode>,
}

#[derive(Clone, Debug)]
enum TParamKind {
    Type,
    /// The `PARAM` node (its type is resolved where it is used, after the
    /// earlier parameters are bound).
    NonType(SyntaxNode),
    Template,
}

/// An integer value with its type's width and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Int {
    v: i128,
    bits: u32,
    signed: bool,
}

/// Width and signedness of the integral builtin with code `code`.
fn int_type(code: &str) -> Option<(u32, bool)> {
    Some(match code {
        "b" => (1, false),
        "c" | "a" => (8, true),
        "h" | "Du" => (8, false),
        "s" => (16, true),
        "t" | "Ds" => (16, false),
        "i" | "w" => (32, true),
        "j" | "Di" => (32, false),
        "l" | "x" => (64, true),
        "m" | "y" => (64, false),
        "n" => (128, true),
        _ => return None,
    })
}

fn code_of(bits: u32, signed: bool) -> &'static str {
    match (bits, signed) {
        (1, _) => "b",
        (8, true) => "a",
        (8, false) => "h",
        (16, true) => "s",
        (16, false) => "t",
        (32, true) => "i",
        (32, false) => "j",
        (64, true) => "l",
        (64, false) => "m",
        _ => "n",
    }
}

fn wrap(v: i128, bits: u32, signed: bool) -> i128 {
    match bits {
        1 => i128::from(v != 0),
        128 => v,
        _ => {
            let m = v & ((1i128 << bits) - 1);
            if signed && (m >> (bits - 1)) & 1 == 1 {
                m - (1i128 << bits)
            } else {
                m
            }
        }
    }
}

impl Int {
    fn new(v: i128, bits: u32, signed: bool) -> Int {
        Int {
            v: wrap(v, bits, signed),
            bits,
            signed,
        }
    }
    fn bool(b: bool) -> Int {
        Int {
            v: i128::from(b),
            bits: 1,
            signed: false,
        }
    }
    /// Integral promotion.
    fn promote(self) -> Int {
        if self.bits < 32 {
            Int {
                v: self.v,
                bits: 32,
                signed: true,
            }
        } else {
            self
        }
    }
}

/// The usual arithmetic conversions: the common type's width and signedness.
fn common(a: Int, b: Int) -> (u32, bool) {
    let (a, b) = (a.promote(), b.promote());
    match a.bits.cmp(&b.bits) {
        std::cmp::Ordering::Greater => (a.bits, a.signed),
        std::cmp::Ordering::Less => (b.bits, b.signed),
        std::cmp::Ordering::Equal => (a.bits, a.signed && b.signed),
    }
}

fn first_node(n: &SyntaxNode) -> Option<SyntaxNode> {
    n.children().next()
}

fn op_token(n: &SyntaxNode) -> Option<K> {
    n.children_with_tokens()
        .filter_map(|t| t.into_token())
        .find(|t| !t.kind().is_trivia())
        .map(|t| t.kind())
}

/// The value of an integer literal token (`10`, `0x10ul`, `1'000`) and its type.
fn int_literal(text: &str) -> Option<Int> {
    let cufront_syntax::literal::IntLiteral {
        value: v,
        unsigned,
        longs,
        decimal,
        ..
    } = cufront_syntax::literal::IntLiteral::parse(text)?;
    let longs = usize::from(longs);
    // The first type of the list that holds the value ([lex.icon]).
    let mut candidates: Vec<(u32, bool)> = Vec::new();
    for (bits, min_longs) in [(32, 0), (64, 1), (64, 2)] {
        if longs > min_longs {
            continue;
        }
        if !unsigned {
            candidates.push((bits, true));
        }
        if unsigned || !decimal {
            candidates.push((bits, false));
        }
    }
    let (bits, signed) = candidates.into_iter().find(|&(bits, signed)| {
        let max = if signed {
            (1u128 << (bits - 1)) - 1
        } else {
            (1u128 << bits) - 1
        };
        v <= max
    })?;
    Some(Int::new(v as i128, bits, signed))
}

fn char_literal(text: &str) -> Option<Int> {
    let (prefix, rest) = text.split_at(text.find('\'')?);
    let inner = rest.strip_prefix('\'')?.strip_suffix('\'')?;
    let v = match inner.strip_prefix('\\') {
        None => {
            let mut cs = inner.chars();
            let c = cs.next()?;
            if cs.next().is_some() {
                return None;
            }
            c as i128
        }
        Some(esc) => match esc {
            "n" => 10,
            "t" => 9,
            "r" => 13,
            "0" => 0,
            "\\" => 92,
            "'" => 39,
            "\"" => 34,
            "a" => 7,
            "b" => 8,
            "f" => 12,
            "v" => 11,
            _ => {
                if let Some(h) = esc.strip_prefix('x') {
                    i128::from_str_radix(h, 16).ok()?
                } else {
                    i128::from_str_radix(esc, 8).ok()?
                }
            }
        },
    };
    let (bits, signed) = match prefix {
        "" => (8, true),
        "u8" => (8, false),
        "u" => (16, false),
        "U" => (32, false),
        "L" => (32, true),
        _ => return None,
    };
    Some(Int::new(v, bits, signed))
}

/// The size of a builtin type on x86-64 (for `sizeof`).
fn builtin_size(code: &str) -> Option<i128> {
    Some(match code {
        "b" | "c" | "a" | "h" | "Du" => 1,
        "s" | "t" | "Ds" | "DF16_" => 2,
        "i" | "j" | "w" | "Di" | "f" => 4,
        "l" | "m" | "x" | "y" | "d" | "Dn" => 8,
        "n" | "o" | "e" | "g" => 16,
        _ => return None,
    })
}

impl Items {
    /// Records the parameter list of a class template declared by `node`
    /// (directly under `template <…>`, not a partial specialization).
    pub(super) fn add_template(&mut self, node: &SyntaxNode, specs: &SyntaxNode, scope: &ScopeKey) {
        let Some(parent) = node.parent().filter(|p| p.kind() == K::TEMPLATE_DECL) else {
            return;
        };
        let Some(list) = parent
            .children()
            .find(|c| c.kind() == K::TEMPLATE_PARAM_LIST)
        else {
            return;
        };
        if list.children().next().is_none() {
            return;
        }
        for c in specs.children() {
            let name_node = match c.kind() {
                K::CLASS_SPECIFIER => c.children().find(|n| n.kind() == K::NAME).or_else(|| {
                    c.children()
                        .find(|h| h.kind() == K::CLASS_HEAD)?
                        .children()
                        .find(|n| n.kind() == K::NAME)
                }),
                K::ELABORATED_TYPE_SPECIFIER => c.children().find(|n| n.kind() == K::NAME),
                _ => continue,
            };
            let Some(name_node) = name_node else { continue };
            if name_node
                .descendants()
                .any(|d| matches!(d.kind(), K::TEMPLATE_ID | K::QUALIFIED_NAME))
            {
                continue;
            }
            let Some(name) = walk::last_component(&name_node) else {
                continue;
            };
            if !self.wants(&name) {
                continue;
            }
            let params = template_params(&list);
            match self.templates.entry((scope.clone(), name)) {
                std::collections::hash_map::Entry::Occupied(mut e) => {
                    // Defaults may be spread over redeclarations.
                    for (old, new) in e.get_mut().iter_mut().zip(params) {
                        if old.default.is_none() {
                            old.default = new.default;
                        }
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(params);
                }
            }
        }
    }

    /// Records enumerators and `const`/`constexpr` variables with initializers.
    pub(super) fn add_values(
        &mut self,
        node: &SyntaxNode,
        specs: &SyntaxNode,
        scope: &ScopeKey,
        templated: bool,
    ) {
        for e in specs.children().filter(|c| c.kind() == K::ENUM_SPECIFIER) {
            let Some(list) = e.children().find(|c| c.kind() == K::ENUMERATOR_LIST) else {
                continue;
            };
            let enum_name = e
                .children()
                .find(|c| c.kind() == K::NAME)
                .and_then(|n| walk::last_component(&n));
            let scoped = e
                .children_with_tokens()
                .any(|t| matches!(t.kind(), K::CLASS_KW | K::STRUCT_KW));
            for (index, en) in list
                .children()
                .filter(|c| c.kind() == K::ENUMERATOR)
                .enumerate()
            {
                let Some(name) = en
                    .children()
                    .find(|c| c.kind() == K::NAME)
                    .and_then(|n| walk::last_component(&n))
                else {
                    continue;
                };
                if !self.wants(&name) {
                    continue;
                }
                let v = Entity::Value(Value::Enumerator {
                    list: list.clone(),
                    index,
                    scope: scope.clone(),
                });
                if let Some(en) = &enum_name {
                    let mut s = scope.clone();
                    s.push(en.clone());
                    self.entities.entry((s, name.clone())).or_insert(v.clone());
                }
                if !scoped {
                    self.entities.entry((scope.clone(), name)).or_insert(v);
                }
            }
        }
        if templated
            || node.kind() != K::SIMPLE_DECL
            || decl::has_keyword(Some(specs), &[K::TYPEDEF_KW])
        {
            return;
        }
        let constexpr = decl::has_keyword(Some(specs), &[K::CONSTEXPR_KW]);
        // Only integral constants matter: skip resolving every other declaration's type.
        let konst = specs
            .descendants_with_tokens()
            .any(|t| matches!(t.kind(), K::CONST_KW | K::CONST2_KW | K::CONST3_KW));
        if !(constexpr || konst) {
            return;
        }
        let mut base = None;
        for (_, d) in cufront_cuda::spaces::declarators(node) {
            if decl::function_declarator(&d).is_some() {
                continue;
            }
            let Some(name) = decl::name_node(&d).and_then(|n| walk::last_component(&n)) else {
                continue;
            };
            if !self.wants(&name) {
                continue;
            }
            let base = base.get_or_insert_with(|| self.specifier_type(specs, scope)).clone();
            let ty = self.declarator_type(base, &d, scope);
            let Ty::Cv {
                c: konst, inner, ..
            } = &ty
            else {
                if !constexpr {
                    continue;
                }
                self.add_const(&d, name, ty.clone(), scope);
                continue;
            };
            if *konst || constexpr {
                self.add_const(&d, name, (**inner).clone(), scope);
            }
        }
    }

    fn add_const(&mut self, d: &SyntaxNode, name: String, ty: Ty, scope: &ScopeKey) {
        let Some(init) = d
            .parent()
            .filter(|i| i.kind() == K::INIT_DECLARATOR)
            .and_then(|i| {
                let c = i.children().find(|c| {
                    matches!(
                        c.kind(),
                        K::EQUAL_INITIALIZER | K::INITIALIZER | K::INIT_LIST
                    )
                })?;
                // `= e`, `(e)`, `{e}`: the one expression.
                let mut exprs = c.children().filter(|e| e.kind() != K::INIT_LIST);
                let e = exprs.next()?;
                exprs.next().is_none().then_some(e)
            })
        else {
            return;
        };
        self.entities
            .entry((scope.clone(), name))
            .or_insert(Entity::Value(Value::Const {
                init,
                ty,
                scope: scope.clone(),
            }));
    }

    /// The template parameter `name` bound while a default is resolved.
    pub(super) fn binding(&self, name: &str) -> Option<TArg> {
        self.bindings.borrow().last()?.get(name).cloned()
    }

    fn with_bindings<R>(&self, env: &FxHashMap<String, TArg>, f: impl FnOnce() -> R) -> R {
        self.bindings.borrow_mut().push(env.clone());
        let r = f();
        self.bindings.borrow_mut().pop();
        r
    }

    /// The arguments of the specialization `tid` of class template `name`
    /// (declared in `tscope`), defaults filled in and packs grouped.
    pub(super) fn class_template_args(
        &self,
        tscope: &ScopeKey,
        name: &str,
        tid: &SyntaxNode,
        scope: &ScopeKey,
    ) -> Vec<TArg> {
        self.consult(name);
        let Some(params) = self
            .templates
            .get(&(tscope.clone(), name.to_string()))
            .cloned()
        else {
            return self.template_args(tid, scope);
        };
        let given: Vec<SyntaxNode> = tid
            .children()
            .find(|c| c.kind() == K::TEMPLATE_ARG_LIST)
            .map(|l| {
                l.children()
                    .filter(|a| a.kind() == K::TEMPLATE_ARG)
                    .collect()
            })
            .unwrap_or_default();
        if given
            .iter()
            .any(|a| a.descendants_with_tokens().any(|t| t.kind() == K::DOT3))
        {
            return vec![TArg::Type(Ty::Unknown(format!(
                "pack expansion in `{}`",
                tid.text()
            )))];
        }
        let mut env = FxHashMap::default();
        let mut out = Vec::new();
        let mut next = given.iter();
        for p in &params {
            if p.pack {
                let rest = next
                    .by_ref()
                    .map(|a| self.given_arg(p, a, tscope, scope, &env))
                    .collect();
                out.push(TArg::Pack(rest));
                continue;
            }
            let a = match next.next() {
                Some(a) => self.given_arg(p, a, tscope, scope, &env),
                None => self.default_arg(p, tscope, &env),
            };
            if let Some(n) = &p.name {
                env.insert(n.clone(), a.clone());
            }
            out.push(a);
        }
        if next.next().is_some() {
            out.push(TArg::Type(Ty::Unknown(format!(
                "too many arguments in `{}`",
                tid.text()
            ))));
        }
        out
    }

    fn given_arg(
        &self,
        p: &TParamDecl,
        a: &SyntaxNode,
        tscope: &ScopeKey,
        scope: &ScopeKey,
        env: &FxHashMap<String, TArg>,
    ) -> TArg {
        let unknown = || TArg::Type(Ty::Unknown(a.text().to_string()));
        match &p.kind {
            TParamKind::Type => match a.children().find(|c| c.kind() == K::TYPE_ID) {
                Some(t) => TArg::Type(self.type_id(&t, scope)),
                None => unknown(),
            },
            TParamKind::NonType(param) => {
                let Some(v) = self.eval(a, scope, 0) else {
                    return unknown();
                };
                self.nontype_arg(param, v, tscope, env)
                    .unwrap_or_else(unknown)
            }
            TParamKind::Template => unknown(),
        }
    }

    fn default_arg(
        &self,
        p: &TParamDecl,
        tscope: &ScopeKey,
        env: &FxHashMap<String, TArg>,
    ) -> TArg {
        let unknown = |why: String| TArg::Type(Ty::Unknown(why));
        let Some(d) = &p.default else {
            return unknown(format!(
                "no default for `{}`",
                p.name.as_deref().unwrap_or("?")
            ));
        };
        match &p.kind {
            TParamKind::Type => match d.children().find(|c| c.kind() == K::TYPE_ID) {
                Some(t) => self.with_bindings(env, || TArg::Type(self.type_id(&t, tscope))),
                None => unknown(d.text().to_string()),
            },
            TParamKind::NonType(param) => {
                let Some(v) = self.with_bindings(env, || self.eval(d, tscope, 0)) else {
                    return unknown(d.text().to_string());
                };
                self.nontype_arg(param, v, tscope, env)
                    .unwrap_or_else(|| unknown(d.text().to_string()))
            }
            TParamKind::Template => unknown(d.text().to_string()),
        }
    }

    /// The value `v` converted to the type of the non-type parameter `param`.
    fn nontype_arg(
        &self,
        param: &SyntaxNode,
        v: Int,
        tscope: &ScopeKey,
        env: &FxHashMap<String, TArg>,
    ) -> Option<TArg> {
        let ty = self.with_bindings(env, || {
            let specs = param.children().find(|c| c.kind() == K::DECL_SPECIFIERS)?;
            let base = self.specifier_type(&specs, tscope);
            Some(
                match param
                    .children()
                    .find(|c| matches!(c.kind(), K::DECLARATOR | K::ABSTRACT_DECLARATOR))
                {
                    Some(d) => self.declarator_type(base, &d, tscope),
                    None => base,
                },
            )
        })?;
        let ty = match ty {
            Ty::Cv { inner, .. } => *inner,
            t => t,
        };
        let (ty, bits, signed) = match &ty {
            Ty::Builtin(code) => {
                let (bits, signed) = int_type(code)?;
                (ty.clone(), bits, signed)
            }
            // `auto`: the argument's own type.
            Ty::Unknown(u) if u == "auto" => {
                (Ty::Builtin(code_of(v.bits, v.signed)), v.bits, v.signed)
            }
            // An enumeration: the value as is (its underlying type is not tracked).
            Ty::Named(p) if p.last().is_some_and(|s| s.kind == SegKind::Enum) => {
                (ty.clone(), 128, true)
            }
            _ => return None,
        };
        let w = wrap(v.v, bits, signed);
        let text = if w < 0 {
            format!("n{}", w.unsigned_abs())
        } else {
            w.to_string()
        };
        Some(TArg::Int(ty, text))
    }

    /// The integral type a type-id names, for casts.
    fn int_target(&self, t: &SyntaxNode, scope: &ScopeKey) -> Option<(u32, bool)> {
        match self.type_id(t, scope) {
            Ty::Builtin(code) => int_type(code),
            Ty::Cv { inner, .. } => match *inner {
                Ty::Builtin(code) => int_type(code),
                _ => None,
            },
            Ty::Named(p) if p.last().is_some_and(|s| s.kind == SegKind::Enum) => Some((128, true)),
            _ => None,
        }
    }

    /// Evaluates an integral constant expression (or a `TEMPLATE_ARG`,
    /// an initializer, a name parsed as a type-id).
    fn eval(&self, e: &SyntaxNode, scope: &ScopeKey, depth: u32) -> Option<Int> {
        if depth > 64 {
            return None;
        }
        let sub = |n: &SyntaxNode| self.eval(n, scope, depth + 1);
        match e.kind() {
            K::TEMPLATE_ARG | K::EQUAL_INITIALIZER | K::PAREN_EXPR | K::INITIALIZER => {
                sub(&first_node(e)?)
            }
            K::TYPE_ID => {
                // A name the parser took for a type (`A<N>`).
                let specs = e.children().find(|c| c.kind() == K::DECL_SPECIFIERS)?;
                if e.children().any(|c| c.kind() == K::ABSTRACT_DECLARATOR) {
                    return None;
                }
                let st = specs
                    .children()
                    .find(|c| c.kind() == K::SIMPLE_TYPE_SPECIFIER)?;
                self.eval_name(&first_node(&st)?, scope, depth)
            }
            K::ID_EXPR => self.eval_name(&first_node(e)?, scope, depth),
            K::LITERAL => {
                let t = e
                    .children_with_tokens()
                    .filter_map(|t| t.into_token())
                    .find(|t| !t.kind().is_trivia())?;
                match t.kind() {
                    K::INT_NUMBER => int_literal(t.text()),
                    K::CHAR => char_literal(t.text()),
                    K::TRUE_KW => Some(Int::bool(true)),
                    K::FALSE_KW => Some(Int::bool(false)),
                    _ => None,
                }
            }
            K::PREFIX_EXPR => {
                let v = sub(&first_node(e)?)?;
                match op_token(e)? {
                    K::MINUS => {
                        let p = v.promote();
                        Some(Int::new(-p.v, p.bits, p.signed))
                    }
                    K::PLUS => Some(v.promote()),
                    K::TILDE => {
                        let p = v.promote();
                        Some(Int::new(!p.v, p.bits, p.signed))
                    }
                    K::BANG => Some(Int::bool(v.v == 0)),
                    _ => None,
                }
            }
            K::BIN_EXPR => {
                let mut nodes = e.children();
                let (a, b) = (nodes.next()?, nodes.next()?);
                let op = e
                    .children_with_tokens()
                    .filter_map(|t| t.into_token())
                    .find(|t| !t.kind().is_trivia())?
                    .kind();
                let (x, y) = (sub(&a)?, sub(&b)?);
                self.binary(op, x, y)
            }
            K::CONDITIONAL_EXPR => {
                let mut nodes = e.children();
                let (c, a, b) = (nodes.next()?, nodes.next()?, nodes.next()?);
                let (x, y) = (sub(&a)?, sub(&b)?);
                let (bits, signed) = common(x, y);
                let pick = if sub(&c)?.v != 0 { x } else { y };
                Some(Int::new(pick.v, bits, signed))
            }
            K::CXX_CAST_EXPR | K::CAST_EXPR | K::FUNCTIONAL_CAST_EXPR => {
                if e.kind() == K::CXX_CAST_EXPR
                    && !e
                        .children_with_tokens()
                        .any(|t| t.kind() == K::STATIC_CAST_KW)
                {
                    return None;
                }
                let t = e.children().find(|c| c.kind() == K::TYPE_ID)?;
                let (bits, signed) = self.int_target(&t, scope)?;
                let operand = e.children().filter(|c| c.kind() != K::TYPE_ID).last()?;
                let operand = if operand.kind() == K::ARG_LIST {
                    let mut args = operand.children();
                    let a = args.next()?;
                    if args.next().is_some() {
                        return None;
                    }
                    a
                } else {
                    operand
                };
                let v = sub(&operand)?;
                Some(Int::new(v.v, bits, signed))
            }
            K::SIZEOF_EXPR => {
                let t = e.children().find(|c| c.kind() == K::TYPE_ID)?;
                match self.type_id(&t, scope) {
                    Ty::Builtin(code) => Some(Int::new(builtin_size(code)?, 64, false)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn binary(&self, op: K, x: Int, y: Int) -> Option<Int> {
        let (bits, signed) = common(x, y);
        let (a, b) = (wrap(x.v, bits, signed), wrap(y.v, bits, signed));
        let arith = |v: i128| Some(Int::new(v, bits, signed));
        let cmp = |c: bool| Some(Int::bool(c));
        match op {
            K::PLUS => arith(a.checked_add(b)?),
            K::MINUS => arith(a.checked_sub(b)?),
            K::STAR => arith(a.checked_mul(b)?),
            K::SLASH => arith(a.checked_div(b)?),
            K::PERCENT => arith(a.checked_rem(b)?),
            K::AMP => arith(a & b),
            K::PIPE => arith(a | b),
            K::CARET => arith(a ^ b),
            K::SHL | K::SHR => {
                let p = x.promote();
                let n = u32::try_from(y.v).ok().filter(|n| *n < p.bits)?;
                let v = if op == K::SHL {
                    p.v.checked_shl(n)?
                } else {
                    p.v >> n
                };
                Some(Int::new(v, p.bits, p.signed))
            }
            K::EQ2 => cmp(a == b),
            K::NEQ => cmp(a != b),
            K::L_ANGLE => cmp(a < b),
            K::R_ANGLE => cmp(a > b),
            K::LTEQ => cmp(a <= b),
            K::GTEQ => cmp(a >= b),
            K::AMP2 => cmp(x.v != 0 && y.v != 0),
            K::PIPE2 => cmp(x.v != 0 || y.v != 0),
            _ => None,
        }
    }

    /// The value a name denotes: a bound template parameter, an enumerator
    /// or a constant variable.
    fn eval_name(&self, n: &SyntaxNode, scope: &ScopeKey, depth: u32) -> Option<Int> {
        if n.descendants().any(|d| d.kind() == K::TEMPLATE_ID) {
            return None;
        }
        let names = walk::identifiers(n);
        let (last, quals) = names.split_last()?;
        let global = n
            .descendants_with_tokens()
            .next()
            .is_some_and(|t| t.kind() == K::COLON2);
        if quals.is_empty() && !global {
            match self.binding(last) {
                Some(TArg::Int(ty, v)) => {
                    let (bits, signed) = match ty {
                        Ty::Builtin(code) => int_type(code)?,
                        _ => (128, true),
                    };
                    let val = match v.strip_prefix('n') {
                        Some(d) => -d.parse::<i128>().ok()?,
                        None => v.parse::<i128>().ok()?,
                    };
                    return Some(Int::new(val, bits, signed));
                }
                Some(_) => return None,
                None => {}
            }
        }
        let hit = if quals.is_empty() {
            if global {
                self.lookup_in(&Vec::new(), last, 0)
            } else {
                self.lookup(scope, last)
            }
        } else {
            let s = if global {
                self.resolve_scope_from_root(&Vec::new(), quals)
            } else {
                self.resolve_scope(scope, quals)
            };
            s.and_then(|s| self.lookup_in(&s, last, 0))
        };
        let Some((_, Entity::Value(v))) = hit else {
            return None;
        };
        // A constant's initializer sees no template parameters.
        let none = FxHashMap::default();
        self.with_bindings(&none, || match v {
            Value::Const { init, ty, scope } => {
                let val = self.eval(&init, &scope, depth + 1)?;
                match ty {
                    Ty::Builtin(code) => {
                        let (bits, signed) = int_type(code)?;
                        Some(Int::new(val.v, bits, signed))
                    }
                    // `constexpr auto`
                    Ty::Unknown(u) if u == "auto" => Some(val),
                    Ty::Named(p) if p.last().is_some_and(|s| s.kind == SegKind::Enum) => Some(val),
                    _ => None,
                }
            }
            Value::Enumerator { list, index, scope } => {
                let mut v = Int::new(-1, 32, true);
                for en in list
                    .children()
                    .filter(|c| c.kind() == K::ENUMERATOR)
                    .take(index + 1)
                {
                    v = match en.children().find(|c| c.kind() == K::EQUAL_INITIALIZER) {
                        Some(init) => self.eval(&init, &scope, depth + 1)?,
                        None => {
                            let p = v.promote();
                            Int::new(p.v + 1, p.bits, p.signed)
                        }
                    };
                }
                Some(v)
            }
        })
    }
}

/// The parameters of a `TEMPLATE_PARAM_LIST`.
fn template_params(list: &SyntaxNode) -> Vec<TParamDecl> {
    list.children()
        .filter_map(|p| {
            let default = p.children().find(|c| c.kind() == K::EQUAL_INITIALIZER);
            let pack =
                default.is_none() && p.descendants_with_tokens().any(|t| t.kind() == K::DOT3);
            let (kind, name) = match p.kind() {
                K::TYPE_TEMPLATE_PARAM => (
                    TParamKind::Type,
                    p.children()
                        .find(|c| c.kind() == K::NAME)
                        .and_then(|n| walk::last_component(&n)),
                ),
                K::PARAM => (
                    TParamKind::NonType(p.clone()),
                    p.children()
                        .find(|c| c.kind() == K::DECLARATOR)
                        .and_then(|d| decl::name_node(&d))
                        .and_then(|n| walk::last_component(&n)),
                ),
                K::TEMPLATE_TEMPLATE_PARAM => (
                    TParamKind::Template,
                    p.children()
                        .filter(|c| c.kind() == K::NAME)
                        .last()
                        .and_then(|n| walk::last_component(&n)),
                ),
                _ => return None,
            };
            Some(TParamDecl {
                name,
                kind,
                pack,
                default,
            })
        })
        .collect()
}
