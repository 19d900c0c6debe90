//! Replies that leave a plaintext connection in one write.
//!
//! h2 sends a DATA frame of 256 bytes or more (1 KiB or more when the
//! connection has no vectored writes) from the message's own buffer instead of
//! copying it into its write buffer, and cannot buffer the status trailers
//! behind it before it flushes: such a unary reply left in two writes, headers
//! and message, then trailers (hyperium/h2#902). On plaintext connections
//! caberd cuts reply messages into frames under 1 KiB ([`ReplyCutter`], in the
//! call layer) and its connections ([`OneWriteIo`]) tell h2 they have no
//! vectored writes, so h2 copies every frame and the trailers into its buffer
//! and writes a unary reply at once. Under TLS nothing is cut: h2 sees the TLS
//! stream, which has vectored writes (threshold 256 bytes), and would flush
//! each cut piece on its own. Measured with `caber bench service`
//! (docs/SERVICE.md "Load").

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use prost::bytes::Bytes;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tonic::transport::server::{Connected, TcpConnectInfo};

/// The largest piece of a reply message sent as one frame: under h2's
/// threshold for connections without vectored writes (1024 bytes), from
/// which it stops copying a frame into its write buffer.
pub const REPLY_PIECE: usize = 1023;

/// A TCP connection that tells h2 it has no vectored writes (so h2 copies
/// frames under 1 KiB into its write buffer), while a caller that writes
/// vectored anyway (the TLS layer does) still gets a real vectored write.
#[derive(Debug)]
pub struct OneWriteIo(pub TcpStream);

impl Connected for OneWriteIo {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.0.connect_info()
    }
}

impl AsyncRead for OneWriteIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_read(cx, buf)
    }
}

impl AsyncWrite for OneWriteIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().0).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().0).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        false
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_shutdown(cx)
    }
}

/// Cuts a response body's data into pieces of at most `piece` bytes (no
/// cutting without a piece size).
#[derive(Debug, Default)]
pub struct ReplyCutter {
    piece: Option<usize>,
    rest: Bytes,
}

impl ReplyCutter {
    /// A cutter into pieces of at most `piece` bytes, or none.
    pub fn new(piece: Option<usize>) -> Self {
        Self {
            piece,
            rest: Bytes::new(),
        }
    }

    /// The next piece of data cut earlier, if any is left.
    pub fn next_piece(&mut self) -> Option<Bytes> {
        let piece = self.piece?;
        (!self.rest.is_empty()).then(|| self.rest.split_to(piece.min(self.rest.len())))
    }

    /// Keeps all of `data` beyond the first piece for [`Self::next_piece`].
    pub fn cut(&mut self, data: &mut Bytes) {
        if let Some(piece) = self.piece {
            if data.len() > piece {
                self.rest = data.split_off(piece);
            }
        }
    }

    /// Bytes kept for later pieces.
    pub fn pending(&self) -> usize {
        self.rest.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_is_cut_into_pieces_that_join_to_it() {
        let data: Bytes = (0..2500u32).map(|i| i as u8).collect();
        let mut cutter = ReplyCutter::new(Some(REPLY_PIECE));
        let mut first = data.clone();
        cutter.cut(&mut first);
        assert_eq!(cutter.pending(), 2500 - REPLY_PIECE);
        let mut pieces = vec![first];
        pieces.extend(std::iter::from_fn(|| cutter.next_piece()));
        let lengths: Vec<usize> = pieces.iter().map(Bytes::len).collect();
        assert_eq!(lengths, [1023, 1023, 454]);
        assert_eq!(pieces.concat(), data);
        assert_eq!(cutter.pending(), 0);
        // A short message and an exact piece stay whole.
        for len in [10, REPLY_PIECE] {
            let mut short = data.slice(..len);
            cutter.cut(&mut short);
            assert_eq!((short.len(), cutter.next_piece()), (len, None));
        }
        // Without a piece size nothing is cut.
        let mut whole = data.clone();
        let mut none = ReplyCutter::new(None);
        none.cut(&mut whole);
        assert_eq!((whole.len(), none.next_piece()), (2500, None));
    }
}
