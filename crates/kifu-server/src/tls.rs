//! HTTPS: the server's certificate, the venue's or one it makes itself.
//!
//! Browsers give Web Crypto (the board devices' keys) only to pages in a
//! secure context, and a tablet reaches the server by its address on the
//! venue's network, not by `localhost`: so the server speaks TLS itself
//! (rustls, TLS 1.2 and 1.3, HTTP/1.1).
//!
//! - [`Tls::from_pem_files`]: the venue's certificate chain and key (PEM).
//! - [`Tls::self_signed`]: a certificate the server makes for the names and
//!   addresses it is reached by, kept in the data directory (`tls/`) and
//!   used again on the next start while the names are the same (so a tablet
//!   that trusted it once goes on trusting it). Its SHA-256 fingerprint,
//!   written as `openssl x509 -fingerprint -sha256` writes it, is what a
//!   person compares on the tablet before trusting it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use sha2::{Digest, Sha256};
use tokio_rustls::TlsAcceptor;

/// Errors setting up TLS.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A PEM file held nothing usable.
    #[error("{path}: {what}")]
    Pem {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        what: String,
    },
    /// The certificate and key do not make a server configuration.
    #[error("the certificate and key cannot serve TLS: {0}")]
    Config(#[from] rustls::Error),
    /// A certificate could not be made.
    #[error("making a certificate: {0}")]
    Make(#[from] rcgen::Error),
}

/// What the server needs to serve HTTPS.
#[derive(Clone)]
pub struct Tls {
    /// Accepts TLS connections.
    pub acceptor: TlsAcceptor,
    /// The SHA-256 fingerprint of the certificate served, as `AB:CD:...`.
    pub fingerprint: String,
    /// The PEM file of the certificate served.
    pub cert_path: PathBuf,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls")
            .field("fingerprint", &self.fingerprint)
            .field("cert_path", &self.cert_path)
            .finish()
    }
}

/// The SHA-256 fingerprint of a certificate (its DER bytes), in upper-case
/// hexadecimal pairs joined by colons, as `openssl x509 -fingerprint
/// -sha256` prints it.
pub fn fingerprint(der: &[u8]) -> String {
    Sha256::digest(der)
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

fn read_file(path: &Path) -> Result<Vec<u8>, TlsError> {
    fs::read(path).map_err(|source| TlsError::File {
        path: path.to_path_buf(),
        source,
    })
}

fn write_file(path: &Path, bytes: &[u8], private: bool) -> Result<(), TlsError> {
    let err = |source| TlsError::File {
        path: path.to_path_buf(),
        source,
    };
    let tmp = path.with_extension("tmp");
    {
        let mut o = fs::OpenOptions::new();
        o.write(true).create(true).truncate(true);
        #[cfg(unix)]
        if private {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        #[cfg(not(unix))]
        let _ = private;
        let mut f = o.open(&tmp).map_err(err)?;
        io::Write::write_all(&mut f, bytes).map_err(err)?;
        f.sync_all().map_err(err)?;
    }
    fs::rename(&tmp, path).map_err(err)
}

impl Tls {
    /// Serves the certificate chain in `cert` (PEM, the server's own first)
    /// with the private key in `key` (PEM: PKCS#8, PKCS#1 or SEC1).
    pub fn from_pem_files(cert: &Path, key: &Path) -> Result<Tls, TlsError> {
        let chain = CertificateDer::pem_slice_iter(&read_file(cert)?)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| TlsError::Pem {
                path: cert.to_path_buf(),
                what: format!("not a PEM certificate: {e}"),
            })?;
        if chain.is_empty() {
            return Err(TlsError::Pem {
                path: cert.to_path_buf(),
                what: "no certificate in the file".into(),
            });
        }
        let private =
            PrivateKeyDer::from_pem_slice(&read_file(key)?).map_err(|e| TlsError::Pem {
                path: key.to_path_buf(),
                what: format!("no private key in the file: {e}"),
            })?;
        Tls::from_parts(chain, private, cert.to_path_buf())
    }

    fn from_parts(
        chain: Vec<CertificateDer<'static>>,
        key: PrivateKeyDer<'static>,
        cert_path: PathBuf,
    ) -> Result<Tls, TlsError> {
        let fingerprint = fingerprint(&chain[0]);
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_single_cert(chain, key)?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Tls {
            acceptor: TlsAcceptor::from(Arc::new(config)),
            fingerprint,
            cert_path,
        })
    }

    /// A self-signed certificate for `names` (host names and IP addresses),
    /// kept in `dir`: the one made before when it was made for the same
    /// names, else a new one (valid 800 days, within what phones and
    /// tablets accept for a certificate trusted by hand). Also says whether
    /// it was made now.
    pub fn self_signed(dir: &Path, names: &[String]) -> Result<(Tls, bool), TlsError> {
        fs::create_dir_all(dir).map_err(|source| TlsError::File {
            path: dir.to_path_buf(),
            source,
        })?;
        let cert_path = dir.join("self-signed.pem");
        let key_path = dir.join("self-signed.key");
        let names_path = dir.join("self-signed.names");
        let mut wanted: Vec<String> = names.to_vec();
        wanted.sort();
        wanted.dedup();
        let listed = wanted.join("\n") + "\n";
        let same = fs::read_to_string(&names_path).ok().as_deref() == Some(listed.as_str());
        if same && cert_path.exists() && key_path.exists() {
            return Ok((Tls::from_pem_files(&cert_path, &key_path)?, false));
        }
        let mut params = rcgen::CertificateParams::new(wanted.clone())?;
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "kifu serve");
        params
            .distinguished_name
            .push(rcgen::DnType::OrganizationName, "kifu");
        let now = time::OffsetDateTime::now_utc();
        params.not_before = now - time::Duration::days(1);
        params.not_after = now + time::Duration::days(800);
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
        params.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature];
        let key = rcgen::KeyPair::generate()?;
        let cert = params.self_signed(&key)?;
        write_file(&key_path, key.serialize_pem().as_bytes(), true)?;
        write_file(&cert_path, cert.pem().as_bytes(), false)?;
        write_file(&names_path, listed.as_bytes(), false)?;
        Ok((Tls::from_pem_files(&cert_path, &key_path)?, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_signed_certificate_is_kept_for_the_same_names_and_remade_for_others() {
        let dir = tempfile::tempdir().unwrap();
        let names = vec!["localhost".to_string(), "127.0.0.1".to_string()];
        let (a, made) = Tls::self_signed(dir.path(), &names).unwrap();
        assert!(made);
        assert_eq!(a.fingerprint.len(), 32 * 3 - 1);
        let (b, made) = Tls::self_signed(dir.path(), &names).unwrap();
        assert!(!made);
        assert_eq!(a.fingerprint, b.fingerprint);
        let (c, made) = Tls::self_signed(dir.path(), &["192.0.2.10".to_string()]).unwrap();
        assert!(made);
        assert_ne!(a.fingerprint, c.fingerprint);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join("self-signed.key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "the key is readable by its owner only");
        }
    }

    #[test]
    fn a_file_without_a_certificate_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let cert = dir.path().join("c.pem");
        let key = dir.path().join("k.pem");
        fs::write(&cert, "not a certificate").unwrap();
        fs::write(&key, "").unwrap();
        let e = Tls::from_pem_files(&cert, &key).unwrap_err().to_string();
        assert!(e.contains("c.pem"), "{e}");
    }
}
