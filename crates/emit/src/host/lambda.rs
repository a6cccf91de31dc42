//! Extended lambdas in the host file (spec 30 §5).
//!
//! A `__device__` or `__host__ __device__` lambda written in host code is an
//! *extended* lambda: the host compiler must see an object whose type cicc's
//! stub can name, so the closure is replaced by an instance of a wrapper
//! template from the preamble (`preamble.rs`), keyed by a tag that encodes
//! the enclosing ("parent") function and the lambda's index in it:
//!
//! - device lambda: `__nv_dl_wrapper_t< TAG , <capture types>>( TAG {} , <captures>) `
//!   with the lambda itself under `#if 0` (its body is device code);
//! - host-device lambda: `__nv_hdl_create_wrapper_t< IsMutable, HasFuncPtrConv, TAG
//!   , <capture types>>::__nv_hdl_create_wrapper( <the lambda> , <captures>) `.
//!
//! The capture types go into the mangled names of the kernels instantiated
//! with the wrappers, so they must be the closure's own capture list, in its
//! order: explicit captures first, then what `[=]` captures implicitly (the
//! parent's local variables and parameters named in the body, in order of
//! first use, `this` for members). Names are resolved syntactically over the
//! body: block scopes, parameters, for/if/switch initializers, structured
//! bindings and the parameters and init-captures of nested lambdas shadow;
//! static locals, members and namespace-scope names are not captured.
//!
//! Also here: the preamble at the `__nv_lambda_preheader_injection` sentinel
//! (capture counts over the whole unit), `__device__` lambdas that are not
//! extended (`{ }` body, the real one under `#if 0`), the
//! `; typedef decltype(v) __T<n>;` lines after `auto` variables holding a
//! closure. The restrictions of spec 30 §5.3 are not decided here: they are
//! checks of the host pass (`cufront-check`'s `lambdas`), and the host file
//! is printed only for a unit without errors.

use std::collections::BTreeSet;

use cufront_cuda::attrs::{self, CudaAttrs};
use cufront_cuda::decl;
use cufront_cuda::walk;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextRange};
use rustc_hash::FxHashMap;

use super::{Plan, significant_range};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    Device,
    HostDevice,
}

fn space(a: &CudaAttrs) -> Option<Space> {
    match (a.host, a.device) {
        (_, false) => None,
        (false, true) => Some(Space::Device),
        (true, true) => Some(Space::HostDevice),
    }
}

fn body(l: &SyntaxNode) -> Option<SyntaxNode> {
    l.children().find(|c| c.kind() == K::COMPOUND_STMT)
}

fn declarator(l: &SyntaxNode) -> Option<SyntaxNode> {
    l.children().find(|c| c.kind() == K::LAMBDA_DECLARATOR)
}

fn has_specifier(l: &SyntaxNode, kind: K) -> bool {
    declarator(l).is_some_and(|d| d.children_with_tokens().any(|t| t.kind() == kind))
}

