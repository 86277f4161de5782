-- Suggestions (issue 34): movies TMDB recommends from the ones members loved. Kept apart from `movie`, so that no
-- list, figure, prior, export or rating fetch of the family's library ever sees them; one added to a list becomes
-- an ordinary movie through `add`, and then is no suggestion any more.

-- A seed: a movie a member loved, and when its recommendations were last asked (answered or not).
CREATE TABLE suggestionSeed (
    movieId INTEGER PRIMARY KEY REFERENCES movie(id) ON DELETE CASCADE,
    askedAt REAL NOT NULL,
    answered INTEGER NOT NULL CHECK (answered IN (0, 1))
);

-- A recommended movie: the list fields from the recommendations answer, then the details (runtime, certification,
-- providers) once read for `extrasRegion`; `detailsAt` NULL until then.
CREATE TABLE suggestionMovie (
    remoteId INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    year INTEGER,
    voteAverage REAL,
    voteCount INTEGER,
    popularity REAL,
    posterPath TEXT,
    genres TEXT,
    overview TEXT,
    runtime INTEGER CHECK (runtime IS NULL OR runtime > 0),
    certification TEXT,
    extrasRegion TEXT,
    detailsAt REAL
);

-- Which seed recommends which movie, and at what place in TMDB's answer.
CREATE TABLE suggestionSource (
    seedMovieId INTEGER NOT NULL REFERENCES movie(id) ON DELETE CASCADE,
    remoteId INTEGER NOT NULL REFERENCES suggestionMovie(remoteId) ON DELETE CASCADE,
    place INTEGER NOT NULL,
    PRIMARY KEY (seedMovieId, remoteId)
) WITHOUT ROWID;
CREATE INDEX suggestionSource_remoteId ON suggestionSource(remoteId);

CREATE TABLE suggestionProvider (
    remoteId INTEGER NOT NULL REFERENCES suggestionMovie(remoteId) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('flatrate', 'free', 'ads', 'rent', 'buy')),
    providerId INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (remoteId, kind, providerId)
) WITHOUT ROWID;

-- "Not for us": never suggested again until `mustc suggest --forget`.
CREATE TABLE suggestionHidden (
    remoteId INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    hiddenAt REAL NOT NULL
);

-- One row per request spent on suggestions, for the daily budget (suggest.requestsPerDay); pruned after two days.
CREATE TABLE suggestionSpend (
    at REAL NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('recommendations', 'details'))
);
CREATE INDEX suggestionSpend_at ON suggestionSpend(at);
