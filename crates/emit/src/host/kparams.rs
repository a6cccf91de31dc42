//! The parameters of a kernel template's `__wrapper__device_stub_` function
//! and forwarding definition (spec 30 §2.4), printed from the declarator
//! syntax, whatever its shape.
//!
//! A declarator is read from its declarator-id outwards: the operator that
//! binds closest to the name (a suffix `[..]`/`(..)` before a prefix `*`/`&`
//! at the same nesting level) tells whether the parameter is declared as a
//! reference, an array or a function. The wrapper takes every other
//! parameter by lvalue reference (`T *&p`, `int (*&fp)(int)`,
//! `int (T::*&pm)`, `Ts &...ts`); references, arrays and functions are
//! printed as declared (`T (&a)[4]`, `T a[3]`, `int g(int)`), as cudafe++
//! does. Unnamed parameters get `__T<n>` names from the unit's counter, at
//! the place the declarator-id would take (`int (*__T0)(int)`, `int __T1[3]`).
//! Default arguments stay on the forwarding definition and leave the wrapper.
//!
//! Unnamed template parameters are named the same way in the forwarding
//! definition's parameter list (which passes them on); the wrapper keeps
//! the list as written.

use cufront_cuda::attrs::{attribute_name, is_cuda_only};
use cufront_cuda::walk;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, SyntaxToken};

/// One parameter: as the wrapper declares it, as the forwarding definition
/// declares it, and as the forwarding call passes it.
pub(super) struct KernelParam {
    pub wrapper: String,
    pub forward: String,
    pub arg: String,
}

/// What the declarator-id of a parameter binds to first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Binds {
    /// Nothing: the type is the specifiers' (`T v`).
    Plain,
    /// `*` or `C::*`.
    Pointer,
    Reference,
    Array,
    Function,
}

/// Where the declarator-id is (or would be) and what binds to it.
struct Site {
    /// Where the wrapper's `&` goes: before the name, or before the `...`
    /// of a pack.
    amp_at: u32,
    /// Where a generated name goes (after the `...` of a pack).
    name_at: u32,
    binds: Binds,
    name: Option<String>,
    pack: bool,
}

fn is_declarator(k: K) -> bool {
    matches!(k, K::DECLARATOR | K::ABSTRACT_DECLARATOR)
}

fn end(n: &SyntaxNode) -> u32 {
    super::significant_range(n).end().into()
}

fn start(n: &SyntaxNode) -> u32 {
    super::significant_range(n).start().into()
}

/// The declarator-id site of a (possibly abstract) declarator.
fn site(d: &SyntaxNode) -> Site {
    let mut ptr: Option<SyntaxNode> = None;
    let mut suffix: Option<SyntaxNode> = None;
    let mut inner: Option<Site> = None;
    let mut name: Option<SyntaxNode> = None;
    let mut dot3: Option<SyntaxToken> = None;
    for c in d.children_with_tokens() {
        match c {
            rowan::NodeOrToken::Token(t) if t.kind() == K::DOT3 => dot3 = Some(t),
            rowan::NodeOrToken::Token(_) => {}
            rowan::NodeOrToken::Node(n) => match n.kind() {
                K::PTR_OPERATOR if name.is_none() && inner.is_none() => ptr = Some(n),
                K::NAME | K::QUALIFIED_NAME | K::TEMPLATE_ID => name = Some(n),
                K::PAREN_DECLARATOR => inner = n.children().find(|c| is_declarator(c.kind())).map(|i| site(&i)),
                K::ARRAY_DECLARATOR | K::FUNCTION_DECLARATOR if suffix.is_none() => suffix = Some(n),
                _ => {}
            },
        }
    }
    let here = if let Some(s) = &suffix {
        if s.kind() == K::ARRAY_DECLARATOR { Binds::Array } else { Binds::Function }
    } else if let Some(p) = &ptr {
        if p.children_with_tokens().any(|t| matches!(t.kind(), K::AMP | K::AMP2)) {
            Binds::Reference
        } else {
            Binds::Pointer
        }
    } else {
        Binds::Plain
    };
    if let Some(mut i) = inner {
        if i.binds == Binds::Plain {
            i.binds = here;
        }
        i.pack |= dot3.is_some();
        return i;
    }
    let (amp_at, name_at) = match (&name, &dot3) {
        (Some(n), Some(t)) => (t.text_range().start().into(), start(n)),
        (Some(n), None) => (start(n), start(n)),
        (None, Some(t)) => (t.text_range().start().into(), t.text_range().end().into()),
        (None, None) => {
            let at = match (&ptr, &suffix) {
                (Some(p), _) => end(p),
                (None, Some(s)) => start(s),
                (None, None) => end(d),
            };
            (at, at)
        }
    };
    Site { amp_at, name_at, binds: here, name: name.and_then(|n| walk::last_component(&n)), pack: dot3.is_some() }
}

