//! The parsed form of a query and the parser that builds it.

use std::error::Error;
use std::fmt;

use crate::tokens::{Token, TokenStream};

/// One condition of a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// Matches documents containing the text anywhere.
    Text(String),
    /// Matches documents whose field equals the value, e.g. `status:active`.
    Field { name: String, value: String },
    /// Matches documents the inner term does not match.
    Not(Box<Term>),
}

/// A parsed query: every term must match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pub terms: Vec<Term>,
}

/// Why a query string could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// A `"` was opened at this byte offset and never closed.
    UnterminatedQuote(usize),
    /// A `field:` with nothing after the colon.
    MissingValue(String),
    /// A `-` at the end of the query.
    DanglingNegation,
    /// The query holds no terms at all.
    Empty,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnterminatedQuote(at) => write!(f, "unterminated string literal at byte {at}"),
            ParseError::MissingValue(field) => write!(f, "field `{field}` needs a value after the colon"),
            ParseError::DanglingNegation => f.write_str("`-` must be followed by a term"),
            ParseError::Empty => f.write_str("the query is empty"),
        }
    }
}

impl Error for ParseError {}

/// Parses a search-box query such as `status:active -test "jane doe"`.
///
/// Bare words and quoted strings become [`Term::Text`], `name:value` pairs become
/// [`Term::Field`], and a leading `-` negates the term after it.
pub fn parse_query(input: &str) -> Result<Query, ParseError> {
    let mut tokens = TokenStream::new(input).peekable();
    let mut query = Query::default();
    while let Some(token) = tokens.next() {
        let negated = token == Token::Minus;
        let token = if negated {
            tokens.next().ok_or(ParseError::DanglingNegation)?
        } else {
            token
        };
        let term = match token {
            Token::Unterminated(at) => return Err(ParseError::UnterminatedQuote(at)),
            Token::Word(name) if tokens.peek() == Some(&Token::Colon) => {
                tokens.next();
                match tokens.next() {
                    Some(Token::Word(value)) | Some(Token::Quoted(value)) => Term::Field { name, value },
                    Some(Token::Unterminated(at)) => return Err(ParseError::UnterminatedQuote(at)),
                    _ => return Err(ParseError::MissingValue(name)),
                }
            }
            Token::Word(text) | Token::Quoted(text) => Term::Text(text),
            Token::Colon | Token::Minus => continue,
        };
        query.terms.push(if negated { Term::Not(Box::new(term)) } else { term });
    }
    if query.terms.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(query)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fields_words_and_negation() {
        let q = parse_query(r#"status:active -test "jane doe""#).unwrap();
        assert_eq!(
            q.terms,
            vec![
                Term::Field { name: "status".into(), value: "active".into() },
                Term::Not(Box::new(Term::Text("test".into()))),
                Term::Text("jane doe".into()),
            ]
        );
    }

    #[test]
    fn reports_unterminated_quote() {
        assert_eq!(parse_query(r#"email:"jane"#), Err(ParseError::UnterminatedQuote(6)));
    }

    #[test]
    fn rejects_empty_query() {
        assert_eq!(parse_query("   "), Err(ParseError::Empty));
    }
}
