//! Devices asking for seats: `POST /devices`, `GET /devices`,
//! `GET /devices/{id}`.
//!
//! A request carries a device's public key and the seat it asks for
//! ([`kifu_game::seat::SeatRequest`], where the rules of a request live).
//! It is not a ledger event and grants nothing: the official who signs the
//! genesis enrols the key (`kifu new-game --device-request ID`), after
//! comparing the fingerprint listed here with the one the device shows. A
//! device learns its game by asking for its request again: the games whose
//! roster names its key are listed with its roles there.
//!
//! Requests are kept in `device-requests.json` in the data directory,
//! written whole to a temporary file, synced and renamed, so that a crash
//! leaves the old list or the new one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use kifu_game::document::GameHead;
use kifu_game::seat::{SeatError, SeatRequest, SignedRequest};
use kifu_ledger::TournamentRef;
use kifu_ledger::{Event, Hash, Participant, PublicKey, Role, Standing};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api::blocking;
use crate::error::ApiError;
use crate::App;

use kifu_store::devices::AddError;
pub use kifu_store::devices::{FILE, MAX_REQUESTS, REQUEST_TTL_MS};

/// One device's request, as kept and listed.
pub type DeviceRequest = kifu_store::devices::DeviceRequest<SeatRequest>;

type Kept = kifu_store::devices::Kept<SeatRequest>;

/// Which changes of the kept list are on disk, and which were given up.
#[derive(Default)]
struct Written {
    /// Every change up to this one is written.
    through: u64,
    /// Every change up to this one was undone: a write failed, and the
    /// list was read back from the file.
    lost_through: u64,
}

/// Each game's roster now (after its `key_replaced` events), by the head it
/// was read at.
type Rosters = HashMap<Hash, (u64, Vec<Participant>)>;

/// Most requests one client address may have kept at once, by default: a
/// flood from a few addresses cannot fill the list that every board's
/// device needs.
pub const MAX_REQUESTS_PER_CLIENT: usize = 64;

/// The requests of one data directory.
pub struct Devices {
    dir: PathBuf,
    /// Most requests kept ([`MAX_REQUESTS`]).
    max: usize,
    /// Most requests one client address may have kept at once
    /// ([`crate::Limits::max_device_requests_per_client`]).
    per_client: usize,
    kept: Mutex<Kept>,
    /// Changes made to `kept` in memory, counted: change N is durable once
    /// [`Written::through`] reaches N.
    changes: std::sync::atomic::AtomicU64,
    /// What of `kept` is on disk; held by the one writing it.
    written: Mutex<Written>,
    /// The address each kept request came from (by the device's key), for
    /// the bound per client; a request kept from before a restart counts
    /// for no address.
    from: Mutex<HashMap<PublicKey, std::net::IpAddr>>,
    rosters: Mutex<Rosters>,
    /// Which games name each key.
    index: Mutex<KeyIndex>,
}

/// Reads the requests kept in a data directory (none when the file is
/// absent).
///
/// # Errors
///
/// A file that cannot be read or is not a list of requests.
pub fn read_requests(dir: &Path) -> Result<Vec<DeviceRequest>, std::io::Error> {
    Ok(kifu_store::devices::read(dir)?.requests)
}

impl Devices {
    /// The requests kept in `dir`.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or parsed.
    pub fn open(dir: &Path) -> Result<Devices, std::io::Error> {
        let kept = kifu_store::devices::read(dir)?;
        Ok(Devices {
            dir: dir.to_path_buf(),
            max: MAX_REQUESTS,
            per_client: MAX_REQUESTS_PER_CLIENT,
            kept: Mutex::new(kept),
            changes: Default::default(),
            written: Default::default(),
            from: Mutex::new(HashMap::new()),
            rosters: Mutex::new(HashMap::new()),
            index: Mutex::new(KeyIndex::default()),
        })
    }

    /// The same, with at most `n` requests kept from one client address.
    #[must_use]
    pub fn per_client(mut self, n: usize) -> Devices {
        self.per_client = n.max(1);
        self
    }

    /// Adds a request signed by its device ([`SignedRequest::open`]), or
    /// gives back the one this key already made (the seat updated when the
    /// device now asks for another, in a request signed later), or
    /// withdraws it. `new` is false for a request already kept; a
    /// withdrawal gives back the request withdrawn.
    ///
    /// # Errors
    ///
    /// A full list, the client's share spent, an old request sent again,
    /// nothing to withdraw, or the file not written.
    pub fn add(
        &self,
        signed: SignedRequest,
        now_ms: u64,
        client: Option<std::net::IpAddr>,
    ) -> Result<(DeviceRequest, bool), ApiError> {
        let key = signed.seat.key;
        let (r, change) = self.change(signed, now_ms, client)?;
        if let Some(n) = change {
            self.durable(n, key)?;
        }
        Ok(r)
    }

