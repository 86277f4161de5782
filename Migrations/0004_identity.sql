-- Which movie: a resolved movie is its TMDB id, an unresolved one its folded title and, when given, its year,
-- so remakes ("Dune" 1984 and 2021) are two rows. Titles people typed are kept as aliases of the movie.
--
-- movie.titleKey was UNIQUE, and SQLite cannot drop a constraint in place. Rather than rebuild the table (whose
-- DROP would run ON DELETE CASCADE on every link, as foreign_keys cannot be turned off inside the migration's
-- transaction), the unique column is renamed and becomes the identity; a new titleKey column keeps the fold.
-- Ids, links, and tables or triggers that reference movie(id) are untouched.
ALTER TABLE movie RENAME COLUMN titleKey TO identityKey;
ALTER TABLE movie ADD COLUMN titleKey TEXT NOT NULL DEFAULT '';
-- The year the user gave, or TMDB's release year once resolved.
ALTER TABLE movie ADD COLUMN year INTEGER CHECK (year BETWEEN 1870 AND 2100);
-- "tt…" when the movie was named by its IMDb id.
ALTER TABLE movie ADD COLUMN imdbId TEXT;

UPDATE movie SET titleKey = identityKey;
UPDATE movie SET year = CAST(substr(releaseDate, 1, 4) AS INTEGER)
WHERE releaseDate GLOB '[0-9][0-9][0-9][0-9]*' AND CAST(substr(releaseDate, 1, 4) AS INTEGER) BETWEEN 1870 AND 2100;
-- Identity keys, written by Swift the same way (Store.identityKey): "tmdb:<id>", "imdb:<tt…>", "title:<fold>" or
-- "title:<fold> (<year>)". First a key no old row can hold (folds have no control characters), so no row meets
-- another's new key half way through the update.
UPDATE movie SET identityKey = char(1) || id;
UPDATE movie SET identityKey = CASE WHEN remoteId IS NOT NULL THEN 'tmdb:' || remoteId ELSE 'title:' || titleKey END;

CREATE INDEX movie_titleKey ON movie(titleKey, year);
CREATE INDEX movie_imdbId ON movie(imdbId) WHERE imdbId IS NOT NULL;

-- Every title someone typed (its TitleKey fold, and the year they gave or 0), and the movie it names. A merge
-- moves aliases to the surviving movie, so every spelling keeps working for add and remove.
CREATE TABLE movieAlias (
    key TEXT NOT NULL,
    year INTEGER NOT NULL DEFAULT 0,
    movieId INTEGER NOT NULL REFERENCES movie(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    PRIMARY KEY (key, year)
) WITHOUT ROWID;
CREATE INDEX movieAlias_movieId ON movieAlias(movieId);
INSERT INTO movieAlias (key, year, movieId, title) SELECT titleKey, 0, id, title FROM movie;

-- TMDB's closest results for a movie whose title matched none exactly: shown by add and status, never taken.
CREATE TABLE movieCandidate (
    movieId INTEGER NOT NULL REFERENCES movie(id) ON DELETE CASCADE,
    rank INTEGER NOT NULL,
    remoteId INTEGER NOT NULL,
    title TEXT NOT NULL,
    year INTEGER,
    PRIMARY KEY (movieId, rank)
) WITHOUT ROWID;
