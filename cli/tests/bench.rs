//! `caber bench service` end to end against the in-process service.

use std::process::Command;

use serde_json::Value;

#[test]
fn bench_service_reports_both_phases_and_their_ratio() {
    let out = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(["bench", "service", "--rpc", "legal-moves"])
        .args([
            "--concurrency",
            "2",
            "--seconds",
            "0.4",
            "--rounds",
            "2",
            "--json",
        ])
        .output()
        .expect("caber runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(report["rpc"], "legal-moves");
    assert_eq!(report["baselineRpc"], "health-check");
    assert_eq!(report["concurrency"], 2);
    assert_eq!(report["rounds"], 2);
    for phase in ["target", "baseline"] {
        let p = &report[phase];
        assert!(p["calls"].as_u64().unwrap() > 0, "{phase}: {p}");
        // Two slices of 0.2 s each.
        let seconds = p["seconds"].as_f64().unwrap();
        assert!((0.4..1.0).contains(&seconds), "{phase}: {p}");
        assert_eq!(p["errors"], 0, "{phase}: {p}");
        let (p50, p99) = (p["p50Ms"].as_f64().unwrap(), p["p99Ms"].as_f64().unwrap());
        assert!(p50 > 0.0 && p50 <= p99, "{phase}: {p}");
        assert!(p["throughputPerS"].as_f64().unwrap() > 0.0);
        // In-process, the client's CPU holds the service's too; no server pid given.
        assert!(p["cpuUsPerCall"]["client"].as_f64().unwrap() >= 0.0, "{p}");
        assert!(p["cpuUsPerCall"]["server"].is_null(), "{p}");
    }
    let cpu = |phase: &str| report[phase]["cpuUsPerCall"]["client"].as_f64().unwrap();
    if cpu("target") > 0.0 {
        let expected = cpu("baseline") / cpu("target");
        let cpu_ratio = report["cpuRatio"].as_f64().unwrap();
        assert!(
            (cpu_ratio - expected).abs() < 0.01 + expected * 0.01,
            "{cpu_ratio} vs {expected}"
        );
    }
    let ratio = report["throughputRatio"].as_f64().unwrap();
    let expected = report["target"]["throughputPerS"].as_f64().unwrap()
        / report["baseline"]["throughputPerS"].as_f64().unwrap();
    assert!((ratio - expected).abs() < 0.01, "{ratio} vs {expected}");
}

/// The human report prints memory figures as numbers (the process's own pid
/// stands in for a server's).
#[test]
fn bench_service_text_report_prints_plain_numbers() {
    let pid = std::process::id().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_caber"))
        .args(["bench", "service", "--seconds", "0.2", "--rounds", "2"])
        .args(["--server-pid", &pid])
        .output()
        .expect("caber runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let rss = text
        .lines()
        .find(|l| l.starts_with("server RSS KiB: before "))
        .unwrap_or_else(|| panic!("no RSS line in\n{text}"));
    assert!(!rss.contains("Some(") && !rss.contains("None"), "{rss}");
    let numbers = rss
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .count();
    assert_eq!(numbers, 3, "before, one between the rounds, after: {rss}");
}