    /// [`Devices::add`] in memory; the number of the change when the list
    /// changed (to be written).
    fn change(
        &self,
        signed: SignedRequest,
        now_ms: u64,
        client: Option<std::net::IpAddr>,
    ) -> Result<((DeviceRequest, bool), Option<u64>), ApiError> {
        let key = signed.seat.key;
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        let mut from = self.from.lock().unwrap_or_else(|p| p.into_inner());
        let numbered = |changed: bool| {
            changed.then(|| {
                self.changes
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst)
                    + 1
            })
        };
        if signed.withdraw {
            let gone = kept
                .withdraw(signed.signed_at_ms, |s| s.key == key)
                .map_err(refused)?
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::NOT_FOUND,
                        "no_such_request",
                        "this device has no request to withdraw".to_string(),
                    )
                })?;
            from.remove(&key);
            return Ok(((gone, false), numbered(true)));
        }
        let live = kept.unexpired(now_ms, REQUEST_TTL_MS);
        let asked_before = live.iter().any(|r| r.seat.key == key);
        if let (Some(ip), false) = (client, asked_before) {
            let held = live
                .iter()
                .filter(|r| from.get(&r.seat.key) == Some(&ip))
                .count();
            if held >= self.per_client {
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too_many_requests",
                    format!("this address has {held} device requests waiting, the most one client may; ask the referee"),
                ));
            }
        }
        let (r, new, changed) = kept
            .add(
                signed.seat,
                now_ms,
                signed.signed_at_ms,
                self.max,
                REQUEST_TTL_MS,
                |a, b| a.key == b.key,
            )
            .map_err(refused)?;
        if let (Some(ip), true) = (client, new) {
            from.insert(key, ip);
        }
        Ok(((r, new), numbered(changed)))
    }

    /// Returns once change `n` is on disk: the list is written whole, and
    /// whoever writes it writes every change made so far, so that devices
    /// asking at once (a round's tablets) share one write and sync instead
    /// of each waiting for all the writes before its own. When a write
    /// fails, the list is read back from the file, every change not written
    /// is undone and refused (`key`: whose change this is, forgotten with
    /// it).
    fn durable(&self, n: u64, key: PublicKey) -> Result<(), ApiError> {
        let failed = |e: std::io::Error| refused(AddError::Io(e));
        let mut written = self.written.lock().unwrap_or_else(|p| p.into_inner());
        if n <= written.lost_through {
            return Err(failed(std::io::Error::other("an earlier write failed")));
        }
        if n <= written.through {
            return Ok(());
        }
        let (bytes, at) = {
            let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            let at = self.changes.load(std::sync::atomic::Ordering::SeqCst);
            (kifu_store::devices::to_bytes(&*kept).map_err(failed)?, at)
        };
        match kifu_store::devices::write_bytes(&self.dir, &bytes) {
            Ok(()) => {
                written.through = at;
                Ok(())
            }
            Err(e) => {
                let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
                if let Ok(on_disk) = kifu_store::devices::read(&self.dir) {
                    *kept = on_disk;
                }
                written.lost_through = self.changes.load(std::sync::atomic::Ordering::SeqCst);
                self.from
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&key);
                Err(failed(e))
            }
        }
    }

    /// Every request not yet expired at `now_ms`, oldest first.
    pub fn all_at(&self, now_ms: u64) -> Vec<DeviceRequest> {
        self.kept
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .unexpired(now_ms, REQUEST_TTL_MS)
    }

    /// Every request not yet expired, oldest first.
    pub fn all(&self) -> Vec<DeviceRequest> {
        self.all_at(now_ms())
    }

    /// The request numbered `id`.
    pub fn get(&self, id: &str) -> Option<DeviceRequest> {
        self.all().into_iter().find(|r| r.id == id.trim())
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// A request refused, as answered.
fn refused(e: AddError) -> ApiError {
    match e {
        AddError::Full { .. } => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too_many_requests",
            e.to_string(),
        ),
        AddError::Stale { .. } => {
            ApiError::new(StatusCode::CONFLICT, "stale_request", e.to_string())
        }
        AddError::Io(_) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        }
    }
}

