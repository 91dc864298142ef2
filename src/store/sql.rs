//! The one SQL implementation of [`GameStore`](super::GameStore), instantiated for PostgreSQL and
//! SQLite. Both accept `$N` placeholders (SQLite numbers them by first appearance, so every statement
//! introduces them in order) and `INSERT … ON CONFLICT`, so the statements are shared; only the
//! migrations (column types) differ per database.

/// Implements `GameStore` for a type with a `pool: sqlx::Pool<DB>` field.
macro_rules! impl_sql_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::store::GameStore for $store {
            async fn ping(&self) -> StoreResult<()> {
                sqlx::query("SELECT 1")
                    .execute(&self.pool)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                Ok(())
            }

            async fn create_game(&self, game: &NewGame) -> StoreResult<()> {
                let mut tx = self.pool.begin().await.map_err(StoreError::from_sqlx)?;
                sqlx::query(
                    "INSERT INTO games (id, game, status, version, turn, state, result, created_at, updated_at) \
                     VALUES ($1, $2, $3, 0, $4, $5, NULL, $6, $6)",
                )
                .bind(game.id)
                .bind(&game.game)
                .bind(game.status.as_str())
                .bind(game.turn)
                .bind(Json(&game.state))
                .bind(game.at)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from_sqlx)?;
                for seat in &game.seats {
                    sqlx::query(
                        "INSERT INTO seats (game_id, seat, name, kind, level, token_hash) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(game.id)
                    .bind(seat.seat)
                    .bind(&seat.name)
                    .bind(seat.kind.as_str())
                    .bind(&seat.level)
                    .bind(&seat.token_hash)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                }
                for name in &game.scored_players {
                    sqlx::query(
                        "INSERT INTO player_stats (name, game, score, wins, losses, draws) \
                         VALUES ($1, $2, $3, 0, 0, 0) ON CONFLICT (name, game) DO NOTHING",
                    )
                    .bind(name)
                    .bind(&game.game)
                    .bind(INITIAL_SCORE)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                }
                tx.commit().await.map_err(StoreError::from_sqlx)
            }

            async fn load_game(&self, id: Uuid) -> StoreResult<Option<GameRecord>> {
                let row: Option<GameRow> = sqlx::query_as(
                    "SELECT id, game, status, version, turn, state, result, created_at, updated_at \
                     FROM games WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)?;
                let Some(row) = row else { return Ok(None) };
                let seats: Vec<SeatRow> = sqlx::query_as(
                    "SELECT seat, name, kind, level, token_hash FROM seats WHERE game_id = $1 ORDER BY seat",
                )
                .bind(id)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)?;
                Ok(Some(GameRecord { row, seats }))
            }

            async fn commit(&self, change: &Commit) -> StoreResult<()> {
                let mut tx = self.pool.begin().await.map_err(StoreError::from_sqlx)?;
                // The compare-and-swap: the first write of the transaction, so SQLite takes its write
                // lock at once and PostgreSQL's row lock makes a racing writer see the new version.
                let swapped = sqlx::query(
                    "UPDATE games SET status = $1, turn = $2, state = $3, result = $4, updated_at = $5, \
                     version = version + 1 WHERE id = $6 AND version = $7",
                )
                .bind(change.status.as_str())
                .bind(change.turn)
                .bind(Json(&change.state))
                .bind(change.result.as_ref().map(Json))
                .bind(change.at)
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
                for seat in &change.seats {
                    sqlx::query(
                        "UPDATE seats SET name = $1, kind = $2, level = $3, token_hash = $4 \
                         WHERE game_id = $5 AND seat = $6",
                    )
                    .bind(&seat.name)
                    .bind(seat.kind.as_str())
                    .bind(&seat.level)
                    .bind(&seat.token_hash)
                    .bind(change.game_id)
                    .bind(seat.seat)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                }
                for score in &change.scores {
                    sqlx::query(
                        "INSERT INTO player_stats (name, game, score, wins, losses, draws) \
                         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name, game) DO UPDATE SET \
                         score = player_stats.score + $7, wins = player_stats.wins + $4, \
                         losses = player_stats.losses + $5, draws = player_stats.draws + $6",
                    )
                    .bind(&score.name)
                    .bind(&change.game)
                    .bind(INITIAL_SCORE + score.delta)
                    .bind(i64::from(score.win))
                    .bind(i64::from(score.loss))
                    .bind(i64::from(score.draw))
                    .bind(score.delta)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from_sqlx)?;
                }
                tx.commit().await.map_err(StoreError::from_sqlx)
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
                // Placeholders are numbered as the optional filters are added, in order.
                let mut sql = String::from(
                    "SELECT id, game, status, version, turn, state, result, created_at, updated_at \
                     FROM games WHERE 1 = 1",
                );
                let mut n = 0;
                let mut next = || {
                    n += 1;
                    format!("${n}")
                };
                if filter.game.is_some() {
                    sql += &format!(" AND game = {}", next());
                }
                if filter.status.is_some() {
                    sql += &format!(" AND status = {}", next());
                }
                if filter.player.is_some() {
                    sql += &format!(
                        " AND id IN (SELECT game_id FROM seats WHERE name = {})",
                        next()
                    );
                }
                if filter.before.is_some() {
                    sql += &format!(" AND id < {}", next());
                }
                sql += &format!(" ORDER BY id DESC LIMIT {}", next());
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
                let list = (1..=rows.len()).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ");
                let sql = format!(
                    "SELECT game_id, seat, name, kind, level, token_hash FROM seats \
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

            async fn player_stats(&self, name: &str) -> StoreResult<Vec<PlayerStats>> {
                sqlx::query_as(
                    "SELECT name, game, score, wins, losses, draws FROM player_stats WHERE name = $1 ORDER BY game",
                )
                .bind(name)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn leaderboard(&self, game: &str, limit: i64) -> StoreResult<Vec<PlayerStats>> {
                sqlx::query_as(
                    "SELECT name, game, score, wins, losses, draws FROM player_stats WHERE game = $1 \
                     ORDER BY score DESC, name LIMIT $2",
                )
                .bind(game)
                .bind(limit)
                .fetch_all(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn create_deck(&self, deck: &DeckRecord) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO poker_decks (id, version, state, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(deck.id)
                .bind(deck.version)
                .bind(&deck.state)
                .bind(deck.created_at)
                .bind(deck.updated_at)
                .execute(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)?;
                Ok(())
            }

            async fn load_deck(&self, id: Uuid) -> StoreResult<Option<DeckRecord>> {
                sqlx::query_as(
                    "SELECT id, version, state, created_at, updated_at FROM poker_decks WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)
            }

            async fn save_deck(&self, deck: &DeckRecord, expected_version: i64) -> StoreResult<()> {
                let swapped = sqlx::query(
                    "UPDATE poker_decks SET state = $1, updated_at = $2, version = version + 1 \
                     WHERE id = $3 AND version = $4",
                )
                .bind(&deck.state)
                .bind(deck.updated_at)
                .bind(deck.id)
                .bind(expected_version)
                .execute(&self.pool)
                .await
                .map_err(StoreError::from_sqlx)?;
                if swapped.rows_affected() == 1 {
                    Ok(())
                } else {
                    Err(StoreError::Conflict)
                }
            }
        }
    };
}

pub(crate) use impl_sql_store;
