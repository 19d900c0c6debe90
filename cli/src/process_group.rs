//! The process group of an engine the CLI starts (`uci=`, `cmd=`): the
//! engine is started as the leader of a group of its own, and the group is
//! killed when this guard is dropped, so that whatever the engine started
//! (a shell's background jobs, helper processes) ends with it.

use tokio::process::{Child, Command};

/// Starts `command` as the leader of a new process group.
pub fn in_own_group(command: &mut Command) -> &mut Command {
    command.process_group(0).kill_on_drop(true)
}

/// A started engine's process group, killed (SIGKILL) when dropped.
pub struct ProcessGroup(Option<i32>);

impl ProcessGroup {
    /// The group `child` leads (started by [`in_own_group`]).
    pub fn of(child: &Child) -> Self {
        ProcessGroup(child.id().and_then(|id| i32::try_from(id).ok()))
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if let Some(group) = self.0.filter(|&g| g > 0) {
            // SAFETY: killpg only sends a signal, to the group the engine
            // leads (process_group(0) made its id the group's id).
            unsafe {
                libc::killpg(group, libc::SIGKILL);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Whether a process whose command line is `cmdline` runs (zombies,
    /// waiting for their parent's reaping, do not count).
    fn running(cmdline: &[u8]) -> bool {
        std::fs::read_dir("/proc").unwrap().flatten().any(|p| {
            let line = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
            let status = std::fs::read_to_string(p.path().join("status")).unwrap_or_default();
            line == cmdline && !status.contains("State:\tZ")
        })
    }

    #[tokio::test]
    async fn the_group_ends_with_the_guard() {
        // A shell that leaves a child behind; a duration no other process
        // is likely to sleep, to find it by.
        let mut command = Command::new("sh");
        command.args(["-c", "sleep 271.828 & wait"]);
        let child = in_own_group(&mut command).spawn().unwrap();
        let group = ProcessGroup::of(&child);
        let cmdline = b"sleep\x00271.828\x00";
        for _ in 0..100 {
            if running(cmdline) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(running(cmdline), "the child started");
        drop(group);
        drop(child);
        for _ in 0..250 {
            if !running(cmdline) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(!running(cmdline), "the engine's child still runs");
    }
}
