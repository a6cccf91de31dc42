//! A diagnostic as plain data: what the semantic passes produce and every
//! renderer consumes. Spellings of entities and types are computed by the
//! caller (they belong to the type printer); this crate only places them.

use crate::number::DiagId;
use crate::severity::Severity;

/// One diagnostic with its sub-parts (spec 60 §2.3 order: primary line,
/// continuation lines, source + caret, instantiation context, notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub id: DiagId,
    /// Severity chosen at the emission site (before options and pragmas).
    pub severity: Severity,
    /// Fill-ins for the template's `%` specifiers, in order of appearance
    /// per kind (`%sq2` is the second [`Arg::Str`]).
    pub args: Vec<Arg>,
    /// `None` = position-less (`Command-line error: …`, `Remark: …`).
    pub location: Option<Location>,
    /// Extra message lines printed with 12 spaces before the source line
    /// (candidate lists, `argument types are: (long)`).
    pub continuation: Vec<Message>,
    /// Instantiation context, innermost first.
    pub context: Vec<ContextEntry>,
    /// Sub-diagnostics (`note #3326-D: …`), each with its own location.
    pub notes: Vec<Diagnostic>,
    /// Emitted after the whole translation unit was seen (e.g. "declared but
    /// never referenced"): every `nv_diag_once` pragma of the file is then in
    /// force, whatever the reported position (cudafe++ applies `once` at
    /// emission time, spec 60 §5.4).
    pub deferred: bool,
}

/// A message template with its fill-ins (continuation lines are these).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Template {
        id: DiagId,
        args: Vec<Arg>,
    },
    /// Literal text, for lines that are not table entries (the option list
    /// under "more than one command line option matches …").
    Text(String),
}

/// Where a diagnostic is reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// File name exactly as the line marker spelt it (not normalised).
    pub file: String,
    /// 1-based presumed line.
    pub line: u32,
    /// 1-based column in Unicode code points; 0 = unknown (no caret).
    pub column: u32,
    /// The source line, verbatim, without its line terminator.
    pub source_line: Option<String>,
    /// Byte offset in the translation unit text; pragmas are ordered by it.
    pub offset: Option<u32>,
    /// In a file entered with line-marker flag 3: only hard errors are shown.
    pub system_header: bool,
    pub kind: LocationKind,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum LocationKind {
    #[default]
    Normal,
    /// Past the last token: `At end of source: error: …`, no source line.
    EndOfSource,
    /// Input read from stdin: `Line 3: error: …`.
    Stdin,
}

impl Location {
    pub fn new(file: impl Into<String>, line: u32, column: u32) -> Location {
        Location {
            file: file.into(),
            line,
            column,
            source_line: None,
            offset: None,
            system_header: false,
            kind: LocationKind::Normal,
        }
    }
    pub fn with_source_line(mut self, text: impl Into<String>) -> Location {
        self.source_line = Some(text.into());
        self
    }
    pub fn with_offset(mut self, offset: u32) -> Location {
        self.offset = Some(offset);
        self
    }
}

/// A fill-in. The variant is the specifier kind it serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// `%s` (verbatim) / `%sq` (quoted).
    Str(String),
    /// `%d`
    Int(i64),
    /// `%u`
    UInt(u64),
    /// `%t`: `"long *"`, plus ` (aka "int *")` when `aka` is given and differs.
    Type { spelling: String, aka: Option<String> },
    /// `%T`: a template argument list, rendered `"<int, float>"`; give the
    /// spellings between the angle brackets.
    TemplateArgs(String),
    /// `%n` with its options.
    Entity(Entity),
    /// `%p`: `at line 5` / `at line 74 of /path/file.h`.
    Pos(Pos),
    /// `%r`: a template parameter, by name.
    TemplateParam(String),
}

/// An entity fill-in. The caller spells the name variants the options ask for.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Entity {
    /// Kind word (`function`); `None` prints the quoted name alone (EDG does
    /// this for labels and implicitly generated members).
    pub kind: Option<EntityKind>,
    /// Default spelling: qualified name, with the parameter list when the
    /// function is overloaded (`B::f`, `min(int, int)`).
    pub name: String,
    /// `%nt` spelling: `A<T> [with T=int]`; falls back to `name`.
    pub with_template_args: Option<String>,
    /// `%np` spelling with parameter types: `f(int)`; falls back to `name`.
    pub with_params: Option<String>,
    /// `%nf` spelling: fully qualified with type; falls back to `name`.
    pub full: Option<String>,
    /// `%na`: the template arguments the entity is based on, and how many.
    pub based_on: Option<(usize, String)>,
    /// `%nd`: where it was declared.
    pub declared_at: Option<Pos>,
    /// `%nT`: the translation unit it comes from.
    pub translation_unit: Option<String>,
}

impl Entity {
    pub fn new(kind: EntityKind, name: impl Into<String>) -> Entity {
        Entity { kind: Some(kind), name: name.into(), ..Entity::default() }
    }
}

