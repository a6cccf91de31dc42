//! The host file (spec 30 §2, spec 20 §9): the preprocessed input with an
//! edit plan applied (DESIGN decision 4). Host code passes through as
//! written; each edit implements one rule:
//!
//! - header pragmas and the managed-runtime block (§2.1), `crt/host_runtime.h`
//!   after the global `size_t` typedef (§2.3), the trailer that includes the
//!   stub file (§2.9);
//! - non-template kernels: declaration only, body under `#if 0` (§2.4);
//!   template kernels: the `__wrapper__device_stub_` template and a
//!   forwarding definition, which cicc's stub specializes;
//! - device-only functions: a dummy body, the real one under `#if 0` (§2.5);
//! - `__device__`/`__constant__`/`__shared__` variables: host shadows (§2.6);
//! - anonymous namespaces named `_GLOBAL__N_<module id>` (§2.7), so that the
//!   stub can name their kernels and variables;
//! - launches `k<<<c>>>(a)` → `((__cudaPushCallConfiguration(c)) ? (void)0 : k(a))`;
//! - CUDA attributes removed, `__device_builtin__` types under `#if 0`
//!   (host_runtime.h supplies them again), `#pragma nv_*` lines blanked.
//!
//! After an edit that changes the line structure, a line directive puts the
//! host compiler back on the original line (and column, with spaces).
//!
//! - extended lambdas (§5, `host/lambda.rs`): wrapper objects keyed by the
//!   parent function, the preamble (`host/preamble.rs`) at the
//!   `__nv_lambda_preheader_injection` sentinel. The §5.3 restrictions are
//!   checks of the host pass (`cufront-check`'s `lambdas`): the host file
//!   is printed only for a unit without errors.
//!
//! Constructs not supported yet are reported ([`HostFile::unsupported`]),
//! never printed wrong.

use cufront_cuda::attrs::{self, is_cuda_only};
use cufront_cuda::decl;
use cufront_cuda::spaces::{ExecSpace, MemSpace, declarators, name_parts};
use cufront_cuda::walk::{self, Ctx};
use cufront_syntax::green;
use cufront_syntax::source_map::SourceMap;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextRange, TextSize};

use crate::Sema;

mod array_bound;
pub mod bodies;
mod find;
mod href;
mod kparams;
mod lambda;
mod preamble;
mod queries;
pub(crate) mod refs;

pub use preamble::preamble;
pub use queries::host_file;

use refs::{Kind, Refs};

/// The options of the cudafe++ command line that shape the host file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HostOptions {
    /// `--gnu_version`; `None` behaves as a recent gcc.
    pub gnu_version: Option<u32>,
    pub static_host_stub: bool,
    pub extended_lambda: bool,
    /// C++17 or later (the lambda preamble's `noexcept` traits).
    pub cxx17: bool,
    pub device_hidden_visibility: bool,
    /// `--device-c` (relocatable device code).
    pub device_c: bool,
    /// `--debug_mode` (-G).
    pub debug_mode: bool,
    /// `--stub_file_name`, copied byte for byte into the trailer.
    pub stub_file_name: String,
    pub module_id: String,
    /// Parse every function body, not only those a rule looks into
    /// (`bodies::BodyNeeds`): the reference the tests compare with.
    pub all_bodies: bool,
}

/// The host file, or why it cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostFile {
    pub text: String,
    /// Constructs cufront cannot translate yet, with where they are.
    pub unsupported: Vec<(TextRange, String)>,
}

/// An edit of the unit's text, placed (offsets in the unit).
#[derive(Clone, Copy, Debug)]
struct Placed<'a> {
    start: u32,
    end: u32,
    text: &'a str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Edit {
    start: u32,
    end: u32,
    text: String,
}

struct Plan<'a> {
    /// The item's tree; its text is made on first use (most items need none).
    root: &'a SyntaxNode,
    text: std::cell::OnceCell<String>,
    opts: &'a HostOptions,
    edits: Vec<Edit>,
    unsupported: Vec<(TextRange, String)>,
    anon_ns: String,
    /// Bodies of kernels and device functions: not host code.
    device_bodies: Vec<TextRange>,
    /// The unit's `__T<n>` counter (unnamed template parameters of kernels,
    /// the typedefs after closure variables).
    next_t: u32,
    /// The unit's first definition of a class by its name (the lambda
    /// rules' syntactic lookup), maybe in another item's tree.
    classes: &'a dyn Fn(&str) -> Option<SyntaxNode>,
}

impl Plan<'_> {
    fn replace(&mut self, r: TextRange, text: impl Into<String>) {
        self.edits.push(Edit { start: r.start().into(), end: r.end().into(), text: text.into() });
    }
    fn insert(&mut self, at: u32, text: impl Into<String>) {
        self.edits.push(Edit { start: at, end: at, text: text.into() });
    }
    fn text(&self) -> &str {
        self.text.get_or_init(|| green::text(&self.root.green()))
    }
    fn slice(&self, r: TextRange) -> &str {
        &self.text()[usize::from(r.start())..usize::from(r.end())]
    }
    fn in_device_body(&self, r: TextRange) -> bool {
        let i = self.device_bodies.partition_point(|b| b.start() <= r.start());
        i > 0 && self.device_bodies[i - 1].contains_range(r)
    }
    fn unsupported(&mut self, node: &SyntaxNode, what: &str) {
        self.unsupported.push((significant_range(node), what.to_string()));
    }
}

/// The range of a node without leading and trailing trivia (the whole
/// range when it has only trivia). Read from the green node: no cursor.
fn significant_range(n: &SyntaxNode) -> TextRange {
    let range = n.text_range();
    let green = n.green();
    match (trivia_before(&green), trivia_after(&green)) {
        (Ok(lead), Ok(trail)) => TextRange::new(range.start() + lead, range.end() - trail),
        _ => range,
    }
}

