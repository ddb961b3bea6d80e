//! What `kifu` prints with `--json` when it writes to a data directory or
//! reads from one, for the documents no other library owns: a game
//! created, an event appended, an archive written or imported, SGF files
//! recorded, a tournament created, a key replaced, key files written, the
//! demonstration, the log's audit, and a command's error. Each is a type,
//! so that `kifu_server::schemas` generates its schema (`docs/schema/`)
//! beside the server's answers, from one place.
//!
//! Every object is closed (`deny_unknown_fields` gives
//! `additionalProperties: false`), and the fields are in alphabetical
//! order: the order the command line has always printed them in.

use kifu_ledger::PublicKey;
use schemars::JsonSchema;
use serde::Serialize;

/// A lower-case hex BLAKE3 hash (a game id, an event hash): 64 digits.
const HEX64: &str = "^[0-9a-f]{64}$";

/// `kifu demo --json`: the demonstration recorded: its game, the events
/// written and whether the store verifies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Demonstration {
    /// Events of the demonstration's game.
    pub events: u64,
    /// The demonstration's game.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The folder of the demonstration's key files.
    pub keys: String,
    /// Events in the store after it.
    pub store_events: u64,
    /// The store verifies.
    pub verified: bool,
}

/// `kifu keygen --json`: a key pair written: the files, the public key in
/// hex and its fingerprint (docs/FORMAT.md section 8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyPairWritten {
    /// The public key's fingerprint.
    pub fingerprint: String,
    /// The private key's file (PKCS#8 PEM, mode 0600).
    pub private_key_file: String,
    /// The public key, hex.
    pub public_key: PublicKey,
    /// The public key's file (SPKI PEM).
    pub public_key_file: String,
}

/// One key of `kifu key fingerprint --json` (which prints a list of them):
/// the key named, its public key in hex and its fingerprint (docs/FORMAT.md
/// section 8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyFingerprint {
    /// The fingerprint.
    pub fingerprint: String,
    /// The key as it was named (a file, or hex).
    pub key: String,
    /// The public key, hex.
    pub public_key: PublicKey,
}

/// `kifu new-game --json`: a game created: its id and the device requests
/// enrolled in its roster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameCreated {
    /// The device requests enrolled by `--device-request`.
    pub devices: Vec<DeviceEnrolled>,
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
}

/// A device request enrolled in a game's roster by `--device-request`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeviceEnrolled {
    /// The key's fingerprint.
    pub fingerprint: String,
    /// The device's key.
    pub key: PublicKey,
    /// The name the roster gives it.
    pub name: String,
    /// The request's number.
    pub request: String,
    /// The seat it holds.
    pub role: kifu_ledger::Role,
}

/// `kifu append --json`: an event appended: its place in the game, its
/// hash and its cursor; `new` is false when the same event was stored
/// already.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Appended {
    /// The event's place in the store's feed.
    pub cursor: u64,
    /// The game.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The event's record hash.
    #[schemars(pattern(HEX64))]
    pub hash: String,
    /// False when the same event was stored already (a retry).
    pub new: bool,
    /// The event's place in the game.
    pub seq: u64,
}

/// `kifu export --json`: an archive written: its file, size, games and
/// events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArchiveWritten {
    /// The archive's size in bytes.
    pub bytes: u64,
    /// Events in it.
    pub events: u64,
    /// The archive's file.
    pub file: String,
    /// Games in it.
    pub games: u64,
}

/// `kifu import --json`: an archive imported after it verified: games,
/// records written and records already present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArchiveImported {
    /// Records the store held already.
    pub already_present: u64,
    /// How long the import took, in milliseconds.
    pub elapsed_ms: u64,
    /// Games new or extended.
    pub games: u64,
    /// Records written.
    pub written: u64,
}

/// `kifu key replace|revoke --json`: a participant's key replaced or
/// revoked mid-game, as an event of the chain (docs/FORMAT.md section
/// 5.2): the event's place and hash, whose key, and the key concerned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyChanged {
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// The event's record hash.
    #[schemars(pattern(HEX64))]
    pub hash: String,
    /// The participant's key before the event: the one replaced or
    /// revoked.
    pub key: PublicKey,
    /// The event's kind, in words.
    pub kind: KeyChange,
    /// Whose key: the roster's name and role.
    pub participant: String,
    /// The event's place in the game.
    pub seq: u64,
}

/// What befell a key, in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub enum KeyChange {
    /// A new key signs for the participant from now on.
    #[serde(rename = "key replaced")]
    Replaced,
    /// The key signs for no one from now on.
    #[serde(rename = "key revoked")]
    Revoked,
}

impl KeyChange {
    /// The words (`key replaced`, `key revoked`).
    pub fn words(self) -> &'static str {
        match self {
            KeyChange::Replaced => "key replaced",
            KeyChange::Revoked => "key revoked",
        }
    }
}

