-- Deck sessions get an owner: the SHA-256 hash of the token shown once at create. Decks stored
-- before this have none (NULL) and stay open until claimed (POST /v1/poker/decks/{id}/claim).
ALTER TABLE poker_decks ADD COLUMN owner_token_hash BLOB;
CREATE UNIQUE INDEX poker_decks_owner ON poker_decks (owner_token_hash);
