//! Signature help inside a call's argument list and inside a kernel
//! launch's `<<< >>>` configuration.

use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextRange, TextSize};

use crate::resolve;
use crate::symbols::{self, DeclKind};
use crate::{Ctx, LineCol};

/// The signatures that fit the call at the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHelp {
    /// Each candidate: its label and its parameters' texts (substrings of the label).
    pub signatures: Vec<(String, Vec<String>)>,
    /// The argument the cursor is in (0-based).
    pub active_parameter: u32,
}

/// The launch configuration's parameters (CUDA Programming Guide, "Execution Configuration").
const LAUNCH: [&str; 4] = ["dim3 gridDim", "dim3 blockDim", "size_t sharedMem = 0", "cudaStream_t stream = 0"];

pub(crate) fn signature_help(cx: &Ctx<'_>, pos: LineCol) -> Option<SignatureHelp> {
    let offset = cx.offset(pos)?;
    let root = cx.parse().syntax_node();
    let tok = root.token_at_offset(TextSize::from(offset)).left_biased()?;
    let list = tok
        .parent_ancestors()
        .find(|a| matches!(a.kind(), K::ARG_LIST | K::LAUNCH_CONFIG) && inside(a, TextSize::from(offset)))?;
    let active = list
        .children_with_tokens()
        .filter(|e| e.kind() == K::COMMA && e.text_range().end() <= TextSize::from(offset))
        .count() as u32;
    let call = list.parent()?;
    let callee = call.children().next()?;
    if list.kind() == K::LAUNCH_CONFIG {
        let name =
            callee.descendants_with_tokens().filter_map(|e| e.into_token()).filter(|t| t.kind() == K::IDENT).last();
        let label = format!("{}<<<{}>>>", name.map_or(String::new(), |t| t.text().to_string()), LAUNCH.join(", "));
        return Some(SignatureHelp {
            signatures: vec![(label, LAUNCH.iter().map(|s| s.to_string()).collect())],
            active_parameter: active,
        });
    }
    let name =
        callee.descendants_with_tokens().filter_map(|e| e.into_token()).filter(|t| t.kind() == K::IDENT).last()?;
    let res = resolve::resolve_token(cx, name, true)?;
    let mut signatures = Vec::new();
    for t in &res.targets {
        let Some((d, start)) = t.decl(cx.db) else {
            continue;
        };
        if d.kind != DeclKind::Function {
            continue;
        }
        let full = d.full_range + TextSize::from(start);
        let Some(node) = root.covering_element(full).into_node() else {
            continue;
        };
        let params = params_of(&node, d.name_range + TextSize::from(start));
        if signatures.iter().any(|(l, _): &(String, Vec<String>)| *l == d.signature) {
            continue;
        }
        signatures.push((d.signature.clone(), params));
    }
    // Overloads by name beyond what resolution picked: all of them help.
    if signatures.len() <= 1 {
        let index = symbols::name_index(cx.db, cx.unit.tu);
        let token = res.token.text().to_string();
        for &(item, idx) in index.get(&token).into_iter().flatten() {
            let d = &symbols::item_decls(cx.db, item)[idx as usize];
            if d.kind == DeclKind::Function
                && !signatures.iter().any(|(l, _)| *l == d.signature)
                && signatures.len() < 16
            {
                let params = params_from_signature(&d.signature);
                signatures.push((d.signature.clone(), params));
            }
        }
    }
    (!signatures.is_empty()).then_some(SignatureHelp { signatures, active_parameter: active })
}

fn inside(list: &SyntaxNode, at: TextSize) -> bool {
    let r = list.text_range();
    r.start() < at && (at < r.end() || !list.last_token().is_some_and(|t| matches!(t.kind(), K::R_PAREN | K::R_ANGLE)))
}

/// The parameters of the function declared with the name at `name`.
fn params_of(decl: &SyntaxNode, name: TextRange) -> Vec<String> {
    let Some(list) = decl
        .descendants()
        .filter(|n| n.kind() == K::PARAM_LIST && n.text_range().start() >= name.end())
        .min_by_key(|n| n.text_range().start())
    else {
        return Vec::new();
    };
    list.children().filter(|c| c.kind() == K::PARAM).map(|p| symbols::cuda_spelling(&symbols::compact(&p))).collect()
}

/// The parameters of a signature's text (for declarations not at hand).
fn params_from_signature(sig: &str) -> Vec<String> {
    let Some(open) = sig.find('(') else {
        return Vec::new();
    };
    let inner = &sig[open + 1..sig.rfind(')').unwrap_or(sig.len())];
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' | '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner[start..].trim().is_empty() {
        out.push(inner[start..].trim().to_string());
    }
    out
}
