//! Server processes started by the benchmark, pinned to the server core and ended when
//! dropped.

use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::servers::Variant;

pub struct ServerProcess {
    pub variant: Variant,
    pub addr: SocketAddr,
    child: Child,
}

impl ServerProcess {
    /// Starts `variant` (pinned to `cpus` when given) and waits for it to listen.
    pub fn start(variant: Variant, cpus: Option<Vec<usize>>) -> Result<ServerProcess, String> {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        let mut command = Command::new(exe);
        command
            .args(["serve", variant.name()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(cpus) = cpus {
            crate::sys::pin_command(&mut command, cpus);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start the {} server: {e}", variant.name()))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let mut process = ServerProcess {
            variant,
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            child,
        };
        let line = rx.recv_timeout(Duration::from_secs(60)).map_err(|_| {
            format!(
                "the {} server did not start listening within 60 s",
                variant.name()
            )
        })?;
        let port: u16 = line
            .trim()
            .strip_prefix("listening ")
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| {
                format!(
                    "the {} server failed to start (said {:?}; see its message above)",
                    variant.name(),
                    line.trim()
                )
            })?;
        process.addr.set_port(port);
        Ok(process)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
