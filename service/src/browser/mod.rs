//! What browsers need beside native gRPC: gRPC-Web (binary and text, over
//! HTTP/1.1 or HTTP/2) translated to gRPC before the call layer sees the
//! call, so that auth, limits, deadlines and metrics are those of a native
//! call; CORS for the origins the configuration names (none by default); and
//! the analysis board's files ([`page`]) when asked for.

pub mod page;
pub mod web_text;

use std::time::Duration;

use http::header::{AUTHORIZATION, CONTENT_TYPE};
use http::{HeaderName, HeaderValue, Method};
use tonic_web::GrpcWebLayer;
use tower::layer::util::{Identity, Stack};
use tower::util::Either;
use tower_http::cors::{AllowOrigin, CorsLayer};

use self::page::PageLayer;
use self::web_text::{AnswerInKind, ClientErrors};

/// The layers in front of the call layer, outermost last: gRPC-Web's
/// client errors, gRPC-Web translation, the form of its answers, then CORS
/// (which answers preflights itself), then the page.
pub type BrowserLayers = Stack<
    ClientErrors,
    Stack<
        GrpcWebLayer,
        Stack<
            AnswerInKind,
            Stack<Either<CorsLayer, Identity>, Stack<Either<PageLayer, Identity>, Identity>>,
        >,
    >,
>;

/// How long a browser may keep a CORS preflight's answer.
const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// The request headers a gRPC-Web client sends (connect-web and grpc-web
/// both), the bearer token included.
const ALLOWED_HEADERS: [&str; 6] = [
    "content-type",
    "x-grpc-web",
    "x-user-agent",
    "grpc-timeout",
    "authorization",
    "connect-protocol-version",
];

/// The response headers a gRPC-Web client reads (a trailers-only answer
/// carries the status in headers).
const EXPOSED_HEADERS: [&str; 3] = ["grpc-status", "grpc-message", "grpc-status-details-bin"];

/// Where pages that call from a browser may come from (`--cors-origin`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Origins {
    /// No cross-origin call (the page caberd serves itself needs none).
    #[default]
    None,
    /// Any origin (`*`).
    Any,
    /// These origins, each `scheme://host[:port]`.
    List(Vec<HeaderValue>),
}

impl Origins {
    /// The origins of `--cors-origin` values: `*` for any, else each an
    /// origin as browsers send it (`https://example.com`, `http://localhost:8080`).
    pub fn parse(values: &[String]) -> Result<Origins, String> {
        if values.is_empty() {
            return Ok(Origins::None);
        }
        if values.iter().any(|v| v == "*") {
            return Ok(Origins::Any);
        }
        values
            .iter()
            .map(|v| origin(v))
            .collect::<Result<_, _>>()
            .map(Origins::List)
    }

    /// The CORS layer that allows these origins, if any.
    fn layer(&self) -> Option<CorsLayer> {
        let allow = match self {
            Origins::None => return None,
            Origins::Any => AllowOrigin::any(),
            Origins::List(list) => AllowOrigin::list(list.iter().cloned()),
        };
        let names = |names: &[&str]| {
            names
                .iter()
                .map(|n| HeaderName::from_bytes(n.as_bytes()).expect("a valid header name"))
                .collect::<Vec<_>>()
        };
        debug_assert!(ALLOWED_HEADERS.contains(&AUTHORIZATION.as_str()));
        debug_assert!(ALLOWED_HEADERS.contains(&CONTENT_TYPE.as_str()));
        Some(
            CorsLayer::new()
                .allow_origin(allow)
                .allow_methods([Method::POST])
                .allow_headers(names(&ALLOWED_HEADERS))
                .expose_headers(names(&EXPOSED_HEADERS))
                .max_age(PREFLIGHT_MAX_AGE),
        )
    }
}

/// One origin as browsers send it in `Origin`: `http` or `https`, a host, an
/// optional port, nothing after.
fn origin(value: &str) -> Result<HeaderValue, String> {
    let bad = || {
        format!(
            "{value:?} is not an origin: expected * or scheme://host[:port], \
             e.g. https://example.com or http://localhost:8080"
        )
    };
    let uri: http::Uri = value.parse().map_err(|_| bad())?;
    let scheme_ok = matches!(uri.scheme_str(), Some("http" | "https"));
    let bare = uri.path_and_query().is_none_or(|p| p.as_str() == "/") && !value.ends_with('/');
    if !scheme_ok || uri.host().is_none_or(str::is_empty) || !bare {
        return Err(bad());
    }
    HeaderValue::from_str(value).map_err(|_| bad())
}

/// The browser layers: gRPC-Web, CORS for `origins`, the page if `web`.
pub fn layers(origins: &Origins, web: bool) -> BrowserLayers {
    let page = tower::util::option_layer(web.then_some(PageLayer));
    let cors = tower::util::option_layer(origins.layer());
    Stack::new(
        ClientErrors,
        Stack::new(
            GrpcWebLayer::new(),
            Stack::new(
                AnswerInKind,
                Stack::new(cors, Stack::new(page, Identity::new())),
            ),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_star_or_scheme_host_and_port() {
        assert_eq!(Origins::parse(&[]), Ok(Origins::None));
        let s = |v: &[&str]| v.iter().map(|v| v.to_string()).collect::<Vec<_>>();
        assert_eq!(
            Origins::parse(&s(&["https://a.example", "*"])),
            Ok(Origins::Any)
        );
        assert_eq!(
            Origins::parse(&s(&["https://a.example", "http://localhost:8080"])),
            Ok(Origins::List(vec![
                HeaderValue::from_static("https://a.example"),
                HeaderValue::from_static("http://localhost:8080"),
            ]))
        );
        for bad in [
            "a.example",
            "ftp://a.example",
            "https://a.example/",
            "https://a.example/x",
            "https://",
            "",
        ] {
            let error = Origins::parse(&s(&[bad])).unwrap_err();
            assert!(error.contains("is not an origin"), "{bad}: {error}");
        }
    }
}