/// The length of the trivia before the first significant token under `n`;
/// `Err(length of n)` when there is none.
fn trivia_before(n: &rowan::GreenNodeData) -> Result<TextSize, TextSize> {
    let mut len = TextSize::from(0);
    for c in n.children() {
        match c {
            rowan::NodeOrToken::Token(t) => {
                if !K::from(t.kind().0).is_trivia() {
                    return Ok(len);
                }
                len += t.text_len();
            }
            rowan::NodeOrToken::Node(c) => match trivia_before(c) {
                Ok(l) => return Ok(len + l),
                Err(l) => len += l,
            },
        }
    }
    Err(len)
}

/// The length of the trivia after the last significant token under `n`.
fn trivia_after(n: &rowan::GreenNodeData) -> Result<TextSize, TextSize> {
    let mut len = TextSize::from(0);
    for c in n.children().rev() {
        match c {
            rowan::NodeOrToken::Token(t) => {
                if !K::from(t.kind().0).is_trivia() {
                    return Ok(len);
                }
                len += t.text_len();
            }
            rowan::NodeOrToken::Node(c) => match trivia_after(c) {
                Ok(l) => return Ok(len + l),
                Err(l) => len += l,
            },
        }
    }
    Err(len)
}

/// What the host file does at and inside one top-level item: its edits
/// (offsets relative to the item's start) by the phase that made them, and
/// what the unit's parts are merged from. A function of the item's tree and
/// of unit facts that an edit inside a body leaves equal (`queries.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ItemPlan {
    /// The unit applies its edits phase by phase, each over all items in
    /// order (edits at one offset keep that order): declarations, nodes
    /// (launches, managed uses, CUDA attributes), lambdas, `__noinline__`.
    edits: [Vec<Edit>; 4],
    /// Where this item holds a global `size_t` typedef: the runtime
    /// header's insertion, kept only for the unit's first one.
    size_t: Option<u32>,
    unsupported: Vec<(TextRange, String)>,
    host_refs: href::HostRefs,
    /// Extended lambdas' capture counts (the preamble's wrapper templates).
    dl_counts: std::collections::BTreeSet<usize>,
    hdl_counts: std::collections::BTreeSet<usize>,
    /// `__T<n>` names used by the declaration phase and by the lambda phase.
    t_decls: u32,
    t_lambdas: u32,
}

impl ItemPlan {
    /// Whether the `__T<n>` numbering before this item changes its edits.
    pub(crate) fn uses_t(&self) -> bool {
        self.t_decls > 0 || self.t_lambdas > 0
    }
}

const RUNTIME_INCLUDE: &str = "\n#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)\n#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__\n#endif\n#include \"crt/host_runtime.h\"\n";

/// The plan of one top-level item, `root` (with the bodies the rules read
/// parsed), given the unit's CUDA entities `refs` and the
/// `__T<n>` numbers the earlier items used in each phase. Execution spaces
/// and `constexpr` come from `sema`, for this item.
pub(crate) fn plan_item(
    root: &SyntaxNode,
    opts: &HostOptions,
    sema: Sema<'_>,
    refs: &Refs,
    classes: &dyn Fn(&str) -> Option<SyntaxNode>,
    t_decls: u32,
    t_lambdas: u32,
) -> ItemPlan {
    let mut plan = Plan {
        root,
        text: std::cell::OnceCell::new(),
        opts,
        edits: Vec::new(),
        unsupported: Vec::new(),
        anon_ns: format!("_GLOBAL__N_{}", opts.module_id.trim_end_matches('\n')),
        device_bodies: Vec::new(),
        next_t: t_decls,
        classes,
    };
    // Member aliases that may need a qualifier: (edit to fill, scope, name).
    let mut aliases: Vec<(usize, Vec<Option<String>>, String)> = Vec::new();
    let mut host_refs = href::HostRefs::default();
    let mut size_t = None;
    walk::walk_top_level(root, &mut |node, ctx| match node.kind() {
        K::FUNCTION_DEF => function_def(&mut plan, sema, node, ctx),
        K::SIMPLE_DECL => {
            if size_t.is_none() && ctx.scope.is_empty() && is_size_t_typedef(node) {
                let end: u32 = significant_range(node).end().into();
                size_t = Some(end);
                plan.insert(end, RUNTIME_INCLUDE);
            }
            simple_decl(&mut plan, sema, node, ctx);
        }
        K::NAMESPACE_DEF => anonymous_namespace(&mut plan, node),
        K::ALIAS_DECL if ctx.member => member_alias(&mut plan, &mut aliases, node, ctx),
        _ => {}
    });
    let t_decls_used = plan.next_t - t_decls;
    plan.device_bodies.sort_by_key(|r| r.start());
    qualify_aliases(&mut plan, sema, aliases);
    let decls_end = plan.edits.len();
    let mut lambdas = Vec::new();
    // The nodes the rules below act on (the others would match no arm).
    let mut pick = |kind: K, g: &rowan::GreenNodeData| match kind {
        K::ID_EXPR => !refs.is_empty() && refs.may_name(g),
        K::GNU_ATTRIBUTE => attrs::lists_cuda_only(g),
        K::KERNEL_LAUNCH | K::LAMBDA_EXPR => true,
        _ => false,
    };
    find::nodes(root, &mut pick, &mut |n| match n.kind() {
        K::ID_EXPR => {
            if let Some(e) = refs.resolve(&n) {
                if e.kind == Kind::Managed {
                    managed_use(&mut plan, &n);
                }
                if opts.device_c && !plan.in_device_body(n.text_range()) {
                    host_refs.add(e, &opts.module_id);
                }
            }
        }
        K::KERNEL_LAUNCH => launch(&mut plan, &n),
        K::GNU_ATTRIBUTE => strip_cuda_attributes(&mut plan, &n),
        K::LAMBDA_EXPR => lambdas.push(n),
        _ => {}
    });
    let nodes_end = plan.edits.len();
    plan.next_t = t_lambdas;
    let (dl_counts, hdl_counts) = lambda::rewrite(&mut plan, &lambdas);
    let t_lambdas_used = plan.next_t - t_lambdas;
    let lambdas_end = plan.edits.len();
    // `__noinline__` is a macro that cudafe++ predefines (spec 20 §2).
    let mut at = Vec::new();
    noinline_keywords(&root.green(), root.text_range().start(), &mut at);
    for range in at {
        plan.replace(range, "__attribute__((noinline))");
    }
    let mut edits = plan.edits;
    let noinline = edits.split_off(lambdas_end);
    let lambda_edits = edits.split_off(nodes_end);
    let node_edits = edits.split_off(decls_end);
    ItemPlan {
        edits: [edits, node_edits, lambda_edits, noinline],
        size_t,
        unsupported: plan.unsupported,
        host_refs,
        dl_counts,
        hdl_counts,
        t_decls: t_decls_used,
        t_lambdas: t_lambdas_used,
    }
}

