//! Small readers over the raw syntax tree that the typed AST does not offer
//! (names as paths, declarator shapes, `#pragma pack`, attribute arguments,
//! which are raw tokens in the tree). None of them descends into a function
//! body.

use cufront_syntax::ast::{self, AstNode};
use cufront_syntax::green;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, SyntaxToken};

use crate::item_tree::{BinOp, Builtin, ConstExpr, Path, PathSegment, TypeRef, UnOp};

/// The `#pragma pack` state: the value in effect and the pushed values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pack {
    current: Option<u32>,
    stack: Vec<Option<u32>>,
}

impl Pack {
    pub fn current(&self) -> Option<u32> {
        self.current
    }

    /// Applies one directive line (anything but `#pragma pack(…)` is ignored).
    pub fn apply(&mut self, line: &str) {
        let s: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        let Some(rest) = s.strip_prefix("#pragma").and_then(|r| r.strip_prefix("pack(")) else {
            return;
        };
        let Some(args) = rest.strip_suffix(')') else { return };
        let args: Vec<&str> = if args.is_empty() { Vec::new() } else { args.split(',').collect() };
        let num = |a: &str| a.parse::<u32>().ok().filter(|n| n.is_power_of_two());
        match args.first().copied() {
            None => self.current = None,
            Some("push") => {
                self.stack.push(self.current);
                if let Some(n) = args.iter().skip(1).find_map(|a| num(a)) {
                    self.current = Some(n);
                }
            }
            Some("pop") => {
                self.current = self.stack.pop().unwrap_or(None);
                if let Some(n) = args.get(1).and_then(|a| num(a)) {
                    self.current = Some(n);
                }
            }
            Some(a) => {
                if let Some(n) = num(a) {
                    self.current = Some(n);
                }
            }
        }
    }
}

pub fn child(node: &SyntaxNode, kind: K) -> Option<SyntaxNode> {
    green::child(node, kind)
}