/// A game's roster now: the genesis roster with the keys its `key_replaced`
/// events brought in (`docs/FORMAT.md`, section 5.2), as the ledger keeps
/// it; read again only when the game has grown.
fn roster_now(app: &App, game: &Hash, head_seq: u64) -> Result<Vec<Participant>, ApiError> {
    if let Some((seq, roster)) = app
        .devices
        .rosters
        .lock()
        .ok()
        .and_then(|c| c.get(game).cloned())
    {
        if seq == head_seq {
            return Ok(roster);
        }
    }
    let records = app.store.read(game, 0, Some(head_seq))?;
    let events: Vec<Event> = records.iter().filter_map(|r| r.decode().ok()).collect();
    let roster = match Standing::replay(&events) {
        Some(s) => s.roster().to_vec(),
        None => app.store.genesis(game)?.roster.clone(),
    };
    if let Ok(mut c) = app.devices.rosters.lock() {
        c.insert(*game, (head_seq, roster.clone()));
    }
    Ok(roster)
}

/// Which games name each key (in a genesis roster, or brought in by a
/// `key_replaced`), kept current by reading the store's feed from where it
/// was last read: a device's poll looks its key up instead of reading
/// every game's genesis.
#[derive(Default)]
pub struct KeyIndex {
    /// The feed cursor read up to.
    through: Option<u64>,
    by_key: HashMap<PublicKey, std::collections::BTreeSet<Hash>>,
}

impl KeyIndex {
    /// The games that ever named `key`, after reading what the feed has
    /// added since the last call, below `published` (the cursor the
    /// writer has published: every record below it is committed).
    fn games_naming(
        &mut self,
        store: &kifu_store::Store,
        published: u64,
        key: &PublicKey,
    ) -> Result<Vec<Hash>, ApiError> {
        self.catch_up(store, published)?;
        Ok(self
            .by_key
            .get(key)
            .map(|g| g.iter().copied().collect())
            .unwrap_or_default())
    }

