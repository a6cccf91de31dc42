//! The lexer: preprocessed C++ text to a flat list of tokens (kind + length).
//!
//! It is context free and lossless: the lengths of all tokens add up to the
//! input, trivia included. Lexical errors become `ERROR_TOKEN`s or are
//! reported next to a well-formed token; the lexer never fails.
//!
//! `>` is always lexed alone: whether `>>`, `>=` and `>>=` are one operator
//! or the ends of template argument lists is the parser's decision
//! (it glues joint tokens, see `parser::Parser::at_composite`).

use crate::SyntaxKind::{self, *};

/// The language options that change lexing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LexOptions {
    /// C++20 keywords (`char8_t`, `concept`, `requires`, `co_*`, `consteval`, `constinit`).
    pub cxx20: bool,
    /// Digit separators (C++14 and later).
    pub digit_separators: bool,
}

impl Default for LexOptions {
    fn default() -> Self {
        LexOptions { cxx20: false, digit_separators: true }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    /// Index of the offending token.
    pub token: usize,
    /// Where in the text, when not at the token's start (a byte of a raw
    /// string's delimiter, possibly inside a multi-byte character).
    pub offset: Option<u32>,
    pub msg: String,
    /// `Error`, or `Warning` for the lexer's warnings.
    pub severity: crate::SyntaxSeverity,
}

/// The result of lexing: parallel arrays of kinds and start offsets.
#[derive(Debug, Default, Clone)]
pub struct Lexed {
    kinds: Vec<SyntaxKind>,
    /// `starts[i]` is the offset of token `i`; one extra entry holds the text length.
    starts: Vec<u32>,
    pub errors: Vec<LexError>,
    /// The significant (non-trivia) tokens, for the parser: their indices,
    /// their kinds, and whether each immediately follows the one before (no
    /// trivia between). Made while lexing, where the tokens are at hand.
    sig: Vec<u32>,
    sig_kinds: Vec<SyntaxKind>,
    sig_follows: Vec<bool>,
}

impl Lexed {
    pub fn len(&self) -> usize {
        self.kinds.len()
    }
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }
    pub fn kind(&self, i: usize) -> SyntaxKind {
        self.kinds[i]
    }
    pub fn kinds(&self) -> &[SyntaxKind] {
        &self.kinds
    }
    pub fn start(&self, i: usize) -> u32 {
        self.starts[i]
    }
    pub fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.starts[i] as usize..self.starts[i + 1] as usize
    }
    pub fn text<'a>(&self, src: &'a str, i: usize) -> &'a str {
        &src[self.range(i)]
    }
    /// The significant tokens: indices, kinds, and "follows the previous one".
    pub(crate) fn significant(&self) -> (&[u32], &[SyntaxKind], &[bool]) {
        (&self.sig, &self.sig_kinds, &self.sig_follows)
    }
}

/// Lexes `text`. Offsets are `u32`: inputs above 4 GiB are not supported.
///
/// A large text is lexed in two halves on two threads, split at the start
/// of a line; the result is the same as lexing it in one piece.
pub fn lex(text: &str, opts: LexOptions) -> Lexed {
    match split_point(text) {
        Some(split) if text.len() >= PARALLEL_LEX_MIN_BYTES => lex_split(text, opts, split),
        _ => {
            let mut lx = Lexer::new(text, opts, 0, text.len());
            lx.run(text.len());
            lx.finish()
        }
    }
}

/// Texts at least this long are lexed on two threads.
const PARALLEL_LEX_MIN_BYTES: usize = 1 << 20;

/// Where to split `text` for lexing its halves apart: the start of a line
/// near the middle that begins with neither whitespace (NUL included) nor a backslash.
/// Lexing is context free but for "at the start of a line" (directives),
/// so if lexing the first half ends exactly there (the newline ends a
/// whitespace token), the second half's tokens are the same lexed apart.
fn split_point(text: &str) -> Option<usize> {
    let src = text.as_bytes();
    let mid = src.len() / 2;
    let window = &src[mid..src.len().min(mid + (1 << 20))];
    memchr::memchr_iter(b'\n', window)
        .map(|i| mid + i + 1)
        .find(|&at| src.get(at).is_some_and(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0 | b'\\')))
}

