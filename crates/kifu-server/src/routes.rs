//! The route list: a router that remembers every method and path it is
//! given, so that the OpenAPI document ([`crate::openapi`]) is built from
//! the routes the server really answers, and a test can hold the two to
//! each other.

use std::sync::Arc;

use axum::handler::Handler;
use axum::routing::{get, post};
use axum::Router;

use crate::App;

/// One route: an HTTP method (upper case) and a path as the router writes
/// it (`/games/{id}`, `/tile/{*path}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Route {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The path template.
    pub path: &'static str,
}

/// A router being built, with the list of its routes.
#[derive(Default)]
pub struct Routes {
    router: Router<Arc<App>>,
    list: Vec<Route>,
}

impl Routes {
    /// No route yet.
    pub fn new() -> Routes {
        Routes::default()
    }

    /// Answers `GET path` with `handler`.
    pub fn get<H, T>(mut self, path: &'static str, handler: H) -> Routes
    where
        H: Handler<T, Arc<App>>,
        T: 'static,
    {
        self.router = self.router.route(path, get(handler));
        self.list.push(Route {
            method: "GET",
            path,
        });
        self
    }

    /// Answers `POST path` with `handler`.
    pub fn post<H, T>(mut self, path: &'static str, handler: H) -> Routes
    where
        H: Handler<T, Arc<App>>,
        T: 'static,
    {
        self.router = self.router.route(path, post(handler));
        self.list.push(Route {
            method: "POST",
            path,
        });
        self
    }

    /// Adds the routes of `other`.
    pub fn merge(mut self, other: Routes) -> Routes {
        self.router = self.router.merge(other.router);
        self.list.extend(other.list);
        self
    }

    /// The routes, in the order they were given.
    pub fn list(&self) -> &[Route] {
        &self.list
    }

    /// The router and its routes.
    pub fn into_parts(self) -> (Router<Arc<App>>, Vec<Route>) {
        (self.router, self.list)
    }
}
