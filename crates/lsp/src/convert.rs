//! Between LSP's coordinates (URIs, UTF-16 columns, relative semantic
//! tokens) and `cufront-ide`'s (absolute paths, byte columns).

use cufront_ide::{
    DeclKind, Diagnostic, FileRange, LineCol, NavigationTarget, SemanticToken, Severity, StructureNode, TokenKind,
    TokenModifier,
};
use lsp_types as lt;

/// A file's lines, to convert columns (byte ↔ UTF-16).
pub(crate) trait LineSource {
    fn line(&self, file: &str, line: u32) -> Option<String>;
}

pub(crate) fn path_of(uri: &lt::Url) -> Option<String> {
    uri.to_file_path().ok().map(|p| p.to_string_lossy().into_owned())
}

pub(crate) fn uri_of(path: &str) -> lt::Url {
    lt::Url::from_file_path(path).unwrap_or_else(|_| lt::Url::parse("file:///").expect("a valid URL"))
}

/// UTF-16 column → byte column on `line`.
pub(crate) fn byte_col(line: &str, utf16: u32) -> u32 {
    let mut units = 0u32;
    for (i, c) in line.char_indices() {
        if units >= utf16 {
            return i as u32;
        }
        units += c.len_utf16() as u32;
    }
    line.len() as u32
}

/// Byte column → UTF-16 column on `line`.
pub(crate) fn utf16_col(line: &str, byte: u32) -> u32 {
    let mut end = (byte as usize).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    line[..end].encode_utf16().count() as u32
}

pub(crate) fn position(src: &dyn LineSource, file: &str, p: LineCol) -> lt::Position {
    let col = match src.line(file, p.line) {
        Some(l) => utf16_col(&l, p.col),
        None => p.col,
    };
    lt::Position { line: p.line, character: col }
}

pub(crate) fn line_col(src: &dyn LineSource, file: &str, p: lt::Position) -> LineCol {
    let col = match src.line(file, p.line) {
        Some(l) => byte_col(&l, p.character),
        None => p.character,
    };
    LineCol { line: p.line, col }
}

pub(crate) fn range(src: &dyn LineSource, r: &FileRange) -> lt::Range {
    lt::Range { start: position(src, &r.file, r.start), end: position(src, &r.file, r.end) }
}

pub(crate) fn location(src: &dyn LineSource, r: &FileRange) -> lt::Location {
    lt::Location { uri: uri_of(&r.file), range: range(src, r) }
}

pub(crate) fn diagnostic(src: &dyn LineSource, d: &Diagnostic) -> lt::Diagnostic {
    lt::Diagnostic {
        range: range(src, &d.range),
        severity: Some(match d.severity {
            Severity::Error => lt::DiagnosticSeverity::ERROR,
            Severity::Warning => lt::DiagnosticSeverity::WARNING,
            Severity::Note => lt::DiagnosticSeverity::INFORMATION,
        }),
        code: d.code.map(|c| lt::NumberOrString::Number(c as i32)),
        source: Some("cufront".into()),
        message: d.message.clone(),
        related_information: (!d.related.is_empty()).then(|| {
            d.related
                .iter()
                .map(|r| lt::DiagnosticRelatedInformation {
                    location: location(src, &r.range),
                    message: r.message.clone(),
                })
                .collect()
        }),
        ..lt::Diagnostic::default()
    }
}

pub(crate) fn symbol_kind(k: DeclKind, member: bool) -> lt::SymbolKind {
    match k {
        DeclKind::Namespace => lt::SymbolKind::NAMESPACE,
        DeclKind::Class | DeclKind::Union => lt::SymbolKind::CLASS,
        DeclKind::Struct => lt::SymbolKind::STRUCT,
        DeclKind::Enum => lt::SymbolKind::ENUM,
        DeclKind::Enumerator => lt::SymbolKind::ENUM_MEMBER,
        DeclKind::Function if member => lt::SymbolKind::METHOD,
        DeclKind::Function => lt::SymbolKind::FUNCTION,
        DeclKind::Variable => lt::SymbolKind::VARIABLE,
        DeclKind::Field => lt::SymbolKind::FIELD,
        DeclKind::Typedef => lt::SymbolKind::TYPE_PARAMETER,
        DeclKind::Concept => lt::SymbolKind::INTERFACE,
    }
}

pub(crate) fn completion_kind(k: DeclKind) -> lt::CompletionItemKind {
    match k {
        DeclKind::Namespace => lt::CompletionItemKind::MODULE,
        DeclKind::Class | DeclKind::Union => lt::CompletionItemKind::CLASS,
        DeclKind::Struct => lt::CompletionItemKind::STRUCT,
        DeclKind::Enum => lt::CompletionItemKind::ENUM,
        DeclKind::Enumerator => lt::CompletionItemKind::ENUM_MEMBER,
        DeclKind::Function => lt::CompletionItemKind::FUNCTION,
        DeclKind::Variable => lt::CompletionItemKind::VARIABLE,
        DeclKind::Field => lt::CompletionItemKind::FIELD,
        DeclKind::Typedef => lt::CompletionItemKind::TYPE_PARAMETER,
        DeclKind::Concept => lt::CompletionItemKind::INTERFACE,
    }
}

