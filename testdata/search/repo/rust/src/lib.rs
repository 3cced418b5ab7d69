//! `qlang` parses the query language of the storefront admin search box
//! (`status:active email:"jane@example.com" -test`) and runs it over in-memory documents.
//!
//! ```
//! use qlang::{parse_query, Term};
//!
//! let query = parse_query("status:active jane").unwrap();
//! assert_eq!(query.terms.len(), 2);
//! assert_eq!(query.terms[1], Term::Text("jane".into()));
//! ```
//!
//! The `qlang` binary exposes each [`Tool`] as a subcommand; `qlang search` is the
//! only one so far.

pub mod query;
pub mod tokens;
pub mod tools;

pub use query::{parse_query, ParseError, Query, Term};
pub use tokens::{Token, TokenStream};
pub use tools::search::SearchTool;
pub use tools::{Tool, ToolError};
