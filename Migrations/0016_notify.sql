-- Notifications (issue 36). Each message waits here, one row per destination ("ntfy", "gotify", "webhook"), from
-- before it is sent until that server accepts it (2xx); a failed one waits for nextAttemptAt, and one older than
-- 7 days is dropped. Times are seconds since 1970, as availabilityChange.at.
CREATE TABLE notifyOutbox (
    id INTEGER PRIMARY KEY,
    destination TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    click TEXT,
    items INTEGER NOT NULL DEFAULT 0,
    createdAt DOUBLE NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    nextAttemptAt DOUBLE NOT NULL
);
CREATE INDEX notifyOutbox_due ON notifyOutbox (destination, nextAttemptAt);

-- What each destination answered last, for `status`: lastFailure is the server's error text, sanitised and without
-- any token; configProblem is 1 when it was a 401, 403 or another refusal that retrying cannot cure.
CREATE TABLE notifyDestination (
    name TEXT PRIMARY KEY NOT NULL,
    lastSuccessAt DOUBLE,
    lastFailureAt DOUBLE,
    lastFailure TEXT,
    configProblem INTEGER NOT NULL DEFAULT 0,
    dropped INTEGER NOT NULL DEFAULT 0,
    lastDroppedAt DOUBLE
) WITHOUT ROWID;