/// `lex` with the text split at `split` (see `split_point`), the second
/// half lexed on another thread; if the first half's last token runs past
/// `split` (a comment, a raw string), the first half's lexer goes on alone.
fn lex_split(text: &str, opts: LexOptions, split: usize) -> Lexed {
    let (mut first, second) = std::thread::scope(|s| {
        let second = s.spawn(|| {
            let mut lx = Lexer::new(text, opts, split, text.len() - split);
            lx.run(text.len());
            lx
        });
        let mut first = Lexer::new(text, opts, 0, text.len());
        first.run(split);
        (first, second.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    if first.pos != split || !first.line_start {
        first.run(text.len());
        return first.finish();
    }
    let offset = first.out.kinds.len();
    let Lexed { kinds, starts, errors, sig, sig_kinds, sig_follows } = second.out;
    let out = &mut first.out;
    out.kinds.extend_from_slice(&kinds);
    out.starts.extend_from_slice(&starts);
    out.errors.extend(errors.into_iter().map(|e| LexError { token: e.token + offset, ..e }));
    // The second half starts after a newline: its first significant token follows trivia.
    out.sig.extend(sig.iter().map(|&i| i + offset as u32));
    out.sig_kinds.extend_from_slice(&sig_kinds);
    out.sig_follows.extend_from_slice(&sig_follows);
    first.pos = second.pos;
    first.finish()
}

/// Keyword kind for `text` under `opts`, or `None` for an identifier.
pub fn keyword_kind(text: &str, opts: LexOptions) -> Option<SyntaxKind> {
    // Every identifier is looked up: a filter on (first byte, last byte,
    // length) turns most away, then one hash probe beats matching the
    // spelling against each keyword of its length.
    struct Keywords {
        table: rustc_hash::FxHashMap<&'static str, SyntaxKind>,
        /// Bit `len` of `lengths[filter_slot(first, last)]`: a keyword could have that shape.
        lengths: Vec<u64>,
    }
    fn filter_slot(t: &[u8]) -> usize {
        (t[0] as usize & 0x3f) << 6 | (t[t.len() - 1] as usize & 0x3f)
    }
    static KEYWORDS: std::sync::LazyLock<Keywords> = std::sync::LazyLock::new(|| {
        let keywords = (0..SyntaxKind::__LAST as u16).map(SyntaxKind::from).filter(|k| k.is_keyword());
        let spelled = keywords.filter_map(|k| Some((k.text()?, k)));
        let table: rustc_hash::FxHashMap<_, _> = spelled.chain(ALTERNATIVE_TOKENS.iter().copied()).collect();
        let mut lengths = vec![0u64; 1 << 12];
        for t in table.keys() {
            lengths[filter_slot(t.as_bytes())] |= 1 << t.len();
        }
        Keywords { table, lengths }
    });
    let bytes = text.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_KEYWORD_LEN {
        return None;
    }
    let keywords = &*KEYWORDS;
    if keywords.lengths[filter_slot(bytes)] & (1 << bytes.len()) == 0 {
        return None;
    }
    let kind = *keywords.table.get(text)?;
    debug_assert_eq!(Some(kind), SyntaxKind::from_keyword_text(text).or_else(|| alternative_token(text)));
    match kind {
        CHAR8_T_KW | CONCEPT_KW | CONSTEVAL_KW | CONSTINIT_KW | CO_AWAIT_KW | CO_RETURN_KW | CO_YIELD_KW
        | REQUIRES_KW
            if !opts.cxx20 =>
        {
            None
        }
        // Not keywords in GNU C++ (EDG's gnu mode agrees).
        RESTRICT_KW | DECLSPEC_KW | IMAGINARY_KW | GENERIC_KW | FP16_KW => None,
        _ => Some(kind),
    }
}

/// No keyword or alternative token is longer (`__builtin_...` names are not
/// keywords); below 64, for the length filter of `keyword_kind`.
const MAX_KEYWORD_LEN: usize = 40;

const ALTERNATIVE_TOKENS: &[(&str, SyntaxKind)] = &[
    ("and", AMP2),
    ("or", PIPE2),
    ("not", BANG),
    ("and_eq", AMPEQ),
    ("or_eq", PIPEEQ),
    ("xor", CARET),
    ("xor_eq", CARETEQ),
    ("bitand", AMP),
    ("bitor", PIPE),
    ("compl", TILDE),
    ("not_eq", NEQ),
];

fn alternative_token(text: &str) -> Option<SyntaxKind> {
    ALTERNATIVE_TOKENS.iter().find(|(t, _)| *t == text).map(|&(_, k)| k)
}

struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    opts: LexOptions,
    out: Lexed,
    /// Only trivia since the last newline: a `#` here starts a directive.
    line_start: bool,
    /// The last whitespace token has a newline.
    saw_newline: bool,
    /// The last token is significant.
    prev_sig: bool,
    /// Where the token being lexed starts.
    tok_start: usize,
}

/// `IDENT_ASCII[b]`: the ASCII byte `b` continues an identifier.
static IDENT_ASCII: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = is_ident_continue(b as u8);
        b += 1;
    }
    t
};

