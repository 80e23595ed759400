-- What Drizzle cannot express. Keep this file: `drizzle-kit push` would drop these.

-- No double booking: one confirmed booking per table per overlapping period,
-- whatever the number of app instances (needs btree_gist for integer "=").
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_no_overlap_per_table"
  EXCLUDE USING gist ("table_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&)
  WHERE ("status" = 'confirmed');--> statement-breakpoint

-- A signed-in user cannot hold two overlapping confirmed bookings at one store.
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_no_overlap_per_user_store"
  EXCLUDE USING gist ("user_id" WITH =, "store_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&)
  WHERE ("status" = 'confirmed' AND "user_id" IS NOT NULL);--> statement-breakpoint

-- Nearest-first search within an area: ORDER BY ll_to_earth(lat, lng) <-> ll_to_earth($lat, $lng)
-- (btree_gist for area_id, cube's GiST opclass for the earth point).
CREATE INDEX "stores_area_location_gist" ON "stores"
  USING gist ("area_id", ll_to_earth("lat", "lng"));--> statement-breakpoint

-- Same, across all areas.
CREATE INDEX "stores_location_gist" ON "stores"
  USING gist (ll_to_earth("lat", "lng"));
