//! Starting etcd and kube-apiserver on free loopback ports and waiting until they serve.

use std::future::Future;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::assets::Assets;
use super::certs::{self, Credentials};
use super::error::{Error, io};
use super::process::Process;

/// How long each component may take to become ready.
const READY_TIMEOUT: Duration = Duration::from_secs(60);
/// How often readiness is polled.
const POLL: Duration = Duration::from_millis(50);

/// A local etcd and kube-apiserver, stopped and their folder removed when dropped.
pub(crate) struct Local {
    // Declared in the order they are stopped: the API server before its etcd.
    /// Replaced by a new process when the API server is restarted.
    apiserver: Mutex<Arc<Process>>,
    pub etcd: Process,
    pub dir: TempDir,
    /// The API server's binary and flags, to start it again.
    apiserver_command: (PathBuf, Vec<String>),
    /// The admin configuration, to poll the API server's readiness.
    config: kube::Config,
    /// Time from the start until etcd answered `/health`.
    pub etcd_ready: Duration,
    /// Time from the start until the API server answered `/readyz` with `ok`.
    pub apiserver_ready: Duration,
}

/// How many times a start is tried when a port it picked was taken before its process bound it.
const ATTEMPTS: usize = 3;

/// Starts the control plane and returns it with an admin client's configuration. A free port
/// is free only until a process binds it: a start that lost one to another process is tried
/// again with new ports.
pub(crate) async fn start(assets: &Assets) -> Result<(Local, kube::Config), Error> {
    let mut attempt = 1;
    loop {
        match start_once(assets).await {
            Err(error) if attempt < ATTEMPTS && lost_a_port(&error) => attempt += 1,
            result => return result,
        }
    }
}

/// Whether `error` is a process that exited because its port was taken.
fn lost_a_port(error: &Error) -> bool {
    matches!(error, Error::Exited { log_tail, .. } if log_tail.contains("address already in use"))
}

async fn start_once(assets: &Assets) -> Result<(Local, kube::Config), Error> {
    let started = Instant::now();
    let dir = TempDir::new()?;
    let creds = certs::write(dir.path())?;
    let [etcd_port, peer_port, apiserver_port] = free_ports()?;

    let etcd_url = format!("http://127.0.0.1:{etcd_port}");
    let etcd = Process::start(
        "etcd",
        &assets.etcd,
        &[
            format!("--data-dir={}", dir.path().join("etcd").display()),
            format!("--listen-client-urls={etcd_url}"),
            format!("--advertise-client-urls={etcd_url}"),
            format!("--listen-peer-urls=http://127.0.0.1:{peer_port}"),
        ],
        dir.path().join("etcd.log"),
    )?;
    poll("etcd", &[&etcd], || async { etcd_healthy(etcd_port) }).await?;
    let etcd_ready = started.elapsed();

    let apiserver_command = (
        assets.apiserver.clone(),
        apiserver_args(&creds, &etcd_url, apiserver_port, dir.path()),
    );
    let apiserver = start_apiserver(&apiserver_command, dir.path())?;
    let kubeconfig = write_kubeconfig(dir.path(), &creds, apiserver_port)?;
    let config = config_from(&kubeconfig).await?;
    wait_until_ready(&config, &apiserver, &etcd).await?;
    let apiserver_ready = started.elapsed();
    Ok((
        Local {
            apiserver: Mutex::new(Arc::new(apiserver)),
            etcd,
            dir,
            apiserver_command,
            config: config.clone(),
            etcd_ready,
            apiserver_ready,
        },
        config,
    ))
}

