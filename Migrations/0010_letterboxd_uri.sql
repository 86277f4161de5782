-- Letterboxd's own name for a film: the boxd.it URI its watchlist and watched exports give each row. Two films
-- whose titles fold alike ("Rain" and "rain", both 2019) are two rows, and importing again finds each by its URI.
-- NULL for every movie not imported from such a list.
ALTER TABLE movie ADD COLUMN letterboxdUri TEXT;
CREATE UNIQUE INDEX movie_letterboxdUri ON movie(letterboxdUri) WHERE letterboxdUri IS NOT NULL;
