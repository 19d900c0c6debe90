//! The server's replies as the commands and the output read them: a refused
//! call as an error that keeps its status, and a field the server must fill.

use anyhow::Context;
use tonic::Status;

/// A failed call as an error whose message is the status's message; the
/// status stays in the chain (for its code).
pub fn status(status: Status) -> anyhow::Error {
    anyhow::Error::new(Refused(status))
}

/// A failed call: displays as the status's message.
#[derive(Debug)]
pub struct Refused(pub Status);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.message())
    }
}

impl std::error::Error for Refused {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.0)
    }
}

/// A field the server must fill in.
pub fn required<T>(value: Option<T>, what: &str) -> anyhow::Result<T> {
    value.with_context(|| format!("the server's reply has no {what}"))
}