/// `kifu sgf import --json`: SGF files recorded as signed games: each file
/// imported with its game, events and the warnings of its reading, each
/// file skipped with why, and the events written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SgfImported {
    /// Events written.
    pub events: u64,
    /// The files recorded as games.
    pub imported: Vec<SgfGame>,
    /// The files not imported.
    pub skipped: Vec<SgfSkipped>,
}

/// An SGF file recorded as a signed game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SgfGame {
    /// Events of the game.
    pub events: u64,
    /// The file.
    pub file: String,
    /// The game's id.
    #[schemars(pattern(HEX64))]
    pub game: String,
    /// What the reading of the file noted (properties left out, ...).
    pub warnings: Vec<String>,
}

/// An SGF file not imported: why, and the game when it is already in the
/// store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SgfSkipped {
    /// The file.
    pub file: String,
    /// The game the store holds already, when that is why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(HEX64))]
    pub game: Option<String>,
    /// Why, in words.
    pub reason: String,
}

/// `kifu tournament new --json`, `kifu tournament import-opengotha
/// --json`: a tournament created: its id, short name, name, rounds,
/// players and the chain's file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentCreated {
    /// The tournament chain's file.
    pub file: String,
    /// The tournament's id.
    #[schemars(pattern(HEX64))]
    pub id: String,
    /// Its full name.
    pub name: String,
    /// Players registered.
    pub players: u64,
    /// Rounds.
    pub rounds: u32,
    /// Its short name.
    pub short_name: String,
    /// The tournament's time zone (an IANA name), or null.
    pub time_zone: Option<String>,
}

/// One line of `kifu audit --json`: a line per checkpoint audited (the
/// log's leaves replayed and the tree root and map root compared with the
/// checkpoint's), a line when the state kept (`--state`) shows a fork,
/// then one summary line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum AuditLine {
    /// A checkpoint audited.
    Checkpoint(CheckpointAudited),
    /// The state kept shows the log forked.
    Forked(ForkFound),
    /// The summary, last.
    Summary(AuditSummary),
}

/// A checkpoint audited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckpointAudited {
    /// Which checkpoint: a kept one, a file named by `--checkpoint`, the
    /// server's.
    pub checkpoint: String,
    /// What the audit found, in words.
    pub finding: String,
    /// The roots are the leaves'.
    pub ok: bool,
    /// The log's origin line.
    pub origin: String,
    /// The checkpoint's tree size.
    pub size: u64,
}

/// The state kept (`kifu audit --state FILE`) and the log disagree: the
/// log forked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForkFound {
    /// What was found, in words.
    pub finding: String,
    /// Always false.
    pub ok: bool,
    /// Always true: the finding is about the state kept.
    pub state: bool,
}

/// The audit's summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditSummary {
    /// Checkpoints audited.
    pub checkpoints: u64,
    /// Leaves of the log read.
    pub leaves_read: u64,
    /// Checkpoints whose roots are not the leaves'.
    pub wrong: u64,
}

/// A command's error with `--json`, printed on standard error instead of
/// the line `kifu: error: ...`; the command exits non-zero.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandError {
    /// What kind of failure.
    pub code: ErrorCode,
    /// What went wrong, on one line.
    pub error: String,
}

/// What kind of failure a command's error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The command line does not parse.
    Usage,
    /// Anything else.
    Error,
    /// What was verified does not hold (exit code 3).
    VerificationFailed,
}

/// `GET /checkpoint?format=json`: the latest signed checkpoint, as `kifu
/// checkpoint --json` prints it: the C2SP signed note and its parts
/// (docs/TRANSPARENCY.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckpointAnswer {
    /// The signed note's exact text.
    pub checkpoint: String,
    /// The log's origin line (its name).
    pub origin: String,
    /// The tree's size in leaves.
    pub size: u64,
    /// The tree's root hash, base64.
    pub root: String,
    /// The verifier key to pass as `--log-key`.
    pub log_key: String,
}

/// `kifu checkpoint --key OLD --rotate-to NEW --json`: the log's operator
/// key rotated (docs/TRANSPARENCY.md section 8): the first checkpoint signed by the new key,
/// and the rotation's record in the operator's chain and its leaf.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyRotated {
    /// The signed note's exact text, signed by the new key.
    pub checkpoint: String,
    /// The log's origin line (its name).
    pub origin: String,
    /// The tree's size in leaves.
    pub size: u64,
    /// The tree's root hash, base64.
    pub root: String,
    /// The new verifier key.
    pub log_key: String,
    /// The verifier key it replaces.
    pub old_log_key: String,
    /// The rotation record's leaf index in the log.
    pub rotation_leaf: u64,
    /// The operator's chain that records the rotation.
    #[schemars(pattern(HEX64))]
    pub operator_chain: String,
    /// The rotation record's place in that chain.
    pub rotation_seq: u64,
}
