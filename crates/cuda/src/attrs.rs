//! CUDA attributes. nvcc's `crt/host_defines.h` spells every CUDA keyword as a
//! GNU attribute (`__device__` → `__attribute__((device))`), so they are
//! `GNU_ATTRIBUTE` nodes in the tree.

use cufront_syntax::{SyntaxKind, SyntaxNode};
use rowan::GreenNodeData;

use cufront_syntax::green;

/// The CUDA attributes found on one declaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CudaAttrs {
    pub host: bool,
    pub device: bool,
    pub global: bool,
    pub shared: bool,
    pub constant: bool,
    pub managed: bool,
    pub grid_constant: bool,
    /// `__device_builtin__`: a type that `crt/host_runtime.h` supplies again.
    pub device_builtin: bool,
    /// `__launch_bounds__`, `__maxnreg__`, `__cluster_dims__`, ...
    pub launch_config: bool,
}

impl CudaAttrs {
    pub fn merge(self, o: CudaAttrs) -> CudaAttrs {
        CudaAttrs {
            host: self.host || o.host,
            device: self.device || o.device,
            global: self.global || o.global,
            shared: self.shared || o.shared,
            constant: self.constant || o.constant,
            managed: self.managed || o.managed,
            grid_constant: self.grid_constant || o.grid_constant,
            device_builtin: self.device_builtin || o.device_builtin,
            launch_config: self.launch_config || o.launch_config,
        }
    }
    /// Any memory space (variables).
    pub fn has_memory_space(&self) -> bool {
        self.device || self.shared || self.constant || self.managed
    }
    fn add(&mut self, name: &str) {
        match name {
            "host" => self.host = true,
            "device" => self.device = true,
            "global" => self.global = true,
            "shared" => self.shared = true,
            "constant" => self.constant = true,
            "managed" => self.managed = true,
            "grid_constant" => self.grid_constant = true,
            "device_builtin" => self.device_builtin = true,
            "launch_bounds" | "maxnreg" | "local_maxnreg" | "cluster_dims" | "block_size" => self.launch_config = true,
            _ => {}
        }
    }
}

/// The attribute names (GNU spelling, `__x__` folded to `x`) that only the CUDA
/// compilers understand; the host output removes them (spec 20 §2, §9).
pub fn is_cuda_only(name: &str) -> bool {
    matches!(
        name,
        "host"
            | "device"
            | "global"
            | "shared"
            | "constant"
            | "managed"
            | "grid_constant"
            | "tile_global"
            | "tile"
            | "tile_builtin"
            | "device_builtin"
            | "cudart_builtin"
            | "launch_bounds"
            | "maxnreg"
            | "local_maxnreg"
            | "cluster_dims"
            | "block_size"
            | "nv_inline_hint"
            | "nv_register_params"
    )
}

/// The name of an `ATTRIBUTE` node, with GNU's `__x__` folded to `x`.
pub fn attribute_name(attr: &SyntaxNode) -> Option<String> {
    green_attribute_name(&attr.green()).map(str::to_string)
}

fn green_attribute_name(attr: &GreenNodeData) -> Option<&str> {
    let tok = green::first_significant(attr)?;
    let kind = SyntaxKind::from(tok.kind().0);
    if !(kind == SyntaxKind::IDENT || kind.is_keyword()) {
        return None;
    }
    let text = tok.text();
    Some(text.strip_prefix("__").and_then(|t| t.strip_suffix("__")).unwrap_or(text))
}

/// Whether a `GNU_ATTRIBUTE` node (green) lists a CUDA-only attribute.
pub fn lists_cuda_only(gnu: &GreenNodeData) -> bool {
    green::child_nodes(gnu)
        .filter(|c| green::node_kind(c) == SyntaxKind::ATTRIBUTE)
        .any(|a| green_attribute_name(a).is_some_and(is_cuda_only))
}

/// Adds the CUDA attributes of one `GNU_ATTRIBUTE` node.
pub fn add_gnu_attribute(attrs: &mut CudaAttrs, gnu: &SyntaxNode) {
    add_green_attribute(attrs, &gnu.green());
}

