//! What tonic-web leaves to us at its edges: a `grpc-web-text` request is
//! answered as `grpc-web-text` unless it asks otherwise (tonic-web answers in
//! the form `Accept` names, binary when it names none), and a request body
//! that is not valid gRPC-Web (bad base64, a stray frame) is the client's
//! error, `INVALID_ARGUMENT`, not `INTERNAL`.

use std::pin::Pin;
use std::task::{Context, Poll};

use http::header::{ACCEPT, CONTENT_TYPE};
use http::Request;
use http_body::{Body as HttpBody, Frame, SizeHint};
use tonic::body::Body;
use tonic::{Code, Status};
use tower::{Layer, Service};

/// The content types of gRPC-Web's text form.
const TEXT: [&str; 2] = [
    "application/grpc-web-text",
    "application/grpc-web-text+proto",
];

/// Marks a request that came as gRPC-Web (a request extension).
#[derive(Clone, Copy, Debug)]
struct CameAsWeb;

/// Outside tonic-web: marks gRPC-Web requests, and gives a text request
/// that accepts no gRPC-Web form in particular the form it came in.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnswerInKind;

impl<S> Layer<S> for AnswerInKind {
    type Service = AnswerInKindService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        AnswerInKindService { inner }
    }
}

/// The service made by [`AnswerInKind`].
#[derive(Clone, Debug)]
pub struct AnswerInKindService<S> {
    inner: S,
}

impl<S, B> Service<Request<B>> for AnswerInKindService<S>
where
    S: Service<Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        let Some(content_type) = request.headers().get(CONTENT_TYPE).cloned() else {
            return self.inner.call(request);
        };
        let kind = content_type.to_str().unwrap_or("");
        if kind.starts_with("application/grpc-web") {
            request.extensions_mut().insert(CameAsWeb);
        }
        let accepts_web = request
            .headers()
            .get(ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.starts_with("application/grpc-web"));
        if TEXT.contains(&kind) && !accepts_web {
            request.headers_mut().insert(ACCEPT, content_type);
        }
        self.inner.call(request)
    }
}

/// Inside tonic-web: the request body of a gRPC-Web call turns tonic-web's
/// decoding errors (`INTERNAL`) into `INVALID_ARGUMENT`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientErrors;

impl<S> Layer<S> for ClientErrors {
    type Service = ClientErrorsService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        ClientErrorsService { inner }
    }
}

/// The service made by [`ClientErrors`].
#[derive(Clone, Debug)]
pub struct ClientErrorsService<S> {
    inner: S,
}

impl<S> Service<Request<Body>> for ClientErrorsService<S>
where
    S: Service<Request<Body>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let web = request.extensions().get::<CameAsWeb>().is_some();
        let request = match web {
            true => request.map(|inner| Body::new(WebBody { inner })),
            false => request,
        };
        self.inner.call(request)
    }
}

/// A gRPC-Web request's body after tonic-web decoded it.
struct WebBody {
    inner: Body,
}

impl HttpBody for WebBody {
    type Data = bytes::Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx).map(|frame| {
            frame.map(|f| {
                f.map_err(|status| match status.code() {
                    Code::Internal => Status::invalid_argument(format!(
                        "request: not valid gRPC-Web ({})",
                        status.message()
                    )),
                    _ => status,
                })
            })
        })
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Checks the header rewrite in place; the status mapping is checked end
/// to end (service/tests/browser.rs).
#[cfg(test)]
mod tests {
    use super::*;

    fn accept_after(content_type: &str, accept: Option<&str>) -> Option<String> {
        let mut request = Request::builder().header(CONTENT_TYPE, content_type);
        if let Some(a) = accept {
            request = request.header(ACCEPT, a);
        }
        let mut seen = None;
        let mut service = AnswerInKind.layer(tower::service_fn(|r: Request<()>| {
            seen = Some(
                r.headers()
                    .get(ACCEPT)
                    .map(|v| v.to_str().unwrap().to_string()),
            );
            std::future::ready(Ok::<_, std::convert::Infallible>(()))
        }));
        drop(service.call(request.body(()).unwrap()));
        seen.expect("called")
    }

    #[test]
    fn a_text_request_is_answered_as_text_unless_it_asks_for_another_form() {
        let text = "application/grpc-web-text";
        assert_eq!(accept_after(text, None).as_deref(), Some(text));
        assert_eq!(accept_after(text, Some("*/*")).as_deref(), Some(text));
        assert_eq!(
            accept_after("application/grpc-web-text+proto", None).as_deref(),
            Some("application/grpc-web-text+proto")
        );
        assert_eq!(
            accept_after(text, Some("application/grpc-web+proto")).as_deref(),
            Some("application/grpc-web+proto"),
            "asked for binary"
        );
        assert_eq!(accept_after("application/grpc-web", None), None);
        assert_eq!(accept_after("application/grpc", None), None);
    }
}
