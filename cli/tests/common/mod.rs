//! What the tool's test files share: a scratch directory and a run's outcome.

#![allow(dead_code)]

use std::path::PathBuf;

/// A directory of its own under the system's temporary directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// `avax-rpc-NAME-PID-NANOS`, created.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "avax-rpc-{name}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The path of `name` in it.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }

    /// Writes `name`; its path.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let path = self.path(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How a process ended: its status code and its output as text.
pub struct Out {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl From<std::process::Output> for Out {
    fn from(out: std::process::Output) -> Out {
        Out {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}
