//! The transparency log of a `kifu serve`: `kifu checkpoint --server URL`
//! fetches (or, with `--fresh`, asks for) its signed checkpoint; `kifu prove
//! ... --server URL` asks it for proofs. What is printed is what the same
//! commands print over a local store (`kifu_store::operator` computes both).

use std::path::Path;

use kifu_tlog::offline;
use kifu_tlog::proof::{ConsistencyProof, InclusionProof};
use serde_json::Value;

use crate::remote::Client;
use crate::verdicts::{fail_verify, write_atomically};
use crate::{CmdResult, Failure};

fn parse<T: serde::de::DeserializeOwned>(v: &Value, what: &str) -> Result<T, Failure> {
    serde_json::from_value(v.clone())
        .map_err(|e| Failure::new(format!("the server's {what} is malformed: {e}")))
}

/// `kifu checkpoint --server URL [--fresh] [--out F] [--json]`.
/// `signing`: a key or an origin was given, which only a local store takes.
pub fn checkpoint(
    url: &str,
    signing: bool,
    fresh: bool,
    out: Option<&Path>,
    json: bool,
) -> CmdResult {
    if signing {
        return Err(Failure::new(
            "with --server the server signs with its own key: drop --key and --origin",
        ));
    }
    let c = Client::new(url);
    let v: Value = if fresh {
        let (_, bytes) = c.post_empty("/checkpoint?format=json")?;
        serde_json::from_slice(&bytes)
            .map_err(|e| Failure::new(format!("the server's answer is not JSON: {e}")))?
    } else {
        c.get_json("/checkpoint?format=json")?
    };
    let text = v["checkpoint"]
        .as_str()
        .ok_or_else(|| Failure::new("the server sent no checkpoint"))?;
    let log_key = v["log_key"].as_str().unwrap_or_default();
    // What is written is checked first: a note that parses as a checkpoint
    // and verifies under the key the server names.
    offline::unchecked_checkpoint(text)
        .map_err(|e| Failure::new(format!("the server's checkpoint: {e}")))?;
    let verifier = kifu_tlog::NoteVerifier::parse(log_key)
        .map_err(|e| Failure::new(format!("the server's log key: {e}")))?;
    offline::open_checkpoint(text, &verifier).map_err(|e| match e {
        offline::OpenError::Signature(e) => fail_verify(format!(
            "the server's checkpoint does not verify under its own key: {e}"
        )),
        e => Failure::new(format!("the server's checkpoint: {e}")),
    })?;
    if let Some(out) = out {
        write_atomically(out, text.as_bytes())?;
    }
    if json {
        say!("{v}");
    } else {
        print!("{text}");
        eprintln!("log key: {log_key}");
    }
    Ok(())
}

/// `kifu prove inclusion GAME SEQ --server URL [--checkpoint F] [--text]`.
pub fn prove_inclusion(
    url: &str,
    game: &str,
    seq: u64,
    checkpoint: Option<&Path>,
    text: bool,
) -> CmdResult {
    let want = match checkpoint {
        Some(f) => {
            let t = std::fs::read_to_string(f)
                .map_err(|e| Failure::new(format!("{}: {e}", f.display())))?;
            Some(offline::unchecked_checkpoint(&t).map_err(|e| Failure::new(e.to_string()))?)
        }
        None => None,
    };
    let mut path = format!("/proof/inclusion?game={game}&seq={seq}");
    if let Some(cp) = &want {
        path.push_str(&format!("&size={}", cp.size));
    }
    let v = Client::new(url).get_json(&path)?;
    if let Some(cp) = &want {
        let root = kifu_tlog::proof::parse_b64_hash(v["root"].as_str().unwrap_or_default())
            .map_err(|e| Failure::new(format!("the server's root: {e}")))?;
        if root != cp.root {
            return Err(fail_verify(format!(
                "the checkpoint's root at size {} is not the server's: another log, or a fork",
                cp.size
            )));
        }
    }
    if text {
        print!("{}", parse::<InclusionProof>(&v, "proof")?.to_text());
    } else {
        say!("{v}");
    }
    Ok(())
}

/// `kifu prove consistency OLD NEW --server URL [--text]`.
pub fn prove_consistency(url: &str, old: u64, new: u64, text: bool) -> CmdResult {
    let v = Client::new(url).get_json(&format!("/proof/consistency?old={old}&new={new}"))?;
    if text {
        print!("{}", parse::<ConsistencyProof>(&v, "proof")?.to_text());
    } else {
        say!("{v}");
    }
    Ok(())
}

/// The server's consistency proof from size `old` to `new` (for a witness
/// with no proof file).
pub fn consistency_proof(url: &str, old: u64, new: u64) -> Result<ConsistencyProof, Failure> {
    let v = Client::new(url).get_json(&format!("/proof/consistency?old={old}&new={new}"))?;
    let p = parse::<ConsistencyProof>(&v, "proof")?;
    if (p.old_size, p.new_size) != (old, new) {
        return Err(Failure::new(format!(
            "the server sent a proof from size {} to {}, not {old} to {new}",
            p.old_size, p.new_size
        )));
    }
    Ok(p)
}
