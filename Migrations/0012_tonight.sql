-- Tonight's facts about each movie (issue 28): its runtime, genres and certification, and where it can be watched
-- in the family's region. They ride on the details request the fetch already makes (append_to_response), asked for
-- at a movie's first check and then only when they are older than family.availabilityEvery.
--
-- genres is TMDB's genre names, one per line, in TMDB's order. certification is trimmed; NULL when the region gives
-- none (or the block was missing or malformed at every check so far).
ALTER TABLE movie ADD COLUMN runtime INTEGER CHECK (runtime IS NULL OR runtime > 0);
ALTER TABLE movie ADD COLUMN genres TEXT;
ALTER TABLE movie ADD COLUMN certification TEXT;
-- When the blocks were last read (Unix seconds, REAL), and the region they were read for (NULL: never): a family
-- that moves to another region sees its movies as unknown until their next check, never another country's data.
-- On the schedule's row, not the movie's: a check that finds nothing new writes no movie row.
ALTER TABLE movieSchedule ADD COLUMN extrasCheckedAt REAL;
ALTER TABLE movieSchedule ADD COLUMN extrasRegion TEXT;
-- The region movieProvider's rows were read for; NULL while the provider block has never been read whole. Two
-- readings of one region are compared to find arrivals and departures; a first reading is a baseline.
ALTER TABLE movie ADD COLUMN providersRegion TEXT;

-- Where the movie can be watched in extrasRegion, by kind. One provider often has several kinds (rent and buy).
CREATE TABLE movieProvider (
    movieId INTEGER NOT NULL REFERENCES movie(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('flatrate', 'free', 'ads', 'rent', 'buy')),
    providerId INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (movieId, kind, providerId)
) WITHOUT ROWID;
CREATE INDEX movieProvider_providerId ON movieProvider(providerId);

-- A provider starting or ceasing to offer the movie at no extra cost (flatrate, free or ads), as two checks of
-- one region differ. Rent and buy alone are not recorded. runId as in movieHistory. Every provider is kept, not
-- only the family's services: the services are matched when read, so a service added later finds its past.
CREATE TABLE availabilityChange (
    id INTEGER PRIMARY KEY,
    movieId INTEGER NOT NULL REFERENCES movie(id) ON DELETE CASCADE,
    at REAL NOT NULL,
    runId INTEGER,
    providerId INTEGER NOT NULL,
    provider TEXT NOT NULL,
    arrived INTEGER NOT NULL CHECK (arrived IN (0, 1))
);
CREATE INDEX availabilityChange_at ON availabilityChange(at);
CREATE INDEX availabilityChange_movieId ON availabilityChange(movieId);

-- TMDB's certifications for a region, in their order (GET /certification/movie/list): asked once and kept.
CREATE TABLE certificationOrder (
    region TEXT NOT NULL,
    certification TEXT NOT NULL,
    rank INTEGER NOT NULL,
    PRIMARY KEY (region, certification)
) WITHOUT ROWID;
