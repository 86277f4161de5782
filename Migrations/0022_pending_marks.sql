-- A media server's watch of a title with no ids and no year ("Dune": TMDB has 1984 and 2021) is held here instead of
-- marking whichever movie TMDB's search ranks first: the movie stays on the member's list unwatched until the
-- family chooses (`mustc resolve`, the page's settle form) or TMDB names one movie, and then the mark is applied
-- with the day and the server it came with. One held mark per member and movie: a repeat of the event keeps the
-- later day. The mark goes when the link does (the member removes the movie, or it is merged into another, which
-- moves the held marks first).
CREATE TABLE pendingMark (
    memberId INTEGER NOT NULL,
    movieId INTEGER NOT NULL,
    watchedOn TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('jellyfin', 'plex', 'emby')),
    heldAt TEXT NOT NULL,
    PRIMARY KEY (memberId, movieId),
    FOREIGN KEY (memberId, movieId) REFERENCES memberMovie(memberId, movieId) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX pendingMark_movieId ON pendingMark(movieId);