fn add_green_attribute(attrs: &mut CudaAttrs, gnu: &GreenNodeData) {
    for a in green::child_nodes(gnu).filter(|c| green::node_kind(c) == SyntaxKind::ATTRIBUTE) {
        if let Some(n) = green_attribute_name(a) {
            attrs.add(n);
        }
    }
}

/// The CUDA annotations of a lambda expression (`LAMBDA_EXPR`): its GNU
/// attributes before the declarator and in it (`[] __device__ (int x) {…}`),
/// not those of its parameters or its body.
pub fn of_lambda(lambda: &SyntaxNode) -> CudaAttrs {
    let mut a = CudaAttrs::default();
    for c in lambda.children() {
        match c.kind() {
            SyntaxKind::GNU_ATTRIBUTE => add_gnu_attribute(&mut a, &c),
            SyntaxKind::LAMBDA_DECLARATOR => {
                for g in c.children().filter(|g| g.kind() == SyntaxKind::GNU_ATTRIBUTE) {
                    add_gnu_attribute(&mut a, &g);
                }
            }
            _ => {}
        }
    }
    a
}

/// The CUDA attributes that apply to the entity a declaration declares: those
/// among its specifiers and those inside its declarator, but not those of its
/// parameters or its trailing return type.
pub fn of_declaration(specifiers: Option<&SyntaxNode>, declarator: Option<&SyntaxNode>) -> CudaAttrs {
    let mut attrs = CudaAttrs::default();
    if let Some(s) = specifiers {
        for c in green::child_nodes(&s.green()) {
            if green::node_kind(c) == SyntaxKind::GNU_ATTRIBUTE {
                add_green_attribute(&mut attrs, c);
            }
        }
    }
    if let Some(d) = declarator {
        collect_outside_params(&d.green(), &mut attrs);
    }
    attrs
}

/// The CUDA attributes of the entity `declarator` declares, read where
/// they can sit: the declaration's specifiers, the declaration itself (a
/// constructor has no specifiers: `__device__ S();` puts the attribute on
/// the declaration) and the declarator. The one reader of entity
/// attributes: the semantic model and the printer both ask it.
pub fn of_declarator(specifiers: Option<&SyntaxNode>, declarator: &SyntaxNode) -> CudaAttrs {
    let mut attrs = of_declaration(specifiers, Some(declarator));
    let declaration = declarator
        .ancestors()
        .find(|n| matches!(n.kind(), SyntaxKind::SIMPLE_DECL | SyntaxKind::FUNCTION_DEF | SyntaxKind::MEMBER_DECL));
    for g in declaration.iter().flat_map(|d| d.children()).filter(|c| c.kind() == SyntaxKind::GNU_ATTRIBUTE) {
        add_gnu_attribute(&mut attrs, &g);
    }
    attrs
}