/// The host file of the unit: its items' plans (`plans`, with each item's
/// start), merged and applied to `text`; `sentinel` is where the extended
/// lambdas' preamble goes.
pub(crate) fn merge(
    text: &str,
    map: &SourceMap,
    opts: &HostOptions,
    plans: &[(u32, &ItemPlan)],
    sentinel: Option<u32>,
) -> HostFile {
    let first_size_t = plans.iter().find_map(|(at, p)| p.size_t.map(|s| (*at, s)));
    // The preamble of the extended lambdas' wrappers, alone and before the
    // `#if 0` that the sentinel (a `__device_builtin__` type) opens.
    let preamble = sentinel.filter(|_| opts.extended_lambda).map(|at| {
        let mut dl = std::collections::BTreeSet::new();
        let mut hdl = std::collections::BTreeSet::new();
        for (_, p) in plans {
            dl.extend(p.dl_counts.iter().copied());
            hdl.extend(p.hdl_counts.iter().copied());
        }
        let text = format!("\n{}", preamble::preamble(&dl, &hdl, opts.cxx17));
        let before_if0 = format!("{text}#if 0\n");
        (at, text, before_if0)
    });
    let mut edits: Vec<Placed<'_>> =
        Vec::with_capacity(plans.iter().map(|(_, p)| p.edits.iter().map(Vec::len).sum::<usize>()).sum());
    for phase in 0..4 {
        for &(at, p) in plans {
            for e in &p.edits[phase] {
                // Only the unit's first global `size_t` typedef is followed
                // by the runtime header.
                if phase == 0
                    && p.size_t == Some(e.start)
                    && e.start == e.end
                    && e.text == RUNTIME_INCLUDE
                    && first_size_t != Some((at, e.start))
                {
                    continue;
                }
                edits.push(Placed { start: e.start + at, end: e.end + at, text: &e.text });
            }
        }
        if phase == 2
            && let Some((at, text, before_if0)) = &preamble
        {
            match edits.iter_mut().find(|e| e.start == *at && e.end == *at && e.text == "\n#if 0\n") {
                Some(e) => e.text = before_if0,
                None => edits.push(Placed { start: *at, end: *at, text }),
            }
        }
    }
    nv_pragmas(text, &mut edits);
    let mut out = header(opts, &primary_name(text));
    out.reserve(text.len() + edits.iter().map(|e| e.text.len()).sum::<usize>() + 4096);
    apply(&mut out, text, map, edits);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&trailer(opts));
    if opts.device_c {
        let mut refs = href::HostRefs::default();
        for (_, p) in plans {
            refs.extend(&p.host_refs);
        }
        out.push_str(&refs.print());
    }
    // Only constructs in code that is printed count: the edits dropped inside
    // `#if 0` bodies have the same ranges as their reports.
    let unsupported = plans
        .iter()
        .flat_map(|&(at, p)| p.unsupported.iter().map(move |(r, w)| (*r + TextSize::from(at), w.clone())))
        .collect();
    HostFile { text: out, unsupported }
}

/// The ranges of the `__noinline__` keywords outside GNU attributes under
/// `n` (whose text starts at `at`). On the green tree: the CUDA headers
/// define `__noinline__`, so this walks every unit whole.
fn noinline_keywords(n: &rowan::GreenNodeData, mut at: TextSize, out: &mut Vec<TextRange>) {
    for c in n.children() {
        match c {
            rowan::NodeOrToken::Token(t) => {
                if green::token_kind(t) == K::NOINLINE_KW {
                    out.push(TextRange::at(at, t.text_len()));
                }
                at += t.text_len();
            }
            rowan::NodeOrToken::Node(c) => {
                if green::node_kind(c) != K::GNU_ATTRIBUTE {
                    noinline_keywords(c, at, out);
                }
                at += c.text_len();
            }
        }
    }
}

fn is_size_t_typedef(node: &SyntaxNode) -> bool {
    let specs = node.children().find(|c| c.kind() == K::DECL_SPECIFIERS);
    decl::has_keyword(specs.as_ref(), &[K::TYPEDEF_KW])
        && declarators(node)
            .iter()
            .any(|(_, d)| decl::name_node(d).and_then(|n| walk::last_component(&n)).is_some_and(|n| n == "size_t"))
}

const INLINE: &[K] = &[K::INLINE_KW, K::INLINE2_KW, K::INLINE3_KW];

