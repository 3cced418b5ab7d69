//! The `search` tool: runs a query over a set of documents and prints the matches.

use std::collections::HashMap;

use super::{Tool, ToolError};
use crate::query::{parse_query, Term};

/// A document the search tool can match: free text plus named fields.
#[derive(Debug, Clone, Default)]
pub struct Document {
    pub id: String,
    pub text: String,
    pub fields: HashMap<String, String>,
}

/// Searches an in-memory list of documents.
pub struct SearchTool {
    documents: Vec<Document>,
}

impl SearchTool {
    pub fn new(documents: Vec<Document>) -> Self {
        SearchTool { documents }
    }

    /// Returns the ids of the documents that match every term of `query`.
    pub fn matching_ids(&self, query: &str) -> Result<Vec<&str>, ToolError> {
        let query = parse_query(query).map_err(|e| ToolError { tool: "search", message: e.to_string() })?;
        Ok(self
            .documents
            .iter()
            .filter(|doc| query.terms.iter().all(|term| matches(doc, term)))
            .map(|doc| doc.id.as_str())
            .collect())
    }
}

fn matches(doc: &Document, term: &Term) -> bool {
    match term {
        Term::Text(text) => doc.text.to_lowercase().contains(&text.to_lowercase()),
        Term::Field { name, value } => doc.fields.get(name).is_some_and(|v| v.eq_ignore_ascii_case(value)),
        Term::Not(inner) => !matches(doc, inner),
    }
}

impl Tool for SearchTool {
    fn name(&self) -> &'static str {
        "search"
    }

    fn summary(&self) -> &'static str {
        "print the ids of the documents matching a query"
    }

    fn run(&self, args: &[String]) -> Result<String, ToolError> {
        if args.is_empty() {
            return Err(ToolError { tool: "search", message: "usage: qlang search QUERY".into() });
        }
        let ids = self.matching_ids(&args.join(" "))?;
        Ok(ids.join("\n"))
    }
}
