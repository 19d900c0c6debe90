//! The `caber.v1` messages, client and server, generated from `proto/` at build time.

#![allow(missing_docs, clippy::all)]

tonic::include_proto!("caber.v1");

/// The encoded file descriptor set of `caber.v1` (for gRPC reflection).
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/caber_descriptor.bin"));
