//! Function bodies (and other expression owners) as arenas of expressions,
//! statements and local declarations, lowered from syntax (rust-analyzer's
//! `hir-def` `Body`, adapted to C++).
//!
//! A `Body` is plain data: names are paths as written (resolved by
//! `infer`), types are `TypeRef`s as written (lowered by `infer` in the
//! owner's scope, through the instance's `Env` inside a template instance,
//! so one body serves every instantiation). Ids are indices into the arenas.
//!
//! Invariants:
//! - Lowering never fails: a construct it does not model becomes
//!   `Expr::Missing` (with its text) or `Stmt::Other`; nesting is bounded
//!   by the syntax tree's own depth limit and `MAX_DEPTH` here.
//! - The item tree still never reads a body: `fn_body` reads the item's
//!   green tree (`item_source`) itself, and the unit's parse for bodies left
//!   lazy.
//! - Ranges are relative to the start of the top-level item that holds the
//!   body (what `item_source` holds), never absolute.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextRange, TextSize, ast, ast::AstNode};

use crate::item_tree::{self, Builtin, ConstExpr, Path, TypeRef};
use crate::syntax_util as su;
use crate::{FnId, ItemId};

/// Index of an expression in `Body::exprs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);
/// Index of a statement in `Body::stmts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtId(pub u32);
/// Index of a local (parameter, variable, structured binding, lambda parameter) in `Body::locals`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);

/// The names a block-scope declaration declares (none for one that
/// declares objects or is not modelled).
fn local_decls(decl: &SyntaxNode) -> Vec<LocalDecl> {
    match decl.kind() {
        K::ALIAS_DECL => {
            let name = decl.children().find(|c| c.kind() == K::NAME).and_then(|n| su::name_text(&n));
            let ty = su::child(decl, K::TYPE_ID).map(|t| item_tree::type_id_ref(&t));
            match (name, ty) {
                (Some(name), Some(ty)) => vec![LocalDecl::Alias { name, ty }],
                _ => Vec::new(),
            }
        }
        K::USING_DECL => su::path_in(decl).map(LocalDecl::Using).into_iter().collect(),
        K::USING_DIRECTIVE => su::path_in(decl).map(LocalDecl::UsingNamespace).into_iter().collect(),
        K::SIMPLE_DECL => {
            let specs = su::child(decl, K::DECL_SPECIFIERS);
            let mut out = Vec::new();
            // `enum { BLOCK_THREADS = Policy::BLOCK_THREADS, … };`
            if let Some(e) = specs.as_ref().and_then(|s| su::child(s, K::ENUM_SPECIFIER)) {
                let enumerators = item_tree::block_enumerators(&e);
                if !enumerators.is_empty() {
                    out.push(LocalDecl::Enumerators(enumerators));
                }
            }
            if !specs.as_ref().map(su::spec_keywords).unwrap_or_default().contains(&K::TYPEDEF_KW) {
                return out;
            }
            out.extend(su::init_declarators(decl).into_iter().filter_map(|init| {
                let d = if init.kind() == K::DECLARATOR { Some(init.clone()) } else { su::child(&init, K::DECLARATOR) };
                let name = d.as_ref().and_then(su::declarator_name)?;
                Some(LocalDecl::Alias { name, ty: item_tree::declared_type(specs.as_ref(), d.as_ref()) })
            }));
            out
        }
        _ => Vec::new(),
    }
}

/// A lowered body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Body {
    pub exprs: Vec<Expr>,
    pub stmts: Vec<Stmt>,
    pub locals: Vec<Local>,
    /// Where each expression is (relative to its top-level item).
    pub expr_ranges: Vec<TextRange>,
    /// Where the name of each local declared by a declaration statement is
    /// (relative to its top-level item; `None` for other locals): where
    /// diagnostics about its construction and destruction point.
    pub local_names: Vec<Option<TextRange>>,
    /// The function's parameters (locals), in order.
    pub params: Vec<LocalId>,
    /// Member initializers of a constructor, in written order.
    pub mem_inits: Vec<MemInit>,
    /// The body statement (a compound; for a function-try-block the `Try`).
    pub root: Option<StmtId>,
    /// A single expression owner (`static_assert` condition, initializer).
    pub root_expr: Option<ExprId>,
    /// `= default` / `= delete`.
    pub defaulted: bool,
    pub deleted: bool,
    /// The typedefs and alias declarations of the body, in order (block
    /// scopes flattened): what the constexpr interpreter binds by name.
    pub local_types: Vec<(String, TypeRef)>,
    /// Block-scope declarations that declare names, not objects (their
    /// statement is `Stmt::Other`): aliases, typedefs, using-declarations
    /// and using-directives, with the statement they are.
    pub local_decls: Vec<(StmtId, LocalDecl)>,
    /// The operands of `decltype(…)` in block-scope aliases, typedefs and
    /// variable declarations' specifiers (`using _From = decltype(*__first);`),
    /// by the specifier's token text (what the `TypeRef::Opaque` holds): they
    /// name the body's locals, so only the body's inference can type them.
    pub alias_decltypes: Vec<(String, ExprId)>,
    /// The `decltype(…)` specifiers written in the types of expressions
    /// (`decltype(rank(t)){}`, `decltype(rank(t))::value`,
    /// `C<decltype(x)::value>{}`), by the expression whose type holds them,
    /// in the order of `exprs`: the operand is in `alias_decltypes` under
    /// the same text; inference types it when it reaches the expression.
    pub expr_decltypes: Vec<(ExprId, String)>,
    /// Where the parts of each lambda expression are written, in the
    /// order of `exprs` (the positions diagnostics about a lambda use).
    pub lambda_marks: Vec<LambdaMarks>,
}

/// Where a lambda expression's parts are (relative to the top-level item,
/// each at its first significant token).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LambdaMarks {
    pub expr: ExprId,
    /// The lambda's `[`.
    pub start: TextSize,
    /// Its parameter list (the lambda declarator), else its body.
    pub head: TextSize,
    /// Its body's `{`.
    pub body: Option<TextSize>,
    /// Per capture, in `captures` order: its name (`x` of `&x`, `r` of
    /// `&r = v`), else the capture itself.
    pub captures: Vec<TextSize>,
}

/// A block-scope declaration of a name (`body::Body::local_decls`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocalDecl {
    /// `using N = T;` / `typedef T N;`.
    Alias { name: String, ty: TypeRef },
    /// `using X::f;`.
    Using(Path),
    /// `using namespace N;`.
    UsingNamespace(Path),
    /// The enumerators of an unscoped `enum` defined in the block, with
    /// their written values.
    Enumerators(Vec<(String, Option<ConstExpr>)>),
}

/// How a local is initialized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Init {
    None,
    /// `= e` (copy-initialization; `= {…}` is an `Expr::InitList`).
    Assign(ExprId),
    /// `(a, b)`.
    Paren(Vec<ExprId>),
    /// `{a, b}` (direct-list-initialization).
    Brace(Vec<ExprId>),
}

/// The designation of an initializer-list element ([dcl.init.aggr]/3.1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Designator {
    /// `.m`: a direct member of the aggregate, by name.
    Member(String),
    /// An array designator, a chained one (`.a.b`) or GNU's `m:`: not C++.
    Other,
}

/// The designator of a `DESIGNATED_INIT` node: `.m` followed by `=` or `{`
/// is a member's, anything else is not C++'s.
fn designator(n: &SyntaxNode) -> Designator {
    let mut parts = n.children_with_tokens().filter(|e| !e.kind().is_trivia());
    match (parts.next(), parts.next(), parts.next()) {
        (Some(dot), Some(name), Some(next))
            if dot.kind() == K::DOT && name.kind() == K::NAME_REF && matches!(next.kind(), K::EQ | K::INIT_LIST) =>
        {
            Designator::Member(name.as_node().map(|n| n.text().to_string().trim().to_string()).unwrap_or_default())
        }
        _ => Designator::Other,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    /// None: an unnamed parameter.
    pub name: Option<String>,
    /// The declared type as written (`auto` is `TypeRef::Opaque("auto")`,
    /// possibly under pointers and references).
    pub ty: TypeRef,
    pub init: Init,
    pub is_static: bool,
    pub is_thread_local: bool,
    pub is_constexpr: bool,
    /// `T... args`.
    pub pack: bool,
    /// A structured binding: the hidden object it names an element of, and the index.
    pub binding_of: Option<(LocalId, u32)>,
    /// The parameter's default argument.
    pub default: Option<ExprId>,
    /// Its CUDA attributes (`__shared__ int x;` in a kernel): memory spaces.
    pub cuda: cufront_cuda::CudaAttrs,
}

impl Local {
    /// An ordinary automatic local (not static, not constexpr, no pack,
    /// no binding, no default argument).
    pub fn plain(name: Option<String>, ty: TypeRef, init: Init) -> Local {
        Local {
            name,
            ty,
            init,
            is_static: false,
            is_thread_local: false,
            is_constexpr: false,
            pack: false,
            binding_of: None,
            default: None,
            cuda: cufront_cuda::CudaAttrs::default(),
        }
    }
}

/// `member(args)` / `Base(args)` / `member{args}` in a constructor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemInit {
    pub name: Path,
    pub args: Vec<ExprId>,
    pub braced: bool,
    /// `B<Is, Ts>(args)...`: a pack expansion, one initializer per element
    /// of the packs it names.
    pub pack: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    /// Integer, character or boolean literal with its type.
    Int(u128, Builtin),
    Float(Builtin),
    /// A string literal: its element type and length with the terminator.
    String(Builtin, u32),
    Nullptr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
    /// GNU `&&label`, `__real__`, `__imag__`, `__extension__`, `co_await`: not modelled further.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Spaceship,
    /// `.*` / `->*`.
    PtrMem,
    PtrMemArrow,
}