/// Whether the entity `declarator` declares is declared not to return:
/// `[[noreturn]]`, `[[gnu::noreturn]]`, `__attribute__((noreturn))`,
/// `_Noreturn` or `__declspec(noreturn)`, read where `of_declarator`
/// reads the CUDA attributes (not where a parameter's or a trailing return
/// type's would be).
pub fn is_noreturn(specifiers: Option<&SyntaxNode>, declarator: &SyntaxNode) -> bool {
    let declaration = declarator
        .ancestors()
        .find(|n| matches!(n.kind(), SyntaxKind::SIMPLE_DECL | SyntaxKind::FUNCTION_DEF | SyntaxKind::MEMBER_DECL));
    // Every spelling has `noreturn` in a token (or is `_Noreturn`): most
    // declarations have none, and the green tree answers that without the
    // cursor walk below.
    let mentions = |n: &SyntaxNode| {
        !cufront_syntax::green::tokens(
            n.green().as_ref(),
            &mut |c| cufront_syntax::green::node_kind(c) == SyntaxKind::FUNCTION_BODY,
            &mut |t| {
                !(cufront_syntax::green::token_kind(t) == SyntaxKind::NORETURN_KW || t.text().contains("noreturn"))
            },
        )
    };
    let mentioned = match &declaration {
        Some(d) => mentions(d),
        None => specifiers.is_some_and(mentions) || mentions(declarator),
    };
    if !mentioned {
        return false;
    }
    let mut holders: Vec<SyntaxNode> = Vec::new();
    for n in specifiers.into_iter().chain(declaration.as_ref()) {
        if n.children_with_tokens().any(|t| t.kind() == SyntaxKind::NORETURN_KW) {
            return true;
        }
        holders.extend(n.children());
    }
    let mut stack = vec![declarator.clone()];
    while let Some(n) = stack.pop() {
        for c in n.children() {
            match c.kind() {
                SyntaxKind::PARAM_LIST | SyntaxKind::TRAILING_RETURN_TYPE | SyntaxKind::NOEXCEPT_SPEC => {}
                SyntaxKind::ARRAY_DECLARATOR | SyntaxKind::INITIALIZER | SyntaxKind::EQUAL_INITIALIZER => {}
                SyntaxKind::GNU_ATTRIBUTE | SyntaxKind::ATTRIBUTE_LIST | SyntaxKind::DECLSPEC => holders.push(c),
                _ => stack.push(c),
            }
        }
    }
    holders.iter().any(|h| match h.kind() {
        SyntaxKind::GNU_ATTRIBUTE | SyntaxKind::ATTRIBUTE_LIST => {
            h.children().filter(|a| a.kind() == SyntaxKind::ATTRIBUTE).any(|a| names_noreturn(&a))
        }
        SyntaxKind::DECLSPEC => {
            h.descendants_with_tokens().any(|t| t.as_token().is_some_and(|t| t.text() == "noreturn"))
        }
        _ => false,
    })
}

/// `noreturn`, `__noreturn__`, `gnu::noreturn`, `__gnu__::__noreturn__`:
/// the attribute's last name before its arguments.
fn names_noreturn(attr: &SyntaxNode) -> bool {
    let last = attr
        .children_with_tokens()
        .take_while(|t| t.kind() != SyntaxKind::ATTRIBUTE_ARGS && t.kind() != SyntaxKind::L_PAREN)
        .filter_map(|t| t.into_token())
        .filter(|t| t.kind() == SyntaxKind::IDENT || t.kind().is_keyword())
        .last();
    last.is_some_and(|t| {
        let text = t.text();
        text.strip_prefix("__").and_then(|t| t.strip_suffix("__")).unwrap_or(text) == "noreturn"
    })
}

fn collect_outside_params(node: &GreenNodeData, attrs: &mut CudaAttrs) {
    for c in green::child_nodes(node) {
        match green::node_kind(c) {
            SyntaxKind::GNU_ATTRIBUTE => add_green_attribute(attrs, c),
            SyntaxKind::PARAM_LIST | SyntaxKind::TRAILING_RETURN_TYPE | SyntaxKind::NOEXCEPT_SPEC => {}
            SyntaxKind::ARRAY_DECLARATOR | SyntaxKind::INITIALIZER | SyntaxKind::EQUAL_INITIALIZER => {}
            _ => collect_outside_params(c, attrs),
        }
    }
}

/// The CUDA attributes directly on a class specifier (`struct __device_builtin__ S`).
pub fn of_class(class: &SyntaxNode) -> CudaAttrs {
    let mut attrs = CudaAttrs::default();
    for c in class.children() {
        match c.kind() {
            SyntaxKind::GNU_ATTRIBUTE => add_gnu_attribute(&mut attrs, &c),
            SyntaxKind::CLASS_HEAD => {
                for g in c.children().filter(|g| g.kind() == SyntaxKind::GNU_ATTRIBUTE) {
                    add_gnu_attribute(&mut attrs, &g)
                }
            }
            _ => {}
        }
    }
    attrs
}