/// The significant tokens under `node`, in order.
pub fn tokens(node: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> + use<> {
    node.descendants_with_tokens().filter_map(|e| e.into_token()).filter(|t| !t.kind().is_trivia())
}

/// Identifiers of a name (qualifiers included), outside template arguments.
pub fn idents(node: &SyntaxNode) -> Vec<String> {
    path_of(node).map(|p| p.segments.into_iter().map(|s| s.name).collect()).unwrap_or_default()
}

/// The identifier a `NAME` declares.
pub fn name_text(node: &SyntaxNode) -> Option<String> {
    idents(node).pop()
}

/// The first name-like child of `node`, as a path.
pub fn path_in(node: &SyntaxNode) -> Option<Path> {
    node.children()
        .find(|c| matches!(c.kind(), K::NAME | K::NAME_REF | K::QUALIFIED_NAME | K::TEMPLATE_ID))
        .and_then(|n| path_of(&n))
}

/// A name-like node as a path: identifiers in order, template argument lists
/// kept as text on their segment, a leading `::` as `global`.
pub fn path_of(node: &SyntaxNode) -> Option<Path> {
    let mut p = Path::default();
    let mut first = true;
    collect_path(node, &mut p, &mut first);
    // Paths are kept in every item tree, and most have one segment (a
    // pushed vector holds four).
    p.segments.shrink_to_fit();
    (!p.segments.is_empty()).then_some(p)
}

fn collect_path(node: &SyntaxNode, p: &mut Path, first: &mut bool) {
    green::for_each_child(node, &mut |e| match e {
        rowan::NodeOrToken::Token(t) => match green::token_kind(t) {
            K::COLON2 if *first => {
                p.global = true;
                *first = false;
            }
            K::IDENT => {
                p.segments.push(PathSegment { name: t.text().to_string(), args: None });
                *first = false;
            }
            k if !k.is_trivia() => *first = false,
            _ => {}
        },
        rowan::NodeOrToken::Node(n) => match n.kind() {
            K::TEMPLATE_ARG_LIST => {
                if let Some(last) = p.segments.last_mut() {
                    last.args = Some(crate::item_tree::template_args(&n));
                }
                *first = false;
            }
            K::DECLTYPE_SPECIFIER | K::OPERATOR_NAME | K::CONVERSION_NAME | K::DESTRUCTOR_NAME => {
                p.segments.push(PathSegment { name: green::text(&n.green()), args: None });
                *first = false;
            }
            K::GNU_ATTRIBUTE | K::ATTRIBUTE_LIST | K::ALIGNAS_SPECIFIER | K::BASE_CLAUSE | K::MEMBER_LIST => {}
            _ => collect_path(&n, p, first),
        },
    })
}

/// The keywords among decl-specifiers (storage, cv, type words).
pub fn spec_keywords(specs: &SyntaxNode) -> Vec<K> {
    specs.green().children().filter_map(|e| e.into_token()).map(green::token_kind).filter(|k| k.is_keyword()).collect()
}

pub fn class_key(node: &SyntaxNode) -> crate::item_tree::ClassKey {
    use crate::item_tree::ClassKey;
    let head = child(node, K::CLASS_HEAD).unwrap_or_else(|| node.clone());
    for t in head.green().children().filter_map(|e| e.into_token()) {
        match green::token_kind(t) {
            K::UNION_KW => return ClassKey::Union,
            K::CLASS_KW => return ClassKey::Class,
            K::STRUCT_KW => return ClassKey::Struct,
            _ => {}
        }
    }
    ClassKey::Struct
}

/// The init-declarators of a simple declaration, or the declarator of a
/// function definition.
pub fn init_declarators(node: &SyntaxNode) -> Vec<SyntaxNode> {
    if node.kind() == K::FUNCTION_DEF {
        return child(node, K::DECLARATOR).into_iter().collect();
    }
    match child(node, K::INIT_DECLARATOR_LIST) {
        Some(l) => l.children().filter(|c| c.kind() == K::INIT_DECLARATOR).collect(),
        None => Vec::new(),
    }
}

/// The declarators of a declaration.
pub fn declarators(node: &SyntaxNode) -> Vec<SyntaxNode> {
    init_declarators(node)
        .into_iter()
        .filter_map(|d| if d.kind() == K::DECLARATOR { Some(d) } else { child(&d, K::DECLARATOR) })
        .collect()
}

/// The declarator that holds the name (through parentheses).
pub fn innermost(d: &SyntaxNode) -> SyntaxNode {
    let mut d = d.clone();
    loop {
        let next = child(&d, K::PAREN_DECLARATOR).and_then(|p| child(&p, K::DECLARATOR));
        match next {
            Some(n) => d = n,
            None => return d,
        }
    }
}

/// The declarator whose suffix or pointer operator applies to the name
/// first: from the innermost parenthesized declarator outwards, the first
/// one with a function/array suffix or a pointer operator (suffixes bind
/// tighter than operators in the same declarator). In `char (&f(int))[2]`
/// it is `&f(int)`, whose function suffix makes `f` a function (returning a
/// reference to an array); in `void (*p)(int)` it is `*p`: a pointer.
fn binding_declarator(d: &SyntaxNode) -> Option<SyntaxNode> {
    let mut chain = vec![d.clone()];
    while let Some(n) = child(chain.last()?, K::PAREN_DECLARATOR).and_then(|p| child(&p, K::DECLARATOR)) {
        chain.push(n);
    }
    chain.into_iter().rev().find(|n| {
        n.children().any(|c| matches!(c.kind(), K::FUNCTION_DECLARATOR | K::ARRAY_DECLARATOR | K::PTR_OPERATOR))
    })
}

/// Whether the declarator declares a function (not a pointer to one).
pub fn is_function_declarator(d: &SyntaxNode) -> bool {
    let Some(b) = binding_declarator(d) else { return false };
    b.children()
        .find(|c| matches!(c.kind(), K::FUNCTION_DECLARATOR | K::ARRAY_DECLARATOR))
        .is_some_and(|c| c.kind() == K::FUNCTION_DECLARATOR)
}

/// The name a declarator declares (last component of a qualified name).
pub fn declarator_name(d: &SyntaxNode) -> Option<String> {
    let inner = innermost(d);
    let n = inner.children().find(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME))?;
    if n.children().any(|c| matches!(c.kind(), K::OPERATOR_NAME | K::DESTRUCTOR_NAME | K::CONVERSION_NAME)) {
        return None;
    }
    idents(&n).pop()
}

/// The parameters of a function declarator.
pub fn function_params(d: &SyntaxNode) -> Vec<SyntaxNode> {
    match binding_declarator(d).and_then(|b| child(&b, K::FUNCTION_DECLARATOR)) {
        Some(f) => function_params_of(&f),
        None => Vec::new(),
    }
}

pub fn function_params_of(f: &SyntaxNode) -> Vec<SyntaxNode> {
    match child(f, K::PARAM_LIST) {
        Some(l) => l.children().filter(|c| c.kind() == K::PARAM).collect(),
        None => Vec::new(),
    }
}