/// The UTF-8 encoding of U+FEFF.
pub const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// A raw string's delimiter is at most this many bytes long.
const MAX_RAW_DELIMITER: usize = 16;

/// May byte `b` be part of a raw string's delimiter? The basic source
/// characters but space, `(`, `)`, `\` and the control characters; `$`,
/// `@`, `` ` `` and every byte of a non-ASCII character are invalid.
fn is_raw_delimiter_char(b: u8) -> bool {
    b.is_ascii_graphic() && !matches!(b, b'(' | b')' | b'\\' | b'$' | b'@' | b'`')
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}
const fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

impl<'a> Lexer<'a> {
    /// A lexer at `pos` (at the start of a line), sized for about `len` bytes of text.
    fn new(text: &'a str, opts: LexOptions, pos: usize, len: usize) -> Lexer<'a> {
        let mut out = Lexed::default();
        out.kinds.reserve(len / 4);
        out.starts.reserve(len / 4 + 1);
        out.sig.reserve(len / 6);
        out.sig_kinds.reserve(len / 6);
        out.sig_follows.reserve(len / 6);
        Lexer {
            src: text.as_bytes(),
            text,
            pos,
            opts,
            out,
            line_start: true,
            saw_newline: false,
            prev_sig: false,
            tok_start: pos,
        }
    }

    /// Lexes tokens while the next one starts before `stop`.
    fn run(&mut self, stop: usize) {
        while self.pos < stop {
            let start = self.pos;
            self.tok_start = start;
            let kind = self.next_token();
            debug_assert!(self.pos > start, "lexer made no progress");
            let index = self.out.kinds.len() as u32;
            self.out.kinds.push(kind);
            self.out.starts.push(start as u32);
            if kind.is_trivia() {
                self.prev_sig = false;
            } else {
                self.out.sig.push(index);
                self.out.sig_kinds.push(kind);
                self.out.sig_follows.push(self.prev_sig);
                self.prev_sig = true;
            }
            if kind == WHITESPACE {
                if self.saw_newline {
                    self.line_start = true;
                }
            } else if kind != COMMENT {
                self.line_start = false;
            }
        }
    }

    fn finish(mut self) -> Lexed {
        debug_assert_eq!(self.pos, self.src.len());
        self.out.starts.push(self.src.len() as u32);
        self.out
    }

    fn peek(&self, n: usize) -> u8 {
        self.src.get(self.pos + n).copied().unwrap_or(0)
    }

    /// An error at the token being lexed.
    fn error(&mut self, msg: impl Into<String>) {
        let token = self.out.kinds.len();
        self.out.errors.push(LexError { token, offset: None, msg: msg.into(), severity: crate::SyntaxSeverity::Error });
    }

    /// A warning at byte `offset` of the text, in the token being lexed.
    fn warning_at(&mut self, offset: usize, msg: &str) {
        let token = self.out.kinds.len();
        let offset = (offset != self.tok_start).then_some(offset as u32);
        self.out.errors.push(LexError { token, offset, msg: msg.into(), severity: crate::SyntaxSeverity::Warning });
    }

    /// An error at byte `offset` inside the token being lexed.
    fn error_at(&mut self, offset: usize, msg: impl Into<String>) {
        let token = self.out.kinds.len();
        self.out.errors.push(LexError {
            token,
            offset: Some(offset as u32),
            msg: msg.into(),
            severity: crate::SyntaxSeverity::Error,
        });
    }

    /// Advances past one (possibly multi-byte) character.
    fn bump_char(&mut self) {
        let len = self.text[self.pos..].chars().next().map_or(1, char::len_utf8);
        self.pos += len;
    }

    fn next_token(&mut self) -> SyntaxKind {
        // A UTF-8 byte order mark opening the text is whitespace (EDG skips
        // it): a line marker after it still starts a line.
        if self.pos == 0 && self.src.starts_with(UTF8_BOM) {
            self.pos = UTF8_BOM.len();
            return WHITESPACE;
        }
        let b = self.peek(0);
        match b {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => self.whitespace(),
            // EDG ignores a NUL outside comments and literals (with warning
            // 1192, which the cudafe++ mode reports): it separates tokens.
            0 if self.pos < self.src.len() => self.whitespace(),
            // A line splice (`\` newline); a `\` before a lone `\r` is a stray backslash.
            b'\\' if self.peek(1) == b'\n' || (self.peek(1) == b'\r' && self.peek(2) == b'\n') => self.whitespace(),
            b'/' if self.peek(1) == b'/' => {
                self.skip_to_eol();
                COMMENT
            }
            b'/' if self.peek(1) == b'*' => {
                self.pos += 2;
                match memchr::memmem::find(&self.src[self.pos..], b"*/") {
                    Some(i) => self.pos += i + 2,
                    None => {
                        self.pos = self.src.len();
                        self.error("comment unclosed at end of file");
                    }
                }
                COMMENT
            }
            b'#' if self.line_start => self.directive(),
            b'0'..=b'9' => self.number(),
            b'.' if self.peek(1).is_ascii_digit() => self.number(),
            b'"' | b'\'' => self.quoted(),
            _ if is_ident_start(b) => self.ident_or_literal(),
            b'\\' if matches!(self.peek(1), b'u' | b'U') => self.ident_or_literal(),
            _ => self.punct(),
        }
    }

    fn whitespace(&mut self) -> SyntaxKind {
        let mut newline = false;
        loop {
            match self.peek(0) {
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                0 if self.pos < self.src.len() => self.pos += 1,
                b'\n' => {
                    newline = true;
                    self.pos += 1;
                }
                b'\\' if self.peek(1) == b'\n' => {
                    newline = true;
                    self.pos += 2;
                }
                b'\\' if self.peek(1) == b'\r' && self.peek(2) == b'\n' => {
                    newline = true;
                    self.pos += 3;
                }
                _ => break,
            }
        }
        self.saw_newline = newline;
        WHITESPACE
    }

    /// Skips to the end of the line (not past the newline), honouring backslash continuations.
    fn skip_to_eol(&mut self) {
        let start = self.pos;
        loop {
            let Some(i) = memchr::memchr(b'\n', &self.src[self.pos..]) else {
                self.pos = self.src.len();
                return;
            };
            let nl = self.pos + i;
            // A line splice (`\` newline, or `\` CR LF) continues the line.
            let before = &self.src[start..nl];
            let spliced = before.ends_with(b"\\") || before.ends_with(b"\\\r");
            if !spliced {
                // A `\r` right before the newline stays with the directive text.
                self.pos = nl;
                return;
            }
            self.pos = nl + 1;
        }
    }

    fn directive(&mut self) -> SyntaxKind {
        let mut i = self.pos + 1;
        while i < self.src.len() && matches!(self.src[i], b' ' | b'\t' | 0) {
            i += 1;
        }
        let rest = &self.src[i..];
        let is_marker = rest.first().is_some_and(u8::is_ascii_digit) || rest.starts_with(b"line ");
        let start = self.pos;
        self.skip_to_eol();
        for e in crate::source_map::check_directive(&self.text[start..self.pos]) {
            self.error_at(start + e.offset, e.msg);
        }
        if is_marker { LINE_MARKER } else { PP_DIRECTIVE }
    }

    /// A preprocessing number (see `numbers`): digits, letters, `_`, `.`,
    /// digit separators, and a sign after an exponent letter; its lexical
    /// errors are EDG's (`numbers::check`).
    fn number(&mut self) -> SyntaxKind {
        let start = self.pos;
        loop {
            let c = self.peek(0);
            if c.is_ascii_alphanumeric() || c == b'_' {
                self.pos += 1;
                // A sign after an exponent letter continues the number,
                // unless a user-defined suffix (`1_e`) has started.
                if matches!(c | 0x20, b'e' | b'p')
                    && matches!(self.peek(0), b'+' | b'-')
                    && !self.text[start..self.pos - 1].contains('_')
                {
                    self.pos += 1;
                }
            } else if c == b'.' || (c == b'\'' && self.opts.digit_separators) {
                self.pos += 1;
            } else if c >= 0x80 {
                self.bump_char();
            } else {
                break;
            }
        }
        let (float, errors) = crate::numbers::check(&self.src[start..self.pos], self.opts.digit_separators);
        for e in errors {
            if e.offset == 0 {
                self.error(e.msg);
            } else {
                self.error_at(start + e.offset, e.msg);
            }
        }
        if !self.opts.digit_separators && self.peek(0) == b'\'' {
            self.warning_at(self.pos, "digit separators not enabled, apostrophe begins a character literal");
        }
        if float { FLOAT_NUMBER } else { INT_NUMBER }
    }

    fn ident_or_literal(&mut self) -> SyntaxKind {
        // Encoding prefixes: L, u, U, u8, optionally followed by R, then a quote.
        let p: &[u8] = &self.src[self.pos..];
        if matches!(p[0], b'u' | b'U' | b'L' | b'R') {
            for prefix in [&b"u8R"[..], b"uR", b"UR", b"LR", b"R"] {
                if p.starts_with(prefix) && p.get(prefix.len()) == Some(&b'"') {
                    self.pos += prefix.len();
                    return self.raw_string();
                }
            }
            for prefix in [&b"u8"[..], b"u", b"U", b"L"] {
                if p.starts_with(prefix) && matches!(p.get(prefix.len()), Some(b'"' | b'\'')) {
                    self.pos += prefix.len();
                    return self.quoted();
                }
            }
        }
        let start = self.pos;
        self.ident_chars();
        keyword_kind(&self.text[start..self.pos], self.opts).unwrap_or(IDENT)
    }

    fn ident_chars(&mut self) {
        loop {
            // The common case: ASCII letters, digits, `_`, `$`.
            while self.pos < self.src.len() && IDENT_ASCII[self.src[self.pos] as usize] {
                self.pos += 1;
            }
            let c = self.peek(0);
            if c >= 0x80 {
                self.bump_char();
            } else if c == b'\\' && matches!(self.peek(1), b'u' | b'U') {
                self.pos += 2;
            } else {
                break;
            }
        }
    }

    fn udl_suffix(&mut self) {
        if is_ident_start(self.peek(0)) {
            self.ident_chars();
        }
    }

    fn quoted(&mut self) -> SyntaxKind {
        let quote = self.peek(0);
        self.pos += 1;
        if quote == b'\'' && self.peek(0) == b'\'' {
            // The token starts at the encoding prefix, the error at the quote.
            self.error_at(self.pos - 1, "quoted string should contain at least one character");
        }
        loop {
            match self.peek(0) {
                0 if self.pos >= self.src.len() => break,
                b'\n' => break,
                b'\\' => {
                    self.pos += 1;
                    if self.pos < self.src.len() {
                        self.bump_char();
                    }
                }
                c if c == quote => {
                    self.pos += 1;
                    if quote == b'\'' {
                        self.char_count_warning();
                    }
                    self.udl_suffix();
                    return if quote == b'"' { STRING } else { CHAR };
                }
                // Bytes, not characters: no byte of a multi-byte UTF-8
                // character is a quote, a backslash or a newline.
                _ => self.pos += 1,
            }
        }
        // EDG reports the missing quote and goes on with the literal as
        // written: it is a string or character literal to the parser.
        self.error("missing closing quote");
        if quote == b'"' { STRING } else { CHAR }
    }

    /// EDG's warnings for a character literal (the token ends after its
    /// closing quote): 27 for an escape of a plain literal beyond a byte,
    /// then 1422 for several characters without an encoding prefix, 26 with
    /// one (`u8` aside). Only ASCII text is judged.
    fn char_count_warning(&mut self) {
        let token = &self.src[self.tok_start..self.pos];
        let Some(open) = token.iter().position(|&b| b == b'\'') else { return };
        let body = &token[open + 1..token.len() - 1];
        if !body.is_ascii() || token.starts_with(b"u8") {
            return;
        }
        let mut count = 0;
        let mut i = 0;
        let mut out_of_range = Vec::new();
        while i < body.len() {
            count += 1;
            if body[i] != b'\\' {
                i += 1;
                continue;
            }
            let rest = &body[i + 1..];
            let digits = |f: fn(&u8) -> bool, max: usize| rest[1..].iter().take(max).take_while(|b| f(b)).count();
            let (len, value) = match rest.first() {
                Some(b'x') => {
                    let n = digits(u8::is_ascii_hexdigit, usize::MAX);
                    let text = std::str::from_utf8(&rest[1..1 + n]).unwrap_or("");
                    (1 + n, u64::from_str_radix(text, 16).unwrap_or(u64::MAX))
                }
                Some(b'u') => (1 + digits(u8::is_ascii_hexdigit, 4), 0),
                Some(b'U') => (1 + digits(u8::is_ascii_hexdigit, 8), 0),
                Some(b'0'..=b'7') => {
                    let n = rest.iter().take(3).take_while(|b| matches!(b, b'0'..=b'7')).count();
                    let text = std::str::from_utf8(&rest[..n]).unwrap_or("");
                    (n, u64::from_str_radix(text, 8).unwrap_or(0))
                }
                Some(_) => (1, 0),
                None => (0, 0),
            };
            // A plain character literal's escape names one byte.
            if open == 0 && value > 0xff {
                out_of_range.push(self.tok_start + open + 1 + i);
            }
            i += 1 + len;
        }
        for at in out_of_range {
            self.warning_at(at, "character value is out of range");
        }
        if count > 1 {
            let msg = if open == 0 {
                "multicharacter character literal (potential portability problem)"
            } else {
                "too many characters in character constant"
            };
            self.warning_at(self.tok_start, msg);
        }
    }

    /// A raw string literal, at its opening quote (the prefix is consumed).
    /// EDG's rules (docs/malformed-input.md): the `(` must come within 16
    /// bytes of the quote, else the raw indicator is ignored and the
    /// literal is lexed as an ordinary string; each byte of the delimiter
    /// that is not a basic source character is reported, each distinct byte
    /// value once (a multi-byte UTF-8 character is reported byte by byte).
    fn raw_string(&mut self) -> SyntaxKind {
        debug_assert_eq!(self.peek(0), b'"');
        let quote = self.pos;
        let dstart = quote + 1;
        let window = &self.src[dstart..self.src.len().min(dstart + MAX_RAW_DELIMITER + 1)];
        let Some(len) = window.iter().position(|&b| b == b'(' || b == b'\n').filter(|&i| window[i] == b'(') else {
            self.error("parenthesis terminating raw string delimiter not found within 16 characters -- raw string indicator ignored");
            return self.quoted();
        };
        let delim = &self.src[dstart..dstart + len];
        let mut reported = [false; 256];
        for (i, &b) in delim.iter().enumerate() {
            if !is_raw_delimiter_char(b) && !std::mem::replace(&mut reported[b as usize], true) {
                self.error_at(dstart + i, "invalid character in raw string delimiter");
            }
        }
        let mut close = Vec::with_capacity(len + 2);
        close.push(b')');
        close.extend_from_slice(delim);
        close.push(b'"');
        self.pos = dstart + len + 1;
        match memchr::memmem::find(&self.src[self.pos..], &close) {
            Some(i) => {
                self.pos += i + close.len();
                self.udl_suffix();
                STRING
            }
            None => {
                // A string literal to the end of the input (as for EDG).
                self.pos = self.src.len();
                self.error("ending delimiter for raw string not found");
                STRING
            }
        }
    }

    fn punct(&mut self) -> SyntaxKind {
        let (kind, len) = match (self.peek(0), self.peek(1), self.peek(2)) {
            (b'-', b'>', b'*') => (ARROW_STAR, 3),
            (b'<', b'<', b'=') => (SHLEQ, 3),
            (b'<', b'=', b'>') => (SPACESHIP, 3),
            (b'.', b'.', b'.') => (DOT3, 3),
            (b'%', b':', b'%') if self.peek(3) == b':' => (POUND2, 4),
            (b'<', b':', b':') if !matches!(self.peek(3), b':' | b'>') => (L_ANGLE, 1),
            (b'<', b':', _) => (L_BRACK, 2),
            (b':', b'>', _) => (R_BRACK, 2),
            (b'<', b'%', _) => (L_CURLY, 2),
            (b'%', b'>', _) => (R_CURLY, 2),
            (b'%', b':', _) => (POUND, 2),
            (b'-', b'>', _) => (ARROW, 2),
            (b'+', b'+', _) => (PLUS2, 2),
            (b'-', b'-', _) => (MINUS2, 2),
            (b'<', b'<', _) => (SHL, 2),
            (b'<', b'=', _) => (LTEQ, 2),
            (b'=', b'=', _) => (EQ2, 2),
            (b'!', b'=', _) => (NEQ, 2),
            (b'&', b'&', _) => (AMP2, 2),
            (b'|', b'|', _) => (PIPE2, 2),
            (b'+', b'=', _) => (PLUSEQ, 2),
            (b'-', b'=', _) => (MINUSEQ, 2),
            (b'*', b'=', _) => (STAREQ, 2),
            (b'/', b'=', _) => (SLASHEQ, 2),
            (b'%', b'=', _) => (PERCENTEQ, 2),
            (b'^', b'=', _) => (CARETEQ, 2),
            (b'&', b'=', _) => (AMPEQ, 2),
            (b'|', b'=', _) => (PIPEEQ, 2),
            (b':', b':', _) => (COLON2, 2),
            (b'.', b'*', _) => (DOT_STAR, 2),
            (b'#', b'#', _) => (POUND2, 2),
            (b'+', ..) => (PLUS, 1),
            (b'-', ..) => (MINUS, 1),
            (b'*', ..) => (STAR, 1),
            (b'/', ..) => (SLASH, 1),
            (b'%', ..) => (PERCENT, 1),
            (b'^', ..) => (CARET, 1),
            (b'&', ..) => (AMP, 1),
            (b'|', ..) => (PIPE, 1),
            (b'~', ..) => (TILDE, 1),
            (b'!', ..) => (BANG, 1),
            (b'=', ..) => (EQ, 1),
            (b'<', ..) => (L_ANGLE, 1),
            (b'>', ..) => (R_ANGLE, 1),
            (b',', ..) => (COMMA, 1),
            (b'(', ..) => (L_PAREN, 1),
            (b')', ..) => (R_PAREN, 1),
            (b'[', ..) => (L_BRACK, 1),
            (b']', ..) => (R_BRACK, 1),
            (b'{', ..) => (L_CURLY, 1),
            (b'}', ..) => (R_CURLY, 1),
            (b';', ..) => (SEMI, 1),
            (b':', ..) => (COLON, 1),
            (b'?', ..) => (QUESTION, 1),
            (b'.', ..) => (DOT, 1),
            (b'#', ..) => (POUND, 1),
            // Tokens of no C++ construct: EDG reports them where it reads them.
            (b'@', ..) => {
                self.error("unrecognized token");
                (AT, 1)
            }
            (b'\\', ..) => {
                self.error("unrecognized token");
                (BACKSLASH, 1)
            }
            _ => {
                self.bump_char();
                self.error("unrecognized token");
                return ERROR_TOKEN;
            }
        };
        self.pos += len;
        kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{Expect, expect};

    /// Lexing split anywhere gives the tokens and errors of lexing in one piece.
    #[test]
    fn split_lexing_equals_whole_lexing() {
        let src = "# 1 \"a.cu\"\nint x = 1; /* a\n# 2 */ auto s = R\"d(\n#x\n)d\";\n  #pragma once\n// c \\\n int y;\n\
                   \"unterminated\n'c' u8\"s\" 1.5e+3 \\\n#define z\n\t\n#line 4\nchar c = '\\n'; @ x\n/* open";
        let opts = LexOptions { cxx20: true, digit_separators: true };
        let whole = lex(src, opts);
        assert!(!whole.errors.is_empty());
        for split in 1..src.len() {
            if !src.is_char_boundary(split) {
                continue;
            }
            let parts = lex_split(src, opts, split);
            assert_eq!(parts.kinds, whole.kinds, "split at {split}");
            assert_eq!(parts.starts, whole.starts, "split at {split}");
            assert_eq!(parts.errors, whole.errors, "split at {split}");
            assert_eq!(parts.significant(), whole.significant(), "split at {split}");
        }
        let at = split_point(src).expect("a line start past the middle");
        assert!(src[..at].ends_with('\n'));
    }

    fn check(src: &str, expect: Expect) {
        let lexed = lex(src, LexOptions { cxx20: true, digit_separators: true });
        let mut out = String::new();
        for i in 0..lexed.len() {
            out.push_str(&format!("{:?} {:?}\n", lexed.kind(i), lexed.text(src, i)));
        }
        for e in &lexed.errors {
            match e.offset {
                Some(at) => out.push_str(&format!("error at token {}, byte {at}: {}\n", e.token, e.msg)),
                None => out.push_str(&format!("error at token {}: {}\n", e.token, e.msg)),
            }
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn literals() {
        check(
            r#"0x1p-3 1'000'000u 1e+5f 0b1010 .5 42_km 1.0_e u8"a" LR"x(a)")x" U'c' "s"_sv 0x1e+1"#,
            expect![[r##"
                FLOAT_NUMBER "0x1p-3"
                WHITESPACE " "
                INT_NUMBER "1'000'000u"
                WHITESPACE " "
                FLOAT_NUMBER "1e+5f"
                WHITESPACE " "
                INT_NUMBER "0b1010"
                WHITESPACE " "
                FLOAT_NUMBER ".5"
                WHITESPACE " "
                INT_NUMBER "42_km"
                WHITESPACE " "
                FLOAT_NUMBER "1.0_e"
                WHITESPACE " "
                STRING "u8\"a\""
                WHITESPACE " "
                STRING "LR\"x(a)\")x\""
                WHITESPACE " "
                CHAR "U'c'"
                WHITESPACE " "
                STRING "\"s\"_sv"
                WHITESPACE " "
                INT_NUMBER "0x1e+1"
                error at token 22, byte 80: extra text after expected end of number
            "##]],
        );
    }

    #[test]
    fn directives_and_punct() {
        check(
            "# 1 \"a.cu\" 3\n#pragma pack(1)\nx>>=y<::z a<:0:> and not_eq ->* <=>",
            expect![[r##"
                LINE_MARKER "# 1 \"a.cu\" 3"
                WHITESPACE "\n"
                PP_DIRECTIVE "#pragma pack(1)"
                WHITESPACE "\n"
                IDENT "x"
                R_ANGLE ">"
                R_ANGLE ">"
                EQ "="
                IDENT "y"
                L_ANGLE "<"
                COLON2 "::"
                IDENT "z"
                WHITESPACE " "
                IDENT "a"
                L_BRACK "<:"
                INT_NUMBER "0"
                R_BRACK ":>"
                WHITESPACE " "
                AMP2 "and"
                WHITESPACE " "
                NEQ "not_eq"
                WHITESPACE " "
                ARROW_STAR "->*"
                WHITESPACE " "
                SPACESHIP "<=>"
            "##]],
        );
    }

    #[test]
    fn every_keyword_passes_the_filter() {
        let o20 = LexOptions { cxx20: true, digit_separators: true };
        for kind in (0..SyntaxKind::__LAST as u16).map(SyntaxKind::from).filter(|k| k.is_keyword()) {
            let text = kind.text().unwrap();
            let not_gnu = matches!(kind, RESTRICT_KW | DECLSPEC_KW | IMAGINARY_KW | GENERIC_KW | FP16_KW);
            assert_eq!(keyword_kind(text, o20), (!not_gnu).then_some(kind), "{text}");
        }
        for &(text, kind) in ALTERNATIVE_TOKENS {
            assert_eq!(keyword_kind(text, o20), Some(kind), "{text}");
        }
        for ident in ["x", "_", "__x", "_Tp", "classes", "int_", "__attributes", "std"] {
            assert_eq!(keyword_kind(ident, o20), None, "{ident}");
        }
    }

    #[test]
    fn keyword_gating() {
        let o17 = LexOptions { cxx20: false, digit_separators: true };
        assert_eq!(keyword_kind("char8_t", o17), None);
        assert_eq!(keyword_kind("requires", o17), None);
        assert_eq!(keyword_kind("restrict", o17), None);
        assert_eq!(keyword_kind("__restrict__", o17), Some(RESTRICT2_KW));
        let o20 = LexOptions { cxx20: true, ..o17 };
        assert_eq!(keyword_kind("concept", o20), Some(CONCEPT_KW));
    }

    #[test]
    fn errors_are_tokens() {
        check(
            "\"abc\n'x",
            expect![[r#"
                STRING "\"abc"
                WHITESPACE "\n"
                CHAR "'x"
                error at token 0: missing closing quote
                error at token 2: missing closing quote
            "#]],
        );
    }

    /// Raw string delimiters as EDG reads them: multi-byte characters are
    /// invalid byte by byte (each distinct byte once) and never split the
    /// text; no `(` within 16 bytes makes an ordinary string literal.
    #[test]
    fn raw_string_delimiters() {
        check(
            "R\"é(x)é\" R\"@$@(x)@$@\" R\"éééééééééé(x)éééééééééé\" R\"abcdefghijklmnopq\"",
            expect![[r#"
                STRING "R\"é(x)é\""
                WHITESPACE " "
                STRING "R\"@$@(x)@$@\""
                WHITESPACE " "
                STRING "R\"éééééééééé(x)éééééééééé\""
                WHITESPACE " "
                STRING "R\"abcdefghijklmnopq\""
                error at token 0, byte 2: invalid character in raw string delimiter
                error at token 0, byte 3: invalid character in raw string delimiter
                error at token 2, byte 13: invalid character in raw string delimiter
                error at token 2, byte 14: invalid character in raw string delimiter
                error at token 4: parenthesis terminating raw string delimiter not found within 16 characters -- raw string indicator ignored
                error at token 6: parenthesis terminating raw string delimiter not found within 16 characters -- raw string indicator ignored
            "#]],
        );
        check(
            "R\"ab\n(x)ab\"",
            expect![[r#"
            STRING "R\"ab"
            WHITESPACE "\n"
            L_PAREN "("
            IDENT "x"
            R_PAREN ")"
            IDENT "ab"
            STRING "\""
            error at token 0: parenthesis terminating raw string delimiter not found within 16 characters -- raw string indicator ignored
            error at token 0: missing closing quote
            error at token 6: missing closing quote
        "#]],
        );
        check(
            "u8R\"ab(x",
            expect![[r#"
            STRING "u8R\"ab(x"
            error at token 0: ending delimiter for raw string not found
        "#]],
        );
    }

    /// A NUL byte outside comments and literals is whitespace (EDG ignores
    /// it with a warning); it separates tokens and stays in literals.
    #[test]
    fn nul_bytes() {
        check(
            "in\0t x;\0\n\"a\0b\" // \0\n",
            expect![[r#"
            IDENT "in"
            WHITESPACE "\0"
            IDENT "t"
            WHITESPACE " "
            IDENT "x"
            SEMI ";"
            WHITESPACE "\0\n"
            STRING "\"a\0b\""
            WHITESPACE " "
            COMMENT "// \0"
            WHITESPACE "\n"
        "#]],
        );
    }
}
