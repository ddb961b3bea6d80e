//! `kifu key replace` and `kifu key revoke`: a roster key replaced or revoked
//! as an event of the game's chain (`docs/FORMAT.md`, section 5.2 "Keys along
//! the chain"). Who may sign which is the ledger's rule; this module only
//! finds the participant and appends the event.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use kifu_archive::printed::{KeyChange, KeyChanged, KeyFingerprint};
use kifu_ledger::{Body, PublicKey};

use crate::game_cmd::append_body;
use crate::keys::{read_private, read_public};
use crate::remote::open_existing;
use crate::render::short;
use crate::store_open::now_ms;
use crate::{CmdResult, Failure};

/// `kifu key ...`.
#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// From the next event on, a new key speaks for a participant; the old key
    /// signs nothing more. Signed by the old key, or by an official with the
    /// power (a referee or the director for players and recorders, the
    /// director for referees and committee members).
    Replace(ReplaceArgs),
    /// Revoke a participant's key (compromised): nothing it signs after this
    /// event is accepted; what it signed before stays valid.
    Revoke(RevokeArgs),
    /// Print keys' fingerprints, the form read aloud against a device's
    /// screen (docs/FORMAT.md, section 8).
    Fingerprint(FingerprintArgs),
}

/// `kifu key fingerprint`.
#[derive(Debug, Args)]
pub struct FingerprintArgs {
    /// Public keys: `.pub` files (SPKI PEM), private key files (PKCS#8 PEM,
    /// whose public key is printed) or 64 hex digits.
    #[arg(required = true)]
    pub keys: Vec<String>,
    /// Print `[{"key", "public_key", "fingerprint"}]`.
    #[arg(long)]
    pub json: bool,
}

/// The public key of a key given as a public key file, a private key file
/// or hex.
fn public_of(spec: &str) -> Result<PublicKey, Failure> {
    let text = std::fs::read_to_string(spec).unwrap_or_default();
    if text.contains("PRIVATE KEY") {
        return Ok(read_private(Path::new(spec))?.public());
    }
    read_public(spec)
}

/// `kifu key replace`.
#[derive(Debug, Args)]
pub struct ReplaceArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// The participant: their name in the roster, their role (`black`,
    /// `white`, `referee`, `recorder`, `director`), or their current key (hex).
    #[arg(long)]
    pub participant: String,
    /// The new public key: a `.pub` file (SPKI PEM) or 64 hex digits.
    #[arg(long)]
    pub new_key: String,
    /// Private key (PKCS#8 PEM) of the signer.
    #[arg(long)]
    pub key: PathBuf,
    /// Why, in plain words.
    #[arg(long, default_value = "device lost")]
    pub reason: String,
    /// Timestamp in ms since the Unix epoch (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kifu key revoke`.
#[derive(Debug, Args)]
pub struct RevokeArgs {
    /// Game id or unique prefix.
    pub game: String,
    /// The participant whose current key is revoked: name, role or key (hex).
    #[arg(long)]
    pub participant: String,
    /// Private key (PKCS#8 PEM) of the signer.
    #[arg(long)]
    pub key: PathBuf,
    /// Why, in plain words.
    #[arg(long, default_value = "key compromised")]
    pub reason: String,
    /// Timestamp in ms since the Unix epoch (default: now).
    #[arg(long)]
    pub at_ms: Option<u64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `kifu key ...`.
pub fn run(data: &Path, cmd: KeyCommand) -> CmdResult {
    match cmd {
        KeyCommand::Fingerprint(a) => {
            let mut out = Vec::new();
            for spec in &a.keys {
                let k = public_of(spec)?;
                out.push((spec.clone(), k));
            }
            if a.json {
                let v: Vec<KeyFingerprint> = out
                    .iter()
                    .map(|(s, k)| KeyFingerprint {
                        fingerprint: k.fingerprint(),
                        key: s.clone(),
                        public_key: *k,
                    })
                    .collect();
                say!("{}", serde_json::to_string(&v)?);
            } else {
                for (s, k) in &out {
                    say!("{}  {s}", k.fingerprint());
                }
            }
            Ok(())
        }
        KeyCommand::Replace(a) => {
            let new_key = read_public(&a.new_key)?;
            let key = read_private(&a.key)?;
            change(data, &a.game, &a.participant, &key, a.at_ms, a.json, |p| {
                Body::KeyReplaced {
                    participant: p,
                    new_key,
                    reason: a.reason.clone(),
                }
            })
        }
        KeyCommand::Revoke(a) => {
            let key = read_private(&a.key)?;
            change(data, &a.game, &a.participant, &key, a.at_ms, a.json, |p| {
                Body::KeyRevoked {
                    key: p,
                    reason: a.reason.clone(),
                }
            })
        }
    }
}

fn change(
    data: &Path,
    game: &str,
    participant: &str,
    key: &kifu_ledger::Keypair,
    at_ms: Option<u64>,
    as_json: bool,
    body: impl FnOnce(PublicKey) -> Body,
) -> CmdResult {
    let store = open_existing(data)?;
    let game = store.resolve(game)?;
    let (_, standing) = store.standing(&game)?;
    let named = kifu_game::seat::find_participant(&standing, participant)
        .map_err(|e| Failure::new(e.to_string()))?;
    let (target, who) = (named.key, kifu_game::seat::participant_label(&named));
    let body = body(target);
    let what = body.kind_name();
    let kind = if matches!(body, Body::KeyRevoked { .. }) {
        KeyChange::Revoked
    } else {
        KeyChange::Replaced
    };
    let done = append_body(&store, &game, key, at_ms.unwrap_or_else(now_ms), body)?;
    if as_json {
        say!(
            "{}",
            serde_json::to_string(&KeyChanged {
                game: hex::encode(done.game),
                hash: hex::encode(done.hash),
                key: target,
                kind,
                participant: who,
                seq: done.seq,
            })?
        );
    } else {
        say!(
            "appended seq {} to game {}: {what} for {who} (key {})",
            done.seq,
            short(&done.game),
            &target.to_hex()[..12]
        );
    }
    Ok(())
}
