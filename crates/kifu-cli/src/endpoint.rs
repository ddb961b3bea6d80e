//! Which server the commands act through (`--server URL` or
//! `KIFU_SERVER`), how to reach it (`KIFU_CACERT`), and whether one holds a
//! data directory.

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

static SERVER: OnceLock<Option<String>> = OnceLock::new();

/// The certificates to trust for an `https://` server instead of the usual
/// roots: the PEM file named by `KIFU_CACERT` (a venue's self-signed
/// `kifu serve` certificate, `DATA/tls/self-signed.pem`), read once; `None`
/// when it is not set, the reason when it cannot be used.
pub fn venue_ca() -> &'static Result<Option<Arc<rustls::ClientConfig>>, String> {
    static CA: OnceLock<Result<Option<Arc<rustls::ClientConfig>>, String>> = OnceLock::new();
    CA.get_or_init(|| {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::CertificateDer;
        let Some(path) = std::env::var_os("KIFU_CACERT") else {
            return Ok(None);
        };
        let shown = std::path::Path::new(&path).display().to_string();
        let bytes = std::fs::read(&path).map_err(|e| format!("KIFU_CACERT {shown}: {e}"))?;
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_slice_iter(&bytes) {
            let cert =
                cert.map_err(|e| format!("KIFU_CACERT {shown}: not a PEM certificate: {e}"))?;
            roots
                .add(cert)
                .map_err(|e| format!("KIFU_CACERT {shown}: {e}"))?;
        }
        if roots.is_empty() {
            return Err(format!("KIFU_CACERT {shown}: no certificate in the file"));
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Some(Arc::new(config)))
    })
}

/// An HTTP agent's builder, trusting `KIFU_CACERT` when it is set.
pub fn agent_builder() -> ureq::AgentBuilder {
    match venue_ca() {
        Ok(Some(config)) => ureq::AgentBuilder::new().tls_config(config.clone()),
        _ => ureq::AgentBuilder::new(),
    }
}

/// Sets the server the commands act through (from `--server` or
/// `KIFU_SERVER`); `None` or empty for the local store.
pub fn set_server(url: Option<String>) {
    let url = url
        .map(|u| u.trim().trim_end_matches('/').to_string())
        .filter(|u| !u.is_empty());
    let _ = SERVER.set(url);
}

/// The server the commands act through, if any.
pub fn server() -> Option<&'static str> {
    SERVER.get().and_then(|s| s.as_deref())
}

/// When a running `kifu serve` holds `dir`, the line to tell the user. A
/// note left by a server that was killed names a server that no longer
/// answers, and is ignored.
pub fn held_by_server(dir: &Path) -> Option<String> {
    let url = kifu_store::marker::read(dir)?;
    let alive = match url.strip_prefix("https://") {
        // A certificate this client may not trust (a self-signed one): the
        // server answers if its port takes a connection.
        Some(addr) => addr
            .parse::<std::net::SocketAddr>()
            .ok()
            .and_then(|a| std::net::TcpStream::connect_timeout(&a, Duration::from_secs(2)).ok())
            .is_some(),
        // Any answer is a server alive (a degraded one answers 503).
        None => matches!(
            agent_builder()
                .timeout(Duration::from_secs(2))
                .build()
                .get(&format!("{url}/healthz"))
                .call(),
            Ok(_) | Err(ureq::Error::Status(..))
        ),
    };
    alive.then(|| {
        format!(
            "the store in {} is held by `kifu serve` at {url}; run the command with --server {url} (or KIFU_SERVER={url})",
            dir.display()
        )
    })
}
