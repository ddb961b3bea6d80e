//! `kifu keygen` and reading key files.

use clap::Args;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use kifu_ledger::{Keypair, PublicKey};

use crate::{CmdResult, Failure};

/// A fresh key from the operating system's random source.
pub fn generate() -> Result<Keypair, Failure> {
    let mut seed = [0u8; 32];
    getrandom::getrandom(&mut seed).map_err(|e| Failure::new(format!("no randomness: {e}")))?;
    Ok(Keypair::from_seed(seed))
}

fn with_ext(base: &Path, ext: &str) -> PathBuf {
    let mut s = base.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Writes `NAME.key` (mode 0600) and `NAME.pub`; returns their paths.
pub fn write_pair(base: &Path, key: &Keypair, force: bool) -> Result<(PathBuf, PathBuf), Failure> {
    let key_path = with_ext(base, "key");
    let pub_path = with_ext(base, "pub");
    if !force {
        for p in [&key_path, &pub_path] {
            if p.exists() {
                return Err(Failure::new(format!(
                    "{} exists; use --force to overwrite",
                    p.display()
                )));
            }
        }
    }
    if let Some(dir) = base.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)?;
        }
    }
    let pem = key.to_pkcs8_pem()?;
    let mut opts = OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts
        .open(&key_path)
        .map_err(|e| Failure::new(format!("{}: {e}", key_path.display())))?;
    #[cfg(unix)]
    {
        // The mode only applies at creation; make an overwritten file private too.
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    f.write_all(pem.as_bytes())?;
    f.sync_all()?;
    std::fs::write(&pub_path, key.public().to_spki_pem()?)?;
    Ok((key_path, pub_path))
}

/// `kifu keygen NAME`.
pub fn keygen(a: KeygenArgs) -> CmdResult {
    let key = generate()?;
    let (k, p) = write_pair(&a.name, &key, a.force)?;
    if a.json {
        say!(
            "{}",
            serde_json::to_string(&kifu_archive::printed::KeyPairWritten {
                fingerprint: key.public().fingerprint(),
                private_key_file: k.display().to_string(),
                public_key: key.public(),
                public_key_file: p.display().to_string(),
            })?
        );
    } else {
        say!("{}", key.public());
        eprintln!("wrote {} and {}", k.display(), p.display());
        eprintln!("fingerprint {}", key.public().fingerprint());
    }
    Ok(())
}

/// Reads a PKCS#8 PEM private key file.
pub fn read_private(path: &Path) -> Result<Keypair, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    Keypair::from_pkcs8_pem(&text).map_err(|e| {
        let what = key_kind(&text).unwrap_or_else(|| e.to_string());
        Failure::new(format!("{}: {what}", path.display()))
    })
}

/// What a key file that is not an Ed25519 key holds, where it can be told.
fn key_kind(text: &str) -> Option<String> {
    const P256_OID: &[u8] = &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
    const RSA_OID: &[u8] = &[
        0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01,
    ];
    if text.contains("BEGIN ENCRYPTED PRIVATE KEY") {
        return Some("encrypted keys are not supported; decrypt with openssl pkey".into());
    }
    if text.contains("BEGIN RSA PRIVATE KEY") {
        return Some("this is an RSA key; kifu keys are Ed25519".into());
    }
    let der = pem_body(text)?;
    let has = |needle: &[u8]| der.windows(needle.len()).any(|w| w == needle);
    if text.contains("BEGIN EC PRIVATE KEY") || has(P256_OID) {
        return Some("this is an ECDSA P-256 key; kifu keys are Ed25519".into());
    }
    if has(RSA_OID) {
        return Some("this is an RSA key; kifu keys are Ed25519".into());
    }
    None
}

/// The bytes of a PEM block's base64 body.
fn pem_body(text: &str) -> Option<Vec<u8>> {
    let b64: String = text
        .lines()
        .filter(|l| !l.starts_with("-----") && !l.contains(':'))
        .collect::<Vec<_>>()
        .concat();
    let mut out = Vec::with_capacity(b64.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in b64.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            b' ' | b'\t' | b'\r' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// Reads a public key: an SPKI PEM file, or 64 hex digits given inline.
pub fn read_public(spec: &str) -> Result<PublicKey, Failure> {
    if spec.len() == 64 && spec.chars().all(|c| c.is_ascii_hexdigit()) {
        return Ok(PublicKey::from_hex(spec)?);
    }
    let text = std::fs::read_to_string(spec).map_err(|e| Failure::new(format!("{spec}: {e}")))?;
    PublicKey::from_spki_pem(&text).map_err(|e| Failure::new(format!("{spec}: {e}")))
}

/// `kifu keygen`.
#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// Base name of the files (NAME.key and NAME.pub); may include a directory.
    pub name: PathBuf,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
    /// Print `{"public_key", "private_key_file", "public_key_file"}`.
    #[arg(long)]
    pub json: bool,
}
