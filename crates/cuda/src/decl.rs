//! The shape of declarators: which name they declare and how its type is
//! derived from the declaration's specifiers (`int *a[3]`: array of 3
//! pointers to int).

use cufront_syntax::{SyntaxKind, SyntaxNode, TextRange, TextSize};

use cufront_syntax::green;

/// One step of a declarator, from the declared name outwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deriv {
    /// A `PTR_OPERATOR` (`*`, `&`, `&&`, `C::*`, with its cv-qualifiers).
    Ptr(SyntaxNode),
    /// An `ARRAY_DECLARATOR`.
    Array(SyntaxNode),
    /// A `FUNCTION_DECLARATOR`.
    Function(SyntaxNode),
}

fn is_declarator(k: SyntaxKind) -> bool {
    matches!(k, SyntaxKind::DECLARATOR | SyntaxKind::ABSTRACT_DECLARATOR)
}

/// The nested declarator of a `( D )` part, if any.
fn inner(declarator: &SyntaxNode) -> Option<SyntaxNode> {
    let paren = declarator.children().find(|c| c.kind() == SyntaxKind::PAREN_DECLARATOR)?;
    paren.children().find(|c| is_declarator(c.kind()))
}

/// The declarator-id: a `NAME` or `QUALIFIED_NAME` node, or the
/// `TEMPLATE_ID` of an explicit specialization (`kt<float>`).
pub fn name_node(declarator: &SyntaxNode) -> Option<SyntaxNode> {
    if let Some(n) = declarator.children().find(|c| {
        matches!(
            c.kind(),
            SyntaxKind::NAME
                | SyntaxKind::QUALIFIED_NAME
                | SyntaxKind::TEMPLATE_ID
                // An unqualified special name is the declarator's child itself
                // (`C operator*(C, C)`, `~S()` in a class).
                | SyntaxKind::OPERATOR_NAME
                | SyntaxKind::CONVERSION_NAME
                | SyntaxKind::DESTRUCTOR_NAME
                | SyntaxKind::LITERAL_OPERATOR_NAME
        )
    }) {
        return Some(n);
    }
    name_node(&inner(declarator)?)
}

/// Where the declared entity is, as EDG places it: the start of the
/// declarator-id's last component (`f` in `N::f`, `operator` in
/// `operator+`), not the start of the declaration. Whether an entity is in
/// a system header is decided there (checked against cudafe++ 13.0: a
/// definition whose attributes come from a macro defined outside the system
/// header keeps its name's system flag).
pub fn name_start(declarator: &SyntaxNode) -> Option<TextSize> {
    let name = name_node(declarator)?;
    let last = match name.kind() {
        SyntaxKind::QUALIFIED_NAME => name.children().last().unwrap_or(name),
        _ => name,
    };
    let first_token = last.first_token()?;
    let mut t = Some(first_token);
    // Skip leading trivia inside the node, if any.
    while let Some(tok) = t {
        if !tok.kind().is_trivia() {
            return Some(tok.text_range().start());
        }
        t = tok.next_token();
    }
    None
}

/// The derivations from the declared name outwards. `int *a[3]` → [Array, Ptr];
/// `int (*f)(int)` → [Ptr, Function]; `int (*fp(int))[4]` → [Function, Ptr, Array].
pub fn derivations(declarator: &SyntaxNode) -> Vec<Deriv> {
    let mut out = match inner(declarator) {
        Some(i) => derivations(&i),
        None => Vec::new(),
    };
    for c in declarator.children() {
        match c.kind() {
            SyntaxKind::ARRAY_DECLARATOR => out.push(Deriv::Array(c)),
            SyntaxKind::FUNCTION_DECLARATOR => out.push(Deriv::Function(c)),
            _ => {}
        }
    }
    let ptrs: Vec<SyntaxNode> = declarator.children().filter(|c| c.kind() == SyntaxKind::PTR_OPERATOR).collect();
    out.extend(ptrs.into_iter().rev().map(Deriv::Ptr));
    out
}

