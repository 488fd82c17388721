//! A control-plane process: started so that it dies with the test process, logging to a
//! file (and, on request, to the test's standard error), killed when dropped.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock, mpsc};

use super::error::{Error, io};

/// A running `etcd` or `kube-apiserver`.
pub(crate) struct Process {
    component: &'static str,
    id: u32,
    child: Mutex<Child>,
    log: PathBuf,
}

/// Whether the control plane's output goes to standard error too: `KUBEGEN_TEST_LOGS=1`, or
/// envtest's `KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true`.
pub(crate) fn attached() -> bool {
    std::env::var("KUBEGEN_TEST_LOGS").is_ok_and(|v| v == "1")
        || std::env::var("KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT").is_ok_and(|v| v == "true")
}

/// How many log lines an error shows.
const TAIL_LINES: usize = 30;

impl Process {
    /// Starts `binary` with `args`, its output into `log`.
    pub fn start(
        component: &'static str,
        binary: &Path,
        args: &[String],
        log: PathBuf,
    ) -> Result<Self, Error> {
        // Appended to: a restarted process goes on in its predecessor's log.
        let out = File::options()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(io(format!("opening {}", log.display())))?;
        let mut command = Command::new(binary);
        command.args(args).stdin(Stdio::null());
        let attached = attached();
        if attached {
            command.stdout(Stdio::piped()).stderr(Stdio::piped());
        } else {
            let dup = || out.try_clone().map_err(io("duplicating a log file"));
            command.stdout(dup()?).stderr(dup()?);
        }
        die_with_parent(&mut command);
        let mut child = spawn(command).map_err(io(format!("starting {}", binary.display())))?;
        if attached {
            let log = std::sync::Arc::new(Mutex::new(out));
            if let Some(stdout) = child.stdout.take() {
                tee(component, stdout, log.clone());
            }
            if let Some(stderr) = child.stderr.take() {
                tee(component, stderr, log);
            }
        }
        Ok(Process {
            component,
            id: child.id(),
            child: Mutex::new(child),
            log,
        })
    }

    /// `etcd` or `kube-apiserver`.
    pub fn component(&self) -> &'static str {
        self.component
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.id
    }

    fn child(&self) -> MutexGuard<'_, Child> {
        self.child
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// An [`Error::Exited`] with the end of the log if the process has exited.
    pub fn check_running(&self) -> Result<(), Error> {
        let status = self.child().try_wait();
        match status {
            Ok(None) => Ok(()),
            Ok(Some(status)) => Err(Error::Exited {
                component: self.component,
                status,
                log_tail: self.log_tail(),
            }),
            Err(source) => Err(Error::Io {
                what: format!("waiting for {}", self.component),
                source,
            }),
        }
    }

    /// The last lines of the log.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(TAIL_LINES)..].join("\n")
    }

    /// Kills the process (SIGKILL) and reaps it. Killing a process that has exited fails
    /// harmlessly; `wait` reaps it either way.
    pub fn stop(&self) {
        let mut child = self.child();
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Copies each line of `output` to the log file and to standard error, as `[component] line`,
/// until the process closes it. Written to the process's standard error directly, past the
/// test harness's capture, as envtest attaches the output.
fn tee(
    component: &'static str,
    output: impl Read + Send + 'static,
    log: std::sync::Arc<Mutex<File>>,
) {
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            let Ok(line) = line else { break };
            if let Ok(mut file) = log.lock() {
                let _ = writeln!(file, "{line}");
            }
            let _ = writeln!(std::io::stderr().lock(), "[{component}] {line}");
        }
    });
}

/// Asks the kernel to kill the child with SIGKILL when the thread that started it ends, so
/// that a test binary killed with SIGKILL leaves no control plane behind.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs between fork and exec and calls only async-signal-safe
    // functions (`prctl`, `getppid`), allocating nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent died before `prctl`: no signal will come.
            if libc::getppid() != parent {
                return Err(std::io::Error::other("the test process exited"));
            }
            Ok(())
        });
    }
}

/// Elsewhere the children are killed on drop only.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}

/// A command to start and where to send the child.
type Job = (Command, mpsc::Sender<std::io::Result<Child>>);

/// Starts `command` on a thread that lives as long as the process: `PR_SET_PDEATHSIG` fires
/// when the starting *thread* ends, and a test's thread ends before its process does.
fn spawn(command: Command) -> std::io::Result<Child> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("kubegen-testing-spawner".into())
            .spawn(move || {
                for (mut command, reply) in queue {
                    let _ = reply.send(command.spawn());
                }
            })
            .expect("starting the control plane's spawner thread");
        Mutex::new(jobs)
    });
    let (reply, child) = mpsc::channel();
    spawner
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .send((command, reply))
        .map_err(|_| std::io::Error::other("the spawner thread is gone"))?;
    child
        .recv()
        .map_err(|_| std::io::Error::other("the spawner thread is gone"))?
}
