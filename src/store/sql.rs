//! The one SQL implementation of [`GameStore`](super::GameStore), instantiated for PostgreSQL and
//! SQLite. Both accept `$N` placeholders (SQLite numbers them by first appearance, so every statement
//! introduces them in order) and `INSERT … ON CONFLICT`, so the statements are shared; only the
//! migrations (column types) differ per database.

/// Moves the ratings of a finished rated game inside its transaction `$tx`. Each registered
/// player's row is created if new, then locked (a no-op UPDATE: PostgreSQL's row lock; SQLite
/// already holds the database's write lock) in name order, so two games finishing at once for the
/// same player update it one after the other, never from the same old value.
macro_rules! rate_game {
    ($tx:expr, $game:expr, $rated:expr) => {{
        let tx = $tx;
        let game: &str = $game;
        let rated: &RatedGame = $rated;
        let mut players: Vec<&str> = rated
            .sides
            .iter()
            .filter_map(|side| match &side.who {
                Rated::Player(name) => Some(name.as_str()),
                Rated::Fixed(_) => None,
            })
            .collect();
        players.sort_unstable();
        let mut current = std::collections::HashMap::new();
        for player in players {
            let new = $crate::rating::Rating::NEW;
            sqlx::query(
                "INSERT INTO ratings (player, game, rating, deviation, volatility, games) \
                 VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (player, game) DO NOTHING",
            )
            .bind(player)
            .bind(game)
            .bind(new.rating)
            .bind(new.deviation)
            .bind(new.volatility)
            .execute(&mut **tx)
            .await
            .map_err(StoreError::from_sqlx)?;
            sqlx::query("UPDATE ratings SET games = games WHERE player = $1 AND game = $2")
                .bind(player)
                .bind(game)
                .execute(&mut **tx)
                .await
                .map_err(StoreError::from_sqlx)?;
            let row: RatingRow = sqlx::query_as(
                "SELECT game, rating, deviation, volatility, games FROM ratings \
                 WHERE player = $1 AND game = $2",
            )
            .bind(player)
            .bind(game)
            .fetch_one(&mut **tx)
            .await
            .map_err(StoreError::from_sqlx)?;
            current.insert(player.to_owned(), row.rating());
        }
        let standings: Vec<$crate::rating::Standing> = rated
            .sides
            .iter()
            .map(|side| $crate::rating::Standing {
                before: match &side.who {
                    Rated::Player(name) => current[name.as_str()],
                    Rated::Fixed(rating) => *rating,
                },
                points: side.points,
            })
            .collect();
        let after = $crate::rating::after_game(&standings);
        for (side, new) in rated.sides.iter().zip(after) {
            if let Rated::Player(name) = &side.who {
                sqlx::query(
                    "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = games + 1 \
                     WHERE player = $4 AND game = $5",
                )
                .bind(new.rating)
                .bind(new.deviation)
                .bind(new.volatility)
                .bind(name)
                .bind(game)
                .execute(&mut **tx)
                .await
                .map_err(StoreError::from_sqlx)?;
            }
        }
    }};
}

pub(crate) use rate_game;

/// Recomputes whether game `$id` shows in the public listing, inside its transaction `$tx`: not
/// while every open seat it has is reserved (by an invitation or for a registered player).
macro_rules! relist {
    ($tx:expr, $id:expr) => {{
        let tx = $tx;
        let id: Uuid = $id;
        sqlx::query(
            "UPDATE games SET listed = (NOT EXISTS (SELECT 1 FROM seats WHERE game_id = $1 \
             AND kind = 'open') OR EXISTS (SELECT 1 FROM seats WHERE game_id = $1 \
             AND kind = 'open' AND invite_hash IS NULL AND reserved_for IS NULL)) WHERE id = $1",
        )
        .bind(id)
        .execute(&mut **tx)
        .await
        .map_err(StoreError::from_sqlx)?;
    }};
}

pub(crate) use relist;

/// How many rows one statement of a sweep removes: a sweep that finds many holds SQLite's write
/// lock (or PostgreSQL's row locks) for one batch at a time, not for all of them.
pub(crate) const SWEEP_BATCH: i64 = 500;

/// Runs `$sql` (a `DELETE` taking the cut-off `$1` and a batch size `$2`) on `$store`'s writer
/// until a batch removes fewer than [`SWEEP_BATCH`] rows; answers how many went in all.
macro_rules! remove_in_batches {
    ($store:expr, $sql:expr, $before:expr) => {{
        let mut removed = 0u64;
        loop {
            let done = sqlx::query($sql)
                .bind($before)
                .bind($crate::store::sql::SWEEP_BATCH)
                .execute($store.writer())
                .await
                .map_err(StoreError::from_sqlx)?
                .rows_affected();
            removed += done;
            if done < $crate::store::sql::SWEEP_BATCH as u64 {
                break Ok(removed);
            }
        }
    }};
}

pub(crate) use remove_in_batches;