/// The function declarator when the declarator declares a function.
pub fn function_declarator(declarator: &SyntaxNode) -> Option<SyntaxNode> {
    match first_derivation(declarator)? {
        Deriv::Function(f) => Some(f),
        _ => None,
    }
}

/// `derivations(declarator).first()`, without building the list (this is
/// asked of every declarator of a unit, several times).
fn first_derivation(declarator: &SyntaxNode) -> Option<Deriv> {
    if let Some(d) = inner(declarator).and_then(|i| first_derivation(&i)) {
        return Some(d);
    }
    let mut last_ptr = None;
    for c in declarator.children() {
        match c.kind() {
            SyntaxKind::ARRAY_DECLARATOR => return Some(Deriv::Array(c)),
            SyntaxKind::FUNCTION_DECLARATOR => return Some(Deriv::Function(c)),
            SyntaxKind::PTR_OPERATOR => last_ptr = Some(c),
            _ => {}
        }
    }
    last_ptr.map(Deriv::Ptr)
}

/// The parameters of a function declarator.
pub fn params(function: &SyntaxNode) -> Vec<SyntaxNode> {
    function
        .children()
        .find(|c| c.kind() == SyntaxKind::PARAM_LIST)
        .map(|l| l.children().filter(|p| p.kind() == SyntaxKind::PARAM).collect())
        .unwrap_or_default()
}

/// A function's parameter types as written, names, attributes and default
/// arguments left out, plus its cv- and ref-qualifiers: the key that tells
/// overloads apart (`(const int &,float)const`).
pub fn signature_text(function: &SyntaxNode) -> String {
    let mut out = String::from("(");
    let list = function.children().find(|c| c.kind() == SyntaxKind::PARAM_LIST);
    let mut dots = false;
    let mut first = true;
    for c in list.iter().flat_map(|l| l.children_with_tokens()) {
        match c {
            rowan::NodeOrToken::Node(p) if p.kind() == SyntaxKind::PARAM => {
                if !first {
                    out.push(',');
                }
                first = false;
                out.push_str(&param_type_text(&p));
            }
            rowan::NodeOrToken::Token(t) if t.kind() == SyntaxKind::DOT3 => dots = true,
            _ => {}
        }
    }
    if dots {
        out.push_str(",...");
    }
    out.push(')');
    for t in function.children_with_tokens() {
        match t.kind() {
            SyntaxKind::CONST_KW | SyntaxKind::VOLATILE_KW => {
                out.push_str(t.as_token().map_or("", |t| t.text()));
                out.push(' ');
            }
            SyntaxKind::REF_QUALIFIER => out.push_str(&t.as_node().map(|n| n.text().to_string()).unwrap_or_default()),
            _ => {}
        }
    }
    out
}

/// The type of a parameter as written, without its name, attributes or default.
pub fn param_type_text(param: &SyntaxNode) -> String {
    let name = param.children().find(|c| c.kind() == SyntaxKind::DECLARATOR).and_then(|d| name_node(&d));
    // The type is spelled by the specifiers and the declarator; a default
    // argument comes after them.
    let type_end = param
        .children()
        .filter(|c| {
            matches!(c.kind(), SyntaxKind::DECL_SPECIFIERS | SyntaxKind::DECLARATOR | SyntaxKind::ABSTRACT_DECLARATOR)
        })
        .map(|c| c.text_range().end())
        .max()
        .unwrap_or(param.text_range().end());
    // Top-level cv-qualifiers are not part of the parameter type
    // (`const int` and `int` declare the same function), and the order of
    // specifiers does not matter (`int const *` is `const int *`): the
    // specifiers' cv-qualifiers go first, or go when they are top-level,
    // and so do those of a pointer operator that applies to the name.
    let declarator = param.children().find(|c| is_declarator(c.kind()));
    let specs = param.children().find(|c| c.kind() == SyntaxKind::DECL_SPECIFIERS);
    let first = declarator.as_ref().and_then(first_derivation);
    let top_ptr = match &first {
        Some(Deriv::Ptr(p)) => Some(p.text_range()),
        _ => None,
    };
    let spec_cv_is_top = first.is_none();
    // Through the green tree (no cursor per token), skipping attributes
    // and the name whole.
    let mut text = ParamText {
        name: name.map(|n| n.text_range()),
        type_end,
        specs: specs.map(|s| s.text_range()),
        top_ptr,
        cv: [false; 2],
        out: String::new(),
    };
    text.visit(&param.green(), param.text_range(), Parent::Other);
    let mut out = text.out;
    if !spec_cv_is_top {
        if text.cv[1] {
            out.insert_str(0, "volatile ");
        }
        if text.cv[0] {
            out.insert_str(0, "const ");
        }
    }
    out
}

