-- Per-movie refresh: each movie keeps its own next check, so a run reads only the movies that are due.
--
-- Its own table rather than columns on `movie`: every check writes its row (when to look next), while `movie`
-- changes only when TMDB's figures do, so a noData run still writes no movie row.
-- Times are Unix seconds (REAL): the due query compares and orders numbers through the index, and 0 means
-- "never checked", due at once, without a NULL case that would keep the index out of `nextCheckAt <= ?`.
CREATE TABLE movieSchedule (
    movieId INTEGER PRIMARY KEY REFERENCES movie(id) ON DELETE CASCADE,
    -- When a check last got an answer from TMDB (NULL: never).
    checkedAt REAL,
    -- The spacing the last check chose: minimumInterval after a change, growing by backoffFactor while unchanged.
    interval REAL,
    nextCheckAt REAL NOT NULL DEFAULT 0
);

-- Picking the due movies reads the index range up to now, not the table.
CREATE INDEX movieSchedule_nextCheckAt ON movieSchedule(nextCheckAt);

-- Every movie has a schedule row, however it was inserted (mustc, or the sqlite3 CLI): a new one is due at once.
CREATE TRIGGER movie_schedule_insert AFTER INSERT ON movie
BEGIN
    INSERT INTO movieSchedule (movieId) VALUES (new.id);
END;

-- Existing movies have never been checked by this schedule: the first run after the upgrade checks them all.
INSERT INTO movieSchedule (movieId) SELECT id FROM movie;