/// Whether a node of `kind` is under `node`, bodies and initializers skipped.
pub fn has_desc_kind(node: &SyntaxNode, kind: K) -> bool {
    // Through the green tree: every declaration asks this, and a cursor
    // walk allocates at each node it visits.
    green::has_node(&node.green(), kind, &|k| {
        matches!(k, K::FUNCTION_BODY | K::LAZY_BODY | K::CTOR_INITIALIZER | K::FUNCTION_TRY_BLOCK | K::MEMBER_LIST)
    })
}

pub fn is_expr(kind: K) -> bool {
    ast::Expr::can_cast(kind)
}

/// Lowers an expression node; `ty` lowers the type-ids it contains.
pub fn lower_const_expr(e: &SyntaxNode, ty: &mut dyn FnMut(&SyntaxNode) -> TypeRef) -> ConstExpr {
    let unsupported = || ConstExpr::Unsupported(e.text().to_string());
    let Some(expr) = ast::Expr::cast(e.clone()) else { return unsupported() };
    let sub = |n: Option<ast::Expr>, ty: &mut dyn FnMut(&SyntaxNode) -> TypeRef| match n {
        Some(n) => lower_const_expr(n.syntax(), ty),
        None => ConstExpr::Unsupported(String::new()),
    };
    match expr {
        ast::Expr::Literal(l) => match l.token() {
            Some(t) => literal(&t).unwrap_or_else(unsupported),
            None => unsupported(),
        },
        ast::Expr::IdExpr(_) => match path_of(e) {
            Some(p) => ConstExpr::Path(p),
            None => unsupported(),
        },
        ast::Expr::ParenExpr(p) => sub(p.expr(), ty),
        ast::Expr::PrefixExpr(p) => {
            let op = match p.op_kind() {
                Some(K::MINUS) => UnOp::Neg,
                Some(K::PLUS) => UnOp::Plus,
                Some(K::BANG) => UnOp::Not,
                Some(K::TILDE) => UnOp::BitNot,
                _ => return unsupported(),
            };
            ConstExpr::Unary(op, Box::new(sub(p.operand(), ty)))
        }
        ast::Expr::BinExpr(b) => {
            let Some(op) = b.op_kind().and_then(bin_op) else { return unsupported() };
            let (l, r) = (sub(b.lhs(), ty), sub(b.rhs(), ty));
            ConstExpr::Binary(op, Box::new(l), Box::new(r))
        }
        ast::Expr::ConditionalExpr(c) => {
            let (a, b, d) = (sub(c.condition(), ty), sub(c.then_expr(), ty), sub(c.else_expr(), ty));
            ConstExpr::Cond(Box::new(a), Box::new(b), Box::new(d))
        }
        ast::Expr::CastExpr(c) => match c.type_id() {
            Some(t) => {
                let t = ty(t.syntax());
                ConstExpr::Cast(t, Box::new(sub(c.expr(), ty)))
            }
            None => unsupported(),
        },
        ast::Expr::CxxCastExpr(c) => {
            let is_static = tokens(e).next().is_some_and(|t| t.kind() == K::STATIC_CAST_KW);
            match (is_static, c.type_id()) {
                (true, Some(t)) => {
                    let t = ty(t.syntax());
                    ConstExpr::Cast(t, Box::new(sub(c.expr(), ty)))
                }
                _ => unsupported(),
            }
        }
        ast::Expr::FunctionalCastExpr(c) => {
            let arg =
                c.args().and_then(|a| a.args().next()).or_else(|| c.init_list().and_then(|l| l.elements().next()));
            match (c.type_id(), arg) {
                (Some(t), Some(a)) => {
                    let t = ty(t.syntax());
                    ConstExpr::Cast(t, Box::new(lower_const_expr(a.syntax(), ty)))
                }
                _ => unsupported(),
            }
        }
        ast::Expr::SizeofExpr(s) => match s.type_id() {
            Some(t) => ConstExpr::SizeofType(ty(t.syntax())),
            None => unsupported(),
        },
        ast::Expr::AlignofExpr(s) => match s.type_id() {
            Some(t) => ConstExpr::AlignofType(ty(t.syntax())),
            None => unsupported(),
        },
        _ if e.kind() == K::SIZEOF_PACK_EXPR => {
            match e.children().find(|c| c.kind() == K::NAME_REF).and_then(|n| name_text(&n)) {
                Some(n) => ConstExpr::SizeofPack(n),
                None => unsupported(),
            }
        }
        _ if e.kind() == K::TYPE_TRAIT_EXPR => {
            let Some(name) = e
                .children_with_tokens()
                .filter_map(|t| t.into_token())
                .find(|t| t.kind() == K::IDENT || t.kind().is_keyword())
            else {
                return unsupported();
            };
            let tys = e.children().filter(|c| c.kind() == K::TYPE_ID).map(|t| ty(&t)).collect();
            ConstExpr::Trait(name.text().trim_matches('_').to_string(), tys)
        }
        _ => unsupported(),
    }
}

