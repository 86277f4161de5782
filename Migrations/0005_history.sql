-- Rating history: every change a check finds (the figures before and after), and each movie's first figures as a
-- baseline, which `changes` never counts. A noData run writes none of it.
--
-- Times are Unix seconds (REAL), as in movieSchedule: `changes --since` and pruning compare and order numbers
-- through the index on `at`. runId is the fetch run that found the change (NULL for a lookup by add or resolve),
-- so the newData hook gets that run's changes only; no foreign key, as runs are never deleted.
CREATE TABLE movieHistory (
    id INTEGER PRIMARY KEY,
    movieId INTEGER NOT NULL REFERENCES movie(id) ON DELETE CASCADE,
    at REAL NOT NULL,
    baseline INTEGER NOT NULL DEFAULT 0 CHECK (baseline IN (0, 1)),
    runId INTEGER,
    popularityBefore REAL,
    voteAverageBefore REAL,
    voteCountBefore INTEGER,
    popularity REAL,
    voteAverage REAL,
    voteCount INTEGER
);

-- The window of `changes` and the pruning read a range of this index; the other serves one movie's history and the
-- cascade when a movie is removed.
CREATE INDEX movieHistory_at ON movieHistory(at);
CREATE INDEX movieHistory_movieId ON movieHistory(movieId, at);

-- Movies that already have figures start with them as their baseline, dated when they were written.
INSERT INTO movieHistory (movieId, at, baseline, popularity, voteAverage, voteCount)
SELECT id, round((julianday(coalesce(updatedAt, createdAt)) - 2440587.5) * 86400.0, 3), 1, popularity, voteAverage,
    voteCount
FROM movie
WHERE popularity IS NOT NULL OR voteAverage IS NOT NULL OR voteCount IS NOT NULL;

-- What the `fetch.onNewData` hook did after each newData run, for `status`. program is the hook's first argument
-- only: the rest may hold an address or a token the user would not want shown.
CREATE TABLE hookRun (
    id INTEGER PRIMARY KEY,
    runId INTEGER,
    startedAt TEXT NOT NULL,
    elapsed REAL NOT NULL,
    program TEXT NOT NULL,
    changes INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('succeeded', 'failed', 'timedOut', 'notStarted')),
    exitStatus INTEGER,
    stderrTail TEXT
);
