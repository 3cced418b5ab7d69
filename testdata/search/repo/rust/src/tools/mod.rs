//! Command-line tools built on the query language. Each tool is a subcommand of `qlang`.

pub mod search;

use std::fmt;

/// A subcommand: it gets the arguments after its name and returns the text to print.
pub trait Tool {
    /// The name the tool is invoked by, e.g. `search`.
    fn name(&self) -> &'static str;
    /// One line of help shown by `qlang help`.
    fn summary(&self) -> &'static str;
    /// Runs the tool.
    fn run(&self, args: &[String]) -> Result<String, ToolError>;
}

/// A failure of a tool, shown to the user as `qlang <tool>: <message>`.
#[derive(Debug)]
pub struct ToolError {
    pub tool: &'static str,
    pub message: String,
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "qlang {}: {}", self.tool, self.message)
    }
}

impl std::error::Error for ToolError {}