    /// Reads what the feed has added since the last call, below
    /// `published`.
    fn catch_up(&mut self, store: &kifu_store::Store, published: u64) -> Result<(), ApiError> {
        loop {
            let next = self.through.map_or(0, |t| t + 1);
            if next >= published {
                break;
            }
            let room = usize::try_from(published - next)
                .unwrap_or(usize::MAX)
                .min(4096);
            let items = store.feed(self.through, room)?;
            let items: Vec<_> = items.into_iter().filter(|i| i.cursor < published).collect();
            let Some(last) = items.last() else { break };
            self.through = Some(last.cursor);
            for item in &items {
                let Ok(e) = item.record.decode() else {
                    continue;
                };
                match &e.body {
                    kifu_ledger::Body::GameCreated(g) => {
                        for p in &g.roster {
                            self.by_key.entry(p.key).or_default().insert(item.game);
                        }
                    }
                    kifu_ledger::Body::KeyReplaced { new_key, .. } => {
                        self.by_key.entry(*new_key).or_default().insert(item.game);
                    }
                    kifu_ledger::Body::CommitteeFormed {
                        members, reserves, ..
                    } => {
                        for p in members.iter().chain(reserves) {
                            self.by_key.entry(p.key).or_default().insert(item.game);
                        }
                    }
                    kifu_ledger::Body::MemberCoopted { member } => {
                        self.by_key.entry(member.key).or_default().insert(item.game);
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// Brings the key index up to the published cursor: as the server starts,
/// so that the first device or console to ask after a restart does not
/// wait for the whole feed to be read (a 350-board event's ten rounds: a
/// million records, seconds).
pub(crate) fn warm(app: &App) {
    let published = *app.ingest.published().borrow();
    let mut index = app.devices.index.lock().unwrap_or_else(|p| p.into_inner());
    let _ = index.catch_up(&app.store, published);
}

/// A game whose roster names a device's key, as a device learns it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamingGame {
    /// Whether the game is at the place the request asks for (its
    /// tournament, round and board); false where no request is read.
    pub asked: bool,
    /// The game's id.
    #[schemars(pattern(crate::answers::HEX64))]
    pub game: String,
    /// The head to sign against.
    pub head: GameHead,
    /// The key's roles in the game now.
    pub roles: Vec<Role>,
    /// The game's title.
    pub title: String,
    /// The game's place in a tournament, if any.
    pub tournament: Option<TournamentRef>,
}

/// `POST /devices`, `GET /devices/{id}`: a board device's request for a
/// seat, as the server keeps it: not a ledger event, it grants nothing.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeviceAnswer {
    /// When the server first received the request (ms since the Unix
    /// epoch, the server's clock).
    pub at_ms: u64,
    /// The board asked for, from 1.
    pub board: Option<u32>,
    /// The key's fingerprint (docs/FORMAT.md section 8).
    pub fingerprint: String,
    /// The games whose roster names the key, with the device's roles there
    /// and the head to sign against.
    pub games: Vec<NamingGame>,
    /// The request's number (what `kifu new-game --device-request` takes).
    pub id: String,
    /// The device's Ed25519 public key.
    pub key: PublicKey,
    /// The person (or the board) as the roster will name them.
    pub name: String,
    /// The seat asked for.
    #[schemars(with = "kifu_game::seat::SeatRole")]
    pub role: Role,
    /// The round asked for, from 1.
    pub round: Option<u32>,
    /// The seat in words.
    pub seat: String,
    /// The device's clock when it signed the request kept.
    pub signed_at_ms: u64,
    /// `pending`, then `enrolled` once a game at the place asked for names
    /// the key.
    pub status: DeviceStatus,
    /// The tournament asked for, as its genesis names it.
    pub tournament: Option<String>,
}

/// Whether a game answers a device's request yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeviceStatus {
    /// No game at the place asked for names the key.
    Pending,
    /// A game at the place asked for names the key.
    Enrolled,
}

/// `GET /devices[?pending=1]`: every device request kept (`?pending=1`:
/// those no game names yet), each as `POST /devices` answers it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeviceList {
    /// The requests, oldest first.
    pub requests: Vec<DeviceAnswer>,
}

/// The games whose roster now names `key`, with its roles there (a device
/// bound mid-game by a `key_replaced` learns its game too). The candidates
/// come from the key index ([`KeyIndex`]); each one's roster now decides.
pub(crate) fn games_naming(app: &App, key: &PublicKey) -> Result<Vec<NamingGame>, ApiError> {
    let mut out = Vec::new();
    let candidates = app
        .devices
        .index
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .games_naming(&app.store, *app.ingest.published().borrow(), key)?;
    for g in candidates {
        let genesis = app.store.genesis(&g)?;
        let head = app.store.head(&g)?;
        let Some(h) = head else { continue };
        let roles: Vec<Role> = if h.seq == 0 {
            genesis.roles_of(key)
        } else {
            roster_now(app, &g, h.seq)?
                .iter()
                .filter(|p| &p.key == key)
                .map(|p| p.role)
                .collect()
        };
        if roles.is_empty() {
            continue;
        }
        out.push(NamingGame {
            asked: false,
            game: hex::encode(g),
            head: GameHead {
                seq: h.seq,
                hash: hex::encode(h.hash),
            },
            roles,
            title: genesis.title.clone(),
            tournament: genesis.tournament.clone(),
        });
    }
    Ok(out)
}

/// [`games_naming`] as JSON values, for the referee's overview.
pub(crate) fn games_of(app: &App, key: &PublicKey) -> Result<Vec<Value>, ApiError> {
    Ok(games_naming(app, key)?
        .iter()
        .map(|g| serde_json::to_value(g).unwrap_or(Value::Null))
        .map(|mut v| {
            // The overview never read `asked`: it names no request.
            if let Value::Object(o) = &mut v {
                o.remove("asked");
            }
            v
        })
        .collect())
}

/// Whether the game `g` is at the place the request asks for
/// (`kifu_game::seat::SeatRequest::answered_by`).
fn answers(r: &DeviceRequest, g: &NamingGame) -> bool {
    r.seat.answered_by(g.tournament.as_ref())
}

/// True while no game at the place the request asks for names its key: a
/// device that asked again for its next round waits again, though its
/// earlier round's game names it.
pub(crate) fn waiting(r: &DeviceRequest, games: &[NamingGame]) -> bool {
    !games.iter().any(|g| answers(r, g))
}

fn device_answer(r: &DeviceRequest, mut games: Vec<NamingGame>) -> DeviceAnswer {
    let status = if waiting(r, &games) {
        DeviceStatus::Pending
    } else {
        DeviceStatus::Enrolled
    };
    for g in &mut games {
        g.asked = answers(r, g);
    }
    DeviceAnswer {
        at_ms: r.at_ms,
        board: r.seat.board,
        fingerprint: r.seat.fingerprint(),
        games,
        id: r.id.clone(),
        key: r.seat.key,
        name: r.seat.name.clone(),
        role: r.seat.role,
        round: r.seat.round,
        seat: r.seat.seat_text(),
        signed_at_ms: r.signed_at_ms,
        status,
        tournament: r.seat.tournament.clone(),
    }
}

/// A document as the JSON value answered: its objects' keys in alphabetical
/// order at every depth (`serde_json`'s map), the order these answers have
/// always had.
fn keys_sorted<T: Serialize>(doc: &T) -> Value {
    // The documents hold strings, numbers and lists: they always serialise.
    serde_json::to_value(doc).unwrap_or(Value::Null)
}

/// The header carrying a device request's signature
/// (`kifu_game::seat::SignedRequest`).
pub const SIGNATURE_HEADER: &str = "kifu-device-signature";

/// `POST /devices`: `{"key", "role", "name", "tournament"?, "round"?,
/// "board"?, "signed_at_ms", "withdraw"?}`, signed by the device's key in
/// the `Kifu-Device-Signature` header; 201 with the request (200 when the
/// key had asked already, or for a withdrawal).
pub async fn request(
    State(app): State<Arc<App>>,
    client: Option<axum::Extension<crate::conn::Client>>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let json = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "a device request is JSON: send it with Content-Type: application/json",
        )
        .into_response();
    }
    let signature = headers.get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok());
    let signed = match SignedRequest::open(&body, signature) {
        Ok(s) => s,
        Err(e) => {
            let status = match e {
                SeatError::Unsigned | SeatError::Signature => StatusCode::FORBIDDEN,
                _ => StatusCode::BAD_REQUEST,
            };
            return ApiError::new(status, "bad_request_seat", e.to_string()).into_response();
        }
    };
    let client = client.map(|c| c.0 .0);
    let answer = blocking(move || {
        let (r, new) = app.devices.add(signed, now_ms(), client)?;
        let games = games_naming(&app, &r.seat.key)?;
        Ok((new, keys_sorted(&device_answer(&r, games))))
    })
    .await;
    match answer {
        Ok((true, v)) => (StatusCode::CREATED, Json(v)).into_response(),
        Ok((false, v)) => Json(v).into_response(),
        Err(e) => e.into_response(),
    }
}

