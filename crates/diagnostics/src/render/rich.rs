//! Rich output for humans through codespan-reporting (our own opt-in mode;
//! nothing parses it). Each diagnostic carries only its source *line*, so the
//! "files" handed to codespan are those single lines, numbered as in the
//! original file.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::{Error, Files};
use codespan_reporting::term::{self, Config, termcolor::WriteColor};

use crate::diagnostic::{Diagnostic, Location, LocationKind};
use crate::render::text::Shown;
use crate::severity::Severity;

/// One source line standing in for its file.
struct LineFile {
    name: String,
    text: String,
    line: usize,
}

#[derive(Default)]
struct LineFiles(Vec<LineFile>);

impl<'a> Files<'a> for LineFiles {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, Error> {
        self.0.get(id).map(|f| f.name.as_str()).ok_or(Error::FileMissing)
    }
    fn source(&'a self, id: usize) -> Result<&'a str, Error> {
        self.0.get(id).map(|f| f.text.as_str()).ok_or(Error::FileMissing)
    }
    fn line_index(&'a self, id: usize, _byte_index: usize) -> Result<usize, Error> {
        self.0.get(id).map(|f| f.line.saturating_sub(1)).ok_or(Error::FileMissing)
    }
    fn line_range(&'a self, id: usize, line_index: usize) -> Result<std::ops::Range<usize>, Error> {
        let f = self.0.get(id).ok_or(Error::FileMissing)?;
        if line_index + 1 == f.line.max(1) {
            Ok(0..f.text.len())
        } else {
            Err(Error::LineTooLarge { given: line_index, max: f.line })
        }
    }
}

fn cs_severity(s: Severity) -> CsSeverity {
    match s {
        Severity::Note => CsSeverity::Note,
        Severity::Remark => CsSeverity::Help,
        Severity::Warning | Severity::CommandLineWarning => CsSeverity::Warning,
        Severity::Error | Severity::HardError => CsSeverity::Error,
        Severity::Catastrophic | Severity::CommandLineError | Severity::Internal => CsSeverity::Bug,
    }
}

/// Byte range of the code point at 1-based `column` (empty at line end).
fn column_range(text: &str, column: u32) -> std::ops::Range<usize> {
    let mut it = text.char_indices().skip(column.saturating_sub(1) as usize);
    match it.next() {
        Some((start, c)) => start..start + c.len_utf8(),
        None => text.len()..text.len(),
    }
}

fn label(files: &mut LineFiles, loc: &Location, primary: bool, message: String) -> Option<Label<usize>> {
    let text = loc.source_line.as_ref()?;
    if loc.kind == LocationKind::EndOfSource || loc.column == 0 {
        return None;
    }
    let id = files.0.len();
    files.0.push(LineFile { name: loc.file.clone(), text: text.clone(), line: loc.line as usize });
    let range = column_range(text, loc.column);
    let l = if primary { Label::primary(id, range) } else { Label::secondary(id, range) };
    Some(l.with_message(message))
}

/// Renders `diag` with codespan-reporting to `writer` (colours decided by the writer).
pub fn render(diag: &Diagnostic, shown: Shown, writer: &mut dyn WriteColor) -> std::io::Result<()> {
    let mut files = LineFiles::default();
    let severity = if shown.promoted { Severity::Error } else { shown.severity };
    let mut cs = CsDiagnostic::new(cs_severity(severity))
        .with_code(format!("{}", diag.id.display()))
        .with_message(diag.message());
    let mut labels = Vec::new();
    let mut notes = Vec::new();
    if let Some(loc) = &diag.location {
        match label(&mut files, loc, true, String::new()) {
            Some(l) => labels.push(l),
            None => notes.push(format!("at {}({})", loc.file, loc.line)),
        }
    }
    let file = diag.location.as_ref().map(|l| l.file.as_str());
    for cont in &diag.continuation {
        notes.push(match cont {
            crate::diagnostic::Message::Template { id, args } => {
                crate::message::render_plain(crate::catalog::template(*id), args, file)
            }
            crate::diagnostic::Message::Text(t) => t.clone(),
        });
    }
    for note in &diag.notes {
        match note.location.as_ref().and_then(|loc| label(&mut files, loc, false, note.message())) {
            Some(l) => labels.push(l),
            None => notes.push(note.message()),
        }
    }
    for c in &diag.context {
        let args = vec![crate::diagnostic::Arg::Entity(c.entity.clone()), crate::diagnostic::Arg::Pos(c.at.clone())];
        notes.push(crate::message::render_plain("detected during %nt %p", &args, file));
    }
    cs = cs.with_labels(labels).with_notes(notes);
    let config = Config { before_label_lines: 0, after_label_lines: 0, ..Config::default() };
    term::emit(writer, &config, &files, &cs).map_err(|e| match e {
        Error::Io(io) => io,
        other => std::io::Error::other(other.to_string()),
    })
}
