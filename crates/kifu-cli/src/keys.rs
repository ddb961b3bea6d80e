//! `kifu keygen` and reading key files.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use kifu_ledger::{Keypair, PublicKey};

use crate::cli::KeygenArgs;
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
    say!("{}", key.public());
    eprintln!("wrote {} and {}", k.display(), p.display());
    Ok(())
}

/// Reads a PKCS#8 PEM private key file.
pub fn read_private(path: &Path) -> Result<Keypair, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    Keypair::from_pkcs8_pem(&text).map_err(|e| Failure::new(format!("{}: {e}", path.display())))
}

/// Reads a public key: an SPKI PEM file, or 64 hex digits given inline.
pub fn read_public(spec: &str) -> Result<PublicKey, Failure> {
    if spec.len() == 64 && spec.chars().all(|c| c.is_ascii_hexdigit()) {
        return Ok(PublicKey::from_hex(spec)?);
    }
    let text = std::fs::read_to_string(spec).map_err(|e| Failure::new(format!("{spec}: {e}")))?;
    PublicKey::from_spki_pem(&text).map_err(|e| Failure::new(format!("{spec}: {e}")))
}
