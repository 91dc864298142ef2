-- Open seats may be reserved: by an invitation (the SHA-256 hash of a code shown once at create)
-- or for a registered player (canonical name). A waiting game whose open seats are all reserved
-- is left out of the public listing (`listed` false; the store recomputes it when seats change).
ALTER TABLE seats ADD COLUMN invite_hash BLOB;
ALTER TABLE seats ADD COLUMN reserved_for TEXT;
ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 1;
