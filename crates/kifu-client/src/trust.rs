//! Which certificates an `https://` server is checked against.

use std::sync::{Arc, OnceLock};

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
