//! Poker deck sessions: the same road as games (load → rules → compare-and-swap save), for a
//! deck stored as JSON with a version.
//!
//! Secrecy: a random deck (no seed in the request) is shuffled from a 256-bit key drawn from the
//! OS generator and stored with it; it has no seed, and no answer, log line or error shows the
//! key (the view below is the only thing answers are made of). A seed the client chose is public
//! by its choice: shown, marked `seeded`, and the deck is reproducible from it.
//!
//! Ownership: creating a deck issues an owner token (shown once, stored as its SHA-256 hash, as
//! seat tokens are) that every deck route requires. A deck stored before decks had owners has no
//! hash: it stays open to whoever holds its id until someone claims it ([`claim`]).

use serde::Serialize;
use sqlx::types::Json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::tokens::{self, TokenHash};
use super::{ServiceError, Services};
use crate::games::poker::{Card, Deck, PokerError, DECK_SIZE};
use crate::store::DeckRecord;

/// A deck session as clients see it: never the order of the remaining cards, nor anything that
/// order follows from.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeckView {
    pub id: Uuid,
    /// +1 on every change; also the `ETag`.
    pub version: i64,
    /// Whether the deck was shuffled from a seed the client chose. A seeded deck shows its
    /// `seed` and is reproducible: the same seed and the same calls give the same cards (so
    /// anyone who knows the seed knows the order). A random deck (`false`) has no seed: its
    /// order, re-selects and shuffles come from a secret key that never leaves the server.
    pub seeded: bool,
    /// The seed the client chose; absent for a random deck.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<crate::seed::Seed>,
    #[schema(example = 52)]
    pub remaining: usize,
    /// Cards drawn so far, in order.
    #[schema(value_type = Vec<String>, example = json!(["AS", "JK", "TD", "2C", "KH"]))]
    pub drawn: Vec<Card>,
}

/// A deck with its owner token: the answer to create (and to claim), the only ones that show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct OwnedDeck {
    #[serde(flatten)]
    pub deck: DeckView,
    /// The owner token, shown only here: every deck route needs it as
    /// `Authorization: Bearer <token>`.
    #[schema(example = "8f3c…64 hex characters")]
    pub token: String,
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
        seeded: deck.seed().is_some(),
        seed: deck.seed().map(crate::seed::Seed),
        remaining: deck.remaining(),
        drawn: deck.drawn().to_vec(),
    }
}

/// A new deck: shuffled from the client's seed, or from a fresh secret key without one.
pub async fn create(svc: &Services, seed: Option<u64>) -> Result<OwnedDeck, ServiceError> {
    let deck = seed.map_or_else(Deck::random, Deck::new);
    let (token, hash) = tokens::issue();
    let now = crate::store::now();
    let record = DeckRecord {
        id: Uuid::now_v7(),
        version: 0,
        state: Json(to_json(&deck)?),
        owner_token_hash: Some(hash.0.to_vec()),
        created_at: now,
        updated_at: now,
    };
    svc.store.create_deck(&record).await?;
    Ok(OwnedDeck {
        deck: view(&record, &deck),
        token,
    })
}

pub async fn get(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
) -> Result<DeckView, ServiceError> {
    let (record, deck) = load(svc, id, token).await?;
    Ok(view(&record, &deck))
}

pub async fn change(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
    if_match: Option<i64>,
    action: DeckAction,
) -> Result<DeckChange, ServiceError> {
    let (mut record, mut deck) = load(svc, id, token).await?;
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
    save(svc, &mut record, &deck).await?;
    Ok(DeckChange {
        cards,
        returned,
        deck: view(&record, &deck),
    })
}

/// Takes ownership of a deck stored before decks had owners: it gets an owner token (shown
/// here, once) and, since its seed was shown by that release, a fresh secret key from which the
/// cards not yet drawn are reshuffled; it is a random deck from then on. 409 for a deck that
/// already has an owner.
pub async fn claim(
    svc: &Services,
    id: Uuid,
    if_match: Option<i64>,
) -> Result<OwnedDeck, ServiceError> {
    let (mut record, mut deck) = load_record(svc, id).await?;
    if record.owner_token_hash.is_some() {
        return Err(ServiceError::Conflict(
            "this deck already has an owner; its token was shown when it was created".into(),
        ));
    }
    super::turns::check_if_match("deck", record.version, if_match)?;
    deck.make_secret();
    let (token, hash) = tokens::issue();
    record.owner_token_hash = Some(hash.0.to_vec());
    save(svc, &mut record, &deck).await?;
    Ok(OwnedDeck {
        deck: view(&record, &deck),
        token,
    })
}

async fn save(svc: &Services, record: &mut DeckRecord, deck: &Deck) -> Result<(), ServiceError> {
    let expected = record.version;
    record.state = Json(to_json(deck)?);
    record.updated_at = crate::store::now();
    svc.store.save_deck(record, expected).await?;
    record.version += 1;
    Ok(())
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

/// The deck, for its owner: 401 without a token (or with one no deck has), 403 with another
/// deck's. A deck stored before decks had owners is open until claimed.
async fn load(
    svc: &Services,
    id: Uuid,
    token: Option<&TokenHash>,
) -> Result<(DeckRecord, Deck), ServiceError> {
    let (record, deck) = load_record(svc, id).await?;
    if let Some(owner) = &record.owner_token_hash {
        let Some(token) = token else {
            return Err(ServiceError::Unauthenticated(
                "a deck needs its owner token: `Authorization: Bearer <token>`, the token \
                 returned when the deck was created"
                    .into(),
            ));
        };
        if !token.matches(owner) {
            return Err(match svc.store.deck_token_known(&token.0).await? {
                true => ServiceError::Forbidden("that token is another deck's".into()),
                false => ServiceError::Unauthenticated("no deck has that token".into()),
            });
        }
    }
    Ok((record, deck))
}

async fn load_record(svc: &Services, id: Uuid) -> Result<(DeckRecord, Deck), ServiceError> {
    let record = svc
        .store
        .load_deck(id)
        .await?
        .ok_or_else(|| ServiceError::not_found("deck"))?;
    // The parse error names no value (card codes and key errors are written so), so the log line
    // an internal error makes cannot carry the order or the key.
    let deck = serde_json::from_value(record.state.0.clone())
        .map_err(|e| ServiceError::Internal(format!("stored deck {id} does not parse: {e}")))?;
    Ok((record, deck))
}