/// The text of a node on one line: trivia runs become one space,
/// GNU attributes are left out.
fn flat(n: &SyntaxNode, until: Option<u32>) -> String {
    let mut out = String::new();
    let mut space = false;
    for t in n.descendants_with_tokens().filter_map(|e| e.into_token()) {
        if until.is_some_and(|u| u32::from(t.text_range().start()) >= u) {
            break;
        }
        if t.kind().is_trivia() {
            space = !out.is_empty();
            continue;
        }
        if t.parent_ancestors().any(|a| a.kind() == K::GNU_ATTRIBUTE) {
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push_str(t.text());
    }
    out
}

/// One capture of the closure, as the wrapper lists it.
#[derive(Clone, Debug)]
struct Capture {
    ty: String,
    value: String,
}

fn var_capture(name: &str) -> Capture {
    Capture { ty: format!("typename __nvdl_remove_ref<decltype({name})>::type"), value: name.to_string() }
}

fn this_capture() -> Capture {
    Capture { ty: "decltype(this) const".into(), value: "this".into() }
}

/// The parent function, as the tag spells it.
struct Parent {
    /// `void (*)(int * out)`, `void (Obj::*)(void) const`.
    pointer_type: String,
    /// ` ::run`, ` ::NS::f`, ` ::tfun< T> `, `Obj::meth`.
    name: String,
    /// The class whose members `[=]` reaches through `this`.
    class: Option<SyntaxNode>,
}

/// Everything the rewrite of one unit needs.
struct Ctx {
    /// Per parent function (by start offset): extended lambdas seen so far.
    index: FxHashMap<u32, u32>,
    dl_counts: BTreeSet<usize>,
    hdl_counts: BTreeSet<usize>,
}

/// Rewrites the lambdas of the unit (`lambdas`: every `LAMBDA_EXPR`, in
/// document order); returns the capture counts of the extended lambdas'
/// wrappers (`dl`, `hdl`), which the preamble defines.
pub(super) fn rewrite(plan: &mut Plan<'_>, lambdas: &[SyntaxNode]) -> (BTreeSet<usize>, BTreeSet<usize>) {
    let mut cx = Ctx { index: FxHashMap::default(), dl_counts: BTreeSet::new(), hdl_counts: BTreeSet::new() };
    // Lambdas whose text is printed under `#if 0` (device lambdas): what is
    // inside them is device code.
    let mut hidden: Vec<TextRange> = Vec::new();
    for l in lambdas {
        let range = l.text_range();
        if plan.in_device_body(range) || hidden.iter().any(|h| h.contains_range(range)) {
            continue;
        }
        if let Some(sp) = space(&attrs::of_lambda(l)) {
            one_lambda(plan, &mut cx, l, sp);
            if sp == Space::Device {
                hidden.push(range);
            }
        } else {
            drop_attributes(plan, l);
        }
        typedef_line(plan, l);
    }
    (cx.dl_counts, cx.hdl_counts)
}

/// cudafe++ prints a lambda without the attributes of its declarator
/// (`[] __attribute__((always_inline)) (…) mutable [[gnu::cold]] {…}` as
/// `[]() mutable {…}`, found by differential testing): an `always_inline`
/// kept would let g++ inline a generic lambda's call operator that the real
/// build emits (CUTLASS's `CUTLASS_LAMBDA_FUNC_INLINE`, `nm` differs).
/// Attributes of its parameters stay.
fn drop_attributes(plan: &mut Plan<'_>, l: &SyntaxNode) {
    let own = l.children().chain(declarator(l).into_iter().flat_map(|d| d.children().collect::<Vec<_>>()));
    for a in own.filter(|c| matches!(c.kind(), K::GNU_ATTRIBUTE | K::ATTRIBUTE_LIST)) {
        plan.replace(significant_range(&a), "");
    }
}

/// The start of the `__nv_lambda_preheader_injection` declaration, where
/// the unit's preamble goes (printed when the items' plans are merged).
pub(super) fn sentinel(text: &str, root: &SyntaxNode) -> Option<u32> {
    let off = text.find("struct __attribute__((device_builtin)) __nv_lambda_preheader_injection")?;
    let tok = cufront_syntax::green::token_at(root, (off as u32).into())?;
    let decl = tok.parent_ancestors().find(|a| a.kind() == K::SIMPLE_DECL)?;
    Some(significant_range(&decl).start().into())
}

/// The function whose body holds `l`, if any (enclosing lambdas skipped).
fn parent_function(l: &SyntaxNode) -> Option<SyntaxNode> {
    for a in l.ancestors().skip(1) {
        match a.kind() {
            K::FUNCTION_DEF => return Some(a),
            K::MEMBER_LIST | K::SOURCE_FILE => return None,
            _ => {}
        }
    }
    None
}

fn one_lambda(plan: &mut Plan<'_>, cx: &mut Ctx, l: &SyntaxNode, sp: Space) {
    let Some(parent) = parent_function(l) else {
        // Not extended (namespace scope, a default member initializer).
        if sp == Space::Device {
            non_extended_device(plan, l);
        }
        return;
    };
    // Without `--extended-lambda` an annotated lambda is an error of the
    // host pass: there is no host file to print.
    if !plan.opts.extended_lambda {
        return;
    }
    let Some(p) = parent_info(plan, &parent) else {
        plan.unsupported(l, "an extended lambda in this kind of function is not supported yet");
        return;
    };
    let mutable = has_specifier(l, K::MUTABLE_KW);
    // Explicit captures.
    let mut captures: Vec<Capture> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut has_this = false;
    let mut default_copy = false;
    let mut default_ref = false;
    let mut failed = false;
    let caps: Vec<SyntaxNode> = l
        .children()
        .find(|c| c.kind() == K::LAMBDA_INTRODUCER)
        .map(|i| i.children().filter(|c| c.kind() == K::CAPTURE).collect())
        .unwrap_or_default();
    for c in &caps {
        let toks: Vec<K> = c.children_with_tokens().filter(|t| !t.kind().is_trivia()).map(|t| t.kind()).collect();
        let name_node = c.children().find(|n| n.kind() == K::NAME);
        match (toks.as_slice(), &name_node) {
            ([K::EQ], None) => default_copy = true,
            ([K::AMP], None) => default_ref = true,
            ([K::THIS_KW], _) => {
                has_this = true;
                captures.push(this_capture());
            }
            ([K::STAR, K::THIS_KW], _) => {
                has_this = true;
                captures.push(Capture {
                    ty: format!(
                        "typename __nvdl_remove_const<typename __nvdl_remove_ref<decltype(*this) > ::type> :: type{}",
                        if mutable { "" } else { " const" }
                    ),
                    value: "*this".into(),
                });
            }
            (_, Some(n)) => {
                let name = flat(n, None);
                if toks.first() == Some(&K::AMP) {
                    // An error of the host pass (20136) unless suppressed.
                    plan.unsupported(c, "by-reference captures of extended lambdas are not supported");
                    failed = true;
                    continue;
                }
                if toks.contains(&K::DOT3) {
                    plan.unsupported(c, "pack captures of extended lambdas are not supported yet");
                    failed = true;
                    continue;
                }
                let after_name: u32 = n.text_range().end().into();
                let init: Option<String> = match toks.get(1) {
                    Some(K::EQ) => {
                        let eq = c
                            .children_with_tokens()
                            .find(|t| t.kind() == K::EQ)
                            .map_or(after_name, |t| t.text_range().end().into());
                        Some(flat_from(c, eq))
                    }
                    Some(_) => Some(flat_from(c, after_name)),
                    None => None,
                };
                match init {
                    Some(e) => {
                        captures.push(Capture {
                            ty: format!(
                                "typename __nv_lambda_trait_remove_cv<typename __nvdl_remove_ref<decltype({e})>::type>::type"
                            ),
                            value: e,
                        });
                    }
                    None => captures.push(var_capture(&name)),
                }
                names.push(name);
            }
            _ => {
                plan.unsupported(c, "this lambda capture is not supported yet");
                failed = true;
            }
        }
    }
    if default_ref {
        // An error of the host pass (20136) unless suppressed.
        plan.unsupported(l, "by-reference captures of extended lambdas are not supported");
        failed = true;
    }
    if default_copy {
        for (_, imp) in implicit_captures(plan, l, &parent, p.class.as_ref()) {
            match imp {
                Implicit::This => {
                    if !has_this {
                        has_this = true;
                        captures.push(this_capture());
                    }
                }
                Implicit::Var(name) => {
                    if names.contains(&name) {
                        continue;
                    }
                    captures.push(var_capture(&name));
                    names.push(name);
                }
            }
        }
    }
    if failed {
        return;
    }
    let parent_start: u32 = parent.text_range().start().into();
    let n = {
        let i = cx.index.entry(parent_start).or_default();
        *i += 1;
        *i
    };
    let trailing = declarator(l)
        .and_then(|d| d.children().find(|c| c.kind() == K::TRAILING_RETURN_TYPE))
        .and_then(|t| t.children().find(|c| c.kind() == K::TYPE_ID))
        .map(|t| flat(&t, None));
    let tag = match (&trailing, sp) {
        (Some(r), Space::Device) => format!("__nv_dl_trailing_return_tag<{},(&{}),{r}, {n}>", p.pointer_type, p.name),
        _ => format!("__nv_dl_tag<{},(&{}),{n}>", p.pointer_type, p.name),
    };
    let types: String = captures.iter().map(|c| format!(", {}", c.ty)).collect();
    let values: String = captures.iter().map(|c| format!(", {}", c.value)).collect();
    let whole = significant_range(l);
    match sp {
        Space::Device => {
            cx.dl_counts.insert(captures.len());
            let Some(b) = body(l) else { return };
            let b = significant_range(&b);
            let head = head_without_attributes(plan, l, b.start().into());
            let text = format!(
                "__nv_dl_wrapper_t< {tag} {types}>( {tag} {{}} {values}) \n#if 0\n{head}\n{{ }}\n#if 0\n{}\n#endif\n#endif\n",
                plan.slice(b)
            );
            plan.replace(whole, text);
        }
        Space::HostDevice => {
            cx.hdl_counts.insert(captures.len());
            let fpc = captures.is_empty() && !default_copy;
            plan.insert(
                whole.start().into(),
                format!("__nv_hdl_create_wrapper_t< {mutable}, {fpc}, {tag} {types}>::__nv_hdl_create_wrapper( "),
            );
            plan.insert(whole.end().into(), format!(" {values}) "));
        }
    }
}

/// The text of a capture's initializer (from `from` to the capture's end).
fn flat_from(c: &SyntaxNode, from: u32) -> String {
    let mut out = String::new();
    let mut space = false;
    for t in c.descendants_with_tokens().filter_map(|e| e.into_token()) {
        if u32::from(t.text_range().start()) < from {
            continue;
        }
        if t.kind().is_trivia() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push_str(t.text());
    }
    out
}

/// The lambda's text before its body, annotations left out (it is printed
/// under `#if 0`, for the line numbers).
fn head_without_attributes(plan: &Plan<'_>, l: &SyntaxNode, end: u32) -> String {
    let start: u32 = significant_range(l).start().into();
    let mut out = String::new();
    let mut pos = start;
    for g in l.descendants().filter(|g| g.kind() == K::GNU_ATTRIBUTE && u32::from(g.text_range().end()) <= end) {
        let r = g.text_range();
        out.push_str(&plan.text()[pos as usize..usize::from(r.start())]);
        pos = r.end().into();
    }
    out.push_str(&plan.text()[pos as usize..end as usize]);
    out.trim_end().to_string()
}

/// A `__device__` lambda that is not extended: host code sees an empty body.
fn non_extended_device(plan: &mut Plan<'_>, l: &SyntaxNode) {
    if let Some(b) = body(l) {
        let b = significant_range(&b);
        let text = format!("\n{{ }}\n#if 0\n{}\n#endif\n", plan.slice(b));
        plan.replace(b, text);
    }
}

/// `auto v = <lambda>;` gets `typedef decltype(v) __T<n>;` after it, as
/// cudafe++ prints it (not inside templates).
fn typedef_line(plan: &mut Plan<'_>, l: &SyntaxNode) {
    let Some(init) = l.parent().filter(|p| p.kind() == K::EQUAL_INITIALIZER) else {
        return;
    };
    let Some(id) = init.parent().filter(|p| p.kind() == K::INIT_DECLARATOR) else {
        return;
    };
    let Some(list) = id.parent().filter(|p| p.kind() == K::INIT_DECLARATOR_LIST) else {
        return;
    };
    let Some(decl) = list.parent().filter(|p| p.kind() == K::SIMPLE_DECL) else {
        return;
    };
    if list.children().filter(|c| c.kind() == K::INIT_DECLARATOR).count() != 1 {
        return;
    }
    let specs = decl.children().find(|c| c.kind() == K::DECL_SPECIFIERS);
    if specs.as_ref().map(|s| flat(s, None)).as_deref() != Some("auto") {
        return;
    }
    let in_class = decl.parent().is_some_and(|p| matches!(p.kind(), K::MEMBER_LIST | K::MEMBER_DECL));
    if in_class || decl.ancestors().any(|a| a.kind() == K::TEMPLATE_DECL) {
        return;
    }
    let Some(name) = id
        .children()
        .find(|c| c.kind() == K::DECLARATOR)
        .and_then(|d| decl::name_node(&d))
        .filter(|n| n.kind() == K::NAME)
        .and_then(|n| walk::last_component(&n))
    else {
        return;
    };
    let Some(semi) = decl.children_with_tokens().filter(|t| t.kind() == K::SEMI).last() else {
        return;
    };
    plan.insert(semi.text_range().end().into(), format!(" typedef decltype({name}) __T{};", plan.next_t));
    plan.next_t += 1;
}

const NOT_IN_TYPE: &[K] = &[
    K::STATIC_KW,
    K::INLINE_KW,
    K::INLINE2_KW,
    K::INLINE3_KW,
    K::VIRTUAL_KW,
    K::EXPLICIT_KW,
    K::CONSTEXPR_KW,
    K::CONSTEVAL_KW,
    K::CONSTINIT_KW,
    K::EXTERN_KW,
    K::FRIEND_KW,
    K::THREAD_LOCAL_KW,
    K::REGISTER_KW,
];

/// The parent function's pointer type and name for the tag.
fn parent_info(plan: &Plan<'_>, f: &SyntaxNode) -> Option<Parent> {
    let d = f.children().find(|c| c.kind() == K::DECLARATOR)?;
    let fd = decl::function_declarator(&d)?;
    let name = decl::name_node(&d)
        .or_else(|| d.children().find(|c| matches!(c.kind(), K::OPERATOR_NAME | K::CONVERSION_NAME)))?;
    let specs = f.children().find(|c| c.kind() == K::DECL_SPECIFIERS);
    // Return type: the specifiers that are types, and the declarator's
    // pointer operators (`int *f()`).
    let mut ret = String::new();
    if let Some(s) = &specs {
        for t in s.descendants_with_tokens().filter_map(|e| e.into_token()) {
            if t.kind().is_trivia()
                || NOT_IN_TYPE.contains(&t.kind())
                || t.parent_ancestors().any(|a| {
                    matches!(a.kind(), K::GNU_ATTRIBUTE | K::ATTRIBUTE_LIST | K::ALIGNAS_SPECIFIER | K::DECLSPEC)
                })
            {
                continue;
            }
            if !ret.is_empty() && needs_space(&ret, t.text()) {
                ret.push(' ');
            }
            ret.push_str(t.text());
        }
    }
    for p in d.children().filter(|c| c.kind() == K::PTR_OPERATOR) {
        ret.push(' ');
        ret.push_str(&flat(&p, None));
    }
    let trailing = fd
        .children()
        .find(|c| c.kind() == K::TRAILING_RETURN_TYPE)
        .and_then(|t| t.children().find(|c| c.kind() == K::TYPE_ID))
        .map(|t| flat(&t, None));
    if let Some(t) = trailing {
        ret = t;
    }
    // Parameters, without default arguments.
    let mut params: Vec<String> = decl::params(&fd).iter().map(param_text).collect();
    if fd
        .children()
        .find(|c| c.kind() == K::PARAM_LIST)
        .is_some_and(|l| l.children_with_tokens().any(|t| t.kind() == K::DOT3))
    {
        params.push("...".into());
    }
    let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
    let mut quals = String::new();
    for t in fd.children_with_tokens() {
        match t.kind() {
            K::CONST_KW | K::VOLATILE_KW => {
                quals.push(' ');
                quals.push_str(&t.to_string());
            }
            K::REF_QUALIFIER | K::NOEXCEPT_SPEC => {
                if let Some(n) = t.as_node() {
                    quals.push(' ');
                    quals.push_str(&flat(n, None));
                }
            }
            _ => {}
        }
    }
    let (qualifiers, simple) = split_name(&name)?;
    let in_class = f
        .parent()
        .filter(|p| matches!(p.kind(), K::MEMBER_LIST | K::MEMBER_DECL | K::TEMPLATE_DECL))
        .and_then(|_| f.ancestors().skip(1).find(|a| a.kind() != K::TEMPLATE_DECL && a.kind() != K::MEMBER_DECL))
        .filter(|a| a.kind() == K::MEMBER_LIST)
        .and_then(|m| m.parent())
        .filter(|c| c.kind() == K::CLASS_SPECIFIER);
    let friend = decl::has_keyword(specs.as_ref(), &[K::FRIEND_KW]);
    let is_static = decl::has_keyword(specs.as_ref(), &[K::STATIC_KW]);
    // Template arguments of a function template (not of a member of a class
    // template defined out of class, whose `template <...>` is the class's).
    let template_args = f
        .parent()
        .filter(|p| p.kind() == K::TEMPLATE_DECL && (in_class.is_some() || qualifiers.is_empty()))
        .and_then(|t| t.children().find(|c| c.kind() == K::TEMPLATE_PARAM_LIST))
        .map(|l| template_param_names(&l))
        .map(|names| format!("< {}> ", names.join(", ")))
        .unwrap_or_default();
    let (class_text, class_node) = match (&in_class, friend) {
        (Some(c), false) => (walk::class_name(c), Some(c.clone())),
        _ if !qualifiers.is_empty() && !friend => {
            let last = qualifiers.rsplit("::").next().unwrap_or("").trim().to_string();
            let base = last.split('<').next().unwrap_or("").trim().to_string();
            (Some(qualifiers.clone()), find_class(plan, &base))
        }
        _ => (None, None),
    };
    // A qualified name that names a namespace, not a class.
    let (class_text, class_node) = match (&class_text, &class_node, &in_class) {
        (Some(_), None, None) if !is_class_qualifier(plan, &qualifiers) => (None, None),
        _ => (class_text, class_node),
    };
    let (pointer_type, qn) = match &class_text {
        Some(cls) if !is_static => {
            (format!("{ret} ({cls}::*)({params}){quals}"), format!("{cls}::{simple}{template_args}"))
        }
        Some(cls) => (format!("{ret} (*)({params}){quals}"), format!("{cls}::{simple}{template_args}")),
        None => {
            let mut path: Vec<String> = namespaces(f);
            if !qualifiers.is_empty() {
                path.push(qualifiers.clone());
            }
            let mut qn = String::from(" ::");
            for p in &path {
                qn.push_str(p);
                qn.push_str("::");
            }
            qn.push_str(&simple);
            qn.push_str(&template_args);
            (format!("{ret} (*)({params}){quals}"), qn)
        }
    };
    Some(Parent { pointer_type, name: qn, class: class_node })
}

fn needs_space(prev: &str, next: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    prev.chars().last().is_some_and(word) && next.starts_with(word) || prev.ends_with('>') && next.starts_with('>')
}

/// A parameter without its default argument and attributes.
fn param_text(p: &SyntaxNode) -> String {
    let end = p
        .children()
        .filter(|c| matches!(c.kind(), K::DECL_SPECIFIERS | K::DECLARATOR | K::ABSTRACT_DECLARATOR))
        .map(|c| u32::from(c.text_range().end()))
        .max();
    flat(p, end)
}

/// The qualifier text of a declarator-id (`Obj`, `NS::Cls< T>`) and its last component.
fn split_name(name: &SyntaxNode) -> Option<(String, String)> {
    let text = flat(name, None);
    if matches!(name.kind(), K::OPERATOR_NAME | K::CONVERSION_NAME) {
        return Some((String::new(), cufront_cuda::spaces::compact_text(name)));
    }
    let (_, simple) = cufront_cuda::spaces::name_parts(name);
    if simple.is_empty() {
        return None;
    }
    if name.kind() != K::QUALIFIED_NAME {
        return Some((String::new(), simple));
    }
    let cut = text[..text.len() - simple.len().min(text.len())].rfind("::")?;
    Some((text[..cut].trim().to_string(), simple))
}

/// The names of a template parameter list (`T`, `Ts...`).
fn template_param_names(l: &SyntaxNode) -> Vec<String> {
    l.children()
        .filter(|p| {
            matches!(
                p.kind(),
                K::TYPE_TEMPLATE_PARAM | K::NON_TYPE_TEMPLATE_PARAM | K::TEMPLATE_TEMPLATE_PARAM | K::PARAM
            )
        })
        .map(|p| {
            let pack = p.descendants_with_tokens().take_while(|t| t.kind() != K::EQ).any(|t| t.kind() == K::DOT3);
            let name = match p.kind() {
                K::TYPE_TEMPLATE_PARAM | K::TEMPLATE_TEMPLATE_PARAM => {
                    p.children().find(|c| c.kind() == K::NAME).and_then(|n| walk::last_component(&n))
                }
                _ => {
                    let param = if p.kind() == K::PARAM {
                        Some(p.clone())
                    } else {
                        p.children().find(|c| c.kind() == K::PARAM)
                    };
                    param
                        .and_then(|pp| pp.children().find(|c| c.kind() == K::DECLARATOR))
                        .and_then(|dd| decl::name_node(&dd))
                        .and_then(|n| walk::last_component(&n))
                }
            }
            .unwrap_or_else(|| "__T".into());
            if pack { format!("{name}...") } else { name }
        })
        .collect()
}

/// The named namespaces around a node, outermost first.
fn namespaces(n: &SyntaxNode) -> Vec<String> {
    let mut out = Vec::new();
    for a in n.ancestors().filter(|a| a.kind() == K::NAMESPACE_DEF) {
        // `namespace a::b {` has one NAME per component.
        let names: Vec<String> = a
            .children()
            .filter(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME))
            .flat_map(|n| walk::identifiers(&n))
            .collect();
        out.extend(names.into_iter().rev());
    }
    out.reverse();
    out
}

