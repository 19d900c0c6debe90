//! Optional bearer-token authentication of the `caber.v1` API.
//!
//! With a token configured, every `caber.v1.*` call must carry the metadata
//! `authorization: Bearer <token>`; others get `UNAUTHENTICATED`. Health
//! checking and reflection stay open: probes carry no token, and reflection
//! only describes the public API schema.

use std::fmt;
use std::path::Path;

use tonic::Status;

/// The `authorization` scheme and the space after it.
const SCHEME: &[u8] = b"Bearer ";

/// The bearer token clients must send. Never printed (its `Debug` hides it).
#[derive(Clone)]
pub struct Token(String);

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<hidden>)")
    }
}

impl Token {
    /// A token from its text (surrounding whitespace removed); `None` if empty.
    pub fn new(text: &str) -> Option<Self> {
        let t = text.trim();
        (!t.is_empty()).then(|| Self(t.to_string()))
    }

    /// Reads the token from a file (surrounding whitespace, e.g. a final newline, removed).
    pub fn from_file(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            anyhow::anyhow!("cannot read the auth token file {}: {e}", path.display())
        })?;
        Self::new(&text)
            .ok_or_else(|| anyhow::anyhow!("the auth token file {} is empty", path.display()))
    }

    /// The `authorization` header value a client sends: `Bearer <token>`.
    pub fn header_value(&self) -> String {
        format!("Bearer {}", self.0)
    }

    /// Checks an `authorization` header value; the error says what is wrong
    /// (never the expected token).
    pub fn check(&self, header: Option<&[u8]>) -> Result<(), Status> {
        let Some(value) = header else {
            return Err(Status::unauthenticated(
                "authorization: missing (send `authorization: Bearer <token>`)",
            ));
        };
        // The scheme's name is case-insensitive (RFC 7235).
        let given = value
            .split_at_checked(SCHEME.len())
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(SCHEME))
            .map(|(_, token)| token);
        let Some(given) = given else {
            return Err(Status::unauthenticated(
                "authorization: expected `Bearer <token>`",
            ));
        };
        if constant_time_eq(given.trim_ascii(), self.0.as_bytes()) {
            Ok(())
        } else {
            Err(Status::unauthenticated("authorization: wrong token"))
        }
    }
}

/// Compares without stopping at the first difference (no timing hint on the token's content).
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_right_bearer_token_passes() {
        let token = Token::new(" s3cret\n").unwrap();
        assert!(token.check(Some(b"Bearer s3cret")).is_ok());
        assert!(token.check(Some(b"bearer s3cret")).is_ok());
        assert!(token.check(Some(b"BEARER  s3cret")).is_ok());
        for (header, problem) in [
            (None, "missing"),
            (Some(&b"s3cret"[..]), "expected `Bearer <token>`"),
            (Some(b"Bearer s3cre"), "wrong token"),
            (Some(b"Bearer s3cret2"), "wrong token"),
            (Some(b"Basic s3cret"), "expected"),
        ] {
            let status = token.check(header).unwrap_err();
            assert_eq!(status.code(), tonic::Code::Unauthenticated);
            assert!(status.message().contains(problem), "{status:?}");
            assert!(!status.message().contains("s3cret"), "{status:?}");
        }
        assert!(Token::new("  \n").is_none());
        assert_eq!(format!("{token:?}"), "Token(<hidden>)");
    }
}
