//! The node tables: one wrapper per node kind, one enum per category.
//!
//! Accessor forms: `name: child<T>` (first child castable to `T`),
//! `name: children<T>` (all of them), `name: nth<T>(n)` (the n-th),
//! `name: token(KIND)` (first direct child token of `KIND`).

use super::{AstChildren, AstNode, support};
use crate::{SyntaxKind, SyntaxNode, SyntaxToken};

macro_rules! accessor {
    ($acc:ident : child<$ty:ident>) => {
        pub fn $acc(&self) -> Option<$ty> {
            support::child(&self.syntax)
        }
    };
    ($acc:ident : children<$ty:ident>) => {
        pub fn $acc(&self) -> AstChildren<$ty> {
            support::children(&self.syntax)
        }
    };
    ($acc:ident : nth<$ty:ident>($n:literal)) => {
        pub fn $acc(&self) -> Option<$ty> {
            support::nth(&self.syntax, $n)
        }
    };
    ($acc:ident : token($kind:ident)) => {
        pub fn $acc(&self) -> Option<SyntaxToken> {
            support::token(&self.syntax, SyntaxKind::$kind)
        }
    };
}

macro_rules! ast_nodes {
    ($(
        $(#[$meta:meta])*
        $name:ident = $kind:ident { $($acc:ident : $how:ident $(<$ty:ident>)? $(($arg:tt))?),* $(,)? }
    )*) => {$(
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name {
            pub(crate) syntax: SyntaxNode,
        }

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                kind == SyntaxKind::$kind
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                Self::can_cast(node.kind()).then(|| $name { syntax: node })
            }
            fn syntax(&self) -> &SyntaxNode {
                &self.syntax
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.syntax, f)
            }
        }

        impl $name {
            $(accessor!($acc : $how $(<$ty>)? $(($arg))?);)*
        }
    )*};
}

macro_rules! ast_enums {
    ($(
        $(#[$meta:meta])*
        $name:ident { $($variant:ident),* $(,)? }
    )*) => {$(
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant($variant),)*
        }

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                $($variant::can_cast(kind))||*
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                let kind = node.kind();
                $(if $variant::can_cast(kind) {
                    return $variant::cast(node).map($name::$variant);
                })*
                None
            }
            fn syntax(&self) -> &SyntaxNode {
                match self {
                    $($name::$variant(it) => it.syntax(),)*
                }
            }
        }

        $(impl From<$variant> for $name {
            fn from(it: $variant) -> $name {
                $name::$variant(it)
            }
        })*

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(self.syntax(), f)
            }
        }
    )*};
}

