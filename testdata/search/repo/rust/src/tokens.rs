//! Lexing a query string into tokens.

use std::fmt;

/// One lexical token of a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// A bare word such as `jane`.
    Word(String),
    /// A double-quoted string, without its quotes.
    Quoted(String),
    /// The `:` between a field name and its value.
    Colon,
    /// A leading `-` that negates the next term.
    Minus,
    /// A quoted string that reached the end of the input; carries its start offset.
    Unterminated(usize),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Word(w) => write!(f, "{w}"),
            Token::Quoted(s) => write!(f, "\"{s}\""),
            Token::Colon => f.write_str(":"),
            Token::Minus => f.write_str("-"),
            Token::Unterminated(at) => write!(f, "<unterminated at {at}>"),
        }
    }
}

/// An iterator over the tokens of a query string; whitespace separates tokens.
pub struct TokenStream<'a> {
    input: &'a str,
    pos: usize,
}

impl<'a> TokenStream<'a> {
    /// Creates a stream positioned at the start of `input`.
    pub fn new(input: &'a str) -> Self {
        TokenStream { input, pos: 0 }
    }

    /// The byte offset of the next token.
    pub fn position(&self) -> usize {
        self.pos
    }

    fn rest(&self) -> &'a str {
        &self.input[self.pos..]
    }
}

impl<'a> Iterator for TokenStream<'a> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let trimmed = self.rest().trim_start();
        self.pos = self.input.len() - trimmed.len();
        let c = trimmed.chars().next()?;
        match c {
            ':' => {
                self.pos += 1;
                Some(Token::Colon)
            }
            '-' => {
                self.pos += 1;
                Some(Token::Minus)
            }
            '"' => {
                let start = self.pos;
                match trimmed[1..].find('"') {
                    Some(end) => {
                        self.pos += end + 2;
                        Some(Token::Quoted(trimmed[1..end + 1].to_string()))
                    }
                    None => {
                        self.pos = self.input.len();
                        Some(Token::Unterminated(start))
                    }
                }
            }
            _ => {
                let len = trimmed
                    .find(|ch: char| ch.is_whitespace() || ch == ':' || ch == '"')
                    .unwrap_or(trimmed.len());
                self.pos += len;
                Some(Token::Word(trimmed[..len].to_string()))
            }
        }
    }
}