fn bin_op(k: K) -> Option<BinOp> {
    Some(match k {
        K::PLUS => BinOp::Add,
        K::MINUS => BinOp::Sub,
        K::STAR => BinOp::Mul,
        K::SLASH => BinOp::Div,
        K::PERCENT => BinOp::Rem,
        K::SHL => BinOp::Shl,
        K::SHR => BinOp::Shr,
        K::AMP => BinOp::BitAnd,
        K::PIPE => BinOp::BitOr,
        K::CARET => BinOp::BitXor,
        K::AMP2 => BinOp::And,
        K::PIPE2 => BinOp::Or,
        K::EQ2 => BinOp::Eq,
        K::NEQ => BinOp::Ne,
        K::L_ANGLE => BinOp::Lt,
        K::LTEQ => BinOp::Le,
        K::R_ANGLE => BinOp::Gt,
        K::GTEQ => BinOp::Ge,
        _ => return None,
    })
}

/// An integer, character or boolean literal.
pub fn literal(t: &SyntaxToken) -> Option<ConstExpr> {
    match t.kind() {
        K::TRUE_KW => Some(ConstExpr::Int(1, Builtin::Bool)),
        K::FALSE_KW => Some(ConstExpr::Int(0, Builtin::Bool)),
        K::INT_NUMBER => int_literal(t.text()),
        K::CHAR => char_literal(t.text()),
        _ => None,
    }
}

/// An integer literal with its type ([lex.icon]: the first of int, long,
/// long long, … that holds the value; hex/octal also try the unsigned ones).
pub fn int_literal(text: &str) -> Option<ConstExpr> {
    let cufront_syntax::literal::IntLiteral { value: v, unsigned, longs, decimal, .. } =
        cufront_syntax::literal::IntLiteral::parse(text)?;
    use Builtin::*;
    let candidates: &[Builtin] = match (unsigned, longs, decimal) {
        (false, 0, true) => &[Int, Long, LongLong],
        (false, 0, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
        (false, 1, true) => &[Long, LongLong],
        (false, 1, false) => &[Long, ULong, LongLong, ULongLong],
        (false, _, true) => &[LongLong],
        (false, _, false) => &[LongLong, ULongLong],
        (true, 0, _) => &[UInt, ULong, ULongLong],
        (true, 1, _) => &[ULong, ULongLong],
        (true, _, _) => &[ULongLong],
    };
    let ty = candidates.iter().copied().find(|b| v <= crate::consteval::max_value(*b)).unwrap_or(Int128);
    Some(ConstExpr::Int(v, ty))
}

fn char_literal(text: &str) -> Option<ConstExpr> {
    let (ty, body) = if let Some(b) = text.strip_prefix("u8") {
        (Builtin::Char8, b)
    } else if let Some(b) = text.strip_prefix('u') {
        (Builtin::Char16, b)
    } else if let Some(b) = text.strip_prefix('U') {
        (Builtin::Char32, b)
    } else if let Some(b) = text.strip_prefix('L') {
        (Builtin::WChar, b)
    } else {
        (Builtin::Char, text)
    };
    let inner = body.strip_prefix('\'')?.strip_suffix('\'')?;
    let v: u128 = if let Some(esc) = inner.strip_prefix('\\') {
        match esc {
            "n" => 10,
            "t" => 9,
            "r" => 13,
            "0" => 0,
            "a" => 7,
            "b" => 8,
            "f" => 12,
            "v" => 11,
            "\\" => 92,
            "'" => 39,
            "\"" => 34,
            "?" => 63,
            e if e.starts_with('x') => u128::from_str_radix(&e[1..], 16).ok()?,
            e if e.chars().all(|c| c.is_digit(8)) => u128::from_str_radix(e, 8).ok()?,
            _ => return None,
        }
    } else {
        let mut chars = inner.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        c as u128
    };
    // A plain char is signed on x86-64.
    let v = if ty == Builtin::Char && v > 127 { (v as u8 as i8 as i128) as u128 } else { v };
    Some(ConstExpr::Int(v, ty))
}

/// Parses raw tokens (attribute arguments) as a constant expression.
pub fn token_const_expr(toks: &[SyntaxToken]) -> ConstExpr {
    let mut p = TokParser { toks, pos: 0 };
    let e = p.cond();
    if p.pos != toks.len() {
        return ConstExpr::Unsupported(toks.iter().map(|t| t.text()).collect::<Vec<_>>().join(" "));
    }
    e
}

struct TokParser<'a> {
    toks: &'a [SyntaxToken],
    pos: usize,
}

