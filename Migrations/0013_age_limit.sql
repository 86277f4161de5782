-- A member's age limit: the highest certification of the family's region they may see (NULL: none). A pick that
-- includes them never goes above it, and leaves out movies with no certification unless asked not to.
ALTER TABLE member ADD COLUMN ageLimit TEXT;