/// Entity-kind words, table entries 1461–1487, 2750, 2892, 3050.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EntityKind {
    Keyword,
    Macro,
    Label,
    TemplateParameter,
    Type,
    Union,
    Class,
    Struct,
    TemplateTemplateParameter,
    Template,
    ClassTemplate,
    Enum,
    Parameter,
    HandlerParameter,
    Variable,
    Nontype,
    Constant,
    Function,
    OverloadedFunction,
    Member,
    Field,
    Namespace,
    FunctionTemplate,
    VariableTemplate,
    ConceptTemplate,
    AliasTemplate,
    StructuredBinding,
    DeductionGuide,
}

impl EntityKind {
    pub fn word(self) -> &'static str {
        match self {
            EntityKind::Keyword => "keyword",
            EntityKind::Macro => "macro",
            EntityKind::Label => "label",
            EntityKind::TemplateParameter => "template parameter",
            EntityKind::Type => "type",
            EntityKind::Union => "union",
            EntityKind::Class => "class",
            EntityKind::Struct => "struct",
            EntityKind::TemplateTemplateParameter => "template template parameter",
            EntityKind::Template => "template",
            EntityKind::ClassTemplate => "class template",
            EntityKind::Enum => "enum",
            EntityKind::Parameter => "parameter",
            EntityKind::HandlerParameter => "handler parameter",
            EntityKind::Variable => "variable",
            EntityKind::Nontype => "nontype",
            EntityKind::Constant => "constant",
            EntityKind::Function => "function",
            EntityKind::OverloadedFunction => "overloaded function",
            EntityKind::Member => "member",
            EntityKind::Field => "field",
            EntityKind::Namespace => "namespace",
            EntityKind::FunctionTemplate => "function template",
            EntityKind::VariableTemplate => "variable template",
            EntityKind::ConceptTemplate => "concept template",
            EntityKind::AliasTemplate => "alias template",
            EntityKind::StructuredBinding => "structured binding",
            EntityKind::DeductionGuide => "deduction guide",
        }
    }
}

/// A position fill-in (`%p`, `%nd`). `file` is the presumed file name; it is
/// printed only when it differs from the primary location's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pos {
    At { file: String, line: u32 },
    EndOfSource,
}

/// One "detected during …" entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextEntry {
    pub kind: ContextKind,
    /// The entity being instantiated (rendered with `%nt` or `%na`).
    pub entity: Entity,
    /// Where the instantiation was requested.
    pub at: Pos,
}

/// What was going on; selects templates 454/455 (list form) and 683–687
/// (single-line form).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ContextKind {
    /// `instantiation of %nt %p`
    Instantiation,
    /// `implicit generation of %nt %p`
    ImplicitGeneration,
    /// `instantiation of %na %p`
    InstantiationBasedOn,
    /// `processing of template argument list for %na %p`
    TemplateArgumentList,
    /// `implicit definition of %nt %p`
    ImplicitDefinition,
}

impl Diagnostic {
    /// A diagnostic with no fill-ins, location or sub-parts.
    pub fn new(id: DiagId, severity: Severity) -> Diagnostic {
        Diagnostic {
            id,
            severity,
            args: Vec::new(),
            location: None,
            continuation: Vec::new(),
            context: Vec::new(),
            notes: Vec::new(),
            deferred: false,
        }
    }

    /// With the catalog's usual severity for `id`.
    pub fn with_default_severity(id: DiagId) -> Diagnostic {
        let severity = crate::catalog::entry(id).map_or(Severity::HardError, |e| e.default_severity());
        Diagnostic::new(id, severity)
    }

    /// A command-line error (`Command-line error: invalid option: --bogus`).
    pub fn command_line_error(id: DiagId, args: Vec<Arg>) -> Diagnostic {
        Diagnostic { args, ..Diagnostic::new(id, Severity::CommandLineError) }
    }

    pub fn with_args(mut self, args: Vec<Arg>) -> Diagnostic {
        self.args = args;
        self
    }
    pub fn with_arg(mut self, arg: Arg) -> Diagnostic {
        self.args.push(arg);
        self
    }
    pub fn at(mut self, location: Location) -> Diagnostic {
        self.location = Some(location);
        self
    }
    pub fn with_note(mut self, note: Diagnostic) -> Diagnostic {
        self.notes.push(note);
        self
    }
    pub fn with_continuation(mut self, line: Message) -> Diagnostic {
        self.continuation.push(line);
        self
    }
    pub fn with_context(mut self, entry: ContextEntry) -> Diagnostic {
        self.context.push(entry);
        self
    }

    /// The message text without colour (what SARIF and tests see).
    pub fn message(&self) -> String {
        let primary_file = self.location.as_ref().map(|l| l.file.as_str());
        crate::message::render_plain(crate::catalog::template(self.id), &self.args, primary_file)
    }
}