/// `?pending=1` of `GET /devices`.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    pending: Option<u8>,
}

/// `GET /devices`: every request with its fingerprint and the games that
/// name its key; `?pending=1`: those no game at the place they ask for
/// names yet.
pub async fn list(
    State(app): State<Arc<App>>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let mut requests = Vec::new();
        for r in app.devices.all() {
            let games = games_naming(&app, &r.seat.key)?;
            if q.pending.unwrap_or(0) != 0 && !waiting(&r, &games) {
                continue;
            }
            requests.push(device_answer(&r, games));
        }
        Ok(Json(keys_sorted(&DeviceList { requests })))
    })
    .await
}

/// `GET /devices/{id}`: one request; `status` is `enrolled` once a game's
/// roster names the key, and `games` says which, with the head to sign
/// against.
pub async fn one(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let r = app.devices.get(&id).ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "no_such_request",
                format!("no device request numbered {id:?}; the device asks again"),
            )
        })?;
        let games = games_naming(&app, &r.seat.key)?;
        Ok(Json(keys_sorted(&device_answer(&r, games))))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_ledger::Keypair;

    fn seat(i: u32) -> SeatRequest {
        let mut seed = [7u8; 32];
        seed[..4].copy_from_slice(&i.to_le_bytes());
        SeatRequest {
            key: Keypair::from_seed(seed).public(),
            role: Role::Black,
            name: format!("device {i}"),
            tournament: None,
            round: None,
            board: Some(i + 1),
        }
    }

    fn signed(i: u32, at: u64) -> SignedRequest {
        SignedRequest {
            seat: seat(i),
            signed_at_ms: at,
            withdraw: false,
        }
    }

    #[test]
    fn requests_expire_and_a_list_filled_by_a_flood_empties_itself() {
        let dir = tempfile::tempdir().unwrap();
        let mut d = Devices::open(dir.path()).unwrap();
        d.max = 64;
        let t0 = 1_800_000_000_000;
        for i in 0..d.max as u32 {
            d.add(signed(i, 1), t0, None).unwrap();
        }
        assert_eq!(d.all_at(t0).len(), d.max);
        // Full: refused in words, nothing kept.
        let e = d.add(signed(9_999, 1), t0 + 1, None).unwrap_err();
        assert!(
            e.message.contains("device requests are kept already"),
            "{}",
            e.message
        );
        assert_eq!(d.all_at(t0 + 1).len(), d.max);
        // Twelve hours on, the old ones are no longer listed, and a new
        // request is kept (and the old ones forgotten on disk).
        let later = t0 + REQUEST_TTL_MS;
        assert!(d.all_at(later).is_empty());
        let (r, new) = d.add(signed(10_000, 1), later, None).unwrap();
        assert!(new);
        assert_eq!(d.all_at(later), vec![r.clone()]);
        let again = Devices::open(dir.path()).unwrap();
        assert_eq!(again.all_at(later), vec![r]);
    }

    #[test]
    fn warming_reads_the_whole_feed_into_the_key_index() {
        use kifu_ledger::testkit::{Cast, ChainBuilder};
        let dir = tempfile::tempdir().unwrap();
        let store = std::sync::Arc::new(kifu_store::Store::open(dir.path()).unwrap());
        let cast = Cast::new();
        let game = ChainBuilder::start(&cast.referee, cast.genesis("warm"), 0);
        store.append(game.records[0].clone()).unwrap();
        let app = crate::Server::new(store.clone(), crate::Limits::default())
            .unwrap()
            .app();
        let published = *app.ingest.published().borrow();
        assert_eq!(published, store.next_cursor().unwrap());
        let through = |app: &App| app.devices.index.lock().unwrap().through;
        assert_eq!(through(&app), None);
        warm(&app);
        assert_eq!(through(&app), Some(published - 1));
        let index = app.devices.index.lock().unwrap();
        let black = index.by_key.get(&cast.black.public()).unwrap();
        assert!(black.contains(&game.records[0].hash()), "{black:?}");
    }

    #[test]
    fn devices_asking_at_once_are_all_kept_and_a_failed_write_undoes_what_it_did_not_write() {
        let dir = tempfile::tempdir().unwrap();
        let d = std::sync::Arc::new(Devices::open(dir.path()).unwrap());
        let t0 = 1_800_000_000_000;
        let threads: Vec<_> = (0..32)
            .map(|i| {
                let d = d.clone();
                std::thread::spawn(move || d.add(signed(i, 1), t0, None).unwrap())
            })
            .collect();
        let mut ids: Vec<String> = threads
            .into_iter()
            .map(|t| {
                let (r, new) = t.join().unwrap();
                assert!(new);
                r.id
            })
            .collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 32);
        // Every one of them on disk.
        assert_eq!(Devices::open(dir.path()).unwrap().all_at(t0).len(), 32);
        // The file cannot be written (its temporary name is taken by a
        // directory): refused, and the list is as the file has it.
        let blocker = dir.path().join("device-requests.json.tmp");
        std::fs::create_dir(&blocker).unwrap();
        let e = d.add(signed(100, 1), t0, None).unwrap_err();
        assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", e.message);
        assert_eq!(d.all_at(t0).len(), 32);
        assert!(!d.all_at(t0).iter().any(|r| r.seat == seat(100)));
        // Once it can be written again, the next request is kept.
        std::fs::remove_dir(&blocker).unwrap();
        assert!(d.add(signed(100, 1), t0, None).unwrap().1);
        assert_eq!(Devices::open(dir.path()).unwrap().all_at(t0).len(), 33);
    }

    #[test]
    fn one_address_keeps_at_most_its_share_of_requests() {
        let dir = tempfile::tempdir().unwrap();
        let d = Devices::open(dir.path()).unwrap();
        let t0 = 1_800_000_000_000;
        let flood: std::net::IpAddr = [127, 0, 0, 9].into();
        let board: std::net::IpAddr = [127, 0, 0, 2].into();
        for i in 0..MAX_REQUESTS_PER_CLIENT as u32 {
            d.add(signed(i, 1), t0, Some(flood)).unwrap();
        }
        let e = d.add(signed(5_000, 1), t0, Some(flood)).unwrap_err();
        assert_eq!(e.status, StatusCode::TOO_MANY_REQUESTS, "{}", e.message);
        // A device of the flood's may still change its own seat, and a
        // board's device from another address is kept.
        d.add(signed(0, 2), t0, Some(flood)).unwrap();
        assert!(d.add(signed(6_000, 1), t0, Some(board)).unwrap().1);
    }
}