impl BinaryOp {
    /// The operator's token (`+`, `<<=`'s `<<`, `->*`).
    pub fn spelling(self) -> &'static str {
        use BinaryOp as B;
        match self {
            B::Add => "+",
            B::Sub => "-",
            B::Mul => "*",
            B::Div => "/",
            B::Rem => "%",
            B::Shl => "<<",
            B::Shr => ">>",
            B::BitAnd => "&",
            B::BitOr => "|",
            B::BitXor => "^",
            B::And => "&&",
            B::Or => "||",
            B::Eq => "==",
            B::Ne => "!=",
            B::Lt => "<",
            B::Le => "<=",
            B::Gt => ">",
            B::Ge => ">=",
            B::Spaceship => "<=>",
            B::PtrMem => ".*",
            B::PtrMemArrow => "->*",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastKind {
    CStyle,
    Static,
    Const,
    Reinterpret,
    Dynamic,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Capture {
    /// `[=]` / `[&]`.
    Default {
        by_ref: bool,
    },
    This {
        by_copy: bool,
    },
    /// `x`, `&x`, `x = e`, `&x = e`. An init-capture declares a local of
    /// the lambda's body (`auto x = e;` / `auto& x = e;`): `local`.
    Var {
        name: String,
        by_ref: bool,
        init: Option<ExprId>,
        local: Option<LocalId>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// Something not lowered (the text says what); typed as an error.
    Missing(String),
    Literal(Literal),
    /// A name as written (`x`, `ns::f`, `f<int>`, `S::operator+`).
    Path(Path),
    This,
    /// `base.name` / `base->name` (the name may be qualified or a template-id).
    Member {
        base: ExprId,
        arrow: bool,
        name: Path,
    },
    Call {
        callee: ExprId,
        args: Vec<ExprId>,
    },
    /// `f<<<config>>>(args)`.
    KernelLaunch {
        callee: ExprId,
        config: Vec<ExprId>,
        args: Vec<ExprId>,
    },
    /// `T(args)` / `T{args}` (functional cast, temporary, value-initialization).
    Construct {
        ty: TypeRef,
        args: Vec<ExprId>,
        braced: bool,
    },
    Unary {
        op: UnaryOp,
        expr: ExprId,
    },
    Binary {
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    /// `=` (op None) and compound assignments.
    Assign {
        op: Option<BinaryOp>,
        lhs: ExprId,
        rhs: ExprId,
    },
    Cond {
        cond: ExprId,
        then: ExprId,
        els: ExprId,
    },
    Comma {
        lhs: ExprId,
        rhs: ExprId,
    },
    Cast {
        kind: CastKind,
        ty: TypeRef,
        expr: ExprId,
    },
    Index {
        base: ExprId,
        index: ExprId,
    },
    New {
        placement: Vec<ExprId>,
        ty: TypeRef,
        args: Option<Vec<ExprId>>,
        braced: bool,
        array: bool,
    },
    Delete {
        expr: ExprId,
        array: bool,
    },
    Throw(Option<ExprId>),
    SizeofType(TypeRef),
    SizeofExpr(ExprId),
    AlignofType(TypeRef),
    AlignofExpr(ExprId),
    Noexcept(ExprId),
    TypeidType(TypeRef),
    TypeidExpr(ExprId),
    SizeofPack(String),
    /// A type trait or builtin (`__is_same(A, B)`, `__builtin_offsetof`), name as written.
    Builtin {
        name: String,
        tys: Vec<TypeRef>,
        args: Vec<ExprId>,
    },
    /// `{a, b}`; an element with a designator is a `Designated`.
    InitList(Vec<ExprId>),
    /// `.m = v` or `.m{v}` (`designator`: the member), or a designation
    /// C++ does not have (`[i] = v`, `.a.b = v`, GNU's `m: v`), and its value.
    Designated {
        designator: Designator,
        value: ExprId,
    },
    /// A lambda: its own parameters (locals of this body) and body statement.
    /// `host`/`device`: its CUDA annotations (`__device__` alone in a
    /// function makes it an extended lambda, which cudafe++ replaces).
    /// `variadic`: the parameter list ends in a C ellipsis (`(T& v, ...)`).
    /// `constexpr`/`consteval`: its specifiers; `tparams`: an explicit
    /// template parameter list (`[]<class T>(T x)`: generic). `noexcept`:
    /// `Some(true)` for a bare `noexcept`, `Some(false)` without one,
    /// `None` for a `noexcept(…)` with an operand (not evaluated here).
    Lambda {
        captures: Vec<Capture>,
        params: Vec<LocalId>,
        variadic: bool,
        ret: Option<TypeRef>,
        body: Option<StmtId>,
        mutable: bool,
        host: bool,
        device: bool,
        constexpr: bool,
        consteval: bool,
        tparams: bool,
        noexcept: Option<bool>,
    },
    /// `(pack op ...)`, `(... op pack)`, `(a op ... op b)`: operands as written.
    Fold {
        op: Option<BinaryOp>,
        lhs: Option<ExprId>,
        rhs: Option<ExprId>,
    },
    /// `x...` in an argument list.
    PackExpansion(ExprId),
    /// `requires (params) { requirements }`: its parameters (locals of this
    /// body) and requirements (`infer/requires.rs` checks them).
    Requires {
        params: Vec<LocalId>,
        reqs: Vec<Requirement>,
    },
    /// GNU `({ … })`.
    StmtExpr(StmtId),
}

/// One requirement of a requires-expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requirement {
    /// `e;`: `e` is well-formed.
    Simple(ExprId),
    /// `typename T::x;`: the type exists.
    Type(TypeRef),
    /// `{ e } -> C<A…>;`: `e` is well-formed and `C<decltype((e)), A…>` holds.
    Compound { expr: ExprId, constraint: Option<Path> },
    /// `requires e;`: the constant expression is true.
    Nested(ExprId),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Compound(Vec<StmtId>),
    Expr(ExprId),
    /// Local variables (in order); static ones are in `Local::is_static`.
    Decl(Vec<LocalId>),
    /// Block-scope type aliases (`typedef T X;`, `using X = T;`): name and
    /// type as written, visible to the end of the block.
    Alias(Vec<(String, TypeRef)>),
    /// `namespace n = a::b;` at block scope.
    NamespaceAlias(String, Path),
    /// `static_assert(cond, message)` at block scope: the condition (a
    /// constant expression; its calls are calls of the function).
    StaticAssert(ExprId),
    /// A declaration that declares no variable (local class, using, …).
    Other(String),
    Null,
    If {
        init: Option<StmtId>,
        cond: Cond,
        then: StmtId,
        els: Option<StmtId>,
        constexpr: bool,
    },
    Switch {
        init: Option<StmtId>,
        cond: Cond,
        body: StmtId,
    },
    While {
        cond: Cond,
        body: StmtId,
    },
    Do {
        body: StmtId,
        cond: ExprId,
    },
    For {
        init: Option<StmtId>,
        cond: Option<Cond>,
        step: Option<ExprId>,
        body: StmtId,
    },
    /// `for (decl : range)`: `var` is the declared local.
    RangeFor {
        init: Option<StmtId>,
        var: Option<LocalId>,
        range: ExprId,
        body: StmtId,
    },
    Return(Option<ExprId>),
    Break,
    Continue,
    Goto(Option<String>),
    Label {
        name: String,
        stmt: StmtId,
    },
    Case {
        value: ExprId,
        stmt: StmtId,
    },
    Default(StmtId),
    Try {
        body: StmtId,
        handlers: Vec<Handler>,
    },
    Asm(Vec<ExprId>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    Expr(ExprId),
    /// `if (T x = e)`.
    Decl(LocalId),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handler {
    /// None: `catch (...)`.
    pub param: Option<LocalId>,
    pub body: StmtId,
}

impl Body {
    pub fn expr(&self, e: ExprId) -> &Expr {
        &self.exprs[e.0 as usize]
    }
    pub fn stmt(&self, s: StmtId) -> &Stmt {
        &self.stmts[s.0 as usize]
    }
    pub fn local(&self, l: LocalId) -> &Local {
        &self.locals[l.0 as usize]
    }
    pub fn is_empty(&self) -> bool {
        self.root.is_none() && self.root_expr.is_none() && self.mem_inits.is_empty()
    }
}

/// Deeper expressions become `Missing` (the parser bounds trees, this bounds
/// the recursion here independently of it).
const MAX_DEPTH: u32 = 400;

/// Offsets (relative to the item) of the name of each function of an
/// item's tree, by index (`crate::item_offsets`, cached).
#[salsa::tracked(returns(clone))]
pub fn item_fn_offsets(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<u32>> {
    Arc::new(crate::item_offsets(db, item).fns.clone())
}

/// How many trailing parameters of each function and function template of
/// an item have default arguments (as the declaration at hand writes them),
/// by index: what overload resolution's viability check needs.
#[salsa::tracked(returns(clone))]
pub fn item_param_defaults(db: &dyn SourceDatabase, item: ItemId) -> Arc<(Vec<u32>, Vec<u32>)> {
    let Some(src) = crate::item_source(db, item).as_ref().cloned() else { return Arc::default() };
    let root = SyntaxNode::new_root(src.green.clone());
    let offs = crate::item_offsets(db, item);
    let count = |at: &u32| -> u32 {
        let Some(tok) = cufront_syntax::green::token_at(&root, TextSize::from(*at)) else { return 0 };
        // The declarator that holds the name, then its function declarator.
        let Some(d) = tok.parent_ancestors().find(|n| n.kind() == K::DECLARATOR) else { return 0 };
        let params = su::function_params(&d);
        params.iter().rev().take_while(|p| su::child(p, K::EQUAL_INITIALIZER).is_some()).count() as u32
    };
    Arc::new((offs.fns.iter().map(count).collect(), offs.fn_templates.iter().map(count).collect()))
}

/// The body of a function: empty for a declaration without a definition.
#[salsa::tracked(returns(clone))]
pub fn fn_body(db: &dyn SourceDatabase, f: FnId) -> Arc<Body> {
    let item = f.item(db);
    let Some(&at) = item_fn_offsets(db, item).get(f.idx(db) as usize) else { return Arc::default() };
    Arc::new(body_at(db, item, at).unwrap_or_default())
}

/// The body of the function whose declarator name is at `at` (relative to
/// `item`): what `fn_body` does for any function-like declaration
/// (function templates included).
pub fn body_at(db: &dyn SourceDatabase, item: ItemId, at: u32) -> Option<Body> {
    let src = crate::item_source(db, item).as_ref()?.clone();
    let root = SyntaxNode::new_root(src.green.clone());
    let def = function_def_at(&root, at)?;
    Some(lower_function(db, item, &def))
}

/// The parameters (default arguments included) of the function-like
/// declaration whose declarator name is at `at`, definition or not: a member
/// declared in its class and defined outside keeps its defaults on the
/// declaration (`infer/default_args.rs`).
pub fn decl_params_at(db: &dyn SourceDatabase, item: ItemId, at: u32) -> Option<Body> {
    let src = crate::item_source(db, item).as_ref()?.clone();
    let root = SyntaxNode::new_root(src.green.clone());
    let tok = cufront_syntax::green::token_at(&root, TextSize::from(at))?;
    let d = tok.parent_ancestors().find(|n| n.kind() == K::DECLARATOR)?;
    let mut cx = Lower::new(TextSize::from(0));
    for p in su::function_params(&d) {
        let l = cx.param(&p);
        cx.body.params.push(l);
    }
    Some(cx.body)
}

/// The `FUNCTION_DEF` (or declaration) whose declarator name starts at `at`.
pub fn function_def_at(root: &SyntaxNode, at: u32) -> Option<SyntaxNode> {
    let tok = cufront_syntax::green::token_at(root, TextSize::from(at))?;
    let mut cur = tok.parent();
    while let Some(n) = cur {
        match n.kind() {
            K::FUNCTION_DEF => return Some(n),
            K::SIMPLE_DECL | K::MEMBER_DECL | K::PARAM | K::LAMBDA_EXPR => return None,
            _ => {}
        }
        cur = n.parent();
    }
    None
}

/// Lowers a `FUNCTION_DEF` of `item`'s tree (parameters, member
/// initializers, body). A lazy body is parsed through the unit's parse.
pub fn lower_function(db: &dyn SourceDatabase, item: ItemId, def: &SyntaxNode) -> Body {
    let mut cx = Lower::new(TextSize::from(0));
    if let Some(d) = su::child(def, K::DECLARATOR) {
        let inner = su::innermost(&d);
        if let Some(f) = su::child(&inner, K::FUNCTION_DECLARATOR) {
            for p in su::function_params_of(&f) {
                let l = cx.param(&p);
                cx.body.params.push(l);
            }
        }
    }
    let mut ctor_init = su::child(def, K::CTOR_INITIALIZER);
    let mut body_node = None;
    for c in def.children() {
        match c.kind() {
            K::FUNCTION_BODY => body_node = Some((c, TextSize::from(0))),
            K::LAZY_BODY => {
                if let Some((parsed, start)) = parse_lazy(db, item, &c) {
                    body_node = Some((parsed, start));
                }
            }
            K::DEFAULTED_BODY => cx.body.defaulted = true,
            K::DELETED_BODY => cx.body.deleted = true,
            _ => {}
        }
    }
    if let Some(ci) = &ctor_init.take() {
        cx.mem_inits(ci);
    }
    if let Some((b, start)) = body_node {
        cx.base = start;
        // FUNCTION_BODY: a compound, or a function-try-block (with its own ctor-initializer).
        if let Some(tb) = su::child(&b, K::FUNCTION_TRY_BLOCK) {
            if let Some(ci) = su::child(&tb, K::CTOR_INITIALIZER) {
                cx.mem_inits(&ci);
            }
            let body = match su::child(&tb, K::COMPOUND_STMT) {
                Some(c) => cx.stmt(&c, 0),
                None => cx.alloc_stmt(Stmt::Compound(Vec::new())),
            };
            let handlers = tb.children().filter(|h| h.kind() == K::HANDLER).map(|h| cx.handler(&h)).collect();
            cx.body.root = Some(cx.alloc_stmt(Stmt::Try { body, handlers }));
        } else if let Some(c) = su::child(&b, K::COMPOUND_STMT) {
            cx.body.root = Some(cx.stmt(&c, 0));
        }
    }
    cx.body
}

/// Parses a `LAZY_BODY` of `item` through the unit's parse; the result's
/// root is a `FUNCTION_BODY` and the offset of its start in the item.
pub fn parse_lazy(db: &dyn SourceDatabase, item: ItemId, lazy: &SyntaxNode) -> Option<(SyntaxNode, TextSize)> {
    let tu = item.tu(db);
    let parse = cufront_base_db::parse(db, tu);
    let items = &crate::top_level_items(db, tu).items;
    let idx = items.iter().position(|i| *i == item)?;
    let root = parse.syntax_node();
    let (parse, item_node) = match root.children().nth(idx) {
        Some(n) => (parse, n),
        // An item of the extended-lambda model (after the unit's own).
        None => {
            let model = crate::lambda_wrappers::unit_wrapper_parse(db, tu)?;
            (model, model.syntax_node().children().nth(idx - root.children().count())?)
        }
    };
    let abs = item_node.text_range().start() + lazy.text_range().start();
    let range = TextRange::at(abs, lazy.text_range().len());
    // Down by position, not by a walk of the item: a namespace item holds
    // thousands of bodies, and each is looked up here.
    let start = match item_node.covering_element(range) {
        rowan::NodeOrToken::Node(n) => n,
        rowan::NodeOrToken::Token(t) => t.parent()?,
    };
    let node = start.ancestors().find(|n| n.kind() == K::LAZY_BODY && n.text_range() == range)?;
    let body = parse.parse_body(&node)?;
    Some((body.syntax_node(), lazy.text_range().start()))
}

/// Lowers one expression (a `static_assert` condition, an initializer):
/// `node` is in the tree of `item` (ranges relative to it).
pub fn lower_expr_owner(node: &SyntaxNode) -> Body {
    lower_expr_at(node, TextSize::from(0))
}

/// `lower_expr_owner` for a node of a tree that starts at `base` in its
/// item (a lazily parsed body).
pub fn lower_expr_at(node: &SyntaxNode, base: TextSize) -> Body {
    let mut cx = Lower::new(base);
    let e = cx.expr_node(node, 0);
    cx.body.root_expr = Some(e);
    cx.body
}

/// Lowers a default member initializer: `init` is the member's
/// init-declarator (`x = e`, `x{a}`, `x(a)` never: a member cannot be
/// initialized with parentheses). The body holds one local standing for the
/// member, of type `ty`, with the initializer: inferring its declaration is
/// what a constructor that does not name the member does ([class.base.init]/9).
pub fn lower_field_init(init: &SyntaxNode, ty: TypeRef) -> Body {
    let mut cx = Lower::new(TextSize::from(0));
    let init = cx.initializer(init, 0);
    // Unnamed: the initializer's names are the class's members, never this local.
    let l = cx.alloc_local(Local::plain(None, ty, init));
    let s = cx.alloc_stmt(Stmt::Decl(vec![l]));
    cx.body.root = Some(s);
    cx.body
}

/// Lowers the definition of a variable (namespace scope, static member,
/// variable template): `init` is its init-declarator when it has an
/// initializer. The body is one declaration of one unnamed local of type
/// `ty` with that initializer: inferring it is what the variable's dynamic
/// initialization does (construction, conversions, temporaries). Unnamed:
/// a name in the initializer is the variable itself (`int x = sizeof(x);`),
/// never this local.
pub fn lower_var_init(init: Option<&SyntaxNode>, ty: TypeRef) -> Body {
    let mut cx = Lower::new(TextSize::from(0));
    let init = init.map_or(Init::None, |n| cx.initializer(n, 0));
    let l = cx.alloc_local(Local::plain(None, ty, init));
    let s = cx.alloc_stmt(Stmt::Decl(vec![l]));
    cx.body.root = Some(s);
    cx.body
}

/// Lowers the operand of a `decltype` (`node`: its `DECLTYPE_SPECIFIER`)
/// as a single-expression body. The parameters of the function declarator
/// it is written in (a trailing return type, `-> decltype(t + u)`, names
/// them) are the body's parameters.
pub fn lower_decltype(node: &SyntaxNode) -> Option<Body> {
    let operand = node.children().next()?;
    lower_operand(node, &operand)
}

/// The operand of an unevaluated operator `node` (`decltype`, `sizeof`) as a
/// body, the parameters of the function declarator it is written in (a
/// trailing return type names them) as its parameters.
pub fn lower_operand(node: &SyntaxNode, operand: &SyntaxNode) -> Option<Body> {
    let mut cx = Lower::new(TextSize::from(0));
    let mut cur = node.parent();
    while let Some(n) = cur {
        match n.kind() {
            K::FUNCTION_DECLARATOR => {
                // Only the parameters declared before the operand are in
                // scope: one in a parameter's own type (`f(tag<As...>*,
                // decltype(&g<As...>))`) sees those before it, never itself.
                for p in
                    su::function_params_of(&n).into_iter().filter(|p| p.text_range().end() <= node.text_range().start())
                {
                    let l = cx.param(&p);
                    cx.body.params.push(l);
                }
                break;
            }
            K::FUNCTION_DEF | K::SIMPLE_DECL | K::MEMBER_DECL | K::LAMBDA_EXPR => break,
            _ => {}
        }
        cur = n.parent();
    }
    let e = cx.expr_node(operand, 0);
    cx.body.root_expr = Some(e);
    Some(cx.body)
}

struct Lower {
    body: Body,
    /// Offset of the tree being read within the item (lazy bodies).
    base: TextSize,
}

impl Lower {
    fn new(base: TextSize) -> Lower {
        Lower { body: Body::default(), base }
    }

    fn alloc_expr(&mut self, e: Expr, range: TextRange) -> ExprId {
        self.body.exprs.push(e);
        self.body.expr_ranges.push(range + self.base);
        ExprId(self.body.exprs.len() as u32 - 1)
    }

    fn alloc_stmt(&mut self, s: Stmt) -> StmtId {
        self.body.stmts.push(s);
        StmtId(self.body.stmts.len() as u32 - 1)
    }

    fn alloc_local(&mut self, l: Local) -> LocalId {
        self.body.locals.push(l);
        self.body.local_names.push(None);
        LocalId(self.body.locals.len() as u32 - 1)
    }

    fn missing(&mut self, n: &SyntaxNode) -> ExprId {
        let text: String = n.text().to_string();
        let text = if text.len() > 80 { format!("{}…", &text[..text.floor_char_boundary(80)]) } else { text };
        self.alloc_expr(Expr::Missing(text), n.text_range())
    }

    fn param(&mut self, p: &SyntaxNode) -> LocalId {
        let specs = su::child(p, K::DECL_SPECIFIERS);
        let d = p.children().find(|c| matches!(c.kind(), K::DECLARATOR | K::ABSTRACT_DECLARATOR));
        let ty = item_tree::declared_type(specs.as_ref(), d.as_ref());
        let name = d.as_ref().filter(|d| d.kind() == K::DECLARATOR).and_then(su::declarator_name);
        let pack = d.as_ref().is_some_and(|d| d.descendants_with_tokens().any(|t| t.kind() == K::DOT3));
        let default = su::child(p, K::EQUAL_INITIALIZER)
            .and_then(|e| e.children().find(|c| su::is_expr(c.kind())))
            .map(|e| self.expr_node(&e, 0));
        self.alloc_local(Local { pack, default, ..Local::plain(name, ty, Init::None) })
    }

    fn mem_inits(&mut self, ci: &SyntaxNode) {
        for m in ci.children().filter(|c| c.kind() == K::MEM_INITIALIZER) {
            let name = su::path_in(&m).unwrap_or_default();
            let (args, braced) = match (su::child(&m, K::ARG_LIST), su::child(&m, K::INIT_LIST)) {
                (Some(a), _) => (self.args(&a), false),
                (None, Some(l)) => (self.args(&l), true),
                _ => (Vec::new(), false),
            };
            let pack = m.children_with_tokens().any(|t| t.kind() == K::DOT3);
            self.body.mem_inits.push(MemInit { name, args, braced, pack });
        }
    }

    fn handler(&mut self, h: &SyntaxNode) -> Handler {
        let param = su::child(h, K::EXCEPTION_DECL).and_then(|d| su::child(&d, K::PARAM)).map(|p| self.param(&p));
        let body = match su::child(h, K::COMPOUND_STMT) {
            Some(c) => self.stmt(&c, 0),
            None => self.alloc_stmt(Stmt::Null),
        };
        Handler { param, body }
    }

    fn stmt_opt(&mut self, n: Option<SyntaxNode>, depth: u32) -> StmtId {
        match n {
            Some(n) => self.stmt(&n, depth),
            None => self.alloc_stmt(Stmt::Null),
        }
    }

    fn stmt(&mut self, n: &SyntaxNode, depth: u32) -> StmtId {
        if depth > MAX_DEPTH {
            return self.alloc_stmt(Stmt::Other("nested too deeply".into()));
        }
        let d = depth + 1;
        let Some(s) = ast::Stmt::cast(n.clone()) else {
            return self.alloc_stmt(Stmt::Other(format!("{:?}", n.kind())));
        };
        let s = match s {
            ast::Stmt::CompoundStmt(c) => {
                let ss = c.syntax().children().filter(|x| ast::Stmt::can_cast(x.kind())).collect::<Vec<_>>();
                let ids = ss.iter().map(|x| self.stmt(x, d)).collect();
                Stmt::Compound(ids)
            }
            ast::Stmt::ExprStmt(e) => match e.expr() {
                Some(x) => Stmt::Expr(self.expr_node(x.syntax(), d)),
                None => Stmt::Null,
            },
            ast::Stmt::DeclStmt(ds) => match ds.syntax().children().next() {
                Some(decl) => {
                    let s = self.decl_stmt(&decl, d);
                    if matches!(s, Stmt::Other(_)) {
                        // The statement is allocated next.
                        let at = StmtId(self.body.stmts.len() as u32);
                        for ld in local_decls(&decl) {
                            self.body.local_decls.push((at, ld));
                        }
                    }
                    s
                }
                None => Stmt::Null,
            },
            ast::Stmt::NullStmt(_) => Stmt::Null,
            ast::Stmt::IfStmt(i) => {
                let init = i.init().map(|x| self.for_init(x.syntax(), d));
                let cond = self.cond(i.condition().map(|c| c.syntax().clone()), d);
                let then = self.stmt_opt(i.then_branch().map(|t| t.syntax().clone()), d);
                let els = i.else_branch().and_then(|e| e.stmt()).map(|e| self.stmt(e.syntax(), d));
                Stmt::If { init, cond, then, els, constexpr: i.is_constexpr() }
            }
            ast::Stmt::SwitchStmt(sw) => {
                let init = sw.init().map(|x| self.for_init(x.syntax(), d));
                let cond = self.cond(sw.condition().map(|c| c.syntax().clone()), d);
                let body = self.stmt_opt(sw.body().map(|b| b.syntax().clone()), d);
                Stmt::Switch { init, cond, body }
            }
            ast::Stmt::WhileStmt(w) => {
                let cond = self.cond(w.condition().map(|c| c.syntax().clone()), d);
                let body = self.stmt_opt(w.body().map(|b| b.syntax().clone()), d);
                Stmt::While { cond, body }
            }
            ast::Stmt::DoStmt(w) => {
                let body = self.stmt_opt(w.body().map(|b| b.syntax().clone()), d);
                let cond = self.expr_opt(w.condition().map(|c| c.syntax().clone()), n, d);
                Stmt::Do { body, cond }
            }
            ast::Stmt::ForStmt(f) => {
                let init = f.init().map(|x| self.for_init(x.syntax(), d));
                let cond = f.condition().map(|c| self.cond(Some(c.syntax().clone()), d));
                let step = f.step().map(|e| self.expr_node(e.syntax(), d));
                let body = self.stmt_opt(f.body().map(|b| b.syntax().clone()), d);
                Stmt::For { init, cond, step, body }
            }
            ast::Stmt::RangeForStmt(f) => {
                let init = f.init().map(|x| self.for_init(x.syntax(), d));
                let var = f.decl().and_then(|x| x.decl()).and_then(|decl| match self.decl_stmt(decl.syntax(), d) {
                    Stmt::Decl(ls) => ls.first().copied(),
                    _ => None,
                });
                let range = self.expr_opt(f.range().map(|r| r.syntax().clone()), n, d);
                let body = self.stmt_opt(f.body().map(|b| b.syntax().clone()), d);
                Stmt::RangeFor { init, var, range, body }
            }
            ast::Stmt::BreakStmt(_) => Stmt::Break,
            ast::Stmt::ContinueStmt(_) => Stmt::Continue,
            ast::Stmt::ReturnStmt(r) => Stmt::Return(r.expr().map(|e| self.expr_node(e.syntax(), d))),
            ast::Stmt::CoReturnStmt(r) => Stmt::Return(r.expr().map(|e| self.expr_node(e.syntax(), d))),
            ast::Stmt::GotoStmt(g) => Stmt::Goto(g.label().and_then(|l| l.text())),
            ast::Stmt::LabeledStmt(l) => {
                let name = l.name().and_then(|x| x.text()).unwrap_or_default();
                let stmt = self.stmt_opt(l.stmt().map(|s| s.syntax().clone()), d);
                Stmt::Label { name, stmt }
            }
            ast::Stmt::CaseStmt(c) => {
                let value = self.expr_opt(c.value().map(|v| v.syntax().clone()), n, d);
                let stmt = self.stmt_opt(c.stmt().map(|s| s.syntax().clone()), d);
                Stmt::Case { value, stmt }
            }
            ast::Stmt::DefaultStmt(c) => Stmt::Default(self.stmt_opt(c.stmt().map(|s| s.syntax().clone()), d)),
            ast::Stmt::TryBlock(t) => {
                let body = self.stmt_opt(t.compound().map(|c| c.syntax().clone()), d);
                let handlers = t.handlers().map(|h| self.handler(h.syntax())).collect();
                Stmt::Try { body, handlers }
            }
            ast::Stmt::AsmStmt(a) => {
                let mut es = Vec::new();
                for l in a.operand_lists() {
                    for o in l.operands() {
                        if let Some(e) = o.expr() {
                            es.push(self.expr_node(e.syntax(), d));
                        }
                    }
                }
                Stmt::Asm(es)
            }
            ast::Stmt::LabelDecl(_) => Stmt::Null,
        };
        self.alloc_stmt(s)
    }

    fn for_init(&mut self, n: &SyntaxNode, d: u32) -> StmtId {
        // FOR_INIT: a declaration or an expression statement.
        if let Some(decl) = n.children().find(|c| ast::Decl::can_cast(c.kind())) {
            let s = self.decl_stmt(&decl, d);
            return self.alloc_stmt(s);
        }
        match n.children().find(|c| su::is_expr(c.kind())) {
            Some(e) => {
                let e = self.expr_node(&e, d);
                self.alloc_stmt(Stmt::Expr(e))
            }
            None => self.alloc_stmt(Stmt::Null),
        }
    }

    fn cond(&mut self, n: Option<SyntaxNode>, d: u32) -> Cond {
        let Some(n) = n else {
            let e = self.alloc_expr(Expr::Missing("no condition".into()), TextRange::empty(0.into()));
            return Cond::Expr(e);
        };
        if let Some(decl) = su::child(&n, K::SIMPLE_DECL)
            && let Stmt::Decl(ls) = self.decl_stmt(&decl, d)
            && let Some(&l) = ls.first()
        {
            return Cond::Decl(l);
        }
        let e = match n.children().find(|c| su::is_expr(c.kind())) {
            Some(e) => self.expr_node(&e, d),
            None => self.missing(&n),
        };
        Cond::Expr(e)
    }

    /// The `decltype` operands of a block-scope alias or typedef, and of a
    /// variable declaration's specifiers (`decltype(__iter_comp_val(
    /// std::move(__comp))) __cmp(…);`), lowered as (unevaluated)
    /// expressions of the body. A variable's initializer is left out: its
    /// lambdas and requires-expressions are not the declared type.
    fn alias_decltypes(&mut self, decl: &SyntaxNode, d: u32) {
        let mut scope = decl.clone();
        if decl.kind() == K::SIMPLE_DECL {
            let Some(specs) = su::child(decl, K::DECL_SPECIFIERS) else { return };
            if !su::spec_keywords(&specs).contains(&K::TYPEDEF_KW) {
                scope = specs;
            }
        }
        let specs: Vec<SyntaxNode> = scope.descendants().filter(|n| n.kind() == K::DECLTYPE_SPECIFIER).collect();
        for n in specs {
            self.decltype_operand(&n, d);
        }
    }

    /// Lowers the operand of the `decltype` specifier `n` into
    /// `alias_decltypes` (once per text): its key, the text the item tree's
    /// `TypeRef::Opaque` holds (`__decltype` spelled `decltype`).
    fn decltype_operand(&mut self, n: &SyntaxNode, d: u32) -> Option<String> {
        let operand = n.children().next()?;
        let TypeRef::Opaque(text) = item_tree::decltype_ref(n) else { return None };
        if !self.body.alias_decltypes.iter().any(|(t, _)| *t == text) {
            let e = self.expr_node(&operand, d + 1);
            self.body.alias_decltypes.push((text.clone(), e));
        }
        Some(text)
    }

    /// The `decltype` specifiers in the types an expression writes (its
    /// own, not those of a lambda's body or inside another `decltype`),
    /// recorded for expression `e` (`expr_decltypes`).
    fn expr_decltypes(&mut self, n: &SyntaxNode, e: ExprId, d: u32) {
        let mut walk = n.preorder();
        let mut found = Vec::new();
        while let Some(ev) = walk.next() {
            let rowan::WalkEvent::Enter(c) = ev else { continue };
            match c.kind() {
                K::LAMBDA_EXPR | K::REQUIRES_EXPR => walk.skip_subtree(),
                K::DECLTYPE_SPECIFIER => {
                    found.push(c);
                    walk.skip_subtree();
                }
                _ => {}
            }
        }
        for c in found {
            if let Some(text) = self.decltype_operand(&c, d)
                && !self.body.expr_decltypes.iter().any(|(x, t)| *x == e && *t == text)
            {
                self.body.expr_decltypes.push((e, text));
            }
        }
    }

    /// A declaration in a statement: its variables.
    fn decl_stmt(&mut self, decl: &SyntaxNode, d: u32) -> Stmt {
        if decl.kind() == K::NAMESPACE_ALIAS {
            let name = decl.children().find(|c| c.kind() == K::NAME).and_then(|n| su::name_text(&n));
            let target = decl.children().find(|c| c.kind() == K::QUALIFIED_NAME || c.kind() == K::NAME_REF);
            return match (name, target.and_then(|t| su::path_of(&t))) {
                (Some(n), Some(p)) => Stmt::NamespaceAlias(n, p),
                _ => Stmt::Other("namespace alias".into()),
            };
        }
        if decl.kind() == K::ALIAS_DECL || decl.kind() == K::SIMPLE_DECL {
            self.alias_decltypes(decl, d);
        }
        if decl.kind() == K::ALIAS_DECL {
            let name = decl.children().find(|c| c.kind() == K::NAME).and_then(|n| su::name_text(&n));
            let ty = su::child(decl, K::TYPE_ID).map(|t| item_tree::type_id_ref(&t));
            return match (name, ty) {
                (Some(n), Some(t)) => {
                    self.body.local_types.push((n.clone(), t.clone()));
                    Stmt::Alias(vec![(n, t)])
                }
                _ => Stmt::Other("alias".into()),
            };
        }
        if decl.kind() == K::STATIC_ASSERT_DECL {
            let cond = decl.children().find(|c| su::is_expr(c.kind()));
            return Stmt::StaticAssert(self.expr_opt(cond, decl, d));
        }
        if decl.kind() != K::SIMPLE_DECL {
            return Stmt::Other(format!("{:?}", decl.kind()));
        }
        let specs = su::child(decl, K::DECL_SPECIFIERS);
        let kws = specs.as_ref().map(su::spec_keywords).unwrap_or_default();
        if kws.contains(&K::TYPEDEF_KW) && !kws.contains(&K::FRIEND_KW) {
            let mut out = Vec::new();
            for init in su::init_declarators(decl) {
                let decl_node =
                    if init.kind() == K::DECLARATOR { Some(init.clone()) } else { su::child(&init, K::DECLARATOR) };
                if let Some(name) = decl_node.as_ref().and_then(su::declarator_name) {
                    out.push((name, item_tree::declared_type(specs.as_ref(), decl_node.as_ref())));
                }
            }
            // The interpreter binds the body's types by name, without scopes.
            self.body.local_types.extend(out.iter().cloned());
            return if out.is_empty() { Stmt::Other("typedef".into()) } else { Stmt::Alias(out) };
        }
        if kws.contains(&K::TYPEDEF_KW) || kws.contains(&K::FRIEND_KW) {
            return Stmt::Other("typedef".into());
        }
        let is_static = kws.contains(&K::STATIC_KW);
        let is_extern = kws.contains(&K::EXTERN_KW);
        let is_thread_local = kws.contains(&K::THREAD_LOCAL_KW)
            || specs.as_ref().is_some_and(|s| su::tokens(s).any(|t| t.text() == "__thread"));
        let is_constexpr = kws.contains(&K::CONSTEXPR_KW);
        let mut out = Vec::new();
        for init in su::init_declarators(decl) {
            let decl_node =
                if init.kind() == K::DECLARATOR { Some(init.clone()) } else { su::child(&init, K::DECLARATOR) };
            if is_extern || decl_node.as_ref().is_some_and(su::is_function_declarator) {
                // A block-scope function or extern declaration: no local object.
                continue;
            }
            let ty = item_tree::declared_type(specs.as_ref(), decl_node.as_ref());
            let init_v = self.initializer(&init, d);
            let binding =
                decl_node.as_ref().and_then(|dn| dn.descendants().find(|c| c.kind() == K::STRUCTURED_BINDING));
            match binding {
                Some(b) => {
                    let hidden = self.alloc_local(Local {
                        name: None,
                        ty,
                        init: init_v,
                        is_static,
                        is_thread_local,
                        is_constexpr,
                        pack: false,
                        binding_of: None,
                        default: None,
                        cuda: cufront_cuda::CudaAttrs::default(),
                    });
                    out.push(hidden);
                    for (i, nm) in b.children().filter(|c| c.kind() == K::NAME).enumerate() {
                        let l = self.alloc_local(Local {
                            name: su::name_text(&nm),
                            ty: TypeRef::Opaque("auto".into()),
                            init: Init::None,
                            is_static,
                            is_thread_local,
                            is_constexpr: false,
                            pack: false,
                            binding_of: Some((hidden, i as u32)),
                            default: None,
                            cuda: cufront_cuda::CudaAttrs::default(),
                        });
                        out.push(l);
                    }
                }
                None => {
                    let name = decl_node.as_ref().and_then(su::declarator_name);
                    let l = self.alloc_local(Local {
                        name,
                        ty,
                        init: init_v,
                        is_static,
                        is_thread_local,
                        is_constexpr,
                        pack: false,
                        binding_of: None,
                        default: None,
                        cuda: decl_node
                            .as_ref()
                            .map(|dn| cufront_cuda::attrs::of_declarator(specs.as_ref(), dn))
                            .unwrap_or_default(),
                    });
                    let name_node = decl_node.as_ref().and_then(|dn| {
                        su::innermost(dn).children().find(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME))
                    });
                    self.body.local_names[l.0 as usize] = name_node.map(|n| n.text_range() + self.base);
                    out.push(l);
                }
            }
        }
        if out.is_empty() {
            return Stmt::Other("declaration".into());
        }
        Stmt::Decl(out)
    }

    fn initializer(&mut self, init: &SyntaxNode, d: u32) -> Init {
        if let Some(eq) = su::child(init, K::EQUAL_INITIALIZER) {
            return match eq.children().find(|c| su::is_expr(c.kind())) {
                Some(e) => Init::Assign(self.expr_node(&e, d)),
                None => Init::None,
            };
        }
        if let Some(i) = su::child(init, K::INITIALIZER) {
            if let Some(a) = su::child(&i, K::ARG_LIST) {
                return Init::Paren(self.args_d(&a, d));
            }
            if let Some(l) = su::child(&i, K::INIT_LIST) {
                return Init::Brace(self.args_d(&l, d));
            }
            if let Some(e) = i.children().find(|c| su::is_expr(c.kind())) {
                return Init::Assign(self.expr_node(&e, d));
            }
        }
        if let Some(l) = su::child(init, K::INIT_LIST) {
            return Init::Brace(self.args_d(&l, d));
        }
        Init::None
    }

    fn args(&mut self, list: &SyntaxNode) -> Vec<ExprId> {
        self.args_d(list, 0)
    }

    fn args_d(&mut self, list: &SyntaxNode, d: u32) -> Vec<ExprId> {
        list.children().filter(|c| su::is_expr(c.kind())).map(|c| self.expr_node(&c, d + 1)).collect()
    }

    fn expr_opt(&mut self, n: Option<SyntaxNode>, parent: &SyntaxNode, d: u32) -> ExprId {
        match n {
            Some(n) => self.expr_node(&n, d),
            None => self.alloc_expr(Expr::Missing(String::new()), TextRange::empty(parent.text_range().end())),
        }
    }

    fn sub(&mut self, n: Option<ast::Expr>, parent: &SyntaxNode, d: u32) -> ExprId {
        self.expr_opt(n.map(|e| e.syntax().clone()), parent, d)
    }

    fn expr_node(&mut self, n: &SyntaxNode, depth: u32) -> ExprId {
        let e = self.expr_node_inner(n, depth);
        // Expressions that write a type: its `decltype`s name the body's
        // locals, typed by the body's inference (`expr_decltypes`).
        if depth <= MAX_DEPTH
            && matches!(
                n.kind(),
                K::ID_EXPR
                    | K::FUNCTIONAL_CAST_EXPR
                    | K::CAST_EXPR
                    | K::CXX_CAST_EXPR
                    | K::SIZEOF_EXPR
                    | K::ALIGNOF_EXPR
                    | K::NEW_EXPR
            )
            && n.descendants().any(|c| c.kind() == K::DECLTYPE_SPECIFIER)
        {
            self.expr_decltypes(n, e, depth + 1);
        }
        e
    }

    fn expr_node_inner(&mut self, n: &SyntaxNode, depth: u32) -> ExprId {
        if depth > MAX_DEPTH {
            return self.missing(n);
        }
        let d = depth + 1;
        let Some(e) = ast::Expr::cast(n.clone()) else { return self.missing(n) };
        let range = n.text_range();
        let expr = match e {
            ast::Expr::Literal(l) => match l.token().and_then(|t| literal(&t)) {
                Some(lit) => Expr::Literal(lit),
                None => return self.missing(n),
            },
            ast::Expr::StringLiteral(s) => {
                let mut len = 0u32;
                let mut elem = Builtin::Char;
                for p in s.pieces() {
                    let (e, l) = string_piece(p.text());
                    if e != Builtin::Char {
                        elem = e;
                    }
                    len += l;
                }
                Expr::Literal(Literal::String(elem, len + 1))
            }
            ast::Expr::IdExpr(_) => match su::path_of(n) {
                Some(p) => Expr::Path(p),
                None => return self.missing(n),
            },
            ast::Expr::ThisExpr(_) => Expr::This,
            ast::Expr::ParenExpr(p) => {
                // Parentheses are transparent (decltype((x)) is the only place they matter).
                return self.sub(p.expr(), n, d);
            }
            ast::Expr::BinExpr(b) => {
                let op = match b.op_kind() {
                    Some(k) => match bin_op(k) {
                        Some(o) => o,
                        None => return self.missing(n),
                    },
                    None => return self.missing(n),
                };
                let lhs = self.sub(b.lhs(), n, d);
                let rhs = self.sub(b.rhs(), n, d);
                Expr::Binary { op, lhs, rhs }
            }
            ast::Expr::PrefixExpr(p) => {
                let op = match p.op_kind() {
                    Some(K::MINUS) => UnaryOp::Neg,
                    Some(K::PLUS) => UnaryOp::Plus,
                    Some(K::BANG) => UnaryOp::Not,
                    Some(K::TILDE) => UnaryOp::BitNot,
                    Some(K::STAR) => UnaryOp::Deref,
                    Some(K::AMP) => UnaryOp::AddrOf,
                    Some(K::PLUS2) => UnaryOp::PreInc,
                    Some(K::MINUS2) => UnaryOp::PreDec,
                    // `__extension__ e` is `e`.
                    Some(K::EXTENSION_KW) => return self.sub(p.operand(), n, d),
                    _ => UnaryOp::Other,
                };
                let expr = self.sub(p.operand(), n, d);
                Expr::Unary { op, expr }
            }
            ast::Expr::PostfixExpr(p) => {
                let op = match p
                    .syntax()
                    .children_with_tokens()
                    .filter_map(|t| t.into_token())
                    .find(|t| matches!(t.kind(), K::PLUS2 | K::MINUS2))
                    .map(|t| t.kind())
                {
                    Some(K::PLUS2) => UnaryOp::PostInc,
                    Some(K::MINUS2) => UnaryOp::PostDec,
                    _ => UnaryOp::Other,
                };
                let expr = self.sub(p.operand(), n, d);
                Expr::Unary { op, expr }
            }
            ast::Expr::AssignExpr(a) => {
                let op = match a.op_kind() {
                    Some(K::EQ) => None,
                    Some(K::PLUSEQ) => Some(BinaryOp::Add),
                    Some(K::MINUSEQ) => Some(BinaryOp::Sub),
                    Some(K::STAREQ) => Some(BinaryOp::Mul),
                    Some(K::SLASHEQ) => Some(BinaryOp::Div),
                    Some(K::PERCENTEQ) => Some(BinaryOp::Rem),
                    Some(K::SHLEQ) => Some(BinaryOp::Shl),
                    Some(K::SHREQ) => Some(BinaryOp::Shr),
                    Some(K::AMPEQ) => Some(BinaryOp::BitAnd),
                    Some(K::PIPEEQ) => Some(BinaryOp::BitOr),
                    Some(K::CARETEQ) => Some(BinaryOp::BitXor),
                    _ => None,
                };
                let lhs = self.sub(a.lhs(), n, d);
                let rhs = self.sub(a.rhs(), n, d);
                Expr::Assign { op, lhs, rhs }
            }
            ast::Expr::ConditionalExpr(c) => {
                let cond = self.sub(c.condition(), n, d);
                let exprs: Vec<ast::Expr> = c.syntax().children().filter_map(ast::Expr::cast).collect();
                // GNU `a ?: b`: two operands.
                let (then, els) = if exprs.len() == 2 {
                    (cond, self.sub(exprs.get(1).cloned(), n, d))
                } else {
                    (self.sub(c.then_expr(), n, d), self.sub(c.else_expr(), n, d))
                };
                Expr::Cond { cond, then, els }
            }
            ast::Expr::CommaExpr(c) => {
                let lhs = self.sub(c.lhs(), n, d);
                let rhs = self.sub(c.rhs(), n, d);
                Expr::Comma { lhs, rhs }
            }
            ast::Expr::CallExpr(c) => {
                let callee = self.sub(c.callee(), n, d);
                let args = c.arg_list().map(|a| self.args_d(a.syntax(), d)).unwrap_or_default();
                Expr::Call { callee, args }
            }
            ast::Expr::KernelLaunch(k) => {
                let callee = self.sub(k.callee(), n, d);
                let config = k.config().map(|c| self.args_d(c.syntax(), d)).unwrap_or_default();
                let args = k.arg_list().map(|a| self.args_d(a.syntax(), d)).unwrap_or_default();
                Expr::KernelLaunch { callee, config, args }
            }
            ast::Expr::IndexExpr(i) => {
                let base = self.sub(i.base(), n, d);
                let index = self.sub(i.index(), n, d);
                Expr::Index { base, index }
            }
            ast::Expr::MemberExpr(m) => {
                let base = self.sub(m.base(), n, d);
                let arrow = m.syntax().children_with_tokens().any(|t| t.kind() == K::ARROW);
                // The member name: everything after the `.`/`->` token.
                let mut name = Path::default();
                let mut after = false;
                let mut tilde = false;
                for el in m.syntax().children_with_tokens() {
                    match el {
                        rowan::NodeOrToken::Token(t) if matches!(t.kind(), K::DOT | K::ARROW) => after = true,
                        rowan::NodeOrToken::Token(t) if after && t.kind() == K::TILDE => tilde = true,
                        rowan::NodeOrToken::Node(c) if after => {
                            tilde |= c.text().to_string().trim_start().starts_with('~');
                            if let Some(p) = su::path_of(&c).or_else(|| Some(Path::single(&c.text().to_string()))) {
                                name.segments.extend(p.segments);
                                name.global |= p.global;
                            }
                        }
                        rowan::NodeOrToken::Token(t) if after && t.kind() == K::IDENT => {
                            name.segments.push(item_tree::PathSegment { name: t.text().to_string(), args: None })
                        }
                        _ => {}
                    }
                }
                // `x.~T()`: the destructor's name keeps its `~` (a tilde token before the name).
                if tilde
                    && let Some(l) = name.segments.last_mut()
                    && !l.name.starts_with('~')
                {
                    l.name.insert(0, '~');
                }
                Expr::Member { base, arrow, name }
            }
            ast::Expr::CastExpr(c) => {
                let ty =
                    c.type_id().map(|t| item_tree::type_id_ref(t.syntax())).unwrap_or(TypeRef::Opaque(String::new()));
                let expr = self.sub(c.expr(), n, d);
                Expr::Cast { kind: CastKind::CStyle, ty, expr }
            }
            ast::Expr::CxxCastExpr(c) => {
                let kind = match c.syntax().first_token().map(|t| t.kind()) {
                    Some(K::STATIC_CAST_KW) => CastKind::Static,
                    Some(K::CONST_CAST_KW) => CastKind::Const,
                    Some(K::REINTERPRET_CAST_KW) => CastKind::Reinterpret,
                    Some(K::DYNAMIC_CAST_KW) => CastKind::Dynamic,
                    _ => CastKind::Static,
                };
                let ty =
                    c.type_id().map(|t| item_tree::type_id_ref(t.syntax())).unwrap_or(TypeRef::Opaque(String::new()));
                let expr = self.sub(c.expr(), n, d);
                Expr::Cast { kind, ty, expr }
            }
            ast::Expr::FunctionalCastExpr(f) => {
                let ty =
                    f.type_id().map(|t| item_tree::type_id_ref(t.syntax())).unwrap_or(TypeRef::Opaque(String::new()));
                let (args, braced) = match (f.args(), f.init_list()) {
                    (Some(a), _) => (self.args_d(a.syntax(), d), false),
                    (None, Some(l)) => (self.args_d(l.syntax(), d), true),
                    _ => (Vec::new(), false),
                };
                Expr::Construct { ty, args, braced }
            }
            ast::Expr::SizeofExpr(s) => match (s.type_id(), s.expr()) {
                (Some(t), _) => Expr::SizeofType(item_tree::type_id_ref(t.syntax())),
                (None, Some(e)) => Expr::SizeofExpr(self.expr_node(e.syntax(), d)),
                _ => return self.missing(n),
            },
            ast::Expr::AlignofExpr(s) => match (s.type_id(), s.expr()) {
                (Some(t), _) => Expr::AlignofType(item_tree::type_id_ref(t.syntax())),
                (None, Some(e)) => Expr::AlignofExpr(self.expr_node(e.syntax(), d)),
                _ => return self.missing(n),
            },
            ast::Expr::TypeidExpr(s) => match (s.type_id(), s.expr()) {
                (Some(t), _) => Expr::TypeidType(item_tree::type_id_ref(t.syntax())),
                (None, Some(e)) => Expr::TypeidExpr(self.expr_node(e.syntax(), d)),
                _ => return self.missing(n),
            },
            ast::Expr::NoexceptExpr(x) => Expr::Noexcept(self.sub(x.expr(), n, d)),
            ast::Expr::NewExpr(x) => {
                // The placement node holds an ARG_LIST (`new_expr` in the grammar).
                let placement = x
                    .placement()
                    .map(|p| {
                        let l = p
                            .syntax()
                            .children()
                            .find(|c| c.kind() == K::ARG_LIST)
                            .unwrap_or_else(|| p.syntax().clone());
                        self.args_d(&l, d)
                    })
                    .unwrap_or_default();
                let ty =
                    x.type_id().map(|t| item_tree::type_id_ref(t.syntax())).unwrap_or(TypeRef::Opaque(String::new()));
                let array = matches!(ty, TypeRef::Array(..));
                let (args, braced) = match x.initializer() {
                    Some(i) => {
                        let inner = i.syntax().children().find(|c| matches!(c.kind(), K::ARG_LIST | K::INIT_LIST));
                        let braced = inner.as_ref().is_some_and(|c| c.kind() == K::INIT_LIST);
                        let list = inner.unwrap_or_else(|| i.syntax().clone());
                        (Some(self.args_d(&list, d)), braced)
                    }
                    None => (None, false),
                };
                Expr::New { placement, ty, args, braced, array }
            }
            ast::Expr::DeleteExpr(x) => {
                let array = x.syntax().children_with_tokens().any(|t| t.kind() == K::L_BRACK);
                Expr::Delete { expr: self.sub(x.operand(), n, d), array }
            }
            ast::Expr::ThrowExpr(t) => Expr::Throw(t.operand().map(|o| self.expr_node(o.syntax(), d))),
            ast::Expr::LambdaExpr(l) => {
                let (e, marks) = self.lambda(&l, d);
                let id = self.alloc_expr(e, range);
                self.body.lambda_marks.push(LambdaMarks { expr: id, ..marks });
                return id;
            }
            ast::Expr::FoldExpr(f) => {
                let op =
                    f.syntax().children_with_tokens().filter_map(|t| t.into_token()).find_map(|t| bin_op(t.kind()));
                let exprs: Vec<SyntaxNode> = f.syntax().children().filter(|c| su::is_expr(c.kind())).collect();
                let dots = f.syntax().children_with_tokens().position(|t| t.kind() == K::DOT3);
                let first_expr = f.syntax().children_with_tokens().position(|t| su::is_expr(t.kind()));
                let (lhs, rhs) = match exprs.len() {
                    2 => (Some(self.expr_node(&exprs[0], d)), Some(self.expr_node(&exprs[1], d))),
                    1 if dots < first_expr => (None, Some(self.expr_node(&exprs[0], d))),
                    1 => (Some(self.expr_node(&exprs[0], d)), None),
                    _ => (None, None),
                };
                Expr::Fold { op, lhs, rhs }
            }
            ast::Expr::RequiresExpr(_) => self.requires_expr(n, d),
            ast::Expr::StmtExpr(s) => match s.compound() {
                Some(c) => Expr::StmtExpr(self.stmt(c.syntax(), d)),
                None => return self.missing(n),
            },
            ast::Expr::InitList(l) => Expr::InitList(self.args_d(l.syntax(), d)),
            ast::Expr::DesignatedInit(x) => {
                // The value is the last expression: an array designator's
                // index (`[2] = v`) is one too.
                let value = self.sub(x.syntax().children().filter_map(ast::Expr::cast).last(), n, d);
                Expr::Designated { designator: designator(x.syntax()), value }
            }
            ast::Expr::BuiltinCallExpr(b) => {
                let name = b.syntax().first_token().map(|t| t.text().to_string()).unwrap_or_default();
                let tys = b.type_ids().map(|t| item_tree::type_id_ref(t.syntax())).collect();
                let args = b.args().map(|a| self.expr_node(a.syntax(), d)).collect();
                Expr::Builtin { name, tys, args }
            }
            ast::Expr::TypeTraitExpr(b) => {
                let name = b.syntax().first_token().map(|t| t.text().to_string()).unwrap_or_default();
                let tys = b.type_ids().map(|t| item_tree::type_id_ref(t.syntax())).collect();
                Expr::Builtin { name, tys, args: Vec::new() }
            }
            ast::Expr::PackExpansion(p) => Expr::PackExpansion(self.sub(p.pattern(), n, d)),
            ast::Expr::SizeofPackExpr(s) => Expr::SizeofPack(s.name_ref().and_then(|r| r.text()).unwrap_or_default()),
            ast::Expr::CoAwaitExpr(c) => Expr::Unary { op: UnaryOp::Other, expr: self.sub(c.operand(), n, d) },
            ast::Expr::CoYieldExpr(c) => Expr::Unary { op: UnaryOp::Other, expr: self.sub(c.operand(), n, d) },
            ast::Expr::GenericSelection(_) => return self.missing(n),
        };
        self.alloc_expr(expr, range)
    }

    fn requires_expr(&mut self, n: &SyntaxNode, d: u32) -> Expr {
        let params = match su::child(n, K::PARAM_LIST) {
            Some(pl) => pl.children().filter(|p| p.kind() == K::PARAM).map(|p| self.param(&p)).collect(),
            None => Vec::new(),
        };
        let mut reqs = Vec::new();
        for r in n.children().filter(|c| c.kind() == K::REQUIREMENT) {
            let first = r.children_with_tokens().find(|t| !t.kind().is_trivia()).map(|t| t.kind());
            let expr = r.children().find(|c| su::is_expr(c.kind()));
            let req = match first {
                Some(K::TYPENAME_KW) => {
                    let Some(p) = r.children().find_map(|c| su::path_of(&c)) else { continue };
                    Requirement::Type(TypeRef::Path(p))
                }
                Some(K::L_CURLY) => {
                    let Some(e) = expr else { continue };
                    let constraint = r
                        .children_with_tokens()
                        .skip_while(|t| t.kind() != K::ARROW)
                        .filter_map(|t| t.into_node())
                        .find_map(|c| su::path_of(&c));
                    Requirement::Compound { expr: self.expr_node(&e, d), constraint }
                }
                Some(K::REQUIRES_KW) => {
                    let Some(e) = expr else { continue };
                    Requirement::Nested(self.expr_node(&e, d))
                }
                _ => {
                    let Some(e) = expr else { continue };
                    Requirement::Simple(self.expr_node(&e, d))
                }
            };
            reqs.push(req);
        }
        Expr::Requires { params, reqs }
    }

    fn lambda(&mut self, l: &ast::LambdaExpr, d: u32) -> (Expr, LambdaMarks) {
        let mut captures = Vec::new();
        let at = |n: &SyntaxNode| su::tokens(n).next().map_or(n.text_range().start(), |t| t.text_range().start());
        let mut marks = LambdaMarks {
            expr: ExprId(0),
            start: at(l.syntax()) + self.base,
            head: at(l.syntax()) + self.base,
            body: None,
            captures: Vec::new(),
        };
        if let Some(intro) = l.introducer() {
            for c in intro.captures() {
                let name_at =
                    c.syntax().children().find(|n| n.kind() == K::NAME).map_or_else(|| at(c.syntax()), |n| at(&n));
                let toks: Vec<K> = su::tokens(c.syntax()).map(|t| t.kind()).collect();
                let name = c.name().and_then(|n| n.text());
                let init = c.initializer().map(|e| self.expr_node(e.syntax(), d));
                let by_ref = toks.first() == Some(&K::AMP);
                let local = match (&name, init) {
                    (Some(n), Some(e)) => {
                        let auto = TypeRef::Opaque("auto".into());
                        let ty = if by_ref { TypeRef::LRef(Box::new(auto)) } else { auto };
                        Some(self.alloc_local(Local::plain(Some(n.clone()), ty, Init::Assign(e))))
                    }
                    _ => None,
                };
                let c = match (name, toks.as_slice()) {
                    (Some(name), _) => Capture::Var { name, by_ref, init, local },
                    (None, [K::AMP]) => Capture::Default { by_ref: true },
                    (None, [K::EQ]) => Capture::Default { by_ref: false },
                    (None, [K::THIS_KW]) => Capture::This { by_copy: false },
                    (None, [K::STAR, K::THIS_KW]) => Capture::This { by_copy: true },
                    (None, _) => {
                        // `x` as a bare identifier token.
                        match su::tokens(c.syntax()).find(|t| t.kind() == K::IDENT) {
                            Some(t) => Capture::Var { name: t.text().to_string(), by_ref, init, local: None },
                            None => continue,
                        }
                    }
                };
                captures.push(c);
                marks.captures.push(name_at + self.base);
            }
        }
        let mut params = Vec::new();
        let mut ret = None;
        let mut mutable = false;
        let mut variadic = false;
        if let Some(decl) = l.declarator() {
            if let Some(pl) = decl.params() {
                for p in pl.params() {
                    params.push(self.param(p.syntax()));
                }
                // A `...` token directly in the list (not in a parameter: `auto... xs`).
                variadic = pl.syntax().children_with_tokens().any(|t| t.kind() == K::DOT3);
            }
            ret = decl.trailing_return_type().and_then(|t| t.type_id()).map(|t| item_tree::type_id_ref(t.syntax()));
            mutable = decl.syntax().children_with_tokens().any(|t| t.kind() == K::MUTABLE_KW);
            marks.head = at(decl.syntax()) + self.base;
        }
        let (mut constexpr, mut consteval) = (false, false);
        for t in
            l.syntax().children().filter(|c| c.kind() == K::LAMBDA_DECLARATOR).flat_map(|d| d.children_with_tokens())
        {
            constexpr |= t.kind() == K::CONSTEXPR_KW;
            consteval |= t.kind() == K::CONSTEVAL_KW;
        }
        let tparams = l.syntax().children().any(|c| c.kind() == K::TEMPLATE_PARAM_LIST);
        let noexcept = match l
            .syntax()
            .children()
            .filter(|c| c.kind() == K::LAMBDA_DECLARATOR)
            .flat_map(|d| d.children())
            .find(|c| c.kind() == K::NOEXCEPT_SPEC)
        {
            None => Some(false),
            Some(spec) => (spec.children().next().is_none()
                && spec.children_with_tokens().filter(|t| !t.kind().is_trivia()).count() == 1)
                .then_some(true),
        };
        if let Some(b) = l.body() {
            marks.body = Some(at(b.syntax()) + self.base);
            if l.declarator().is_none() {
                marks.head = at(b.syntax()) + self.base;
            }
        }
        let body = l.body().map(|b| self.stmt(b.syntax(), d));
        let cuda = cufront_cuda::attrs::of_lambda(l.syntax());
        let (host, device) = (cuda.host, cuda.device);
        (
            Expr::Lambda {
                captures,
                params,
                variadic,
                ret,
                body,
                mutable,
                host,
                device,
                constexpr,
                consteval,
                tparams,
                noexcept,
            },
            marks,
        )
    }
}

fn bin_op(k: K) -> Option<BinaryOp> {
    Some(match k {
        K::PLUS => BinaryOp::Add,
        K::MINUS => BinaryOp::Sub,
        K::STAR => BinaryOp::Mul,
        K::SLASH => BinaryOp::Div,
        K::PERCENT => BinaryOp::Rem,
        K::SHL => BinaryOp::Shl,
        K::SHR => BinaryOp::Shr,
        K::AMP => BinaryOp::BitAnd,
        K::PIPE => BinaryOp::BitOr,
        K::CARET => BinaryOp::BitXor,
        K::AMP2 => BinaryOp::And,
        K::PIPE2 => BinaryOp::Or,
        K::EQ2 => BinaryOp::Eq,
        K::NEQ => BinaryOp::Ne,
        K::L_ANGLE => BinaryOp::Lt,
        K::LTEQ => BinaryOp::Le,
        K::R_ANGLE => BinaryOp::Gt,
        K::GTEQ => BinaryOp::Ge,
        K::SPACESHIP => BinaryOp::Spaceship,
        K::DOT_STAR => BinaryOp::PtrMem,
        K::ARROW_STAR => BinaryOp::PtrMemArrow,
        _ => return None,
    })
}

fn literal(t: &cufront_syntax::SyntaxToken) -> Option<Literal> {
    Some(match t.kind() {
        K::NULLPTR_KW => Literal::Nullptr,
        K::FLOAT_NUMBER => {
            let s = t.text().to_ascii_lowercase();
            let b = if s.ends_with("f16") {
                Builtin::Float16
            } else if s.ends_with("bf16") {
                Builtin::BF16
            } else if s.ends_with('f') && !s.starts_with("0x")
                || s.starts_with("0x") && s.ends_with('f') && s.contains('p')
            {
                Builtin::Float
            } else if s.ends_with('l') {
                Builtin::LongDouble
            } else if s.ends_with('q') || s.ends_with('w') {
                Builtin::Float128
            } else {
                Builtin::Double
            };
            Literal::Float(b)
        }
        K::STRING => {
            let (e, l) = string_piece(t.text());
            Literal::String(e, l + 1)
        }
        _ => match su::literal(t)? {
            ConstExpr::Int(v, b) => Literal::Int(v, b),
            _ => return None,
        },
    })
}

/// The element type and length (without terminator) of one string literal token.
fn string_piece(text: &str) -> (Builtin, u32) {
    let (elem, rest) = if let Some(r) = text.strip_prefix("u8") {
        (Builtin::Char, r)
    } else if let Some(r) = text.strip_prefix('u') {
        (Builtin::Char16, r)
    } else if let Some(r) = text.strip_prefix('U') {
        (Builtin::Char32, r)
    } else if let Some(r) = text.strip_prefix('L') {
        (Builtin::WChar, r)
    } else {
        (Builtin::Char, text)
    };
    let raw = rest.starts_with('R');
    let inner = rest.trim_start_matches('R');
    let inner = inner.strip_prefix('"').and_then(|s| s.rfind('"').map(|i| &s[..i])).unwrap_or("");
    if raw {
        // R"delim( … )delim"
        let open = inner.find('(').map_or(0, |i| i + 1);
        let close = inner.rfind(')').unwrap_or(inner.len());
        return (elem, inner.get(open..close).map_or(0, |s| s.chars().count() as u32));
    }
    let mut n = 0u32;
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('x') => {
                    while chars.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                        chars.next();
                    }
                }
                Some(c) if c.is_digit(8) => {
                    for _ in 0..2 {
                        if chars.peek().is_some_and(|c| c.is_digit(8)) {
                            chars.next();
                        }
                    }
                }
                Some('u') => {
                    for _ in 0..4 {
                        chars.next();
                    }
                }
                Some('U') => {
                    for _ in 0..8 {
                        chars.next();
                    }
                }
                _ => {}
            }
            n += 1;
        } else if elem == Builtin::Char {
            n += c.len_utf8() as u32;
        } else {
            n += if elem == Builtin::Char16 && c as u32 > 0xFFFF { 2 } else { 1 };
        }
    }
    (elem, n)
}

/// A readable dump of a body (tests, `inspect`).
pub fn render(body: &Body) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for (i, l) in body.params.iter().enumerate() {
        let _ = writeln!(out, "param {i}: {}", local_str(body, *l));
    }
    for m in &body.mem_inits {
        let args: Vec<String> = m.args.iter().map(|a| expr_str(body, *a, 0)).collect();
        let _ = writeln!(out, "init {}({})", m.name, args.join(", "));
    }
    if let Some(r) = body.root {
        stmt_str(body, r, 0, &mut out);
    }
    if let Some(e) = body.root_expr {
        let _ = writeln!(out, "{}", expr_str(body, e, 0));
    }
    out
}

fn local_str(body: &Body, l: LocalId) -> String {
    let loc = body.local(l);
    let mut s = format!("{} : {}", loc.name.as_deref().unwrap_or("_"), type_ref_str(&loc.ty));
    if loc.is_static {
        s.push_str(" static");
    }
    match &loc.init {
        Init::None => {}
        Init::Assign(e) => s.push_str(&format!(" = {}", expr_str(body, *e, 0))),
        Init::Paren(a) => {
            s.push_str(&format!("({})", a.iter().map(|e| expr_str(body, *e, 0)).collect::<Vec<_>>().join(", ")))
        }
        Init::Brace(a) => {
            s.push_str(&format!("{{{}}}", a.iter().map(|e| expr_str(body, *e, 0)).collect::<Vec<_>>().join(", ")))
        }
    }
    if let Some(d) = loc.default {
        s.push_str(&format!(" = {}", expr_str(body, d, 0)));
    }
    if let Some((h, i)) = loc.binding_of {
        s.push_str(&format!(" [binding {i} of local {}]", h.0));
    }
    s
}

/// A short spelling of a written type (tests).
pub fn type_ref_str(t: &TypeRef) -> String {
    match t {
        TypeRef::Builtin(b) => crate::ty::builtin_name(*b).to_string(),
        TypeRef::Path(p) => p.to_string(),
        TypeRef::Ptr(x) => format!("{}*", type_ref_str(x)),
        TypeRef::LRef(x) => format!("{}&", type_ref_str(x)),
        TypeRef::RRef(x) => format!("{}&&", type_ref_str(x)),
        TypeRef::Cv(x, cv) => format!("{}{}", if cv.c { "const " } else { "" }, type_ref_str(x)),
        TypeRef::Array(x, _) => format!("{}[]", type_ref_str(x)),
        TypeRef::Opaque(s) => s.clone(),
        t => format!("{t:?}"),
    }
}

fn stmt_str(body: &Body, s: StmtId, ind: usize, out: &mut String) {
    use std::fmt::Write;
    let pad = "  ".repeat(ind);
    match body.stmt(s) {
        Stmt::Compound(ss) => {
            let _ = writeln!(out, "{pad}{{");
            for x in ss {
                stmt_str(body, *x, ind + 1, out);
            }
            let _ = writeln!(out, "{pad}}}");
        }
        Stmt::Expr(e) => {
            let _ = writeln!(out, "{pad}{};", expr_str(body, *e, 0));
        }
        Stmt::Decl(ls) => {
            for l in ls {
                let _ = writeln!(out, "{pad}let {};", local_str(body, *l));
            }
        }
        Stmt::If { init, cond, then, els, constexpr } => {
            let _ = writeln!(out, "{pad}if{} ({})", if *constexpr { " constexpr" } else { "" }, cond_str(body, cond));
            if let Some(i) = init {
                stmt_str(body, *i, ind + 1, out);
            }
            stmt_str(body, *then, ind + 1, out);
            if let Some(e) = els {
                let _ = writeln!(out, "{pad}else");
                stmt_str(body, *e, ind + 1, out);
            }
        }
        Stmt::For { init, cond, step, body: b } => {
            let _ = writeln!(
                out,
                "{pad}for (; {}; {})",
                cond.as_ref().map(|c| cond_str(body, c)).unwrap_or_default(),
                step.map(|e| expr_str(body, e, 0)).unwrap_or_default()
            );
            if let Some(i) = init {
                stmt_str(body, *i, ind + 1, out);
            }
            stmt_str(body, *b, ind + 1, out);
        }
        Stmt::RangeFor { var, range, body: b, .. } => {
            let _ = writeln!(
                out,
                "{pad}for ({} : {})",
                var.map(|l| local_str(body, l)).unwrap_or_default(),
                expr_str(body, *range, 0)
            );
            stmt_str(body, *b, ind + 1, out);
        }
        Stmt::While { cond, body: b } => {
            let _ = writeln!(out, "{pad}while ({})", cond_str(body, cond));
            stmt_str(body, *b, ind + 1, out);
        }
        Stmt::Return(e) => {
            let _ = writeln!(out, "{pad}return {};", e.map(|e| expr_str(body, e, 0)).unwrap_or_default());
        }
        other => {
            let _ = writeln!(out, "{pad}{other:?}");
        }
    }
}

fn cond_str(body: &Body, c: &Cond) -> String {
    match c {
        Cond::Expr(e) => expr_str(body, *e, 0),
        Cond::Decl(l) => local_str(body, *l),
    }
}

fn expr_str(body: &Body, e: ExprId, depth: u32) -> String {
    if depth > 50 {
        return "…".into();
    }
    let d = depth + 1;
    let s = |x: ExprId| expr_str(body, x, d);
    let list = |xs: &[ExprId]| xs.iter().map(|x| expr_str(body, *x, d)).collect::<Vec<_>>().join(", ");
    match body.expr(e) {
        Expr::Missing(t) => format!("<missing {t}>"),
        Expr::Literal(Literal::Int(v, _)) => v.to_string(),
        Expr::Literal(l) => format!("{l:?}"),
        Expr::Path(p) => p.to_string(),
        Expr::This => "this".into(),
        Expr::Member { base, arrow, name } => format!("{}{}{name}", s(*base), if *arrow { "->" } else { "." }),
        Expr::Call { callee, args } => format!("{}({})", s(*callee), list(args)),
        Expr::KernelLaunch { callee, config, args } => format!("{}<<<{}>>>({})", s(*callee), list(config), list(args)),
        Expr::Construct { ty, args, braced } => {
            if *braced {
                format!("{}{{{}}}", type_ref_str(ty), list(args))
            } else {
                format!("{}({})", type_ref_str(ty), list(args))
            }
        }
        Expr::Unary { op, expr } => format!("{op:?}({})", s(*expr)),
        Expr::Binary { op, lhs, rhs } => format!("({} {op:?} {})", s(*lhs), s(*rhs)),
        Expr::Assign { op, lhs, rhs } => {
            format!("({} {}= {})", s(*lhs), op.map(|o| format!("{o:?}")).unwrap_or_default(), s(*rhs))
        }
        Expr::Cond { cond, then, els } => format!("({} ? {} : {})", s(*cond), s(*then), s(*els)),
        Expr::Comma { lhs, rhs } => format!("({}, {})", s(*lhs), s(*rhs)),
        Expr::Cast { kind, ty, expr } => format!("{kind:?}<{}>({})", type_ref_str(ty), s(*expr)),
        Expr::Index { base, index } => format!("{}[{}]", s(*base), s(*index)),
        Expr::New { ty, args, .. } => {
            format!("new {}({})", type_ref_str(ty), args.as_ref().map(|a| list(a)).unwrap_or_default())
        }
        Expr::Delete { expr, .. } => format!("delete {}", s(*expr)),
        Expr::Lambda { params, body: b, .. } => {
            let ps: Vec<String> = params.iter().map(|p| local_str(body, *p)).collect();
            let mut inner = String::new();
            if let Some(b) = b {
                stmt_str(body, *b, 0, &mut inner);
            }
            format!("[]({}) {}", ps.join(", "), inner.trim_end().replace('\n', " "))
        }
        Expr::SizeofType(t) => format!("sizeof({})", type_ref_str(t)),
        Expr::InitList(xs) => format!("{{{}}}", list(xs)),
        other => format!("{other:?}"),
    }
}