fn function_def(plan: &mut Plan<'_>, sema: Sema<'_>, node: &SyntaxNode, ctx: &Ctx) {
    let Some(d) = node.children().find(|c| c.kind() == K::DECLARATOR) else {
        return;
    };
    let specs = node.children().find(|c| c.kind() == K::DECL_SPECIFIERS);
    let Some(body) = node.children().find(|c| matches!(c.kind(), K::FUNCTION_BODY | K::LAZY_BODY)) else {
        return;
    };
    let mut space = sema.function_space(specs.as_ref(), &d);
    if ctx.specialization && space == ExecSpace::ImplicitHost {
        // An explicit specialization that hir lowers as a declaration of
        // its own (`template <> void S<int>::f()`) is no redeclaration of
        // the primary's: its own attributes tell.
        space = ExecSpace::from_attrs(&attrs::of_declaration(specs.as_ref(), Some(&d)));
    }
    let start: u32 = significant_range(node).start().into();
    let body_range = significant_range(&body);
    let static_kw = decl::has_keyword(specs.as_ref(), &[K::STATIC_KW]);
    if matches!(space, ExecSpace::Global | ExecSpace::Device) {
        plan.device_bodies.push(body.text_range());
    }
    match space {
        ExecSpace::Global if ctx.templated => template_kernel(plan, node, specs.as_ref(), &d, &body),
        ExecSpace::Global if ctx.specialization => kernel_specialization(plan, node, specs.as_ref(), &d, &body),
        ExecSpace::Global => {
            if !static_kw && plan.opts.device_hidden_visibility {
                plan.insert(start, "__attribute__((visibility(\"hidden\"))) ");
            }
            if plan.opts.debug_mode {
                plan.insert(start, " __attribute((noinline)) ");
            }
            let text = format!(";\n#if 0\n{}\n#endif\n", plan.slice(body_range));
            // Everything after the declarator (a ctor-initializer cannot
            // occur on a kernel) goes: the body is in the stub.
            let from = d.text_range().end();
            plan.replace(TextRange::new(from, body_range.end()), text);
        }
        ExecSpace::Device => {
            if decl::has_keyword(specs.as_ref(), &[K::CONSTEXPR_KW, K::CONSTEVAL_KW]) {
                return; // constexpr device functions keep their body (spec 20 §9)
            }
            let Some(name) = decl::name_node(&d) else {
                return;
            };
            let (quals, last) = name_parts(&name);
            let member = ctx.member || !quals.is_empty();
            let is_ctor_dtor = last.starts_with('~')
                || match quals.last() {
                    Some(q) => *q == last,
                    None => matches!(ctx.scope.last(), Some(walk::Seg::Class(c)) if *c == last),
                };
            let f = decl::function_declarator(&d);
            let mut voids = String::new();
            for p in f.iter().flat_map(decl::params) {
                let pd = p.children().find(|c| c.kind() == K::DECLARATOR);
                let is_pack = pd.as_ref().is_some_and(|pd| pd.descendants_with_tokens().any(|t| t.kind() == K::DOT3));
                if let Some(n) = pd.as_ref().and_then(decl::name_node).and_then(|n| walk::last_component(&n))
                    && !is_pack
                {
                    voids.push_str(&format!("(void){n};"));
                }
            }
            let dummy = if is_ctor_dtor {
                format!("{{int *volatile ___ = 0;{voids}::free(___);}}")
            } else {
                format!("{{int volatile ___ = 1;{voids}::exit(___);}}")
            };
            if !member {
                plan.insert(start, "__attribute__((unused)) ");
            }
            let _ = static_kw;
            let _ = INLINE;
            let text = format!("{dummy}\n#if 0\n{}\n#endif\n", plan.slice(body_range));
            plan.replace(body_range, text);
        }
        _ => {}
    }
}

/// Parameters as the wrapper and the forwarding definition print them:
/// (wrapper parameter, forwarding parameter, argument) per parameter.
fn kernel_params(plan: &mut Plan<'_>, f: &SyntaxNode) -> Vec<(String, String, String)> {
    kparams::kernel_params(&decl::params(f), &mut plan.next_t)
        .into_iter()
        .map(|p| (p.wrapper, p.forward, p.arg))
        .collect()
}

fn template_kernel(
    plan: &mut Plan<'_>,
    node: &SyntaxNode,
    specs: Option<&SyntaxNode>,
    d: &SyntaxNode,
    body: &SyntaxNode,
) {
    let Some(tdecl) = node.parent().filter(|p| p.kind() == K::TEMPLATE_DECL) else {
        plan.unsupported(node, "this form of __global__ function template is not supported yet");
        return;
    };
    let Some(tparams) = tdecl.children().find(|c| c.kind() == K::TEMPLATE_PARAM_LIST) else {
        return;
    };
    let (Some(f), Some(name)) = (decl::function_declarator(d), decl::name_node(d)) else {
        return;
    };
    // Function parameters take `__T<n>` names before template parameters.
    let params = kernel_params(plan, &f);
    let simple_name = walk::last_component(&name).unwrap_or_default();
    let wrapper_tpl = format!("template{}", plan.slice(tparams.text_range()));
    let (tpl, targs) = kparams::template_params(&tparams, &mut plan.next_t);
    let specs_text = specs.map(text_without_cuda_attrs).unwrap_or_default();
    let static_kw = decl::has_keyword(specs, &[K::STATIC_KW]);
    let linkage = if static_kw {
        ""
    } else if plan.opts.static_host_stub {
        "static "
    } else {
        "__attribute__((visibility(\"hidden\"))) "
    };
    let wrapper_params: Vec<&str> = params.iter().map(|p| p.0.as_str()).collect();
    let fwd_params: Vec<&str> = params.iter().map(|p| p.1.as_str()).collect();
    let args: Vec<&str> = params.iter().map(|p| p.2.as_str()).collect();
    let body_text = plan.slice(significant_range(body));
    let text = format!(
        "\n#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n\
         {wrapper_tpl} static void __wrapper__device_stub_{simple_name}({}) {{ ::cudaLaunchKernel(0, 0, 0, 0, 0, 0);}}\n\
         #pragma GCC diagnostic pop\n\
         {tpl} {linkage}{specs_text} {}({}) {{__wrapper__device_stub_{simple_name}<{}>({});return;}}\n#if 0\n{body_text}\n#endif\n",
        wrapper_params.join(", "),
        cufront_cuda::spaces::compact_text(&name),
        fwd_params.join(", "),
        targs.join(","),
        args.join(","),
    );
    plan.replace(significant_range(&tdecl), text);
}

