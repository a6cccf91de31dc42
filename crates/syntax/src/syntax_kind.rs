//! `SyntaxKind`: every token and node kind of the C++/CUDA tree.
//!
//! Punctuators and keywords are declared once in `define_kinds!`, which also
//! generates the `T![...]` macro used by the grammar (`T![::]`, `T![class]`).
//! Alternative tokens (`and`, `bitand`, digraphs) lex to the kind of the
//! operator they stand for; the tree keeps their text.

macro_rules! define_kinds {
    (
        punct: { $($ptext:tt => $pname:ident,)* }
        keywords: { $($ktext:tt => $kname:ident,)* }
        other_tokens: { $($(#[$tm:meta])* $tname:ident,)* }
        nodes: { $($(#[$nm:meta])* $nname:ident,)* }
    ) => {
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[repr(u16)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        pub enum SyntaxKind {
            /// Placeholder for "no kind" in parser events; never in a finished tree.
            TOMBSTONE,
            EOF,
            $($pname,)*
            $($kname,)*
            $($(#[$tm])* $tname,)*
            $($(#[$nm])* $nname,)*
            #[doc(hidden)]
            __LAST,
        }

        impl SyntaxKind {
            pub fn is_punct(self) -> bool {
                matches!(self, $(SyntaxKind::$pname)|*)
            }
            pub fn is_keyword(self) -> bool {
                matches!(self, $(SyntaxKind::$kname)|*)
            }
            /// The canonical spelling of a punctuator or keyword kind.
            pub fn text(self) -> Option<&'static str> {
                match self {
                    $(SyntaxKind::$pname => Some(stringify_punct!($ptext)),)*
                    $(SyntaxKind::$kname => Some($ktext),)*
                    _ => None,
                }
            }
            /// Keyword kind for an identifier spelling, ignoring language-version gating
            /// (see `crate::lexer::keyword_kind` for the gated lookup).
            pub fn from_keyword_text(text: &str) -> Option<SyntaxKind> {
                Some(match text {
                    $($ktext => SyntaxKind::$kname,)*
                    _ => return None,
                })
            }
        }
    };
}

/// Punctuator spellings are written as strings so that the table is easy to read.
macro_rules! stringify_punct {
    ($e:expr) => {
        $e
    };
}

define_kinds! {
    punct: {
        "+" => PLUS, "-" => MINUS, "*" => STAR, "/" => SLASH, "%" => PERCENT,
        "^" => CARET, "&" => AMP, "|" => PIPE, "~" => TILDE, "!" => BANG, "=" => EQ,
        "<" => L_ANGLE, ">" => R_ANGLE, "+=" => PLUSEQ, "-=" => MINUSEQ, "*=" => STAREQ,
        "/=" => SLASHEQ, "%=" => PERCENTEQ, "^=" => CARETEQ, "&=" => AMPEQ, "|=" => PIPEEQ,
        "<<" => SHL, ">>" => SHR, "<<=" => SHLEQ, ">>=" => SHREQ, "==" => EQ2, "!=" => NEQ,
        "<=" => LTEQ, ">=" => GTEQ, "<=>" => SPACESHIP, "&&" => AMP2, "||" => PIPE2,
        "++" => PLUS2, "--" => MINUS2, "," => COMMA, "->*" => ARROW_STAR, "->" => ARROW,
        "(" => L_PAREN, ")" => R_PAREN, "[" => L_BRACK, "]" => R_BRACK, "{" => L_CURLY,
        "}" => R_CURLY, ";" => SEMI, ":" => COLON, "::" => COLON2, "?" => QUESTION,
        "." => DOT, ".*" => DOT_STAR, "..." => DOT3, "#" => POUND, "##" => POUND2,
        "@" => AT, "$" => DOLLAR, "\\" => BACKSLASH,
    }
    keywords: {
        // C89
        "auto" => AUTO_KW, "break" => BREAK_KW, "case" => CASE_KW, "char" => CHAR_KW,
        "const" => CONST_KW, "continue" => CONTINUE_KW, "default" => DEFAULT_KW, "do" => DO_KW,
        "double" => DOUBLE_KW, "else" => ELSE_KW, "enum" => ENUM_KW, "extern" => EXTERN_KW,
        "float" => FLOAT_KW, "for" => FOR_KW, "goto" => GOTO_KW, "if" => IF_KW, "int" => INT_KW,
        "long" => LONG_KW, "register" => REGISTER_KW, "return" => RETURN_KW, "short" => SHORT_KW,
        "signed" => SIGNED_KW, "sizeof" => SIZEOF_KW, "static" => STATIC_KW, "struct" => STRUCT_KW,
        "switch" => SWITCH_KW, "typedef" => TYPEDEF_KW, "union" => UNION_KW,
        "unsigned" => UNSIGNED_KW, "void" => VOID_KW, "volatile" => VOLATILE_KW,
        "while" => WHILE_KW,
        // C99/C11 spellings accepted in GNU C++
        "_Bool" => BOOL_C_KW, "_Complex" => COMPLEX_KW, "_Alignof" => ALIGNOF_C_KW,
        "_Alignas" => ALIGNAS_C_KW, "_Atomic" => ATOMIC_KW, "_Thread_local" => THREAD_LOCAL_C_KW,
        "_Static_assert" => STATIC_ASSERT_C_KW, "_Noreturn" => NORETURN_KW, "_BitInt" => BITINT_KW,
        "_Imaginary" => IMAGINARY_KW, "_Generic" => GENERIC_KW,
        // C++
        "asm" => ASM_KW, "bool" => BOOL_KW, "catch" => CATCH_KW, "class" => CLASS_KW,
        "const_cast" => CONST_CAST_KW, "delete" => DELETE_KW, "dynamic_cast" => DYNAMIC_CAST_KW,
        "explicit" => EXPLICIT_KW, "export" => EXPORT_KW, "false" => FALSE_KW,
        "friend" => FRIEND_KW, "inline" => INLINE_KW, "mutable" => MUTABLE_KW,
        "namespace" => NAMESPACE_KW, "new" => NEW_KW, "operator" => OPERATOR_KW,
        "private" => PRIVATE_KW, "protected" => PROTECTED_KW, "public" => PUBLIC_KW,
        "reinterpret_cast" => REINTERPRET_CAST_KW, "static_cast" => STATIC_CAST_KW,
        "template" => TEMPLATE_KW, "this" => THIS_KW, "throw" => THROW_KW, "true" => TRUE_KW,
        "try" => TRY_KW, "typeid" => TYPEID_KW, "typename" => TYPENAME_KW, "using" => USING_KW,
        "virtual" => VIRTUAL_KW, "wchar_t" => WCHAR_T_KW,
        // C++11
        "alignas" => ALIGNAS_KW, "alignof" => ALIGNOF_KW, "char16_t" => CHAR16_T_KW,
        "char32_t" => CHAR32_T_KW, "constexpr" => CONSTEXPR_KW, "decltype" => DECLTYPE_KW,
        "noexcept" => NOEXCEPT_KW, "nullptr" => NULLPTR_KW, "static_assert" => STATIC_ASSERT_KW,
        "thread_local" => THREAD_LOCAL_KW,
        // C++20 (gated in the lexer)
        "char8_t" => CHAR8_T_KW, "concept" => CONCEPT_KW, "consteval" => CONSTEVAL_KW,
        "constinit" => CONSTINIT_KW, "co_await" => CO_AWAIT_KW, "co_return" => CO_RETURN_KW,
        "co_yield" => CO_YIELD_KW, "requires" => REQUIRES_KW,
        // GNU / vendor
        "__attribute__" => ATTRIBUTE_KW, "__attribute" => ATTRIBUTE2_KW,
        "__extension__" => EXTENSION_KW, "__asm__" => ASM2_KW, "__asm" => ASM3_KW,
        "__typeof__" => TYPEOF2_KW, "__typeof" => TYPEOF3_KW, "typeof" => TYPEOF_KW,
        "__int128" => INT128_KW, "__restrict__" => RESTRICT2_KW, "__restrict" => RESTRICT3_KW,
        "restrict" => RESTRICT_KW,
        "__inline__" => INLINE2_KW, "__inline" => INLINE3_KW, "__const__" => CONST2_KW,
        "__const" => CONST3_KW, "__volatile__" => VOLATILE2_KW, "__volatile" => VOLATILE3_KW,
        "__signed__" => SIGNED2_KW, "__signed" => SIGNED3_KW, "__alignof__" => ALIGNOF2_KW,
        "__alignof" => ALIGNOF3_KW, "__thread" => THREAD_KW, "__auto_type" => AUTO_TYPE_KW,
        "__real__" => REAL_KW, "__imag__" => IMAG_KW, "__label__" => LABEL_KW,
        "__decltype" => DECLTYPE2_KW, "__complex__" => COMPLEX2_KW,
        "__builtin_offsetof" => BUILTIN_OFFSETOF_KW, "__builtin_va_arg" => BUILTIN_VA_ARG_KW,
        "__builtin_bit_cast" => BUILTIN_BIT_CAST_KW,
        "__builtin_types_compatible_p" => BUILTIN_TYPES_COMPATIBLE_P_KW,
        "__builtin_convertvector" => BUILTIN_CONVERTVECTOR_KW,
        "_Float16" => FLOAT16_KW, "_Float32" => FLOAT32_KW, "_Float32x" => FLOAT32X_KW,
        "_Float64" => FLOAT64_KW, "_Float64x" => FLOAT64X_KW, "_Float128" => FLOAT128_KW,
        "__float128" => FLOAT128_GNU_KW, "__float80" => FLOAT80_KW, "__bf16" => BF16_KW,
        "__fp16" => FP16_KW,
        "__func__" => FUNC_KW, "__FUNCTION__" => FUNCTION_KW,
        "__PRETTY_FUNCTION__" => PRETTY_FUNCTION_KW,
        "__null" => GNU_NULL_KW,
        "__edg_vector_type__" => EDG_VECTOR_TYPE_KW,
        "__declspec" => DECLSPEC_KW,
        // CUDA: not a macro in the CUDA headers; EDG takes it as a function specifier.
        "__noinline__" => NOINLINE_KW,
    }
    other_tokens: {
        IDENT, INT_NUMBER, FLOAT_NUMBER, CHAR, STRING,
        /// A lexically invalid character or unterminated literal.
        ERROR_TOKEN,
        WHITESPACE, COMMENT,
        /// A gcc line marker `# 12 "file" 1 3`, up to (not including) the newline.
        LINE_MARKER,
        /// `#pragma ...` and any other `#` directive line left in preprocessed text.
        PP_DIRECTIVE,
        /// The text of a lazy body (`LAZY_BODY`), from its first token to its last, as one token.
        BODY_TEXT,
    }
    nodes: {
        SOURCE_FILE, ERROR,
        // ---- names
        NAME, NAME_REF, QUALIFIED_NAME, NESTED_NAME_SPECIFIER, TEMPLATE_ID, TEMPLATE_ARG_LIST,
        TEMPLATE_ARG, OPERATOR_NAME, CONVERSION_NAME, DESTRUCTOR_NAME, LITERAL_OPERATOR_NAME,
        DECLTYPE_SPECIFIER,
        // ---- declarations
        NAMESPACE_DEF, NAMESPACE_ALIAS, LINKAGE_SPEC, USING_DIRECTIVE, USING_DECL, ALIAS_DECL,
        SIMPLE_DECL, FUNCTION_DEF, TEMPLATE_DECL, TEMPLATE_PARAM_LIST, TYPE_TEMPLATE_PARAM,
        NON_TYPE_TEMPLATE_PARAM, TEMPLATE_TEMPLATE_PARAM, EXPLICIT_INSTANTIATION,
        EXPLICIT_SPECIALIZATION, DEDUCTION_GUIDE, CONCEPT_DEF, REQUIRES_CLAUSE,
        STATIC_ASSERT_DECL, ASM_DECL, EMPTY_DECL, ATTRIBUTE_DECL, EXPORT_DECL,
        DECL_SPECIFIERS, STORAGE_CLASS, FUNCTION_SPECIFIER, CV_QUALIFIER, SIMPLE_TYPE_SPECIFIER,
        ELABORATED_TYPE_SPECIFIER, TYPENAME_SPECIFIER, TYPEOF_SPECIFIER, ATOMIC_SPECIFIER,
        INIT_DECLARATOR_LIST, INIT_DECLARATOR, DECLARATOR, PTR_OPERATOR, ARRAY_DECLARATOR,
        FUNCTION_DECLARATOR, PAREN_DECLARATOR, PARAM_LIST, PARAM, TRAILING_RETURN_TYPE,
        NOEXCEPT_SPEC, THROW_SPEC, REF_QUALIFIER, VIRT_SPECIFIER, PURE_SPECIFIER, DEFAULTED_BODY,
        DELETED_BODY, BIT_FIELD_WIDTH, INITIALIZER, EQUAL_INITIALIZER, CTOR_INITIALIZER,
        MEM_INITIALIZER, STRUCTURED_BINDING, FUNCTION_BODY, FUNCTION_TRY_BLOCK,
        /// A function body kept as an unparsed, balanced token range (lazy bodies).
        LAZY_BODY,
        CLASS_SPECIFIER, CLASS_HEAD, BASE_CLAUSE, BASE_SPECIFIER, MEMBER_LIST, ACCESS_SPECIFIER,
        MEMBER_DECL, FRIEND_DECL, ENUM_SPECIFIER, ENUM_BASE, ENUMERATOR_LIST, ENUMERATOR,
        TYPE_ID, ABSTRACT_DECLARATOR,
        // ---- attributes
        ATTRIBUTE_LIST, ATTRIBUTE, GNU_ATTRIBUTE, ALIGNAS_SPECIFIER, ATTRIBUTE_ARGS, DECLSPEC,
        // ---- statements
        COMPOUND_STMT, EXPR_STMT, DECL_STMT, NULL_STMT, IF_STMT, SWITCH_STMT, WHILE_STMT,
        DO_STMT, FOR_STMT, RANGE_FOR_STMT, FOR_INIT, CONDITION, BREAK_STMT, CONTINUE_STMT,
        RETURN_STMT, GOTO_STMT, LABELED_STMT, CASE_STMT, DEFAULT_STMT, TRY_BLOCK, HANDLER,
        EXCEPTION_DECL, CO_RETURN_STMT, ASM_STMT, ELSE_BRANCH,
        /// GNU `__label__ a, b;`
        LABEL_DECL,
        // ---- expressions
        LITERAL, STRING_LITERAL, ID_EXPR, THIS_EXPR, PAREN_EXPR, BIN_EXPR, PREFIX_EXPR,
        POSTFIX_EXPR, ASSIGN_EXPR, CONDITIONAL_EXPR, COMMA_EXPR, CALL_EXPR, ARG_LIST,
        INDEX_EXPR, MEMBER_EXPR, CAST_EXPR, CXX_CAST_EXPR, FUNCTIONAL_CAST_EXPR,
        SIZEOF_EXPR, ALIGNOF_EXPR, NOEXCEPT_EXPR, TYPEID_EXPR, NEW_EXPR, NEW_PLACEMENT,
        NEW_INITIALIZER, DELETE_EXPR, THROW_EXPR, LAMBDA_EXPR, LAMBDA_INTRODUCER, CAPTURE,
        LAMBDA_DECLARATOR, FOLD_EXPR, REQUIRES_EXPR, REQUIREMENT, STMT_EXPR,
        INIT_LIST, DESIGNATED_INIT, BUILTIN_CALL_EXPR, KERNEL_LAUNCH, LAUNCH_CONFIG,
        CO_AWAIT_EXPR, CO_YIELD_EXPR, PACK_EXPANSION, SIZEOF_PACK_EXPR, TYPE_TRAIT_EXPR,
        GENERIC_SELECTION, ASM_OPERAND, ASM_OPERAND_LIST,
    }
}

impl SyntaxKind {
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            SyntaxKind::WHITESPACE | SyntaxKind::COMMENT | SyntaxKind::LINE_MARKER | SyntaxKind::PP_DIRECTIVE
        )
    }

    pub fn is_literal(self) -> bool {
        matches!(self, SyntaxKind::INT_NUMBER | SyntaxKind::FLOAT_NUMBER | SyntaxKind::CHAR | SyntaxKind::STRING)
    }
}

impl From<u16> for SyntaxKind {
    fn from(d: u16) -> SyntaxKind {
        assert!(d < SyntaxKind::__LAST as u16);
        // SAFETY: `SyntaxKind` is `repr(u16)` and `d` is in range.
        unsafe { std::mem::transmute::<u16, SyntaxKind>(d) }
    }
}

impl From<SyntaxKind> for u16 {
    fn from(k: SyntaxKind) -> u16 {
        k as u16
    }
}

/// `T![...]`: the kind of a punctuator or keyword, by spelling.
#[macro_export]
macro_rules! T {
    [+] => { $crate::SyntaxKind::PLUS }; [-] => { $crate::SyntaxKind::MINUS };
    [*] => { $crate::SyntaxKind::STAR }; [/] => { $crate::SyntaxKind::SLASH };
    [%] => { $crate::SyntaxKind::PERCENT }; [^] => { $crate::SyntaxKind::CARET };
    [&] => { $crate::SyntaxKind::AMP }; [|] => { $crate::SyntaxKind::PIPE };
    [~] => { $crate::SyntaxKind::TILDE }; [!] => { $crate::SyntaxKind::BANG };
    [=] => { $crate::SyntaxKind::EQ }; [<] => { $crate::SyntaxKind::L_ANGLE };
    [>] => { $crate::SyntaxKind::R_ANGLE }; [+=] => { $crate::SyntaxKind::PLUSEQ };
    [-=] => { $crate::SyntaxKind::MINUSEQ }; [*=] => { $crate::SyntaxKind::STAREQ };
    [/=] => { $crate::SyntaxKind::SLASHEQ }; [%=] => { $crate::SyntaxKind::PERCENTEQ };
    [^=] => { $crate::SyntaxKind::CARETEQ }; [&=] => { $crate::SyntaxKind::AMPEQ };
    [|=] => { $crate::SyntaxKind::PIPEEQ }; [<<] => { $crate::SyntaxKind::SHL };
    [>>] => { $crate::SyntaxKind::SHR }; [<<=] => { $crate::SyntaxKind::SHLEQ };
    [>>=] => { $crate::SyntaxKind::SHREQ }; [==] => { $crate::SyntaxKind::EQ2 };
    [!=] => { $crate::SyntaxKind::NEQ }; [<=] => { $crate::SyntaxKind::LTEQ };
    [>=] => { $crate::SyntaxKind::GTEQ }; [<=>] => { $crate::SyntaxKind::SPACESHIP };
    [&&] => { $crate::SyntaxKind::AMP2 }; [||] => { $crate::SyntaxKind::PIPE2 };
    [++] => { $crate::SyntaxKind::PLUS2 }; [--] => { $crate::SyntaxKind::MINUS2 };
    [,] => { $crate::SyntaxKind::COMMA }; [->*] => { $crate::SyntaxKind::ARROW_STAR };
    [->] => { $crate::SyntaxKind::ARROW }; ['('] => { $crate::SyntaxKind::L_PAREN };
    [')'] => { $crate::SyntaxKind::R_PAREN }; ['['] => { $crate::SyntaxKind::L_BRACK };
    [']'] => { $crate::SyntaxKind::R_BRACK }; ['{'] => { $crate::SyntaxKind::L_CURLY };
    ['}'] => { $crate::SyntaxKind::R_CURLY }; [;] => { $crate::SyntaxKind::SEMI };
    [:] => { $crate::SyntaxKind::COLON }; [::] => { $crate::SyntaxKind::COLON2 };
    [?] => { $crate::SyntaxKind::QUESTION }; [.] => { $crate::SyntaxKind::DOT };
    [.*] => { $crate::SyntaxKind::DOT_STAR }; [...] => { $crate::SyntaxKind::DOT3 };
    [#] => { $crate::SyntaxKind::POUND };
    [auto] => { $crate::SyntaxKind::AUTO_KW }; [break] => { $crate::SyntaxKind::BREAK_KW };
    [case] => { $crate::SyntaxKind::CASE_KW }; [char] => { $crate::SyntaxKind::CHAR_KW };
    [const] => { $crate::SyntaxKind::CONST_KW }; [continue] => { $crate::SyntaxKind::CONTINUE_KW };
    [default] => { $crate::SyntaxKind::DEFAULT_KW }; [do] => { $crate::SyntaxKind::DO_KW };
    [double] => { $crate::SyntaxKind::DOUBLE_KW }; [else] => { $crate::SyntaxKind::ELSE_KW };
    [enum] => { $crate::SyntaxKind::ENUM_KW }; [extern] => { $crate::SyntaxKind::EXTERN_KW };
    [float] => { $crate::SyntaxKind::FLOAT_KW }; [for] => { $crate::SyntaxKind::FOR_KW };
    [goto] => { $crate::SyntaxKind::GOTO_KW }; [if] => { $crate::SyntaxKind::IF_KW };
    [int] => { $crate::SyntaxKind::INT_KW }; [long] => { $crate::SyntaxKind::LONG_KW };
    [register] => { $crate::SyntaxKind::REGISTER_KW }; [return] => { $crate::SyntaxKind::RETURN_KW };
    [short] => { $crate::SyntaxKind::SHORT_KW }; [signed] => { $crate::SyntaxKind::SIGNED_KW };
    [sizeof] => { $crate::SyntaxKind::SIZEOF_KW }; [static] => { $crate::SyntaxKind::STATIC_KW };
    [struct] => { $crate::SyntaxKind::STRUCT_KW }; [switch] => { $crate::SyntaxKind::SWITCH_KW };
    [typedef] => { $crate::SyntaxKind::TYPEDEF_KW }; [union] => { $crate::SyntaxKind::UNION_KW };
    [unsigned] => { $crate::SyntaxKind::UNSIGNED_KW }; [void] => { $crate::SyntaxKind::VOID_KW };
    [volatile] => { $crate::SyntaxKind::VOLATILE_KW }; [while] => { $crate::SyntaxKind::WHILE_KW };
    [asm] => { $crate::SyntaxKind::ASM_KW }; [bool] => { $crate::SyntaxKind::BOOL_KW };
    [catch] => { $crate::SyntaxKind::CATCH_KW }; [class] => { $crate::SyntaxKind::CLASS_KW };
    [const_cast] => { $crate::SyntaxKind::CONST_CAST_KW }; [delete] => { $crate::SyntaxKind::DELETE_KW };
    [dynamic_cast] => { $crate::SyntaxKind::DYNAMIC_CAST_KW }; [explicit] => { $crate::SyntaxKind::EXPLICIT_KW };
    [export] => { $crate::SyntaxKind::EXPORT_KW }; [false] => { $crate::SyntaxKind::FALSE_KW };
    [friend] => { $crate::SyntaxKind::FRIEND_KW }; [inline] => { $crate::SyntaxKind::INLINE_KW };
    [mutable] => { $crate::SyntaxKind::MUTABLE_KW }; [namespace] => { $crate::SyntaxKind::NAMESPACE_KW };
    [new] => { $crate::SyntaxKind::NEW_KW }; [operator] => { $crate::SyntaxKind::OPERATOR_KW };
    [private] => { $crate::SyntaxKind::PRIVATE_KW }; [protected] => { $crate::SyntaxKind::PROTECTED_KW };
    [public] => { $crate::SyntaxKind::PUBLIC_KW }; [reinterpret_cast] => { $crate::SyntaxKind::REINTERPRET_CAST_KW };
    [static_cast] => { $crate::SyntaxKind::STATIC_CAST_KW }; [template] => { $crate::SyntaxKind::TEMPLATE_KW };
    [this] => { $crate::SyntaxKind::THIS_KW }; [throw] => { $crate::SyntaxKind::THROW_KW };
    [true] => { $crate::SyntaxKind::TRUE_KW }; [try] => { $crate::SyntaxKind::TRY_KW };
    [typeid] => { $crate::SyntaxKind::TYPEID_KW }; [typename] => { $crate::SyntaxKind::TYPENAME_KW };
    [using] => { $crate::SyntaxKind::USING_KW }; [virtual] => { $crate::SyntaxKind::VIRTUAL_KW };
    [wchar_t] => { $crate::SyntaxKind::WCHAR_T_KW }; [alignas] => { $crate::SyntaxKind::ALIGNAS_KW };
    [alignof] => { $crate::SyntaxKind::ALIGNOF_KW }; [char16_t] => { $crate::SyntaxKind::CHAR16_T_KW };
    [char32_t] => { $crate::SyntaxKind::CHAR32_T_KW }; [constexpr] => { $crate::SyntaxKind::CONSTEXPR_KW };
    [decltype] => { $crate::SyntaxKind::DECLTYPE_KW }; [noexcept] => { $crate::SyntaxKind::NOEXCEPT_KW };
    [nullptr] => { $crate::SyntaxKind::NULLPTR_KW }; [static_assert] => { $crate::SyntaxKind::STATIC_ASSERT_KW };
    [thread_local] => { $crate::SyntaxKind::THREAD_LOCAL_KW }; [char8_t] => { $crate::SyntaxKind::CHAR8_T_KW };
    [concept] => { $crate::SyntaxKind::CONCEPT_KW }; [consteval] => { $crate::SyntaxKind::CONSTEVAL_KW };
    [constinit] => { $crate::SyntaxKind::CONSTINIT_KW }; [co_await] => { $crate::SyntaxKind::CO_AWAIT_KW };
    [co_return] => { $crate::SyntaxKind::CO_RETURN_KW }; [co_yield] => { $crate::SyntaxKind::CO_YIELD_KW };
    [requires] => { $crate::SyntaxKind::REQUIRES_KW };
    [__attribute__] => { $crate::SyntaxKind::ATTRIBUTE_KW };
    [__extension__] => { $crate::SyntaxKind::EXTENSION_KW };
    [__int128] => { $crate::SyntaxKind::INT128_KW };
    [ident] => { $crate::SyntaxKind::IDENT };
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(k: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(k.into())
    }
}
