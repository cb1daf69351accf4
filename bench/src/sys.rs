//! Linux specifics: CPU affinity, per-process CPU time from `/proc`, the machine's description.

use std::io;
use std::process::Command;

/// CPU ticks per second (`utime`/`stime` unit).
pub fn clock_ticks() -> f64 {
    // SAFETY: sysconf only reads a constant.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

/// The CPUs this process may run on.
pub fn allowed_cpus() -> io::Result<Vec<usize>> {
    // SAFETY: a zeroed cpu_set_t is valid; sched_getaffinity writes at most its size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect())
    }
}

/// Pins the calling thread (and the threads and processes it starts later) to `cpus`.
pub fn pin(cpus: &[usize]) -> io::Result<()> {
    // SAFETY: as in `allowed_cpus`; CPU_SET only writes inside the set.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus {
            libc::CPU_SET(c, &mut set);
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Makes `command` start pinned to `cpus`.
pub fn pin_command(command: &mut Command, cpus: Vec<usize>) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure only calls sched_setaffinity, which is
    // async-signal-safe, and allocates nothing (the set is built on the stack).
    unsafe {
        command.pre_exec(move || {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &c in &cpus {
                libc::CPU_SET(c, &mut set);
            }
            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Makes `command` start at the default priority (nice 0), whatever this process runs at.
pub fn normal_priority_command(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure only calls setpriority, which is
    // async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(|| {
            if libc::setpriority(libc::PRIO_PROCESS as _, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// `utime + stime` of process `pid` (all its threads), in ticks.
pub fn process_ticks(pid: u32) -> io::Result<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    parse_stat_ticks(&text).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("cannot read utime/stime from /proc/{pid}/stat"),
        )
    })
}

/// `utime + stime` of this process, in ticks.
pub fn self_ticks() -> io::Result<u64> {
    process_ticks(std::process::id())
}

fn parse_stat_ticks(text: &str) -> Option<u64> {
    // Fields after the command name (which may hold spaces) start at field 3 (state);
    // utime and stime are fields 14 and 15.
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

/// Busy ticks of the whole machine (all CPUs), from `/proc/stat`.
pub fn machine_busy_ticks() -> io::Result<u64> {
    let text = std::fs::read_to_string("/proc/stat")?;
    let line = text.lines().next().unwrap_or("");
    // cpu user nice system idle iowait irq softirq steal guest guest_nice
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|f| f.parse().ok())
        .collect();
    if v.len() < 8 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "unexpected /proc/stat",
        ));
    }
    Ok(v[0] + v[1] + v[2] + v[5] + v[6] + v[7])
}

/// Lowers this thread's nice value to `nice` (negative: higher priority); the processes and
/// threads it starts afterwards inherit it. Needs root (CAP_SYS_NICE) to go below 0.
pub fn raise_priority(nice: i32) -> io::Result<()> {
    // SAFETY: setpriority only changes the scheduling weight of the calling thread.
    if unsafe { libc::setpriority(libc::PRIO_PROCESS as _, 0, nice) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// With the kernel's autogroup scheduling, CPU time is first shared between sessions, so a
/// nice value only counts inside this session. This raises the session's weight too (the
/// nice value of `/proc/self/autogroup`) and sets it back when dropped.
pub struct AutogroupBoost {
    previous: Option<i32>,
}

impl AutogroupBoost {
    pub fn raise(nice: i32) -> io::Result<AutogroupBoost> {
        let path = "/proc/self/autogroup";
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(AutogroupBoost { previous: None }); // no autogroups: nothing to do
        };
        let previous: i32 = text
            .split_whitespace()
            .last()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, format!("{path}: {text}")))?;
        std::fs::write(path, nice.to_string())?;
        Ok(AutogroupBoost {
            previous: Some(previous),
        })
    }
}

impl Drop for AutogroupBoost {
    fn drop(&mut self) {
        if let Some(n) = self.previous {
            let _ = std::fs::write("/proc/self/autogroup", n.to_string());
        }
    }
}

pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// CPU model, CPU count and rustc version.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|l| l.trim_start_matches([' ', '\t', ':']).trim().to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let online = std::thread::available_parallelism().map_or(0, |n| n.get());
    let rustc = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "rustc: unknown".into());
    format!("{model}, {online} CPUs, {rustc}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn stat_fields() {
        let line = "1234 (my (odd) name) S 1 2 3 4 5 6 7 8 9 10 111 222 0 0 20 0 1 0";
        assert_eq!(super::parse_stat_ticks(line), Some(333));
    }
}