impl Local {
    /// The API server's current process.
    pub fn apiserver(&self) -> Arc<Process> {
        self.apiserver
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Stops the API server (SIGKILL), waits `down`, starts it again with the same flags (its
    /// port, its etcd, its log file continued) and waits until it is ready.
    pub async fn restart_apiserver(&self, down: Duration) -> Result<(), Error> {
        let old = self.apiserver();
        old.stop();
        tokio::time::sleep(down).await;
        let new = Arc::new(start_apiserver(&self.apiserver_command, self.dir.path())?);
        *self
            .apiserver
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = new.clone();
        wait_until_ready(&self.config, &new, &self.etcd).await
    }
}

fn start_apiserver((binary, args): &(PathBuf, Vec<String>), dir: &Path) -> Result<Process, Error> {
    Process::start(
        "kube-apiserver",
        binary,
        args,
        dir.join("kube-apiserver.log"),
    )
}

/// Polls the API server until it answers `/readyz` with `ok`.
async fn wait_until_ready(
    config: &kube::Config,
    apiserver: &Process,
    etcd: &Process,
) -> Result<(), Error> {
    let client = kube::Client::try_from(config.clone())?;
    poll("kube-apiserver", &[apiserver, etcd], || readyz(&client)).await
}

/// The API server's flags: all standard, as setup-envtest's binaries take them.
fn apiserver_args(creds: &Credentials, etcd_url: &str, port: u16, dir: &Path) -> Vec<String> {
    let path = |p: &PathBuf| p.display().to_string();
    vec![
        format!("--etcd-servers={etcd_url}"),
        "--bind-address=127.0.0.1".into(),
        "--advertise-address=127.0.0.1".into(),
        format!("--secure-port={port}"),
        format!("--cert-dir={}", dir.display()),
        format!("--tls-cert-file={}", path(&creds.serving_cert)),
        format!("--tls-private-key-file={}", path(&creds.serving_key)),
        format!("--client-ca-file={}", path(&creds.ca_cert)),
        format!("--token-auth-file={}", path(&creds.token_file)),
        "--authorization-mode=RBAC".into(),
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local".into(),
        format!("--service-account-key-file={}", path(&creds.sa_public)),
        format!(
            "--service-account-signing-key-file={}",
            path(&creds.sa_private)
        ),
        "--service-cluster-ip-range=10.0.0.0/24".into(),
        "--allow-privileged=true".into(),
        // No controller-manager creates the ServiceAccounts this plugin requires.
        "--disable-admission-plugins=ServiceAccount".into(),
    ]
}

/// A kubeconfig for the admin user, written as `kubeconfig` in `dir` (for `kubectl` too).
/// The CA is inline (`certificate-authority-data`), so that kubeconfigs derived from it need
/// no file of the control plane's folder.
fn write_kubeconfig(dir: &Path, creds: &Credentials, port: u16) -> Result<PathBuf, Error> {
    use base64::Engine as _;
    let ca = std::fs::read(&creds.ca_cert).map_err(io("reading the CA certificate"))?;
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: kubegen-testing\n  cluster:\n    \
         server: https://127.0.0.1:{port}\n    certificate-authority-data: {ca}\nusers:\n- name: \
         admin\n  user:\n    token: {token}\ncontexts:\n- name: kubegen-testing\n  context:\n    \
         cluster: kubegen-testing\n    user: admin\ncurrent-context: kubegen-testing\n",
        ca = base64::engine::general_purpose::STANDARD.encode(ca),
        token = creds.admin_token,
    );
    let path = dir.join("kubeconfig");
    std::fs::write(&path, text).map_err(io(format!("writing {}", path.display())))?;
    Ok(path)
}

/// The client configuration of the kubeconfig at `path`, with its current context.
pub(crate) async fn config_from(path: &Path) -> Result<kube::Config, Error> {
    let kubeconfig = kube::config::Kubeconfig::read_from(path)
        .map_err(|e| Error::Config(format!("reading {}: {e}", path.display())))?;
    kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default())
        .await
        .map_err(|e| Error::Config(format!("loading {}: {e}", path.display())))
}

