-- Movie nights (issue 33): what TMDB says a movie is about, the nights the family watched something together, and
-- when the region's certification list was last asked for.
--
-- overview is TMDB's `overview` from the details answer the fetch already makes, written with the other extras
-- (runtime, genres, certification), so it costs no request. NULL until the movie's extras are next read: every
-- movie's extras are made due, so the next check of each movie (and only that) brings its overview.
ALTER TABLE movie ADD COLUMN overview TEXT;
UPDATE movieSchedule SET extrasCheckedAt = NULL;

-- One row per night: the day it was watched (the family's calendar day, YYYY-MM-DD), the movie, and when it was
-- recorded (Unix seconds, REAL). A re-watch is another row: no night is ever replaced.
CREATE TABLE movieNight (
    id INTEGER PRIMARY KEY,
    movieId INTEGER NOT NULL REFERENCES movie(id) ON DELETE CASCADE,
    day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    recordedAt REAL NOT NULL
);
CREATE INDEX movieNight_day ON movieNight(day);
CREATE INDEX movieNight_movieId ON movieNight(movieId);

-- Who watched, and what recording the night changed on their link, so that an undo puts back exactly what was
-- there: linked = 1 when the night made the link (the member did not keep the movie); watchedBefore and
-- watchedOnBefore are the link's watched mark and day before the night. The own rating is never changed by a
-- night, so it needs no copy.
CREATE TABLE movieNightWatcher (
    nightId INTEGER NOT NULL REFERENCES movieNight(id) ON DELETE CASCADE,
    memberId INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
    linked INTEGER NOT NULL CHECK (linked IN (0, 1)),
    watchedBefore INTEGER NOT NULL CHECK (watchedBefore IN (0, 1)),
    watchedOnBefore TEXT,
    PRIMARY KEY (nightId, memberId)
) WITHOUT ROWID;
CREATE INDEX movieNightWatcher_memberId ON movieNightWatcher(memberId);

-- When TMDB's certification list for a region was last asked for (Unix seconds, REAL): the fetch asks when it is
-- missing and again after 30 days.
CREATE TABLE certificationFetch (
    region TEXT PRIMARY KEY NOT NULL,
    fetchedAt REAL NOT NULL
) WITHOUT ROWID;
