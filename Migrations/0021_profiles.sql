-- Profiles on the page: every member is one. A PIN is kept only as its bcrypt hash (NULL: no PIN), as the family
-- password is. A kid profile (kid = 1) sees only movies within its own age limit and edits only its own list.
-- Once any member has a PIN or is a kid, the page asks "Who's watching?" before it shows anything.
ALTER TABLE member ADD COLUMN pinHash TEXT;
ALTER TABLE member ADD COLUMN kid INTEGER NOT NULL DEFAULT 0 CHECK (kid IN (0, 1));

-- A session is now a member's, the family password's, or both (the password, watching as a member). Every session
-- started before this migration was the password's: parent = 1, no member. A member's session ends with the member,
-- and when their PIN or kind changes (Store.setPin, Store.setKid).
ALTER TABLE webSession ADD COLUMN memberId INTEGER REFERENCES member(id) ON DELETE CASCADE;
ALTER TABLE webSession ADD COLUMN parent INTEGER NOT NULL DEFAULT 1 CHECK (parent IN (0, 1));