/// What `param_type_text` needs to know of a token's parent.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Parent {
    Specs,
    TopPtr,
    Other,
}

struct ParamText {
    name: Option<TextRange>,
    type_end: TextSize,
    specs: Option<TextRange>,
    top_ptr: Option<TextRange>,
    /// The specifiers' `const`, `volatile`.
    cv: [bool; 2],
    out: String,
}

impl ParamText {
    /// Adds the type's tokens under `n` (at `range`); false once past the type.
    fn visit(&mut self, n: &rowan::GreenNodeData, range: TextRange, parent: Parent) -> bool {
        let mut at = range.start();
        for c in n.children() {
            match c {
                rowan::NodeOrToken::Node(c) => {
                    let r = TextRange::at(at, c.text_len());
                    at = r.end();
                    let kind = green::node_kind(c);
                    if kind == SyntaxKind::GNU_ATTRIBUTE || self.name.is_some_and(|n| n.contains_range(r)) {
                        continue;
                    }
                    let p = if kind == SyntaxKind::DECL_SPECIFIERS && parent == Parent::Other && self.specs == Some(r) {
                        Parent::Specs
                    } else if kind == SyntaxKind::PTR_OPERATOR && self.top_ptr == Some(r) {
                        Parent::TopPtr
                    } else {
                        Parent::Other
                    };
                    if !self.visit(c, r, p) {
                        return false;
                    }
                }
                rowan::NodeOrToken::Token(t) => {
                    let start = at;
                    at += t.text_len();
                    let kind = SyntaxKind::from(t.kind().0);
                    if kind.is_trivia() {
                        continue;
                    }
                    if start >= self.type_end {
                        return false;
                    }
                    if matches!(kind, SyntaxKind::CONST_KW | SyntaxKind::VOLATILE_KW) {
                        match parent {
                            Parent::Specs => {
                                self.cv[usize::from(kind == SyntaxKind::VOLATILE_KW)] = true;
                                continue;
                            }
                            Parent::TopPtr => continue,
                            Parent::Other => {}
                        }
                    }
                    if !self.out.is_empty() {
                        self.out.push(' ');
                    }
                    self.out.push_str(t.text());
                }
            }
        }
        true
    }
}

/// Whether the specifiers hold the keyword `kind` directly (not inside a
/// class or enum body, an attribute, `decltype`, or template arguments).
pub fn has_keyword(specifiers: Option<&SyntaxNode>, kinds: &[SyntaxKind]) -> bool {
    let Some(s) = specifiers else {
        return false;
    };
    let mut found = false;
    green::tokens(
        &s.green(),
        &mut |n| {
            matches!(
                green::node_kind(n),
                SyntaxKind::CLASS_SPECIFIER
                    | SyntaxKind::ENUM_SPECIFIER
                    | SyntaxKind::GNU_ATTRIBUTE
                    | SyntaxKind::DECLTYPE_SPECIFIER
                    | SyntaxKind::TYPEOF_SPECIFIER
                    | SyntaxKind::TEMPLATE_ARG_LIST
            )
        },
        &mut |t| {
            found = kinds.contains(&SyntaxKind::from(t.kind().0));
            !found
        },
    );
    found
}
