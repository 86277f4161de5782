-- pick's reads that walked the whole library (issue 33; 100,000 movies, 150,000 offers, sqlite3 CLI timings).

-- The weighted rating's prior (Store.nightPrior): the count and mean of the rated movies and their median vote
-- count. Without it, a scan of `movie` and a sort of every vote count (0.09 s CPU for the median alone); through
-- this covering index, a walk of it in order (under 0.01 s).
CREATE INDEX movie_prior ON movie(voteCount, voteAverage) WHERE voteCount > 0 AND voteAverage IS NOT NULL;

-- The providers seen for a region, by `pick --streaming`'s check of family.services (Store.providerNamesSeen): one
-- seek per distinct (provider, name), where grouping every offer took 0.22 s CPU.
CREATE INDEX movieProvider_providerName ON movieProvider(providerId, name);
