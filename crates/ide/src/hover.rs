//! Hover: the declaration, the type, where it runs or lives (the implicit
//! execution space too), a class's layout, the linkage name.

use std::fmt::Write;

use cufront_cuda::{ExecSpace, MemSpace};
use cufront_hir::{Entity, FnId, VarId};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextSize};

use crate::resolve::{self, Target};
use crate::symbols::{self, Decl, DeclKind};
use crate::{Ctx, FileRange, LineCol};

/// What hover shows (Markdown) and the range it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverResult {
    pub range: FileRange,
    pub markdown: String,
}

pub(crate) fn hover(cx: &Ctx<'_>, pos: LineCol) -> Option<HoverResult> {
    let offset = cx.offset(pos)?;
    let root = cx.parse().syntax_node();
    if let Some(h) = lambda_hover(cx, &root, offset) {
        return Some(h);
    }
    // A name whose declarations are one entity (a function, a class) needs
    // no inference; locals (their deduced type) and overloads do.
    let quick = resolve::resolve(cx, &root, offset, false)?;
    let one_entity = !quick.targets.is_empty()
        && quick.targets.iter().all(|t| matches!(t, Target::Decl { .. }))
        && quick.targets.iter().all(|t| t.identity(cx.db) == quick.targets[0].identity(cx.db))
        && quick.targets[0].decl(cx.db).is_some_and(|(d, _)| !matches!(d.kind, DeclKind::Variable | DeclKind::Field));
    let res = if one_entity { quick } else { resolve::resolve(cx, &root, offset, true)? };
    let mut md = String::new();
    // Redeclarations: the definition speaks for all.
    let target = res
        .targets
        .iter()
        .find(|t| t.decl(cx.db).is_some_and(|(d, _)| d.definition))
        .or_else(|| res.targets.first())?;
    match target {
        Target::Decl { item, idx, .. } => {
            let d = symbols::item_decls(cx.db, *item)[*idx as usize].clone();
            decl_markdown(cx, &d, *item, &mut md);
            if res.targets.len() > 1 && !same_entity(cx, &res.targets) {
                let _ = write!(md, "\n\n*{} declarations named `{}`*", res.targets.len(), d.name);
            }
        }
        Target::Local { decl, .. } => {
            let node = root.covering_element(*decl);
            let node = node.as_node().cloned().or_else(|| node.parent())?;
            let text = symbols::cuda_spelling(&symbols::compact(&node));
            let _ = write!(md, "```cuda\n{}\n```", clip(&text, 300));
            if let Some(lambda) = node.descendants().find(|n| n.kind() == K::LAMBDA_EXPR) {
                let _ = write!(md, "\n\n{}", lambda_space_line(cx, &lambda));
            }
        }
    }
    let is_function = target.decl(cx.db).is_some_and(|(d, _)| d.kind == DeclKind::Function);
    if let Some(t) = res.expr_ty.filter(|_| !is_function) {
        let shown = cufront_hir::ty::display(cx.db, t);
        if !shown.is_empty() && !shown.contains("<error") {
            let _ = write!(md, "\n\nType: `{shown}`");
        }
    }
    Some(HoverResult { range: cx.file_range(res.token.text_range()), markdown: md })
}

/// Several targets that are one function or variable redeclared.
fn same_entity(cx: &Ctx<'_>, targets: &[Target]) -> bool {
    let names: Vec<(String, DeclKind)> =
        targets.iter().filter_map(|t| t.decl(cx.db)).map(|(d, _)| (d.qualified_name(), d.kind)).collect();
    names.len() == targets.len() && names.windows(2).all(|w| w[0] == w[1])
}

