-- mapindex index schema: the tile counts of visual layers are one JSON value
-- per layer data instead of one row per tile.
--
-- Why: visual (`tiles`) layers hold 95% of all tile count rows (82,920 of
-- 87,120 on the corpus of 267 maps), and writing them, one B-tree insert per
-- row, was 40% of the writer's time; on 2 cores the writer shares the CPU with
-- the decoding (benchmarks/RESULTS.md). One text value in the layer_data row
-- costs one column. The physics layers (game, front, tele, speedup, switch,
-- tune) keep one row per tile in a table of their own, indexed by
-- (layer_kind, tile, count): they are what queries ask for by tile
-- (README, "Fast queries").
--
-- What stays the same: layer_data_tiles becomes a view with its old name,
-- columns and rows (the physics rows plus the JSON values unpacked with
-- SQLite's json_each), and tile_counts gives the same rows as before (and so
-- map_tiles, which reads it by name), so every query gives the same answers. Which kinds go where:
-- rows of the six physics kinds, JSON for every other kind (`tiles`, and
-- `spritetile`, whose layers are SpriteTile's only kind).
--
-- The JSON value is an object from tile index (as text, JSON keys are text)
-- to count, in ascending tile order, e.g. {"1":520,"7":12}; NULL when the
-- layer data has no non-empty tile. Rows of layer_data written before this
-- version get their value from their rows here.

ALTER TABLE layer_data ADD COLUMN tile_counts_json TEXT
  CHECK (tile_counts_json IS NULL OR json_type(tile_counts_json) = 'object');

UPDATE layer_data
SET tile_counts_json = (
  SELECT json_group_object(CAST(t.tile AS TEXT), t.count)
  FROM (SELECT tile, count FROM layer_data_tiles
        WHERE layer_data_id = layer_data.layer_data_id ORDER BY tile) t)
WHERE NOT (kind = 'game' OR kind = 'front' OR kind = 'tele' OR kind = 'speedup'
           OR kind = 'switch' OR kind = 'tune')
  AND EXISTS (SELECT 1 FROM layer_data_tiles t WHERE t.layer_data_id = layer_data.layer_data_id);

CREATE TABLE layer_data_physics_tiles (
  layer_data_id INTEGER NOT NULL REFERENCES layer_data (layer_data_id),
  layer_kind    TEXT    NOT NULL CHECK (layer_kind = 'game' OR layer_kind = 'front'
                  OR layer_kind = 'tele' OR layer_kind = 'speedup' OR layer_kind = 'switch'
                  OR layer_kind = 'tune'),
  tile          INTEGER NOT NULL,
  count         INTEGER NOT NULL,
  PRIMARY KEY (layer_data_id, tile)
) WITHOUT ROWID;

INSERT INTO layer_data_physics_tiles (layer_data_id, layer_kind, tile, count)
SELECT layer_data_id, layer_kind, tile, count FROM layer_data_tiles
WHERE layer_kind = 'game' OR layer_kind = 'front' OR layer_kind = 'tele'
   OR layer_kind = 'speedup' OR layer_kind = 'switch' OR layer_kind = 'tune';

DROP VIEW tile_counts;
DROP TABLE layer_data_tiles;  -- and its index tile_counts_by_tile

-- Every row of the table is of a physics kind, so the index needs no WHERE:
-- a query that names the kind as a literal, in an IN list or as a parameter
-- uses it.
CREATE INDEX tile_counts_by_tile ON layer_data_physics_tiles (layer_kind, tile, count);

-- The layer data with a JSON value, by kind: a query on tile_counts that
-- names a kind reads only those rows of layer_data (none, for a physics kind).
CREATE INDEX layer_data_json_by_kind ON layer_data (kind) WHERE tile_counts_json IS NOT NULL;

-- Tile counts per layer data, as the table of version 6 to 9 had them.
CREATE VIEW layer_data_tiles AS
SELECT layer_data_id, layer_kind, tile, count FROM layer_data_physics_tiles
UNION ALL
SELECT d.layer_data_id, d.kind, CAST(j.key AS INTEGER), j.value
FROM layer_data d, json_each(d.tile_counts_json) j
WHERE d.tile_counts_json IS NOT NULL;

-- How often each tile occurs in each layer of each map (non-empty tiles only).
-- Each part joins layers itself, so a query's conditions reach both.
CREATE VIEW tile_counts AS
SELECT l.map_id, l.layer_index, t.layer_kind, t.tile, t.count
FROM layer_data_physics_tiles t
JOIN layers l ON l.layer_data_id = t.layer_data_id
UNION ALL
SELECT l.map_id, l.layer_index, d.kind, CAST(j.key AS INTEGER), j.value
FROM layer_data d
JOIN layers l ON l.layer_data_id = d.layer_data_id, json_each(d.tile_counts_json) j
WHERE d.tile_counts_json IS NOT NULL;
