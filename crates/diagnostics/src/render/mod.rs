//! Renderers: EDG text (the compatible form), SARIF (valid JSON), and rich
//! (codespan-reporting, for humans; opt-in).

pub mod palette;
pub mod rich;
pub mod sarif;
pub mod text;
