-- What each member has seen and thinks of a movie, on their link to it: whether they watched it, the day they did
-- (NULL: not watched, or watched on a day nobody recorded), and their own rating on a 1–10 scale (Letterboxd's
-- half stars doubled, IMDb's as is). Columns rather than a table of viewings: `pick` and the reports read one
-- mark per link, and the link's primary key already finds it. Existing links are not watched and have no rating.
ALTER TABLE memberMovie ADD COLUMN watched INTEGER NOT NULL DEFAULT 0 CHECK (watched IN (0, 1));
ALTER TABLE memberMovie ADD COLUMN watchedOn TEXT
    CHECK (watchedOn IS NULL OR watchedOn GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]');
ALTER TABLE memberMovie ADD COLUMN ownRating INTEGER CHECK (ownRating BETWEEN 1 AND 10);