fn decl_markdown(cx: &Ctx<'_>, d: &Decl, item: cufront_hir::ItemId, md: &mut String) {
    let _ = write!(md, "```cuda\n{}\n```\n\n", clip(&d.signature, 400));
    let scope = d
        .scope
        .iter()
        .map(|s| if s.is_empty() { "(anonymous namespace)" } else { s.as_str() })
        .collect::<Vec<_>>()
        .join("::");
    let kind = match d.kind {
        DeclKind::Function => {
            let spaces = symbols::unit_spaces(cx.db, cx.unit.tu);
            let info = symbols::exec_space(&spaces, d, cx.unit.checks.relaxed_constexpr);
            space_line(info)
        }
        DeclKind::Variable | DeclKind::Field => match d.mem_space() {
            Some(MemSpace::Device) => "variable in device memory (`__device__`)".into(),
            Some(MemSpace::Constant) => "variable in constant memory (`__constant__`)".into(),
            Some(MemSpace::Shared) => "variable in shared memory (`__shared__`)".into(),
            Some(MemSpace::Managed) => "variable in managed memory (`__managed__`)".into(),
            _ if d.kind == DeclKind::Field => "data member".into(),
            _ => "host variable".into(),
        },
        DeclKind::Namespace => "namespace".into(),
        DeclKind::Class | DeclKind::Struct | DeclKind::Union => "class".into(),
        DeclKind::Enum => "enumeration".into(),
        DeclKind::Enumerator => "enumerator".into(),
        DeclKind::Typedef => "type alias".into(),
        DeclKind::Concept => "concept".into(),
    };
    md.push_str(&kind);
    if !scope.is_empty() {
        let _ = write!(md, " in `{scope}`");
    }
    if matches!(d.kind, DeclKind::Class | DeclKind::Struct | DeclKind::Union)
        && d.definition
        && !d.templated
        && let Some(c) = cufront_hir::find_class(cx.db, cx.unit.tu, &d.qualified_name())
    {
        let text = cufront_hir::layout::render(cx.db, c);
        let _ = write!(md, "\n\nLayout (bytes):\n```text\n{}\n```", text.trim_end());
    }
    if d.kind == DeclKind::Function && d.templated {
        kernel_instances(cx, d, item, md);
    }
    if let Some(e) = entity_of(cx, d, item)
        && let Ok(name) = cufront_hir::symbols::mangled_name(cx.db, e)
    {
        let _ = write!(md, "\n\nMangled: `{name}`");
    }
}

fn space_line(info: symbols::SpaceInfo) -> String {
    let what = match info.space {
        ExecSpace::Global => "kernel (`__global__`)",
        ExecSpace::Device => "device function (`__device__`)",
        ExecSpace::Host => "host function (`__host__`)",
        ExecSpace::HostDevice if info.implicit => {
            "host and device function (implicitly: `constexpr` with `--expt-relaxed-constexpr`)"
        }
        ExecSpace::HostDevice => "host and device function (`__host__ __device__`)",
        ExecSpace::ImplicitHost if info.constexpr => {
            "host function (implicitly: unannotated `constexpr`, no `--expt-relaxed-constexpr`)"
        }
        ExecSpace::ImplicitHost => "host function (implicitly: no execution space annotation)",
    };
    what.to_string()
}

/// The `hir` entity a function or variable declaration declares (not for
/// templates or members of templates).
fn entity_of(cx: &Ctx<'_>, d: &Decl, item: cufront_hir::ItemId) -> Option<Entity> {
    if d.templated || !matches!(d.kind, DeclKind::Function | DeclKind::Variable) {
        return None;
    }
    let offs = cufront_hir::item_offsets(cx.db, item);
    let decls = symbols::item_decls(cx.db, item);
    // The declaration whose name follows an offset most closely is the one declared there.
    let owner = |o: u32| {
        decls
            .iter()
            .filter(|x| {
                matches!(x.kind, DeclKind::Function | DeclKind::Variable | DeclKind::Field)
                    && u32::from(x.name_range.start()) >= o
            })
            .min_by_key(|x| x.name_range.start())
            .map(|x| x.name_range)
    };
    let list = if d.kind == DeclKind::Function { &offs.fns } else { &offs.vars };
    let idx = list.iter().position(|&o| owner(o) == Some(d.name_range))? as u32;
    Some(if d.kind == DeclKind::Function {
        Entity::Fn(FnId::new(cx.db, item, idx))
    } else {
        Entity::Var(VarId::new(cx.db, item, idx))
    })
}

