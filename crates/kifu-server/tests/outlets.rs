//! A duty beside serving (an outlet: the NATS publisher) reports to
//! `/healthz` and `/metrics`: 200 `"ok"` while it works, 503 `"degraded"`
//! with its own words while it fails; `/livez` answers 200 throughout.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use kifu_server::{Limits, Outlet, OutletHealth, Server};
use kifu_store::Store;
use serde_json::{json, Value};

struct Switch(AtomicBool);

impl Outlet for Switch {
    fn name(&self) -> &'static str {
        "nats"
    }
    fn health(&self) -> OutletHealth {
        let ok = self.0.load(Ordering::Relaxed);
        OutletHealth {
            ok,
            detail: json!({"publishing": ok, "backlog": if ok { 0 } else { 7 }}),
        }
    }
    fn metrics(&self) -> String {
        format!(
            "# TYPE kifu_nats_publishing gauge\nkifu_nats_publishing {}\n",
            u8::from(self.0.load(Ordering::Relaxed))
        )
    }
}

fn get(url: &str) -> (u16, String) {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(10))
        .build();
    match agent.get(url).call() {
        Ok(r) => (r.status(), r.into_string().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap()),
        Err(e) => panic!("{url}: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outlet_failing_makes_healthz_degraded_and_livez_stays_alive() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(dir.path()).unwrap());
    let server = Server::new(store, Limits::default()).unwrap();
    let switch = Arc::new(Switch(AtomicBool::new(true)));
    server.add_outlet(switch.clone());
    let (listener, addr) = kifu_server::bind("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(listener, async {
        let _ = stopped.await;
    }));
    let base = format!("http://{addr}");
    let ask = |path: &'static str| {
        let url = format!("{base}{path}");
        tokio::task::spawn_blocking(move || get(&url))
    };

    let (code, body) = ask("/healthz").await.unwrap();
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(code, 200);
    assert_eq!(v["status"], "ok");
    assert_eq!(v["nats"]["publishing"], true);
    assert_eq!(v["next_cursor"], 0);

    switch.0.store(false, Ordering::Relaxed);
    let (code, body) = ask("/healthz").await.unwrap();
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(code, 503);
    assert_eq!(v["status"], "degraded");
    assert_eq!(v["nats"]["backlog"], 7);
    let (code, body) = ask("/livez").await.unwrap();
    assert_eq!((code, body.as_str()), (200, r#"{"status":"alive"}"#));
    let (_, metrics) = ask("/metrics").await.unwrap();
    assert!(metrics.contains("\nkifu_nats_publishing 0\n"), "{metrics}");
    assert!(metrics.contains("kifu_appends_total"), "{metrics}");

    switch.0.store(true, Ordering::Relaxed);
    assert_eq!(ask("/healthz").await.unwrap().0, 200);
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}