/// Prints the tokens of `n` that start before `upto`, CUDA-only attributes
/// left out, with `inserts` (offset, text) placed before the first token at
/// or after their offset. Words keep a space between them; other tokens
/// keep one where the source had trivia.
fn print(n: &SyntaxNode, upto: u32, inserts: &[(u32, String)]) -> String {
    let mut out = String::new();
    let mut pending: Vec<&(u32, String)> = inserts.iter().collect();
    pending.sort_by_key(|(at, _)| *at);
    let mut pending = pending.into_iter().peekable();
    let mut space = false;
    let push = |out: &mut String, text: &str, space: bool| {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        if !out.is_empty() && (space || (out.ends_with(word) && text.starts_with(word))) && !out.ends_with(' ') {
            out.push(' ');
        }
        out.push_str(text);
    };
    for t in n.descendants_with_tokens().filter_map(|e| e.into_token()) {
        let at: u32 = t.text_range().start().into();
        if at >= upto {
            break;
        }
        if t.kind().is_trivia() {
            space = true;
            continue;
        }
        if t.parent_ancestors().any(|a| a.kind() == K::GNU_ATTRIBUTE && cuda_only(&a)) {
            continue;
        }
        while let Some((_, text)) = pending.next_if(|(o, _)| *o <= at) {
            let sp = space || spaced_amp(&out, text);
            push(&mut out, text, sp);
            space = false;
        }
        push(&mut out, t.text(), space);
        space = false;
    }
    for (_, text) in pending {
        let sp = space || spaced_amp(&out, text);
        push(&mut out, text, sp);
        space = false;
    }
    out
}

/// `T &v`, but `T *&p` and `int (*&f)(int)`.
fn spaced_amp(out: &str, text: &str) -> bool {
    text == "&" && !out.ends_with(['*', '&', '(', ' '])
}

fn cuda_only(gnu: &SyntaxNode) -> bool {
    let names: Vec<Option<String>> =
        gnu.children().filter(|c| c.kind() == K::ATTRIBUTE).map(|a| attribute_name(&a)).collect();
    !names.is_empty() && names.iter().all(|n| n.as_deref().is_some_and(is_cuda_only))
}

/// The site of a `PARAM` (function or non-type template parameter).
fn param_site(p: &SyntaxNode) -> Site {
    match p.children().find(|c| is_declarator(c.kind())) {
        Some(d) => site(&d),
        None => {
            let at = p.children().find(|c| c.kind() == K::DECL_SPECIFIERS).map_or(end(p), |s| end(&s));
            Site { amp_at: at, name_at: at, binds: Binds::Plain, name: None, pack: false }
        }
    }
}

/// The end of a parameter's type: a default argument comes after it.
fn type_end(p: &SyntaxNode) -> u32 {
    p.children()
        .filter(|c| matches!(c.kind(), K::DECL_SPECIFIERS | K::DECLARATOR | K::ABSTRACT_DECLARATOR))
        .map(|c| end(&c))
        .max()
        .unwrap_or_else(|| end(p))
}

