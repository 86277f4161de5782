-- Background fetch: per-movie fetch state, the scheduler's persisted state, and a row per run.

-- Why the last attempt failed (NULL when it did not), and when TMDB last said it has no such movie.
ALTER TABLE movie ADD COLUMN fetchError TEXT;
ALTER TABLE movie ADD COLUMN notFoundAt TEXT;

-- A single row: when the next fetch is due and how the interval got there.
CREATE TABLE schedule (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    interval REAL NOT NULL,
    nextFetchAt TEXT NOT NULL,
    lastResult TEXT NOT NULL CHECK (lastResult IN ('newData', 'noData', 'failed')),
    consecutiveNoData INTEGER NOT NULL DEFAULT 0,
    consecutiveFailures INTEGER NOT NULL DEFAULT 0
);

-- Every fetch. endedAt and result stay NULL if the process died mid-run.
CREATE TABLE fetchRun (
    id INTEGER PRIMARY KEY,
    startedAt TEXT NOT NULL,
    endedAt TEXT,
    result TEXT CHECK (result IN ('newData', 'noData', 'failed', 'interrupted')),
    movies INTEGER NOT NULL DEFAULT 0,
    changed INTEGER NOT NULL DEFAULT 0,
    unchanged INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    skipped INTEGER NOT NULL DEFAULT 0,
    requests INTEGER NOT NULL DEFAULT 0,
    interval REAL,
    nextFetchAt TEXT,
    failure TEXT
);
