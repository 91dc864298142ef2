//! Reading what happened: the move log, and the reports a game offers (Go's score and SGF).

use chrono::Utc;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{load, load_record};
use crate::games::{Report, ReportQuery, TurnGame};
use crate::service::{ReportKey, ServiceError, ServiceResult, Services};

/// One entry of a game's move log.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogItem {
    /// 1, 2, 3 …: equals the version the change produced.
    pub seq: i64,
    /// The seat that acted; null for the server.
    pub seat: Option<usize>,
    /// The move as the table saw it: the posted body, or `{"action": "undo"}`, `{"action": "join", …}` …
    #[serde(rename = "move")]
    #[schema(value_type = Object)]
    pub action: Value,
    pub at: chrono::DateTime<Utc>,
}

/// Log entries after `after` (a `seq`), oldest first, at most `limit`.
pub async fn log<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    after: i64,
    limit: i64,
) -> ServiceResult<Vec<LogItem>> {
    // Loading first turns an unknown id (or another game's id) into 404 rather than an empty log.
    load_record::<G>(svc, id).await?;
    let entries = svc.store.move_log(id, after, limit).await?;
    Ok(entries
        .into_iter()
        .map(|e| LogItem {
            seq: e.seq,
            seat: e.seat.map(|s| s as usize),
            action: e.action.0,
            at: e.at,
        })
        .collect())
}

/// The report `name` of a game, for the query given.
pub async fn report<G: TurnGame>(
    svc: &Services,
    id: Uuid,
    name: &str,
    query: &ReportQuery,
) -> ServiceResult<Report> {
    if !G::reports().iter().any(|r| r.name == name) {
        return Err(ServiceError::NotFound(format!(
            "{} has no report {name:?}",
            G::NAME
        )));
    }
    let loaded = load::<G>(svc, id).await?;
    let names: Vec<Option<String>> = loaded.record.seats.iter().map(|s| s.name.clone()).collect();
    let thinks = G::reports()
        .iter()
        .any(|r| r.name == name && (r.thinks)(query));
    if !thinks {
        return Ok(loaded.game.report(name, query, &names)?);
    }
    // A search: on the AI pool (never a request thread), and once per version and query.
    let key = ReportKey {
        id,
        version: loaded.record.row.version,
        name: name.to_owned(),
        query: query.clone(),
    };
    if let Some(kept) = svc.reports.get(&key) {
        return Ok(kept);
    }
    let game = loaded.game.clone();
    let (report_name, report_query) = (key.name.clone(), key.query.clone());
    let report = svc
        .ai
        .run(move || game.report(&report_name, &report_query, &names))
        .await??;
    svc.reports.put(key, report.clone());
    Ok(report)
}