ast_nodes! {
    // ---- the file
    SourceFile = SOURCE_FILE { decls: children<Decl> }
    ErrorNode = ERROR {}

    // ---- names
    Name = NAME { ident: token(IDENT), name_ref: child<NameRef>, operator_name: child<OperatorName> }
    NameRef = NAME_REF { ident: token(IDENT) }
    QualifiedName = QUALIFIED_NAME {
        qualifier: child<NestedNameSpecifier>, name_ref: child<NameRef>, template_id: child<TemplateId>,
        destructor_name: child<DestructorName>, operator_name: child<OperatorName>,
    }
    NestedNameSpecifier = NESTED_NAME_SPECIFIER { name_refs: children<NameRef>, template_ids: children<TemplateId> }
    TemplateId = TEMPLATE_ID { name_ref: child<NameRef>, arg_list: child<TemplateArgList> }
    TemplateArgList = TEMPLATE_ARG_LIST { args: children<TemplateArg> }
    TemplateArg = TEMPLATE_ARG { type_id: child<TypeId>, expr: child<Expr> }
    OperatorName = OPERATOR_NAME { operator_token: token(OPERATOR_KW) }
    ConversionName = CONVERSION_NAME { type_id: child<TypeId> }
    DestructorName = DESTRUCTOR_NAME { name_ref: child<NameRef>, template_id: child<TemplateId> }
    LiteralOperatorName = LITERAL_OPERATOR_NAME { ident: token(IDENT) }
    DecltypeSpecifier = DECLTYPE_SPECIFIER { expr: child<Expr> }

    // ---- declarations
    NamespaceDef = NAMESPACE_DEF {
        inline_token: token(INLINE_KW), name: child<Name>, qualified_name: child<QualifiedName>,
        decls: children<Decl>,
    }
    NamespaceAlias = NAMESPACE_ALIAS { name: child<Name>, target: child<QualifiedName> }
    LinkageSpec = LINKAGE_SPEC { abi: token(STRING), decls: children<Decl> }
    UsingDirective = USING_DIRECTIVE { name_ref: child<NameRef>, qualified_name: child<QualifiedName> }
    UsingDecl = USING_DECL { name_ref: child<NameRef>, qualified_name: child<QualifiedName> }
    AliasDecl = ALIAS_DECL { name: child<Name>, type_id: child<TypeId> }
    SimpleDecl = SIMPLE_DECL {
        specifiers: child<DeclSpecifiers>, declarator_list: child<InitDeclaratorList>, semicolon: token(SEMI),
    }
    FunctionDef = FUNCTION_DEF {
        specifiers: child<DeclSpecifiers>, declarator: child<Declarator>,
        ctor_initializer: child<CtorInitializer>, body: child<Body>,
    }
    TemplateDecl = TEMPLATE_DECL { params: child<TemplateParamList>, requires_clause: child<RequiresClause>, decl: child<Decl> }
    TemplateParamList = TEMPLATE_PARAM_LIST { params: children<TemplateParam> }
    TypeTemplateParam = TYPE_TEMPLATE_PARAM { name: child<Name>, default: child<TypeId> }
    NonTypeTemplateParam = NON_TYPE_TEMPLATE_PARAM { param: child<Param> }
    TemplateTemplateParam = TEMPLATE_TEMPLATE_PARAM { params: child<TemplateParamList>, name: child<Name> }
    ExplicitInstantiation = EXPLICIT_INSTANTIATION { decl: child<Decl> }
    ExplicitSpecialization = EXPLICIT_SPECIALIZATION { decl: child<Decl> }
    DeductionGuide = DEDUCTION_GUIDE { params: child<ParamList>, target: child<TypeId> }
    ConceptDef = CONCEPT_DEF { name: child<Name>, constraint: child<Expr> }
    RequiresClause = REQUIRES_CLAUSE { constraint: child<Expr> }
    StaticAssertDecl = STATIC_ASSERT_DECL { condition: nth<Expr>(0), message: nth<Expr>(1) }
    AsmDecl = ASM_DECL { template: child<StringLiteral>, operand_lists: children<AsmOperandList> }
    EmptyDecl = EMPTY_DECL { semicolon: token(SEMI) }
    AttributeDecl = ATTRIBUTE_DECL {}
    ExportDecl = EXPORT_DECL { decls: children<Decl> }
    DeclSpecifiers = DECL_SPECIFIERS {
        type_specifiers: children<SimpleTypeSpecifier>, class_specifier: child<ClassSpecifier>,
        enum_specifier: child<EnumSpecifier>, elaborated: child<ElaboratedTypeSpecifier>,
        typename_specifier: child<TypenameSpecifier>, decltype_specifier: child<DecltypeSpecifier>,
        attributes: children<Attribute>,
    }
    StorageClass = STORAGE_CLASS {}
    FunctionSpecifier = FUNCTION_SPECIFIER {}
    CvQualifier = CV_QUALIFIER {}
    SimpleTypeSpecifier = SIMPLE_TYPE_SPECIFIER {
        name_ref: child<NameRef>, qualified_name: child<QualifiedName>, template_id: child<TemplateId>,
    }
    ElaboratedTypeSpecifier = ELABORATED_TYPE_SPECIFIER { name_ref: child<NameRef>, qualified_name: child<QualifiedName> }
    TypenameSpecifier = TYPENAME_SPECIFIER { qualified_name: child<QualifiedName> }
    TypeofSpecifier = TYPEOF_SPECIFIER { type_id: child<TypeId>, expr: child<Expr> }
    AtomicSpecifier = ATOMIC_SPECIFIER { type_id: child<TypeId> }
    InitDeclaratorList = INIT_DECLARATOR_LIST { declarators: children<InitDeclarator> }
    InitDeclarator = INIT_DECLARATOR {
        declarator: child<Declarator>, initializer: child<Initializer>,
        equal_initializer: child<EqualInitializer>, init_list: child<InitList>, bit_field: child<BitFieldWidth>,
    }
    Declarator = DECLARATOR {
        ptr_operators: children<PtrOperator>, name: child<Name>, qualified_name: child<QualifiedName>,
        paren_declarator: child<ParenDeclarator>, function_declarator: child<FunctionDeclarator>,
        array_declarators: children<ArrayDeclarator>, structured_binding: child<StructuredBinding>,
    }
    AbstractDeclarator = ABSTRACT_DECLARATOR {
        ptr_operators: children<PtrOperator>, function_declarator: child<FunctionDeclarator>,
        array_declarators: children<ArrayDeclarator>,
    }
    PtrOperator = PTR_OPERATOR {}
    ArrayDeclarator = ARRAY_DECLARATOR { size: child<Expr> }
    FunctionDeclarator = FUNCTION_DECLARATOR {
        params: child<ParamList>, trailing_return_type: child<TrailingReturnType>,
        noexcept_spec: child<NoexceptSpec>, ref_qualifier: child<RefQualifier>,
    }
    ParenDeclarator = PAREN_DECLARATOR { declarator: child<Declarator> }
    ParamList = PARAM_LIST { params: children<Param>, ellipsis: token(DOT3) }
    Param = PARAM {
        specifiers: child<DeclSpecifiers>, declarator: child<Declarator>,
        abstract_declarator: child<AbstractDeclarator>, default: child<Expr>,
    }
    TrailingReturnType = TRAILING_RETURN_TYPE { type_id: child<TypeId> }
    NoexceptSpec = NOEXCEPT_SPEC { condition: child<Expr> }
    ThrowSpec = THROW_SPEC { types: children<TypeId> }
    RefQualifier = REF_QUALIFIER {}
    VirtSpecifier = VIRT_SPECIFIER {}
    PureSpecifier = PURE_SPECIFIER {}
    DefaultedBody = DEFAULTED_BODY {}
    DeletedBody = DELETED_BODY {}
    BitFieldWidth = BIT_FIELD_WIDTH { width: child<Expr> }
    Initializer = INITIALIZER { args: child<ArgList>, init_list: child<InitList>, expr: child<Expr> }
    EqualInitializer = EQUAL_INITIALIZER { value: child<Expr> }
    CtorInitializer = CTOR_INITIALIZER { initializers: children<MemInitializer> }
    MemInitializer = MEM_INITIALIZER {
        name_ref: child<NameRef>, qualified_name: child<QualifiedName>, template_id: child<TemplateId>,
        args: child<ArgList>, init_list: child<InitList>,
    }
    StructuredBinding = STRUCTURED_BINDING { names: children<Name> }
    /// A function body parsed (its statements are in the tree).
    FunctionBody = FUNCTION_BODY { compound: child<CompoundStmt>, try_block: child<FunctionTryBlock> }
    FunctionTryBlock = FUNCTION_TRY_BLOCK {
        ctor_initializer: child<CtorInitializer>, compound: child<CompoundStmt>, handlers: children<Handler>,
    }
    /// A function body kept as tokens (`Parse::parse_body` parses it).
    LazyBody = LAZY_BODY {}
    ClassSpecifier = CLASS_SPECIFIER {
        head: child<ClassHead>, name: child<Name>, base_clause: child<BaseClause>, member_list: child<MemberList>,
    }
    ClassHead = CLASS_HEAD { name: child<Name>, base_clause: child<BaseClause> }
    BaseClause = BASE_CLAUSE { bases: children<BaseSpecifier> }
    BaseSpecifier = BASE_SPECIFIER {
        name_ref: child<NameRef>, qualified_name: child<QualifiedName>, template_id: child<TemplateId>,
        virtual_token: token(VIRTUAL_KW),
    }
    MemberList = MEMBER_LIST { members: children<Decl> }
    AccessSpecifier = ACCESS_SPECIFIER {}
    MemberDecl = MEMBER_DECL { decl: child<Decl> }
    FriendDecl = FRIEND_DECL { decl: child<Decl> }
    EnumSpecifier = ENUM_SPECIFIER { name: child<Name>, base: child<EnumBase>, enumerators: child<EnumeratorList> }
    EnumBase = ENUM_BASE { type_id: child<TypeId> }
    EnumeratorList = ENUMERATOR_LIST { enumerators: children<Enumerator> }
    Enumerator = ENUMERATOR { name: child<Name>, value: child<Expr> }
    TypeId = TYPE_ID { specifiers: child<DeclSpecifiers>, abstract_declarator: child<AbstractDeclarator> }

    // ---- attributes
    AttributeList = ATTRIBUTE_LIST { attributes: children<Attribute> }
    Attribute = ATTRIBUTE { name_ref: child<NameRef>, args: child<AttributeArgs> }
    GnuAttribute = GNU_ATTRIBUTE { attributes: children<Attribute> }
    AlignasSpecifier = ALIGNAS_SPECIFIER { type_id: child<TypeId>, expr: child<Expr> }
    AttributeArgs = ATTRIBUTE_ARGS {}
    Declspec = DECLSPEC {}

    // ---- statements
    CompoundStmt = COMPOUND_STMT { l_curly: token(L_CURLY), statements: children<Stmt>, r_curly: token(R_CURLY) }
    ExprStmt = EXPR_STMT { expr: child<Expr>, semicolon: token(SEMI) }
    DeclStmt = DECL_STMT { decl: child<Decl> }
    NullStmt = NULL_STMT { semicolon: token(SEMI) }
    IfStmt = IF_STMT {
        constexpr_token: token(CONSTEXPR_KW), consteval_token: token(CONSTEVAL_KW), init: child<ForInit>,
        condition: child<Condition>, then_branch: child<Stmt>, else_branch: child<ElseBranch>,
    }
    ElseBranch = ELSE_BRANCH { stmt: child<Stmt> }
    SwitchStmt = SWITCH_STMT { init: child<ForInit>, condition: child<Condition>, body: child<Stmt> }
    WhileStmt = WHILE_STMT { condition: child<Condition>, body: child<Stmt> }
    DoStmt = DO_STMT { body: child<Stmt>, condition: child<Expr> }
    ForStmt = FOR_STMT { init: child<ForInit>, condition: child<Condition>, step: child<Expr>, body: child<Stmt> }
    RangeForStmt = RANGE_FOR_STMT { range: child<Expr>, body: child<Stmt> }
    /// An init-statement, or the declaration of a range-for.
    ForInit = FOR_INIT { decl: child<Decl>, expr: child<Expr> }
    Condition = CONDITION { decl: child<SimpleDecl>, expr: child<Expr> }
    BreakStmt = BREAK_STMT {}
    ContinueStmt = CONTINUE_STMT {}
    ReturnStmt = RETURN_STMT { expr: child<Expr> }
    CoReturnStmt = CO_RETURN_STMT { expr: child<Expr> }
    /// `goto label;` or GNU `goto *expr;`.
    GotoStmt = GOTO_STMT { label: child<NameRef>, target: child<Expr> }
    LabeledStmt = LABELED_STMT { name: child<Name>, stmt: child<Stmt> }
    /// `case v: stmt` or GNU `case lo ... hi: stmt`.
    CaseStmt = CASE_STMT { value: nth<Expr>(0), range_end: nth<Expr>(1), stmt: child<Stmt> }
    DefaultStmt = DEFAULT_STMT { stmt: child<Stmt> }
    TryBlock = TRY_BLOCK { compound: child<CompoundStmt>, handlers: children<Handler> }
    Handler = HANDLER { exception_decl: child<ExceptionDecl>, compound: child<CompoundStmt> }
    ExceptionDecl = EXCEPTION_DECL { param: child<Param>, ellipsis: token(DOT3) }
    AsmStmt = ASM_STMT { template: child<StringLiteral>, operand_lists: children<AsmOperandList> }
    AsmOperandList = ASM_OPERAND_LIST { operands: children<AsmOperand> }
    AsmOperand = ASM_OPERAND { constraint: child<StringLiteral>, expr: child<Expr>, label: child<NameRef> }
    /// GNU `__label__ a, b;`
    LabelDecl = LABEL_DECL { names: children<Name> }

    // ---- expressions
    Literal = LITERAL {}
    StringLiteral = STRING_LITERAL {}
    IdExpr = ID_EXPR {
        name_ref: child<NameRef>, qualified_name: child<QualifiedName>, template_id: child<TemplateId>,
        operator_name: child<OperatorName>,
    }
    ThisExpr = THIS_EXPR {}
    ParenExpr = PAREN_EXPR { expr: child<Expr> }
    BinExpr = BIN_EXPR { lhs: nth<Expr>(0), rhs: nth<Expr>(1) }
    PrefixExpr = PREFIX_EXPR { operand: child<Expr> }
    PostfixExpr = POSTFIX_EXPR { operand: child<Expr> }
    AssignExpr = ASSIGN_EXPR { lhs: nth<Expr>(0), rhs: nth<Expr>(1) }
    ConditionalExpr = CONDITIONAL_EXPR { condition: nth<Expr>(0), then_expr: nth<Expr>(1), else_expr: nth<Expr>(2) }
    CommaExpr = COMMA_EXPR { lhs: nth<Expr>(0), rhs: nth<Expr>(1) }
    CallExpr = CALL_EXPR { callee: child<Expr>, arg_list: child<ArgList> }
    ArgList = ARG_LIST { args: children<Expr> }
    IndexExpr = INDEX_EXPR { base: nth<Expr>(0), index: nth<Expr>(1) }
    MemberExpr = MEMBER_EXPR { base: child<Expr>, name_ref: child<NameRef>, qualified_name: child<QualifiedName> }
    CastExpr = CAST_EXPR { type_id: child<TypeId>, expr: child<Expr> }
    CxxCastExpr = CXX_CAST_EXPR { type_id: child<TypeId>, expr: child<Expr> }
    FunctionalCastExpr = FUNCTIONAL_CAST_EXPR { type_id: child<TypeId>, args: child<ArgList>, init_list: child<InitList> }
    SizeofExpr = SIZEOF_EXPR { type_id: child<TypeId>, expr: child<Expr> }
    AlignofExpr = ALIGNOF_EXPR { type_id: child<TypeId>, expr: child<Expr> }
    NoexceptExpr = NOEXCEPT_EXPR { expr: child<Expr> }
    TypeidExpr = TYPEID_EXPR { type_id: child<TypeId>, expr: child<Expr> }
    NewExpr = NEW_EXPR { placement: child<NewPlacement>, type_id: child<TypeId>, initializer: child<NewInitializer> }
    NewPlacement = NEW_PLACEMENT { args: children<Expr> }
    NewInitializer = NEW_INITIALIZER { args: children<Expr> }
    DeleteExpr = DELETE_EXPR { operand: child<Expr> }
    ThrowExpr = THROW_EXPR { operand: child<Expr> }
    LambdaExpr = LAMBDA_EXPR {
        introducer: child<LambdaIntroducer>, template_params: child<TemplateParamList>,
        declarator: child<LambdaDeclarator>, body: child<CompoundStmt>,
    }
    LambdaIntroducer = LAMBDA_INTRODUCER { captures: children<Capture> }
    Capture = CAPTURE { name: child<Name>, initializer: child<Expr> }
    LambdaDeclarator = LAMBDA_DECLARATOR { params: child<ParamList>, trailing_return_type: child<TrailingReturnType> }
    FoldExpr = FOLD_EXPR { lhs: nth<Expr>(0), rhs: nth<Expr>(1) }
    RequiresExpr = REQUIRES_EXPR { params: child<ParamList>, requirements: children<Requirement> }
    Requirement = REQUIREMENT { expr: child<Expr> }
    /// GNU statement expression `({ ... })`.
    StmtExpr = STMT_EXPR { compound: child<CompoundStmt> }
    InitList = INIT_LIST { elements: children<Expr> }
    DesignatedInit = DESIGNATED_INIT { value: child<Expr> }
    BuiltinCallExpr = BUILTIN_CALL_EXPR { type_ids: children<TypeId>, args: children<Expr> }
    /// A CUDA kernel launch `f<<<grid, block>>>(args)`.
    KernelLaunch = KERNEL_LAUNCH { callee: child<Expr>, config: child<LaunchConfig>, arg_list: child<ArgList> }
    LaunchConfig = LAUNCH_CONFIG { args: children<Expr> }
    CoAwaitExpr = CO_AWAIT_EXPR { operand: child<Expr> }
    CoYieldExpr = CO_YIELD_EXPR { operand: child<Expr> }
    PackExpansion = PACK_EXPANSION { pattern: child<Expr> }
    SizeofPackExpr = SIZEOF_PACK_EXPR { name_ref: child<NameRef> }
    TypeTraitExpr = TYPE_TRAIT_EXPR { type_ids: children<TypeId> }
    GenericSelection = GENERIC_SELECTION { controlling: child<Expr> }
}

