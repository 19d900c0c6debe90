//! The process's own metrics, named as Prometheus' client libraries name
//! them (`process_cpu_seconds_total`, ...), read from `/proc` on Linux (and
//! left out elsewhere), the build's version, and the memory the process may
//! use at most.

use std::fmt::Write;

/// `/proc` reports CPU times in clock ticks of this many per second (the
/// kernel's fixed `USER_HZ`).
const TICKS_PER_SECOND: f64 = 100.0;

/// The memory this process may use at most, in bytes: the machine's, or
/// its cgroup's limit (a container's `memory.max`) when lower; `None` where
/// neither can be read.
pub fn memory_limit() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let total = meminfo.as_deref().and_then(mem_total);
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|m| m.trim().parse::<u64>().ok());
    match (total, cgroup) {
        (Some(t), Some(c)) => Some(t.min(c)),
        (t, c) => t.or(c),
    }
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let kb = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse::<u64>()
        .ok()?;
    kb.checked_mul(1024)
}

/// What `/proc` tells about this process.
#[derive(Debug, PartialEq)]
struct Process {
    cpu_seconds: f64,
    resident_bytes: u64,
    virtual_bytes: u64,
    open_fds: u64,
    max_fds: Option<u64>,
    threads: u64,
    start_time_seconds: Option<f64>,
}

impl Process {
    fn read() -> Option<Process> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
        let boot = std::fs::read_to_string("/proc/stat").unwrap_or_default();
        let open_fds = std::fs::read_dir("/proc/self/fd").ok()?.count() as u64;
        parse(&stat, &status, &limits, &boot, open_fds)
    }
}

/// The fields of `/proc/self/stat` after the command name (which may hold
/// spaces and parentheses), `status`, `limits` and `/proc/stat`.
fn parse(stat: &str, status: &str, limits: &str, boot: &str, open_fds: u64) -> Option<Process> {
    let fields: Vec<&str> = stat
        .get(stat.rfind(')')? + 1..)?
        .split_whitespace()
        .collect();
    // Field numbers of proc(5), counted from 1 with the pid and the name first.
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok());
    let ticks = field(14)? + field(15)?;
    let kib = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
    };
    let max_fds = limits
        .lines()
        .find_map(|l| l.strip_prefix("Max open files"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok());
    let boot_time = boot
        .lines()
        .find_map(|l| l.strip_prefix("btime "))
        .and_then(|v| v.trim().parse::<u64>().ok());
    Some(Process {
        cpu_seconds: ticks as f64 / TICKS_PER_SECOND,
        resident_bytes: kib("VmRSS:")? * 1024,
        virtual_bytes: field(23)?,
        open_fds,
        max_fds,
        threads: field(20)?,
        start_time_seconds: boot_time
            .zip(field(22))
            .map(|(b, t)| b as f64 + t as f64 / TICKS_PER_SECOND),
    })
}

/// Appends the build and process metrics to `out`.
pub fn render(out: &mut String) {
    let mut metric = |name: &str, kind: &str, help: &str, value: &str| {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} {kind}");
        let _ = writeln!(out, "{name}{value}");
    };
    metric(
        "caber_build_info",
        "gauge",
        "The running build: its version (always 1).",
        &format!("{{version=\"{}\"}} 1", env!("CARGO_PKG_VERSION")),
    );
    let Some(p) = Process::read() else {
        return;
    };
    let gauges = [
        (
            "process_cpu_seconds_total",
            "counter",
            "User and system CPU time spent, in seconds.",
            Some(p.cpu_seconds.to_string()),
        ),
        (
            "process_resident_memory_bytes",
            "gauge",
            "Resident memory size in bytes.",
            Some(p.resident_bytes.to_string()),
        ),
        (
            "process_virtual_memory_bytes",
            "gauge",
            "Virtual memory size in bytes.",
            Some(p.virtual_bytes.to_string()),
        ),
        (
            "process_open_fds",
            "gauge",
            "Open file descriptors.",
            Some(p.open_fds.to_string()),
        ),
        (
            "process_max_fds",
            "gauge",
            "The most file descriptors the process may open.",
            p.max_fds.map(|m| m.to_string()),
        ),
        (
            "process_threads",
            "gauge",
            "OS threads of the process.",
            Some(p.threads.to_string()),
        ),
        (
            "process_start_time_seconds",
            "gauge",
            "Start time of the process since the Unix epoch, in seconds.",
            p.start_time_seconds.map(|s| s.to_string()),
        ),
    ];
    for (name, kind, help, value) in gauges {
        if let Some(value) = value {
            metric(name, kind, help, &format!(" {value}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machines_memory_is_read_from_meminfo() {
        let meminfo = "MemTotal:       24576000 kB\nMemFree:         1000 kB\n";
        assert_eq!(mem_total(meminfo), Some(24_576_000 * 1024));
        assert_eq!(mem_total("MemFree: 1 kB\n"), None);
        #[cfg(target_os = "linux")]
        assert!(memory_limit().is_some_and(|m| m > 1 << 20));
    }

    #[test]
    fn proc_files_are_read() {
        // A command name with a space and a parenthesis, as proc(5) allows.
        let stat = "4242 (caber d) ) S 1 4242 4242 0 -1 4194560 1000 0 0 0 \
                    250 50 0 0 20 0 7 0 12345 104857600 5000 18446744073709551615";
        let status = "Name:\tcaberd\nVmRSS:\t   21388 kB\nThreads:\t7\n";
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max open files            1048576              1048576              files\n";
        let boot = "cpu  1 2 3\nbtime 1764547200\n";
        let p = parse(stat, status, limits, boot, 12).unwrap();
        assert_eq!(
            p,
            Process {
                cpu_seconds: 3.0,
                resident_bytes: 21388 * 1024,
                virtual_bytes: 104_857_600,
                open_fds: 12,
                max_fds: Some(1_048_576),
                threads: 7,
                start_time_seconds: Some(1_764_547_200.0 + 123.45),
            }
        );
        assert_eq!(parse("garbage", status, limits, boot, 1), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_is_measured() {
        let mut out = String::new();
        render(&mut out);
        let value = |name: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or_else(|| panic!("{name} missing in\n{out}"))
        };
        assert!(value("process_resident_memory_bytes") > 1e6);
        assert!(value("process_open_fds") >= 3.0);
        assert!(value("process_threads") >= 1.0);
        assert!(value("process_cpu_seconds_total") >= 0.0);
        assert!(out.contains(&format!(
            "caber_build_info{{version=\"{}\"}} 1",
            env!("CARGO_PKG_VERSION")
        )));
    }
}