/// For a kernel template: the instantiations the unit requires (`hir`'s
/// instantiation closure), with their linkage names.
fn kernel_instances(cx: &Ctx<'_>, d: &Decl, item: cufront_hir::ItemId, md: &mut String) {
    let spaces = symbols::unit_spaces(cx.db, cx.unit.tu);
    if symbols::exec_space(&spaces, d, cx.unit.checks.relaxed_constexpr).space != ExecSpace::Global {
        return;
    }
    let offs = cufront_hir::item_offsets(cx.db, item);
    let decls = symbols::item_decls(cx.db, item);
    let owner = |o: u32| {
        decls
            .iter()
            .filter(|x| x.kind == DeclKind::Function && u32::from(x.name_range.start()) >= o)
            .min_by_key(|x| x.name_range.start())
            .map(|x| x.name_range)
    };
    let Some(idx) = offs.fn_templates.iter().position(|&o| owner(o) == Some(d.name_range)) else {
        return;
    };
    let template = cufront_hir::FnTemplateId::new(cx.db, item, idx as u32);
    let mut lines = Vec::new();
    for e in cufront_hir::instances::required_entities(cx.db, cx.unit.tu).iter() {
        let Entity::FnInst(i) = e else { continue };
        if i.decl(cx.db) != cufront_hir::instances::FnDecl::Template(template) {
            continue;
        }
        let args = cufront_hir::templates::display_args(cx.db, i.args(cx.db));
        let name = cufront_hir::symbols::mangled_name(cx.db, *e).unwrap_or_default();
        lines.push(format!("- `{}<{args}>` `{name}`", d.name));
    }
    if !lines.is_empty() {
        lines.sort();
        lines.dedup();
        let _ = write!(md, "\n\nInstantiations:\n{}", lines.join("\n"));
    }
}

/// Hover on a lambda's introducer: where its body runs.
fn lambda_hover(cx: &Ctx<'_>, root: &SyntaxNode, offset: u32) -> Option<HoverResult> {
    let tok = cufront_syntax::green::token_at(root, TextSize::from(offset))?;
    let intro = tok.parent().filter(|p| p.kind() == K::LAMBDA_INTRODUCER)?;
    let lambda = intro.parent()?;
    let md = format!("lambda\n\n{}", lambda_space_line(cx, &lambda));
    Some(HoverResult { range: cx.file_range(intro.text_range()), markdown: md })
}

/// A lambda runs where its enclosing function runs, unless it is an
/// extended lambda with its own annotation.
fn lambda_space_line(cx: &Ctx<'_>, lambda: &SyntaxNode) -> String {
    let mut own = cufront_cuda::CudaAttrs::default();
    if let Some(d) = lambda.children().find(|c| c.kind() == K::LAMBDA_DECLARATOR) {
        for g in d.children().filter(|c| c.kind() == K::GNU_ATTRIBUTE) {
            cufront_cuda::attrs::add_gnu_attribute(&mut own, &g);
        }
    }
    let space = ExecSpace::from_attrs(&own);
    if space != ExecSpace::ImplicitHost {
        return format!(
            "extended lambda: {}",
            space_line(symbols::SpaceInfo { space, implicit: false, constexpr: false })
        );
    }
    let Some(function) = lambda.ancestors().filter(|a| a.kind() == K::FUNCTION_DEF).last() else {
        return "lambda at namespace scope: host".into();
    };
    let name = function
        .children()
        .find(|c| c.kind() == K::DECLARATOR)
        .and_then(|d| d.descendants_with_tokens().filter_map(|e| e.into_token()).find(|t| t.kind() == K::IDENT));
    let info = name.and_then(|t| {
        let r = resolve::resolve_token(cx, t, false)?;
        let (d, _) = r.targets.first()?.decl(cx.db)?;
        let spaces = symbols::unit_spaces(cx.db, cx.unit.tu);
        Some((d.name.clone(), symbols::exec_space(&spaces, &d, cx.unit.checks.relaxed_constexpr)))
    });
    match info {
        Some((name, info)) => format!("implicitly as its enclosing function `{name}`: {}", space_line(info)),
        None => "implicitly as its enclosing function".into(),
    }
}

fn clip(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} …", &s[..end])
}