/// Whether the qualifier of an out-of-class definition names a class (a
/// class of that name is defined in the unit) rather than a namespace.
fn is_class_qualifier(plan: &Plan<'_>, qualifiers: &str) -> bool {
    let last = qualifiers.rsplit("::").next().unwrap_or("").trim();
    let base = last.split('<').next().unwrap_or("").trim();
    find_class(plan, base).is_some()
}

/// The definition of the class `name` (for out-of-class member definitions
/// and base classes): the unit's first, maybe in another item.
fn find_class(plan: &Plan<'_>, name: &str) -> Option<SyntaxNode> {
    (plan.classes)(name)
}

/// What `[=]` captures implicitly.
enum Implicit {
    This,
    Var(String),
}

/// The implicit captures of `l`, in order of first use, with where each is used.
fn implicit_captures(
    plan: &Plan<'_>,
    l: &SyntaxNode,
    parent: &SyntaxNode,
    class: Option<&SyntaxNode>,
) -> Vec<(TextRange, Implicit)> {
    let mut out: Vec<(TextRange, Implicit)> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut this_seen = false;
    let Some(b) = body(l) else { return out };
    for e in b.descendants_with_tokens() {
        match e {
            rowan::NodeOrToken::Token(t)
                if t.kind() == K::THIS_KW
                    && !this_seen
                    && !in_local_class(&t.parent().unwrap_or_else(|| b.clone()), &b) =>
            {
                this_seen = true;
                out.push((t.text_range(), Implicit::This));
            }
            rowan::NodeOrToken::Node(n) if n.kind() == K::ID_EXPR => {
                let Some(name) = unqualified_name(&n) else {
                    continue;
                };
                if unevaluated(&n, &b) || in_local_class(&n, &b) {
                    continue;
                }
                match resolve(&n, &name, l, parent) {
                    Res::Inner => {}
                    Res::Outer { captured: true } => {
                        if !seen.contains(&name) {
                            seen.push(name.clone());
                            out.push((significant_range(&n), Implicit::Var(name)));
                        }
                    }
                    Res::Outer { captured: false } => {}
                    Res::NotLocal => {
                        if !this_seen && class.is_some_and(|c| is_nonstatic_member(plan, c, &name, 0)) {
                            this_seen = true;
                            out.push((significant_range(&n), Implicit::This));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The name of an unqualified id-expression (`x`, not `a::x`, `x<T>`, `x.y`'s `y`).
fn unqualified_name(id: &SyntaxNode) -> Option<String> {
    let first = id.children().next()?;
    if first.kind() != K::NAME_REF {
        return None;
    }
    if let Some(p) = id.parent()
        && p.kind() == K::MEMBER_EXPR
        && p.children().next().as_ref() != Some(id)
    {
        return None;
    }
    walk::identifiers(&first).into_iter().next()
}

/// Inside `sizeof`, `alignof`, `decltype`, `noexcept` (up to the body).
fn unevaluated(n: &SyntaxNode, stop: &SyntaxNode) -> bool {
    n.ancestors().take_while(|a| a != stop).any(|a| {
        matches!(
            a.kind(),
            K::SIZEOF_EXPR | K::ALIGNOF_EXPR | K::DECLTYPE_SPECIFIER | K::NOEXCEPT_EXPR | K::SIZEOF_PACK_EXPR
        )
    })
}

fn in_local_class(n: &SyntaxNode, stop: &SyntaxNode) -> bool {
    n.ancestors().take_while(|a| a != stop).any(|a| a.kind() == K::MEMBER_LIST)
}

enum Res {
    /// Declared inside the lambda (a local, a parameter, an init-capture).
    Inner,
    /// A local or parameter of the parent function or of an enclosing lambda;
    /// `captured`: an automatic variable (not static, not a type or function).
    Outer { captured: bool },
    /// A member, a namespace-scope name, or not found.
    NotLocal,
}

/// Where the unqualified `name` used at `use_` is declared.
fn resolve(use_: &SyntaxNode, name: &str, l: &SyntaxNode, parent: &SyntaxNode) -> Res {
    let lr = l.text_range();
    let mut child = use_.clone();
    for a in use_.ancestors().skip(1) {
        if &a == parent {
            let d = a.children().find(|c| c.kind() == K::DECLARATOR);
            let declared = d
                .and_then(|d| decl::function_declarator(&d))
                .is_some_and(|f| decl::params(&f).iter().any(|p| declares(p, name).is_some()));
            return if declared { Res::Outer { captured: true } } else { Res::NotLocal };
        }
        if matches!(a.kind(), K::MEMBER_LIST | K::CLASS_SPECIFIER) {
            return Res::NotLocal;
        }
        for s in a.children() {
            if s.text_range().start() >= child.text_range().start() {
                break;
            }
            if let Some(automatic) = declares(&s, name) {
                return if lr.contains_range(a.text_range()) { Res::Inner } else { Res::Outer { captured: automatic } };
            }
        }
        child = a;
    }
    Res::NotLocal
}

/// Whether `s` declares `name` in the scope it belongs to (nested scopes
/// and initializers are not entered): `Some(true)` for an automatic
/// variable, `Some(false)` for a static one, a typedef or a function.
fn declares(s: &SyntaxNode, name: &str) -> Option<bool> {
    let mut stack = vec![s.clone()];
    while let Some(x) = stack.pop() {
        match x.kind() {
            K::COMPOUND_STMT
            | K::FUNCTION_BODY
            | K::LAZY_BODY
            | K::LAMBDA_EXPR
            | K::MEMBER_LIST
            | K::EQUAL_INITIALIZER
            | K::INITIALIZER
            | K::INIT_LIST
            | K::TEMPLATE_ARG_LIST
            | K::ENUMERATOR_LIST
            | K::CLASS_SPECIFIER => continue,
            K::DECLARATOR => {
                if let Some(nn) = decl::name_node(&x)
                    && nn.kind() == K::NAME
                    && walk::last_component(&nn).as_deref() == Some(name)
                {
                    let function = decl::function_declarator(&x).is_some();
                    return Some(!function && automatic(&x));
                }
            }
            K::STRUCTURED_BINDING => {
                if x.children()
                    .filter(|c| c.kind() == K::NAME)
                    .any(|c| walk::identifiers(&c).first().map(String::as_str) == Some(name))
                {
                    return Some(automatic(&x));
                }
                continue;
            }
            K::CAPTURE => {
                // Only an init-capture declares a new name.
                let init = x
                    .children_with_tokens()
                    .any(|t| matches!(t.kind(), K::EQ | K::L_PAREN) || t.kind() == K::INIT_LIST);
                if init && walk::identifiers(&x).first().map(String::as_str) == Some(name) {
                    return Some(true);
                }
                continue;
            }
            _ => {}
        }
        stack.extend(x.children());
    }
    None
}

/// Whether the variable a declarator declares has automatic storage.
fn automatic(d: &SyntaxNode) -> bool {
    let Some(decl) = d.ancestors().find(|a| matches!(a.kind(), K::SIMPLE_DECL | K::PARAM | K::CAPTURE)) else {
        return true;
    };
    if decl.kind() != K::SIMPLE_DECL {
        return true;
    }
    let specs = decl.children().find(|c| c.kind() == K::DECL_SPECIFIERS);
    !decl::has_keyword(specs.as_ref(), &[K::STATIC_KW, K::THREAD_LOCAL_KW, K::EXTERN_KW, K::TYPEDEF_KW])
}

/// Whether the class, or a base class defined in the unit, declares a
/// non-static data member or member function `name` (then `[=]` reaches it
/// through `this`).
fn is_nonstatic_member(plan: &Plan<'_>, class: &SyntaxNode, name: &str, depth: u32) -> bool {
    let Some(list) = class.children().find(|c| c.kind() == K::MEMBER_LIST) else {
        return false;
    };
    if list.children().any(|m| member_declares(&m, name)) {
        return true;
    }
    if depth >= 8 {
        return false;
    }
    let bases = class
        .children()
        .filter(|c| c.kind() == K::BASE_CLAUSE)
        .flat_map(|b| b.children().filter(|s| s.kind() == K::BASE_SPECIFIER).collect::<Vec<_>>());
    for b in bases {
        let Some(base) = b
            .children()
            .find(|c| matches!(c.kind(), K::NAME_REF | K::NAME | K::TEMPLATE_ID | K::QUALIFIED_NAME))
            .and_then(|n| walk::last_component(&n))
        else {
            continue;
        };
        if let Some(c) = find_class(plan, &base)
            && is_nonstatic_member(plan, &c, name, depth + 1)
        {
            return true;
        }
    }
    false
}

fn member_declares(m: &SyntaxNode, name: &str) -> bool {
    match m.kind() {
        K::SIMPLE_DECL | K::FUNCTION_DEF => {
            let specs = m.children().find(|c| c.kind() == K::DECL_SPECIFIERS);
            if decl::has_keyword(specs.as_ref(), &[K::STATIC_KW, K::TYPEDEF_KW, K::FRIEND_KW]) {
                return false;
            }
            cufront_cuda::spaces::declarators(m).iter().any(|(_, d)| {
                decl::name_node(d)
                    .is_some_and(|nn| nn.kind() == K::NAME && walk::last_component(&nn).as_deref() == Some(name))
            })
        }
        K::MEMBER_DECL | K::TEMPLATE_DECL => m.children().any(|c| member_declares(&c, name)),
        _ => false,
    }
}