ast_enums! {
    /// A declaration (at namespace or class scope, or in a declaration statement).
    Decl {
        SimpleDecl, FunctionDef, NamespaceDef, NamespaceAlias, LinkageSpec, UsingDirective, UsingDecl,
        AliasDecl, TemplateDecl, ExplicitInstantiation, ExplicitSpecialization, DeductionGuide,
        ConceptDef, StaticAssertDecl, AsmDecl, EmptyDecl, AttributeDecl, ExportDecl, MemberDecl,
        FriendDecl, AccessSpecifier, ErrorNode,
    }
    Stmt {
        CompoundStmt, ExprStmt, DeclStmt, NullStmt, IfStmt, SwitchStmt, WhileStmt, DoStmt, ForStmt,
        RangeForStmt, BreakStmt, ContinueStmt, ReturnStmt, CoReturnStmt, GotoStmt, LabeledStmt,
        CaseStmt, DefaultStmt, TryBlock, AsmStmt, LabelDecl,
    }
    Expr {
        Literal, StringLiteral, IdExpr, ThisExpr, ParenExpr, BinExpr, PrefixExpr, PostfixExpr,
        AssignExpr, ConditionalExpr, CommaExpr, CallExpr, IndexExpr, MemberExpr, CastExpr,
        CxxCastExpr, FunctionalCastExpr, SizeofExpr, AlignofExpr, NoexceptExpr, TypeidExpr, NewExpr,
        DeleteExpr, ThrowExpr, LambdaExpr, FoldExpr, RequiresExpr, StmtExpr, InitList, DesignatedInit,
        BuiltinCallExpr, KernelLaunch, CoAwaitExpr, CoYieldExpr, PackExpansion, SizeofPackExpr,
        TypeTraitExpr, GenericSelection,
    }
    /// What follows a function definition's declarator.
    Body { FunctionBody, LazyBody, DefaultedBody, DeletedBody }
    TemplateParam { TypeTemplateParam, NonTypeTemplateParam, TemplateTemplateParam, Param }
}