/// `$1, $2, … $n`: the parameters of an `IN (…)` list of `n` values.
pub(crate) fn placeholders(n: usize) -> String {
    (1..=n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes what streams need of a change inside its transaction `$tx`: the lobby's announcement
/// `$note` (an `Option<&LobbyNote>`), only for a listed game, and the notices other processes
/// listen for. `$notify` and `$lobby_lock` are the database's own statements (PostgreSQL's
/// `pg_notify`, and a lock held to the commit so lobby numbers commit in order; `None` on SQLite).
/// Answers the announcement's sequence number.
macro_rules! announce {
    ($tx:expr, $id:expr, $game:expr, $version:expr, $note:expr, $at:expr, $notify:expr, $lobby_lock:expr) => {{
        let tx = $tx;
        let id: Uuid = $id;
        let notify: Option<&str> = $notify;
        let lobby_lock: Option<&str> = $lobby_lock;
        let mut seq: Option<i64> = None;
        if let Some(note) = $note {
            let note: &LobbyNote = note;
            if let Some(lock) = lobby_lock {
                sqlx::query(lock).execute(&mut **tx).await.map_err(StoreError::from_sqlx)?;
            }
            seq = sqlx::query_scalar(
                "INSERT INTO lobby (game_id, game, kind, status, entry, at) \
                 SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM games WHERE id = $1 AND listed) \
                 RETURNING seq",
            )
            .bind(id)
            .bind($game)
            .bind(note.kind.as_ref())
            .bind(note.status.as_str())
            .bind(Json(&note.entry))
            .bind($at)
            .fetch_optional(&mut **tx)
            .await
            .map_err(StoreError::from_sqlx)?;
        }
        let mut notices = vec![Notice::Game { id, version: $version }];
        notices.extend(seq.map(|seq| Notice::Lobby { seq }));
        $crate::store::sql::send_notices!(tx, notify, notices);
        seq
    }};
}

pub(crate) use announce;

/// Announces a seek opened or closed inside transaction `$tx` (`$notify` and `$lobby_lock` as for
/// [`announce`]), and tells other processes: a closed seek as "version 1" of its id, which its
/// stream watches. Answers the announcement's number.
macro_rules! announce_seek {
    ($tx:expr, $id:expr, $game:expr, $kind:expr, $status:expr, $entry:expr, $at:expr, $notify:expr, $lobby_lock:expr) => {{
        let tx = $tx;
        let id: Uuid = $id;
        let kind: LobbyKind = $kind;
        let notify: Option<&str> = $notify;
        let lobby_lock: Option<&str> = $lobby_lock;
        if let Some(lock) = lobby_lock {
            sqlx::query(lock)
                .execute(&mut **tx)
                .await
                .map_err(StoreError::from_sqlx)?;
        }
        let seq: i64 = sqlx::query_scalar(
            "INSERT INTO lobby (game_id, game, kind, status, entry, at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING seq",
        )
        .bind(id)
        .bind($game)
        .bind(kind.as_ref())
        .bind($status)
        .bind(Json($entry))
        .bind($at)
        .fetch_one(&mut **tx)
        .await
        .map_err(StoreError::from_sqlx)?;
        let mut notices = vec![Notice::Lobby { seq }];
        if kind == LobbyKind::SeekClosed {
            notices.push(Notice::Game { id, version: 1 });
        }
        $crate::store::sql::send_notices!(tx, notify, notices);
        seq
    }};
}

pub(crate) use announce_seek;

/// Sends each of `$notices` through the database's `$notify` statement inside transaction `$tx`
/// (nothing where the database has none: SQLite).
macro_rules! send_notices {
    ($tx:expr, $notify:expr, $notices:expr) => {{
        if let Some(notify) = $notify {
            for notice in $notices {
                sqlx::query(notify)
                    .bind(notice.payload())
                    .execute(&mut **$tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
            }
        }
    }};
}

pub(crate) use send_notices;

/// Implements `GameStore` for a type with a `pool: sqlx::Pool<DB>` field, for reads, and a
/// `writer()` method giving the pool every change runs on (SQLite's own connection; PostgreSQL's
/// `pool`). `notify`, `lobby_lock` and `notices` are what the database offers streams (see
/// `announce` and [`GameStore::notices`](super::GameStore::notices)). `$state_param` makes the parameter a state (JSON text) is bound as: `Json` for a `jsonb` column, or the
/// text itself for a text column (`Json` would write the text out once more).
macro_rules! impl_sql_store {
    (
        $store:ty,
        state_param: $state_param:path,
        notify: $notify:expr,
        lobby_lock: $lobby_lock:expr,
        claim_lock: $claim_lock:expr,
        notices: $notices:path
    ) => {
        /// Inserts a new game, its seats and its players' score rows inside transaction `$tx`.
        macro_rules! insert_game {
            ($tx:expr, $game:expr) => {{
                let tx = $tx;
                let game: &NewGame = $game;
                sqlx::query(
                    "INSERT INTO games (id, game, status, version, turn, state, result, created_at, \
                     updated_at, sweep_at_ms, options, rematch_of) \
                     VALUES ($1, $2, $3, 0, $4, $5, NULL, $6, $6, $7, $8, $9)",
                )
                .bind(game.id)
                .bind(&game.game)
                .bind(game.status.as_str())
                .bind(game.turn)
                .bind($state_param(&*game.state))
                .bind(game.at)
                .bind(game.sweep_at_ms)
                .bind(game.options.as_ref().map(Json))
                .bind(game.rematch_of)
                .execute(&mut **tx)
                .await
                .map_err(StoreError::from_sqlx)?;
                for seat in &game.seats {
                    sqlx::query(
                        "INSERT INTO seats (game_id, seat, name, kind, level, token_hash, player, \
                         invite_hash, reserved_for) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    )
                    .bind(game.id)
                    .bind(seat.seat)
                    .bind(&seat.name)
                    .bind(seat.kind.as_str())
                    .bind(&seat.level)
                    .bind(&seat.token_hash)
                    .bind(&seat.player)
                    .bind(&seat.invite_hash)
                    .bind(&seat.reserved_for)
                    .execute(&mut **tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                }
                $crate::store::sql::relist!(&mut *tx, game.id);
                for holder in &game.scored_players {
                    sqlx::query(
                        "INSERT INTO player_stats (owner, game, name, player, score, wins, losses, draws) \
                         VALUES ($1, $2, $3, $4, $5, 0, 0, 0) ON CONFLICT (owner, game) DO NOTHING",
                    )
                    .bind(holder.key())
                    .bind(&game.game)
                    .bind(&holder.name)
                    .bind(&holder.player)
                    .bind(INITIAL_SCORE)
                    .execute(&mut **tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                }
            }};
        }

        #[async_trait::async_trait]
        impl $crate::store::GameStore for $store {
            fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
                $notices(self)
            }

            async fn ping(&self) -> StoreResult<()> {
                sqlx::query("SELECT 1")
                    .execute(&self.pool)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                Ok(())
            }

            async fn create_game(&self, game: &NewGame) -> StoreResult<Option<i64>> {
                let mut tx = self.writer().begin().await.map_err(StoreError::from_sqlx)?;
                insert_game!(&mut tx, game);
                let seq = $crate::store::sql::announce!(
                    &mut tx, game.id, &game.game, 0, Some(&game.lobby), game.at, $notify, $lobby_lock
                );
                tx.commit().await.map_err(StoreError::from_sqlx)?;
                Ok(seq)
            }

            async fn load_game(
                &self,
                id: Uuid,
                held: Option<HeldVersion>,
            ) -> StoreResult<Option<GameRecord>> {
                // Without a held version both comparisons are NULL, and the state comes.
                let row: Option<GameRow> = sqlx::query_as(
                    "SELECT id, game, status, version, turn, \
                     CASE WHEN version = $1 AND updated_at = $2 THEN NULL ELSE state END AS state, \
                     result, created_at, updated_at, sweep_at_ms FROM games WHERE id = $3",
                )
                .bind(held.map(|h| h.version))
                .bind(held.map(|h| h.updated_at))
                .bind(id)
                .fetch_optional(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)?;
                let Some(row) = row else { return Ok(None) };
                let seats: Vec<SeatRow> = sqlx::query_as(
                    "SELECT seat, name, kind, level, token_hash, player, invite_hash, reserved_for \
                     FROM seats WHERE game_id = $1 ORDER BY seat",
                )
                .bind(id)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)?;
                Ok(Some(GameRecord { row, seats }))
            }


            async fn commit(&self, change: &Commit) -> StoreResult<Option<i64>> {
                let mut tx = self.writer().begin().await.map_err(StoreError::from_sqlx)?;
                // The compare-and-swap: the first write of the transaction, so SQLite takes its write
                // lock at once and PostgreSQL's row lock makes a racing writer see the new version.
                // A status the change keeps is left out: SQLite rewrites an index entry whenever its
                // column is set, even to the same value, one more page in the log of every move.
                let mut update = sqlx::query(if change.status.is_some() {
                    "UPDATE games SET turn = $1, state = $2, result = $3, updated_at = $4, \
                     sweep_at_ms = $5, status = $6, version = version + 1 WHERE id = $7 AND version = $8"
                } else {
                    "UPDATE games SET turn = $1, state = $2, result = $3, updated_at = $4, \
                     sweep_at_ms = $5, version = version + 1 WHERE id = $6 AND version = $7"
                })
                .bind(change.turn)
                .bind($state_param(&*change.state))
                .bind(change.result.as_ref().map(Json))
                .bind(change.at)
                .bind(change.sweep_at_ms);
                if let Some(status) = change.status {
                    update = update.bind(status.as_str());
                }
                let swapped = update
                    .bind(change.game_id)
                    .bind(change.expected_version)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                if swapped.rows_affected() != 1 {
                    return Err(StoreError::Conflict);
                }
                sqlx::query("INSERT INTO moves (game_id, seq, seat, action, at) VALUES ($1, $2, $3, $4, $5)")
                    .bind(change.game_id)
                    .bind(change.expected_version + 1)
                    .bind(change.seat)
                    .bind(Json(&change.action))
                    .bind(change.at)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                let version = change.expected_version + 1;
                sqlx::query(
                    "INSERT INTO changes (game_id, version, state, seats, events, at) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(change.game_id)
                .bind(version)
                .bind($state_param(&*change.state))
                .bind(Json(&change.seats_after))
                .bind(Json(&change.events))
                .bind(change.at)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from_sqlx)?;
                sqlx::query("DELETE FROM changes WHERE game_id = $1 AND version = $2")
                    .bind(change.game_id)
                    .bind(version - $crate::store::REPLAY_KEEP)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                for seat in &change.seats {
                    sqlx::query(
                        "UPDATE seats SET name = $1, kind = $2, level = $3, token_hash = $4, player = $5, \
                         invite_hash = $6, reserved_for = $7 WHERE game_id = $8 AND seat = $9",
                    )
                    .bind(&seat.name)
                    .bind(seat.kind.as_str())
                    .bind(&seat.level)
                    .bind(&seat.token_hash)
                    .bind(&seat.player)
                    .bind(&seat.invite_hash)
                    .bind(&seat.reserved_for)
                    .bind(change.game_id)
                    .bind(seat.seat)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                }
                if !change.seats.is_empty() {
                    $crate::store::sql::relist!(&mut tx, change.game_id);
                }
                for score in &change.scores {
                    sqlx::query(
                        "INSERT INTO player_stats (owner, game, name, player, score, wins, losses, draws) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (owner, game) DO UPDATE SET \
                         score = player_stats.score + $9, wins = player_stats.wins + $6, \
                         losses = player_stats.losses + $7, draws = player_stats.draws + $8",
                    )
                    .bind(score.holder.key())
                    .bind(&change.game)
                    .bind(&score.holder.name)
                    .bind(&score.holder.player)
                    .bind(INITIAL_SCORE + score.delta)
                    .bind(i64::from(score.win))
                    .bind(i64::from(score.loss))
                    .bind(i64::from(score.draw))
                    .bind(score.delta)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                }
                if let Some(rated) = &change.rating {
                    $crate::store::sql::rate_game!(&mut tx, &change.game, rated);
                }
                let seq = $crate::store::sql::announce!(
                    &mut tx, change.game_id, &change.game, version, change.lobby.as_ref(),
                    change.at, $notify, $lobby_lock
                );
                tx.commit().await.map_err(StoreError::from_sqlx)?;
                Ok(seq)
            }

            async fn any_overdue(&self, now_ms: i64) -> StoreResult<bool> {
                let found: Option<i32> =
                    sqlx::query_scalar("SELECT 1 FROM games WHERE sweep_at_ms <= $1 LIMIT 1")
                        .bind(now_ms)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err(StoreError::from_sqlx)?;
                Ok(found.is_some())
            }

            async fn claim_overdue(&self, now_ms: i64, lease_ms: i64, limit: i64) -> StoreResult<Vec<(Uuid, String)>> {
                let sql = format!(
                    "UPDATE games SET sweep_at_ms = $1 WHERE id IN (SELECT id FROM games \
                     WHERE sweep_at_ms <= $2 ORDER BY sweep_at_ms LIMIT $3{}) RETURNING id, game",
                    $claim_lock
                );
                sqlx::query_as(&sql)
                    .bind(now_ms + lease_ms)
                    .bind(now_ms)
                    .bind(limit)
                    .fetch_all(self.writer())
                    .await
                    .map_err(StoreError::from_sqlx)
            }

            async fn game_options(&self, id: Uuid) -> StoreResult<Option<Json<serde_json::Value>>> {
                let options: Option<Option<Json<serde_json::Value>>> =
                    sqlx::query_scalar("SELECT options FROM games WHERE id = $1")
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err(StoreError::from_sqlx)?;
                Ok(options.flatten())
            }

            async fn rematch_of(&self, id: Uuid) -> StoreResult<Option<Uuid>> {
                sqlx::query_scalar("SELECT id FROM games WHERE rematch_of = $1")
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(StoreError::from_sqlx)
            }

            async fn changes_after(&self, id: Uuid, after: i64, limit: i64) -> StoreResult<Vec<ChangeRow>> {
                sqlx::query_as(
                    "SELECT version, state, seats, events, at FROM changes \
                     WHERE game_id = $1 AND version > $2 ORDER BY version LIMIT $3",
                )
                .bind(id)
                .bind(after)
                .bind(limit)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn versions(&self, ids: &[Uuid]) -> StoreResult<Vec<(Uuid, i64)>> {
                let mut found = Vec::with_capacity(ids.len());
                for chunk in ids.chunks(500) {
                    let list = $crate::store::sql::placeholders(chunk.len());
                    let sql = format!(
                        "SELECT id, version FROM games WHERE id IN ({list}) UNION ALL \
                         SELECT id, 1 FROM seeks WHERE status <> 'open' AND id IN ({list})"
                    );
                    let mut query = sqlx::query_as::<_, (Uuid, i64)>(&sql);
                    for id in chunk {
                        query = query.bind(id);
                    }
                    found.extend(query.fetch_all(&self.pool).await.map_err(StoreError::from_sqlx)?);
                }
                Ok(found)
            }

            async fn lobby_after(&self, after: i64, limit: i64) -> StoreResult<Vec<LobbyRow>> {
                sqlx::query_as(
                    "SELECT seq, game_id, game, kind, status, entry FROM lobby \
                     WHERE seq > $1 ORDER BY seq LIMIT $2",
                )
                .bind(after)
                .bind(limit)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn lobby_head(&self) -> StoreResult<i64> {
                let head: Option<i64> = sqlx::query_scalar("SELECT MAX(seq) FROM lobby")
                    .fetch_one(&self.pool)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                Ok(head.unwrap_or(0))
            }

            async fn issue_ticket(
                &self,
                ticket_hash: &[u8],
                grant: TicketGrant,
                expires_at: chrono::DateTime<chrono::Utc>,
            ) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO stream_tickets (ticket_hash, target, seat, seal, expires_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(ticket_hash)
                .bind(grant.target)
                .bind(grant.seat)
                .bind(&grant.seal)
                .bind(expires_at)
                .execute(self.writer())
                .await
                .map_err(StoreError::from_sqlx)?;
                Ok(())
            }

            async fn take_ticket(
                &self,
                ticket_hash: &[u8],
                now: chrono::DateTime<chrono::Utc>,
            ) -> StoreResult<Option<TicketGrant>> {
                type Taken = (Uuid, Option<i32>, Option<Vec<u8>>, chrono::DateTime<chrono::Utc>);
                let taken: Option<Taken> = sqlx::query_as(
                    "DELETE FROM stream_tickets WHERE ticket_hash = $1 \
                     RETURNING target, seat, seal, expires_at",
                )
                .bind(ticket_hash)
                .fetch_optional(self.writer())
                .await
                .map_err(StoreError::from_sqlx)?;
                Ok(taken
                    .filter(|(_, _, _, expires_at)| *expires_at > now)
                    .map(|(target, seat, seal, _)| TicketGrant { target, seat, seal }))
            }

            async fn remove_old_announcements(
                &self,
                before: chrono::DateTime<chrono::Utc>,
            ) -> StoreResult<u64> {
                let tickets: StoreResult<u64> = $crate::store::sql::remove_in_batches!(
                    self,
                    "DELETE FROM stream_tickets WHERE ticket_hash IN (SELECT ticket_hash FROM stream_tickets \
                     WHERE expires_at < $1 LIMIT $2)",
                    before
                );
                let lobby: StoreResult<u64> = $crate::store::sql::remove_in_batches!(
                    self,
                    "DELETE FROM lobby WHERE seq IN (SELECT seq FROM lobby WHERE at < $1 LIMIT $2)",
                    before
                );
                let seeks: StoreResult<u64> = $crate::store::sql::remove_in_batches!(
                    self,
                    "DELETE FROM seeks WHERE id IN (SELECT id FROM seeks \
                     WHERE status <> 'open' AND closed_at < $1 LIMIT $2)",
                    before
                );
                Ok(tickets? + lobby? + seeks?)
            }

            async fn create_seek(&self, seek: &SeekRecord, entry: &serde_json::Value) -> StoreResult<i64> {
                let mut tx = self.writer().begin().await.map_err(StoreError::from_sqlx)?;
                sqlx::query(
                    "INSERT INTO seeks (id, game, options, players, seat, name, player, rating, \
                     rating_min, rating_max, secret_hash, status, created_at, expires_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12, $13)",
                )
                .bind(seek.id)
                .bind(&seek.game)
                .bind(&seek.options)
                .bind(seek.players)
                .bind(seek.seat)
                .bind(&seek.name)
                .bind(&seek.player)
                .bind(seek.rating)
                .bind(seek.rating_min)
                .bind(seek.rating_max)
                .bind(&seek.secret_hash)
                .bind(seek.created_at)
                .bind(seek.expires_at)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from_sqlx)?;
                let seq = $crate::store::sql::announce_seek!(
                    &mut tx, seek.id, &seek.game, LobbyKind::SeekOpened, "open", entry, seek.created_at,
                    $notify, $lobby_lock
                );
                tx.commit().await.map_err(StoreError::from_sqlx)?;
                Ok(seq)
            }

            async fn load_seek(&self, id: Uuid) -> StoreResult<Option<SeekRecord>> {
                sqlx::query_as("SELECT * FROM seeks WHERE id = $1")
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(StoreError::from_sqlx)
            }

            async fn open_seeks(
                &self,
                game: &str,
                now: chrono::DateTime<chrono::Utc>,
            ) -> StoreResult<Vec<SeekRecord>> {
                sqlx::query_as(
                    "SELECT * FROM seeks WHERE status = 'open' AND game = $1 AND expires_at > $2 \
                     ORDER BY created_at, id LIMIT 1000",
                )
                .bind(game)
                .bind(now)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn pair_seeks(&self, pairing: &Pairing) -> StoreResult<i64> {
                let game = &pairing.game;
                let mut seats: Vec<&(SeekClosing, i32)> = pairing.seats.iter().collect();
                // Always in the same order, so two pairings that share seeks never deadlock.
                seats.sort_by_key(|(closing, _)| closing.id);
                let mut tx = self.writer().begin().await.map_err(StoreError::from_sqlx)?;
                for (closing, seat) in &seats {
                    let taken = sqlx::query(
                        "UPDATE seeks SET status = 'paired', game_id = $1, paired_seat = $2, \
                         closed_at = $3 WHERE id = $4 AND status = 'open'",
                    )
                    .bind(game.id)
                    .bind(seat)
                    .bind(game.at)
                    .bind(closing.id)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                    if taken.rows_affected() != 1 {
                        // Paired elsewhere, cancelled or expired meanwhile: nothing is written.
                        return Err(StoreError::Conflict);
                    }
                }
                insert_game!(&mut tx, game);
                let mut head = $crate::store::sql::announce!(
                    &mut tx, game.id, &game.game, 0, Some(&game.lobby), game.at, $notify, $lobby_lock
                )
                .unwrap_or(0);
                for (closing, _) in &seats {
                    head = $crate::store::sql::announce_seek!(
                        &mut tx, closing.id, &game.game, LobbyKind::SeekClosed, closing.status,
                        &closing.entry, game.at, $notify, $lobby_lock
                    );
                }
                tx.commit().await.map_err(StoreError::from_sqlx)?;
                Ok(head)
            }

            async fn close_seek(
                &self,
                closing: &SeekClosing,
                at: chrono::DateTime<chrono::Utc>,
            ) -> StoreResult<Option<i64>> {
                let mut tx = self.writer().begin().await.map_err(StoreError::from_sqlx)?;
                let game: Option<String> = sqlx::query_scalar(
                    "UPDATE seeks SET status = $1, closed_at = $2 WHERE id = $3 AND status = 'open' \
                     RETURNING game",
                )
                .bind(closing.status)
                .bind(at)
                .bind(closing.id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(StoreError::from_sqlx)?;
                let Some(game) = game else { return Ok(None) };
                let seq = $crate::store::sql::announce_seek!(
                    &mut tx, closing.id, &game, LobbyKind::SeekClosed, closing.status,
                    &closing.entry, at, $notify, $lobby_lock
                );
                tx.commit().await.map_err(StoreError::from_sqlx)?;
                Ok(Some(seq))
            }

            async fn touch_seek(
                &self,
                id: Uuid,
                expires_at: chrono::DateTime<chrono::Utc>,
            ) -> StoreResult<bool> {
                let touched = sqlx::query(
                    "UPDATE seeks SET expires_at = $1 WHERE id = $2 AND status = 'open' AND expires_at < $1",
                )
                .bind(expires_at)
                .bind(id)
                .execute(self.writer())
                .await
                .map_err(StoreError::from_sqlx)?;
                if touched.rows_affected() == 1 {
                    return Ok(true);
                }
                let open: Option<i32> =
                    sqlx::query_scalar("SELECT 1 FROM seeks WHERE id = $1 AND status = 'open'")
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err(StoreError::from_sqlx)?;
                Ok(open.is_some())
            }

            async fn expired_seeks(
                &self,
                now: chrono::DateTime<chrono::Utc>,
            ) -> StoreResult<Vec<SeekRecord>> {
                sqlx::query_as(
                    "SELECT * FROM seeks WHERE status = 'open' AND expires_at <= $1 \
                     ORDER BY expires_at LIMIT 500",
                )
                .bind(now)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn move_log(&self, id: Uuid, after: i64, limit: i64) -> StoreResult<Vec<LogEntry>> {
                sqlx::query_as(
                    "SELECT seq, seat, action, at FROM moves WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                )
                    .bind(id)
                    .bind(after)
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(StoreError::from_sqlx)
            }

            async fn list_games(&self, filter: &GameFilter) -> StoreResult<Vec<GameRecord>> {
                let sql = filter.listing_sql();
                let mut query = sqlx::query_as::<_, GameRow>(&sql);
                if let Some(game) = &filter.game {
                    query = query.bind(game);
                }
                if let Some(status) = filter.status {
                    query = query.bind(status.as_str());
                }
                if let Some(player) = &filter.player {
                    query = query.bind(player);
                }
                if let Some(before) = filter.before {
                    query = query.bind(before);
                }
                let rows = query
                    .bind(filter.limit)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                if rows.is_empty() {
                    return Ok(Vec::new());
                }
                // Every listed game's seats in one query.
                let list = $crate::store::sql::placeholders(rows.len());
                let sql = format!(
                    "SELECT game_id, seat, name, kind, level, token_hash, player, invite_hash, \
                     reserved_for FROM seats \
                     WHERE game_id IN ({list}) ORDER BY game_id, seat"
                );
                let mut query = sqlx::query_as::<_, ListedSeat>(&sql);
                for row in &rows {
                    query = query.bind(row.id);
                }
                let seats = query.fetch_all(&self.pool).await.map_err(StoreError::from_sqlx)?;
                let mut by_game: std::collections::HashMap<Uuid, Vec<SeatRow>> =
                    std::collections::HashMap::with_capacity(rows.len());
                for listed in seats {
                    by_game.entry(listed.game_id).or_default().push(listed.seat);
                }
                Ok(rows
                    .into_iter()
                    .map(|row| {
                        let seats = by_game.remove(&row.id).unwrap_or_default();
                        GameRecord { row, seats }
                    })
                    .collect())
            }

            async fn token_known(&self, token_hash: &[u8]) -> StoreResult<bool> {
                let found: Option<(i32,)> = sqlx::query_as("SELECT seat FROM seats WHERE token_hash = $1")
                    .bind(token_hash)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                Ok(found.is_some())
            }

            async fn player_stats(&self, holder: &ScoreHolder) -> StoreResult<Vec<PlayerStats>> {
                sqlx::query_as(
                    "SELECT name, (player IS NOT NULL) AS registered, game, score, wins, losses, draws \
                     FROM player_stats WHERE owner = $1 ORDER BY game",
                )
                .bind(holder.key())
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn leaderboard(&self, query: &BoardQuery) -> StoreResult<Vec<BoardRow>> {
                // Keyset paging: rows after the cursor's (value, name) in the board's order.
                // A score row is a registered player's (`s.player`) or a guest name's; only the
                // former has a rating beside it.
                let (from, value, name, registered) = match query.sort {
                    BoardSort::Score => (
                        "FROM player_stats s LEFT JOIN ratings r ON r.player = s.player AND r.game = s.game \
                         WHERE s.game = $1",
                        "s.score",
                        "s.owner",
                        "(s.player IS NOT NULL)",
                    ),
                    BoardSort::Rating => (
                        "FROM ratings r JOIN players p ON p.canonical = r.player \
                         LEFT JOIN player_stats s ON s.player = r.player AND s.game = r.game \
                         WHERE r.game = $1",
                        "r.rating",
                        "p.name",
                        "TRUE",
                    ),
                };
                let shown = match query.sort {
                    BoardSort::Score => "s.name",
                    BoardSort::Rating => "p.name",
                };
                let mut sql = format!(
                    "SELECT {shown} AS name, {name} AS key, {registered} AS registered, s.score, s.wins, \
                     s.losses, s.draws, r.rating, r.deviation, r.volatility, r.games AS rated_games {from}"
                );
                if query.registered_only {
                    sql += &format!(" AND {registered}");
                }
                if query.after.is_some() {
                    sql += &format!(" AND ({value} < $2 OR ({value} = $2 AND {name} > $3))");
                }
                let limit = if query.after.is_some() { "$4" } else { "$2" };
                sql += &format!(" ORDER BY {value} DESC, {name} LIMIT {limit}");
                let mut q = sqlx::query_as::<_, BoardRow>(&sql).bind(&query.game);
                if let Some(after) = &query.after {
                    q = match query.sort {
                        BoardSort::Score => q.bind(after.value as i64),
                        BoardSort::Rating => q.bind(after.value),
                    };
                    q = q.bind(&after.name);
                }
                q.bind(query.limit)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(StoreError::from_sqlx)
            }

            async fn register_player(&self, player: &PlayerRecord) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO players (canonical, name, key_hash, created_at) VALUES ($1, $2, $3, $4)",
                )
                .bind(&player.canonical)
                .bind(&player.name)
                .bind(&player.key_hash)
                .bind(player.created_at)
                .execute(self.writer())
                .await
                .map_err(StoreError::from_sqlx)?;
                Ok(())
            }

            async fn player_by_key(&self, key_hash: &[u8]) -> StoreResult<Option<PlayerRecord>> {
                sqlx::query_as(
                    "SELECT canonical, name, key_hash, created_at FROM players WHERE key_hash = $1",
                )
                .bind(key_hash)
                .fetch_optional(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn rotate_player_key(&self, old_hash: &[u8], new_hash: &[u8]) -> StoreResult<bool> {
                let rotated = sqlx::query("UPDATE players SET key_hash = $1 WHERE key_hash = $2")
                    .bind(new_hash)
                    .bind(old_hash)
                    .execute(self.writer())
                    .await
                    .map_err(StoreError::from_sqlx)?;
                Ok(rotated.rows_affected() == 1)
            }

            async fn registered_player(&self, canonical: &str) -> StoreResult<Option<PlayerRecord>> {
                sqlx::query_as(
                    "SELECT canonical, name, key_hash, created_at FROM players WHERE canonical = $1",
                )
                .bind(canonical)
                .fetch_optional(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn ratings(&self, canonical: &str) -> StoreResult<Vec<RatingRow>> {
                sqlx::query_as(
                    "SELECT game, rating, deviation, volatility, games FROM ratings WHERE player = $1 ORDER BY game",
                )
                .bind(canonical)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn create_deck(&self, deck: &DeckRecord) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO poker_decks (id, version, state, owner_token_hash, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(deck.id)
                .bind(deck.version)
                .bind(&deck.state)
                .bind(&deck.owner_token_hash)
                .bind(deck.created_at)
                .bind(deck.updated_at)
                .execute(self.writer())
                .await
                .map_err(StoreError::from_sqlx)?;
                Ok(())
            }

            async fn load_deck(&self, id: Uuid) -> StoreResult<Option<DeckRecord>> {
                sqlx::query_as(
                    "SELECT id, version, state, owner_token_hash, created_at, updated_at FROM poker_decks WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn save_deck(&self, deck: &DeckRecord, expected_version: i64) -> StoreResult<()> {
                let swapped = sqlx::query(
                    "UPDATE poker_decks SET state = $1, updated_at = $2, owner_token_hash = $3, \
                     version = version + 1 WHERE id = $4 AND version = $5",
                )
                .bind(&deck.state)
                .bind(deck.updated_at)
                .bind(&deck.owner_token_hash)
                .bind(deck.id)
                .bind(expected_version)
                .execute(self.writer())
                .await
                .map_err(StoreError::from_sqlx)?;
                if swapped.rows_affected() == 1 {
                    Ok(())
                } else {
                    Err(StoreError::Conflict)
                }
            }

            async fn deck_token_known(&self, token_hash: &[u8]) -> StoreResult<bool> {
                let count: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM poker_decks WHERE owner_token_hash = $1",
                )
                .bind(token_hash)
                .fetch_one(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)?;
                Ok(count > 0)
            }

            async fn stale_listed_games(
                &self,
                before: chrono::DateTime<chrono::Utc>,
                limit: i64,
            ) -> StoreResult<Vec<Uuid>> {
                sqlx::query_scalar(
                    "SELECT id FROM games WHERE status = 'waiting' AND updated_at < $1 AND listed LIMIT $2",
                )
                .bind(before)
                .bind(limit)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn remove_waiting_game(
                &self,
                id: Uuid,
                before: chrono::DateTime<chrono::Utc>,
                note: &LobbyNote,
            ) -> StoreResult<Option<i64>> {
                let mut tx = self.writer().begin().await.map_err(StoreError::from_sqlx)?;
                let game: Option<(String, i64)> = sqlx::query_as(
                    "SELECT game, version FROM games WHERE id = $1 AND status = 'waiting' AND updated_at < $2",
                )
                .bind(id)
                .bind(before)
                .fetch_optional(&mut *tx)
                .await
                .map_err(StoreError::from_sqlx)?;
                let Some((game, version)) = game else { return Ok(None) };
                // Announced first: the announcement is written only for a listed game.
                let seq = $crate::store::sql::announce!(
                    &mut tx, id, &game, version, Some(note), $crate::store::now(), $notify, $lobby_lock
                );
                let removed = sqlx::query(
                    "DELETE FROM games WHERE id = $1 AND status = 'waiting' AND updated_at < $2",
                )
                .bind(id)
                .bind(before)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from_sqlx)?;
                if removed.rows_affected() != 1 {
                    return Ok(None);
                }
                tx.commit().await.map_err(StoreError::from_sqlx)?;
                Ok(seq)
            }

            async fn remove_waiting_games(&self, before: chrono::DateTime<chrono::Utc>) -> StoreResult<u64> {
                $crate::store::sql::remove_in_batches!(
                    self,
                    "DELETE FROM games WHERE id IN (SELECT id FROM games \
                     WHERE status = 'waiting' AND updated_at < $1 LIMIT $2)",
                    before
                )
            }

            async fn remove_idle_decks(&self, before: chrono::DateTime<chrono::Utc>) -> StoreResult<u64> {
                $crate::store::sql::remove_in_batches!(
                    self,
                    "DELETE FROM poker_decks WHERE id IN (SELECT id FROM poker_decks \
                     WHERE updated_at < $1 LIMIT $2)",
                    before
                )
            }
        }
    };
}

pub(crate) use impl_sql_store;
