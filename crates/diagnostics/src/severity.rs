//! The EDG severity ladder (spec 60 §4.1).
//!
//! The discriminants are EDG's internal levels: the ordering is what the
//! filters compare ("≤ discretionary error may be overridden", "system headers
//! show only ≥ hard error"), so keep the derive(Ord) order equal to the levels.

/// How serious a diagnostic is. `Error` is the *discretionary* error (level 7,
/// changeable by options and pragmas); `HardError` (8) ignores all overrides.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Severity {
    Note = 2,
    Remark = 4,
    Warning = 5,
    CommandLineWarning = 6,
    /// Discretionary error: printed as `error`, shows no number, but options
    /// and pragmas may lower it or suppress it.
    Error = 7,
    HardError = 8,
    Catastrophic = 9,
    CommandLineError = 10,
    Internal = 11,
}

impl Severity {
    /// EDG's numeric level.
    pub fn level(self) -> u8 {
        self as u8
    }

    /// Whether options and pragmas may change it (EDG: level ≤ 7).
    pub fn is_discretionary(self) -> bool {
        self <= Severity::Error
    }

    /// Counted as an error in the trailer (levels 7 and 8).
    pub fn is_error(self) -> bool {
        matches!(self, Severity::Error | Severity::HardError)
    }

    /// Counted as a catastrophic error in the trailer and stops the compilation.
    pub fn is_fatal(self) -> bool {
        self >= Severity::Catastrophic
    }

    /// The word after the location (`error`), table entries 1494–1505, 2657, 2685.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Remark => "remark",
            Severity::Warning => "warning",
            Severity::CommandLineWarning => "command-line warning",
            Severity::Error | Severity::HardError => "error",
            Severity::Catastrophic => "catastrophic error",
            Severity::CommandLineError => "command-line error",
            Severity::Internal => "internal error",
        }
    }

    /// The capitalised word that replaces the location of position-less diagnostics.
    pub fn capitalised_word(self) -> &'static str {
        match self {
            Severity::Note => "Note",
            Severity::Remark => "Remark",
            Severity::Warning => "Warning",
            Severity::CommandLineWarning => "Command-line warning",
            Severity::Error | Severity::HardError => "Error",
            Severity::Catastrophic => "Catastrophic error",
            Severity::CommandLineError => "Command-line error",
            Severity::Internal => "Internal error",
        }
    }

    /// SARIF `level` value (spec 60 §8.3).
    pub fn sarif_level(self) -> &'static str {
        match self {
            Severity::Note | Severity::Remark => "remark",
            Severity::Warning | Severity::CommandLineWarning => "warning",
            Severity::Error | Severity::HardError => "error",
            Severity::Catastrophic | Severity::CommandLineError => "catastrophe",
            Severity::Internal => "internal_error",
        }
    }

    /// Parses the TSV `severity` column (`error` alone means hard error unless
    /// the row says it is discretionary).
    pub fn from_catalog(word: &str, discretionary: Option<bool>) -> Option<Severity> {
        Some(match word {
            "note" => Severity::Note,
            "remark" => Severity::Remark,
            "warning" => Severity::Warning,
            "error" if discretionary == Some(true) => Severity::Error,
            "error" => Severity::HardError,
            "catastrophic" => Severity::Catastrophic,
            "command-line-error" => Severity::CommandLineError,
            "internal-error" => Severity::Internal,
            _ => return None,
        })
    }
}
