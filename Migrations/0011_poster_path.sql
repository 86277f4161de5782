-- TMDB's poster_path for the movie ("/abc123.jpg"), from the search and details answers mustc already receives.
-- Only a path matching ^/[A-Za-z0-9_-]+\.(jpg|jpeg|png|webp)$ is ever stored; the poster itself is a file in the
-- posters directory beside the database, not a row. NULL until the movie's next check after this migration.
ALTER TABLE movie ADD COLUMN posterPath TEXT;
