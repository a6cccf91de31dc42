//! Colours (spec 60 §2.5): on when stderr is a terminal, `TERM` is not
//! `dumb`, `NOCOLOR` is unset and `--no_colors` was not given. The palette is
//! `EDG_COLORS`, else `GCC_COLORS`, else EDG's default.

/// What a piece of text is, for colouring.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Category {
    /// error / catastrophic error / internal error words
    Error,
    Warning,
    /// note and remark words
    Note,
    /// the `file(line)` prefix
    Locus,
    /// quoted fill-ins
    Quote,
    /// the ` (declared at line N)` tail
    Range1,
}

/// SGR parameter strings per category (`01;31`); a missing one means no escape.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Palette {
    pub error: Option<String>,
    pub warning: Option<String>,
    pub note: Option<String>,
    pub locus: Option<String>,
    pub quote: Option<String>,
    pub range1: Option<String>,
}

pub const DEFAULT_PALETTE: &str = "error=01;31:warning=01;35:note=01;36:locus=01:quote=01:range1=32";

impl Palette {
    /// Parses `error=01;31:warning=01;35:…`; unknown names are ignored.
    pub fn parse(spec: &str) -> Palette {
        let mut p = Palette::default();
        for item in spec.split(':') {
            let Some((name, code)) = item.split_once('=') else {
                continue;
            };
            let code = Some(code.to_owned());
            match name {
                "error" => p.error = code,
                "warning" => p.warning = code,
                "note" => p.note = code,
                "locus" => p.locus = code,
                "quote" => p.quote = code,
                "range1" => p.range1 = code,
                _ => {}
            }
        }
        p
    }

    pub fn get(&self, cat: Category) -> Option<&str> {
        match cat {
            Category::Error => self.error.as_deref(),
            Category::Warning => self.warning.as_deref(),
            Category::Note => self.note.as_deref(),
            Category::Locus => self.locus.as_deref(),
            Category::Quote => self.quote.as_deref(),
            Category::Range1 => self.range1.as_deref(),
        }
    }

    /// The palette cudafe++ would use, or `None` for no colours.
    /// `env` reads an environment variable (injected so tests need no real env).
    pub fn detect(no_colors: bool, stderr_is_tty: bool, env: impl Fn(&str) -> Option<String>) -> Option<Palette> {
        if no_colors || !stderr_is_tty || env("NOCOLOR").is_some() {
            return None;
        }
        if env("TERM").as_deref() == Some("dumb") {
            return None;
        }
        let spec = env("EDG_COLORS").or_else(|| env("GCC_COLORS")).unwrap_or_else(|| DEFAULT_PALETTE.to_owned());
        Some(Palette::parse(&spec))
    }
}