/// The function parameters of a kernel template (`params` from
/// `decl::params`); unnamed ones take names from `next_t`.
pub(super) fn kernel_params(params: &[SyntaxNode], next_t: &mut u32) -> Vec<KernelParam> {
    let mut out = Vec::new();
    for p in params {
        // `(void)`: no parameters.
        if params.len() == 1
            && p.children().all(|c| c.kind() == K::DECL_SPECIFIERS)
            && p.text().to_string().trim() == "void"
        {
            break;
        }
        let s = param_site(p);
        let mut named = Vec::new();
        let name = match &s.name {
            Some(n) => n.clone(),
            None => {
                let n = format!("__T{next_t}");
                *next_t += 1;
                named.push((s.name_at, n.clone()));
                n
            }
        };
        let forward = print(p, u32::MAX, &named);
        // The `&` goes before a generated name at the same place.
        let mut inserts = Vec::new();
        if matches!(s.binds, Binds::Plain | Binds::Pointer) {
            inserts.push((s.amp_at, "&".to_string()));
        }
        inserts.extend(named);
        let wrapper = print(p, type_end(p), &inserts);
        let arg = if s.pack { format!("{name}...") } else { name };
        out.push(KernelParam { wrapper, forward, arg });
    }
    out
}

/// A kernel template's parameter list for the forwarding definition
/// (unnamed parameters named from `next_t`) and the arguments that pass
/// them on (`T,N,Ts...`).
pub(super) fn template_params(list: &SyntaxNode, next_t: &mut u32) -> (String, Vec<String>) {
    let mut inserts = Vec::new();
    let mut args = Vec::new();
    for p in list.children() {
        let (name, pack) = match p.kind() {
            K::TYPE_TEMPLATE_PARAM | K::TEMPLATE_TEMPLATE_PARAM => {
                if p.kind() == K::TEMPLATE_TEMPLATE_PARAM
                    && let Some(inner) = p.children().find(|c| c.kind() == K::TEMPLATE_PARAM_LIST)
                {
                    name_unnamed(&inner, next_t, &mut inserts);
                }
                let pack = p.children_with_tokens().any(|t| t.kind() == K::DOT3);
                let name = match p.children().find(|c| c.kind() == K::NAME) {
                    Some(n) => walk::last_component(&n),
                    None => unnamed_type_param(&p, next_t, &mut inserts),
                };
                (name, pack)
            }
            K::NON_TYPE_TEMPLATE_PARAM | K::PARAM => {
                let Some(param) =
                    (if p.kind() == K::PARAM { Some(p.clone()) } else { p.children().find(|c| c.kind() == K::PARAM) })
                else {
                    continue;
                };
                let s = param_site(&param);
                let name = s.name.clone().or_else(|| {
                    let n = format!("__T{next_t}");
                    *next_t += 1;
                    inserts.push((s.name_at, n.clone()));
                    Some(n)
                });
                (name, s.pack)
            }
            _ => continue,
        };
        if let Some(n) = name {
            args.push(if pack { format!("{n}...") } else { n });
        }
    }
    (format!("template{}", print(list, u32::MAX, &inserts)), args)
}

/// Names the unnamed parameters of a template template parameter's list.
fn name_unnamed(list: &SyntaxNode, next_t: &mut u32, inserts: &mut Vec<(u32, String)>) {
    for p in list.children() {
        match p.kind() {
            K::TYPE_TEMPLATE_PARAM | K::TEMPLATE_TEMPLATE_PARAM if !p.children().any(|c| c.kind() == K::NAME) => {
                unnamed_type_param(&p, next_t, inserts);
            }
            K::PARAM => {
                let s = param_site(&p);
                if s.name.is_none() {
                    inserts.push((s.name_at, format!("__T{next_t}")));
                    *next_t += 1;
                }
            }
            _ => {}
        }
    }
}

/// Names an unnamed type (or template template) parameter after its
/// `class`/`typename`/`...`.
fn unnamed_type_param(p: &SyntaxNode, next_t: &mut u32, inserts: &mut Vec<(u32, String)>) -> Option<String> {
    let at = p
        .children_with_tokens()
        .filter(|t| matches!(t.kind(), K::CLASS_KW | K::TYPENAME_KW | K::DOT3))
        .last()
        .map(|t| u32::from(t.text_range().end()))?;
    let n = format!("__T{next_t}");
    *next_t += 1;
    inserts.push((at, n.clone()));
    Some(n)
}