/// `template <> __global__ void kt<float>(float *p) {…}` (spec 30 §2.4): a
/// declaration of the wrapper's specialization (cicc's stub defines it) and
/// a forwarding definition, each followed by the body under `#if 0`.
fn kernel_specialization(
    plan: &mut Plan<'_>,
    node: &SyntaxNode,
    specs: Option<&SyntaxNode>,
    d: &SyntaxNode,
    body: &SyntaxNode,
) {
    let Some(tdecl) = node.parent().filter(|p| matches!(p.kind(), K::TEMPLATE_DECL | K::EXPLICIT_SPECIALIZATION))
    else {
        plan.unsupported(node, "this form of __global__ function template specialization is not supported yet");
        return;
    };
    let (Some(f), Some(name)) = (decl::function_declarator(d), decl::name_node(d)) else {
        return;
    };
    let params = kernel_params(plan, &f);
    let simple_name = walk::last_component(&name).unwrap_or_default();
    // The template arguments as written; none when they are deduced.
    let targs = name
        .descendants()
        .filter(|n| n.kind() == K::TEMPLATE_ID)
        .last()
        .and_then(|t| t.children().find(|c| c.kind() == K::TEMPLATE_ARG_LIST))
        .map(|l| cufront_cuda::spaces::compact_text(&l))
        .unwrap_or_default();
    let specs_text = specs.map(text_without_cuda_attrs).unwrap_or_default();
    let wrapper_params: Vec<&str> = params.iter().map(|p| p.0.as_str()).collect();
    let fwd_params: Vec<&str> = params.iter().map(|p| p.1.as_str()).collect();
    let args: Vec<&str> = params.iter().map(|p| p.2.as_str()).collect();
    let body_text = plan.slice(significant_range(body));
    let text = format!(
        "template<> __specialization_static void __wrapper__device_stub_{simple_name}{targs}({});\n\
         #if 0\n{body_text}\n#endif\n\
         template<> __specialization_static {specs_text} {}({}) {{__wrapper__device_stub_{simple_name}{targs}({});return;}}\n\
         #if 0\n{body_text}\n#endif\n",
        wrapper_params.join(", "),
        cufront_cuda::spaces::compact_text(&name),
        fwd_params.join(", "),
        args.join(","),
    );
    plan.replace(significant_range(&tdecl), text);
}

