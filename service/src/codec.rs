//! The protobuf codec of the generated `caber.v1` client and server.
//!
//! prost's own codec (`tonic_prost::ProstCodec`) with two changes. A received
//! message is decoded from the one contiguous slice that holds it (through
//! `Buf::chunk`) rather than through tonic's buffer wrapper, which keeps books
//! on every read of a field: replies with many short strings decode faster.
//! Bytes that are not the message: a request
//! (a message named `…Request`, decoded by the server) is refused with
//! `INVALID_ARGUMENT` naming the message, and the field (by its proto name)
//! and the problem as prost tells them; a reply the client cannot read is `INTERNAL`, as in gRPC
//! libraries.

use std::marker::PhantomData;

use prost::bytes::Buf;
use prost::{Message, Name};
use tonic::codec::{Codec, DecodeBuf, Decoder};
use tonic::Status;
use tonic_prost::ProstEncoder;

/// Encodes `T` with prost and decodes `U` from a contiguous slice.
#[derive(Debug, Clone)]
pub struct SliceCodec<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for SliceCodec<T, U> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<T, U> Codec for SliceCodec<T, U>
where
    T: Message + Send + 'static,
    U: Message + Name + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = SliceDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ProstEncoder::default()
    }

    fn decoder(&mut self) -> Self::Decoder {
        SliceDecoder(PhantomData)
    }
}

/// Decodes one `U` from the message's bytes.
#[derive(Debug, Clone)]
pub struct SliceDecoder<U>(PhantomData<U>);

impl<U: Message + Name + Default> Decoder for SliceDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        let len = buf.remaining();
        let decoded = if buf.chunk().len() == len {
            let decoded = U::decode(buf.chunk());
            buf.advance(len);
            decoded
        } else {
            U::decode(buf)
        };
        decoded.map(Some).map_err(|e| {
            // prost names fields as Rust does (`ApplyRequest.r#move`): the
            // message says the proto names.
            let problem = e.to_string().replace("r#", "");
            if U::NAME.ends_with("Request") {
                Status::invalid_argument(format!("{}: {problem}", U::full_name()))
            } else {
                Status::internal(problem)
            }
        })
    }
}
