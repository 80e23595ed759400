-- Extensions Sugu relies on (all load in PGlite from @electric-sql/pglite/contrib/*).
-- btree_gist: scalar columns in GiST exclusion constraints / indexes.
-- cube + earthdistance: ll_to_earth() for nearest-first search.
-- pg_trgm: fuzzy text matching.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS cube;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS earthdistance;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