#[allow(deprecated)]
pub(crate) fn document_symbol(src: &dyn LineSource, n: &StructureNode) -> lt::DocumentSymbol {
    lt::DocumentSymbol {
        name: n.name.clone(),
        detail: (!n.detail.is_empty()).then(|| n.detail.clone()),
        kind: symbol_kind(n.kind, n.member),
        tags: None,
        deprecated: None,
        range: range(src, &n.range),
        selection_range: range(src, &n.selection),
        children: Some(n.children.iter().map(|c| document_symbol(src, c)).collect()),
    }
}

#[allow(deprecated)]
pub(crate) fn symbol_information(src: &dyn LineSource, n: &NavigationTarget) -> lt::SymbolInformation {
    lt::SymbolInformation {
        name: n.name.clone(),
        kind: n.kind.map_or(lt::SymbolKind::VARIABLE, |k| symbol_kind(k, false)),
        tags: None,
        deprecated: None,
        location: location(src, &n.focus_range),
        container_name: (!n.container.is_empty()).then(|| n.container.clone()),
    }
}

/// The token types, in `TokenKind` order (the legend).
pub(crate) const TOKEN_TYPES: &[TokenKind] = &[
    TokenKind::Namespace,
    TokenKind::Class,
    TokenKind::Struct,
    TokenKind::Enum,
    TokenKind::EnumMember,
    TokenKind::Type,
    TokenKind::Function,
    TokenKind::Method,
    TokenKind::Variable,
    TokenKind::Parameter,
    TokenKind::Property,
    TokenKind::Concept,
];

pub(crate) fn legend() -> lt::SemanticTokensLegend {
    let name = |k: &TokenKind| match k {
        TokenKind::Namespace => lt::SemanticTokenType::NAMESPACE,
        TokenKind::Class => lt::SemanticTokenType::CLASS,
        TokenKind::Struct => lt::SemanticTokenType::STRUCT,
        TokenKind::Enum => lt::SemanticTokenType::ENUM,
        TokenKind::EnumMember => lt::SemanticTokenType::ENUM_MEMBER,
        TokenKind::Type => lt::SemanticTokenType::TYPE,
        TokenKind::Function => lt::SemanticTokenType::FUNCTION,
        TokenKind::Method => lt::SemanticTokenType::METHOD,
        TokenKind::Variable => lt::SemanticTokenType::VARIABLE,
        TokenKind::Parameter => lt::SemanticTokenType::PARAMETER,
        TokenKind::Property => lt::SemanticTokenType::PROPERTY,
        TokenKind::Concept => lt::SemanticTokenType::new("concept"),
    };
    lt::SemanticTokensLegend {
        token_types: TOKEN_TYPES.iter().map(name).collect(),
        token_modifiers: TokenModifier::ALL.iter().map(|m| lt::SemanticTokenModifier::new(m.name())).collect(),
    }
}

/// Tokens (sorted) in LSP's relative encoding.
pub(crate) fn semantic_tokens(src: &dyn LineSource, file: &str, toks: &[SemanticToken]) -> Vec<lt::SemanticToken> {
    let mut out = Vec::with_capacity(toks.len());
    let (mut prev_line, mut prev_col) = (0u32, 0u32);
    let mut cached: Option<(u32, String)> = None;
    for t in toks {
        if cached.as_ref().is_none_or(|(l, _)| *l != t.start.line) {
            cached = src.line(file, t.start.line).map(|s| (t.start.line, s));
        }
        let (col, len) = match &cached {
            Some((_, l)) => {
                let c = utf16_col(l, t.start.col);
                (c, utf16_col(l, t.start.col + t.len) - c)
            }
            None => (t.start.col, t.len),
        };
        let delta_line = t.start.line - prev_line;
        let delta_start = if delta_line == 0 { col - prev_col } else { col };
        out.push(lt::SemanticToken {
            delta_line,
            delta_start,
            length: len,
            token_type: TOKEN_TYPES.iter().position(|k| *k == t.kind).unwrap_or(0) as u32,
            token_modifiers_bitset: t.modifiers,
        });
        prev_line = t.start.line;
        prev_col = col;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns() {
        let l = "int é = 1; // 😀 x";
        assert_eq!(utf16_col(l, 6), 5);
        assert_eq!(byte_col(l, 5), 6);
        let smile = l.find('😀').unwrap() as u32;
        assert_eq!(utf16_col(l, smile + 4), utf16_col(l, smile) + 2);
        assert_eq!(byte_col(l, utf16_col(l, smile + 4)), smile + 4);
    }
}