impl TokParser<'_> {
    fn peek(&self) -> Option<K> {
        self.toks.get(self.pos).map(|t| t.kind())
    }
    fn bump(&mut self) -> Option<&SyntaxToken> {
        let t = self.toks.get(self.pos);
        self.pos += 1;
        t
    }
    fn eat(&mut self, k: K) -> bool {
        if self.peek() == Some(k) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn cond(&mut self) -> ConstExpr {
        let c = self.binary(0);
        if self.eat(K::QUESTION) {
            let a = self.cond();
            self.eat(K::COLON);
            let b = self.cond();
            return ConstExpr::Cond(Box::new(c), Box::new(a), Box::new(b));
        }
        c
    }
    fn binary(&mut self, min: u8) -> ConstExpr {
        let mut lhs = self.unary();
        loop {
            let Some(op) = self.peek().and_then(bin_op) else { break };
            let prec = precedence(op);
            if prec < min {
                break;
            }
            self.pos += 1;
            let rhs = self.binary(prec + 1);
            lhs = ConstExpr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        lhs
    }
    fn unary(&mut self) -> ConstExpr {
        let op = match self.peek() {
            Some(K::MINUS) => UnOp::Neg,
            Some(K::PLUS) => UnOp::Plus,
            Some(K::BANG) => UnOp::Not,
            Some(K::TILDE) => UnOp::BitNot,
            _ => return self.primary(),
        };
        self.pos += 1;
        ConstExpr::Unary(op, Box::new(self.unary()))
    }
    fn primary(&mut self) -> ConstExpr {
        let bad = |s: &str| ConstExpr::Unsupported(s.to_string());
        match self.peek() {
            Some(K::L_PAREN) => {
                self.pos += 1;
                let e = self.cond();
                self.eat(K::R_PAREN);
                e
            }
            Some(K::SIZEOF_KW | K::ALIGNOF_KW | K::ALIGNOF2_KW | K::ALIGNOF3_KW | K::ALIGNOF_C_KW) => {
                let is_sizeof = self.peek() == Some(K::SIZEOF_KW);
                self.pos += 1;
                if !self.eat(K::L_PAREN) {
                    return bad("sizeof");
                }
                let start = self.pos;
                while self.peek().is_some_and(|k| k != K::R_PAREN) {
                    self.pos += 1;
                }
                let words: Vec<K> = self.toks[start..self.pos].iter().map(|t| t.kind()).collect();
                self.eat(K::R_PAREN);
                let ty = if words.iter().all(|k| k.is_keyword()) {
                    match crate::item_tree::builtin(&words) {
                        Some(b) => TypeRef::Builtin(b),
                        None => return bad("sizeof"),
                    }
                } else if words.iter().all(|k| matches!(k, K::IDENT | K::COLON2)) {
                    let mut p = Path::default();
                    p.global = words.first() == Some(&K::COLON2);
                    for t in &self.toks[start..self.pos - 1] {
                        if t.kind() == K::IDENT {
                            p.segments.push(PathSegment { name: t.text().to_string(), args: None });
                        }
                    }
                    TypeRef::Path(p)
                } else {
                    return bad("sizeof");
                };
                if is_sizeof { ConstExpr::SizeofType(ty) } else { ConstExpr::AlignofType(ty) }
            }
            Some(K::IDENT | K::COLON2) => {
                let mut p = Path::default();
                if self.eat(K::COLON2) {
                    p.global = true;
                }
                while let Some(K::IDENT) = self.peek() {
                    let t = self.bump().expect("peeked").text().to_string();
                    p.segments.push(PathSegment { name: t, args: None });
                    if !self.eat(K::COLON2) {
                        break;
                    }
                }
                ConstExpr::Path(p)
            }
            Some(_) => {
                let t = self.bump().expect("peeked").clone();
                literal(&t).unwrap_or_else(|| bad(t.text()))
            }
            None => bad(""),
        }
    }
}

fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::BitOr => 3,
        BinOp::BitXor => 4,
        BinOp::BitAnd => 5,
        BinOp::Eq | BinOp::Ne => 6,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
        BinOp::Shl | BinOp::Shr => 8,
        BinOp::Add | BinOp::Sub => 9,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
    }
}
