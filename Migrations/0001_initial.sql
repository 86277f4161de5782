-- Family members, the movies they keep, and the links between them.
-- *Key columns hold TitleKey folds computed in Swift (no custom collation, so the sqlite3 CLI still works).

CREATE TABLE member (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    nameKey TEXT NOT NULL UNIQUE,
    createdAt TEXT NOT NULL
);

CREATE TABLE movie (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    titleKey TEXT NOT NULL UNIQUE,
    remoteId INTEGER UNIQUE CHECK (remoteId > 0),
    popularity REAL,
    voteAverage REAL,
    voteCount INTEGER,
    releaseDate TEXT,
    updatedAt TEXT,
    createdAt TEXT NOT NULL
);

CREATE TABLE memberMovie (
    memberId INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
    movieId INTEGER NOT NULL REFERENCES movie(id) ON DELETE CASCADE,
    addedAt TEXT NOT NULL,
    PRIMARY KEY (memberId, movieId)
) WITHOUT ROWID;

CREATE INDEX memberMovie_movieId ON memberMovie(movieId);
