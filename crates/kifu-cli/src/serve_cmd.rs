//! `kifu serve`: serve the data directory over HTTP (see `docs/API.md`).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use kifu_nats::PublisherConfig;
use kifu_server::creation::Creation;
use kifu_server::{marker, Limits, Server};

use crate::serve_args::ServeArgs;
use crate::{CmdResult, Failure};

/// `kifu serve [--listen ADDR]`: prints `listening on http://ADDR` once it
/// accepts connections, and runs until Ctrl-C or SIGTERM; then it stops
/// accepting, commits and syncs what was accepted, answers it, and exits 0.
pub fn serve(data: &Path, a: ServeArgs) -> CmdResult {
    // A replica takes no writes: who may create games does not apply.
    let creation = match a.replica_of {
        Some(_) => Creation::Open,
        None => creation(&a)?,
    };
    // The NATS stream is checked before the store is opened or anything
    // listens: a stream it cannot use refuses the start, nothing written.
    let nats = nats_config(&a);
    if let Some(config) = &nats {
        crate::serve_nats::check(config)?;
    }
    // Real-time appends are asked for before anything is opened: a system
    // that refuses them refuses the start.
    if let Some(p) = a.realtime_priority {
        kifu_server::sched::check(p)
            .map_err(|e| Failure::new(format!("--realtime-priority: {e}")))?;
    }
    let store = Arc::new(crate::store_open::open(data)?);
    let limits = Limits {
        max_body_bytes: a.max_body_mib.saturating_mul(1 << 20),
        max_records_per_request: a.max_records.max(1),
        max_records_per_read: a.max_records.max(1),
        queue_records: a.queue.max(a.max_records).max(1),
        request_timeout: Duration::from_secs(a.timeout_s.max(1)),
        body_timeout: Duration::from_secs(a.body_timeout_s.max(1)),
        max_streams: a.max_streams.max(1),
        max_streams_per_client: a.max_streams_per_client.max(1),
        max_bodies: a.max_bodies.max(1),
        max_bodies_per_client: a.max_bodies_per_client.max(1),
        max_follower_lag: a.max_follower_lag,
        max_device_requests_per_client: a.max_device_requests_per_client.max(1),
        ..Limits::default()
    };
    let conn = kifu_server::ConnLimits {
        max_connections: a.max_connections.max(1),
        max_connections_per_client: a.max_connections_per_client.max(1),
        header_read_timeout: Duration::from_secs(a.header_timeout_s.max(1)),
        ..kifu_server::ConnLimits::default()
    };
    // Each connection is an open file: the default limit of 1024 would
    // stop accepting long before the connection bound.
    kifu_server::conn::raise_open_files_limit();
    let checkpoints = match &a.checkpoint_key {
        Some(key) => Some(kifu_server::tlog_api::CheckpointConfig {
            seed: crate::tlog_cmd::read_seed(key)?,
            origin: a.origin.clone(),
            every: (a.checkpoint_every > 0).then(|| Duration::from_secs(a.checkpoint_every)),
            min_gap: Duration::from_secs(1),
        }),
        None => None,
    };
    let tls = tls_setup(data, &a)?;
    if tls.is_none() && !a.listen.ip().is_loopback() {
        eprintln!(
            "kifu serve: plain HTTP on {}: browsers on other machines give pages no Web Crypto without HTTPS; see --tls-self-signed",
            a.listen
        );
    }
    let rt = kifu_server::sched::runtime(a.realtime_priority).build()?;
    let result = rt.block_on(async {
        let (listener, addr) = kifu_server::bind(a.listen).await?;
        let replica = match &a.replica_of {
            Some(url) => Some(crate::serve_replica::prepare(
                url,
                &a.nats_stream,
                a.venue.clone(),
                a.replica_durable.clone(),
                &store,
            )?),
            None => None,
        };
        let mut server = match &replica {
            Some(r) => Server::replica(store.clone(), limits, checkpoints, r.replica.clone())?,
            None => Server::with_checkpoints(store.clone(), limits, checkpoints)?,
        }
        .with_conn_limits(conn)
        .with_creation(creation);
        let scheme = if tls.is_some() { "https" } else { "http" };
        if let Some(t) = tls {
            server = server.with_tls(t);
        }
        let url = format!("{scheme}://{addr}");
        marker::write(data, &url)?;
        // Stoppable by a signal from the moment it says it listens.
        let stop = kifu_server::stop_signal();
        say!("listening on {url}");
        // The live feed on NATS JetStream: the publisher follows the store's
        // durable cursor, so it publishes only what was acknowledged, and
        // resumes from the cursor NATS last acknowledged (kept in the store).
        let publisher = nats.map(|config| crate::serve_nats::start(config, store.clone(), &server));
        // A replica's store is filled by its mirror, from the stream.
        let mirror = replica.map(|r| r.start(store.clone(), &server));
        let r = server.run(listener, stop).await;
        if let Some(p) = publisher {
            p.stop().await;
        }
        if let Some(m) = mirror {
            m.stop().await;
        }
        marker::remove(data);
        r
    });
    result.map_err(|e| Failure::new(format!("kifu serve: {e}")))?;
    eprintln!("kifu serve: stopped; everything acknowledged is on disk");
    Ok(())
}

