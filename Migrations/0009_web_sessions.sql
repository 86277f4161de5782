-- The page's sign-in (issue 19). The family password is kept only as its bcrypt hash, in `setting` under
-- 'web.passwordHash'; no row means no password, and the page stays read-only.
-- A session is kept only as the SHA-256 of its cookie's token: a copy of the file opens no session.
-- It lives 30 days from its last use (SessionPolicy), and survives restarts of `mustc serve`.
CREATE TABLE webSession (
    tokenHash TEXT PRIMARY KEY NOT NULL,
    createdAt DATETIME NOT NULL,
    lastUsedAt DATETIME NOT NULL
) WITHOUT ROWID;