/// Polls `ready` until it returns `Ok`, failing at once when one of `processes` exits.
async fn poll<F, Fut>(what: &str, processes: &[&Process], mut ready: F) -> Result<(), Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let start = Instant::now();
    loop {
        for process in processes {
            process.check_running()?;
        }
        let last = match ready().await {
            Ok(()) => return Ok(()),
            Err(last) => last,
        };
        if start.elapsed() > READY_TIMEOUT {
            let logs: Vec<String> = processes
                .iter()
                .map(|p| format!("the end of {}'s log:\n{}", p.component(), p.log_tail()))
                .collect();
            return Err(Error::Timeout {
                what: what.into(),
                waited: start.elapsed(),
                last: format!("{last}\n{}", logs.join("\n")),
            });
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Whether etcd answers `GET /health` with `"health":"true"`.
fn etcd_healthy(port: u16) -> Result<(), String> {
    let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(1)))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(b"GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .map_err(|e| e.to_string())?;
    if response.contains("\"health\":\"true\"") {
        Ok(())
    } else {
        Err(response)
    }
}

/// Whether the API server answers `GET /readyz` with `ok`.
async fn readyz(client: &kube::Client) -> Result<(), String> {
    let request = http::Request::get("/readyz")
        .body(Vec::new())
        .map_err(|e| e.to_string())?;
    match client.request_text(request).await {
        Ok(body) if body.trim() == "ok" => Ok(()),
        Ok(body) => Err(body),
        Err(e) => Err(e.to_string()),
    }
}

/// Distinct free loopback ports: all bound at once, so no two are the same, then released
/// for the processes to bind.
fn free_ports<const N: usize>() -> Result<[u16; N], Error> {
    let listeners = (0..N)
        .map(|_| TcpListener::bind((Ipv4Addr::LOCALHOST, 0)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(io("binding a free loopback port"))?;
    let mut ports = [0; N];
    for (port, listener) in ports.iter_mut().zip(&listeners) {
        *port = listener
            .local_addr()
            .map_err(io("reading a bound port"))?
            .port();
    }
    Ok(ports)
}

/// A folder of the system's temporary directory, removed with what it holds when dropped.
pub(crate) struct TempDir(PathBuf);

/// The start of the folders' names, followed by the owning process's id.
const PREFIX: &str = "kubegen-testing-";

impl TempDir {
    pub(crate) fn new() -> Result<Self, Error> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        remove_orphans();
        let path = std::env::temp_dir().join(format!(
            "{PREFIX}{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path).map_err(io(format!("creating {}", path.display())))?;
        Ok(TempDir(path))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

/// Removes the folders of test processes that no longer run (killed with SIGKILL, their
/// folders outlived them); Linux only, where `/proc` tells.
fn remove_orphans() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let owner = name.to_str().and_then(|name| {
            name.strip_prefix(PREFIX)?
                .split('-')
                .next()?
                .parse::<u32>()
                .ok()
        });
        if let Some(pid) = owner
            && !Path::new("/proc").join(pid.to_string()).exists()
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Assets whose etcd (and API server) is the shell script `script`, in `dir`.
    #[cfg(unix)]
    fn fake_binaries(dir: &TempDir, script: &str) -> Assets {
        let path = dir.path().join("etcd");
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        Assets {
            etcd: path.clone(),
            apiserver: path,
            kubectl: None,
        }
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn a_crashed_etcd_is_reported_with_its_log_not_as_a_timeout() {
        let dir = TempDir::new().unwrap();
        let assets = fake_binaries(&dir, "#!/bin/sh\necho \"etcd: bad flag $1\" >&2\nexit 3\n");
        let error = start(&assets).await.err().unwrap().to_string();
        assert!(error.starts_with("etcd exited (exit status: 3)"), "{error}");
        assert!(error.contains("etcd: bad flag --data-dir="), "{error}");
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn a_start_that_lost_its_port_is_tried_again_with_new_ports() {
        let dir = TempDir::new().unwrap();
        let assets = fake_binaries(
            &dir,
            "#!/bin/sh\necho \"$3\" >> \"$(dirname \"$0\")/starts\"\n\
             echo \"listen tcp: bind: address already in use\" >&2\nexit 1\n",
        );
        let error = start(&assets).await.err().unwrap().to_string();
        assert!(error.contains("address already in use"), "{error}");
        let starts = std::fs::read_to_string(dir.path().join("starts")).unwrap();
        let urls: Vec<&str> = starts.lines().collect();
        assert_eq!(urls.len(), ATTEMPTS, "{starts}");
        assert!(
            urls[0] != urls[1] && urls[1] != urls[2],
            "new ports each time: {starts}"
        );
    }

    #[test]
    fn the_folder_of_a_process_that_is_gone_is_removed() {
        // Process ids stop well below this on Linux (`pid_max` is at most 2^22).
        let orphan = std::env::temp_dir().join(format!("{PREFIX}{}-0", u32::MAX));
        std::fs::create_dir_all(orphan.join("etcd")).unwrap();
        let ours = TempDir::new().unwrap();
        assert_eq!(orphan.exists(), !cfg!(target_os = "linux"));
        assert!(ours.path().is_dir());
    }

    #[test]
    fn free_ports_are_distinct() {
        let [a, b, c] = free_ports().unwrap();
        assert!(a != b && b != c && a != c, "{a} {b} {c}");
    }
}