/// Who may create games on this server (`docs/API.md`, "Who may create
/// games"): the keys of `--creator` and the officials (director, referees)
/// of each `--creators-from` tournament chain; anyone with
/// `--open-creation`, or on a loopback address when no list is given. On
/// any other address a server without a list does not start.
fn creation(a: &ServeArgs) -> Result<Creation, Failure> {
    if a.open_creation {
        return Ok(Creation::Open);
    }
    let mut keys = crate::trust::read_trusted(&a.creators)?;
    let mut sources = Vec::new();
    if !a.creators.is_empty() {
        sources.push(format!(
            "{} named by --creator",
            crate::render::count(keys.len(), "key")
        ));
    }
    for file in &a.creators_from {
        let bytes =
            std::fs::read(file).map_err(|e| Failure::new(format!("{}: {e}", file.display())))?;
        let records = kifu_ledger::archive::read(&bytes)
            .map_err(|e| Failure::new(format!("{}: {e}", file.display())))?;
        let chain = kifu_tournament::Chain::open(records).map_err(|e| {
            Failure::new(format!(
                "{}: not a tournament chain that verifies: {e}",
                file.display()
            ))
        })?;
        let officials = chain.game_creators();
        sources.push(format!(
            "the {} of the tournament in {}",
            crate::render::count(officials.len(), "official"),
            file.display()
        ));
        keys.extend(officials);
    }
    let listed = (!sources.is_empty()).then_some((keys, sources));
    Creation::for_address(a.listen, listed).map_err(Failure::new)
}

/// The server's TLS, as the flags ask: the venue's certificate, or one the
/// server makes for its addresses and keeps in `DATA/tls/`; the
/// fingerprint is printed for a person to compare on a tablet.
fn tls_setup(data: &Path, a: &ServeArgs) -> Result<Option<kifu_server::tls::Tls>, Failure> {
    use kifu_server::tls::Tls;
    let fail = |e: kifu_server::tls::TlsError| Failure::new(format!("kifu serve: {e}"));
    let tls = if let (Some(cert), Some(key)) = (&a.tls_cert, &a.tls_key) {
        Tls::from_pem_files(cert, key).map_err(fail)?
    } else if a.tls_self_signed {
        let ip = a.listen.ip();
        let mut names: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
        if !ip.is_unspecified() {
            names.push(ip.to_string());
        } else if a.tls_name.is_empty() {
            eprintln!(
                "kifu serve: listening on every address: name the one tablets use with --tls-name ADDRESS, or the certificate will not match it"
            );
        }
        names.extend(a.tls_name.iter().cloned());
        let (tls, made) = Tls::self_signed(&data.join("tls"), &names).map_err(fail)?;
        say!(
            "{} certificate {} for {}",
            if made {
                "made a self-signed"
            } else {
                "using the self-signed"
            },
            tls.cert_path.display(),
            names.join(", ")
        );
        tls
    } else {
        return Ok(None);
    };
    say!("certificate SHA-256 fingerprint {}", tls.fingerprint);
    Ok(Some(tls))
}

/// The publisher's configuration from `kifu serve`'s flags, if `--nats`.
fn nats_config(a: &ServeArgs) -> Option<PublisherConfig> {
    a.nats.as_ref().map(|nats| {
        let mut config = PublisherConfig::new(nats.clone());
        config.stream = a.nats_stream.clone();
        config.replicas = a.nats_replicas.max(1);
        config
    })
}
