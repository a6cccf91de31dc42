//! Goto definition, references, workspace symbols.

use cufront_syntax::{SyntaxKind as K, TextSize};

use crate::resolve::{self, Target};
use crate::symbols::{self, DeclKind};
use crate::{Ctx, FileRange, LineCol};

/// A place to navigate to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NavigationTarget {
    pub name: String,
    /// `None` for parameters and locals.
    pub kind: Option<DeclKind>,
    /// Enclosing scopes, `a::B`.
    pub container: String,
    /// The whole declaration.
    pub full_range: FileRange,
    /// The name.
    pub focus_range: FileRange,
    /// In a system header (gcc marker flag 3).
    pub system: bool,
}

fn nav(cx: &Ctx<'_>, t: &Target) -> NavigationTarget {
    let name_range = t.name_range(cx.db);
    let (_, _, system) = cx.position(name_range.start().into());
    match t {
        Target::Decl { start, .. } => {
            let (d, _) = t.decl(cx.db).expect("a Decl target has a declaration");
            NavigationTarget {
                name: d.name.clone(),
                kind: Some(d.kind),
                container: d.scope.join("::"),
                full_range: cx.file_range(d.full_range + TextSize::from(*start)),
                focus_range: cx.file_range(name_range),
                system,
            }
        }
        Target::Local { decl, .. } => {
            let text = cx.text();
            NavigationTarget {
                name: text[name_range].to_string(),
                kind: None,
                container: String::new(),
                full_range: cx.file_range(*decl),
                focus_range: cx.file_range(name_range),
                system,
            }
        }
    }
}

pub(crate) fn goto_definition(cx: &Ctx<'_>, pos: LineCol) -> Vec<NavigationTarget> {
    let Some(offset) = cx.offset(pos) else {
        return Vec::new();
    };
    let root = cx.parse().syntax_node();
    let Some(res) = resolve::resolve(cx, &root, offset, true) else {
        return Vec::new();
    };
    // On a declaration, go to the definition of what it declares.
    let mut targets = res.targets.clone();
    if res.is_declaration
        && let Some((d, _)) = targets.first().and_then(|t| t.decl(cx.db))
        && !d.definition
    {
        let index = symbols::name_index(cx.db, cx.unit.tu);
        let starts = symbols::item_starts(cx.db, cx.unit.tu);
        for &(item, idx) in index.get(&d.name).into_iter().flatten() {
            let other = &symbols::item_decls(cx.db, item)[idx as usize];
            if other.definition
                && other.kind == d.kind
                && other.qualified_name() == d.qualified_name()
                && let Some(start) = starts.start_of(item)
            {
                targets = vec![Target::Decl { item, start, idx }];
            }
        }
    }
    // Definitions first; declarations of the same entity are kept as further targets.
    let mut navs: Vec<NavigationTarget> = targets.iter().map(|t| nav(cx, t)).collect();
    let defined: Vec<bool> = targets.iter().map(|t| t.decl(cx.db).is_none_or(|(d, _)| d.definition)).collect();
    let mut order: Vec<usize> = (0..navs.len()).collect();
    order.sort_by_key(|&i| !defined[i]);
    navs = order.into_iter().map(|i| navs[i].clone()).collect();
    navs.dedup_by(|a, b| a.focus_range == b.focus_range);
    navs
}

/// Every identifier of the unit's user files (not system headers) that
/// resolves to what the identifier at `pos` resolves to, declarations included.
pub(crate) fn references(cx: &Ctx<'_>, pos: LineCol) -> Vec<FileRange> {
    let Some(offset) = cx.offset(pos) else {
        return Vec::new();
    };
    let root = cx.parse().syntax_node();
    let Some(res) = resolve::resolve(cx, &root, offset, true) else {
        return Vec::new();
    };
    let Some(first) = res.targets.first().cloned() else {
        return Vec::new();
    };
    let wanted = first.identity(cx.db);
    let name = res.token.text().to_string();
    let mut out = Vec::new();
    for tok in root.descendants_with_tokens().filter_map(|e| e.into_token()) {
        if tok.kind() != K::IDENT || tok.text() != name {
            continue;
        }
        let at: u32 = tok.text_range().start().into();
        if cx.is_system(at) {
            continue;
        }
        let Some(r) = resolve::resolve_token(cx, tok.clone(), true) else {
            continue;
        };
        if r.targets.iter().any(|t| t.identity(cx.db) == wanted) {
            out.push(cx.file_range(tok.text_range()));
        }
    }
    out.sort();
    out.dedup();
    out
}

pub(crate) fn workspace_symbols(cx: &Ctx<'_>, query: &str, limit: usize, out: &mut Vec<NavigationTarget>) {
    let q = query.to_lowercase();
    let index = symbols::name_index(cx.db, cx.unit.tu);
    let starts = symbols::item_starts(cx.db, cx.unit.tu);
    let mut names: Vec<&String> = index.keys().filter(|n| n.to_lowercase().contains(&q)).collect();
    names.sort();
    let mut found = Vec::new();
    for n in names {
        for &(item, idx) in &index[n] {
            let Some(start) = starts.start_of(item) else {
                continue;
            };
            found.push(nav(cx, &Target::Decl { item, start, idx }));
        }
    }
    // User declarations first, then the headers'.
    found.sort_by_key(|n| n.system);
    out.extend(found.into_iter().take(limit * 4));
}
