//! The analysis board (`caberd --web`): the page's three files (its HTML as
//! written, its script and style built once from `service/web/`) embedded
//! in the binary, answered to `GET` (and `HEAD`) at `/`, `/index.html`,
//! `/app.js` and `/app.css`. Every other request goes on to gRPC; without
//! `--web` this layer is not there at all.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use http::header::{CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use pin_project_lite::pin_project;
use tonic::body::Body;
use tower::{Layer, Service};

use crate::transport::connections::{CallOnConnection, ConnectionInfo};

/// A file of the page: its content and its type.
struct File {
    content: &'static [u8],
    content_type: &'static str,
}

const INDEX: File = File {
    content: include_bytes!("../../web/src/index.html"),
    content_type: "text/html; charset=utf-8",
};
const SCRIPT: File = File {
    content: include_bytes!("../../web/dist/app.js"),
    content_type: "text/javascript; charset=utf-8",
};
const STYLE: File = File {
    content: include_bytes!("../../web/dist/app.css"),
    content_type: "text/css; charset=utf-8",
};

/// Where the page may load from and call: this origin only, and the
/// diagrams the service draws (inline SVG, styles on their elements).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The file served at `path`, if any.
fn file(path: &str) -> Option<&'static File> {
    match path {
        "/" | "/index.html" => Some(&INDEX),
        "/app.js" => Some(&SCRIPT),
        "/app.css" => Some(&STYLE),
        _ => None,
    }
}

/// Adds the page in front of a service.
#[derive(Clone, Copy, Debug, Default)]
pub struct PageLayer;

impl<S> Layer<S> for PageLayer {
    type Service = PageService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        PageService { inner }
    }
}

/// Answers the page's files; passes everything else to `inner`.
#[derive(Clone, Debug)]
pub struct PageService<S> {
    inner: S,
}

impl<S, B> Service<Request<B>> for PageService<S>
where
    S: Service<Request<B>, Response = Response<Body>>,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = PageFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let get = matches!(*request.method(), Method::GET | Method::HEAD);
        match file(request.uri().path()).filter(|_| get) {
            Some(file) => {
                // Loading the page is a use of the connection, as a call is,
                // until its last byte is sent.
                let call = ConnectionInfo::of(&request).map(ConnectionInfo::call_started);
                let head = request.method() == Method::HEAD;
                PageFuture::File {
                    response: Some(answer(file, head, call)),
                }
            }
            None => PageFuture::Inner {
                future: self.inner.call(request),
            },
        }
    }
}

pin_project! {
    /// A file's response, ready at once, or the inner service's.
    #[project = PageFutureProj]
    pub enum PageFuture<F> {
        File { response: Option<Response<Body>> },
        Inner { #[pin] future: F },
    }
}

impl<F, E> Future for PageFuture<F>
where
    F: Future<Output = Result<Response<Body>, E>>,
{
    type Output = Result<Response<Body>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            PageFutureProj::File { response } => {
                Poll::Ready(Ok(response.take().expect("polled after it completed")))
            }
            PageFutureProj::Inner { future } => future.poll(cx),
        }
    }
}

pin_project! {
    /// A file's body, holding its call on the connection until it is dropped.
    struct Held {
        #[pin]
        inner: http_body_util::Full<bytes::Bytes>,
        _call: Option<CallOnConnection>,
    }
}

impl http_body::Body for Held {
    type Data = bytes::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        self.project().inner.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The response carrying `file` (its headers alone for `HEAD`), holding
/// `call` until it is sent.
fn answer(file: &File, head: bool, call: Option<CallOnConnection>) -> Response<Body> {
    let content = if head { &[][..] } else { file.content };
    let body = Body::new(Held {
        inner: http_body_util::Full::new(bytes::Bytes::from_static(content)),
        _call: call,
    });
    let mut response = Response::new(body);
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(file.content_type));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(file.content.len()));
    // The files change only with the binary: revalidate on each load.
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        "content-security-policy",
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    response
}
