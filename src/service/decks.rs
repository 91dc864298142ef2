//! Poker deck sessions: the same road as games (load → rules → compare-and-swap save), for a
//! deck stored as JSON with a version.

use serde::Serialize;
use sqlx::types::Json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{ServiceError, Services};
use crate::games::poker::{Card, Deck, PokerError, DECK_SIZE};
use crate::store::DeckRecord;

/// A deck session as clients see it: never the order of the remaining cards.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeckView {
    pub id: Uuid,
    /// +1 on every change; also the `ETag`.
    pub version: i64,
    /// The seed of the first shuffle: the same seed and the same calls give the same cards.
    pub seed: crate::seed::Seed,
    #[schema(example = 52)]
    pub remaining: usize,
    /// Cards drawn so far, in order.
    #[schema(value_type = Vec<String>, example = json!(["AS", "JK", "TD", "2C", "KH"]))]
    pub drawn: Vec<Card>,
}

/// A change to a deck: the cards it drew and the cards it put back.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeckChange {
    #[schema(value_type = Vec<String>)]
    pub cards: Vec<Card>,
    #[schema(value_type = Vec<String>)]
    pub returned: Vec<Card>,
    pub deck: DeckView,
}

/// What to do to a deck.
#[derive(Clone, Copy, Debug)]
pub enum DeckAction {
    /// Made by [`DeckAction::draw`], so the count is always 1..=57.
    Draw(usize),
    Undo,
    Reselect,
    Shuffle,
}

impl DeckAction {
    /// A draw of 1 to 57 cards, as a client asked for it (whether that many remain is the deck's
    /// to say).
    pub fn draw(count: i64) -> Result<Self, ServiceError> {
        usize::try_from(count)
            .ok()
            .filter(|c| (1..=DECK_SIZE).contains(c))
            .map(DeckAction::Draw)
            .ok_or_else(|| {
                ServiceError::Invalid(format!("count must be 1 to {DECK_SIZE}, not {count}"))
            })
    }
}

fn view(record: &DeckRecord, deck: &Deck) -> DeckView {
    DeckView {
        id: record.id,
        version: record.version,
        seed: crate::seed::Seed(deck.seed()),
        remaining: deck.remaining(),
        drawn: deck.drawn().to_vec(),
    }
}

pub async fn create(svc: &Services, seed: Option<u64>) -> Result<DeckView, ServiceError> {
    let deck = Deck::new(seed.unwrap_or_else(rand::random));
    let now = crate::store::now();
    let record = DeckRecord {
        id: Uuid::now_v7(),
        version: 0,
        state: Json(to_json(&deck)?),
        created_at: now,
        updated_at: now,
    };
    svc.store.create_deck(&record).await?;
    Ok(view(&record, &deck))
}

pub async fn get(svc: &Services, id: Uuid) -> Result<DeckView, ServiceError> {
    let (record, deck) = load(svc, id).await?;
    Ok(view(&record, &deck))
}

pub async fn change(
    svc: &Services,
    id: Uuid,
    if_match: Option<i64>,
    action: DeckAction,
) -> Result<DeckChange, ServiceError> {
    let (mut record, mut deck) = load(svc, id).await?;
    super::turns::check_if_match("deck", record.version, if_match)?;
    let last = deck.drawn().last().copied();
    let (cards, returned) = match action {
        DeckAction::Draw(count) => (deck.draw(count).map_err(refused)?, Vec::new()),
        DeckAction::Undo => (Vec::new(), vec![deck.undo().map_err(refused)?]),
        DeckAction::Reselect => {
            let card = deck.reselect().map_err(refused)?;
            (vec![card], last.into_iter().collect())
        }
        DeckAction::Shuffle => {
            let back = deck.drawn().to_vec();
            deck.shuffle();
            (Vec::new(), back)
        }
    };
    let expected = record.version;
    record.state = Json(to_json(&deck)?);
    record.updated_at = crate::store::now();
    svc.store.save_deck(&record, expected).await?;
    record.version += 1;
    Ok(DeckChange {
        cards,
        returned,
        deck: view(&record, &deck),
    })
}

/// A deck that cannot do what was asked: nothing drawn to take back is the deck's state (409
/// `conflict`, like a game's "nothing to undo"); not enough cards left is 422.
fn refused(err: PokerError) -> ServiceError {
    match err {
        PokerError::NothingDrawn => ServiceError::Conflict(err.to_string()),
        other => ServiceError::IllegalMove(other.to_string()),
    }
}

fn to_json(deck: &Deck) -> Result<serde_json::Value, ServiceError> {
    serde_json::to_value(deck).map_err(|e| ServiceError::Internal(format!("deck to JSON: {e}")))
}

async fn load(svc: &Services, id: Uuid) -> Result<(DeckRecord, Deck), ServiceError> {
    let record = svc
        .store
        .load_deck(id)
        .await?
        .ok_or_else(|| ServiceError::not_found("deck"))?;
    let deck = serde_json::from_value(record.state.0.clone())
        .map_err(|e| ServiceError::Internal(format!("stored deck {id} does not parse: {e}")))?;
    Ok((record, deck))
}