/// The text of a node with its CUDA-only attributes left out.
fn text_without_cuda_attrs(n: &SyntaxNode) -> String {
    let mut out = String::new();
    for e in n.descendants_with_tokens() {
        let Some(t) = e.as_token() else { continue };
        if t.parent_ancestors().any(|a| a.kind() == K::GNU_ATTRIBUTE && all_cuda(&a)) {
            continue;
        }
        if t.kind().is_trivia() {
            // Line markers and directives cannot move into the middle of a line.
            out.push(' ');
            continue;
        }
        out.push_str(t.text());
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn all_cuda(gnu: &SyntaxNode) -> bool {
    let names: Vec<Option<String>> =
        gnu.children().filter(|c| c.kind() == K::ATTRIBUTE).map(|a| attrs::attribute_name(&a)).collect();
    !names.is_empty() && names.iter().all(|n| n.as_deref().is_some_and(is_cuda_only))
}

fn simple_decl(plan: &mut Plan<'_>, sema: Sema<'_>, node: &SyntaxNode, ctx: &Ctx) {
    let specs = node.children().find(|c| c.kind() == K::DECL_SPECIFIERS);
    let start: u32 = significant_range(node).start().into();
    // `__device_builtin__` types: host_runtime.h defines them again.
    if let Some(s) = &specs {
        let mut a = attrs::of_declaration(Some(s), None);
        for c in s.children().filter(|c| matches!(c.kind(), K::CLASS_SPECIFIER | K::ENUM_SPECIFIER)) {
            a = a.merge(attrs::of_class(&c));
        }
        // Types only: a class or enum definition, or a typedef (the builtin
        // variables `threadIdx`... stay declared).
        let defines_type = s.children().any(|c| matches!(c.kind(), K::CLASS_SPECIFIER | K::ENUM_SPECIFIER))
            || decl::has_keyword(Some(s), &[K::TYPEDEF_KW]);
        let declares_function = declarators(node).iter().any(|(_, d)| decl::function_declarator(d).is_some());
        if a.device_builtin && defines_type && !declares_function && !ctx.member {
            let end: u32 = significant_range(node).end().into();
            plan.insert(start, "\n#if 0\n");
            plan.insert(end, "\n#endif\n");
            return;
        }
    }
    let decls = declarators(node);
    if decls.is_empty() || ctx.member {
        return;
    }
    // Kernel declarations.
    if let Some((_, d)) = decls.iter().find(|(_, d)| decl::function_declarator(d).is_some()) {
        // EDG prints the merged declaration: constexpr from an earlier one stays.
        if sema.is_constexpr(d) && !decl::has_keyword(specs.as_ref(), &[K::CONSTEXPR_KW]) && decls.len() == 1 {
            let at = specs.as_ref().map_or(start, |s| u32::from(significant_range(s).start()));
            let extern_tok = specs.as_ref().and_then(|s| {
                s.children_with_tokens().filter_map(|t| t.into_token()).find(|t| t.kind() == K::EXTERN_KW)
            });
            match extern_tok {
                Some(t) => plan.insert(t.text_range().end().into(), " constexpr"),
                None => plan.insert(at, "constexpr "),
            }
        }
        let space = sema.function_space(specs.as_ref(), d);
        // An explicit instantiation (`template void kt<int>(int *);`) adds no linkage.
        if space == ExecSpace::Global && !ctx.instantiation {
            let static_kw = decl::has_keyword(specs.as_ref(), &[K::STATIC_KW]);
            if ctx.templated && plan.opts.static_host_stub && !static_kw {
                plan.insert(start, "static ");
            } else if !static_kw && plan.opts.device_hidden_visibility {
                plan.insert(start, "__attribute__((visibility(\"hidden\"))) ");
            }
        }
        return;
    }
    // Variables with a memory space.
    let a = attrs::of_declaration(specs.as_ref(), Some(&decls[0].1));
    let space = MemSpace::from_attrs(&a);
    if space == MemSpace::Host {
        return;
    }
    if space == MemSpace::Managed {
        managed_decl(plan, node, specs.as_ref(), &decls, ctx);
        return;
    }
    let static_kw = decl::has_keyword(specs.as_ref(), &[K::STATIC_KW]);
    let const_kw = decl::has_keyword(specs.as_ref(), &[K::CONST_KW, K::CONSTEXPR_KW]);
    let extern_tok = specs
        .as_ref()
        .and_then(|s| s.children_with_tokens().filter_map(|t| t.into_token()).find(|t| t.kind() == K::EXTERN_KW));
    // An explicit specialization of a variable template keeps external
    // linkage in both modes (a storage class is not allowed on it), and
    // templates keep their initializers: EDG prints them as declared.
    let explicit_spec = ctx.specialization;
    let keeps_init = const_kw || ctx.templated || explicit_spec;
    // `extern __shared__ T buf[];` (dynamic shared memory) stays a
    // declaration: a definition of an array of unknown bound is ill-formed.
    let extern_shared = space == MemSpace::Shared && extern_tok.is_some();
    let mut prefix = String::new();
    if space == MemSpace::Shared {
        prefix.push_str("__attribute__((unused)) ");
    }
    if explicit_spec {
        if !static_kw && plan.opts.device_hidden_visibility {
            prefix.push_str("__attribute__((visibility(\"hidden\"))) ");
        }
    } else if !plan.opts.device_c {
        if !static_kw && !extern_shared {
            prefix.push_str("static ");
        }
        if let Some(t) = extern_tok.as_ref().filter(|_| !extern_shared) {
            plan.replace(t.text_range(), "");
        }
    } else if !static_kw && plan.opts.device_hidden_visibility && space != MemSpace::Shared && !const_kw {
        prefix.push_str("__attribute__((visibility(\"hidden\"))) ");
    }
    if !prefix.is_empty() {
        plan.insert(start, prefix);
    }
    for (_, d) in &decls {
        let Some(init_decl) = d.parent().filter(|p| p.kind() == K::INIT_DECLARATOR) else {
            continue;
        };
        let inits: Vec<SyntaxNode> = init_decl
            .children()
            .filter(|c| matches!(c.kind(), K::EQUAL_INITIALIZER | K::INITIALIZER | K::INIT_LIST))
            .collect();
        // The bound an initializer gives an array of unknown bound is written
        // out, as EDG prints the completed type; needed where the initializer
        // goes (`static float m[];` would not compile).
        if let (Some(init), Some(open)) = (inits.first(), unknown_bound(d)) {
            match array_bound::deduced_bound(specs.as_ref(), d, init) {
                Some(n) => plan.insert(open, n.to_string()),
                None if !keeps_init => {
                    plan.unsupported(d, "an array of unknown bound whose initializer's element count depends on types")
                }
                None => {}
            }
        }
        if !keeps_init {
            for c in &inits {
                plan.replace(c.text_range(), "");
            }
        }
    }
}

/// Where the bound of `declarator`'s outermost array derivation goes when
/// it is written without one (`m[]`): just after its `[`.
fn unknown_bound(declarator: &SyntaxNode) -> Option<u32> {
    let first = declarator.children().find(|c| c.kind() == K::ARRAY_DECLARATOR)?;
    let mut toks = first.children_with_tokens().filter(|t| !t.kind().is_trivia());
    let open = toks.next().filter(|t| t.kind() == K::L_BRACK)?;
    toks.next().filter(|t| t.kind() == K::R_BRACK).map(|_| open.text_range().end().into())
}

/// `__managed__ T x = v;` → `__attribute__((section("__nv_managed_data__")))
/// static T *x = 0;` (spec 30 §2.6): the host sees a pointer that the
/// runtime sets when the module is registered; arrays become pointers to
/// arrays (`(*a)[8]`). `static` comes from whole-program mode, as for the
/// other device variables; the visibility attribute from
/// `--device-hidden-visibility` in `--device-c` mode (external linkage only).
fn managed_decl(
    plan: &mut Plan<'_>,
    node: &SyntaxNode,
    specs: Option<&SyntaxNode>,
    decls: &[(Option<SyntaxNode>, SyntaxNode)],
    ctx: &Ctx,
) {
    let start: u32 = significant_range(node).start().into();
    let static_kw = decl::has_keyword(specs, &[K::STATIC_KW]);
    let extern_tok =
        specs.and_then(|s| s.children_with_tokens().filter_map(|t| t.into_token()).find(|t| t.kind() == K::EXTERN_KW));
    let mut prefix = String::from("__attribute__((section(\"__nv_managed_data__\"))) ");
    if !plan.opts.device_c {
        if !static_kw {
            prefix.push_str("static ");
        }
        if let Some(t) = &extern_tok {
            plan.replace(t.text_range(), "");
        }
    } else if !static_kw && !ctx.in_anonymous_namespace() && plan.opts.device_hidden_visibility {
        prefix.push_str("__attribute__((visibility(\"hidden\"))) ");
    }
    plan.insert(start, prefix);
    for (_, d) in decls {
        let Some(name) = decl::name_node(d) else {
            continue;
        };
        let r = significant_range(&name);
        let array_or_fn =
            name.next_sibling().is_some_and(|n| matches!(n.kind(), K::ARRAY_DECLARATOR | K::FUNCTION_DECLARATOR));
        if array_or_fn {
            plan.insert(r.start().into(), "(*");
            plan.insert(r.end().into(), ")");
        } else {
            plan.insert(r.start().into(), "*");
        }
        let Some(init_decl) = d.parent().filter(|p| p.kind() == K::INIT_DECLARATOR) else {
            continue;
        };
        let init =
            init_decl.children().find(|c| matches!(c.kind(), K::EQUAL_INITIALIZER | K::INITIALIZER | K::INIT_LIST));
        match init {
            Some(i) => {
                let text = if i.kind() == K::EQUAL_INITIALIZER { "= 0" } else { " = 0" };
                plan.replace(significant_range(&i), text);
            }
            // A declaration stays one; a definition gets its null pointer.
            None if extern_tok.is_some() => {}
            None => plan.insert(significant_range(d).end().into(), " = 0"),
        }
    }
}

/// A use of a managed variable: the pointer, dereferenced after the
/// runtime's lazy initialization (spec 30 §2.6), in every printed context.
fn managed_use(plan: &mut Plan<'_>, id: &SyntaxNode) {
    let r = significant_range(id);
    plan.insert(r.start().into(), "(*( (__nv_inited_managed_rt ? (void)0: __nv_init_managed_rt()), (");
    plan.insert(r.end().into(), ")))");
}

/// `using X = X<...>;` in a class: g++ rejects a member that changes what
/// `X` means in the class, so the outer `X` is written qualified (as EDG
/// prints it). The qualifier needs the item index: the walk leaves an
/// empty insertion in its place (so that it keeps its order among the
/// edits at that offset), and [`qualify_aliases`] fills it.
fn member_alias(
    plan: &mut Plan<'_>,
    aliases: &mut Vec<(usize, Vec<Option<String>>, String)>,
    node: &SyntaxNode,
    ctx: &Ctx,
) {
    let Some(name) = node.children().find(|c| c.kind() == K::NAME).and_then(|n| walk::last_component(&n)) else {
        return;
    };
    let Some(spec) = node
        .children()
        .find(|c| c.kind() == K::TYPE_ID)
        .and_then(|t| t.children().find(|c| c.kind() == K::DECL_SPECIFIERS))
        .and_then(|s| s.children().find(|c| c.kind() == K::SIMPLE_TYPE_SPECIFIER))
    else {
        return;
    };
    let Some(first) = spec.children().next() else {
        return;
    };
    if !matches!(first.kind(), K::NAME_REF | K::TEMPLATE_ID) || walk::last_component(&first).as_deref() != Some(&name) {
        return;
    }
    // The scopes around the class (the alias's own class excluded).
    let from: Vec<Option<String>> = ctx.scope[..ctx.scope.len().saturating_sub(1)]
        .iter()
        .map(|s| match s {
            walk::Seg::Namespace { name, .. } => name.clone(),
            walk::Seg::Class(n) => Some(n.clone()),
        })
        .collect();
    aliases.push((plan.edits.len(), from, name));
    plan.insert(significant_range(&first).start().into(), String::new());
}

/// Fills the qualifiers of the member aliases (`member_alias`): the scope
/// that declares the name, as the semantic model finds it; an alias whose
/// name it does not find loses its edit.
fn qualify_aliases(plan: &mut Plan<'_>, sema: Sema<'_>, aliases: Vec<(usize, Vec<Option<String>>, String)>) {
    if aliases.is_empty() {
        return;
    }
    let map = cufront_hir::scopes::def_map(sema.db, sema.tu);
    let mut unused = Vec::new();
    for (edit, from, name) in aliases {
        let Some(scope) = cufront_hir::scopes::declaring_scope_names(sema.db, &map, &from, &name) else {
            unused.push(edit);
            continue;
        };
        // Inside a class template the name is a member of the current
        // instantiation: `typename ::Outer<T>::X` (`template` before a
        // member template of a dependent scope).
        let dependent = scope.iter().any(|s| s.args.is_some());
        let mut qual = String::from(if dependent { "typename ::" } else { "::" });
        let mut seen_args = false;
        for s in scope {
            match (&s.name, &s.args) {
                (Some(n), Some(args)) => {
                    if seen_args {
                        qual.push_str("template ");
                    }
                    qual.push_str(&format!("{n}<{}>", args.join(", ")));
                    seen_args = true;
                }
                (Some(n), None) => qual.push_str(n),
                (None, _) => qual.push_str(&plan.anon_ns),
            }
            qual.push_str("::");
        }
        plan.edits[edit].text = qual;
    }
    if !unused.is_empty() {
        let mut i = 0;
        plan.edits.retain(|_| {
            i += 1;
            unused.binary_search(&(i - 1)).is_err()
        });
    }
}

fn anonymous_namespace(plan: &mut Plan<'_>, node: &SyntaxNode) {
    if node.children().any(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME)) {
        return;
    }
    let kw = node.children_with_tokens().filter_map(|t| t.into_token()).find(|t| t.kind() == K::NAMESPACE_KW);
    let brace = node.children_with_tokens().filter_map(|t| t.into_token()).find(|t| t.kind() == K::L_CURLY);
    let (Some(kw), Some(brace)) = (kw, brace) else {
        return;
    };
    let n = &plan.anon_ns;
    let text = format!(
        "namespace {n} __attribute__((visibility(\"hidden\")))  {{ }}; using namespace {n}; \n\
         #pragma GCC diagnostic ignored \"-Wattributes\"\nnamespace {n} __attribute__((visibility(\"hidden\")))  {{\n"
    );
    plan.replace(TextRange::new(kw.text_range().start(), brace.text_range().end()), text);
}

fn launch(plan: &mut Plan<'_>, n: &SyntaxNode) {
    let (Some(callee), Some(config)) = (
        n.children().find(|c| c.kind() != K::LAUNCH_CONFIG && c.kind() != K::ARG_LIST),
        n.children().find(|c| c.kind() == K::LAUNCH_CONFIG),
    ) else {
        return;
    };
    let args: Vec<String> =
        config.children().map(|c| c.text().to_string().split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    let whole = significant_range(n);
    plan.insert(
        significant_range(&callee).start().into(),
        format!("((__cudaPushCallConfiguration({})) ? (void)0 : ", args.join(", ")),
    );
    plan.replace(config.text_range(), "");
    plan.insert(whole.end().into(), ")");
}

fn strip_cuda_attributes(plan: &mut Plan<'_>, gnu: &SyntaxNode) {
    if all_cuda(gnu) {
        plan.replace(gnu.text_range(), "");
        return;
    }
    for a in gnu.children().filter(|c| c.kind() == K::ATTRIBUTE) {
        if attrs::attribute_name(&a).as_deref().is_some_and(is_cuda_only) {
            // GCC accepts empty entries in an attribute list.
            plan.replace(a.text_range(), "");
        }
    }
}

/// `#pragma nv_...` lines are cudafe++'s, not the host compiler's. Only
/// the lines that contain `pragma nv_` are looked at.
fn nv_pragmas(text: &str, edits: &mut Vec<Placed<'_>>) {
    let bytes = text.as_bytes();
    let mut last_line = None;
    for at in memchr::memmem::find_iter(bytes, b"pragma nv_") {
        let off = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        if last_line == Some(off) {
            continue;
        }
        last_line = Some(off);
        let line_end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        let line = &text[off..line_end];
        let t = line.trim_start();
        if t.starts_with("#pragma nv_") || t.starts_with("# pragma nv_") {
            let end = off + line.trim_end_matches(['\n', '\r']).len();
            edits.push(Placed { start: off as u32, end: end as u32, text: "" });
        }
    }
}

/// The primary source name as the first line marker spells it (escapes kept).
fn primary_name(text: &str) -> String {
    let first = text.lines().next().unwrap_or("");
    if first.starts_with('#')
        && let Some(q) = first.find('"')
        && let Some(e) = first.rfind('"')
        && e > q
    {
        return first[q + 1..e].to_string();
    }
    String::new()
}

/// The header (spec 30 §2.1, spec 10 §7.2).
pub fn header(opts: &HostOptions, primary: &str) -> String {
    let g = opts.gnu_version.unwrap_or(u32::MAX);
    let mut s = format!("# 1 \"{primary}\"\n");
    if g > 40799 {
        s.push_str("#pragma GCC diagnostic ignored \"-Wunused-local-typedefs\"\n# 1\n");
    }
    if opts.static_host_stub {
        s.push_str("\n#pragma GCC diagnostic ignored \"-Wattributes\"\n");
    }
    if g > 40599 {
        s.push_str("#pragma GCC diagnostic push\n# 1\n");
    }
    if g > 40199 {
        s.push_str("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n# 1\n");
        s.push_str("#pragma GCC diagnostic ignored \"-Wunused-function\"\n# 1\n");
    }
    s.push_str("static char __nv_inited_managed_rt = 0; static void **__nv_fatbinhandle_for_managed_rt; static void __nv_save_fatbinhandle_for_managed_rt(void **in){__nv_fatbinhandle_for_managed_rt = in;} static char __nv_init_managed_rt_with_module(void **); static inline void __nv_init_managed_rt(void) { __nv_inited_managed_rt = (__nv_inited_managed_rt ? __nv_inited_managed_rt                 : __nv_init_managed_rt_with_module(__nv_fatbinhandle_for_managed_rt));}\n# 1\n");
    if g > 40599 {
        s.push_str("#pragma GCC diagnostic pop\n# 1\n");
    }
    if g > 40199 {
        s.push_str("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n\n# 1\n");
    }
    if !opts.extended_lambda {
        s.push_str(
            "#define __nv_is_extended_device_lambda_closure_type(X) false\n\
             #define __nv_is_extended_host_device_lambda_closure_type(X) false\n\
             #define __nv_is_extended_device_lambda_with_preserved_return_type(X) false\n\
             #if defined(__nv_is_extended_device_lambda_closure_type) && defined(__nv_is_extended_host_device_lambda_closure_type)&& defined(__nv_is_extended_device_lambda_with_preserved_return_type)\n\
             #endif\n\n",
        );
    }
    s.push_str("# 1\n");
    s
}

/// The trailer (spec 30 §2.9): the stub file, with the anonymous namespace's name.
pub fn trailer(opts: &HostOptions) -> String {
    let s = &opts.stub_file_name;
    format!(
        "\n# 1 \"{s}\"\n#define _NV_ANON_NAMESPACE _GLOBAL__N_{}\n#ifdef _NV_ANON_NAMESPACE\n#endif\n# 1 \"{s}\"\n#include \"{s}\"\n# 1 \"{s}\"\n#undef _NV_ANON_NAMESPACE\n",
        opts.module_id
    )
}

/// Applies the edits (outer ones win over edits inside them) and resyncs
/// lines after each edit that moved them.
fn apply(out: &mut String, text: &str, map: &SourceMap, mut edits: Vec<Placed<'_>>) {
    edits.sort_by_key(|e| (e.start, e.start != e.end, std::cmp::Reverse(e.end)));
    let mut pos = 0u32;
    for e in edits {
        if e.start < pos || e.end as usize > text.len() {
            continue;
        }
        out.push_str(&text[pos as usize..e.start as usize]);
        let removed = &text[e.start as usize..e.end as usize];
        let old_lines = removed.matches('\n').count();
        out.push_str(e.text);
        if e.text.contains('\n') {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            let loc = map.location(e.end);
            let file = map.file_name(loc.file).replace('\\', "\\\\").replace('"', "\\\"");
            let sys = if map.flags_at(e.end).system { " 3" } else { "" };
            out.push_str(&format!("# {} \"{file}\"{sys}\n", loc.line));
            out.push_str(&" ".repeat(loc.col.saturating_sub(1) as usize));
        } else {
            for _ in 0..old_lines {
                out.push('\n');
            }
        }
        pos = e.end;
    }
    out.push_str(&text[pos as usize..]);
}
