//! Duties the server has beside serving: something that carries the
//! store's records on (the publisher to NATS JetStream, kifu-nats) reports
//! its health to `/healthz` and its counters to `/metrics`, without the
//! server knowing what it is.

use serde_json::Value;

/// The health of an outlet, for `/healthz`.
#[derive(Debug, Clone, PartialEq)]
pub struct OutletHealth {
    /// False while it fails at its duty (the server then answers
    /// `/healthz` with 503 and `"status": "degraded"`).
    pub ok: bool,
    /// What it says about itself, under its name in `/healthz`.
    pub detail: Value,
}

/// Something beside the server that carries its records on.
pub trait Outlet: Send + Sync {
    /// Its key in `/healthz`: `"nats"` or `"mirror"`, the duties the API's
    /// document names (`answers::Health`); another's state is only in
    /// `/metrics`.
    fn name(&self) -> &'static str;
    /// Its health now.
    fn health(&self) -> OutletHealth;
    /// Its lines of the Prometheus text of `/metrics` (HELP and TYPE
    /// included, each line ended by a newline).
    fn metrics(&self) -> String;
}
