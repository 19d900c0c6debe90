//! Compiles `proto/caber/v1` with protox (no system `protoc`): the Rust code
//! for messages, client and server, and the encoded file descriptor set that
//! gRPC reflection serves (`OUT_DIR/caber_descriptor.bin`).

use std::path::PathBuf;

use prost::Message;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=../proto");
    let fds = protox::compile(["caber/v1/caber.proto"], ["../proto"])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("caber_descriptor.bin"), fds.encode_to_vec())?;
    let mut config = tonic_prost_build::Config::new();
    // `prost::Name` on every message: the codec tells a request the server
    // could not decode (INVALID_ARGUMENT) from a reply (INTERNAL).
    config.enable_type_names();
    tonic_prost_build::configure()
        .codec_path("crate::codec::SliceCodec")
        .compile_fds_with_config(fds, config)?;
    Ok(())
}
