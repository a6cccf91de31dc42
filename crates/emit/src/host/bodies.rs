//! Which function bodies the host file looks into (DESIGN decision 3: a
//! body stays a token range until someone needs it).
//!
//! The host file copies bodies through; only these rules of `host.rs` read
//! what is inside one, and each is a test on the body's tokens here:
//!
//! - kernel launches (`<<` `<`);
//! - GNU attributes: CUDA attributes are removed, extended lambdas rewritten;
//! - `__noinline__` (replaced by the GNU attribute);
//! - `= [`: a lambda initializing a variable gets a typedef line;
//! - names of namespace-scope kernels and `__device__`/`__constant__`/
//!   `__managed__` variables: managed uses are rewritten, and under
//!   `--device-c` host code naming them fills the host-reference arrays
//!   (and picks the module id's key).
//!
//! Each test is a superset of what its rule acts on: a body parsed for
//! nothing costs time, never output. The bodies a rule only moves or
//! replaces whole (kernels, device functions) need no parse: their range is
//! in the tree. A rule added to `host.rs` that reads inside bodies must add
//! its test here; the cudafe++ mode's test compares the host file of every
//! corpus program with and without all bodies parsed.

use cufront_cuda::attrs::{self, CudaAttrs};
use cufront_cuda::decl;
use cufront_cuda::spaces::{MemSpace, declarators, name_parts};
use cufront_cuda::walk;
use cufront_syntax::lexer::{self, LexOptions};
use cufront_syntax::{SyntaxKind as K, SyntaxNode};
use rustc_hash::FxHashSet;

/// What makes a body worth parsing for the host file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyNeeds {
    /// Last components of the entities that `refs::Refs` may record: every
    /// declaration whose own attributes make it a kernel or a device,
    /// constant or managed variable (a superset: redeclarations merge).
    names: FxHashSet<String>,
}

impl BodyNeeds {
    /// The needs of the unit whose declarations are `root` (bodies may be lazy).
    pub fn new(root: &SyntaxNode) -> BodyNeeds {
        let mut needs = BodyNeeds::default();
        for c in root.children() {
            needs.extend(BodyNeeds::of_item(&c));
        }
        needs
    }

    /// The needs that one top-level item (a child of the root) declares.
    pub fn of_item(item: &SyntaxNode) -> BodyNeeds {
        let mut names = FxHashSet::default();
        walk::walk_top_level(item, &mut |node, _| {
            if !matches!(node.kind(), K::SIMPLE_DECL | K::FUNCTION_DEF) {
                return;
            }
            for (specs, d) in declarators(node) {
                let a = attrs::of_declarator(specs.as_ref(), &d);
                if a == CudaAttrs::default() {
                    continue;
                }
                let wanted = if decl::function_declarator(&d).is_some() {
                    a.global
                } else {
                    matches!(MemSpace::from_attrs(&a), MemSpace::Device | MemSpace::Constant | MemSpace::Managed)
                };
                if wanted && let Some(name) = decl::name_node(&d) {
                    names.insert(name_parts(&name).1);
                }
            }
        });
        BodyNeeds { names }
    }

    /// Adds the needs of another item.
    pub fn extend(&mut self, other: BodyNeeds) {
        self.names.extend(other.names);
    }

    /// Whether some rule reads inside the body whose text is `body`
    /// (lexed with `lex`, the unit's options).
    pub fn needs(&self, body: &str, lex: LexOptions) -> bool {
        if !self.names.is_empty() && words(body).any(|w| self.names.contains(w)) {
            return true;
        }
        // Cheap byte tests first; the tokens decide.
        let launch = body.contains("<<");
        let attribute = body.contains("__attribute");
        let noinline = body.contains("__noinline__");
        let lambda = body.contains('[');
        if !(launch || attribute || noinline || lambda) {
            return false;
        }
        let lexed = lexer::lex(body, lex);
        let mut prev = K::EOF;
        for &k in lexed.kinds() {
            if k.is_trivia() {
                continue;
            }
            match (prev, k) {
                (_, K::ATTRIBUTE_KW | K::ATTRIBUTE2_KW | K::NOINLINE_KW) => return true,
                (K::SHL, K::L_ANGLE) | (K::EQ, K::L_BRACK) => return true,
                _ => {}
            }
            prev = k;
        }
        false
    }
}

/// The identifier-like words of a text (in comments and literals too: a
/// superset of its identifiers).
fn words(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_alphabetic() || b == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                return Some(&text[start..i]);
            }
            if b.is_ascii_digit() {
                // A number's letters (`0x1f`, `1e5f`) are no name.
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.') {
                    i += 1;
                }
                continue;
            }
            i += 1;
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn needs(decls: &str, body: &str) -> bool {
        let p = cufront_syntax::parse(decls, Default::default());
        BodyNeeds::new(&p.syntax_node()).needs(body, LexOptions::default())
    }

    #[test]
    fn bodies_that_rules_read() {
        let none = "int x;";
        assert!(!needs(none, "{ return a << b; }"));
        assert!(needs(none, "{ k<<<1, 1>>>(); }"));
        assert!(needs(none, "{ k<< <1, 1>>>(); }"));
        assert!(!needs(none, "{ a[1] = b[2]; }"));
        assert!(needs(none, "{ auto l = [] {}; }"));
        assert!(needs(none, "{ auto l = /* c */ [] {}; }"));
        assert!(needs(none, "{ struct S { __attribute__((device)) void f(); }; }"));
        assert!(!needs(none, "{ const char *s = \"__attribute__\"; }"));
        assert!(needs(none, "{ __noinline__ int f(); }"));
        let kernel = "__attribute__((global)) void kern(int); __attribute__((managed)) int m; __attribute__((device)) void dev();";
        assert!(needs(kernel, "{ auto p = &kern; }"));
        assert!(needs(kernel, "{ m = 1; }"));
        assert!(!needs(kernel, "{ dev(); kernel(); }"));
        assert!(!needs(kernel, "{ return 0x1fm; }"));
    }
}
