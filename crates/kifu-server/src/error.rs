//! Errors as HTTP answers: a status and a JSON object naming the problem.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use kifu_ledger::LedgerError;
use kifu_store::StoreError;

use crate::answers::{ErrorAnswer, ErrorBody};

use crate::ingest::IngestError;

/// An error answer: `{"error": {"code": ..., "message": ...}}`.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable, machine-readable name of the problem.
    pub code: &'static str,
    /// What was wrong, for people.
    pub message: String,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// 400 with `code`.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// The error as the JSON object inside `{"error": ...}`.
    pub fn body(&self) -> serde_json::Value {
        serde_json::to_value(self.answer_body()).unwrap_or_default()
    }

    /// The error as the typed object inside `{"error": ...}`.
    pub fn answer_body(&self) -> ErrorBody {
        ErrorBody {
            code: self.code.to_string(),
            message: self.message.clone(),
            status: self.status.as_u16(),
            venue: None,
        }
    }
}

impl From<&StoreError> for ApiError {
    fn from(e: &StoreError) -> ApiError {
        let (status, code) = match e {
            StoreError::Ledger(l) => match l {
                LedgerError::BadSignature => (StatusCode::UNPROCESSABLE_ENTITY, "bad_signature"),
                LedgerError::BadPublicKey(_) | LedgerError::SignerMismatch => {
                    (StatusCode::UNPROCESSABLE_ENTITY, "bad_signer")
                }
                LedgerError::Refused(_) => (StatusCode::FORBIDDEN, "role_refused"),
                LedgerError::Conflict { .. } => (StatusCode::CONFLICT, "conflict"),
                LedgerError::Link(_) => (StatusCode::BAD_REQUEST, "bad_link"),
                LedgerError::UnknownKind(_) => (StatusCode::UNPROCESSABLE_ENTITY, "unknown_kind"),
                LedgerError::UnsupportedVersion(_) => {
                    (StatusCode::UNPROCESSABLE_ENTITY, "unsupported_version")
                }
                LedgerError::KeyFile(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
                _ => (StatusCode::BAD_REQUEST, "malformed"),
            },
            StoreError::NoSuchGame(_) => (StatusCode::NOT_FOUND, "unknown_game"),
            StoreError::Ambiguous(..) => (StatusCode::BAD_REQUEST, "ambiguous_game"),
            StoreError::Fork { .. } => (StatusCode::CONFLICT, "fork"),
            StoreError::Unknown { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "unknown_kind"),
            _ => (StatusCode::INTERNAL_SERVER_ERROR, "storage"),
        };
        ApiError::new(status, code, e.to_string())
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::from(&e)
    }
}

impl From<IngestError> for ApiError {
    fn from(e: IngestError) -> ApiError {
        match e {
            IngestError::Busy(_) => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", e.to_string())
            }
            IngestError::TooLarge(..) => ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_many_records",
                e.to_string(),
            ),
            IngestError::ShuttingDown | IngestError::WriterGone => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "shutting_down",
                e.to_string(),
            ),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let answer = ErrorAnswer {
            error: self.answer_body(),
        };
        let mut r = (self.status, axum::Json(answer)).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_is_503_with_retry_after_and_a_named_code() {
        let r = ApiError::from(IngestError::Busy(65_536)).into_response();
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(r.headers()[header::RETRY_AFTER], "1");
        let e = ApiError::from(IngestError::Busy(3));
        assert_eq!(e.code, "busy");
        assert!(e.message.contains("full"));
    }

    #[test]
    fn refusals_map_to_their_status() {
        let cases = [
            (
                StoreError::Ledger(LedgerError::BadSignature),
                422,
                "bad_signature",
            ),
            (
                StoreError::Ledger(LedgerError::Conflict {
                    expected_seq: 2,
                    got_seq: 1,
                }),
                409,
                "conflict",
            ),
            (StoreError::NoSuchGame("ab".into()), 404, "unknown_game"),
            (
                StoreError::Ledger(LedgerError::Malformed("x".into())),
                400,
                "malformed",
            ),
        ];
        for (e, status, code) in cases {
            let a = ApiError::from(&e);
            assert_eq!((a.status.as_u16(), a.code), (status, code));
        }
    }
}
